#!/usr/bin/env bash
# The sweep of issue 19 (docs/performance.md, "Lists at scale"): every
# sortable column of the big entities, each a page of 50 with its total,
# ordered as the list screen orders it, 32 clients. A column answering fewer
# than 1,500 req/s, with a p99 of 40 ms or more, or failing a request is
# marked by the load tool; this script prints each entity's table and, at
# the end, the entities with such a column (exit status 1 when any).
#
#   scripts/sweep-lists.sh [-d 2s] [-w 1s] DATA_DIR[=DATABASE_URL] BINARY
#
# The lead reads points of sale, contracts, tickets and deadlines; invoices
# and their positions are read by the administrator (the lead may not).
# DATA_DIR is made by `seed --demo --scale N --scale-group 1`.
set -euo pipefail
duration=2s warmup=1s
while [[ ${1:-} == -* ]]; do
	case $1 in
	-d) duration=$2 ;;
	-w) warmup=$2 ;;
	*) echo "unknown option $1" >&2; exit 2 ;;
	esac
	shift 2
done
[[ $# -eq 2 ]] || { echo "usage: $0 [-d 2s] [-w 1s] DATA_DIR[=DATABASE_URL] BINARY" >&2; exit 2; }
spec=$1 bin=$2
data=${spec%%=*} url=${spec#*=}
[[ $url == "$spec" ]] && url=""
root=$(cd "$(dirname "$0")/.." && pwd)
load=$root/bin/load
[[ -x $load ]] || go build -o "$load" "$root/tools/load"
addr=127.0.0.1:18743

args=(serve --data-dir "$data" --addr $addr --log-level warn)
[[ -n $url ]] && args+=(--database-url "$url")
"$bin" "${args[@]}" >/dev/null 2>&1 &
pid=$!
out=$(mktemp)
trap 'kill $pid 2>/dev/null || true; rm -f "$out"' EXIT
for _ in $(seq 100); do curl -s -o /dev/null "http://$addr/" && break; sleep 0.2; done

missed=()
for e in pos:lead contract:lead ticket:lead contractaction:lead invoice:admin invoiceposition:admin; do
	entity=${e%%:*} user=${e#*:}@demo.test
	echo "== $entity (as $user)"
	# Only the table and the verdict: the load tool also reports each column's run in full.
	if ! "$load" -url "http://$addr" -user "$user" -scenario sort-count -entity "$entity" -filter '[]' \
		-sweep -min-rps 1500 -max-p99 40ms -c 32 -d "$duration" -warmup "$warmup" >"$out" 2>&1; then
		missed+=("$entity")
	fi
	grep -E '^(\||sweep|load:)' "$out" || cat "$out"
done
if ((${#missed[@]})); then
	echo "columns below the target in: ${missed[*]}"
	exit 1
fi
echo "every column met the target"
