#!/usr/bin/env bash
# Runs every test of the product. Usage: scripts/test.sh [go|web|e2e|all]
# PostgreSQL: uses PORTFOLIO_TEST_POSTGRES_URL, else a local server on
# 127.0.0.1:5432 when one answers; without one the PostgreSQL half of the Go
# tests is skipped and says so (CI sets PORTFOLIO_TEST_REQUIRE_POSTGRES=1).
set -euo pipefail
cd "$(dirname "$0")/.."
what=${1:-all}

# Each section says how long the run has taken so far, so a slow stage
# shows in CI's log (the whole run must stay under 25 minutes).
section() { printf '\n=== %s (at %dm%02ds) ===\n' "$*" $((SECONDS / 60)) $((SECONDS % 60)); }

ensure_postgres_url() {
  if [[ -z "${PORTFOLIO_TEST_POSTGRES_URL:-}" ]]; then
    local local_url='postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable'
    if command -v pg_isready >/dev/null && pg_isready -q -h 127.0.0.1 -p 5432; then
      export PORTFOLIO_TEST_POSTGRES_URL=$local_url
    fi
  fi
  if [[ -n "${PORTFOLIO_TEST_POSTGRES_URL:-}" ]]; then
    echo "PostgreSQL tests: ON ($PORTFOLIO_TEST_POSTGRES_URL)"
  else
    echo "################################################################"
    echo "# PostgreSQL tests: SKIPPED (no server on 127.0.0.1:5432 and   #"
    echo "# PORTFOLIO_TEST_POSTGRES_URL unset). Only SQLite is tested.   #"
    echo "################################################################"
  fi
}

# ensure_debian_package installs a Debian package when its command is
# missing (as root, with apt), or says how to.
ensure_debian_package() {
  local command=$1 package=$2 purpose=$3
  if command -v "$command" >/dev/null; then return; fi
  if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null; then
    echo "Installing Debian's $package for $purpose..."
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$package" >/dev/null \
      || { apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$package" >/dev/null; }
  else
    echo "$purpose needs Debian's $package: run 'sudo apt-get install $package' and retry." >&2
    exit 1
  fi
}

ensure_chromium() {
  if [[ -x /usr/bin/chromium ]]; then return; fi
  ensure_debian_package /usr/bin/chromium chromium "the browser tests"
}

web_deps() {
  command -v npm >/dev/null || { echo "npm is missing: install Node.js 20 and npm" >&2; exit 1; }
  if [[ ! -d web/node_modules ]] || [[ web/package-lock.json -nt web/node_modules/.package-lock.json ]]; then
    (cd web && npm ci --no-audit --no-fund)
  fi
}

test_go() {
  section "Go: vet"
  go vet ./...
  # The PDF tests read what they wrote the way a reader's program does.
  ensure_debian_package pdftotext poppler-utils "the PDF tests"
  section "Go: tests (SQLite, PostgreSQL), answers checked against docs/api/openapi.yaml"
  ensure_postgres_url
  # Every scenario test's answers are validated against the OpenAPI
  # document (internal/testkit/contract; docs/reliability.md).
  PORTFOLIO_CONTRACT=${PORTFOLIO_CONTRACT:-1} go test -count=1 -timeout 15m ./...
  test_go_shifted_days
  # The fuzz targets' seed corpora ran above as ordinary tests. Exploring
  # beyond them (make fuzz, FUZZTIME per target) is left out of the test
  # run: on two cores the instrumented builds alone took six of its minutes
  # for thirty seconds of fuzzing. PORTFOLIO_TEST_FUZZ=1 puts it back.
  if [[ ${PORTFOLIO_TEST_FUZZ:-} == 1 ]]; then
    section "Go: fuzz targets (short run)"
    FUZZTIME=${FUZZTIME:-5s} bash scripts/fuzz.sh
  fi
}

# The packages whose answers depend on today's date run again as if today
# were a month's last day and 29 February (a fakeclock build: the product's
# clock, internal/platform/clock, starts at PORTFOLIO_FAKE_NOW). A test that
# computes its expectation with the machine's day instead of the product's
# clock, or a rule that breaks at a month's end, fails here. SQLite only:
# the day's arithmetic is the product's, not the database's.
date_sensitive_packages=(./internal/contracts ./internal/dashboard ./internal/tickets ./internal/indexation ./internal/invoices ./internal/seed ./internal/platform/...)
test_go_shifted_days() {
  local day
  for day in 2027-04-30 2028-02-29; do
    section "Go: date-sensitive packages as if today were $day (SQLite)"
    PORTFOLIO_FAKE_NOW=$day PORTFOLIO_TEST_POSTGRES_URL= PORTFOLIO_TEST_REQUIRE_POSTGRES= \
      go test -tags fakeclock -count=1 -timeout 10m "${date_sensitive_packages[@]}"
  done
}

test_web() {
  web_deps
  section "Web: type check and unit tests"
  (cd web && npm run typecheck && npm test)
}

test_e2e() {
  web_deps
  ensure_chromium
  section "Build: SPA and binary"
  (cd web && npm run build && npm run bundle-size)
  go build -o bin/portfolio ./cmd/portfolio
  go build -o bin/mailcatcher ./tools/mailcatcher
  section "Web: browser tests (Chromium)"
  (cd web && npm run e2e)
}

case $what in
  go) test_go ;;
  web) test_web ;;
  e2e) test_e2e ;;
  all) test_go; test_web; test_e2e; section "All tests passed" ;;
  *) echo "usage: $0 [go|web|e2e|all]" >&2; exit 2 ;;
esac
