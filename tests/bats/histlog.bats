#!/usr/bin/env bats
# histlog.bats - fio's histogram log (--write_hist_log, --log_hist_msec,
# --log_hist_coarseness): one row per window and direction at exactly
# k * log_hist_msec, fio's 1856 bins coarsened by 2^c, read unchanged by
# Debian fio's fiologparser_hist.py with percentiles that agree with our
# JSON's, and the same format as fio 3.33's own log of a similar run.

bats_require_minimum_version 1.5.0

load helpers
load_bats_libs

# Debian's fio ships the parser gzipped among its docs; make deps unpacks it.
PARSER="$HELPERS_DIR/../../build/deps/bin/fiologparser_hist.py"
# Debian's python3, where make deps installed numpy and pandas (a python3
# earlier in PATH, a pyenv one say, may lack them).
PYTHON=/usr/bin/python3

setup_file() {
	require_ebsbench
	[ -x "$PARSER" ] || fail "$PARSER is missing: make deps unpacks it from Debian's fio"
	"$PYTHON" -c 'import numpy, pandas' ||
		fail "numpy or pandas missing for $PYTHON: make deps installs them"
	# Real data under the reads, so latencies are the loop device's.
	LOOP=$(make_filled_loop 256 /dev/urandom)
	export LOOP
}

teardown_file() {
	cleanup_loops
	cleanup_groups
}

setup() {
	cd "$BATS_TEST_TMPDIR"
}

# hist_run OUT.json ARGS...: `ebsbench fio` on the loop device (libaio,
# direct, 4k), JSON to OUT.json; the run must succeed.
hist_run() {
	local file=$1
	shift
	run --separate-stderr "$EBSBENCH" fio --name=h --filename="$LOOP" --ioengine=libaio \
		--direct=1 --allow_destroy=1 --bs=4k --output-format=json "$@"
	[ "$status" -eq 0 ] || fail "exit $status: $stderr"
	printf '%s\n' "$output" >"$file"
}

# check_hist_log FILE DDIR ROWS MS COLS: FILE's rows of direction DDIR are
# exactly ROWS, the k-th at time k*MS, each "time, ddir, 4096, bins..." of
# COLS comma-and-space separated integers.  Prints what is wrong otherwise.
check_hist_log() {
	local file=$1 ddir=$2 rows=$3 ms=$4 cols=$5
	[ -f "$file" ] || {
		echo "no log $file"
		return 1
	}
	awk -F', ' -v d="$ddir" -v n="$rows" -v ms="$ms" -v cols="$cols" '
		!/^[0-9]+(, [0-9]+)+$/ { printf "line %d is not integers joined by \", \"\n", NR; bad = 1; next }
		NF != cols { printf "line %d has %d fields, want %d\n", NR, NF, cols; bad = 1; next }
		$2 == d {
			k++
			if ($1 != k * ms) { printf "row %d of ddir %s: time %s, want %d\n", k, d, $1, k * ms; bad = 1 }
			if ($3 != 4096) { printf "row %d: bs %s, want 4096\n", k, $3; bad = 1 }
		}
		END {
			if (k != n) { printf "%d rows of ddir %s in %s, want %d\n", k, d, FILENAME, n; bad = 1 }
			exit bad
		}' "$file"
}

# hist_sum FILE DDIR -> every bin of every DDIR row added up.
hist_sum() {
	awk -F', ' -v d="$2" '$2 == d { for (i = 4; i <= NF; i++) s += $i } END { printf "%d\n", s }' "$1"
}

