#!/usr/bin/env bash
# run-bats.sh - run the bats suites and end with one plain "N passed, M
# failed" line, the closing line CI reads, whatever the TAP above says.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p build
bats --tap "${@:-tests/bats}" | tee build/bats.tap
status=${PIPESTATUS[0]}
passed=$(grep -c '^ok ' build/bats.tap)
failed=$(grep -c '^not ok ' build/bats.tap)
echo "bats: ${passed} passed, ${failed} failed"
exit "$status"
