#!/usr/bin/env bats
# fleet.bats - `ebsbench report DIR...` over 52 results directories made by
# real runs on loop devices (over /dev/shm), four at a time, each slot a
# loop device in a blkio cgroup of its own: 30 gp3 volumes capped at 3,000
# read IOPS (gp3-07 and gp3-23 at 2,000: outliers on purpose) and 22 gp2
# whose cap falls from 3,000 to 300 during randread (a credit cliff made by
# hand, 2 s into randread; gp2-11's 1.2 s later).  Every randread keeps
# each I/O's completion latency ("io_latency_log"), so the fleet's merged
# p99 is checked against the p99 of the concatenated I/Os.

# run-bats: alone: 52 capped runs whose cliffs and p99s the fleet report must tell apart

bats_require_minimum_version 1.5.0

load helpers
load_bats_libs
load html_helpers

FLEET_SLOTS=4
FLEET_DROP_S=2.0      # gp2: the cap falls to 300 this long into randread
FLEET_LATE_DROP_S=3.2 # gp2-11's

setup_file() {
	require_ebsbench
	cd "$BATS_FILE_TMPDIR" || return 1
	# Every run is capped: without blkio there is no fleet to make.
	blkio_throttle || return 0
	local i dev
	for ((i = 0; i < FLEET_SLOTS; i++)); do
		dev=$(make_loop 64) || return 1
		echo "$dev" >>slots
		make_group "$(unique_name "fleet$i")" "$dev" 3000 0 || return 1
	done
	mkdir -p runs
	make_fleet || return 1
	export RUNS=$BATS_FILE_TMPDIR/runs
}

teardown_file() {
	cleanup_groups
	cleanup_loops
}

setup() {
	cd "$BATS_TEST_TMPDIR"
}

# fleet_plan -> one line per run: DIR TYPE CAP [DROP_S].
fleet_plan() {
	local i cap drop
	for i in $(seq -w 1 30); do
		cap=3000
		if [[ $i == 07 || $i == 23 ]]; then cap=2000; fi
		echo "runs/gp3-$i gp3 $cap"
	done
	for i in $(seq -w 1 22); do
		drop=$FLEET_DROP_S
		if [[ $i == 11 ]]; then drop=$FLEET_LATE_DROP_S; fi
		echo "runs/gp2-$i gp2 3000 $drop"
	done
}

# cap_falls_in DIR LOG DROP_S FILE MAJ:MIN: once the run in DIR opens LOG
# (its randread starts; 10 s at most), DROP_S later the cap in FILE falls
# to 300: timed from the phase, not the command, whose start-up a loaded
# machine stretches.
cap_falls_in() {
	local i
	for ((i = 0; i < 1000; i++)); do
		if [ -e "$1/$2" ]; then
			sleep "$3"
			echo "$5 300" >"$4"
			return
		fi
		sleep 0.01
	done
}

# fleet_run SLOT DIR TYPE CAP [DROP_S]: one run on the slot's device, in its
# cgroup at CAP read IOPS: a randread that keeps every I/O's latency (2 s;
# 4.5 s with DROP_S, when the cap falls to 300 that long into it).
fleet_run() {
	local slot=$1 dir=$2 type=$3 cap=$4 drop=${5:-} runtime=20
	local dev group majmin
	dev=$(sed -n "$((slot + 1))p" slots)
	group=$(unique_name "fleet$slot")
	majmin=$(lsblk -dno MAJ:MIN "$dev" | tr -d ' ')
	set_cap "$BLKIO/$group/blkio.throttle.read_iops_device" "$majmin" "$cap" || return 1
	if [ -n "$drop" ]; then runtime=45; fi
	cat >"$dir.json" <<-JSON
	{"devices": [{"path": "$dev", "label": "$type", "type": "$type", "size_gib": 100}],
	 "time_scale": 0.1, "test_size": "16M", "output_dir": "$dir",
	 "phases": [{"phase": "randread", "runtime": $runtime, "io_latency_log": true}]}
	JSON
	if [ -n "$drop" ]; then
		cap_falls_in "$dir" "${type}_rr_iops.1.log" "$drop" \
			"$BLKIO/$group/blkio.throttle.read_iops_device" "$majmin" &
	fi
	in_group "$group" "$EBSBENCH" run --config "$dir.json" >"$dir.out" 2>"$dir.err" || {
		echo "# fleet: the run of $dir failed: $(tail -n 3 "$dir.err")" >&2
		return 1
	}
	wait
}

