# shellcheck shell=bash
# qemu_helpers.bash - booting the appliance under tests/qemu/run-guest.sh,
# shared by qemu.bats, faults.bats, uefi.bats and resume_qemu.bats.  Needs
# KERNEL and INITRD (see qemu_build) and QEMU_DIR; boot_disk needs neither.

# qemu_build: the binaries, the initramfs and the (cached) kernel; exports
# KERNEL and INITRD.
qemu_build() {
	make -C "$ROOT" build/ebsbench build/ebsbench-init build/initramfs.cpio.gz >/dev/null
	KERNEL="$(bash "$ROOT/kernel-config/build-kernel.sh")/bzImage"
	INITRD="$ROOT/build/initramfs.cpio.gz"
	export KERNEL INITRD
}

boot() { # OUT [run-guest.sh options]
	local out=$1
	shift
	run "$QEMU_DIR/run-guest.sh" --kernel "$KERNEL" --initrd "$INITRD" --out "$out" "$@"
}

# boot_past_stalls OUT [run-guest.sh options]: boot; the documented hang of
# a throttled NVMe drive under TCG (exit 3) is reported on fd 3, the boot
# kept as OUT.stalled-N, and the guest booted again, up to
# EBSBENCH_QEMU_ATTEMPTS (default 2) boots in all.
boot_past_stalls() {
	local out=$1 attempts=${EBSBENCH_QEMU_ATTEMPTS:-2} attempt=1
	while :; do
		boot "$@"
		[ "$status" -eq 3 ] && [ "$attempt" -lt "$attempts" ] || break
		echo "# attempt $attempt: QEMU NVMe drive stalled (guest I/O timeout): known TCG issue; booting again" >&3
		rm -rf "$out.stalled-$attempt"
		mv "$out" "$out.stalled-$attempt"
		attempt=$((attempt + 1))
	done
}

# disk_peers_setup_file: a disk-image test file's setup_file: `make image`
# (its digests in $BATS_FILE_TMPDIR/digests; APPLIANCE the appliance's) and
# the peers started (S3 behind TLS).
disk_peers_setup_file() {
	make -C "$BATS_TEST_DIRNAME/../.." --no-print-directory image >"$BATS_FILE_TMPDIR/digests" \
		2>"$BATS_FILE_TMPDIR/image.log" || {
		tail -n 20 "$BATS_FILE_TMPDIR/image.log" >&2
		return 1
	}
	APPLIANCE=$(awk '$1 == "appliance" { print $2 }' "$BATS_FILE_TMPDIR/digests")
	export APPLIANCE
	peers_start "$BATS_FILE_TMPDIR/peers"
}

# boot_disk OUT [run-guest.sh options]: the UEFI disk image (`make image`)
# booted as on Nitro.  The UKI never times NVMe I/O out (AWS's advice for
# EBS), so the known TCG stall shows as a timeout (4) here, or as 3: the
# boot is kept as OUT.attempt-1 and the guest booted once more.
boot_disk() {
	local out=$1 attempt=1
	shift
	while :; do
		run "$BATS_TEST_DIRNAME/../qemu/run-guest.sh" --disk "$BATS_TEST_DIRNAME/../../build/ebsbench-disk.raw" \
			--out "$out" "$@"
		[ "$status" -eq 3 ] || [ "$status" -eq 4 ] || break
		[ "$attempt" -lt 2 ] || break
		echo "# attempt $attempt: exit $status (the known QEMU TCG NVMe stall?): booting again" >&3
		mv "$out" "$out.attempt-$attempt"
		attempt=$((attempt + 1))
	done
}

# booted_cmdline OUT: the command line the guest kernel says it booted with.
booted_cmdline() {
	sed -n 's/^\[[ 0-9.]*\] Kernel command line: //p' "$1/console.txt"
}

# The console line and the facts of a boot that must end by itself.
powered_off_by_itself() { # OUT
	[ "$(jq -r .powered_off "$1/facts.json")" = true ] || {
		tail -n 30 "$1/console.txt"
		return 1
	}
}

# qemu_peers_setup_file / qemu_peers_teardown_file: a QEMU test file's
# setup_file and teardown_file: the image built, the peers (S3 behind TLS,
# IMDS) started, GUEST_S3 the guest's name for the host's S3 (fw_cfg
# opt/ebsbench/hosts maps s3.ebsbench.test to the host's loopback).
qemu_peers_setup_file() {
	qemu_build
	peers_start "$BATS_FILE_TMPDIR/peers"
	export GUEST_S3="https://s3.ebsbench.test:$TLS_PORT"
}

qemu_peers_teardown_file() {
	peers_stop "$BATS_FILE_TMPDIR/peers"
}
