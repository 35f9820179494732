#!/usr/bin/env bats
# resume_qemu.bats - a run survives its machine: the appliance's UEFI disk
# image booted as on Nitro (OVMF, the IMDSv2 user-data with the upload block
# `ebsbench presign` signs, resume_get included) runs four phases on the
# emulated gp2 and is reset in its third (QEMU's system_reset: our SIGKILL,
# a lost node, a panic's reboot).  The boot guard finds the run unfinished
# and, the config holding resume_get, the next boot resumes it once from
# the results.json it uploaded, as a lost pod's replacement does: every
# phase once in S3's one results.json, the gap stated (field and summary
# sentence), and the later phases' start balance refilled over the gap as
# the model says.
# run-bats: alone: two boots under TCG against the gp2 throttle, timed

bats_require_minimum_version 1.5.0

ROOT="$BATS_TEST_DIRNAME/../.."
load ../peers/peers
load qemu_helpers

setup_file() {
	disk_peers_setup_file
}

teardown_file() {
	peers_stop "$BATS_FILE_TMPDIR/peers"
}

@test "reset in its third phase, the next boot resumes from S3: every phase once, the gap stated, the ledger refilled over it" {
	local out="$BATS_TEST_TMPDIR/guest"
	# results.json goes up as each step begins (resume_get) and ends: its
	# fifth upload marks the third step (randwrite) begun, its first I/O
	# next; the reset comes some 0.3-0.8 s later, inside its 3 s.
	# A 10 GiB gp2 (baseline 100 IOPS): its randread spends more than a
	# boot's gap refills, so the cap does not hide the refill.  Each phase
	# 3 s at time scale 0.01.
	jq '.devices = [.devices[0] | .size_gib = 10] | .test_size = "64M"
		| .phases = [{"phase": "layout"}, {"phase": "randread", "runtime": 300},
			{"phase": "randwrite", "runtime": 300}, {"phase": "lat", "runtime": 300}]' \
		"$BATS_TEST_DIRNAME/../qemu/guest-config.json" >"$BATS_TEST_TMPDIR/cfg.json"
	boot_disk "$out" --config "$BATS_TEST_TMPDIR/cfg.json" \
		--reset-when 'ebsbench run: uploaded results.json ' --reset-count 5 \
		--s3 "https://s3.ebsbench.test:$TLS_PORT" --ca "$CA_FILE" --timeout 300
	if [ "$status" -ne 0 ]; then
		echo "$output"
		tail -n 40 "$out/console.txt"
		return 1
	fi
	local console="$out/console.txt" results="$out/results/results.json"
	# Two boots, the second told why it resumes; one summary, one verdict.
	[ "$(grep -c 'ebsbench-init: ebsbench .* appliance' "$console")" -eq 2 ]
	grep -q 'ebsbench-init: the previous boot did not finish (a kernel panic, a hang or a reset): resuming its run once' "$console"
	grep -q 'ebsbench run: the stopped run.s results.json fetched from S3' "$console"
	grep -Eq 'ebsbench run: resuming: 2 of 4 steps done; .*a gap of ' "$console"
	[ "$(grep -c -- '----- summary.md -----' "$console")" -eq 1 ]
	[ "$(grep -c 'ebsbench-init: verdict:' "$console")" -eq 1 ]
	grep -q 'ebsbench-init: verdict: OK: 4 phase(s) on 1 device(s)' "$console"
	# Every phase once, in plan order, whole.
	[ "$(jq -c '[.phases[] | [.step, .phase]]' "$results")" = '[[0,"layout"],[1,"randread"],[2,"randwrite"],[3,"lat"]]' ]
	jq -e '(.running == null) and (.environment.stopped_early == false)
		and all(.phases[]; .job.error == 0 and ((.job.read.total_ios + .job.write.total_ios) > 0))' "$results"
	# The gap: one resume after step 2, at least the boot it took.
	[ "$(jq -c '[.resumes[] | [.steps_done, .steps]]' "$results")" = '[[2,4]]' ]
	local gap
	gap=$(jq -r '.resumes[0].gap_s' "$results")
	awk -v g="$gap" 'BEGIN { exit !(g >= 3 && g < 200) }' || {
		echo "gap_s $gap"
		return 1
	}
	# One report, the gap in one sentence (S3's summary.md).
	[ "$(grep -c '^> \*\*Resumed\.\*\* The run stopped with 2 of 4 steps done' "$out/results/summary.md")" -eq 1 ]
	[ -s "$out/results/report.html" ]
	# The ledger over the gap: the same record without it (the gap taken
	# off randwrite's idle time, no resume) starts randwrite, the first
	# phase after it, with gap x 100 IOPS / 0.01 credits fewer; randread,
	# before it, the same; lat, after it, never more (randwrite at 3,000
	# IOPS may empty the bucket either way, and the ledger holds no debt).
	jq --argjson g "$gap" 'del(.resumes)
		| .phases |= map(if .phase == "randwrite" then .idle_before_s -= $g else . end)' \
		"$results" >"$BATS_TEST_TMPDIR/nogap.json"
	mkdir -p "$BATS_TEST_TMPDIR/nogap"
	mv "$BATS_TEST_TMPDIR/nogap.json" "$BATS_TEST_TMPDIR/nogap/results.json"
	credits() { # DIR PHASE
		"$ROOT/build/ebsbench" report --json "$1" 2>/dev/null |
			jq -er --arg p "$2" '.analysis.devices[0].phases[] | select(.phase == $p) | .credits_at_start | numbers'
	}
	local phase with without want
	want=$(awk -v g="$gap" 'BEGIN { printf "%.0f", g * 100 / 0.01 }')
	for phase in randread randwrite lat; do
		with=$(credits "$out/results" "$phase")
		without=$(credits "$BATS_TEST_TMPDIR/nogap" "$phase")
		echo "# $phase: credits at start $with with the gap, $without without it" >&3
		if [ "$phase" = randread ]; then
			[ "$with" = "$without" ]
		elif [ "$phase" = lat ]; then
			awk -v a="$with" -v b="$without" 'BEGIN { exit !(a >= b) }'
		else
			awk -v a="$with" -v b="$without" -v w="$want" 'BEGIN { d = a - b; exit !(d > w - 2 && d < w + 2) }' || {
				echo "$phase: $with - $without, want $want"
				return 1
			}
		fi
	done
	jq -r --argjson g "$gap" '"# reset in phase 3, resumed after a gap of \($g) s; OVMF boot: kernel start to first I/O \(.boot.kernel_to_first_io_s) s; QEMU ran \(.boot.qemu_wall_s) s"' \
		"$out/facts.json" >&3
}
