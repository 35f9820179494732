#!/usr/bin/env bash
# build-kernel.sh [--check FILE|-] - the appliance kernel, built from Debian's
# linux-source (pinned) as `make tinyconfig` + ebsbench.config, no modules.
#
# Prints the directory holding bzImage and config.  The result is cached in
# $EBSBENCH_CACHE/kernel/VERSION-HASH (default /var/cache/ebsbench), HASH
# covering the fragment and the recipe, so a fresh machine builds it (about
# 6.5 min on 2 cores) and a warm one does not.  The build is reproducible:
# KBUILD_BUILD_{TIMESTAMP,USER,HOST,VERSION} are fixed.
#
#   --check FILE   check that every CONFIG_...=y of the fragment is =y in
#                  FILE (a kernel .config; `-` for the one this script
#                  builds, built or taken from the cache) and that modules
#                  are off; exit 1 naming the options that are not
set -euo pipefail

# Debian bookworm's linux-source-6.1 (from bookworm-security).  Bumping it
# changes the cache key and rebuilds.
LINUX_SOURCE_VERSION=6.1.192-3
# Fixed build identity: two builds give the same bzImage.
KBUILD_BUILD_TIMESTAMP="2026-09-01 00:00:00 UTC"
PACKAGES="build-essential bc bison flex libelf-dev libssl-dev xz-utils cpio"

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
fragment=$here/ebsbench.config
cache=${EBSBENCH_CACHE:-/var/cache/ebsbench}
PROG=build-kernel
# shellcheck source=../image/lib.sh
. "$here/../image/lib.sh"

# The cache key: the fragment, the source version and the recipe's
# revision (bump KERNEL_RECIPE when a change here changes the bzImage).
KERNEL_RECIPE=1
key=$( (cat "$fragment" && echo "$LINUX_SOURCE_VERSION $KERNEL_RECIPE") | sha256sum | cut -c1-16)
out=$cache/kernel/$LINUX_SOURCE_VERSION-$key

# check_config CONFIG: every `CONFIG_X=y` of the fragment is =y there.
check_config() {
	local missing
	missing=$(grep -E '^CONFIG_[A-Z0-9_]+=y$' "$fragment" | while read -r line; do
		grep -qx "$line" "$1" || echo "${line%=y}"
	done)
	if grep -qx 'CONFIG_MODULES=y' "$1"; then missing+=" CONFIG_MODULES(must be off)"; fi
	[ -z "$(echo $missing)" ] || { say "not =y in $1:" $missing; return 1; }
}

mkdir -p "$cache/kernel"
exec 9>"$cache/kernel/.lock"
flock 9
if [ "${1:-}" = --check ] && [ "${2:--}" != - ]; then
	[ -f "$2" ] || die "$2: no such file"
	check_config "$2"
	exit
fi
if [ -f "$out/bzImage" ] && [ -f "$out/config" ]; then
	if [ "${1:-}" = --check ]; then check_config "$out/config" || exit 1; fi
	echo "$out"
	exit 0
fi

# shellcheck disable=SC2086 # a list of package names
need_packages $PACKAGES

deb_dir=$cache/kernel/deb
deb=$deb_dir/linux-source-6.1_${LINUX_SOURCE_VERSION}_all.deb
if [ ! -f "$deb" ]; then
	mkdir -p "$deb_dir"
	say "downloading linux-source-6.1=$LINUX_SOURCE_VERSION"
	(cd "$deb_dir" && { apt-get download -qq "linux-source-6.1=$LINUX_SOURCE_VERSION" 2>/dev/null ||
		{ apt-get update -qq && apt-get download -qq "linux-source-6.1=$LINUX_SOURCE_VERSION"; }; }) ||
		die "linux-source-6.1=$LINUX_SOURCE_VERSION is not offered by apt ($(apt-cache madison linux-source-6.1 | awk '{print $3}' | xargs))"
fi

work=$(mktemp -d "$cache/kernel/build.XXXXXX")
trap 'rm -rf "$work"' EXIT
say "unpacking $(basename "$deb")"
dpkg-deb --fsys-tarfile "$deb" | tar -xf - -C "$work" ./usr/src/linux-source-6.1.tar.xz
tar -xJf "$work/usr/src/linux-source-6.1.tar.xz" -C "$work"
src=$work/linux-source-6.1
export KBUILD_BUILD_TIMESTAMP KBUILD_BUILD_USER=ebsbench KBUILD_BUILD_HOST=ebsbench KBUILD_BUILD_VERSION=1
cd "$src"
make -s tinyconfig >/dev/null
scripts/kconfig/merge_config.sh -m .config "$fragment" >/dev/null
make -s olddefconfig >/dev/null
check_config .config || die "Kconfig dropped options of $fragment (see above)"
say "building bzImage with $(nproc) jobs (about 6.5 min on 2 cores)"
start=$(date +%s)
make -s -j"$(nproc)" bzImage >"$work/build.log" 2>&1 || { tail -n 30 "$work/build.log" >&2; die "kernel build failed"; }
say "built in $(($(date +%s) - start)) s: $(stat -c %s arch/x86/boot/bzImage) bytes"
mkdir -p "$out.tmp"
cp arch/x86/boot/bzImage "$out.tmp/bzImage"
cp .config "$out.tmp/config"
echo "$LINUX_SOURCE_VERSION" >"$out.tmp/version"
rm -rf "$out"
mv "$out.tmp" "$out"
echo "$out"