# agree PARSER_OUT JSON DIR COARSENESS PCT...: the parser's one aggregated
# row against the JSON's clat percentiles, within the bin error.  Our
# percentile is the midpoint of the fine bin where the running count
# reaches it; the parser interpolates between its values of neighbouring
# (coarse) bins, so its answer lies between its values for the coarse bins
# either side of the one holding ours (+-1 ns for rounding).  Its value for
# a bin is its own formula (plat_idx_to_val_coarse: half-way from the
# bin's low edge to the top of the next fine bin), computed here the same.
agree() {
	"$PYTHON" - "$@" <<-'PY'
		import json, sys
		out, doc, ddir, c = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
		pcts = sys.argv[5:]
		def fio_idx(v):  # fio's plat_val_to_idx, 1856 bins
		    msb = v.bit_length() - 1 if v else 0
		    if msb <= 6:
		        return v
		    e = msb - 6
		    return min(((e + 1) << 6) + ((v >> e) & 63), 1855)
		def fine_val(i, edge):  # fio's plat_idx_to_val with an edge in [0, 1]
		    if i < 128:
		        return i
		    e = (i >> 6) - 1
		    return (1 << (e + 6)) + ((i % 64) + edge) * (1 << e)
		def parser_val(j):  # fiologparser_hist.py's value of coarse bin j
		    s = 1 << c
		    lo, hi = fine_val(j * s, 0.0), fine_val(j * s + s, 1.0)
		    return lo + (hi - lo) * 0.5
		lines = [l for l in open(out).read().splitlines() if l.strip()]
		head = [h.strip() for h in lines[0].split(',')]
		rows = [[f.strip() for f in l.split(',')] for l in lines[1:]]
		if len(rows) != 1:
		    sys.exit("want one aggregated row, got %d:\n%s" % (len(rows), "\n".join(lines)))
		row = dict(zip(head, rows[0]))
		ours = json.load(open(doc))["jobs"][0][ddir]["clat_ns"]
		if int(row["samples"]) != ours["N"]:
		    sys.exit("parser saw %s samples, JSON N is %d" % (row["samples"], ours["N"]))
		bad = 0
		for p in pcts:
		    want = ours["percentile"]["%f" % float(p)]
		    got = float(row[p + "%"])
		    j = fio_idx(want) >> c
		    lo, hi = parser_val(max(j - 1, 0)) - 1, parser_val(j + 1) + 1
		    ok = lo <= got <= hi
		    bad |= not ok
		    print("p%s: parser %.1f, JSON %d (%+.2f %%), bin error [%.1f, %.1f]%s"
		          % (p, got, want, (got - want) * 100 / want, lo, hi, "" if ok else "  <-- outside"))
		sys.exit(1 if bad else 0)
	PY
}

@test "a 3 s run with log_hist_msec=250 has 12 rows at exactly 250..3000, fio's 1856 bins" {
	hist_run h.json --rw=randread --iodepth=8 --runtime=3 --time_based \
		--write_hist_log=h --log_hist_msec=250 --write_iops_log=h --log_avg_msec=250
	run check_hist_log h_clat_hist.1.log 0 12 250 $((3 + 1856))
	assert_success
	# No write rows for a read job, and every completion in exactly one row.
	assert_equal "$(wc -l <h_clat_hist.1.log | tr -d ' ')" 12
	assert_equal "$(hist_sum h_clat_hist.1.log 0)" "$(jnum h.json '.jobs[0].read.clat_ns.N')"
	assert_equal "$(hist_sum h_clat_hist.1.log 0)" "$(jnum h.json '.jobs[0].read.total_ios')"
	# The same windows as the IOPS log: each row holds that window's
	# completions, no more, no fewer (IOPS = count x 4 for 250 ms).
	local per_row iops
	per_row=$(awk -F', ' '{ s = 0; for (i = 4; i <= NF; i++) s += $i; print $1 ": " s * 4 }' \
		h_clat_hist.1.log)
	iops=$(awk -F', ' '{ print $1 ": " $2 }' h_iops.1.log)
	assert_equal "$per_row" "$iops"
}

@test "randrw: a row per direction per window; coarseness 3 gives 1856 / 8 bins" {
	hist_run rw.json --rw=randrw --iodepth=8 --runtime=2 --time_based \
		--write_hist_log=rw --log_hist_msec=500 --log_hist_coarseness=3
	run check_hist_log rw_clat_hist.1.log 0 4 500 $((3 + 232))
	assert_success
	run check_hist_log rw_clat_hist.1.log 1 4 500 $((3 + 232))
	assert_success
	assert_equal "$(hist_sum rw_clat_hist.1.log 0)" "$(jnum rw.json '.jobs[0].read.clat_ns.N')"
	assert_equal "$(hist_sum rw_clat_hist.1.log 1)" "$(jnum rw.json '.jobs[0].write.clat_ns.N')"
}

