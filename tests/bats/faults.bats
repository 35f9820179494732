#!/usr/bin/env bats
# faults.bats - the fault paths of `ebsbench run`, each end to end with the
# real binaries against the real peers (tests/peers: s3rver checking SigV4
# behind nginx/TLS, flaky.py failing every PUT with 500, a TCP relay for an
# endpoint that comes back) and the appliance under QEMU (tests/qemu): a
# device returning EIO mid-phase (blkdebug), S3 answering 500 until the
# retries run out, a URL that expires mid-run, the endpoint down for a while
# then back, the watchdog's SIGTERM mid-phase, report's re-analysis, the
# exit codes docs/run.md lists (5: a run a SIGTERM stopped, which --resume
# continues), and the appliance with no IMDS, malformed user-data, an
# unreachable S3 or a stalled drive.
#
# The host has no device-mapper (no /dev/mapper/control, no modules), so a
# dm `error`/`flakey` target cannot give a second EIO test outside QEMU.

bats_require_minimum_version 1.5.0

load helpers
load ../peers/peers
load upload_helpers
load qemu_helpers
load_bats_libs

QEMU_DIR="$BATS_TEST_DIRNAME/../qemu"
ROOT="$BATS_TEST_DIRNAME/../.."

export AWS_ACCESS_KEY_ID=AKIAEBSBENCHFAULTS01
export AWS_SECRET_ACCESS_KEY='fau1ts/Secret+Key/ebsbench00000000000000000'
# flaky.py fails every PUT (a path would need 1000 tries to pass).
export FLAKY_FAILS=1000

setup_file() {
	upload_setup_file
	EXPIRY_DEV=$(make_loop 32)
	export EXPIRY_DEV
	# Outliving the URL takes 5 min (the pre-flight margin): that run goes
	# on in the background while the other tests run; the last one checks it.
	mkdir -p "$BATS_FILE_TMPDIR/expiry"
	(cd "$BATS_FILE_TMPDIR/expiry" && DEV=$EXPIRY_DEV expiring_run >driver.log 2>&1) 3>&- &
	echo $! >"$BATS_FILE_TMPDIR/expiry.pid"
}

teardown_file() {
	local pid dir=$BATS_FILE_TMPDIR/expiry
	pid=$(cat "$BATS_FILE_TMPDIR/expiry.pid" 2>/dev/null) || true
	[ -z "$pid" ] || kill "$pid" 2>/dev/null || true
	# A run still frozen (the expiry test filtered out or failed): end it.
	if [ -s "$dir/ebsbench.pid" ] && [ ! -s "$dir/rc" ]; then
		pid=$(cat "$dir/ebsbench.pid")
		kill -TERM "$pid" 2>/dev/null || true
		kill -CONT "$pid" 2>/dev/null || true
		timeout 30 tail --pid="$pid" -f /dev/null || true
	fi
	upload_teardown_file
}

setup() {
	cd "$BATS_TEST_TMPDIR"
}

teardown() {
	[ -z "${RELAY_PID:-}" ] || kill "$RELAY_PID" 2>/dev/null || true
}

# free_port -> a TCP port of 127.0.0.1 nothing listens on right now.
free_port() {
	/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# wait_for FILE REGEX SECONDS: FILE matches REGEX within SECONDS.
wait_for() {
	local i
	for ((i = 0; i < $3 * 10; i++)); do
		grep -Eq "$2" "$1" 2>/dev/null && return 0
		sleep 0.1
	done
	echo "no /$2/ in $1 after $3 s" >&2
	return 1
}

# write_counter DEV -> sectors written to DEV so far (/sys/block/*/stat).
write_counter() {
	awk '{ print $7 }' "/sys/block/$(basename "$1")/stat"
}

# ---------------------------------------------------------------------------
# Exit codes (docs/run.md): a config naming what is not there is a
# config error, before any I/O.

@test "exit 2: a device the config names that is not there, named in one line, before any I/O" {
	local before
	before=$(write_counter "$DEV")
	jq -n --arg dev "$DEV" '{devices: [{path: $dev}, {path: "/dev/nonexistent-disk"}],
	  allow_destroy: [$dev], time_scale: 0.01, test_size: "16M", output_dir: "out"}' >cfg.json
	run --separate-stderr "$EBSBENCH" run --config cfg.json
	assert_failure 2
	assert_equal "$(wc -l <<<"$stderr")" 1
	assert_equal "$stderr" "ebsbench run: device /dev/nonexistent-disk was not found (ebsbench discover lists what is attached)"
	[ ! -e out ]
	# By volume id too, and the dry run says the same.
	jq -n '{devices: [{volume_id: "vol-0123456789abcdef0"}]}' >cfg.json
	run --separate-stderr "$EBSBENCH" run --config cfg.json --dry-run
	assert_failure 2
	assert_equal "$output" ""
	[[ $stderr == "ebsbench run: device vol-0123456789abcdef0 was not found"* ]]
	assert_equal "$(write_counter "$DEV")" "$before"
}

