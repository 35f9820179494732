#!/usr/bin/env bats
# run.bats - `ebsbench discover`, `run` and `report` on loop devices: the
# device table, the write guard (a filesystem with files survives, checked
# by checksum), allow_destroy, and a time-scaled seed sequence on two
# devices, one capped at 3,000 IOPS, producing every artifact.

# run-bats: alone: a capped seed sequence whose cliff and IOPS the analysis reads

bats_require_minimum_version 1.5.0

load helpers
load_bats_libs

setup_file() {
	require_ebsbench
	DATA=$(make_loop 64)
	FAST=$(make_loop 128)
	SLOW=$(make_loop 128)
	export DATA FAST SLOW
	# A filesystem with files on DATA: what the guard must protect.
	mkfs.ext4 -q -F "$DATA"
	local mnt="$BATS_FILE_TMPDIR/mnt"
	mkdir -p "$mnt"
	mount "$DATA" "$mnt"
	track_mount "$mnt"
	head -c 1048576 /dev/urandom >"$mnt/precious.bin"
	echo "keep me" >"$mnt/notes.txt"
	umount "$mnt"
	sha256sum "$DATA" | cut -d' ' -f1 >"$BATS_FILE_TMPDIR/data.sha"
	export MNT=$mnt
}

teardown_file() {
	cleanup_mounts
	cleanup_groups
	cleanup_loops
}

setup() {
	cd "$BATS_TEST_TMPDIR"
}

teardown() {
	cleanup_mounts
}

data_unchanged() {
	[ "$(sha256sum "$DATA" | cut -d' ' -f1)" = "$(cat "$BATS_FILE_TMPDIR/data.sha")" ]
}

# config_for DEV [EXTRA_JSON_MEMBERS]: a one-device config with a short plan.
config_for() {
	short_config "$1" '[{"phase": "layout"}, {"phase": "randread", "runtime": 100}]' "${2:-}" \
		>cfg.json
}

@test "a gp2 typed with its size on a loop device: describe-volumes' iops taken, steps from its baseline" {
	# The model does not know a loop device as EBS; the config's gp2 of 100
	# GiB sustains 300 IOPS (3 per GiB), what describe-volumes reports.
	short_config "$FAST" '[{"phase": "randread", "runtime": 100}, {"phase": "loadcurve"}]' |
		jq '.devices[0] = {path: .devices[0].path, label: "vol", type: "gp2", size_gib: 100}' >cfg.json
	local steps='[.steps[] | select(.phase == "loadcurve") | .load.offered_iops]'
	run --separate-stderr "$EBSBENCH" run --config cfg.json --dry-run
	assert_success
	assert_equal "$(jq -c "$steps" <<<"$output")" '[330,300,270,225,150,75]'
	assert_equal "$(jq -r '.steps[] | select(.phase == "loadcurve") | .load.sustained_from' <<<"$output" | sort -u)" \
		"the baseline of the config's type and size"
	[[ "$stderr" != *"no load curve"* ]] || fail "$stderr"
	# Its iops as describe-volumes reports them: taken, the same steps.
	jq '.devices[0].iops = 300' cfg.json >iops.json
	run --separate-stderr "$EBSBENCH" run --config iops.json --dry-run
	assert_success
	assert_equal "$(jq -c "$steps" <<<"$output")" '[330,300,270,225,150,75]'
	# Any other: one line naming the figure its size gives, exit 2, before any I/O.
	jq '.devices[0].iops = 500' cfg.json >bad.json
	run --separate-stderr "$EBSBENCH" run --config bad.json --dry-run
	assert_equal "$status" 2
	assert_output ""
	assert_equal "$stderr" "ebsbench run: config: 'devices[0].iops' is 500: a gp2 of 100 GiB has 300 IOPS (3 per GiB, 100..16000), what aws ec2 describe-volumes reports: give that or leave 'iops' out"
}

