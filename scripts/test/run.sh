#!/usr/bin/env bash
# npm test: set the machine up for the suite (setup.sh), then build, type-check, lint and run
# every test: vitest, then Playwright on each chosen stack and browser. What it starts (a Docker
# engine of its own) it stops on the way out: after a failure, on Ctrl-C and on SIGTERM too.
#
#   npm test                       everything
#   npm run test:e2e -- [ARGS]     set-up and the e2e suite only; ARGS go to playwright test
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/test/setup.sh

only=""
if [ "${1:-}" = "--only-e2e" ]; then only=e2e; shift; fi

started=$(date +%s)
step() { echo "=== [$(($(date +%s) - started)) s] $*"; }

child=""
prebuild=""
static=""
finish() {
  local status=$1
  trap - EXIT INT TERM
  if [ -n "$prebuild" ]; then kill -TERM -- "-$prebuild" 2>/dev/null || true; fi
  if [ -n "$static" ] && kill -TERM -- "-$static" 2>/dev/null; then
    echo "[test] the static checks were stopped before they ended (.tmp/static-checks.log)"
  fi
  if [ -n "$child" ] && kill -0 "$child" 2>/dev/null; then
    # The step's whole process group: Playwright's teardown takes its stacks down on SIGINT.
    kill -INT -- "-$child" 2>/dev/null || true
    for _ in $(seq 1 60); do kill -0 "$child" 2>/dev/null || break; sleep 1; done
    kill -KILL -- "-$child" 2>/dev/null || true
  fi
  stop_docker_engine
  # What this run spent its time on, so the next test added can see what it costs.
  if [ -d .tmp/timings ]; then
    step "the slowest tests and files of this run"
    node scripts/test/slowest.mjs || true
  fi
  step "done (exit $status)"
  exit "$status"
}
trap 'finish $?' EXIT
trap 'echo "[test] interrupted"; finish 130' INT
trap 'echo "[test] terminated"; finish 143' TERM

# Each step runs in a process group of its own, in the background, and is waited for: a signal
# reaches the trap at once, and the trap can stop the step with everything it started. Returns the
# step's status (also where errexit is off, as in `run ... || e2e=$?`).
run() {
  local status=0
  setsid "$@" &
  child=$!
  wait "$child" || status=$?
  child=""
  return "$status"
}

# The timings of this run only (the runners' reporters write them; slowest.mjs prints them at the end).
rm -rf .tmp/timings

# Whether the compose stack's images are built early, beside vitest (prebuild.sh, below): in every
# run but the e2e suite's alone, where the set-up chooses that stack. The set-up (setup.sh) and
# the build below both go by this one answer. Only those images need the base images: built
# early, that build makes them first, off the path to the first test (made with debootstrap on a
# new machine, they took about 70 s of the set-up); a run of the e2e suite alone makes them in
# its set-up.
early_build=""
[ "$only" = e2e ] || early_build=1

step "set-up"
set_up_for_tests

# testcontainers: no reaper image can be pulled on a machine without a registry, and this run
# removes what it starts itself; published ports are on loopback.
export TESTCONTAINERS_RYUK_DISABLED=${TESTCONTAINERS_RYUK_DISABLED:-true}
export TESTCONTAINERS_HOST_OVERRIDE=${TESTCONTAINERS_HOST_OVERRIDE:-127.0.0.1}
# The e2e suite runs exactly what set-up prepared, and fails if any of it cannot run.
E2E_STACKS=$(IFS=,; echo "${chosen_stacks[*]}")
E2E_BROWSERS=$(IFS=,; echo "${chosen_browsers[*]}")
export E2E_STACKS E2E_BROWSERS

step "build"
run npm run --silent build
if [ -n "$early_build" ] && [[ " ${E2E_STACKS//,/ } " == *" compose "* ]]; then
  # The compose stack's images, and the check image (its profile), build while the type-check,
  # lint and vitest run, at a CPU weight below the tests' where the engine is this run's own
  # (prebuild.sh), after the base images where the engine lacks them; the e2e set-up builds them
  # again from this cache, in seconds. Bounded by twice that build's bound
  # (E2E_COMPOSE_BUILD_TIMEOUT_MS): it may wait for most of vitest first.
  mkdir -p .tmp
  setsid timeout "$(( ${E2E_COMPOSE_BUILD_TIMEOUT_MS:-900000} * 2 / 1000 ))" \
    env OWN_ENGINE="$([ -n "$engine_dir" ] && echo 1)" AS_ROOT="${as_root:-}" bash scripts/test/prebuild.sh \
    >.tmp/compose-prebuild.log 2>&1 &
  prebuild=$!
  echo "[test] building the compose stack's images meanwhile (.tmp/compose-prebuild.log)"
fi
if [ "$only" != e2e ]; then
  # The static checks have no bound a slow core could break, and the e2e suite leaves a quarter
  # of the cores idle (its tests wait on streams, beacons and DNS caches): they run beside the
  # tests in a session of their own at the lowest priority (the session's scheduling group too,
  # where the kernel groups by session), taking what the tests leave. The build has type-checked
  # every package already; their result is printed when the tests end, and a failure fails the run.
  step "type-check, lint, format and import circles: beside the tests, at the lowest priority"
  mkdir -p .tmp
  setsid bash -c 'echo 19 >/proc/self/autogroup 2>/dev/null; exec nice -n 19 bash scripts/test/static-checks.sh' \
    >.tmp/static-checks.log 2>&1 &
  static=$!
  step "unit and integration tests (vitest)"
  run node_modules/.bin/vitest run
fi
if [ -n "$prebuild" ]; then
  step "the compose stack's images"
  if ! wait "$prebuild"; then
    echo "[test] their early build failed (.tmp/compose-prebuild.log): the e2e set-up builds them"
    provide_base_images
  fi
  prebuild=""
fi
step "end-to-end tests (Playwright: $E2E_STACKS in $E2E_BROWSERS)"
e2e=0
run node_modules/.bin/playwright test -c e2e/playwright.config.ts "$@" || e2e=$?
if [ -n "$static" ]; then
  step "type-check, lint, format and import circles (begun beside the tests)"
  checks=0
  wait "$static" || checks=$?
  static=""
  cat .tmp/static-checks.log
  if [ "$checks" -ne 0 ]; then
    echo "[test] the static checks failed (above)"
    [ "$e2e" -ne 0 ] || e2e=$checks
  fi
fi
exit "$e2e"