@test "exit 5: a SIGTERM stops the run before its end; run --resume continues it, exit 0" {
	local pid i rc=0
	short_config "$DEV" '[{"phase": "randread", "runtime": 300}, {"phase": "lat", "runtime": 500}]' >cfg.json
	"$EBSBENCH" run --config cfg.json >/dev/null 2>first.err &
	pid=$!
	for ((i = 0; i < 300; i++)); do
		[ "$(jq -r '.running.step // empty' out/results.json 2>/dev/null)" != 1 ] || break
		sleep 0.1
	done
	sleep 0.5
	kill -TERM "$pid"
	wait "$pid" || rc=$?
	# Not 0: whoever runs it (a Job, a script) must know the run is not whole.
	assert_equal "$rc" 5
	assert_equal "$(jq -c '[.environment.stopped_early, [.phases[].step]]' out/results.json)" '[true,[0,1]]'
	run --separate-stderr "$EBSBENCH" run --config cfg.json --resume
	assert_success
	assert_equal "$(jq -c '[.environment.stopped_early, [.phases[].step], (.resumes | length)]' out/results.json)" '[false,[0,1],1]'
}

@test "exit 2: no device named and none found; an output_dir that cannot be made" {
	local before
	before=$(write_counter "$DEV")
	# Loop devices are not EBS: nothing to test unasked.
	echo '{"time_scale": 0.01}' >cfg.json
	run --separate-stderr "$EBSBENCH" run --config cfg.json
	assert_failure 2
	[[ $stderr == "ebsbench run: no EBS volume found to test"* ]]
	# A file where the directory should be: refused before the first phase.
	: >notadir
	jq -n --arg dev "$DEV" '{devices: [{path: $dev}], allow_destroy: [$dev],
	  time_scale: 0.01, test_size: "16M", output_dir: "notadir/out"}' >cfg.json
	run --separate-stderr "$EBSBENCH" run --config cfg.json
	assert_failure 2
	assert_equal "$(wc -l <<<"$stderr")" 1
	[[ $stderr == "ebsbench run: cannot create output_dir notadir/out: Not a directory" ]]
	assert_equal "$(write_counter "$DEV")" "$before"
}

@test "exit 2: a number outside its range is one line naming the key, for run, --dry-run and presign --plan" {
	local before
	before=$(write_counter "$DEV")
	# The config the run_config fuzzer found (tests/fuzz/corpus/run_config/
	# huge-size-gib.json): presign's byte count of it overflowed.
	jq -n --arg dev "$DEV" '{devices: [{path: $dev, type: "gp2", size_gib: 22222222100}],
	  allow_destroy: [$dev], time_scale: 0.01, test_size: "16M", output_dir: "out"}' >cfg.json
	local want="config: 'devices[0].size_gib' is 22222222100, outside 1..16384 GiB for gp2"
	run --separate-stderr "$EBSBENCH" run --config cfg.json
	assert_failure 2
	assert_equal "$stderr" "ebsbench run: $want"
	run --separate-stderr "$EBSBENCH" run --config cfg.json --dry-run
	assert_failure 2
	assert_equal "$output" ""
	assert_equal "$stderr" "ebsbench run: $want"
	run --separate-stderr env AWS_ACCESS_KEY_ID=AKIDEXAMPLE AWS_SECRET_ACCESS_KEY=secret \
		"$EBSBENCH" presign --bucket bkt --prefix p/ --region us-east-1 --expires 6h --plan cfg.json
	assert_failure 2
	assert_equal "$output" ""
	[[ $stderr == *"$want" ]] || fail "presign: $stderr"
	assert_equal "$(wc -l <<<"$stderr")" 1
	[ ! -e out ]
	assert_equal "$(write_counter "$DEV")" "$before"
}

