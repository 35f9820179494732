#!/usr/bin/env bash
# build-initramfs.sh [--init BIN] [--ebsbench BIN] OUT.cpio.gz
#
# The appliance's initramfs, reproducible (sorted names, mtimes clamped to
# SOURCE_DATE_EPOCH, uid and gid 0, `cpio --reproducible`, `gzip -n`):
#   /init                          build/ebsbench-init (PID 1)
#   /bin/ebsbench                  build/ebsbench
#   /bin/busybox + applet links    Debian's busybox-static: udhcpc, a rescue shell
#   /etc/udhcpc.script             image/udhcpc.script
#   /etc/ssl/certs/ca-certificates.crt   Debian's CA bundle (image/ca-bundle.sh), for the upload
#   /etc/ebsbench/image.txt        what went in: versions and sha256 of each part
#   /dev/console                   the kernel opens it before init mounts devtmpfs
# SOURCE_DATE_EPOCH defaults to the last commit's time.  Prints the size
# and sha256 on stderr, nothing on stdout.
set -euo pipefail
umask 022

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
init="$root/build/ebsbench-init"
ebsbench="$root/build/ebsbench"
PROG=build-initramfs
# shellcheck source=lib.sh
. "$here/lib.sh"
while [ $# -gt 0 ]; do
	case $1 in
	--init) init=$2; shift 2 ;;
	--ebsbench) ebsbench=$2; shift 2 ;;
	-h | --help) usage ;;
	-*) echo "build-initramfs: unknown option $1" >&2; usage ;;
	*) break ;;
	esac
done
[ $# -eq 1 ] || usage
out=$1
need_packages busybox-static cpio ca-certificates
[ -x "$init" ] || die "$init missing: run make build/ebsbench-init"
[ -x "$ebsbench" ] || die "$ebsbench missing: run make build/ebsbench"
busybox=/bin/busybox

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage"/{bin,dev,etc/ebsbench,etc/ssl/certs,proc,sys,run,tmp}
install -m 0755 "$init" "$stage/init"
install -m 0755 "$ebsbench" "$stage/bin/ebsbench"
install -m 0755 "$busybox" "$stage/bin/busybox"
for applet in $("$busybox" --list); do
	[ -e "$stage/bin/$applet" ] || ln -s busybox "$stage/bin/$applet"
done
install -m 0755 "$here/udhcpc.script" "$stage/etc/udhcpc.script"
ca="$stage/etc/ssl/certs/ca-certificates.crt"
"$here/ca-bundle.sh" "$ca" >/dev/null || die "no CA bundle"
printf '127.0.0.1\tlocalhost\n' >"$stage/etc/hosts"
printf 'root:x:0:0:root:/:/bin/sh\n' >"$stage/etc/passwd"
printf 'root:x:0:\n' >"$stage/etc/group"
mknod -m 0600 "$stage/dev/console" c 5 1
version() { dpkg-query -W -f='${Version}' "$1"; }
{
	echo "ebsbench-init $(sha256sum <"$init" | cut -c1-64)"
	echo "ebsbench $("$ebsbench" version 2>/dev/null | head -n1 | tr -d '\n') $(sha256sum <"$ebsbench" | cut -c1-64)"
	echo "busybox-static $(version busybox-static) $(sha256sum <"$busybox" | cut -c1-64)"
	echo "ca-certificates $(version ca-certificates) $(sha256sum <"$ca" | cut -c1-64)"
} >"$stage/etc/ebsbench/image.txt"

epoch=${SOURCE_DATE_EPOCH:-$(git -C "$root" log -1 --format=%ct 2>/dev/null || echo 0)}
find "$stage" -exec touch -h -d "@$epoch" {} +
mkdir -p "$(dirname "$out")"
(cd "$stage" && find . -mindepth 1 | LC_ALL=C sort |
	cpio --quiet -o -H newc --reproducible --owner=0:0) | gzip -n -9 >"$out.tmp"
mv "$out.tmp" "$out"
say "$out: $(stat -c %s "$out") bytes, sha256 $(sha256sum <"$out" | cut -c1-64)"
