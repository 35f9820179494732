#!/usr/bin/env bats
# kernel.bats - the appliance kernel (kernel-config/): built from Debian's
# pinned linux-source as tinyconfig + ebsbench.config, every option the
# appliance needs =y, no modules.  The build is cached in
# /var/cache/ebsbench/kernel (about 6.5 min on 2 cores the first time).

bats_require_minimum_version 1.5.0

BUILD="$BATS_TEST_DIRNAME/../../kernel-config/build-kernel.sh"

setup_file() {
	KDIR=$(bash "$BUILD")
	export KDIR
}

@test "kernel: every option of the fragment is =y in the built .config, modules off" {
	run bash "$BUILD" --check -
	[ "$status" -eq 0 ]
	[ "$output" = "$KDIR" ]
	# What the appliance cannot do without, spelled out once more.
	for opt in BLK_DEV_NVME IO_URING AIO ENA_ETHERNET VIRTIO_NET PCI_MSI ACPI EFI_STUB \
		SERIAL_8250_CONSOLE DEVTMPFS BLK_DEV_INITRD PACKET FW_CFG_SYSFS; do
		grep -qx "CONFIG_$opt=y" "$KDIR/config"
	done
	run ! grep -qx 'CONFIG_MODULES=y' "$KDIR/config"
	# An EFI-stub bzImage: "MZ" first (a PE image UEFI loads), "HdrS" at 0x202.
	[ "$(head -c 2 "$KDIR/bzImage")" = MZ ]
	[ "$(dd if="$KDIR/bzImage" bs=1 skip=514 count=4 2>/dev/null)" = HdrS ]
	echo "# $(cat "$KDIR/version"): bzImage $(stat -c %s "$KDIR/bzImage") bytes" >&3
}

@test "kernel: the check names an option Kconfig dropped, and modules left on" {
	sed -e '/^CONFIG_BLK_DEV_NVME=y$/d' -e 's/^# CONFIG_MODULES is not set$/CONFIG_MODULES=y/' \
		"$KDIR/config" >"$BATS_TEST_TMPDIR/config"
	run bash "$BUILD" --check "$BATS_TEST_TMPDIR/config"
	[ "$status" -eq 1 ]
	[[ "$output" == *"CONFIG_BLK_DEV_NVME"* ]]
	[[ "$output" == *"CONFIG_MODULES(must be off)"* ]]
	[[ "$output" != *"CONFIG_IO_URING"* ]]
}