# ---------------------------------------------------------------------------
# report runs the analysis again (docs/analysis.md: Analysis).

@test "report runs the analysis again: an edited phase and a new price change the summary, results.json stays" {
	jq -n --arg dev "$DEV" '{devices: [{path: $dev, label: "vol", type: "gp3", size_gib: 100}],
	  allow_destroy: [$dev], time_scale: 0.01, test_size: "16M", output_dir: "out",
	  phases: [{phase: "layout"}, {phase: "randread", runtime: 100}]}' >cfg.json
	run --separate-stderr "$EBSBENCH" run --config cfg.json
	assert_success
	grep -q '^| vol (gp3, 100 GiB) | \$9.12 | \$9.12 |$' out/summary.md
	jq -e '.analysis.details | any(test("^vol: .* with no cliff"))' out/results.json >/dev/null
	# The record edited by hand: the volume was a 100 GiB gp2, and its
	# random read burst at 3,000 IOPS for 20 s (scaled), then fell to 300.
	cp -r out edited
	jq '(.devices[0].volume) |= (.type = "gp2" | .iops = 300 | .throughput_mibs = 128) |
	    (.phases[] | select(.phase == "randread")) |=
	      (.iops_series = ([range(2000)] | map(3000)) + ([range(700)] | map(300)) | .window_ms = 10)' \
		out/results.json >edited/results.json
	local sha
	sha=$(sha256sum <edited/results.json)
	run --separate-stderr "$EBSBENCH" report edited
	assert_success
	grep -q '^| Random read IOPS (4k, qd32) | 3,000 → 300, cliff at 20 s |$' edited/summary.md
	grep -q '^- vol: 3000 IOPS until 20.0 s, then 300 IOPS: the credit cliff (as predicted' edited/summary.md
	grep -q '^| vol (gp2, 100 GiB) | \$11.40 | ' edited/summary.md
	# Re-priced from a config's "prices" on top of the recorded table.
	echo '{"prices": {"gp3.gib_month": 1.0}}' >prices.json
	run --separate-stderr "$EBSBENCH" report --config prices.json --out repriced out
	assert_success
	grep -q '^| vol (gp3, 100 GiB) | \$100.00 | \$100.00 |$' repriced/summary.md
	# The input is a record: report never rewrites it.
	assert_equal "$(sha256sum <edited/results.json)" "$sha"
	assert_equal "$(jq .analysis.devices[0].cost.monthly_usd out/results.json)" 9.12
	# A price it does not know is a config error naming it.
	echo '{"prices": {"gp3.bogus": 1}}' >bad.json
	run --separate-stderr "$EBSBENCH" report --config bad.json out
	assert_failure 2
	assert_equal "$stderr" "ebsbench report: config: unknown price 'gp3.bogus' or not a number"
}

# ---------------------------------------------------------------------------
# Upload faults.

