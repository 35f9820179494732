#!/usr/bin/env bash
# Runs the libFuzzer targets in build/fuzz from their corpora in
# tests/fuzz/corpus; prints per target executions, coverage (cov/ft) and
# corpus size, and fails on any crash, leak, timeout or sanitizer report.
# New inputs go to build/fuzz/work/TARGET, never into the repo's corpus;
# a failing input is saved as build/fuzz/crashes/TARGET-<kind>-<sha1>.
# usage: tests/fuzz/run.sh [--replay] [--seconds N] TARGET...
#   --replay   first run every corpus file once (what `make test` checks)
#   --seconds  how long to fuzz each target after that (0: not at all)
# FUZZ_BIN_DIR (build/fuzz: the targets, and work/, crashes/, logs/ under
# it) and FUZZ_CORPUS_DIR (tests/fuzz/corpus) let a test run other targets.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BIN_DIR=${FUZZ_BIN_DIR:-$ROOT/build/fuzz}
CORPUS_DIR=${FUZZ_CORPUS_DIR:-$ROOT/tests/fuzz/corpus}
PROG=fuzz DIE_STATUS=2
# shellcheck source=../../image/lib.sh
. "$ROOT/image/lib.sh"

replay=0
seconds=300
targets=()
while (($#)); do
  case $1 in
    --replay) replay=1 ;;
    --seconds) (($# > 1)) || die "--seconds needs a number"; seconds=$2; shift ;;
    -*) die "unknown option $1" ;;
    *) targets+=("$1") ;;
  esac
  shift
done
[[ $seconds =~ ^[0-9]+$ ]] || die "--seconds wants whole seconds, not '$seconds'"
((${#targets[@]})) || die "no targets given"

# Per-target libFuzzer flags: the EBS log page input is two 4096-byte pages.
extra_flags() {
  case $1 in
    ebs_stats_page) echo "-max_len=8192" ;;
    nvme_identify) echo "-max_len=4200" ;;
    *) echo "" ;;
  esac
}

# The fuzzer's common flags for TARGET: dictionary, artifacts, limits.
common_flags() {
  local t=$1 dict=$ROOT/tests/fuzz/dict/$1.dict
  local flags=(-timeout=30 -rss_limit_mb=2048 -print_final_stats=1
    "-artifact_prefix=$BIN_DIR/crashes/$t-")
  [[ -f $dict ]] && flags+=("-dict=$dict")
  # shellcheck disable=SC2207
  flags+=($(extra_flags "$t"))
  printf '%s\n' "${flags[@]}"
}

# Reads one libFuzzer log: "execs cov ft corpus" from its last status line
# and final stats.
summarise() {
  local log=$1 execs cov ft
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  cov=$(grep -oE ' cov: [0-9]+' "$log" | tail -1 | grep -oE '[0-9]+' || echo 0)
  ft=$(grep -oE ' ft: [0-9]+' "$log" | tail -1 | grep -oE '[0-9]+' || echo 0)
  echo "${execs:-0} ${cov:-0} ${ft:-0}"
}

# Shows why TARGET failed: the sanitizer's report and the saved input.
explain() {
  local t=$1 log=$2
  echo "fuzz: $t FAILED (log: $log)" >&2
  if ! grep -E 'ERROR: |SUMMARY: |runtime error|Test unit written to' "$log" | head -20 >&2; then
    tail -n 5 "$log" >&2
  fi
}

# Runs every file of TARGET's corpus once; 0 when none of them fails.
replay_corpus() {
  local t=$1 bin=$2 log=$3 corpus=$CORPUS_DIR/$1
  local n
  n=$(find "$corpus" -type f | wc -l)
  mapfile -t flags < <(common_flags "$t")
  if ! "$bin" "${flags[@]}" -runs=0 "$corpus" >"$log" 2>&1; then
    explain "$t" "$log"
    return 1
  fi
  echo "fuzz: $t: replayed $n corpus files"
}

# Fuzzes TARGET for the given seconds from its corpus; 0 when clean.
fuzz_target() {
  local t=$1 bin=$2 log=$3 corpus=$CORPUS_DIR/$1 work=$BIN_DIR/work/$1
  local stats n0 n1
  mkdir -p "$work"
  mapfile -t flags < <(common_flags "$t")
  n0=$(find "$corpus" -type f | wc -l)
  if ! "$bin" "${flags[@]}" -max_total_time="$seconds" "$work" "$corpus" >"$log" 2>&1; then
    explain "$t" "$log"
    return 1
  fi
  read -r execs cov ft <<<"$(summarise "$log")"
  n1=$(find "$work" -type f | wc -l)
  printf 'fuzz: %-16s %10s execs in %ss  cov %5s  ft %6s  corpus %s (+%s new in %s)\n' \
    "$t" "$execs" "$seconds" "$cov" "$ft" "$n0" "$n1" "${work#"$PWD"/}"
}

mkdir -p "$BIN_DIR/logs" "$BIN_DIR/crashes"
failed=()
for t in "${targets[@]}"; do
  bin=$BIN_DIR/$t
  [[ -x $bin ]] || die "$bin is not built (make fuzz-build)"
  [[ -d $CORPUS_DIR/$t ]] || die "no seed corpus $CORPUS_DIR/$t"
  if ((replay)) && ! replay_corpus "$t" "$bin" "$BIN_DIR/logs/$t.replay.log"; then
    failed+=("$t")
    continue
  fi
  if ((seconds)) && ! fuzz_target "$t" "$bin" "$BIN_DIR/logs/$t.log"; then
    failed+=("$t")
  fi
done
if ((${#failed[@]})); then
  echo "fuzz: ${#failed[@]} of ${#targets[@]} targets failed: ${failed[*]}" >&2
  exit 1
fi
echo "fuzz: ${#targets[@]} targets clean"
