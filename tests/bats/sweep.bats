#!/usr/bin/env bats
# sweep.bats - seed 002's block-size sweep (`"phases": ["sweep"]`, `run
# --plan sweep`): its writes obey the write guard; under QEMU, on the
# emulated gp2 (burst 3,000 IOPS, 128 MiB/s) and gp3 (3,000 IOPS, 125
# MiB/s), the throughput of O_DIRECT writes at qd1 grows with the block
# size until the emulated throughput cap, then stays near it, as seed
# 002's table does (16 MB/s at 16 KiB to 150 MB/s at 512 KiB), and the
# model names the cap as the bound at 1 MiB.
#
# The shapes asserted hold on a loaded 2-core machine: ratios between
# steps and a band around the emulated cap (facts.json), not speeds.

# run-bats: alone: throughput per block size under QEMU's caps

bats_require_minimum_version 1.5.0

QEMU_DIR="$BATS_TEST_DIRNAME/../qemu"
ROOT="$BATS_TEST_DIRNAME/../.."
load helpers
load_bats_libs
load ../peers/peers
load qemu_helpers

setup_file() {
	require_ebsbench
	qemu_peers_setup_file
}

teardown_file() {
	qemu_peers_teardown_file
	cleanup_loops
}

setup() {
	cd "$BATS_TEST_TMPDIR"
}

