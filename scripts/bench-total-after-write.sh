#!/usr/bin/env bash
# How long the lead's ticket list (newest first, with its total) takes
# around writes by the administrator (docs/performance.md, "Lists at scale,
# session 22"; decision 0057): a fresh server, two pages, then three times
# a write of one ticket, a page, a pause of 3 s, a page. Each line gives the
# time of the answer, the total and its total_as_of.
#
#   scripts/bench-total-after-write.sh BINARY DATA_DIR [DATABASE_URL]
#
# DATA_DIR is made by `seed --demo --scale N --scale-group 1`.
set -euo pipefail
[[ $# -ge 2 ]] || { echo "usage: $0 BINARY DATA_DIR [DATABASE_URL]" >&2; exit 2; }
bin=$1 data=$2 url=${3:-}
addr=127.0.0.1:18743
args=(serve --data-dir "$data" --addr $addr --log-level warn)
[[ -n $url ]] && args+=(--database-url "$url")
if curl -s -o /dev/null "http://$addr/"; then echo "$addr is taken" >&2; exit 1; fi
"$bin" "${args[@]}" >/dev/null 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null || true' EXIT
for _ in $(seq 100); do curl -s -o /dev/null "http://$addr/" && break; sleep 0.2; done

token() {
	curl -s -X POST "http://$addr/token" -d "username=$1&password=Demo-Password-1&user_browser_hash=x" |
		python3 -c 'import sys, json; print(json.load(sys.stdin)["access_token"])'
}
lead=$(token lead@demo.test) admin=$(token admin@demo.test)
api() { # token body
	curl -s -H "Authorization: Bearer $1" -H 'Content-Type: application/json' "http://$addr/api/?ticket" -d "$2"
}
page() {
	local out
	out=$(curl -s -o /tmp/bench-total-page.json -w '%{time_total}' -H "Authorization: Bearer $lead" -H 'Content-Type: application/json' \
		"http://$addr/api/?ticket" -d '{"action":"read-rich","entity":"ticket","per_page":50,"current_page":1,"order_by":"ticket_creation_time","order_dir":"DESC","count":true,"filter":[]}')
	python3 -c 'import json, sys; d = json.load(open("/tmp/bench-total-page.json"))["data"]; print("%-22s %7.1f ms  total %s  as of %s" % (sys.argv[1], float(sys.argv[2]) * 1000, d.get("total"), d.get("total_as_of")))' "$1" "$out"
}
page "first page"
page "second page"
id=$(api "$admin" '{"action":"read-rich","entity":"ticket","per_page":1,"order_by":"ticket_id"}' | python3 -c 'import sys, json; print(json.load(sys.stdin)["data"]["data"][0]["ticket_id"])')
for i in 1 2 3; do
	# a new progress each time (a write that changes nothing bumps nothing)
	read -r version progress < <(api "$admin" '{"action":"read","entity":"ticket","id":'"$id"'}' |
		python3 -c 'import sys, json; d = json.load(sys.stdin)["data"]; print(d["row_version"], ((d["ticket_progress"] or 0) + 7) % 100)')
	status=$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $admin" -H 'Content-Type: application/json' "http://$addr/api/?ticket" \
		-d '{"action":"update-field","entity":"ticket","id":'"$id"',"field":"ticket_progress","value":'"$progress"',"row_version":'"$version"'}')
	[[ $status == 200 ]] || { echo "write: $status" >&2; exit 1; }
	page "after write $i"
	sleep 3
	page "3 s later"
done
