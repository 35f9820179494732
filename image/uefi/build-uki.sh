#!/usr/bin/env bash
# build-uki.sh --kernel BZIMAGE --initrd INITRAMFS OUT.efi
#
# A unified kernel image: systemd-boot-efi's EFI stub with the kernel, the
# initramfs, the command line and an os-release as PE sections, at the
# addresses image/appliance.conf's [uki] gives (bookworm has no ukify).
# UEFI firmware runs it directly as /EFI/BOOT/BOOTX64.EFI, and the stub
# hands the kernel its embedded command line (a bare EFI-stub kernel would
# get none): the description's kernel.cmdline plus
# ebsbench.image_digest=sha256:D, D being the sha256 of the kernel
# followed by the initramfs (`cat BZIMAGE INITRAMFS | sha256sum`): what
# ran, named in results.json.  Reproducible: same inputs, same bytes
# (pe-stamp.py sets the PE timestamp to SOURCE_DATE_EPOCH).  Prints the
# UKI's sha256 on stderr.
set -euo pipefail

kernel="" initrd=""
PROG=build-uki
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) kernel=$2; shift 2 ;;
	--initrd) initrd=$2; shift 2 ;;
	-h | --help) usage ;;
	-*) say "unknown option $1"; usage ;;
	*) break ;;
	esac
done
[ $# -eq 1 ] && [ -n "$kernel" ] && [ -n "$initrd" ] || usage
out=$1
[ -f "$kernel" ] || die "kernel $kernel not found"
[ -f "$initrd" ] || die "initramfs $initrd not found"
stub=$(appliance uki.stub)
read -r stub stub_package <<<"$stub"
need_packages "$stub_package" binutils
[ -f "$stub" ] || die "EFI stub $stub not found (package $stub_package)"

root=$(appliance_root)
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git -C "$root" log -1 --format=%ct 2>/dev/null || echo 0)}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmdline=$(appliance_cmdline "$kernel" "$initrd")
printf '%s' "$cmdline" >"$work/cmdline"
name=$(appliance appliance.name)
pretty_name=$(appliance appliance.pretty_name)
printf 'ID=%s\nNAME="%s"\nVERSION_ID=%s\n' "$name" "$pretty_name" \
	"$(sed -n 's/^VERSION := //p' "$root/Makefile")" >"$work/osrel"
cp "$kernel" "$work/kernel"
cp "$initrd" "$work/initrd"
sections=() section_lines=$(appliance_list uki.section)
while read -r name vma content; do
	[ -f "$work/$content" ] || die "uki.section $name: unknown content $content (osrel, cmdline, kernel, initrd)"
	sections+=(--add-section "$name=$work/$content" --change-section-vma "$name=$vma")
done <<<"$section_lines"
[ ${#sections[@]} -gt 0 ] || die "$(appliance_file) has no uki.section"
objcopy "${sections[@]}" "$stub" "$work/uki.efi"
python3 "$(dirname "$0")/pe-stamp.py" "$work/uki.efi" "$SOURCE_DATE_EPOCH"
mkdir -p "$(dirname "$out")"
mv "$work/uki.efi" "$out"
say "$out: $(stat -c %s "$out") bytes, sha256 $(sha256sum <"$out" | cut -c1-64); $(sed 's/.* //' "$work/cmdline")"