@test "an idle window is a row of zeros, not a gap (device capped at 2 IOPS)" {
	require_blkio_throttle
	local g zeros
	g=$(unique_name histidle)
	make_group "$g" "$LOOP" 2 0
	run --separate-stderr in_group "$g" "$EBSBENCH" fio --name=z --filename="$LOOP" \
		--rw=randread --bs=4k --iodepth=1 --runtime=3 --time_based --ioengine=libaio \
		--direct=1 --output-format=json --write_hist_log=z --log_hist_msec=250 \
		--log_hist_coarseness=6
	assert_success
	run check_hist_log z_clat_hist.1.log 0 12 250 $((3 + 29))
	assert_success
	zeros=$(awk -F', ' '{ s = 0; for (i = 4; i <= NF; i++) s += $i } s == 0' z_clat_hist.1.log | wc -l)
	[ "$zeros" -ge 4 ] || fail "$zeros empty windows at 2 IOPS: $(cut -c1-80 z_clat_hist.1.log)"
}

@test "fiologparser_hist.py reads our log unchanged; its percentiles agree with our JSON's" {
	local c
	for c in 0 2; do
		hist_run "p$c.json" --rw=randread --iodepth=4 --runtime=2 --time_based \
			--write_hist_log="p$c" --log_hist_msec=200 --log_hist_coarseness="$c"
		# One interval over the whole run, unweighted: the run's histogram.
		run --separate-stderr "$PYTHON" "$PARSER" --noweight -i 100000000 \
			--percentiles 50:90:99:99.9 "p${c}_clat_hist.1.log"
		[ "$status" -eq 0 ] || fail "parser exit $status: $stderr"
		printf '%s\n' "$output" >"p$c.out"
		run agree "p$c.out" "p$c.json" read "$c" 50 90 99 99.9
		sed "s/^/# coarseness $c: /" <<<"$output" >&3
		assert_success
	done
	# Its default, time-weighted mode reads the log too: a row per second.
	run --separate-stderr "$PYTHON" "$PARSER" p0_clat_hist.1.log
	[ "$status" -eq 0 ] || fail "parser exit $status: $stderr"
	assert_line --index 0 "end-time, samples, min, avg, median, 90%, 95%, 99%, max"
	[ "${#lines[@]}" -ge 3 ] || fail "weighted mode printed: $output"
}

@test "fio 3.33's own hist log of a similar run has the same format" {
	run --separate-stderr fio --name=f --filename="$LOOP" --ioengine=libaio --direct=1 --bs=4k \
		--rw=randread --iodepth=4 --runtime=2 --time_based --write_hist_log=fio \
		--log_hist_msec=250 --log_hist_coarseness=1 --output-format=json
	[ "$status" -eq 0 ] || fail "fio exit $status: $stderr"
	hist_run ours.json --rw=randread --iodepth=4 --runtime=2 --time_based \
		--write_hist_log=ours --log_hist_msec=250 --log_hist_coarseness=1
	local fio_cols our_cols
	fio_cols=$(awk -F', ' '{ print NF }' fio_clat_hist.1.log | sort -u)
	our_cols=$(awk -F', ' '{ print NF }' ours_clat_hist.1.log | sort -u)
	assert_equal "$our_cols" "$fio_cols"
	assert_equal "$our_cols" $((3 + 928))
	# Same fields: integer time in ms, ddir 0, block size 4096, ", " between.
	local fio_head our_head
	fio_head=$(awk -F', ' '/^[0-9]+(, [0-9]+)+$/ { print $2 ", " $3 }' fio_clat_hist.1.log | sort -u)
	our_head=$(awk -F', ' '/^[0-9]+(, [0-9]+)+$/ { print $2 ", " $3 }' ours_clat_hist.1.log | sort -u)
	assert_equal "$fio_head" "0, 4096"
	assert_equal "$our_head" "$fio_head"
	# Every line of both is such a row; ours has exactly one per window,
	# fio's start at its first completion and drift (it may have fewer).
	assert_equal "$(grep -cvE '^[0-9]+(, [0-9]+)+$' fio_clat_hist.1.log)" 0
	assert_equal "$(grep -cvE '^[0-9]+(, [0-9]+)+$' ours_clat_hist.1.log)" 0
	assert_equal "$(awk -F', ' '{ print $1 }' ours_clat_hist.1.log | xargs)" \
		"250 500 750 1000 1250 1500 1750 2000"
	# The parser takes both alike.
	run --separate-stderr "$PYTHON" "$PARSER" --noweight fio_clat_hist.1.log ours_clat_hist.1.log
	[ "$status" -eq 0 ] || fail "parser exit $status: $stderr"
}

