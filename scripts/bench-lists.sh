#!/usr/bin/env bash
# The headline list requests of issue 19 (docs/performance.md, "Lists at
# scale"): each binary serves the given data in turn, and every request runs
# as the external lead, 32 clients, with its total, one line per request.
#
#   scripts/bench-lists.sh [-d 8s] [-w 3s] [-only NAME] DATA_DIR[=DATABASE_URL] BINARY ...
#
# -w is the warm-up before each measurement: at 1,000,000 rows the first
# total of a big list takes seconds (2.3 s for the tickets on SQLite), and
# a warm-up shorter than that measures the wait for it.
#
# DATA_DIR is made by `seed --demo --scale N --scale-group 1` (with
# --database-url for PostgreSQL). Binaries alternate request by request, so
# a slow minute of the machine hits each of them alike.
set -euo pipefail
duration=8s warmup=3s only=""
while [[ ${1:-} == -* ]]; do
	case $1 in
	-d) duration=$2 ;;
	-w) warmup=$2 ;;
	-only) only=$2 ;;
	*) echo "unknown option $1" >&2; exit 2 ;;
	esac
	shift 2
done
[[ $# -ge 2 ]] || { echo "usage: $0 [-d 8s] [-w 3s] [-only NAME] DATA_DIR[=DATABASE_URL] BINARY ..." >&2; exit 2; }
spec=$1; shift
data=${spec%%=*} url=${spec#*=}
[[ $url == "$spec" ]] && url=""
root=$(cd "$(dirname "$0")/.." && pwd)
load=$root/bin/load
[[ -x $load ]] || go build -o "$load" "$root/tools/load"
addr=127.0.0.1:18742

# name and load arguments of each request
requests=(
	"sort-count|-scenario sort-count"
	"search-count|-scenario search-count"
	"search-count-rare|-scenario search-count -keyword 01414"
	"range-sort-count|-scenario range-sort-count"
	"list-page-count|-scenario list-page-count"
	"contracts-by-name|-scenario sort-count -entity contract -order contract_name -filter []"
	"contracts-by-pos|-scenario sort-count -entity contract -order pos_id__label -filter []"
	"tickets-newest|-scenario sort-count -entity ticket -order ticket_creation_time -dir DESC -filter []"
	"tickets-by-pos|-scenario sort-count -entity ticket -order pos_id__label -filter []"
	"tickets-by-user|-scenario sort-count -entity ticket -order user_id__label -filter []"
	"deadlines|-scenario deadlines"
)

serve() {
	local args=(serve --data-dir "$data" --addr $addr --log-level warn)
	[[ -n $url ]] && args+=(--database-url "$url")
	"$1" "${args[@]}" >/dev/null 2>&1 &
	pid=$!
	for _ in $(seq 100); do curl -s -o /dev/null "http://$addr/" && return; sleep 0.2; done
	echo "$1 did not start" >&2; exit 1
}

for r in "${requests[@]}"; do
	name=${r%%|*} args=${r#*|}
	[[ -n $only && $name != "$only" ]] && continue
	for bin in "$@"; do
		serve "$bin"
		# shellcheck disable=SC2086 # the arguments are words
		line=$("$load" -url "http://$addr" -user lead@demo.test $args -c 32 -d "$duration" -warmup "$warmup" 2>&1 | grep '^summary' || true)
		kill "$pid"; wait "$pid" 2>/dev/null || true
		printf '%-18s %-24s %s\n' "$name" "$(basename "$bin")" "$(sed -E 's/.*c=32, [^,]*, //' <<<"$line")"
	done
done