@test "discover lists loop devices as a table and as JSON" {
	run --separate-stderr "$EBSBENCH" discover --all
	assert_success
	assert_line --partial "$FAST"
	assert_output --regexp "DEVICE +SIZE"
	local line
	line=$(grep "^$DATA " <<<"$output")
	[[ "$line" == *ext4* ]]
	run --separate-stderr "$EBSBENCH" discover --all --json
	assert_success
	[ "$(jq -r --arg p "$FAST" '.[] | select(.path == $p) | .size_bytes' <<<"$output")" = $((128 << 20)) ]
	[ "$(jq -r --arg p "$DATA" '.[] | select(.path == $p) | .signatures' <<<"$output")" = ext4 ]
	[ "$(jq -r --arg p "$FAST" '.[] | select(.path == $p) | .kind' <<<"$output")" = other ]
}

@test "a write plan refuses a device holding ext4, before any I/O" {
	config_for "$DATA"
	run --separate-stderr "$EBSBENCH" run --config cfg.json
	assert_equal "$status" 3
	[ "$(wc -l <<<"$stderr")" = 1 ]
	[[ "$stderr" == *"$DATA"* ]]
	[[ "$stderr" == *ext4* ]]
	[[ "$stderr" == *allow_destroy* ]]
	data_unchanged
	[ ! -e out/results.json ]
}

@test "a mounted device is refused even when allow_destroy names it" {
	# Read-only and without journal replay, so mounting writes nothing.
	mount -o ro,noload "$DATA" "$MNT"
	track_mount "$MNT"
	config_for "$DATA" "\"allow_destroy\": [\"$DATA\"]"
	run --separate-stderr "$EBSBENCH" run --config cfg.json
	assert_equal "$status" 3
	[[ "$stderr" == *mounted* ]]
	umount "$MNT"
	data_unchanged
}

@test "a read-only plan runs on a device with data, leaves it intact, records the image digest" {
	cat >cfg.json <<-JSON
	{"devices": [{"path": "$DATA", "label": "ro"}], "time_scale": 0.01, "test_size": "16M",
	 "output_dir": "out", "phases": [{"phase": "randread", "runtime": 100}, {"phase": "lat", "runtime": 100}]}
	JSON
	EBSBENCH_IMAGE_DIGEST=sha256:0123abcd run --separate-stderr "$EBSBENCH" run --config cfg.json
	assert_success
	[ "$(jq -r .plan.read_only out/results.json)" = true ]
	# Launchers pass the image digest in the environment.
	[ "$(jq -r .ebsbench.image_digest out/results.json)" = sha256:0123abcd ]
	[ "$(jq '.phases | length' out/results.json)" = 2 ]
	data_unchanged
}

@test "allow_destroy naming the device lets the write plan run" {
	config_for "$DATA" "\"allow_destroy\": [\"$DATA\"]"
	run --separate-stderr "$EBSBENCH" run --config cfg.json
	assert_success
	[ "$(jq '.phases | length' out/results.json)" = 2 ]
	# The layout overwrote the filesystem, as the user allowed.
	run ! data_unchanged
}

@test "config errors name the key and exit 2" {
	echo '{"devices": [], "bogus": 1}' >bad.json
	run --separate-stderr "$EBSBENCH" run --config bad.json
	assert_equal "$status" 2
	[[ "$stderr" == *"'bogus'"* ]]
	echo '{"time_scale": -1}' >bad.json
	run --separate-stderr "$EBSBENCH" run --config bad.json
	assert_equal "$status" 2
	[[ "$stderr" == *time_scale* ]]
	echo '{"phases": [{"phase": "randread", "numjobs": 4}]}' >bad.json
	run --separate-stderr "$EBSBENCH" run --config bad.json
	[ "$status" -ne 0 ]
	echo '{"devices": [{"path": "/dev/nonexistent-disk"}]}' >bad.json
	run --separate-stderr "$EBSBENCH" run --config bad.json
	[ "$status" -ne 0 ]
	[[ "$stderr" == *nonexistent-disk* ]]
	run --separate-stderr "$EBSBENCH" run --config /nonexistent.json
	assert_equal "$status" 2
}

