# shellcheck shell=bash
# qemu_helpers.bash - booting the appliance under tests/qemu/run-guest.sh,
# shared by qemu.bats, faults.bats and uefi.bats.  Needs KERNEL and INITRD (see
# qemu_build) and QEMU_DIR.

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
