#!/usr/bin/env bash
# fetch-kernel.sh [FLAVOUR] - a Debian kernel for the QEMU test guest.
#
# Downloads linux-image-<FLAVOUR>'s current concrete package (default
# flavour: cloud-amd64, which has NVMe, virtio, io_uring and AIO built in)
# with apt-get download, unpacks it with dpkg-deb -x into a cache directory
# outside the repo keyed by package name and version, and prints the path of
# its vmlinuz.  Idempotent: a complete cache entry is reused; with no apt
# lists reachable the newest cached entry of the flavour is used.
#
# The modules of the unpacked tree (lib/modules/VERSION) sit beside boot/:
# build-initramfs.sh finds them from the vmlinuz path.  A later issue
# replaces this kernel with our own build; the harness takes any vmlinuz.
#
# Environment: EBSBENCH_QEMU_KERNEL_CACHE (default
# /var/cache/ebsbench/qemu-kernel).  Progress goes to stderr, the path alone
# to stdout.
set -euo pipefail

flavour=${1:-${EBSBENCH_KERNEL_FLAVOUR:-cloud-amd64}}
cache=${EBSBENCH_QEMU_KERNEL_CACHE:-/var/cache/ebsbench/qemu-kernel}
meta=linux-image-$flavour

say() { echo "fetch-kernel: $*" >&2; }

# The concrete package behind the metapackage: linux-image-6.1.0-57-cloud-amd64.
resolve() {
	apt-cache depends "$meta" 2>/dev/null | awk '/Depends: linux-image-/ {print $2; exit}'
}

cached_vmlinuz() { # DIR -> prints its vmlinuz if DIR is a complete entry
	local dir=$1 v
	[ -f "$dir/.complete" ] || return 1
	for v in "$dir"/boot/vmlinuz-*; do
		[ -f "$v" ] && { echo "$v"; return 0; }
	done
	return 1
}

newest_cached() {
	local dir
	# Names are PACKAGE_VERSION; version sort puts the newest last.
	for dir in $(ls -d "$cache"/linux-image-*-"$flavour"_* 2>/dev/null | sort -V -r); do
		cached_vmlinuz "$dir" && return 0
	done
	return 1
}

pkg=$(resolve || true)
if [ -z "$pkg" ]; then
	say "no apt metadata for $meta: running apt-get update"
	apt-get update -qq >&2 || true
	pkg=$(resolve || true)
fi
if [ -z "$pkg" ]; then
	newest_cached && exit 0
	say "cannot resolve $meta (apt) and nothing cached in $cache"
	exit 1
fi
version=$(apt-cache policy "$pkg" | awk '/Candidate:/ {print $2; exit}')
dir="$cache/${pkg}_${version}"
cached_vmlinuz "$dir" && exit 0

mkdir -p "$cache"
tmp=$(mktemp -d "$cache/.fetch.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
say "downloading $pkg $version"
# -o APT::Sandbox::User=root: the _apt user cannot write into a root-owned
# temporary directory; the download is still verified against the lists.
(cd "$tmp" && apt-get download -q -o APT::Sandbox::User=root "$pkg=$version" >&2)
deb=$(ls "$tmp"/*.deb)
dpkg-deb -x "$deb" "$tmp/tree"
rm -f "$deb"
kver=$(ls "$tmp/tree/lib/modules" 2>/dev/null | head -n1)
if [ -n "$kver" ] && [ ! -f "$tmp/tree/lib/modules/$kver/modules.dep" ]; then
	# The package leaves modules.dep to depmod at install time; the
	# initramfs builder reads it to load modules in dependency order.
	command -v depmod >/dev/null || {
		say "installing kmod (depmod)"
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq kmod >&2
	}
	PATH=$PATH:/sbin:/usr/sbin depmod -b "$tmp/tree" "$kver"
fi
rm -rf "$dir"
mv "$tmp/tree" "$dir"
touch "$dir/.complete"
cached_vmlinuz "$dir"
