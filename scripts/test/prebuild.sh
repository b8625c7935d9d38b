#!/usr/bin/env bash
# The compose stack's images and the check image, built while vitest runs, so that the e2e
# set-up's own `docker-compose build` finds every layer in the cache (run.sh starts this).
#
#   prebuild.sh     builds them; exits with the build's status
#
# Where the Docker engine is this run's own (OWN_ENGINE=1: setup.sh started it) and keeps its
# containers in cgroup v1's cpu hierarchy (the cgroupfs driver), the build's containers run in a
# cgroup of their own whose CPU weight is a sixteenth of the tests' (PREBUILD_CPU_SHARES, 64
# against 1024): they take what vitest leaves. At an equal weight they took half the cores from
# vitest's engine tests for as long as the build lasted, and on a new machine vitest ran twice as
# long. Elsewhere (an engine the user runs, cgroup v2, the systemd driver) it is
# `docker-compose build`, as before.
set -euo pipefail
cd "$(dirname "$0")/../.."

as_root=${AS_ROOT:-}
shares=${PREBUILD_CPU_SHARES:-64}
if ! [[ "$shares" =~ ^[0-9]+$ ]] || [ "$shares" -lt 2 ] || [ "$shares" -gt 262144 ]; then
  echo "PREBUILD_CPU_SHARES must be a whole number from 2 to 262144 (cgroup v1's cpu.shares), not '$shares'" >&2
  exit 2
fi
group="origin-lab-prebuild-slot${DOCKER_SLOT:-0}"

compose_build() {
  exec docker-compose --project-name originlab-prebuild --profile check build --force-rm
}

[ "${OWN_ENGINE:-}" = 1 ] && [ -f /sys/fs/cgroup/cpu/cpu.shares ] || compose_build
[ "$(docker info --format '{{.CgroupDriver}} {{.CgroupVersion}}' 2>/dev/null)" = "cgroupfs 1" ] || compose_build
$as_root mkdir -p "/sys/fs/cgroup/cpu/$group" && echo "$shares" | $as_root tee "/sys/fs/cgroup/cpu/$group/cpu.shares" >/dev/null \
  || compose_build
# dockerd makes the group in every other hierarchy; each is removed once its containers are.
trap '$as_root rmdir /sys/fs/cgroup/*/"$group" 2>/dev/null || true' EXIT
trap 'exit 143' TERM
trap 'exit 130' INT

# What docker-compose.yml builds with the check profile: each service's target, image name,
# context and Dockerfile.
targets=$(node --input-type=module -e "
  import { readFileSync } from 'node:fs';
  import { parse } from 'yaml';
  const { services } = parse(readFileSync('docker-compose.yml', 'utf8'));
  for (const service of Object.values(services))
    if (service.build && (!service.profiles || service.profiles.includes('check')))
      console.log(service.build.target, service.image, service.build.context, service.build.dockerfile);
")
echo "building at cpu.shares $shares (cgroup $group): $(echo "$targets" | awk '{print $2}' | tr '\n' ' ')"
while read -r target image context dockerfile; do
  docker build --force-rm --cgroup-parent "/$group" --target "$target" -t "$image" -f "$context/$dockerfile" "$context"
done <<<"$targets"
