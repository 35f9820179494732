#!/usr/bin/env bash
# build-uki.sh --kernel BZIMAGE --initrd INITRAMFS [--cmdline TEXT] OUT.efi
#
# A unified kernel image: systemd-boot-efi's EFI stub with the kernel, the
# initramfs and the command line as PE sections (bookworm has no ukify).
# UEFI firmware runs it directly as /EFI/BOOT/BOOTX64.EFI, and the stub
# hands the kernel its embedded command line (a bare EFI-stub kernel would
# get none).  The command line adds ebsbench.image_digest=sha256:D, D being
# the sha256 of the kernel followed by the initramfs
# (`cat BZIMAGE INITRAMFS | sha256sum`): what ran, named in results.json.
# Reproducible: same inputs, same bytes (pe-stamp.py sets the PE timestamp
# to SOURCE_DATE_EPOCH).  Prints the UKI's sha256 on stderr.
set -euo pipefail

# Nitro: console on ttyS0 (EC2's console output), EBS NVMe never timed out
# by the guest (AWS's advice for EBS), and a panic reboots in 10 s (the
# instance then stops, see image/ami/README.md).
CMDLINE_DEFAULT="console=ttyS0,115200n8 panic=10 nvme_core.io_timeout=4294967295"
STUB=/usr/lib/systemd/boot/efi/linuxx64.efi.stub

kernel="" initrd="" cmdline=$CMDLINE_DEFAULT
PROG=build-uki
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) kernel=$2; shift 2 ;;
	--initrd) initrd=$2; shift 2 ;;
	--cmdline) cmdline=$2; shift 2 ;;
	-h | --help) usage ;;
	-*) echo "build-uki: unknown option $1" >&2; usage ;;
	*) break ;;
	esac
done
[ $# -eq 1 ] && [ -n "$kernel" ] && [ -n "$initrd" ] || usage
out=$1
[ -f "$kernel" ] || die "kernel $kernel not found"
[ -f "$initrd" ] || die "initramfs $initrd not found"
need_packages systemd-boot-efi binutils

root=$(cd "$(dirname "$0")/../.." && pwd)
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git -C "$root" log -1 --format=%ct 2>/dev/null || echo 0)}
digest=$(cat "$kernel" "$initrd" | sha256sum | cut -c1-64)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '%s ebsbench.image_digest=sha256:%s' "$cmdline" "$digest" >"$work/cmdline"
printf 'ID=ebsbench\nNAME="ebsbench appliance"\nVERSION_ID=%s\n' \
	"$(sed -n 's/^VERSION := //p' "$root/Makefile")" >"$work/osrel"
# Section addresses as systemd's own ukify/objcopy recipe of that era:
# small sections low, the kernel and initramfs far enough apart.
objcopy \
	--add-section .osrel="$work/osrel" --change-section-vma .osrel=0x20000 \
	--add-section .cmdline="$work/cmdline" --change-section-vma .cmdline=0x30000 \
	--add-section .linux="$kernel" --change-section-vma .linux=0x2000000 \
	--add-section .initrd="$initrd" --change-section-vma .initrd=0x3000000 \
	"$STUB" "$work/uki.efi"
python3 "$(dirname "$0")/pe-stamp.py" "$work/uki.efi" "$SOURCE_DATE_EPOCH"
mkdir -p "$(dirname "$out")"
mv "$work/uki.efi" "$out"
say "$out: $(stat -c %s "$out") bytes, sha256 $(sha256sum <"$out" | cut -c1-64); image digest sha256:$digest"
