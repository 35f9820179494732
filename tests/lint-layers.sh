#!/usr/bin/env bash
# lint-layers.sh - the shape of runner/: each folder is a floor, and code
# includes only its own folder and the faces (FOLDER/FOLDER.h) of the
# floors below it; no C file is over 600 lines; every folder has its face.
# The table below is the one statement of the floors (the README points here).
set -euo pipefail
cd "$(dirname "$0")/.."

declare -A floor=(
	[lib]=0                                        # clock, little-endian loads, version
	[net]=1 [stats]=1 [results]=1                  # HTTP/TLS, counters, results.json
	[device]=2 [engine]=2 [analysis]=2 [upload]=2  # what is attached, I/O, the model, S3
	[job]=3                                        # options, offsets, the loop
	[output]=4                                     # fio's normal/json/json+
	[run]=5                                        # config, devices, plan, record, artifacts
	[report]=6                                     # summary.md, charts
	[cli]=7                                        # the subcommands
	[main]=8                                       # main.c; init/ may use only lib and net
)
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