@test "a scaled seed sequence on two devices, one capped at 3,000 IOPS, writes every artifact" {
	require_blkio_throttle
	local g
	g=$(unique_name runcap)
	make_group "$g" "$SLOW" 3000 3000
	# The write-up's six phases: the default plan would add the gp2's load
	# curve (from its type and size), which the first test plans.
	cat >cfg.json <<-JSON
	{"devices": [{"path": "$FAST", "label": "gp3", "type": "gp3", "size_gib": 100},
	             {"path": "$SLOW", "label": "gp2", "type": "gp2", "size_gib": 100}],
	 "time_scale": 0.005, "test_size": "32M", "output_dir": "out", "ioengine": "libaio",
	 "phases": [{"phase": "layout"}, {"phase": "randread"}, {"phase": "randwrite"},
	            {"phase": "lat"}, {"phase": "seqread"}, {"phase": "seqwrite"}]}
	JSON
	run --separate-stderr in_group "$g" "$EBSBENCH" run --config cfg.json
	assert_success
	[ -z "$output" ] # stdout carries nothing unasked
	json_doc out/results.json
	[ "$(jq '.phases | length' out/results.json)" = 12 ]
	# Phase-major order, one device at a time, as the seed.
	[ "$(jq -r '[.phases[] | .phase + "/" + .device] | join(" ")' out/results.json)" = \
		"layout/gp3 layout/gp2 randread/gp3 randread/gp2 randwrite/gp3 randwrite/gp2 lat/gp3 lat/gp2 seqread/gp3 seqread/gp2 seqwrite/gp3 seqwrite/gp2" ]
	# The gp2 randread runs past the predicted cliff: 2,700 s scaled.
	[ "$(jq '.phases[] | select(.phase == "randread" and .device == "gp2") | .runtime_s' out/results.json)" = 13.5 ]
	# The capped device ran at its cap; the kernel saw the same bytes.
	local iops
	iops=$(jnum out/results.json '.phases[] | select(.phase == "randread" and .device == "gp2") | .job.read.iops')
	within_pct "$iops" 3000 3
	[ "$(jq '[.phases[] | .disk_check.agrees] | all' out/results.json)" = true ]
	# Idle gaps between a device's phases are recorded.
	[ "$(jq '.phases[] | select(.phase == "randwrite" and .device == "gp2") | .idle_before_s > 0' out/results.json)" = true ]
	# The analysis: gp2 predicts a cliff at 2,000 s x 0.005; costs.
	[ "$(jq '.analysis.devices[] | select(.device == "gp2") | .prediction.burst_seconds' out/results.json)" = 2000 ]
	[ "$(jq '.analysis.devices[] | select(.device == "gp3") | .cost.monthly_usd' out/results.json)" = 9.12 ]
	# Logs named as in the seed, one row per window.
	for dev in gp2 gp3; do
		for p in layout rr rw lat sr sw; do
			[ -s "out/${dev}_${p}_iops.1.log" ]
		done
	done
	check_window_log out/gp2_rr_iops.1.log 0 2700 5
	# summary.md has every phase; the SVGs are XML a browser reads.
	for p in layout randread randwrite lat seqread seqwrite; do
		grep -q -- "$p" out/summary.md
	done
	grep -q "TL;DR" out/summary.md
	xmllint --noout out/iops_timeline.svg out/latency_percentiles.svg out/latency_heatmap.svg
	grep -q "<svg" out/iops_timeline.svg
	# The heatmap's phases keep histogram logs, and it has a panel for each.
	for dev in gp2 gp3; do
		for p in rr lat; do
			[ -s "out/${dev}_${p}_clat_hist.1.log" ] || fail "no ${dev}_${p}_clat_hist.1.log"
		done
	done
	[ "$(grep -c '<g class="panel"' out/latency_heatmap.svg)" = 4 ]
}