@test "S3 answers 500 until the retries run out: exit 4, every file kept, each record failed with its attempts" {
	local prefix="always500/$RANDOM/" n
	config "$(put_block "$FLAKY_URL" "$prefix" 3600 | jq '. + {max_attempts: 3, max_retry_s: 10}')"
	run_ebsbench
	assert_failure 4
	assert_equal "$output" ""
	[[ $stderr == *"upload vol_layout_iops.1.log: attempt 1 of 3 failed (HTTP 500 InternalError: flaky.py: injected failure); retrying in"* ]]
	[[ $stderr == *"upload results.json to $FLAKY_URL/$BUCKET/${prefix}results.json failed after 3 attempts in "*"s: HTTP 500 InternalError: flaky.py: injected failure; kept in out/"* ]]
	[[ $stderr == *"upload: 0 uploaded, 10 failed, 0 skipped; every file is also in out/"* ]]
	# The TL;DR came before the last uploads, whatever they did.
	[[ ${stderr%%upload summary.md*} == *"| Measured |"* ]]
	for n in "${ARTIFACTS[@]}"; do
		[ -s "out/$n" ]
		assert_equal "$(record "$n" status)" failed
		assert_equal "$(record "$n" http_status)" 500
		assert_equal "$(record "$n" error)" "HTTP 500 InternalError: flaky.py: injected failure"
	done
	# The endpoint looks down after the first log failed its retries: later
	# files try once.  The end gives it one full chance again (the log that
	# failed), then one try each, and results.json every retry.
	assert_equal "$(record vol_layout_iops.1.log attempts)" 3
	assert_equal "$(record results.json attempts)" 3
	for n in vol_rr_iops.1.log vol_rr_clat_hist.1.log summary.md iops_timeline.svg latency_percentiles.svg latency_heatmap.svg recommend.md report.html; do
		assert_equal "$(record "$n" attempts)" 1
	done
	# What the proxy saw, request by request: nothing got through.
	local log=$FLAKY_LOG
	assert_equal "$(grep -c "^PUT /$BUCKET/${prefix}vol_layout_iops.1.log?.* 500$" "$log")" 6
	assert_equal "$(grep -c "^PUT /$BUCKET/${prefix}vol_rr_iops.1.log?.* 500$" "$log")" 2
	assert_equal "$(grep -c "^PUT /$BUCKET/${prefix}results.json?.* 500$" "$log")" 5
	assert_equal "$(grep -c "^PUT /$BUCKET/${prefix}summary.md?.* 500$" "$log")" 1
	run ! grep -q "^PUT /$BUCKET/${prefix}.* 200$" "$log"
	json_doc out/results.json
	assert_equal "$(jq '.phases | length' out/results.json)" 2
}

@test "the endpoint down for a while, then back: brief tries while down, the final upload succeeds" {
	local prefix="downup/$RANDOM/" port
	port=$(free_port)
	config "$(put_block "https://localhost:$port" "$prefix" 3600 |
		jq '. + {max_attempts: 3, max_retry_s: 3}')" 300
	"$EBSBENCH" run --config cfg.json >stdout 2>stderr &
	local pid=$!
	# Down: the first log gets its retries, results.json then one try.
	wait_for stderr "upload results.json to .* failed after 1 attempt in" 30
	/usr/bin/python3 "$ROOT/tests/peers/relay.py" "$port" "$TLS_PORT" >relay.out 3>&- &
	RELAY_PID=$!
	wait_for relay.out '^ready$' 10
	local rc=0
	wait "$pid" || rc=$?
	output=$(cat stdout) stderr=$(cat stderr)
	no_secrets
	assert_equal "$rc" 0
	[[ $stderr == *"upload vol_layout_iops.1.log to https://localhost:$port/$BUCKET/${prefix}vol_layout_iops.1.log failed after 3 attempts"*"refused"* ]]
	# Back: the next phase's log went on its first try, the failed one at
	# the end, then everything else.
	[[ $stderr == *"uploaded vol_rr_iops.1.log ("*") to https://localhost:$port/$BUCKET/${prefix}vol_rr_iops.1.log"$'\n'* ]]
	[[ $stderr == *"upload: 10 uploaded, 0 failed, 0 skipped"* ]]
	local n
	for n in "${ARTIFACTS[@]:1}"; do
		assert_equal "$(record "$n" status)" uploaded
		assert_equal "$(record "$n" http_status)" 200
		assert_equal "$(record "$n" error)" null
	done
	# results.json holds no record of itself once its last upload went.
	assert_equal "$(jq '[.uploads[] | select(.artifact == "results.json")] | length' out/results.json)" 0
	same_in_s3 "$prefix"
}

# ---------------------------------------------------------------------------
# The appliance under QEMU (TCG: a boot and a short run take a minute).

# guest_config PHASES_JSON: cfg.json, the harness's guest config with these
# phases (time_scale 0.01: runtime 100 is 1 s).
guest_config() {
	jq --argjson p "$1" '.phases = $p' "$QEMU_DIR/guest-config.json" >cfg.json
}

# A bad block on gp3 at 32 MiB: the sequential read reaches it at once; the
# random read stays below it (size 16M).
EIO_PHASES='[{"phase": "seqread", "runtime": 100}, {"phase": "randread", "runtime": 100, "size": "16M"}]'

