#!/usr/bin/env bash
# build-kernel.sh [--check FILE|-] - the appliance kernel, built from the
# Debian linux-source package image/appliance.conf pins (its [kernel]) as
# `make tinyconfig` + the config fragment it names, no modules.
#
# Prints the directory holding bzImage and config.  The result is cached in
# $EBSBENCH_CACHE/kernel/VERSION-HASH (default /var/cache/ebsbench), HASH
# covering the fragment, the source version and the recipe, so a fresh
# machine builds it (10 to 15 min on 2 cores) and a warm one does not.  The
# build is reproducible: KBUILD_BUILD_{TIMESTAMP,USER,HOST,VERSION} are
# fixed.
#
#   --check FILE   check that every CONFIG_...=y of the fragment is =y in
#                  FILE (a kernel .config; `-` for the one this script
#                  builds, built or taken from the cache) and that modules
#                  are off; exit 1 naming the options that are not
set -euo pipefail

# Fixed build identity: two builds give the same bzImage.
KBUILD_BUILD_TIMESTAMP="2026-09-01 00:00:00 UTC"
PACKAGES="build-essential bc bison flex libelf-dev libssl-dev xz-utils cpio"

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cache=${EBSBENCH_CACHE:-/var/cache/ebsbench}
PROG=build-kernel
# shellcheck source=../image/lib.sh
. "$here/../image/lib.sh"
source_package=$(appliance kernel.source_package)
source_version=$(appliance kernel.source_version)
fragment=$(appliance kernel.config_fragment)
[[ $fragment == /* ]] || fragment=$(appliance_root)/$fragment
[ -f "$fragment" ] || die "kernel.config_fragment $fragment: no such file"

# The cache key: the fragment, the source version and the recipe's
# revision (bump KERNEL_RECIPE when a change here changes the bzImage).
# The package's name is not in it: Debian never gives two linux-source
# packages one version.
KERNEL_RECIPE=1
key=$( (cat "$fragment" && echo "$source_version $KERNEL_RECIPE") | sha256sum | cut -c1-16)
out=$cache/kernel/$source_version-$key

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
pin=$source_package=$source_version
deb=$deb_dir/${source_package}_${source_version}_all.deb
if [ ! -f "$deb" ]; then
	mkdir -p "$deb_dir"
	say "downloading $pin"
	(cd "$deb_dir" && { apt-get download -qq "$pin" 2>/dev/null ||
		{ apt-get update -qq && apt-get download -qq "$pin"; }; }) ||
		die "$pin is not offered by apt ($(apt-cache madison "$source_package" | awk '{print $3}' | xargs))"
fi

work=$(mktemp -d "$cache/kernel/build.XXXXXX")
trap 'rm -rf "$work"' EXIT
say "unpacking $(basename "$deb")"
dpkg-deb --fsys-tarfile "$deb" | tar -xf - -C "$work" "./usr/src/$source_package.tar.xz"
tar -xJf "$work/usr/src/$source_package.tar.xz" -C "$work"
src=$work/$source_package
export KBUILD_BUILD_TIMESTAMP KBUILD_BUILD_USER=ebsbench KBUILD_BUILD_HOST=ebsbench KBUILD_BUILD_VERSION=1
cd "$src"
make -s tinyconfig >/dev/null
scripts/kconfig/merge_config.sh -m .config "$fragment" >/dev/null
make -s olddefconfig >/dev/null
check_config .config || die "Kconfig dropped options of $fragment (see above)"
say "building bzImage with $(nproc) jobs (10 to 15 min on 2 cores)"
start=$(date +%s)
make -s -j"$(nproc)" bzImage >"$work/build.log" 2>&1 || { tail -n 30 "$work/build.log" >&2; die "kernel build failed"; }
say "built in $(($(date +%s) - start)) s: $(stat -c %s arch/x86/boot/bzImage) bytes"
mkdir -p "$out.tmp"
cp arch/x86/boot/bzImage "$out.tmp/bzImage"
cp .config "$out.tmp/config"
echo "$source_version" >"$out.tmp/version"
rm -rf "$out"
mv "$out.tmp" "$out"
echo "$out"
