#!/usr/bin/env bats
# uefi.bats - the UEFI disk image (`make image`): a GPT whose EFI system
# partition holds the unified kernel image at /EFI/BOOT/BOOTX64.EFI, booted
# as on Nitro (OVMF firmware, the image on an NVMe boot disk, the config as
# IMDSv2 user-data) against two emulated EBS volumes, uploading to the S3
# peer.  The boot disk must never be a target: the config here names no
# devices, so ebsbench picks the volumes itself and must leave it out.

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

@test "disk image: one EFI system partition, the UKI as BOOTX64.EFI, its command line naming the image" {
	local disk="$ROOT/build/ebsbench-disk.raw"
	run sgdisk -p "$disk"
	[ "$status" -eq 0 ]
	[ "$(grep -cE '^ +[0-9]+ ' <<<"$output")" -eq 1 ]
	grep -Eq '^ +1 +2048 +[0-9]+ .* EF00 ' <<<"$output"
	# Read back through mtools at the partition's offset: no mounts.
	mcopy -n -i "$disk@@1M" ::/EFI/BOOT/BOOTX64.EFI "$BATS_TEST_TMPDIR/boot.efi"
	cmp "$BATS_TEST_TMPDIR/boot.efi" "$ROOT/build/ebsbench.efi"
	objcopy -O binary --only-section=.cmdline "$ROOT/build/ebsbench.efi" "$BATS_TEST_TMPDIR/cmdline"
	# image/appliance.conf's kernel.cmdline, then the image digest.
	local params
	params=$(PROG=uefi.bats bash -c '. "$1/image/lib.sh" && appliance_params' _ "$ROOT")
	[[ $params == "console=ttyS0,115200n8 panic=10 "* ]]
	[ "$(cat "$BATS_TEST_TMPDIR/cmdline")" = "$params ebsbench.image_digest=$APPLIANCE" ]
	# The initramfs inside is the one built.
	objcopy -O binary --only-section=.initrd "$ROOT/build/ebsbench.efi" "$BATS_TEST_TMPDIR/initrd"
	cmp "$BATS_TEST_TMPDIR/initrd" "$ROOT/build/initramfs.cpio.gz"
}

@test "disk image: boots under OVMF from an NVMe boot disk, runs on the two volumes, uploads, powers off; the boot disk is left out" {
	local out="$BATS_TEST_TMPDIR/guest"
	jq 'del(.devices) | .phases = [{"phase": "randread", "runtime": 400}]' \
		"$BATS_TEST_DIRNAME/../qemu/guest-config.json" >"$BATS_TEST_TMPDIR/cfg.json"
	boot_disk "$out" --config "$BATS_TEST_TMPDIR/cfg.json" \
		--s3 "https://s3.ebsbench.test:$TLS_PORT" --ca "$CA_FILE" --timeout 180
	if [ "$status" -ne 0 ]; then
		echo "$output"
		tail -n 30 "$out/console.txt"
		return 1
	fi
	[ "$(jq -r .powered_off "$out/facts.json")" = true ]
	# The kernel got the UKI's own command line, as shipped.
	objcopy -O binary --only-section=.cmdline "$ROOT/build/ebsbench.efi" "$BATS_TEST_TMPDIR/cmdline"
	[ "$(booted_cmdline "$out")" = "$(cat "$BATS_TEST_TMPDIR/cmdline")" ]
	local results="$out/results/results.json"
	# Fetched back from S3: the two data volumes, by the serials QEMU gave them.
	[ "$(jq -r '[.devices[].serial] | sort | join(" ")' "$results")" = "vol0123456789abcdef0 vol0fedcba9876543210" ]
	run ! grep -q vol0b0070000000000000 "$results"
	grep -Eq 'ebsbench run: leaving out /dev/nvme[0-9]n1( \(vol-[0-9a-f]+\))?: holds .*(partition|GPT|vfat).*only blank volumes are taken unasked' "$out/console.txt"
	[ "$(jq -r .ebsbench.image_digest "$results")" = "$APPLIANCE" ]
	jq -e 'all(.phases[]; .job.read.total_ios > 1000 and .job.error == 0)' "$results"
	jq -r '"# OVMF boot: kernel start to first I/O \(.boot.kernel_to_first_io_s) s; QEMU ran \(.boot.qemu_wall_s) s"' \
		"$out/facts.json" >&3
}

@test "disk image: a reboot in the middle of a run (as after a panic) powers off instead of running again" {
	local out="$BATS_TEST_TMPDIR/reset" vars="$BATS_TEST_TMPDIR/vars.fd"
	# The reset lands while the first phase runs, as a panic's reboot would.
	run "$BATS_TEST_DIRNAME/../qemu/run-guest.sh" --disk "$ROOT/build/ebsbench-disk.raw" \
		--out "$out" --ovmf-vars "$vars" --reset-when 'ebsbench: \[1/2\] randread' --timeout 150
	[ "$status" -eq 1 ]
	[ "$(jq -r .powered_off "$out/facts.json")" = true ]
	[ "$(grep -c 'ebsbench-init: plan:' "$out/console.txt")" -eq 1 ]
	[ "$(grep -c 'ebsbench-init: ebsbench .* appliance' "$out/console.txt")" -eq 2 ]
	grep -q 'ebsbench-init: verdict: STOPPED: the previous boot did not finish' "$out/console.txt"
	# That power-off cleared the mark: the next boot, same UEFI variables, runs.
	jq '.phases = [{"phase": "randread", "runtime": 100}]' "$BATS_TEST_DIRNAME/../qemu/guest-config.json" \
		>"$BATS_TEST_TMPDIR/short.json"
	run "$BATS_TEST_DIRNAME/../qemu/run-guest.sh" --disk "$ROOT/build/ebsbench-disk.raw" \
		--out "$out.2" --ovmf-vars "$vars" --config "$BATS_TEST_TMPDIR/short.json" --timeout 150
	[ "$status" -eq 0 ] || {
		echo "$output"
		tail -n 30 "$out.2/console.txt"
		return 1
	}
	grep -q 'ebsbench-init: verdict: OK: 2 phase(s)' "$out.2/console.txt"
	run ! grep -q 'the previous boot did not finish' "$out.2/console.txt"
}