# fleet_slot SLOT: every FLEET_SLOTS-th run of the plan, one after another.
fleet_slot() {
	local slot=$1 n=0 dir type cap drop
	while read -r dir type cap drop; do
		if ((n++ % FLEET_SLOTS == slot)); then
			fleet_run "$slot" "$dir" "$type" "$cap" "$drop" || return 1
		fi
	done < <(fleet_plan)
}

# make_fleet: the slots side by side; fails when any run did.
make_fleet() {
	local slot pids=() p rc=0 started=$SECONDS
	for ((slot = 0; slot < FLEET_SLOTS; slot++)); do
		fleet_slot "$slot" &
		pids+=($!)
	done
	for p in "${pids[@]}"; do
		wait "$p" || rc=1
	done
	echo "# fleet: 52 runs in $((SECONDS - started)) s" >&3
	return $rc
}

# The outlier rule (fleet.h) in jq, over fleet.json's members and
# distributions: "DIR FIGURE" of every figure it names, sorted.
RULE='[.classes[] | . as $c | $c.members[] as $m | $c.figures | to_entries[] |
	.key as $k | .value as $d | select($d.n >= 5 and $m[$k] != null) |
	select(($m[$k] - $d.median | fabs) > 3 * ([1.4826 * $d.mad, $d.mad_floor * ($d.median | fabs)] | max)) |
	"\($m.dir) \($k)"] | sort | .[]'

# quartiles -> "Q1 MEDIAN Q3" of the numbers on stdin, linear between
# order statistics.
quartiles() {
	sort -g | awk '{ v[NR] = $1 }
		function q(p,   at, lo) { at = p * (NR - 1) + 1; lo = int(at)
			return v[lo] + (at - lo) * (v[lo < NR ? lo + 1 : lo] - v[lo]) }
		END { printf "%.9g %.9g %.9g\n", q(0.25), q(0.5), q(0.75) }'
}

# same_quartiles TYPE FIGURE FILTER: fleet.json's quartiles of FIGURE in
# TYPE's class are those of FILTER over the runs' analysis.devices[0].
same_quartiles() {
	local ours theirs
	ours=$(class "$1" | jq -r --arg f "$2" '.figures[$f] | "\(.q1) \(.median) \(.q3)"')
	theirs=$(jq -r ".analysis.devices[0] | $3" "$RUNS"/"$1"-*/results.json | quartiles)
	awk -v a="$ours" -v b="$theirs" 'BEGIN { n = split(a, x, " "); split(b, y, " ")
		for (i = 1; i <= 3; i++) { d = x[i] - y[i]; if (d < 0) d = -d; if (n != 3 || d > 1e-6 * (y[i] < 0 ? -y[i] : y[i]) + 1e-9) exit 1 } }' ||
		fail "$1 $2: fleet.json has $ours, the runs $theirs"
}

# class FILTER -> fleet.json's class of that type, as compact JSON.
class() {
	jq -ec --arg t "$1" '.classes[] | select(.type == $t)' fleet/fleet.json
}

# outlier_dirs FIGURE -> the directories (last name) of that figure's outliers, sorted.
outlier_dirs() {
	jq -r --arg f "$1" '[.outliers[] | select(.figure == $f) | .dir | rtrimstr("/") |
		split("/") | last] | sort | join(" ")' fleet/fleet.json
}

