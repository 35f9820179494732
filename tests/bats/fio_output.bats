#!/usr/bin/env bats
# fio_output.bats - what fio's consumers read: the JSON shape (against
# Debian's fio 3.33 itself), json+ through fio_jsonplus_clat2csv, the
# kbench jq paths, fio2gnuplot on our logs, percentiles, the normal output,
# and the windowed and per-I/O logs.

bats_require_minimum_version 1.5.0

load helpers
load_bats_libs

setup_file() {
	require_ebsbench
	# Real data under the reads, as after the benchmark's layout phase.
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

# ebs_json FILE --name=N ARGS...: run `ebsbench fio --name=N ARGS` on the
# loop device (libaio, direct), stdout to FILE; the run must succeed.
ebs_json() {
	local file=$1
	shift
	run --separate-stderr "$EBSBENCH" fio "$@" --filename="$LOOP" --ioengine=libaio --direct=1 \
		--allow_destroy=1
	[ "$status" -eq 0 ] || fail "exit $status: $stderr"
	printf '%s\n' "$output" >"$file"
}

# paths FILE -> every key path in a JSON document, array indices and json+
# bin keys folded, one per line, sorted.
paths() {
	jq -r '[paths | map(if type == "number" then "[]" else . end) | join(".")]
		| map(sub("\\.bins\\..*$"; ".bins.N")) | unique | .[]' "$1"
}

# --- the JSON shape, against fio itself --------------------------------------

@test "json and json+: every key path fio 3.33 writes is in ours" {
	local fmt
	for fmt in json json+; do
		local args=(--name=shape --rw=randrw --bs=4k --iodepth=4 --runtime=1 --time_based
			--output-format=$fmt)
		ebs_json ours.json "${args[@]}"
		# --name first, as in the seed: fio files options given before it
		# under "global options".
		fio "${args[@]}" --filename="$LOOP" --ioengine=libaio --direct=1 >fio.json
		paths fio.json >fio.paths
		paths ours.json >ours.paths
		run comm -23 fio.paths ours.paths
		assert_success
		[ -z "$output" ] || fail "$fmt: keys fio writes and we do not: $output"
	done
}

@test "json: the default percentile list is fio's, key for key" {
	ebs_json ours.json --name=pct --rw=randread --bs=4k --iodepth=4 --runtime=1 --time_based \
		--output-format=json
	run jq -r '.jobs[0].read.clat_ns.percentile | keys_unsorted | join(" ")' ours.json
	assert_output "1.000000 5.000000 10.000000 20.000000 30.000000 40.000000 50.000000 60.000000 70.000000 80.000000 90.000000 95.000000 99.000000 99.500000 99.900000 99.950000 99.990000"
}

# --- json+ through fio's own consumer ------------------------------------------

@test "json+ is read by fio_jsonplus_clat2csv; cumulative counts reach total_ios" {
	command -v fio_jsonplus_clat2csv >/dev/null ||
		fail "fio_jsonplus_clat2csv is missing: the fio package installs it (make deps)"
	ebs_json plus.json --name=plus --rw=randrw --bs=4k --iodepth=8 --runtime=2 --time_based \
		--output-format=json+
	run fio_jsonplus_clat2csv plus.json "$BATS_TEST_TMPDIR/clat"
	assert_success
	assert_file_exists clat_job0
	# fio's own cross-check of the CSV against the JSON.
	run fio_jsonplus_clat2csv --validate plus.json "$BATS_TEST_TMPDIR/clat"
	assert_success
	assert_output --partial validated
	local rows reads writes
	rows=$(($(wc -l <clat_job0) - 1))
	[ "$rows" -gt 10 ] || fail "only $rows CSV rows"
	# Columns: nsec, then per direction {slat,clat,lat} x {count,cumulative,
	# percentile}: read clat cumulative is column 6, write clat cumulative 15.
	assert_equal "$(head -1 clat_job0 | cut -d, -f6 | tr -d ' ')" read_clat_ns_cumulative
	assert_equal "$(head -1 clat_job0 | cut -d, -f15 | tr -d ' ')" write_clat_ns_cumulative
	reads=$(awk -F', *' 'NR > 1 && $6 != "" { c = $6 } END { print c }' clat_job0)
	writes=$(awk -F', *' 'NR > 1 && $15 != "" { c = $15 } END { print c }' clat_job0)
	assert_equal "$reads" "$(jnum plus.json '.jobs[0].read.total_ios')"
	assert_equal "$writes" "$(jnum plus.json '.jobs[0].write.total_ios')"
	# The bins are the histogram of every completion: their sum is N.
	assert_equal "$(jq '[.jobs[0].read.clat_ns.bins[]] | add' plus.json)" \
		"$(jnum plus.json '.jobs[0].read.clat_ns.N')"
}

# --- what scripts written against fio read ------------------------------------

@test "kbench's jq paths .jobs[0].read.iops_mean and .lat_ns.mean are numbers" {
	ebs_json k.json --name=kbench --rw=randread --bs=4k --iodepth=16 --runtime=3 --time_based \
		--output-format=json
	local iops mean lat clat
	iops=$(jnum k.json '.jobs[0].read.iops')
	mean=$(jnum k.json '.jobs[0].read.iops_mean')
	lat=$(jnum k.json '.jobs[0].read.lat_ns.mean')
	clat=$(jnum k.json '.jobs[0].read.clat_ns.mean')
	# Equal windows: the mean of the window rates is the overall rate.
	within_pct "$mean" "$iops" 5 || fail "iops_mean $mean vs iops $iops"
	awk -v l="$lat" -v c="$clat" 'BEGIN { exit !(l > 0 && l >= c) }' ||
		fail "lat_ns.mean $lat, clat_ns.mean $clat"
	# Little's law bounds the mean latency: at most 16 in flight.
	awk -v l="$lat" -v i="$iops" 'BEGIN { exit !(l * i / 1e9 <= 16 * 1.02) }' ||
		fail "lat $lat ns at $iops IOPS means more than 16 in flight"
}

@test "fio2gnuplot reads our iops log (values_count, min, max, avg)" {
	command -v fio2gnuplot >/dev/null || fail "fio2gnuplot is missing: the fio package installs it (make deps)"
	mkdir g
	cd g
	ebs_json ../g.json --name=g --rw=randread --bs=4k --iodepth=8 --runtime=4 --time_based \
		--output-format=json --write_iops_log=g --log_avg_msec=1000
	run fio2gnuplot -i
	assert_success
	assert_file_exists result.global
	local want
	want=$(awk -F', *' '{ n++; s += $2; if (min == "" || $2 < min) min = $2; if ($2 > max) max = $2 }
		END { printf "min=%.2f max=%.2f avg=%.2f values_count=%d", min, max, s / n, n }' g_iops.1.log)
	run sh -c "grep -E '^(min|max|avg|values_count)=' result.global | tr '\n' ' '"
	assert_output "$want "
	grep -q '^values_count=4$' result.global
}

# --- percentiles ----------------------------------------------------------------

# check_percentiles FILE DIR: every percentile within [min, max] of clat,
# and non-decreasing in the percentile.
check_percentiles() {
	jq -e --arg d "$2" '.jobs[0][$d].clat_ns as $c
		| ($c.percentile | to_entries | sort_by(.key | tonumber) | map(.value)) as $v
		| ($v | length) > 0
		  and all($v[]; . <= $c.max and . >= $c.min)
		  and ([range(1; $v | length) | $v[.] >= $v[. - 1]] | all)' "$1" >/dev/null ||
		fail "$2 percentiles out of [min,max] or not monotonic: $(jq -c --arg d "$2" '.jobs[0][$d].clat_ns | {min, max, percentile}' "$1")"
}

@test "percentiles are never above clat max (nor below min), and monotonic" {
	ebs_json a.json --name=p1 --rw=randread --bs=4k --iodepth=32 --runtime=1 --time_based \
		--output-format=json
	check_percentiles a.json read
	ebs_json b.json --name=p2 --rw=randread --bs=4k --iodepth=1 --runtime=1 --time_based \
		--output-format=json --percentile_list=1:50:99:99.9:99.99:99.999:100
	check_percentiles b.json read
	assert_equal "$(jq '.jobs[0].read.clat_ns.percentile | length' b.json)" 7
	ebs_json c.json --name=p3 --rw=randrw --bs=1M --iodepth=8 --runtime=1 --time_based \
		--output-format=json+ --percentile_list=99.99:100
	check_percentiles c.json read
	check_percentiles c.json write
	# Few samples: a handful of I/Os make the top percentiles the max.
	ebs_json d.json --name=p4 --rw=read --bs=1M --iodepth=1 --size=5M --output-format=json \
		--percentile_list=50:99:99.99:100
	assert_equal "$(jnum d.json '.jobs[0].read.total_ios')" 5
	check_percentiles d.json read
}

# --- the normal output ----------------------------------------------------------

@test "normal output: IOPS=, clat percentiles, Disk stats for a loop device" {
	run --separate-stderr "$EBSBENCH" fio --allow_destroy=1 --name=normal --filename="$LOOP" --rw=randrw \
		--bs=4k \
		--iodepth=8 --runtime=2 --time_based --ioengine=libaio --direct=1
	assert_success
	local dev=${LOOP#/dev/}
	assert_line --regexp '^normal: \(groupid=0, jobs=1\): err= 0'
	assert_line --regexp '^  read: IOPS=[0-9.]+k?, BW='
	assert_line --regexp '^  write: IOPS=[0-9.]+k?, BW='
	assert_line --regexp '^    clat percentiles \((nsec|usec|msec)\):'
	assert_line --regexp '^     \|  1\.00th=\[ *[0-9]+\]'
	assert_line --regexp '^  cpu +: usr=[0-9.]+%, sys=[0-9.]+%'
	assert_line --regexp '^   READ: bw='
	assert_line "Disk stats (read/write):"
	assert_line --regexp "^  $dev: ios=[1-9][0-9]*/[1-9][0-9]*, "
	# Not JSON, and nothing of it on stderr.
	if jq -e . <<<"$output" >/dev/null 2>&1; then
		fail "the normal output parses as JSON"
	fi
	[[ $stderr != *"IOPS="* ]]
}

# --- windowed logs --------------------------------------------------------------

@test "windowed logs: a 5 s run with log_avg_msec=1000 has rows at exactly 1000..5000" {
	ebs_json w.json --name=w --rw=randread --bs=4k --iodepth=16 --runtime=5 --time_based \
		--output-format=json --write_iops_log=w --write_bw_log=w --write_lat_log=w \
		--log_avg_msec=1000
	local kind
	for kind in iops bw lat clat slat; do
		run check_window_log "w_$kind.1.log" 0 5 1000
		assert_success
		run check_window_log "w_$kind.1.log" 1 0 1000
		assert_success
	done
	assert_equal "$(jnum w.json '.jobs[0].read.iops_samples')" 5
	assert_equal "$(jnum w.json '.jobs[0].read.bw_samples')" 5
	# bw rows are KiB/s of 4 KiB I/Os: 4 x the iops rows (each rounded).
	run awk -F', *' '{ d = $7 - 4 * $2; if (d < -4 || d > 4) { print; bad = 1 } } END { exit bad }' \
		<(paste -d, w_iops.1.log w_bw.1.log)
	assert_success
}

@test "windowed logs: a 500 ms window gives 2 rows a second, at k*500" {
	ebs_json h.json --name=h --rw=randread --bs=4k --iodepth=4 --runtime=3 --time_based \
		--output-format=json --write_iops_log=h --log_avg_msec=500
	run check_window_log h_iops.1.log 0 6 500
	assert_success
}

@test "windowed logs count every measured I/O: sum of the 1 s iops rows == total_ios" {
	ebs_json s.json --name=s --rw=randread --bs=4k --iodepth=32 --runtime=3 --time_based \
		--output-format=json --write_iops_log=s --log_avg_msec=1000
	run check_window_log s_iops.1.log 0 3 1000
	assert_success
	# A 1000 ms window's rate is its I/O count: nothing may go missing
	# (I/Os draining after the deadline belong to the last window).
	assert_equal "$(log_sum s_iops.1.log 0)" "$(jnum s.json '.jobs[0].read.total_ios')"
}

@test "randrw with an iops log: rows for both directions, the mix as asked" {
	ebs_json rw.json --name=rw --rw=randrw --rwmixread=70 --bs=4k --iodepth=16 --runtime=3 \
		--time_based --output-format=json --write_iops_log=rw --log_avg_msec=1000
	run check_window_log rw_iops.1.log 0 3 1000
	assert_success
	run check_window_log rw_iops.1.log 1 3 1000
	assert_success
	local r w
	r=$(log_sum rw_iops.1.log 0)
	w=$(log_sum rw_iops.1.log 1)
	[ "$r" -gt 0 ] && [ "$w" -gt 0 ] || fail "reads $r writes $w"
	# 70/30 within two points.
	awk -v r="$r" -v w="$w" 'BEGIN { p = r * 100 / (r + w); exit !(p > 68 && p < 72) }' ||
		fail "read share $r/($r+$w), want 70 %"
	local jr jw
	jr=$(jnum rw.json '.jobs[0].read.total_ios')
	jw=$(jnum rw.json '.jobs[0].write.total_ios')
	# The log and the JSON agree to within the I/Os in flight at the end.
	[ $((jr - r)) -ge 0 ] && [ $((jr - r)) -le 16 ] || fail "reads: log $r, JSON $jr"
	[ $((jw - w)) -ge 0 ] && [ $((jw - w)) -le 16 ] || fail "writes: log $w, JSON $jw"
}

@test "windowed logs write 0 for a window with no I/O (device capped at 2 IOPS)" {
	require_blkio_throttle
	local g
	g=$(unique_name zero)
	make_group "$g" "$LOOP" 2 0
	run --separate-stderr in_group "$g" "$EBSBENCH" fio --name=z --filename="$LOOP" \
		--rw=randread --bs=4k --iodepth=1 --runtime=3 --time_based --ioengine=libaio \
		--direct=1 --output-format=json --write_iops_log=z --log_avg_msec=250
	assert_success
	# 12 windows of 250 ms, none skipped, though most saw no completion.
	run check_window_log z_iops.1.log 0 12 250
	assert_success
	local zeros
	zeros=$(awk -F', *' '$2 == 0' z_iops.1.log | wc -l)
	[ "$zeros" -ge 4 ] || fail "$zeros empty windows at 2 IOPS: $(cat z_iops.1.log)"
}

@test "--write_lat_log without log_avg_msec: one _lat/_clat/_slat row per I/O" {
	ebs_json l.json --name=l --rw=randrw --bs=4k --iodepth=4 --runtime=1 --time_based \
		--output-format=json --write_lat_log=l
	local kind total
	total=$(($(jnum l.json '.jobs[0].read.total_ios') + $(jnum l.json '.jobs[0].write.total_ios')))
	for kind in lat clat slat; do
		assert_file_exists "l_$kind.1.log"
		assert_equal "$(wc -l <"l_$kind.1.log")" "$total"
	done
	# Row by row: same time, ddir, bs and offset in the three logs; lat is
	# slat + clat (ns); bs is 4096; offsets are 4 KiB aligned inside the
	# device; time within the run.
	local bytes rt
	bytes=$(blockdev --getsize64 "$LOOP")
	rt=$(jq -e '[.jobs[0].read.runtime, .jobs[0].write.runtime] | max' l.json)
	run awk -F', *' -v dev="$bytes" -v rt="$rt" '
		FILENAME == ARGV[1] { lt[FNR] = $1; lv[FNR] = $2; ld[FNR] = $3; lb[FNR] = $4; lo[FNR] = $5; next }
		FILENAME == ARGV[2] { cv[FNR] = $2; if ($1 != lt[FNR] || $3 != ld[FNR] || $5 != lo[FNR]) { print "clat row " FNR " differs"; bad = 1 } next }
		{
			if ($1 != lt[FNR] || $3 != ld[FNR] || $5 != lo[FNR]) { print "slat row " FNR " differs"; bad = 1 }
			if (lv[FNR] != $2 + cv[FNR]) { print "row " FNR ": lat " lv[FNR] " != slat " $2 " + clat " cv[FNR]; bad = 1 }
			if (lb[FNR] != 4096 || lo[FNR] % 4096 || lo[FNR] >= dev) { print "row " FNR ": bs " lb[FNR] " offset " lo[FNR]; bad = 1 }
			if (ld[FNR] != 0 && ld[FNR] != 1) { print "row " FNR ": ddir " ld[FNR]; bad = 1 }
			if (lt[FNR] < 0 || lt[FNR] > rt) { print "row " FNR ": time " lt[FNR] " past the runtime " rt; bad = 1 }
			if (bad) exit 1
		}
		END { exit bad }' l_lat.1.log l_clat.1.log l_slat.1.log
	assert_success
}

@test "--write_lat_log with log_avg_msec: windowed _lat/_clat/_slat means" {
	ebs_json m.json --name=m --rw=randread --bs=4k --iodepth=8 --runtime=2 --time_based \
		--output-format=json --write_lat_log=m --log_avg_msec=1000
	local kind
	for kind in lat clat slat; do
		run check_window_log "m_$kind.1.log" 0 2 1000
		assert_success
	done
	# The windows' mean clat brackets the run's mean clat.
	local mean
	mean=$(jnum m.json '.jobs[0].read.clat_ns.mean')
	run awk -F', *' -v m="$mean" '{ if ($2 < lo || NR == 1) lo = $2; if ($2 > hi) hi = $2 }
		END { exit !(lo <= m * 1.001 && m <= hi * 1.001 + 1) }' m_clat.1.log
	assert_success
}
