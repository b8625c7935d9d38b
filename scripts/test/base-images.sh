#!/usr/bin/env bash
# Provides the base images our Dockerfiles and docker-compose.yml name, so that those files stay
# the standard ones users build and run, on an engine that may have no registry to pull from:
#   1. images already in the engine are left alone;
#   2. a cache saved by an earlier run is loaded (seconds): BASE_IMAGE_CACHE, by default
#      ~/.cache/origin-lab, keyed by this machine's node and caddy versions;
#   3. images that can be pulled are pulled (each pull bounded by BASE_IMAGE_PULL_SECONDS, 30);
#   4. the rest are made locally, then both are saved to the cache:
#      node:20-bookworm-slim  Debian bookworm (debootstrap minbase) + this machine's node and npm,
#                             laid out as in the official image (/usr/local, user "node" uid 1000),
#                             trusting this machine's CA bundle (builds run npm ci, and a machine
#                             may reach the npm registry through a TLS-inspecting proxy)
#      caddy:2                Debian bookworm + Debian's caddy, with the official image's
#                             environment, working directory and command
#      redis:7-bookworm       Debian bookworm + Debian's redis-server (7.0), installed with apt
#                             inside the build, with the official image's /data, user, port and
#                             command
# Making them needs root, debootstrap and caddy. Talks to the engine DOCKER_HOST names.
set -euo pipefail

mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
pull_seconds=${BASE_IMAGE_PULL_SECONDS:-30}
cache_dir=${BASE_IMAGE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/origin-lab}
images=(node:20-bookworm-slim caddy:2 redis:7-bookworm)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

have() { docker image inspect "$1" >/dev/null 2>&1; }
missing() { for image in "${images[@]}"; do have "$image" || echo "$image"; done; }

[ -z "$(missing)" ] && exit 0

caddy_version=$(command -v caddy >/dev/null && caddy version | cut -d' ' -f1 || echo none)
# "v3": the recipe below; a change to it must not load an older cache.
cache="$cache_dir/base-images-v3-node$(node --version)-caddy${caddy_version}.tar"
if [ -f "$cache" ]; then
  echo "base-images: loading ${images[*]} from $cache"
  docker load -i "$cache" >/dev/null
  [ -z "$(missing)" ] && exit 0
fi

for image in $(missing); do
  if timeout "$pull_seconds" docker pull -q "$image" >"$work/pull.log" 2>&1; then
    echo "base-images: pulled $image"
  else
    echo "base-images: $image cannot be pulled ($(tail -n 1 "$work/pull.log" | cut -c1-160)); making it locally"
  fi
done
[ -z "$(missing)" ] && exit 0

if ! have localhost/debian:bookworm; then
  echo "base-images: debootstrap bookworm (minbase) from $mirror"
  debootstrap --variant=minbase bookworm "$work/rootfs" "$mirror" >"$work/debootstrap.log" 2>&1 \
    || { tail -n 30 "$work/debootstrap.log" >&2; exit 1; }
  rm -rf "$work/rootfs/var/cache/apt/archives/"*.deb "$work/rootfs/var/lib/apt/lists/"*
  # The suites the official debian:bookworm image lists: debootstrap writes only the first, and
  # without bookworm-security the browsers it would install are too old for Playwright.
  rm -f "$work/rootfs/etc/apt/sources.list"
  cat >"$work/rootfs/etc/apt/sources.list.d/debian.sources" <<SOURCES
Types: deb
URIs: $mirror
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: ${mirror%/debian}/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SOURCES
  tar -C "$work/rootfs" -c . | docker import - localhost/debian:bookworm >/dev/null
  rm -rf "$work/rootfs"
fi

if ! have node:20-bookworm-slim; then
  node_bin=$(readlink -f "$(command -v node)")
  npm_dir=$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")
  echo "base-images: node:20-bookworm-slim from $node_bin ($(node --version)) and $npm_dir"
  mkdir -p "$work/node/npm"
  cp "$node_bin" "$work/node/node"
  ca_bundle=${CA_BUNDLE:-/etc/ssl/certs/ca-certificates.crt}
  if [ -f "$ca_bundle" ]; then cp "$ca_bundle" "$work/node/ca-certificates.crt"; else touch "$work/node/ca-certificates.crt"; fi
  cp -a "$npm_dir/." "$work/node/npm/"
  cat >"$work/node/Dockerfile" <<'DOCKERFILE'
FROM localhost/debian:bookworm
COPY node /usr/local/bin/node
COPY npm /usr/local/lib/node_modules/npm
COPY ca-certificates.crt /etc/ssl/certs/ca-certificates.crt
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \
 && groupadd --gid 1000 node \
 && useradd --uid 1000 --gid node --shell /bin/bash --create-home node
ENV NODE_VERSION=stand-in NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt
CMD ["node"]
DOCKERFILE
  docker build -q -t node:20-bookworm-slim "$work/node" >/dev/null
fi

if ! have caddy:2; then
  echo "base-images: caddy:2 from $(command -v caddy) ($(caddy version | cut -d' ' -f1))"
  mkdir -p "$work/caddy"
  cp "$(command -v caddy)" "$work/caddy/caddy"
  cat >"$work/caddy/Dockerfile" <<'DOCKERFILE'
FROM localhost/debian:bookworm
COPY caddy /usr/bin/caddy
RUN mkdir -p /config/caddy /data/caddy /etc/caddy /srv
ENV XDG_CONFIG_HOME=/config XDG_DATA_HOME=/data
WORKDIR /srv
EXPOSE 80 443 443/udp 2019
CMD ["caddy", "run", "--config", "/etc/caddy/Caddyfile", "--adapter", "caddyfile"]
DOCKERFILE
  docker build -q -t caddy:2 "$work/caddy" >/dev/null
fi

if ! have redis:7-bookworm; then
  echo "base-images: redis:7-bookworm from Debian's redis-server"
  mkdir -p "$work/redis"
  cat >"$work/redis/Dockerfile" <<'DOCKERFILE'
FROM localhost/debian:bookworm
RUN apt-get update -qq \
 && apt-get install -y -qq --no-install-recommends redis-server >/dev/null \
 && rm -rf /var/lib/apt/lists/* \
 && mkdir -p /data && chown redis:redis /data
WORKDIR /data
USER redis
EXPOSE 6379
CMD ["redis-server", "--protected-mode", "no"]
DOCKERFILE
  docker build -q -t redis:7-bookworm "$work/redis" >/dev/null
fi

# Cached for the next run, whose engine may be a new one with an empty data root.
mkdir -p "$cache_dir"
# Written aside and renamed, so two runs saving at once never leave a torn file.
partial=$(mktemp "$cache.XXXXXX")
docker save -o "$partial" "${images[@]}" && mv "$partial" "$cache"
echo "base-images: ${images[*]} ready (saved to $cache)"
