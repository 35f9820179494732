#!/usr/bin/env bash
# lint-layers.sh - the shape of runner/: each folder is a floor, and code
# includes only its own folder and the faces (FOLDER/FOLDER.h) of the
# floors below it.  This table is the one statement of the floors; the
# README's Layout section reads from the same order.
#
#   floor 0  lib                         clock, little-endian, version
#   floor 1  net stats results           HTTP/TLS, counters, results.json
#   floor 2  device engine analysis upload
#   floor 3  job                         options, offsets, the loop
#   floor 4  output                      fio's normal/json/json+
#   floor 5  run                         config, devices, plan, record
#   floor 6  report                      summary.md, charts
#   floor 7  cli                         the subcommands
#   floor 8  main.c, and init/ (PID 1: lib and net only)
#
# Also: no C file over 600 lines, every folder has its face header.
set -euo pipefail
cd "$(dirname "$0")/.."

declare -A floor=([lib]=0 [net]=1 [stats]=1 [results]=1 [device]=2 [engine]=2
	[analysis]=2 [upload]=2 [job]=3 [output]=4 [run]=5 [report]=6 [cli]=7 [main]=8)
max_lines=600
bad=0
complain() { echo "lint-layers: $*" >&2; bad=1; }

for dir in runner/*/; do
	d=$(basename "$dir")
	[[ $d == deps ]] && continue
	[[ -n ${floor[$d]:-} ]] || complain "runner/$d/ has no floor in tests/lint-layers.sh"
	[[ -f $dir/$d.h ]] || complain "runner/$d/ has no face header $d/$d.h"
done

check_file() { # FILE FOLDER FLOOR
	local f=$1 own=$2 level=$3 n line inc dir hdr
	n=$(wc -l <"$f")
	((n <= max_lines)) || complain "$f: $n lines (at most $max_lines: split it along its seams)"
	while IFS= read -r line; do
		inc=${line#*\"}
		inc=${inc%\"*}
		[[ $inc == */* ]] || complain "$f: #include \"$inc\" does not name its folder"
		dir=${inc%%/*}
		hdr=${inc#*/}
		[[ -n ${floor[$dir]:-} ]] || continue # mbedtls/, a library's own
		[[ $dir == "$own" ]] && continue
		[[ $hdr == "$dir.h" ]] || complain "$f: includes $inc; outside $dir/ use its face $dir/$dir.h"
		((floor[$dir] < level)) || complain "$f: includes $inc, a floor not below its own ($own)"
	done < <(grep -E '^#include "' "$f" || true)
}

for f in runner/*/*.[ch]; do
	d=$(basename "$(dirname "$f")")
	[[ $d == deps ]] && continue
	check_file "$f" "$d" "${floor[$d]:-99}"
done
check_file runner/main.c main "${floor[main]}"
for f in init/*.[ch]; do
	n=$(wc -l <"$f")
	((n <= max_lines)) || complain "$f: $n lines (at most $max_lines)"
	while IFS= read -r inc; do
		[[ $inc == */* ]] || continue # init's own headers
		[[ $inc == lib/lib.h || $inc == net/net.h ]] ||
			complain "$f: includes $inc; PID 1 uses only lib/lib.h and net/net.h"
	done < <(sed -n 's/^#include "\(.*\)"/\1/p' "$f")
done
((bad == 0)) && echo "lint-layers: runner/ keeps its floors"
exit $bad