@test "the fleet report of 52 runs: classes, distributions, the outliers named, under 0.1 s a directory" {
	require_blkio_throttle
	local dirs=("$RUNS"/*/) started elapsed_ms
	[ "${#dirs[@]}" = 52 ]
	started=$(date +%s%N)
	run --separate-stderr "$EBSBENCH" report --out fleet "${dirs[@]}"
	elapsed_ms=$((($(date +%s%N) - started) / 1000000))
	echo "# fleet: report over ${#dirs[@]} directories in $elapsed_ms ms ($stderr)" >&3
	assert_success
	[ -z "$output" ] # stdout: only what was asked for, nothing here
	((elapsed_ms < ${#dirs[@]} * 100)) || fail "the report took $elapsed_ms ms"
	json_doc fleet/fleet.json
	[ "$(jq '.runs, .volumes, (.classes | length)' fleet/fleet.json | xargs)" = "52 52 2" ]
	local gp3 gp2
	gp3=$(class gp3)
	gp2=$(class gp2)
	[ "$(jq .volumes <<<"$gp3")" = 30 ]
	[ "$(jq .volumes <<<"$gp2")" = 22 ]
	# gp3: a sustained rate on every volume, at the cap; gp2: every
	# volume's cliff found, 3,000 before it and the 300 cap after it
	# (the mean of the analysis' plateau, as summary.md says it: the
	# throttle stalls a few windows as the cap falls, so under 300).
	[ "$(jq '.figures.sustained_iops.n' <<<"$gp3")" = 30 ]
	within_pct "$(jq '.figures.sustained_iops.median' <<<"$gp3")" 3000 3
	for fig in burst_iops post_cliff_iops cliff_s randread_p99_ms; do
		[ "$(jq --arg f "$fig" '.figures[$f].n' <<<"$gp2")" = 22 ] || fail "gp2 $fig: $(jq -c --arg f "$fig" '.figures[$f]' <<<"$gp2")"
	done
	within_pct "$(jq '.figures.burst_iops.median' <<<"$gp2")" 3000 5
	awk -v v="$(jq '.figures.post_cliff_iops.median' <<<"$gp2")" 'BEGIN { exit !(v > 100 && v <= 330) }'
	# Each distribution is the one of the runs' own analyses.
	same_quartiles gp3 sustained_iops '.cliff.before.mean'
	same_quartiles gp2 burst_iops '.cliff.before.mean'
	same_quartiles gp2 post_cliff_iops '.cliff.after.mean'
	same_quartiles gp2 cliff_s '.cliff.second'
	# The outliers are exactly the figures the rule names, recomputed here...
	diff <(jq -r "$RULE" fleet/fleet.json) <(jq -r '.outliers[] | "\(.dir) \(.figure)"' fleet/fleet.json | sort) ||
		fail "the outliers are not the rule's"
	# ...and the volumes made slow on purpose are among them.
	local planted
	for planted in sustained_iops:gp3-07 sustained_iops:gp3-23 cliff_s:gp2-11; do
		[[ " $(outlier_dirs "${planted%%:*}") " == *" ${planted#*:} "* ]] ||
			fail "${planted#*:} is not among the ${planted%%:*} outliers: $(outlier_dirs "${planted%%:*}")"
	done
	grep -q "^- gp3-07:gp3 (.*sustained IOPS (randread, no cliff) [12],[0-9][0-9][0-9] IOPS against the class median [23],[0-9][0-9][0-9] IOPS (-3[0-9].[0-9] %" fleet/fleet.md ||
		fail "fleet.md: $(grep gp3-07 fleet/fleet.md)"
	grep -q "^- gp2-11:gp2 (.*cliff time" fleet/fleet.md
	# The chart: a panel per figure measured, a row per class in each, the outliers labelled.
	xmllint --noout fleet/fleet.svg
	local figures
	figures=$(jq '[.classes[].figures | keys[]] | unique | length' fleet/fleet.json)
	[ "$(grep -c '<g class="panel"' fleet/fleet.svg)" = "$figures" ]
	[ "$(grep -c '<g class="class-row"' fleet/fleet.svg)" = "$(jq '[.classes[].figures | length] | add' fleet/fleet.json)" ]
	[ "$(grep -c '<circle class="\(volume\|outlier\)"' fleet/fleet.svg)" = "$(jq '[.classes[].figures[].n] | add' fleet/fleet.json)" ]
	[ "$(grep -c '<circle class="outlier"' fleet/fleet.svg)" = "$(jq '.outliers | length' fleet/fleet.json)" ]
	grep -q 'class="outlier-label"[^>]*>gp3-07:gp3 -3[0-9] %<' fleet/fleet.svg
	grep -q 'class="outlier-label"[^>]*>gp2-11:gp2 +[0-9]* %<' fleet/fleet.svg
	# Several runs' own report too, as before.
	[ -s fleet/summary.md ]
	# report.html is the fleet's page: in Chromium self-contained, the
	# fleet section with its chart inline.
	chromium_open fleet/report.html light fleet.png
	assert_self_contained
	assert_equal "$(page '.dom.h2 | map(select(. == "Fleet")) | length')" 1
	assert_equal "$(page '[.dom.figures[] | select(.artifact == "fleet.svg" and .svg)] | length')" 1
}

# ref_p99 TYPE -> "P99_NS COUNT": the p99 of every I/O in that class's
# per-I/O logs, ranked as fio ranks (the first value whose rank reaches 99 %).
ref_p99() {
	cat "$RUNS"/"$1"-*/"$1"_rr_clat.1.log | awk -F', *' '{ print $2 }' | sort -n |
		awk '{ v[NR] = $1 } END { need = 99 / 100 * NR; r = int(need); if (r < need) r++; print v[r], NR }'
}

@test "the fleet's merged p99 is the p99 of the concatenated I/Os, within its bin" {
	require_blkio_throttle
	run --separate-stderr "$EBSBENCH" report --out fleet "$RUNS"/*/
	assert_success
	local type ref count lo hi ios
	for type in gp3 gp2; do
		read -r ref count < <(ref_p99 "$type")
		read -r lo hi ios < <(class "$type" | jq -r '.merged.randread | "\(.p99_bin_ns[0]) \(.p99_bin_ns[1]) \(.ios)"')
		echo "# fleet: $type p99 of $count I/Os: $ref ns; merged: bin [$lo, $hi) of $ios I/Os" >&3
		# The histograms hold exactly the I/Os the logs do...
		[ "$ios" = "$count" ] || fail "$type: $ios I/Os in the histograms, $count in the logs"
		# ...and the merged p99's bin holds the concatenated I/Os' p99.
		awk -v r="$ref" -v lo="$lo" -v hi="$hi" 'BEGIN { exit !(lo <= r && r < hi) }' ||
			fail "$type: p99 $ref ns is outside the merged p99's bin [$lo, $hi)"
	done
}

@test "a fleet report is never written into one of its inputs" {
	require_blkio_throttle
	local a=$RUNS/gp3-01 b=$RUNS/gp3-02
	run --separate-stderr "$EBSBENCH" report --out "$a/fleet" "$a" "$b"
	assert_equal "$status" 2
	[ "$(wc -l <<<"$stderr")" = 1 ]
	[[ "$stderr" == *"never writes into its inputs"* ]]
	[ ! -e "$a/fleet" ]
	run --separate-stderr "$EBSBENCH" report --out "$b/" "$a" "$b"
	assert_equal "$status" 2
	[[ "$stderr" == *"inside the results directory $b"* ]]
	[ ! -e "$b/fleet.md" ]
}

@test "io_latency_log: a boolean, its log named, planned, written, signed" {
	require_blkio_throttle
	local dev group
	dev=$(sed -n 1p "$BATS_FILE_TMPDIR/slots")
	group=$(unique_name fleet0)
	set_cap "$BLKIO/$group/blkio.throttle.read_iops_device" "$(lsblk -dno MAJ:MIN "$dev" | tr -d ' ')" 3000
	short_config "$dev" '[{"phase": "randread", "runtime": 100, "io_latency_log": "yes"}]' >cfg.json
	run --separate-stderr "$EBSBENCH" run --config cfg.json --dry-run
	assert_equal "$status" 2
	[[ "$stderr" == *'"io_latency_log" must be true or false'* ]]
	short_config "$dev" '[{"phase": "randread", "runtime": 50, "io_latency_log": true}, {"phase": "lat", "runtime": 50}]' >cfg.json
	run --separate-stderr "$EBSBENCH" run --config cfg.json --dry-run
	assert_success
	[ "$(jq -r '[.steps[] | .lat_log // "-"] | join(" ")' <<<"$output")" = "vol_rr_clat.1.log -" ]
	# Written (a row per I/O, fio's lat log columns), named in results.json,
	# and signed by presign like every other file of the run.
	run --separate-stderr in_group "$group" "$EBSBENCH" run --config cfg.json
	assert_success
	[ "$(wc -l <out/vol_rr_clat.1.log)" = "$(jnum out/results.json '.phases[0].job.read.total_ios')" ]
	awk -F', *' 'NF != 5 || $3 != 0 || $4 != 4096 || $2 !~ /^[0-9]+$/ { bad = 1 } END { exit bad }' out/vol_rr_clat.1.log
	[ "$(jq -r '[.phases[] | .lat_log // "-"] | join(" ")' out/results.json)" = "vol_rr_clat.1.log -" ]
	run --separate-stderr env AWS_ACCESS_KEY_ID=AKIDEXAMPLE AWS_SECRET_ACCESS_KEY=secret \
		"$EBSBENCH" presign --bucket b-1 --prefix p --region us-east-1 --expires 1h --plan cfg.json
	assert_success
	diff <(jq -r '.upload.put | keys[]' <<<"$output" | sort) <(ls -A out | sort) ||
		fail "presign does not sign exactly the files the run wrote"
	# And in the fleet's runs.
	[ "$(wc -l <"$RUNS/gp3-01/gp3_rr_clat.1.log")" = "$(jnum "$RUNS/gp3-01/results.json" '.phases[0].job.read.total_ios')" ]
}
