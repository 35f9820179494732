#!/usr/bin/env bash
# build-initramfs.sh [--init BIN] [--ebsbench BIN] OUT.cpio.gz
#
# The appliance's initramfs: the tree image/appliance.conf's [initramfs]
# describes (/init, /bin/ebsbench, busybox and its applets, udhcpc's
# script, Debian's CA bundle, /etc/ebsbench/image.txt naming what went in,
# /dev/console), reproducible: sorted names, mtimes clamped to
# SOURCE_DATE_EPOCH (default: the last commit's time), uid and gid 0,
# `cpio --reproducible`, `gzip -n`.  --init and --ebsbench take /init's and
# /bin/ebsbench's sources (build/ebsbench-init, build/ebsbench) from
# elsewhere.  Prints the size and sha256 on stderr, nothing on stdout.
set -euo pipefail
umask 022

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
sources=()
PROG=build-initramfs
# shellcheck source=lib.sh
. "$here/lib.sh"
while [ $# -gt 0 ]; do
	case $1 in
	--init) sources+=("build/ebsbench-init=$2"); shift 2 ;;
	--ebsbench) sources+=("build/ebsbench=$2"); shift 2 ;;
	-h | --help) usage ;;
	-*) say "unknown option $1"; usage ;;
	*) break ;;
	esac
done
[ $# -eq 1 ] || usage
out=$1
need_packages cpio

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
appliance_stage initramfs "$stage" ${sources[@]+"${sources[@]}"} >/dev/null

epoch=${SOURCE_DATE_EPOCH:-$(git -C "$root" log -1 --format=%ct 2>/dev/null || echo 0)}
find "$stage" -exec touch -h -d "@$epoch" {} +
mkdir -p "$(dirname "$out")"
(cd "$stage" && find . -mindepth 1 | LC_ALL=C sort |
	cpio --quiet -o -H newc --reproducible --owner=0:0) | gzip -n -9 >"$out.tmp"
mv "$out.tmp" "$out"
say "$out: $(stat -c %s "$out") bytes, sha256 $(sha256sum <"$out" | cut -c1-64)"
