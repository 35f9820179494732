#!/usr/bin/env bash
# build-disk.sh UKI.efi OUT.raw
#
# A raw GPT disk image for a UEFI boot (an AMI's root volume, or QEMU with
# OVMF): one EFI system partition (FAT32) holding UKI.efi at the boot
# path (/EFI/BOOT/BOOTX64.EFI, where firmware boots removable media with
# no boot entry).  Sizes, GUIDs, the FAT serial and label come from
# image/appliance.conf's [disk].  Built without mounts (sgdisk, mtools) and
# reproducible: fixed disk and partition GUIDs, a fixed FAT volume serial,
# file and directory times from SOURCE_DATE_EPOCH.  The appliance never
# writes to it (its root is the initramfs).
set -euo pipefail

PROG=build-disk
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
[ $# -eq 2 ] || usage
DISK_MIB=$(appliance disk.size_mib)
ESP_START=$(appliance disk.esp_start)
ESP_SECTORS=$(appliance disk.esp_sectors)
DISK_GUID=$(appliance disk.disk_guid)
ESP_GUID=$(appliance disk.esp_guid)
FAT_SERIAL=$(appliance disk.fat_serial)
ESP_LABEL=$(appliance disk.esp_label)
BOOT_PATH=$(appliance disk.boot_path)
[[ $BOOT_PATH == /*/* ]] || die "disk.boot_path $BOOT_PATH: not a path in a directory"
uki=$1 out=$2
[ -f "$uki" ] || die "UKI $uki not found"
need_packages gdisk mtools
root=$(cd "$(dirname "$0")/../.." && pwd)
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git -C "$root" log -1 --format=%ct 2>/dev/null || echo 0)}
# FAT stores local time: UTC keeps it the same everywhere.
export TZ=UTC
[ "$(stat -c %s "$uki")" -lt $((ESP_SECTORS * 512 - 1048576)) ] ||
	die "$uki does not fit the $((ESP_SECTORS / 2048)) MiB ESP"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# ---- the ESP, as a file of its own ----
esp=$work/esp.img
truncate -s $((ESP_SECTORS * 512)) "$esp"
mformat -i "$esp" -F -N "$FAT_SERIAL" -v "$ESP_LABEL" -T "$ESP_SECTORS" -h 64 -s 32 ::
# Every directory on the way, parents first (/EFI, then /EFI/BOOT).
dirs=() path=${BOOT_PATH%/*}
while [ -n "$path" ]; do dirs=("::$path" ${dirs[@]+"${dirs[@]}"}) path=${path%/*}; done
mmd -i "$esp" "${dirs[@]}"
boot_file=$work/${BOOT_PATH##*/}
cp "$uki" "$boot_file"
touch -d "@$SOURCE_DATE_EPOCH" "$boot_file"
mcopy -i "$esp" -m "$boot_file" "::$BOOT_PATH"

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
