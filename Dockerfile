# The images of the three Node services, from one Dockerfile at the root of the npm workspace.
# Each service is a final stage of its own; pick it with --target:
#   docker build --target api           -t origin-lab-api .
#   docker build --target pages         -t origin-lab-pages .
#   docker build --target upstream-mock -t origin-lab-upstream-mock .
# (docker-compose.yml does the same with `build: { context: ., target: ... }`.)
# The manifests, build and deps stages are written once and shared by the three targets, so the
# builder's layer cache installs and builds the workspace once for all three images. Works with
# the legacy builder (no BuildKit syntax).

# Only the package manifests, so that the install is redone only when dependencies change. Every
# package.json of the context is kept, so each workspace that `npm ci` needs (packages/*,
# services/*, launcher, and any workspace added later) is there without being listed here. (A
# `COPY packages/*/package.json` would not do: the builder flattens a wildcard's matches into one
# folder.) The layers after this stage are reused as long as the manifests stay the same.
FROM node:20-bookworm-slim AS manifests
WORKDIR /app
COPY . .
RUN find . -type f ! -name package.json ! -name package-lock.json -delete && find . -type d -empty -delete

# Compiles the whole workspace (TypeScript and the pages' browser code).
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY --from=manifests /app ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
RUN npm run build

# Production dependencies only.
FROM node:20-bookworm-slim AS deps
WORKDIR /app
COPY --from=manifests /app ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund

# What every service's image holds: production node_modules, the root manifest, server-kit and
# the contract (the api loads its values and codecs at run time; the pages build copied its JS
# into their dist/public/js/contract/ already).
FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/package.json ./
COPY --from=build /app/packages/server-kit/package.json packages/server-kit/
COPY --from=build /app/packages/server-kit/dist packages/server-kit/dist
COPY --from=build /app/packages/contract/package.json packages/contract/
COPY --from=build /app/packages/contract/dist packages/contract/dist
# The rebinding lab's file for the pages (compose's rebind_site volume takes this folder's owner).
RUN mkdir -p /run/origin-lab && chown node:node /run/origin-lab

# Each final stage below adds its one service and runs as the image's `node` user. The healthcheck
# asks each service within 3 s: the api's /lab/health must answer 200 (outside /api/, the path
# Caddy's checks use too), the others any HTTP answer. The interval is long so that the check does
# not crowd the request log a workshop reads. Node is PID 1 and handles SIGTERM itself
# (open streams end, in-flight requests finish); compose adds an init process as well
# (init: true) to reap strays.

FROM runtime AS api
ENV PORT=3000
COPY --from=build /app/services/api/package.json services/api/
COPY --from=build /app/services/api/dist services/api/dist
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.PORT + '/lab/health', { signal: AbortSignal.timeout(3000) }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "services/api/dist/main.js"]

FROM runtime AS pages
ENV PORT=3001
COPY --from=build /app/services/pages/package.json services/pages/
COPY --from=build /app/services/pages/dist services/pages/dist
USER node
EXPOSE 3001
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.PORT + '/', { signal: AbortSignal.timeout(3000) }).then(() => process.exit(0), () => process.exit(1))"]
CMD ["node", "services/pages/dist/main.js"]

FROM runtime AS upstream-mock
ENV PORT=8090
COPY --from=build /app/services/upstream-mock/package.json services/upstream-mock/
COPY --from=build /app/services/upstream-mock/dist services/upstream-mock/dist
USER node
EXPOSE 8090
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.PORT + '/', { signal: AbortSignal.timeout(3000) }).then(() => process.exit(0), () => process.exit(1))"]
CMD ["node", "services/upstream-mock/dist/main.js"]

# The DNS rebinding lab (compose's `rebind` profile, docs/local-servers.md): a resolver and two
# local servers, run on the host's network so that they are on the loopback of the machine whose
# browser is attacked. Not one of the service's parts: it serves no page and no /api/.
FROM runtime AS rebind
COPY --from=build /app/launcher/package.json launcher/
COPY --from=build /app/launcher/dist launcher/dist
USER node
CMD ["node", "launcher/dist/rebind/serve.js"]

# `origin-lab check` with the three engines it drives, from Debian bookworm's packages (Chromium's
# headless shell, Firefox ESR, WebKitGTK's WebDriver and MiniBrowser; Xvfb and D-Bus, which
# WebKitGTK needs even headless). Nothing is downloaded when it runs. The package is installed
# from its own tarball, as a user's `npm i -g` would. Runs as `node`; reports go wherever a
# volume is mounted:
#   docker build --target check -t origin-lab/check .
#   docker run --rm -v "$PWD:/out" origin-lab/check https://api.example.com/me \
#     --from https://app.example.com --sarif /out/cors.sarif
# The first word may name another command: `docker run --rm origin-lab/check engines`.
FROM build AS check-package
RUN npm pack --silent -w origin-lab --pack-destination /tmp \
  && npm install -g --prefix /opt/origin-lab --no-audit --no-fund /tmp/origin-lab-*.tgz

FROM node:20-bookworm-slim AS check
# No manuals, documentation or translations (about 140 MB); no package archives or lists left behind.
RUN printf '%s\n' 'path-exclude=/usr/share/doc/*' 'path-exclude=/usr/share/man/*' 'path-exclude=/usr/share/locale/*' \
    >/etc/dpkg/dpkg.cfg.d/origin-lab-check \
  && apt-get update \
  && apt-get install -y --no-install-recommends chromium-headless-shell firefox-esr webkit2gtk-driver \
    xvfb xauth dbus ca-certificates fonts-dejavu-core \
  && apt-get clean && rm -rf /var/lib/apt/lists/*
COPY --from=check-package /opt/origin-lab /opt/origin-lab
COPY docker/check-entrypoint.sh /usr/local/bin/origin-lab-image
ENV PATH=/opt/origin-lab/bin:$PATH
USER node
WORKDIR /home/node
ENTRYPOINT ["origin-lab-image"]
CMD ["--help"]
