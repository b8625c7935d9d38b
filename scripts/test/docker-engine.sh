#!/usr/bin/env bash
# A throwaway Docker engine for CI: `docker-engine.sh start DIR` runs dockerd with its data and
# exec roots under DIR and waits until it answers; `docker-engine.sh stop DIR` stops that dockerd
# (by the PID it wrote) and waits for it to exit. Nothing outside DIR is kept.
set -euo pipefail

cmd=${1:?usage: docker-engine.sh start|stop DIR}
dir=${2:?usage: docker-engine.sh start|stop DIR}
ready_seconds=${DOCKER_READY_SECONDS:-60}

case "$cmd" in
  start)
    if docker version >/dev/null 2>&1; then
      # Someone else's engine: use it, and leave it running on stop (no PID file is written).
      echo "docker-engine: an engine already answers on the default socket; using it"
      exit 0
    fi
    mkdir -p "$dir/data" "$dir/exec"
    dockerd --data-root "$dir/data" --exec-root "$dir/exec" --pidfile "$dir/dockerd.pid" \
      --host unix:///var/run/docker.sock >"$dir/dockerd.log" 2>&1 &
    for _ in $(seq 1 "$ready_seconds"); do
      if docker version >/dev/null 2>&1; then
        echo "docker-engine: dockerd $(docker version --format '{{.Server.Version}}') ready (log: $dir/dockerd.log)"
        exit 0
      fi
      sleep 1
    done
    echo "docker-engine: dockerd did not answer within ${ready_seconds} s; its log:" >&2
    tail -n 40 "$dir/dockerd.log" >&2 || true
    exit 1
    ;;
  stop)
    [ -f "$dir/dockerd.pid" ] || exit 0
    pid=$(cat "$dir/dockerd.pid")
    kill -TERM "$pid" 2>/dev/null || exit 0
    for _ in $(seq 1 30); do
      kill -0 "$pid" 2>/dev/null || { echo "docker-engine: dockerd stopped"; exit 0; }
      sleep 1
    done
    echo "docker-engine: dockerd ignored SIGTERM for 30 s; killing it" >&2
    kill -KILL "$pid" 2>/dev/null || true
    ;;
  *)
    echo "usage: docker-engine.sh start|stop DIR" >&2
    exit 2
    ;;
esac