@test "report rebuilds the summary and charts from one or many results directories" {
	# Results of its own: a read-only plan, so it needs no other test.
	cat >cfg.json <<-JSON
	{"devices": [{"path": "$FAST", "label": "gp3", "type": "gp3", "size_gib": 100}],
	 "time_scale": 0.01, "test_size": "16M", "output_dir": "r1",
	 "phases": [{"phase": "randread", "runtime": 100}, {"phase": "lat", "runtime": 100}]}
	JSON
	run --separate-stderr "$EBSBENCH" run --config cfg.json
	assert_success
	# Its series, kept in memory, are what its logs read back give.
	local p short
	for p in randread lat; do
		short=$([ "$p" = randread ] && echo rr || echo lat)
		assert_equal "$(jq -r ".phases[] | select(.phase == \"$p\") | .iops_series[]" r1/results.json)" \
			"$(log_series "r1/gp3_${short}_iops.1.log")"
		assert_equal "$(jq -r ".phases[] | select(.phase == \"$p\") | .clat_hist.windows[]" r1/results.json)" \
			"$(hist_windows "r1/gp3_${short}_clat_hist.1.log")"
	done
	cp -r r1 r2
	# results.json alone renders the heatmap: its histogram logs gone too.
	rm r1/summary.md r1/iops_timeline.svg r1/latency_heatmap.svg r1/*_clat_hist.1.log
	run --separate-stderr "$EBSBENCH" report r1
	assert_success
	[ -s r1/summary.md ]
	[ -s r1/iops_timeline.svg ]
	cmp r1/latency_heatmap.svg r2/latency_heatmap.svg || fail "the re-rendered heatmap differs"
	[ "$(grep -c '<g class="panel"' r1/latency_heatmap.svg)" = 2 ]
	run --separate-stderr "$EBSBENCH" report r1 r2
	[ "$status" -eq 2 ] # several directories need --out
	run --separate-stderr "$EBSBENCH" report --out fleet r1 r2
	assert_success
	grep -q "run 2" fleet/summary.md
	xmllint --noout fleet/iops_timeline.svg fleet/latency_percentiles.svg fleet/latency_heatmap.svg
	mkdir empty
	run --separate-stderr "$EBSBENCH" report empty
	assert_equal "$status" 1
	[[ "$stderr" == *empty* ]]
}

@test "a run's output directory holds exactly the files presign signs for its config" {
	# Labels by each rule: the type (gp3), numbered (gp3-2), the kernel's
	# name; a phase of the config's own.  Read-only, so DATA is fine.
	local kernel_name
	kernel_name=$(basename "$DATA")
	cat >cfg.json <<-JSON
	{"devices": [{"path": "$FAST", "type": "gp3", "size_gib": 100}, {"path": "$SLOW", "type": "gp3"},
	             {"path": "$DATA"}],
	 "time_scale": 0.01, "test_size": "16M", "output_dir": "out",
	 "phases": [{"phase": "randread", "runtime": 100},
	            {"phase": "qd4", "rw": "randread", "iodepth": 4, "runtime": 100}]}
	JSON
	run --separate-stderr "$EBSBENCH" run --config cfg.json --dry-run
	assert_success
	[ ! -e out ] # a dry run writes nothing
	echo "$output" | jq -r '.steps[].iops_log' | sort >planned_logs
	echo "$output" | jq -r '.steps[].hist_log // empty' | sort >planned_hist
	run --separate-stderr "$EBSBENCH" run --config cfg.json
	assert_success
	ls -A out | sort >written
	# 7 once-per-run files (report.html the seventh), 2 phases x 3 devices
	# of IOPS logs, and the randread phase's histogram log on each device
	# (the heatmap's).
	[ "$(wc -l <written)" = 16 ] || fail "$(wc -l <written) files: $(xargs <written)"
	[ "$(wc -l <planned_hist)" = 3 ]
	grep -qx "gp3_rr_clat_hist.1.log" written || fail "no histogram log for gp3's randread"
	grep -qx "${kernel_name}_qd4_iops.1.log" written || fail "no log labelled $kernel_name"
	grep -qx "gp3-2_rr_iops.1.log" written || fail "no log labelled gp3-2"
	# The dry run named the logs the run wrote, and results.json names them.
	run diff planned_logs <(grep '_iops\.1\.log$' written)
	assert_success
	run diff planned_logs <(jq -r '.phases[].iops_log' out/results.json | sort)
	assert_success
	run diff planned_hist <(grep '_clat_hist\.1\.log$' written)
	assert_success
	run diff planned_hist <(jq -r '.phases[].clat_hist.log // empty' out/results.json | sort)
	assert_success
	# Every file written is signed, and nothing else.
	run --separate-stderr env AWS_ACCESS_KEY_ID=AKIDEXAMPLE AWS_SECRET_ACCESS_KEY=secret \
		"$EBSBENCH" presign --bucket b-1 --prefix p --region us-east-1 --expires 1h --plan cfg.json
	assert_success
	echo "$output" | jq -r '.upload.put | keys[]' | sort >signed
	run diff signed written
	assert_success
}