# phase_errors RESULTS -> "phase/device:error" for every phase, in order.
phase_errors() {
	jq -r '[.phases[] | "\(.phase)/\(.device):\(.job.error)"] | join(" ")' "$1"
}

# boot_not_ok OUT [run-guest.sh options]: the appliance boots, runs and
# powers itself off with a verdict other than OK (run-guest.sh exit 1);
# anything else shows the harness's words and the console's end.
boot_not_ok() {
	qemu_build
	boot_past_stalls "$@"
	[ "$status" -eq 1 ] || {
		echo "$output"
		tail -n 40 "$1/console.txt"
		return 1
	}
	powered_off_by_itself "$1"
}

@test "appliance: a device returning EIO mid-phase: that phase fails, the rest run, exit 1, results uploaded" {
	local out=$BATS_TEST_TMPDIR/eio
	guest_config "$EIO_PHASES"
	boot_not_ok "$out" --config cfg.json --eio-sector 65536 --s3 "https://s3.ebsbench.test:$TLS_PORT" \
		--ca "$CA_FILE" --timeout 200
	assert_equal "$(jq .gp3.read_eio_sector "$out/facts.json")" 65536
	# QEMU's NVMe answers the EIO with Unrecovered Read Error, which the
	# guest kernel logs as a medium error and hands up as ENODATA, as for a
	# real bad sector.  One line names the phase, the device and the error.
	grep -q 'critical medium error, dev nvme[0-9]n1, sector 65536 ' "$out/console.txt"
	grep -Eq '^ebsbench run: phase seqread on gp3 failed \(the others still run\): read error on /dev/nvme[0-9]+n1 at offset 33554432 \(1048576 bytes\): No data available$' \
		"$out/console.txt"
	grep -q 'ebsbench-init: verdict: FAILED: a phase failed (ebsbench run exit 1): 4 phase(s) on 2 device(s) in [0-9]* s; results uploaded' \
		"$out/console.txt"
	# What came back from S3: every phase ran, only the one on the bad block failed.
	local results=$out/results/results.json
	[ -f "$results" ]
	[ -f "$out/results/summary.md" ]
	[[ $(phase_errors "$results") =~ ^seqread/gp2:0\ seqread/gp3:[1-9][0-9]*\ randread/gp2:0\ randread/gp3:0$ ]]
	assert_equal "$(jq '[.uploads[] | select(.status != "uploaded")] | length' "$results")" 0
	[ -s "$out/results/gp2_sr_iops.1.log" ]
	[ -s "$out/results/gp3_rr_iops.1.log" ]
}

@test "appliance: EIO mid-phase and S3 unreachable: exit 1 wins over 4, the verdict says both" {
	local out=$BATS_TEST_TMPDIR/eio-no-s3 port
	port=$(free_port)
	guest_config "$EIO_PHASES"
	jq '.upload = {max_attempts: 2, max_retry_s: 2}' cfg.json >cfg2.json
	boot_not_ok "$out" --config cfg2.json --eio-sector 65536 --s3 "https://s3.ebsbench.test:$port" \
		--ca "$CA_FILE" --timeout 200
	grep -q 'ebsbench run: upload: 0 uploaded, [0-9]* failed' "$out/console.txt"
	grep -q 'ebsbench-init: verdict: FAILED: a phase failed (ebsbench run exit 1): 4 phase(s) on 2 device(s) in [0-9]* s; the upload FAILED' \
		"$out/console.txt"
	grep -q -- '----- summary.md -----' "$out/console.txt"
	[ ! -f "$out/results/results.json" ]
}

