#!/usr/bin/env bash
# Runs each fuzz target of the module for FUZZTIME (default 10s).
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime=${FUZZTIME:-10s}
found=0
while IFS=: read -r file name; do
  pkg=./$(dirname "$file")
  found=1
  echo "fuzz $pkg $name ($fuzztime)"
  go test -run '^$' -fuzz "^${name}\$" -fuzztime "$fuzztime" "$pkg"
done < <(grep -rHoE --include='*_test.go' '^func (Fuzz[A-Za-z0-9_]+)' internal cmd 2>/dev/null | sed -E 's/func //' | sort -u)
[[ $found == 1 ]] || echo "no fuzz targets"
