#!/usr/bin/env bats
# qemu.bats - `ebsbench run` end to end in a QEMU guest on emulated EBS:
# a gp2-like leaky bucket (baseline 300, burst 3,000 for 20 s at time_scale
# 0.01) and a flat 3,000-IOPS gp3-like drive, both NVMe.  The analysis must
# find gp2's credit cliff within 1 s of the prediction and none on gp3.
#
# tests/qemu/ holds the harness: fetch-kernel.sh (Debian's kernel, cached in
# /var/cache/ebsbench/qemu-kernel), build-initramfs.sh, guest-init.sh,
# guest-config.json and run-guest.sh.  EBSBENCH_QEMU_OUT=DIR keeps the
# guest's console log and results there; EBSBENCH_QEMU_ATTEMPTS (default 2)
# boots in all when the emulated drive stalls.  About a minute under TCG.

QEMU_DIR="$BATS_TEST_DIRNAME/../qemu"
ROOT="$BATS_TEST_DIRNAME/../.."

ensure_qemu() {
	command -v qemu-system-x86_64 >/dev/null && return 0
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq qemu-system-x86 >/dev/null 2>&1 ||
		{ apt-get update -qq >/dev/null 2>&1 &&
			DEBIAN_FRONTEND=noninteractive apt-get install -y -qq qemu-system-x86 >/dev/null 2>&1; }
	command -v qemu-system-x86_64 >/dev/null
}

# jq -e over results.json, naming the check when it fails.
check() {
	local what=$1
	shift
	if ! jq -e "$@" "$RESULTS" >/dev/null; then
		echo "FAILED: $what: jq $*" >&2
		jq -c '.analysis.devices[] | {device, cliff: (.cliff | del(.before, .after))}' "$RESULTS" >&2
		return 1
	fi
}

boot_guest() {
	run "$QEMU_DIR/run-guest.sh" --kernel "$KERNEL" --initrd "$INITRD" --out "$OUT" --timeout 180 "$@"
}

# setup_guest: the binary, the kernel (cached) and an initramfs.
setup_guest() {
	ensure_qemu || skip "qemu-system-x86_64 cannot be installed (apt-get install qemu-system-x86 failed)"
	local bin=${EBSBENCH:-}
	if [ -z "$bin" ]; then
		make -C "$ROOT" build/ebsbench >/dev/null
		bin="$ROOT/build/ebsbench"
	fi
	KERNEL=$("$QEMU_DIR/fetch-kernel.sh")
	INITRD="$BATS_FILE_TMPDIR/initrd.cpio.gz"
	[ -f "$INITRD" ] || "$QEMU_DIR/build-initramfs.sh" --kernel "$KERNEL" --ebsbench "$bin" "$INITRD"
}

@test "qemu: gp2-like bucket shows its cliff at the predicted second, gp3-like none" {
	setup_guest
	OUT=${EBSBENCH_QEMU_OUT:-$BATS_FILE_TMPDIR/guest}
	# The documented rare hang of a throttled NVMe drive under TCG (exit
	# 3): each one is reported and kept for inspection, then the guest is
	# booted again, up to EBSBENCH_QEMU_ATTEMPTS boots in all.
	local attempts=${EBSBENCH_QEMU_ATTEMPTS:-2} attempt=1
	while :; do
		boot_guest
		[ "$status" -eq 3 ] && [ "$attempt" -lt "$attempts" ] || break
		echo "# attempt $attempt: QEMU NVMe drive stalled (guest I/O timeout): known TCG issue; booting again" >&3
		grep -E 'nvme[0-9]+: ' "$OUT/console.txt" 2>/dev/null | grep -Ei 'timeout|reset|abort' |
			head -n 2 | sed 's/^/#   /' >&3 || true
		rm -rf "$OUT.stalled-$attempt"
		mv "$OUT" "$OUT.stalled-$attempt"
		attempt=$((attempt + 1))
	done
	if [ "$status" -ne 0 ]; then
		echo "$output"
		tail -n 40 "$OUT/console.txt" 2>/dev/null || true
		[ "$status" -ne 3 ] || echo "stalled on all $attempts boots: see $OUT*/console.txt"
		return 1
	fi
	RESULTS="$OUT/results/results.json"
	[ -f "$RESULTS" ]

	# The volumes, named by the serials QEMU gave the controllers.
	check "gp2 volume id from its serial" \
		'.devices[] | select(.label == "gp2") | .volume_id == "vol-0123456789abcdef0" and .serial == "vol0123456789abcdef0"'
	check "gp3 volume id from its serial" \
		'.devices[] | select(.label == "gp3") | .volume_id == "vol-0fedcba9876543210" and .serial == "vol0fedcba9876543210"'
	check "randread ran on both devices" \
		'[.phases[] | select(.phase == "randread") | .device] | sort == ["gp2", "gp3"]'
	check "both phases read something" \
		'all(.phases[]; .job.read.total_ios > 1000 and .job.error == 0)'

	# gp2: the cliff where the model puts it.
	local gp2='.analysis.devices[] | select(.device == "gp2") | .cliff'
	check "gp2 cliff found" "$gp2 | .status == \"found\""
	check "gp2 cliff predicted at 20 s" "$gp2 | .predicted_second == 20"
	check "gp2 cliff within 1 s of the prediction" \
		"$gp2 | ((.second - .predicted_second) | fabs) <= 1"
	check "gp2 bursts near 3,000 IOPS" "$gp2 | .before.median >= 2500 and .before.median <= 3500"
	check "gp2 falls to near 300 IOPS" "$gp2 | .after.median >= 200 and .after.median <= 400"
	# gp3: flat.
	local gp3='.analysis.devices[] | select(.device == "gp3") | .cliff'
	check "gp3 no cliff" "$gp3 | .status != \"found\""
	check "gp3 flat near 3,000 IOPS" "$gp3 | .before.mean >= 2500 and .before.mean <= 3500"

	jq -r "$gp2"' | "# gp2: cliff at \(.second) s, predicted \(.predicted_second) s; \(.before.mean | round) IOPS before, \(.after.mean | round) after"' "$RESULTS" >&3
	jq -r "$gp3"' | "# gp3: \(.status), \(.before.mean | round) IOPS mean (min \(.before.min), max \(.before.max))"' "$RESULTS" >&3
	jq -r '"# guest (\(.accel)): kernel start to init \(.boot.kernel_to_init_s) s, to first I/O \(.boot.kernel_to_first_io_s) s; QEMU ran \(.boot.qemu_wall_s) s"' \
		"$OUT/facts.json" >&3 || true
}

@test "qemu: a stalled emulated NVMe drive is reported as such (exit 3), not as a pass or a hang" {
	setup_guest
	OUT="$BATS_FILE_TMPDIR/stall"
	# gp2 capped at 1 IOPS and a guest I/O timeout of 1 s: the guest
	# kernel logs the same NVMe timeouts and aborts as in the real stall.
	boot_guest --simulate-stall --timeout 60
	[ "$status" -eq 3 ]
	[[ "$output" == *"QEMU NVMe drive stalled (guest I/O timeout): known TCG issue"* ]]
	grep -Eq 'nvme[0-9]+: I/O [0-9]+ .*timeout' "$OUT/console.txt"
}
