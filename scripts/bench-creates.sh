#!/usr/bin/env bash
# Generic creates of points of sale, 8 clients, on SQLite (docs/performance.md,
# "Generic creates"): each run serves a fresh copy of a demo database, runs
# the load tool's create-pos scenario and prints the rate, p99, the server's
# CPU per create and the single writer's figures from /metrics.
#
#   scripts/bench-creates.sh [-runs N] BINARY[=DATA_DIR] ...
#
# Binaries are alternated run by run. DATA_DIR is a database made by that
# binary's `seed --demo` (default: one is made per binary once), so binaries
# with different migrations each get their own.
set -euo pipefail
runs=3
if [[ ${1:-} == -runs ]]; then runs=$2; shift 2; fi
[[ $# -gt 0 ]] || { echo "usage: $0 [-runs N] BINARY[=DATA_DIR] ..." >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
load=$root/bin/load
[[ -x $load ]] || go build -o "$load" "$root/tools/load"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
addr=127.0.0.1:18740 debug=127.0.0.1:18741

writer() { curl -s "http://$debug/metrics" | awk '/^portfolio_sqlite_writer_(busy_seconds|transactions|groups)_total/ {print $2}' | tr '\n' ' '; }

declare -A base
for spec in "$@"; do
	bin=${spec%%=*} dir=${spec#*=}
	if [[ $dir == "$spec" ]]; then
		dir=$work/base-$(basename "$bin")-$RANDOM
		"$bin" seed --demo --data-dir "$dir" >/dev/null 2>&1
	fi
	base[$spec]=$dir
done

for _ in $(seq "$runs"); do
	for spec in "$@"; do
		bin=${spec%%=*}
		rm -rf "$work/run" && cp -r "${base[$spec]}" "$work/run"
		"$bin" serve --data-dir "$work/run" --addr $addr --debug-addr $debug --log-level warn >"$work/serve.log" 2>&1 &
		pid=$!
		for _ in $(seq 50); do curl -sf "http://$addr/healthz" >/dev/null && break; sleep 0.1; done
		read -r busy0 groups0 members0 <<<"$(writer)"
		cpu0=$(awk '{print $14+$15}' "/proc/$pid/stat")
		out=$("$load" -url "http://$addr" -user admin@demo.test -scenario create-pos -c 8 -d 6s -warmup 0s 2>&1)
		cpu1=$(awk '{print $14+$15}' "/proc/$pid/stat")
		read -r busy1 groups1 members1 <<<"$(writer)"
		kill "$pid"; wait "$pid" 2>/dev/null || true
		n=$(grep -oE '[0-9]+/[0-9]+ failed' <<<"$out" | cut -d/ -f2 | cut -d' ' -f1)
		awk -v name="$(basename "$bin")" -v rate="$(grep -oE '[0-9.]+ req/s' <<<"$out")" \
			-v p99="$(grep -oE 'p99 [0-9.]+ ms' <<<"$out" | head -1)" -v n="$n" -v cpu=$((cpu1 - cpu0)) \
			-v hz="$(getconf CLK_TCK)" -v b0="$busy0" -v b1="$busy1" -v g0="$groups0" -v g1="$groups1" \
			-v m0="$members0" -v m1="$members1" -v ld="$(cut -d' ' -f1 /proc/loadavg)" 'BEGIN {
				printf "%-24s %s, %s, server CPU %.3f ms/create", name, rate, p99, cpu * 1000 / hz / n
				if (m1 > m0) printf ", writer %.3f ms/create, %.1f per group", (b1 - b0) * 1000 / (m1 - m0), (m1 - m0) / (g1 - g0)
				printf ", load %s\n", ld
			}'
	done
done
