#!/usr/bin/env bash
# Tries the README's test command as a new user would: a fresh clone of this repository's HEAD in a
# fresh Debian bookworm container that has only Node.js (the node:20-bookworm-slim image), where
# `npm ci && npm test` must install what it needs and pass.
#
#   scripts/test/fresh-machine.sh [VAR=value ...]   settings for the run inside, e.g.
#   scripts/test/fresh-machine.sh E2E_STACKS=embedded,caddy
#
# FRESH_PRIVILEGED=1 runs the container privileged, which the compose stack inside needs (a Docker
# engine inside a container). Needs what the compose stack needs here; npm test's set-up provides it.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/test/setup.sh

# Only the Docker engine and the base images are needed on this side.
E2E_STACKS=compose E2E_BROWSERS=${E2E_BROWSERS:-chromium}
clone=""
trap 'stop_docker_engine; [ -n "$clone" ] && rm -rf "$clone"' EXIT
set_up_for_tests

clone=$(mktemp -d /tmp/olab-fresh.XXXXXX)
git clone -q . "$clone/repo"
say "fresh clone of $(git rev-parse --short HEAD) in a node:20-bookworm-slim container; inside: npm ci && npm test $*"
env_args=(-e CI=true)
for setting in "$@"; do env_args+=(-e "$setting"); done
privileged=()
[ -n "${FRESH_PRIVILEGED:-}" ] && privileged=(--privileged)
docker run --rm --init --shm-size=1g "${privileged[@]}" "${env_args[@]}" -v "$clone/repo:/src:ro" \
  node:20-bookworm-slim bash -c 'cp -a /src /root/origin-lab && cd /root/origin-lab && npm ci --no-audit --no-fund && npm test'
