# Sourced by run.sh: finds what the chosen tests need, installs what is missing with apt-get where
# it may (root, or sudo without a password), starts a Docker engine of this run's own, provides
# the base images (or leaves them to prebuild.sh, which sources it too). One line per thing it
# installs, starts or leaves out, and why. Where it may not, it prints the commands to run and
# returns non-zero before any test runs.
#
# Reads: E2E_STACKS, E2E_BROWSERS (what to run; docs/testing.md), TEST_SETUP (install | check),
# CI, and run.sh's early_build (set: prebuild.sh provides the base images). Sets: chosen_stacks, chosen_browsers, DOCKER_HOST (when it starts an engine).

say() { echo "[setup] $*"; }

# --- what is wanted -----------------------------------------------------------------------------

all_stacks=(embedded lan caddy compose)
# webkit: WebKitGTK's MiniBrowser over W3C WebDriver, on an Xvfb display, where the coverage
# matrix runs it (e2e/coverage.ts).
all_browsers=(chromium firefox webkit)

# Names from a comma list, checked against the known ones.
pick() {
  local variable=$1 list=$2 known=$3 name
  local -a names
  IFS=',' read -r -a names <<<"$list"
  for name in "${names[@]}"; do
    name=${name// /}
    [ -z "$name" ] && continue
    if [[ " $known " != *" $name "* ]]; then
      echo "[setup] $variable names an unknown one: $name (known: $known)" >&2
      return 2
    fi
    echo "$name"
  done
}

wanted_parts() {
  local list
  list=$(pick E2E_STACKS "${E2E_STACKS:-$(IFS=,; echo "${all_stacks[*]}")}" "${all_stacks[*]}") || return 2
  mapfile -t chosen_stacks <<<"$list"
  list=$(pick E2E_BROWSERS "${E2E_BROWSERS:-$(IFS=,; echo "${all_browsers[*]}")}" "${all_browsers[*]}") || return 2
  mapfile -t chosen_browsers <<<"$list"
  if [ -z "${chosen_stacks[*]}" ] || [ -z "${chosen_browsers[*]}" ]; then
    echo "[setup] E2E_STACKS and E2E_BROWSERS must each name at least one" >&2
    return 2
  fi
  local name
  for name in "${all_stacks[@]}"; do
    [[ " ${chosen_stacks[*]} " == *" $name "* ]] || say "stack $name left out: E2E_STACKS=${E2E_STACKS}"
  done
  for name in "${all_browsers[@]}"; do
    [[ " ${chosen_browsers[*]} " == *" $name "* ]] || say "browser $name left out: E2E_BROWSERS=${E2E_BROWSERS}"
  done
}

wants() { [[ " ${chosen_stacks[*]} ${chosen_browsers[*]} " == *" $1 "* ]]; }

# --- packages -----------------------------------------------------------------------------------

# "package|check|why" for each tool the chosen parts need; check is a command name or a path.
needed_tools() {
  echo "redis-server|${REDIS_SERVER:-redis-server}|the shared-state tests run every store against a real Redis"
  echo "redis-tools|${REDIS_CLI:-redis-cli}|the shared-state tests create a real Redis Cluster with redis-cli --cluster create"
  echo "curl|curl|origin-lab explain is tested on curl -v and curl -i output of real requests"
  wants chromium && echo "chromium|${CHROMIUM_PATH:-/usr/lib/chromium/chromium}|the chromium e2e projects (the specs that need the browser itself)"
  wants chromium && echo "chromium-headless-shell|${CHROMIUM_SHELL_PATH:-/usr/lib/chromium/chromium-headless-shell}|the chromium-shell e2e projects, and check, which prefers the same Chromium without the browser around it (its tests run it as users' checks do)"
  wants firefox && echo "firefox-esr|${FIREFOX_PATH:-/usr/bin/firefox-esr}|the firefox e2e projects"
  if wants webkit; then
    echo "webkit2gtk-driver|${WEBKIT_DRIVER_PATH:-/usr/bin/WebKitWebDriver}|the webkit e2e projects (WebKitWebDriver and its MiniBrowser)"
    echo "xvfb|Xvfb|WebKitGTK has no headless mode: the webkit projects give it an Xvfb display"
    echo "xauth|xauth|each Xvfb display lets in only its group's key, written with xauth"
    echo "x11-utils|xdpyinfo|the display tests open each group's display with a real X client"
    echo "dbus|dbus-run-session|WebKitGTK wants a session bus: the webkit projects start one of their own"
  fi
  if wants caddy || wants compose || is_ci; then
    echo "caddy|caddy|the caddy stack, npm start --tls's tests and the compose stack's caddy:2 stand-in"
    echo "pebble|pebble|the test that the Caddyfile gets public names' certificates from an ACME CA"
    echo "openssl|openssl|the ACME test CA's own certificate"
  fi
  if wants caddy || wants compose; then
    echo "libnss3-tools|certutil|the browsers trust each TLS stack's CA through certutil"
  fi
  if wants compose; then
    echo "docker.io|dockerd|the compose stack needs a Docker engine"
    echo "docker.io|docker|the compose stack talks to the engine with the docker client"
    echo "docker-compose|docker-compose|the compose stack runs docker-compose.yml"
    echo "iproute2|ip|each run's Docker engine gets a network bridge of its own"
  fi
}

present() { if [[ $1 == /* ]]; then [ -x "$1" ]; else command -v "$1" >/dev/null 2>&1; fi; }

is_ci() { case "${CI:-}" in '' | 0 | false | FALSE | False) return 1 ;; *) return 0 ;; esac; }

# Sets as_root to "" (root) or "sudo -n"; fails when neither may install.
may_act_as_root() {
  if [ "$(id -u)" = 0 ]; then as_root=""; return 0; fi
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then as_root="sudo -n"; return 0; fi
  return 1
}

why_not_root() {
  if ! command -v apt-get >/dev/null 2>&1; then echo "this machine has no apt-get"
  elif [ "${TEST_SETUP:-install}" = check ]; then echo "TEST_SETUP=check"
  else echo "not root, and no sudo without a password"; fi
}

# apt-get as root, never asking, waiting a bounded while for a lock another install holds.
apt_get() { $as_root env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout="${APT_LOCK_SECONDS:-120}" "$@"; }

can_install() { [ "${TEST_SETUP:-install}" != check ] && command -v apt-get >/dev/null 2>&1 && may_act_as_root; }

# What a person runs by hand when this script may not.
print_commands() {
  local -a packages=("$@")
  cat >&2 <<EOF
[setup] npm test cannot set this machine up ($(why_not_root)). Run, then npm test again:
  sudo apt-get update && sudo apt-get install -y --no-install-recommends ${packages[*]}
[setup] Or leave parts out, e.g. E2E_STACKS=embedded,caddy E2E_BROWSERS=chromium npm test (docs/testing.md).
EOF
}

install_packages() {
  local -a missing_packages=() lines
  local line package check why
  mapfile -t lines < <(needed_tools)
  for line in "${lines[@]}"; do
    IFS='|' read -r package check why <<<"$line"
    present "$check" && continue
    [[ " ${missing_packages[*]} " == *" $package "* ]] && continue
    missing_packages+=("$package")
    say "$package is missing ($check): $why"
  done
  [ "${#missing_packages[@]}" -eq 0 ] && { say "packages: everything the chosen stacks and browsers need is installed"; return 0; }
  if ! can_install; then
    print_commands "${missing_packages[@]}"
    return 1
  fi

  # Packages must not start their services (docker, caddy): this run starts what it needs.
  local policy_rc=/usr/sbin/policy-rc.d ours=""
  if [ ! -e "$policy_rc" ]; then
    printf '#!/bin/sh\nexit 101\n' | $as_root tee "$policy_rc" >/dev/null && $as_root chmod +x "$policy_rc" && ours=yes
  fi
  local log status=0
  log=$(mktemp)
  say "installing ${missing_packages[*]} (apt-get; a minute or two)"
  if ! apt_get update -qq >"$log" 2>&1; then
    status=1
    echo "[setup] 'apt-get update' failed, so ${missing_packages[*]} could not be installed. Its last lines:" >&2
  elif ! apt_get install -y -qq --no-install-recommends "${missing_packages[@]}" >"$log" 2>&1; then
    status=1
    echo "[setup] installing ${missing_packages[*]} failed: apt-get install -y --no-install-recommends ${missing_packages[*]}. Its last lines:" >&2
  fi
  [ "$status" -ne 0 ] && sed 's/^/  /' <(tail -n 15 "$log") >&2
  rm -f "$log"
  [ -n "$ours" ] && $as_root rm -f "$policy_rc"
  [ "$status" -eq 0 ] && say "installed ${missing_packages[*]}"
  return "$status"
}

# Playwright 1.64 drives Firefox ESR through WebDriver BiDi; measured: 153 works, 140 lacks a
# command it sends. Debian ships the newer ESR in bookworm-security.
firefox_min_major=153

check_firefox_version() {
  wants firefox || return 0
  local firefox=${FIREFOX_PATH:-/usr/bin/firefox-esr} major
  major=$("$firefox" --version 2>/dev/null | grep -oE '[0-9]+' | head -n 1)
  [ "${major:-0}" -ge "$firefox_min_major" ] && return 0
  if can_install; then
    say "firefox-esr $major is older than Playwright drives ($firefox_min_major or newer): upgrading it"
    # The package lists may predate the newer ESR (Firefox installed long ago): refresh them first.
    { apt_get update -qq && apt_get install -y -qq --only-upgrade firefox-esr; } >/dev/null 2>&1 || true
    major=$("$firefox" --version 2>/dev/null | grep -oE '[0-9]+' | head -n 1)
    [ "${major:-0}" -ge "$firefox_min_major" ] && { say "firefox-esr upgraded to $major"; return 0; }
  fi
  cat >&2 <<EOF
[setup] firefox-esr ${major:-?} is too old for Playwright's WebDriver BiDi ($firefox_min_major or newer is needed).
  Debian has it in bookworm-security: add that suite to /etc/apt/sources.list.d/debian.sources, then
  sudo apt-get update && sudo apt-get install -y firefox-esr
  or leave Firefox out: E2E_BROWSERS=chromium npm test
EOF
  return 1
}

# --- the Docker engine and base images (compose stack only) --------------------------------------

# A lock per slot, held by this shell (so released however it ends); DOCKER_SLOT says which.
claim_slot() {
  local slot
  for slot in 0 1 2 3; do
    exec {slot_fd}>"/tmp/origin-lab-docker-slot-$slot.lock"
    if flock -n "$slot_fd"; then export DOCKER_SLOT=$slot; return 0; fi
    exec {slot_fd}>&-
  done
  echo "[setup] four test runs already have a Docker engine of their own on this machine; wait for one to end" >&2
  return 1
}

engine_dir=""

start_docker_engine() {
  if [ -n "${DOCKER_HOST:-}" ] || timeout 10 docker version >/dev/null 2>&1; then
    say "Docker engine: using the one that answers at ${DOCKER_HOST:-the default socket} (left running afterwards)"
    return 0
  fi
  if ! can_install; then
    cat >&2 <<EOF
[setup] The compose stack needs a running Docker engine, and npm test may not start one ($(why_not_root)).
  Start it (e.g. sudo systemctl start docker) or leave the stack out: E2E_STACKS=embedded,caddy npm test
EOF
    return 1
  fi
  case "${DOCKER_LAYER_CACHE:-on}" in
    on | off) ;;
    *) echo "[setup] DOCKER_LAYER_CACHE must be on or off, not '$DOCKER_LAYER_CACHE'" >&2; return 1 ;;
  esac
  if ! [[ "${DOCKER_DATA_ROOT_MAX_MB:-8192}" =~ ^[1-9][0-9]{0,6}$ ]]; then
    echo "[setup] DOCKER_DATA_ROOT_MAX_MB must be a whole number of megabytes from 1 to 9999999, not '$DOCKER_DATA_ROOT_MAX_MB'" >&2
    return 1
  fi
  claim_slot || return 1
  engine_dir=$(mktemp -d /tmp/olab-docker.XXXXXX)
  # Its images are kept for the next run on this slot (the builds' layer cache), as any Docker
  # engine keeps them, unless DOCKER_LAYER_CACHE=off.
  local kept="" host
  if [ "${DOCKER_LAYER_CACHE:-on}" != off ]; then
    kept="${BASE_IMAGE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/origin-lab}/docker-data-slot$DOCKER_SLOT"
    say "Docker engine: none answers; starting one for this run (slot $DOCKER_SLOT, images kept in $kept for the next run, the rest under $engine_dir, removed afterwards)"
  else
    say "Docker engine: none answers; starting one for this run only (slot $DOCKER_SLOT, data under $engine_dir, removed afterwards)"
  fi
  if ! host=$(DOCKER_DATA_ROOT="$kept" AS_ROOT="$as_root" bash scripts/test/docker-engine.sh start "$engine_dir"); then
    [ -n "$kept" ] || return 1
    # A kept data root the engine cannot start on (e.g. left by a killed engine) is started afresh.
    say "Docker engine: it did not start on $kept; removing that folder and starting again without the old images"
    AS_ROOT="$as_root" bash scripts/test/docker-engine.sh stop "$engine_dir" || true
    $as_root rm -rf "$kept"
    mkdir -p "$engine_dir"
    host=$(DOCKER_DATA_ROOT="$kept" AS_ROOT="$as_root" bash scripts/test/docker-engine.sh start "$engine_dir") || return 1
  fi
  export DOCKER_HOST=$host
  say "Docker engine: dockerd $(docker version --format '{{.Server.Version}}') ready at $DOCKER_HOST"
}

stop_docker_engine() {
  [ -n "$engine_dir" ] || return 0
  say "Docker engine: stopping this run's dockerd"
  AS_ROOT="$as_root" bash scripts/test/docker-engine.sh stop "$engine_dir" || true
  engine_dir=""
}

provide_base_images() {
  local images="node:20-bookworm-slim caddy:2 redis:7-bookworm" image missing=""
  for image in $images; do docker image inspect "$image" >/dev/null 2>&1 || missing+=" $image"; done
  [ -z "$missing" ] && { say "base images:$images present"; return 0; }
  if ! command -v debootstrap >/dev/null 2>&1 && can_install; then
    say "debootstrap is missing: base images that cannot be pulled are made from Debian with it"
    apt_get install -y -qq --no-install-recommends debootstrap >/dev/null 2>&1 \
      || { echo "[setup] installing debootstrap failed: apt-get install -y --no-install-recommends debootstrap" >&2; return 1; }
  fi
  say "base images:$missing missing; loading, pulling or making them"
  $as_root env DOCKER_HOST="${DOCKER_HOST:-}" HOME="$HOME" PATH="$PATH" bash scripts/test/base-images.sh | sed 's/^/[setup] /'
  return "${PIPESTATUS[0]}"
}

# --- all of it ----------------------------------------------------------------------------------

set_up_for_tests() {
  wanted_parts || return $?
  install_packages || return 1
  check_firefox_version || return 1
  if wants compose; then
    start_docker_engine || return 1
    # Where run.sh builds the images early (early_build), prebuild.sh makes them beside vitest.
    [ -n "${early_build:-}" ] || provide_base_images || return 1
  fi
}
