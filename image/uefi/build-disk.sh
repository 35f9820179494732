#!/usr/bin/env bash
# build-disk.sh UKI.efi OUT.raw
#
# A raw GPT disk image for a UEFI boot (an AMI's root volume, or QEMU with
# OVMF): one EFI system partition (FAT32) holding UKI.efi as
# /EFI/BOOT/BOOTX64.EFI, the path firmware boots from removable media
# with no boot entry.  Built without mounts (sgdisk, mtools) and
# reproducible: fixed disk and partition GUIDs, a fixed FAT volume serial,
# file and directory times from SOURCE_DATE_EPOCH.  The disk is 64 MiB;
# the appliance never writes to it (its root is the initramfs).
set -euo pipefail

DISK_MIB=64
ESP_START=2048      # sectors: 1 MiB aligned
ESP_SECTORS=122880  # 60 MiB
# Fixed identities: two builds give the same bytes.
DISK_GUID=6562736e-6265-6e63-6800-000000000001
ESP_GUID=6562736e-6265-6e63-6800-000000000002
FAT_SERIAL=0x65627362

PROG=build-disk
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
[ $# -eq 2 ] || usage
uki=$1 out=$2
[ -f "$uki" ] || die "UKI $uki not found"
need_packages gdisk mtools
root=$(cd "$(dirname "$0")/../.." && pwd)
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git -C "$root" log -1 --format=%ct 2>/dev/null || echo 0)}
# FAT stores local time: UTC keeps it the same everywhere.
export TZ=UTC
[ "$(stat -c %s "$uki")" -lt $((ESP_SECTORS * 512 - 1048576)) ] || die "$uki does not fit the 60 MiB ESP"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# ---- the ESP, as a file of its own ----
esp=$work/esp.img
truncate -s $((ESP_SECTORS * 512)) "$esp"
mformat -i "$esp" -F -N "${FAT_SERIAL#0x}" -v EBSBENCH -T "$ESP_SECTORS" -h 64 -s 32 ::
mmd -i "$esp" ::/EFI ::/EFI/BOOT
cp "$uki" "$work/BOOTX64.EFI"
touch -d "@$SOURCE_DATE_EPOCH" "$work/BOOTX64.EFI"
mcopy -i "$esp" -m "$work/BOOTX64.EFI" ::/EFI/BOOT/BOOTX64.EFI

# ---- the disk: GPT around it ----
disk=$work/disk.raw
truncate -s "${DISK_MIB}M" "$disk"
sgdisk --clear --disk-guid="$DISK_GUID" \
	--new=1:"$ESP_START":$((ESP_START + ESP_SECTORS - 1)) --typecode=1:EF00 \
	--change-name=1:"EFI System" --partition-guid=1:"$ESP_GUID" "$disk" >/dev/null
dd if="$esp" of="$disk" bs=512 seek="$ESP_START" conv=notrunc status=none
mkdir -p "$(dirname "$out")"
mv "$disk" "$out"
say "$out: ${DISK_MIB} MiB, sha256 $(sha256sum <"$out" | cut -c1-64)"
