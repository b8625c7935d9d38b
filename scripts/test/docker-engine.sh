#!/usr/bin/env bash
# A Docker engine of one test run's own.
#
#   docker-engine.sh start DIR   starts dockerd with its data, exec root and socket under DIR,
#                                waits until it answers, and prints the DOCKER_HOST to use
#   docker-engine.sh stop DIR    stops that dockerd and removes what start made
#
# DOCKER_DATA_ROOT=PATH keeps the engine's data (its images, so the image builds' layer cache) in
# PATH instead, across runs: start removes any container, network or volume an earlier run left
# there, stop removes this run's and the images no tag names any more (an older build's layers),
# and removes PATH itself when it has grown past DOCKER_DATA_ROOT_MAX_MB (8192).
#
# Two runs on one machine each get their own engine: start takes a free slot (a lock held by the
# calling shell through file descriptor DOCKER_SLOT_FD, see claim_slot in setup.sh) and gives the
# engine a bridge and address pools of that slot only, so two engines never share a network,
# a socket or a data root, and stopping one leaves the other alone.
set -euo pipefail

cmd=${1:?usage: docker-engine.sh start|stop DIR}
dir=${2:?usage: docker-engine.sh start|stop DIR}
ready_seconds=${DOCKER_READY_SECONDS:-60}
slot=${DOCKER_SLOT:-0}
max_mb=${DOCKER_DATA_ROOT_MAX_MB:-8192}
bridge="olab${slot}"
# Root or password-less sudo; setup.sh says which.
as_root=${AS_ROOT:-}

# What the runs left in a kept data root, removed: containers first (compose's restart policy
# would start them again with the engine), then the networks and volumes they held.
remove_leftovers() {
  local ids
  ids=$(docker ps -aq) || return 1
  [ -z "$ids" ] || xargs docker rm -f <<<"$ids" >/dev/null
  docker network prune -f >/dev/null && docker volume prune -f >/dev/null
}

case "$cmd" in
  start)
    data=${DOCKER_DATA_ROOT:-$dir/data}
    $as_root mkdir -p "$data"
    mkdir -p "$dir/exec"
    echo "$slot" >"$dir/slot"
    [ -z "${DOCKER_DATA_ROOT:-}" ] || echo "$data" >"$dir/kept-data-root"
    # A bridge of this slot's own (dockerd's default docker0 would be shared between engines).
    $as_root ip link delete "$bridge" 2>/dev/null || true
    $as_root ip link add name "$bridge" type bridge
    $as_root ip addr add "192.168.$((210 + slot)).1/24" dev "$bridge"
    $as_root ip link set "$bridge" up
    group_option=()
    [ -n "$as_root" ] && group_option=(--group "$(id -gn)")
    # Its own session: a Ctrl-C meant for the tests must not stop the engine under their teardown.
    $as_root setsid dockerd --data-root "$data" --exec-root "$dir/exec" --pidfile "$dir/dockerd.pid" \
      --host "unix://$dir/docker.sock" --bridge "$bridge" \
      --default-address-pool "base=172.$((24 + slot)).0.0/16,size=24" "${group_option[@]}" \
      >"$dir/dockerd.log" 2>&1 &
    for _ in $(seq 1 "$ready_seconds"); do
      if DOCKER_HOST="unix://$dir/docker.sock" docker version >/dev/null 2>&1; then
        if [ -n "${DOCKER_DATA_ROOT:-}" ] && ! DOCKER_HOST="unix://$dir/docker.sock" remove_leftovers; then
          echo "dockerd started on the kept data root $data, but what earlier runs left there could not be removed" >&2
          exit 1
        fi
        echo "unix://$dir/docker.sock"
        exit 0
      fi
      sleep 1
    done
    echo "dockerd did not answer within ${ready_seconds} s; the end of its log ($dir/dockerd.log):" >&2
    tail -n 40 "$dir/dockerd.log" >&2 || true
    exit 1
    ;;
  stop)
    [ -f "$dir/slot" ] || exit 0
    bridge="olab$(cat "$dir/slot")"
    kept=$(cat "$dir/kept-data-root" 2>/dev/null || true)
    if [ -n "$kept" ]; then
      # This run's containers go; the images stay, but those no tag names (replaced by this
      # run's builds) are removed with the layers only they used.
      DOCKER_HOST="unix://$dir/docker.sock" remove_leftovers 2>/dev/null || true
      DOCKER_HOST="unix://$dir/docker.sock" docker image prune -f >/dev/null 2>&1 || true
    fi
    if [ -f "$dir/dockerd.pid" ]; then
      pid=$(cat "$dir/dockerd.pid")
      if $as_root kill -TERM "$pid" 2>/dev/null; then
        for _ in $(seq 1 30); do
          $as_root kill -0 "$pid" 2>/dev/null || break
          sleep 1
        done
        if $as_root kill -0 "$pid" 2>/dev/null; then
          echo "dockerd ignored SIGTERM for 30 s; killing it" >&2
          $as_root kill -KILL "$pid" 2>/dev/null || true
          sleep 1
        fi
      fi
    fi
    $as_root ip link delete "$bridge" 2>/dev/null || true
    # dockerd leaves its network namespace bind-mounted under its exec root (exec/netns/default):
    # each mount under the folder goes first, deepest first, or rm cannot remove it ("busy").
    for root in "$dir" ${kept:+"$kept"}; do
      mounts=$(awk -v dir="$root/" 'index($2, dir) == 1 { print $2 }' /proc/mounts 2>/dev/null | sort -r || true)
      for mounted in $mounts; do $as_root umount -l "$mounted" 2>/dev/null || true; done
    done
    $as_root rm -rf "$dir"
    if [ -n "$kept" ]; then
      kept_mb=$($as_root du -sm "$kept" 2>/dev/null | cut -f1 || echo 0)
      if [ "${kept_mb:-0}" -gt "$max_mb" ]; then
        echo "the kept Docker data root $kept holds ${kept_mb} MB, over DOCKER_DATA_ROOT_MAX_MB (${max_mb}): removed; the next run builds its images from scratch" >&2
        $as_root rm -rf "$kept"
      fi
    fi
    ;;
  *)
    echo "usage: docker-engine.sh start|stop DIR" >&2
    exit 2
    ;;
esac
