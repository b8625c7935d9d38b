#!/usr/bin/env bash
# The compose stack's images and the check image, built while vitest runs, so that the e2e
# set-up's own `docker-compose build` finds every layer in the cache (run.sh starts this). First
# the base images they are built from, where the engine lacks them (setup.sh's
# provide_base_images: loaded from the cache, pulled, or made with debootstrap).
#
#   prebuild.sh     builds them; exits with the build's status
#
# Where the Docker engine is this run's own (OWN_ENGINE=1: setup.sh started it) and keeps its
# containers in cgroup v1's cpu hierarchy (the cgroupfs driver), the build's containers run in a
# cgroup of their own whose CPU weight is a sixteenth of the tests' (PREBUILD_CPU_SHARES, 64
# against 1024): they take what vitest leaves. At an equal weight they took half the cores from
# vitest's engine tests for as long as the build lasted, and on a new machine vitest ran twice as
# long. On an engine the user runs it is `docker-compose build`, as before. On the run's own
# engine each image is built with `docker build` (in that cgroup where there is one, cgroup v2 or
# the systemd driver have none), and the build stages get tags of their own
# (origin-lab-stage:NAME), so that the engine's stop keeps them as the next run's cache.
set -euo pipefail
cd "$(dirname "$0")/../.."

as_root=${AS_ROOT:-}
shares=${PREBUILD_CPU_SHARES:-64}
if ! [[ "$shares" =~ ^[0-9]+$ ]] || [ "$shares" -lt 2 ] || [ "$shares" -gt 262144 ]; then
  echo "PREBUILD_CPU_SHARES must be a whole number from 2 to 262144 (cgroup v1's cpu.shares), not '$shares'" >&2
  exit 2
fi
group="origin-lab-prebuild-slot${DOCKER_SLOT:-0}"

source scripts/test/setup.sh
provide_base_images

weighted=1
[ "${OWN_ENGINE:-}" = 1 ] && [ -f /sys/fs/cgroup/cpu/cpu.shares ] || weighted=""
[ -z "$weighted" ] || [ "$(docker info --format '{{.CgroupDriver}} {{.CgroupVersion}}' 2>/dev/null)" = "cgroupfs 1" ] \
  || weighted=""
if [ -n "$weighted" ]; then
  if $as_root mkdir -p "/sys/fs/cgroup/cpu/$group"; then
    # dockerd makes the group in every other hierarchy; each is removed once its containers are.
    trap '$as_root rmdir /sys/fs/cgroup/*/"$group" 2>/dev/null || true' EXIT
    if ! echo "$shares" | $as_root tee "/sys/fs/cgroup/cpu/$group/cpu.shares" >/dev/null; then
      $as_root rmdir "/sys/fs/cgroup/cpu/$group" 2>/dev/null || true
      weighted=""
    fi
  else
    weighted=""
  fi
fi
trap 'exit 143' TERM
trap 'exit 130' INT
# Each RUN step on the host's network: a step's container on Docker's bridge adds an interface to
# the host for as long as it runs, and Chromium, beside it (vitest's engine tests), ends every
# request it has in flight when the host's addresses change (net::ERR_NETWORK_CHANGED: 52 of 480
# fetches failed beside containers of four seconds each, none beside the same on the host's
# network). Where a step's container gets its network does not change the build's cache.
build() {
  docker build --force-rm --network host ${weighted:+--cgroup-parent "/$group"} "$@"
}

# What docker-compose.yml builds with the check profile, a line each: "image", the target (final
# stage), the image name, context and Dockerfile; then its Dockerfiles' other stages, each a line
# "stage", the stage (one no service targets), the tag it gets, context and Dockerfile.
plan=$(node --input-type=module -e "
  import { readFileSync } from 'node:fs';
  import { join } from 'node:path';
  import { parse } from 'yaml';
  const { services } = parse(readFileSync('docker-compose.yml', 'utf8'));
  const built = Object.values(services).filter(
    (service) => service.build && (!service.profiles || service.profiles.includes('check')),
  );
  const targets = new Set(Object.values(services).flatMap((service) => service.build?.target ?? []));
  const files = new Map(built.map(({ build }) => [join(build.context, build.dockerfile), build]));
  for (const [file, { context, dockerfile }] of files)
    for (const [, stage] of readFileSync(file, 'utf8').matchAll(/^FROM\\s+\\S+\\s+AS\\s+(\\S+)/gim))
      if (!targets.has(stage)) console.log('stage', stage, 'origin-lab-stage:' + stage, context, dockerfile);
  for (const { build, image } of built) console.log('image', build.target, image, build.context, build.dockerfile);
")

# An engine the user runs is never pruned, and gets no tags of ours.
if [ "${OWN_ENGINE:-}" != 1 ]; then
  exec docker-compose --project-name originlab-prebuild --profile check build --force-rm
fi
# On the run's own engine, the stages no image is built from (the workspace's npm ci and build,
# the check's package) are tagged, so that the engine's stop, which removes every image no tag
# names, keeps them as the next run's cache: untagged, they were all built again by every run that
# kept the images. Then the images, each step on the host's network (build, above).
build_each() {
  while read -r kind target image context dockerfile; do
    [ "$kind" = "$1" ] || continue
    build --target "$target" -t "$image" -f "$context/$dockerfile" "$context"
  done <<<"$plan"
}
build_each stage
echo "building${weighted:+ at cpu.shares $shares (cgroup $group)}: $(awk '$1 == "image" {print $3}' <<<"$plan" | tr '\n' ' ')"
build_each image