@test "sweep: a device holding a filesystem is refused before any write, by --plan sweep too" {
	local dev before writes
	dev=$(make_loop 64) || fail "no loop device"
	mkfs.ext4 -q "$dev" || fail "mkfs.ext4 failed"
	sync
	before=$(sha256sum "$dev" | cut -d' ' -f1)
	writes=$(awk '{ print $5, $7 }' "/sys/block/${dev#/dev/}/stat")
	short_config "$dev" '["sweep"]' >cfg.json
	run --separate-stderr "$EBSBENCH" run --config cfg.json
	[ "$status" -eq 3 ] || fail "exit $status, want 3; stderr: $stderr"
	[ "$(wc -l <<<"$stderr")" = 1 ] || fail "want one line, got: $stderr"
	[[ $stderr == *"$dev"*"ext4"* ]] || fail "the refusal does not name $dev and ext4: $stderr"
	short_config "$dev" '[{"phase": "lat"}]' >lat.json
	run --separate-stderr "$EBSBENCH" run --config lat.json --plan sweep
	[ "$status" -eq 3 ] || fail "--plan sweep: exit $status, want 3; stderr: $stderr"
	[ "$(sha256sum "$dev" | cut -d' ' -f1)" = "$before" ] || fail "the device changed"
	[ "$(awk '{ print $5, $7 }' "/sys/block/${dev#/dev/}/stat")" = "$writes" ] ||
		fail "the kernel counted writes to $dev"
	[ ! -e out/results.json ] || fail "a refused run left results"
}

@test "sweep: --plan sweep plans the eight steps, and names its chart only then" {
	local dev
	dev=$(make_loop 64) || fail "no loop device"
	short_config "$dev" '[{"phase": "lat"}]' >cfg.json
	run --separate-stderr "$EBSBENCH" run --config cfg.json --plan sweep --dry-run
	[ "$status" -eq 0 ] || fail "exit $status: $stderr"
	run jq -r '[.steps[] | "\(.phase) \(.options.rw) \(.options.bs) \(.options.iodepth)"] | join(",")' <<<"$output"
	assert_output "sweep write 16k 1,sweep write 32k 1,sweep write 64k 1,sweep write 128k 1,sweep write 256k 1,sweep write 512k 1,sweep write 1M 1,sweep read 2M 1"
	run --separate-stderr "$EBSBENCH" run --config cfg.json --plan bogus --dry-run
	[ "$status" -eq 2 ] || fail "--plan bogus: exit $status"
	[[ $stderr == *"--plan 'bogus'"* ]] || fail "no one-line reason: $stderr"
	# presign signs the chart for a sweep and not for a plan without one
	# (made-up keys: presign signs offline).
	export AWS_ACCESS_KEY_ID=AKIDSWEEPTEST AWS_SECRET_ACCESS_KEY=sweep-test-secret
	short_config "$dev" '["sweep"]' >sweep.json
	run --separate-stderr "$EBSBENCH" presign --bucket sweep-results --prefix p --region us-east-1 \
		--expires 1h --plan sweep.json
	[ "$status" -eq 0 ] || fail "presign: exit $status: $stderr"
	[[ $output == *throughput_vs_block_size.svg* ]] || fail "the sweep's chart is not signed"
	run --separate-stderr "$EBSBENCH" presign --bucket sweep-results --prefix p --region us-east-1 \
		--expires 1h --plan cfg.json
	[ "$status" -eq 0 ] || fail "presign: exit $status: $stderr"
	[[ $output == *summary.md* ]] || fail "presign signs no summary.md: $output"
	[[ $output != *throughput_vs_block_size.svg* ]] || fail "a plan without a sweep signs its chart"
}

# step RESULTS DEVICE RW BS FIELD -> a number of the sweep step's analysis.
step() {
	jnum "$1" ".analysis.devices[] | select(.device == \"$2\") | .sweep[]
		| select(.rw == \"$3\" and .bs == $4) | $5"
}

# within M LOW HIGH: LOW <= M <= HIGH.
within() {
	awk -v m="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(m >= lo && m <= hi) }'
}

# grows_then_flat RESULTS DEVICE CAP IOPS: the writes grow with the block
# size (32k..128k above 16k on the whole, single steps being noisy under
# TCG; 16k well below the plateau: a 16 KiB I/O is held
# by the IOPS cap or the per-I/O time, never the throughput cap), then
# stay near CAP from 256k to 1M; the model's IOPS bound at 16k is IOPS x
# 16 KiB and its throughput bound at 1M the cap, which its line never
# passes.
grows_then_flat() {
	local r=$1 dev=$2 cap=$3 iops=$4 m16 m32 m64 m128 m256 m512 m1m
	m16=$(step "$r" "$dev" write 16384 .measured_mibs) || fail "$dev: no 16k step"
	m64=$(step "$r" "$dev" write 65536 .measured_mibs) || fail "$dev: no 64k step"
	m256=$(step "$r" "$dev" write 262144 .measured_mibs) || fail "$dev: no 256k step"
	m512=$(step "$r" "$dev" write 524288 .measured_mibs) || fail "$dev: no 512k step"
	m1m=$(step "$r" "$dev" write 1048576 .measured_mibs) || fail "$dev: no 1M step"
	echo "# $dev (cap $cap MiB/s): 16k $m16, 64k $m64, 256k $m256, 512k $m512, 1M $m1m MiB/s" >&3
	m32=$(step "$r" "$dev" write 32768 .measured_mibs) || fail "$dev: no 32k step"
	m128=$(step "$r" "$dev" write 131072 .measured_mibs) || fail "$dev: no 128k step"
	awk -v a="$m16" -v b="$m32" -v c="$m64" -v d="$m128" 'BEGIN { exit !((b + c + d) / 3 > 1.2 * a) }' ||
		fail "$dev: 32k..128k ($m32, $m64, $m128 MiB/s) are not above 16k ($m16) on the whole"
	awk -v a="$m16" -v b="$m512" -v c="$m1m" 'BEGIN { exit !(a < 0.7 * b && a < 0.7 * c) }' ||
		fail "$dev: 16k ($m16 MiB/s) is not well below the plateau ($m512, $m1m)"
	within "$m256" "$(awk -v c="$cap" 'BEGIN { print 0.6 * c }')" "$(awk -v c="$cap" 'BEGIN { print 1.2 * c }')" ||
		fail "$dev: 256k measured $m256 MiB/s, far from the $cap MiB/s cap"
	for m in "$m512" "$m1m"; do
		within "$m" "$(awk -v c="$cap" 'BEGIN { print 0.75 * c }')" "$(awk -v c="$cap" 'BEGIN { print 1.2 * c }')" ||
			fail "$dev: measured $m MiB/s at 512k or 1M, not near the $cap MiB/s cap"
	done
	local iops16 thr1m pred1m
	iops16=$(step "$r" "$dev" write 16384 .bounds.iops_mibs) || fail "$dev: no IOPS bound"
	within "$iops16" "$(awk -v i="$iops" 'BEGIN { print i / 64 - 1e-6 }')" "$(awk -v i="$iops" 'BEGIN { print i / 64 + 1e-6 }')" ||
		fail "$dev: the model's IOPS bound at 16k is $iops16 MiB/s, not $iops x 16 KiB"
	thr1m=$(step "$r" "$dev" write 1048576 .bounds.throughput_mibs) || fail "$dev: no cap"
	[ "$thr1m" = "$cap" ] || fail "$dev: the model's cap at 1M is $thr1m, the emulated $cap"
	pred1m=$(step "$r" "$dev" write 1048576 .predicted_mibs) || fail "$dev: no prediction"
	awk -v p="$pred1m" -v c="$cap" 'BEGIN { exit !(p <= c) }' ||
		fail "$dev: the model's line passes the cap at 1M ($pred1m > $cap)"
}

@test "appliance: the sweep grows with block size to the emulated cap on gp2 and gp3" {
	local out="$BATS_FILE_TMPDIR/sweep"
	boot_past_stalls "$out" --config "$QEMU_DIR/sweep-config.json" \
		--s3 "$GUEST_S3" --ca "$CA_FILE"
	if [ "$status" -ne 0 ]; then
		echo "$output"
		tail -n 40 "$out/console.txt" 2>/dev/null || true
		return 1
	fi
	local r="$out/results/results.json"
	[ -f "$r" ] || fail "results.json did not come back from S3"
	[ "$(jq '[.phases[] | select(.phase == "sweep")] | length' "$r")" = 16 ] ||
		fail "want 8 sweep steps on each of 2 devices"
	# gp2 runs the sweep on its burst (3,000 IOPS; the bucket outlasts it).
	grows_then_flat "$r" gp2 "$(jq .gp2.throughput_mibs "$out/facts.json")" \
		"$(jq .gp2.burst_iops "$out/facts.json")"
	grows_then_flat "$r" gp3 "$(jq .gp3.throughput_mibs "$out/facts.json")" \
		"$(jq .gp3.iops "$out/facts.json")"
	local svg="$out/results/throughput_vs_block_size.svg"
	[ -s "$svg" ] || fail "the sweep's chart was not uploaded"
	grep -q 'throughput (MiB/s)' "$svg" || fail "the chart's y axis has no unit"
	grep -q 'log2 scale' "$svg" || fail "the chart's x axis is not labelled log-2"
	[ "$(grep -c 'class="predicted_mibs"' "$svg")" = 2 ] || fail "want the model's line per volume"
	grep -q '^## Block-size sweep' "$out/results/summary.md" || fail "summary.md has no sweep section"
	sed -n '/^## Block-size sweep/,/^## Findings/p' "$out/results/summary.md" >&3
}