@test "bad values fail with one line naming the option, on the command line and in JSON" {
	local arg opt
	for arg in --log_hist_coarseness=7 --log_hist_coarseness=-1 --log_hist_msec=abc \
		--log_hist_msec=1.5 --write_hist_log=; do
		opt=${arg#--}
		opt=${opt%%=*}
		run --separate-stderr "$EBSBENCH" fio --name=b --filename="$LOOP" --runtime=1 \
			--write_hist_log=b --log_hist_msec=100 "$arg"
		[ "$status" -eq 2 ] || fail "$arg: exit $status, want 2"
		[ "${#stderr_lines[@]}" -eq 1 ] || fail "$arg: not one line: $stderr"
		[[ $stderr == *"'$opt'"* ]] || fail "$arg: the error does not name $opt: $stderr"
		[ -z "$output" ] || fail "$arg: stdout not empty: $output"
	done
	# write_hist_log without a window: fio writes an empty file, we refuse.
	run --separate-stderr "$EBSBENCH" fio --name=b --filename="$LOOP" --write_hist_log=b
	[ "$status" -eq 2 ] || fail "exit $status, want 2"
	[[ $stderr == *"'write_hist_log' needs --log_hist_msec"* ]] || fail "stderr: $stderr"
	assert_file_not_exists b_clat_hist.1.log
	# A run phase is a JSON job through the same table: a bad value is named...
	short_config "$LOOP" '[{"phase": "lat", "log_hist_coarseness": 9}]' >bad.json
	run --separate-stderr "$EBSBENCH" run --config bad.json --dry-run
	[ "$status" -eq 2 ] || fail "exit $status, want 2: $stderr"
	[[ $stderr == *"'log_hist_coarseness'"* ]] || fail "stderr: $stderr"
	# ...and a run names its own logs, so a phase cannot ask for this one.
	short_config "$LOOP" '[{"phase": "lat", "write_hist_log": "h", "log_hist_msec": 100}]' \
		>own.json
	run --separate-stderr "$EBSBENCH" run --config own.json --dry-run
	[ "$status" -eq 2 ] || fail "exit $status, want 2: $stderr"
	[[ $stderr == *'drop "write_hist_log"'* ]] || fail "stderr: $stderr"
}

@test "the three options are in docs/fio.md's options list and in the fio usage" {
	local list opt
	# The list: from "Options: `--name" to the paragraph's closing "`.".
	list=$(sed -n '/^Options: `--name/,/`\.$/p' "$HELPERS_DIR/../../docs/fio.md")
	[ -n "$list" ] || fail "no options list in docs/fio.md"
	run "$EBSBENCH" fio --help
	for opt in write_hist_log log_hist_msec log_hist_coarseness; do
		[[ $list == *"--$opt "* || $list == *"--$opt"$'\n'* || $list == *"--$opt\`"* ]] ||
			fail "docs/fio.md's options list lacks --$opt"
		[[ $output == *"--$opt="* ]] || fail "ebsbench fio --help lacks --$opt: $output"
	done
}