@test "appliance: the watchdog's SIGTERM mid-phase: partial results uploaded, the verdict says the watchdog stopped it" {
	local out=$BATS_TEST_TMPDIR/watchdog
	# The gp2 random read lasts 27 s; the watchdog stops the run at 8 s.
	guest_config '[{"phase": "randread"}]'
	boot_not_ok "$out" --config cfg.json --watchdog-s 8 --s3 "https://s3.ebsbench.test:$TLS_PORT" \
		--ca "$CA_FILE" --timeout 200
	grep -q 'ebsbench-init: plan: [0-9]* s, .*watchdog stops the run after 8 s' "$out/console.txt"
	grep -Eq 'ebsbench-init: verdict: STOPPED by the watchdog deadline after ([89]|[1-9][0-9]) s: 1 phase\(s\) on 2 device\(s\) in [0-9]+ s; results uploaded' \
		"$out/console.txt"
	local results=$out/results/results.json
	[ -f "$results" ]
	[ -f "$out/results/summary.md" ]
	[ -s "$out/results/gp2_rr_iops.1.log" ]
	assert_equal "$(jq .environment.stopped_early "$results")" true
	assert_equal "$(jq -r '[.phases[] | .phase + "/" + .device] | join(" ")' "$results")" randread/gp2
	# Cut short: well under its 27 s.
	[ "$(jq '.phases[0].job.job_runtime' "$results")" -lt 15000 ]
	assert_equal "$(jq '[.uploads[] | select(.status != "uploaded")] | length' "$results")" 0
}

# The appliance's own failure paths, each a boot that must end by itself
# with the verdict naming what went wrong (moved here from qemu.bats: they
# measure nothing, so they run beside other files, under the expiry run's
# five minutes).
@test "appliance: IMDS unreachable and no other config: says so, powers off long before the watchdog" {
	local out="$BATS_TEST_TMPDIR/no-imds"
	qemu_build
	boot "$out" --no-imds --timeout 120
	[ "$status" -eq 1 ]
	powered_off_by_itself "$out"
	grep -q 'ebsbench-init: IMDS unreachable at http://169.254.169.254' "$out/console.txt"
	grep -q 'ebsbench-init: verdict: FAILED: no config: none on the command line or in fw_cfg, and IMDS is unreachable' \
		"$out/console.txt"
	# The watchdog would fire at 600 s; the guest gave up in seconds.
	jq -e '.boot.qemu_wall_s < 90' "$out/facts.json"
}

@test "appliance: malformed user-data JSON: a clear console error, then power-off" {
	local out="$BATS_TEST_TMPDIR/bad-user-data"
	printf '{"devices": [{"volume_id": "vol-0123456789abcdef0",}]}\n' >"$BATS_TEST_TMPDIR/bad.json"
	qemu_build
	boot "$out" --user-data "$BATS_TEST_TMPDIR/bad.json" --timeout 120
	[ "$status" -eq 1 ]
	powered_off_by_itself "$out"
	grep -q 'ebsbench-init: verdict: FAILED: user-data is not valid JSON: line 1 column' "$out/console.txt"
	# No run was attempted.
	run ! grep -q 'ebsbench-init: plan:' "$out/console.txt"
}

@test "appliance: S3 unreachable: the summary still reaches the console, then power-off" {
	local out="$BATS_TEST_TMPDIR/no-s3" port
	# A port nothing listens on: connections are refused.
	port=$(free_port)
	jq '.phases = [{"phase": "randread", "runtime": 200}] | .upload = {"max_attempts": 2, "max_retry_s": 3}' \
		"$QEMU_DIR/guest-config.json" >"$BATS_TEST_TMPDIR/cfg.json"
	qemu_build
	boot "$out" --config "$BATS_TEST_TMPDIR/cfg.json" --s3 "https://s3.ebsbench.test:$port" \
		--ca "$CA_FILE" --timeout 180
	[ "$status" -eq 1 ]
	powered_off_by_itself "$out"
	grep -q -- '----- summary.md -----' "$out/console.txt"
	grep -q -- '----- end of summary.md -----' "$out/console.txt"
	grep -q 'ebsbench-init: verdict: MEASURED: 2 phase(s) on 2 device(s) .*the upload FAILED' "$out/console.txt"
	# Nothing reached the real bucket either.
	[ ! -f "$out/results/results.json" ]
}

@test "appliance: a stalled emulated NVMe drive is reported as such (exit 3), not as a pass or a hang" {
	local out="$BATS_TEST_TMPDIR/stall"
	# gp2 capped at 1 IOPS and a guest I/O timeout of 1 s: the guest
	# kernel logs the same NVMe timeouts and aborts as in the real stall.
	qemu_build
	boot "$out" --simulate-stall --timeout 90
	[ "$status" -eq 3 ]
	[[ "$output" == *"QEMU NVMe drive stalled (guest I/O timeout): known TCG issue"* ]]
	grep -Eq 'nvme[0-9]+: I/O [0-9]+ .*timeout' "$out/console.txt"
}

