#!/usr/bin/env bash
# Three Portfolio instances on one PostgreSQL database behind a small
# round-robin reverse proxy with health checks (tools/clusterproxy), all on
# loopback: scale-out shown on one machine (docs/reliability.md).
#
#   PORTFOLIO_DATABASE_URL=postgres://... scripts/cluster.sh start
#   scripts/cluster.sh status
#   scripts/cluster.sh stop
#
# Settings (environment):
#   PORTFOLIO_DATABASE_URL  the PostgreSQL database the instances share (required for start)
#   CLUSTER_DIR             run directory: shared data directory (documents), logs, pid files (default: ./cluster)
#   CLUSTER_PORT            the proxy's port (default 8080); instance i listens on CLUSTER_PORT+i
#   CLUSTER_INSTANCES       how many instances (default 3)
#   CLUSTER_BIN             the portfolio binary (default bin/portfolio, built when missing)
#   CLUSTER_PROXY_BIN       the proxy binary (default: built into CLUSTER_DIR)
#   CLUSTER_SEED=demo       seed the demo data before starting (into an empty database)
#   PORTFOLIO_JWT_SECRET    the secret the instances share (default: generated once into CLUSTER_DIR/jwt-secret)
# Other PORTFOLIO_* settings are passed on to every instance.
set -euo pipefail
cd "$(dirname "$0")/.."

dir=${CLUSTER_DIR:-cluster}
port=${CLUSTER_PORT:-8080}
count=${CLUSTER_INSTANCES:-3}
bin=${CLUSTER_BIN:-bin/portfolio}

die() { echo "cluster.sh: $*" >&2; exit 1; }

pid_alive() { [[ -f $1 ]] && kill -0 "$(cat "$1")" 2>/dev/null; }

# wait_ready URL SECONDS PIDFILE: polls URL until it answers 200.
wait_ready() {
  local url=$1 deadline=$((SECONDS + $2)) pidfile=$3
  until curl -fs -o /dev/null --max-time 2 "$url"; do
    pid_alive "$pidfile" || die "$(basename "$pidfile" .pid) exited while starting (log: $dir/$(basename "$pidfile" .pid).log)"
    ((SECONDS < deadline)) || die "$url not ready within $2 s"
    sleep 0.2
  done
}

# stop_pid PIDFILE: SIGTERM, then SIGKILL after 30 s.
stop_pid() {
  local f=$1 pid
  [[ -f $f ]] || return 0
  pid=$(cat "$f")
  if kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 300); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$pid" 2>/dev/null; then
      echo "$(basename "$f" .pid) did not stop within 30 s of SIGTERM: SIGKILL" >&2
      kill -KILL "$pid" 2>/dev/null || true
    fi
  fi
  rm -f "$f"
}

start() {
  [[ ${PORTFOLIO_DATABASE_URL:-} == postgres* ]] || die "set PORTFOLIO_DATABASE_URL to a PostgreSQL database (the instances share it)"
  mkdir -p "$dir/data"
  for i in $(seq "$count") proxy; do
    pid_alive "$dir/instance-$i.pid" && die "already running (scripts/cluster.sh stop first)"
  done
  if [[ ! -x $bin ]]; then
    echo "building $bin"
    go build -o "$bin" ./cmd/portfolio
  fi
  local proxy_bin=${CLUSTER_PROXY_BIN:-$dir/clusterproxy}
  if [[ ! -x $proxy_bin ]]; then
    go build -o "$proxy_bin" ./tools/clusterproxy
  fi
  if [[ -z ${PORTFOLIO_JWT_SECRET:-} ]]; then
    [[ -f $dir/jwt-secret ]] || head -c 48 /dev/urandom | base64 | tr -d '\n' > "$dir/jwt-secret"
    PORTFOLIO_JWT_SECRET=$(cat "$dir/jwt-secret")
  fi
  export PORTFOLIO_JWT_SECRET PORTFOLIO_DATABASE_URL
  # The proxy is the only client the instances see; its X-Forwarded-For
  # names the real client (login throttling per address).
  export PORTFOLIO_TRUSTED_PROXIES=${PORTFOLIO_TRUSTED_PROXIES:-127.0.0.1}
  # Migrate once before the instances start (each would wait for the
  # others on the migration lock otherwise).
  "$bin" migrate --data-dir "$dir/data" >>"$dir/migrate.log" 2>&1 || die "migrate failed (log: $dir/migrate.log)"
  if [[ ${CLUSTER_SEED:-} == demo ]]; then
    "$bin" seed --demo --data-dir "$dir/data" >>"$dir/seed.log" 2>&1 || die "seed failed (log: $dir/seed.log)"
  fi
  local backends=()
  for i in $(seq "$count"); do
    local p=$((port + i))
    "$bin" serve --data-dir "$dir/data" --addr "127.0.0.1:$p" >>"$dir/instance-$i.log" 2>&1 &
    echo $! >"$dir/instance-$i.pid"
    backends+=(-backend "http://127.0.0.1:$p")
  done
  for i in $(seq "$count"); do
    wait_ready "http://127.0.0.1:$((port + i))/readyz" 120 "$dir/instance-$i.pid"
  done
  "$proxy_bin" -listen "127.0.0.1:$port" "${backends[@]}" >>"$dir/instance-proxy.log" 2>&1 &
  echo $! >"$dir/instance-proxy.pid"
  wait_ready "http://127.0.0.1:$port/readyz" 30 "$dir/instance-proxy.pid"
  echo "cluster up: http://127.0.0.1:$port (instances on $((port + 1))-$((port + count)), run directory $dir)"
}

stop() {
  stop_pid "$dir/instance-proxy.pid"
  # Stop the instances together: each finishes its requests and jobs.
  local pids=()
  for f in "$dir"/instance-[0-9]*.pid; do
    [[ -f $f ]] || continue
    stop_pid "$f" &
    pids+=($!)
  done
  for p in "${pids[@]}"; do wait "$p"; done
  echo "cluster stopped"
}

status() {
  local f name
  compgen -G "$dir/instance-*.pid" >/dev/null || { echo "not running (no pid files in $dir)"; return 0; }
  for f in "$dir"/instance-*.pid; do
    [[ -f $f ]] || continue
    name=$(basename "$f" .pid)
    if pid_alive "$f"; then echo "$name: running (pid $(cat "$f"))"; else echo "$name: not running"; fi
  done
  curl -fsS --max-time 2 "http://127.0.0.1:$port/_proxy/status" 2>/dev/null && echo || true
}

case ${1:-} in
  start) start ;;
  stop) stop ;;
  status) status ;;
  *) echo "usage: $0 start|stop|status" >&2; exit 2 ;;
esac
