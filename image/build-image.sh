#!/usr/bin/env bash
# build-image.sh - what `make image` runs: every artifact a launch uses,
# built reproducibly from image/appliance.conf's description, with its
# digest.
#
#   kernel      our kernel (kernel-config/build-kernel.sh, cached)
#   initramfs   build/initramfs.cpio.gz (make builds it)
#   appliance   sha256 of the kernel followed by the initramfs: the UKI's
#               ebsbench.image_digest, recorded in results.json
#   uki         build/ebsbench.efi (image/uefi/build-uki.sh)
#   disk        build/ebsbench-disk.raw (image/uefi/build-disk.sh): the AMI's
#               root volume (image/ami/)
#   oci         build/oci, an OCI image layout (image/oci/build-oci.sh):
#               the manifest digest a Pod spec pins (image/k8s/)
#
# stdout: one line per artifact, "NAME sha256:HEX PATH"; progress on
# stderr.  Two clean trees of one commit print the same lines.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
PROG=build-image
# shellcheck source=lib.sh
. image/lib.sh
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || echo 0)}
sha() { sha256sum <"$1" | cut -c1-64; }

make --no-print-directory build/ebsbench build/ebsbench-init build/initramfs.cpio.gz >&2
kernel="$(bash kernel-config/build-kernel.sh)/bzImage"
bash image/uefi/build-uki.sh --kernel "$kernel" --initrd build/initramfs.cpio.gz build/ebsbench.efi
bash image/uefi/build-disk.sh build/ebsbench.efi build/ebsbench-disk.raw
oci=$(bash image/oci/build-oci.sh --ebsbench build/ebsbench build/oci)
echo "kernel sha256:$(sha "$kernel") $kernel"
echo "initramfs sha256:$(sha build/initramfs.cpio.gz) build/initramfs.cpio.gz"
# The digest the UKI carries on its command line (build-uki.sh defines it).
objcopy -O binary --only-section=.cmdline build/ebsbench.efi build/ebsbench.cmdline
appliance=$(sed -n 's/.*ebsbench\.image_digest=\(sha256:[0-9a-f]*\).*/\1/p' build/ebsbench.cmdline)
[ -n "$appliance" ] || die "the UKI's command line names no image digest"
echo "appliance $appliance build/ebsbench.efi"
echo "uki sha256:$(sha build/ebsbench.efi) build/ebsbench.efi"
echo "disk sha256:$(sha build/ebsbench-disk.raw) build/ebsbench-disk.raw"
echo "oci $(awk '{print $2}' <<<"$oci") build/oci"