# expiring_run (in the background from setup_file, in its own directory):
# a URL valid for exactly the pre-flight minimum (the plan + 10 % + 5 min,
# plus the few seconds presigning takes), and a run that outlives it: the
# process is frozen (SIGSTOP, as a paused container or a suspended VM
# would be) after its first phase's uploads until the URLs have expired.
# Leaves stdout, stderr, rc, expires_at, stopped_at, continued_at.
expiring_run() {
	set -e
	plan_json 300
	local planned valid urls
	planned=$("$EBSBENCH" run --config plan.json --dry-run | jq .planned_s)
	valid=$(awk -v p="$planned" 'BEGIN { v = p * 1.1 + 300; printf "%d", (v == int(v) ? v : int(v) + 1) + 6 }')
	config "$(put_block "$TLS_URL" "expiry/$RANDOM/" "$valid" | jq '. + {max_retry_s: 5}')" 300
	# The URLs' own X-Amz-Date + X-Amz-Expires, as the pre-flight reads them.
	local signed
	signed=$(jq -r '.upload.put["summary.md"]' cfg.json | grep -o 'X-Amz-Date=[0-9TZ]*' | cut -d= -f2)
	date -u -d "$(sed -E 's/(....)(..)(..)T(..)(..)(..)Z/\1-\2-\3 \4:\5:\6/' <<<"$signed")" +%s |
		awk -v v="$valid" '{ print $1 + v }' >expires_at
	"$EBSBENCH" run --config cfg.json >stdout 2>stderr &
	local pid=$!
	echo "$pid" >ebsbench.pid
	wait_for stderr "uploaded results.json" 60
	kill -STOP "$pid"
	date +%s >stopped_at
	while [ "$(date +%s)" -le "$(($(cat expires_at) + 2))" ]; do sleep 1; done
	kill -CONT "$pid"
	date +%s >continued_at
	local rc=0
	wait "$pid" || rc=$?
	echo "$rc" >rc
}

@test "a URL that expires mid-run: 403 Request has expired in one line per file, results kept, exit 4" {
	local dir=$BATS_FILE_TMPDIR/expiry i
	# The background run needs about 5 min from setup_file on.
	for ((i = 0; i < 420 * 2; i++)); do
		[ -s "$dir/rc" ] && break
		sleep 0.5
	done
	[ -s "$dir/rc" ] || {
		cat "$dir/driver.log" "$dir/stderr"
		return 1
	}
	cd "$dir"
	output=$(cat stdout) stderr=$(cat stderr)
	no_secrets
	assert_equal "$(cat rc)" 4
	# The pre-flight check let it start: the URLs were valid long enough
	# for the plan; the freeze took it past their expiry.
	[ "$(cat stopped_at)" -lt "$(cat expires_at)" ]
	[ "$(cat continued_at)" -gt "$(cat expires_at)" ]
	# Uploaded before the freeze, refused after it, each refusal one line
	# with S3's code and message and no retry.
	[[ $stderr == *"uploaded vol_layout_iops.1.log"* ]]
	local line
	line=$(grep "upload summary.md to" <<<"$stderr")
	assert_equal "$(wc -l <<<"$line")" 1
	[[ $line == *"failed after 1 attempt in "*"HTTP 403 AccessDenied: Request has expired; kept in out/" ]]
	[[ $stderr != *"retrying"* ]]
	[[ $stderr == *"upload: 1 uploaded, 9 failed, 0 skipped; every file is also in out/"* ]]
	for n in "${ARTIFACTS[@]}"; do
		[ -s "out/$n" ]
	done
	assert_equal "$(record vol_layout_iops.1.log status)" uploaded
	local n
	for n in results.json summary.md vol_rr_iops.1.log iops_timeline.svg; do
		assert_equal "$(record "$n" status)" failed
		assert_equal "$(record "$n" http_status)" 403
		assert_equal "$(record "$n" attempts)" 1
		assert_equal "$(record "$n" error)" "HTTP 403 AccessDenied: Request has expired"
	done
	assert_equal "$(jq '.phases | length' out/results.json)" 2
}
