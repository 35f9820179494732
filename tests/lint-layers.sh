#!/usr/bin/env bash
# lint-layers.sh - the shape of runner/: each folder is a floor, and code
# includes only its own folder and the faces (FOLDER/FOLDER.h) of the
# floors below it; no C file is over 600 lines; every folder has its face.
# Inside a folder, files form no circle: no two C files call each other
# (directly or round a longer loop, read from the objects' symbols) and no
# two headers include each other; and a function is declared in its own
# file's header, its module's (compare.h for compare_cells.c), the face or
# the folder's internal.h.  The face, and every header of its folder it
# includes, declares only what code outside the folder calls: what the
# folder's files share among themselves is in internal.h or a header the
# face does not include.
# The table below is the one statement of the floors (docs/development.md points here).
# The symbols come from the objects in $LINT_LAYERS_OBJ (build/musl): `make
# lint` builds them first.
set -euo pipefail
# A command that fails outside a check says so: never a silent exit 1.
trap 'echo "lint-layers: line $LINENO: $BASH_COMMAND failed" >&2' ERR
cd "$(dirname "$0")/.."
obj=${LINT_LAYERS_OBJ:-build/musl}

declare -A floor=(
	[lib]=0                                        # clock, little-endian loads, version
	[net]=1 [stats]=1 [results]=1 [model]=1        # HTTP/TLS, counters, results.json, EBS tables and prices
	[device]=2 [engine]=2 [analysis]=2 [upload]=2  # what is attached, I/O, what a run's numbers mean, S3
	[demand]=2                                     # demand traces: read, or observed live
	[decide]=3 [job]=3                             # what to buy, is a change real; options, offsets, the loop
	[output]=4                                     # fio's normal/json/json+
	[run]=5                                        # config, devices, plan, record, artifacts, execution
	[launch]=6 [report]=6                          # k8s, ec2, presign; summary.md, charts
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

# Every file is read by one wc and one grep (a process per file made this
# slow on a loaded machine).
files=()
for f in runner/*/*.[ch]; do
	[[ $f == runner/deps/* ]] || files+=("$f")
done
files+=(runner/main.c)
while read -r n f; do
	if [[ $f == init/* ]]; then
		((n <= max_lines)) || complain "$f: $n lines (at most $max_lines)"
	elif [[ $f != total ]]; then
		((n <= max_lines)) || complain "$f: $n lines (at most $max_lines: split it along its seams)"
	fi
done < <(wc -l "${files[@]}" init/*.[ch])

while IFS= read -r line; do
	f=${line%%:*}
	inc=${line#*\"}
	inc=${inc%\"*}
	if [[ $f == init/* ]]; then
		[[ $inc == */* ]] || continue # init's own headers
		[[ $inc == lib/lib.h || $inc == net/net.h ]] ||
			complain "$f: includes $inc; PID 1 uses only lib/lib.h and net/net.h"
		continue
	fi
	own=main
	[[ $f == runner/main.c ]] || { own=${f#runner/} && own=${own%%/*}; }
	level=${floor[$own]:-99}
	[[ $inc == */* ]] || complain "$f: #include \"$inc\" does not name its folder"
	dir=${inc%%/*}
	hdr=${inc#*/}
	[[ -n ${floor[$dir]:-} ]] || continue # mbedtls/, a library's own
	[[ $dir == "$own" ]] && continue
	[[ $hdr == "$dir.h" ]] || complain "$f: includes $inc; outside $dir/ use its face $dir/$dir.h"
	((floor[$dir] < level)) || complain "$f: includes $inc, a floor not below its own ($own)"
done < <(grep -H -E '^#include "' "${files[@]}" init/*.[ch] || true)

# circles EDGES: reads "FROM TO WHY" lines (FROM needs TO, for the reason
# WHY) and prints each set of nodes that reach one another, with the edges
# that close the loop.  Reachability by Warshall: a folder has < 50 files.
circles() {
	awk '{ for (k = 1; k <= 2; k++) if (!($k in id)) { id[$k] = n + 0; name[n++] = $k }
	       a = id[$1]; b = id[$2]; if (a != b && !((a, b) in why)) why[a, b] = $3; r[a, b] = 1 }
	END {
		for (k = 0; k < n; k++) for (i = 0; i < n; i++) if ((i, k) in r)
			for (j = 0; j < n; j++) if ((k, j) in r) r[i, j] = 1
		for (i = 0; i < n; i++) {
			if (i in seen || !((i, i) in r)) continue
			out = name[i]; seen[i]; split("", in_set); in_set[i]
			for (j = i + 1; j < n; j++) if ((i, j) in r && (j, i) in r) { out = out ", " name[j]; seen[j]; in_set[j] }
			for (a in in_set) for (b in in_set) if ((a, b) in why) out = out "; " name[a] " uses " why[a, b] " of " name[b]
			print out
		}
	}'
}

# objects_of FOLDER: sets objs to the objects of the folder's C files,
# complaining of each one missing, older than its source or empty.
objects_of() {
	local c o
	objs=()
	for c in runner/$1/*.c; do
		[[ -e $c && $c != "$NO_TLS" ]] || continue
		o=${c##*/}
		o=$obj/$1/${o%.c}.o
		if [[ ! -f $o || $o -ot $c ]]; then
			complain "$c: no object $o newer than it, so its calls are unread (make lint builds it)"
			continue
		elif [[ ! -s $o ]]; then
			complain "$c: its object $o is empty (a build cut short?), so its calls are unread"
			continue
		fi
		objs+=("$o")
	done
}

# symbols_of OBJECT...: "D FILE SYMBOL TYPE" for what each object defines
# (TYPE T: a function), "U FILE SYMBOL" for what it needs.
symbols_of() {
	(($#)) || return 0
	{
		nm -A -g --defined-only "$@" | awk 'NF == 3 && $2 ~ /[TDBRC]/ { print "D", $1, $3, $2 }'
		nm -A -u "$@" | awk '{ print "U", $1, $NF }'
	} | sed -E 's|^([DU]) [^ ]*/([^/ ]+)\.o:[^ ]* |\1 \2.c |'
}

# tls_none.c stands in for tls.c (Makefile): the same symbols, never linked beside it.
NO_TLS=runner/net/tls_none.c

# What every object calls, as "FOLDER SYMBOL" (main.c's and init/'s under
# their own names), so that a folder's face can be held to what others call.
for o in "$obj"/main.o "$obj"/init/*.o; do
	[[ -s $o ]] || complain "$o: missing or empty, so its calls are unread (make lint builds it)"
done
# One nm for them all (a process per object is slow on a loaded machine);
# an empty object is named above (main's, init's) or by objects_of.
readable=()
for o in "$obj"/*/*.o "$obj"/main.o; do
	if [[ -s $o ]]; then readable+=("$o"); fi
done
calls=$(nm -A -u "${readable[@]}" | awk -v top="${obj##*/}" '{
		n = split(substr($1, 1, index($1, ":") - 1), part, "/")
		print (n > 1 && part[n - 1] == top ? "main" : part[n - 1]), $NF
	}' | sort -u)

# face_headers FOLDER: the face and the folder's headers it includes, each
# once, followed down the includes.
face_headers() {
	local d=$1 todo=("runner/$1/$1.h") h inc
	local -A seen=()
	while ((${#todo[@]})); do
		h=${todo[0]}
		todo=("${todo[@]:1}")
		[[ -f $h && -z ${seen[$h]:-} ]] || continue
		seen[$h]=1
		echo "$h"
		for inc in $(sed -n "s|^#include \"$d/\(.*\)\".*|\1|p" "$h"); do
			todo+=("runner/$d/$inc")
		done
	done
}
for dir in runner/*/; do
	d=$(basename "$dir")
	[[ $d == deps ]] && continue
	objects_of "$d"
	syms=$(symbols_of "${objs[@]}")
	while IFS= read -r loop; do
		[[ -n $loop ]] && complain "runner/$d/: files that call each other: $loop (move what both need to a file below them)"
	done < <(awk '$1 == "D" { def[$3] = $2; next } ($3 in def) && def[$3] != $2 { print $2, def[$3], $3 }' \
		<<<"$(sort <<<"$syms")" | circles)
	while IFS= read -r loop; do
		[[ -n $loop ]] && complain "runner/$d/: headers that include each other: $loop"
	done < <({ grep -H "^#include \"$d/" "$dir"*.h /dev/null || true; } |
		sed -n "s|^.*/\([^/]*\.h\):#include \"$d/\(.*\)\".*|\1 \2 include|p" | circles)
	# Where each defined function is declared: its own header, a module
	# header whose name starts its file's (compare.h: compare_cells.c), or the face.
	while IFS= read -r line; do
		complain "$line"
	done < <({ grep -HoE '\b[A-Za-z_][A-Za-z0-9_]*\(' "$dir"*.h 2>/dev/null || true; } |
		sed 's|^.*/\(.*\)\.h:\(.*\)($|H \1 \2|' | cat - <(awk '$1 == "D" && $4 == "T"' <<<"$syms") |
		awk -v d="$d" '$1 == "H" { decl[$3] = decl[$3] " " $2; next }
		{	stem = $2; sub(/\.c$/, "", stem); n = split(decl[$3], hs, " "); ok = 0
			for (k = 1; k <= n; k++)
				if (hs[k] == stem || hs[k] == d || hs[k] == "internal" || index(stem, hs[k] "_") == 1) ok = 1
			if (!ok) printf "runner/%s/%s: %s is declared neither in %s.h, nor in the face %s.h, nor in %s/internal.h, nor in a module header named for the start of its file\047s name\n", d, $2, $3, stem, d, d
		}')
	# What the face offers: each function it declares (or a header it
	# includes declares) is called from outside the folder.
	while IFS= read -r line; do
		complain "$line"
	done < <(mapfile -t hs < <(face_headers "$d")
		{ grep -HoE '\b[A-Za-z_][A-Za-z0-9_]*\(' "${hs[@]}" | sed 's|^\(.*\):\(.*\)($|H \1 \2|'
		  awk '$1 == "D" && $4 == "T" { print "T", $3 }' <<<"$syms"
		  awk -v d="$d" '$1 != d { print "U", $2 }' <<<"$calls"; } |
		awk -v d="$d" '$1 == "H" { if (!($3 in where)) where[$3] = $2; next }
			$1 == "T" { defined[$2] = 1; next } { called[$2] = 1 }
			END { for (f in where) if ((f in defined) && !(f in called))
				printf "%s: %s is on the face of %s/ but nothing outside %s/ calls it (declare it in %s/internal.h or a header the face does not include)\n", where[f], f, d, d, d }' | sort)
done

((bad == 0)) && echo "lint-layers: runner/ keeps its floors"
exit $bad
