#!/usr/bin/env bash
# build-initramfs.sh [--kernel VMLINUZ] [--ebsbench BIN] OUT.cpio.gz [EXTRA_FILE...]
#
# A minimal initramfs for the QEMU test guest:
#   /init                        tests/qemu/guest-init.sh
#   /bin/busybox + applet links  Debian's busybox-static (installed if missing)
#   /bin/ebsbench                build/ebsbench (make build/ebsbench first)
#   /etc/ebsbench/config.json    tests/qemu/guest-config.json (the kernel command
#                                line may replace it: see guest-init.sh)
#   /lib/modules/*.ko            the NVMe driver and what it needs, only where
#                                the kernel has them as modules (decompressed:
#                                busybox insmod reads plain .ko), listed in load
#                                order in /etc/ebsbench/modules
# EXTRA_FILE is SRC or SRC:/path/in/guest (SRC alone lands in /extra/).
#
# --kernel names the vmlinuz the initramfs is for (default: what
# fetch-kernel.sh prints); its modules are looked up in ../lib/modules/VERSION
# beside its boot/ directory and its config in boot/config-VERSION.  A kernel
# with no module tree there (our own build, everything built in) needs none.
# EBSBENCH_GUEST_MODULES (default "nvme") names the modules wanted.
#
# The archive is reproducible: sorted names, owner 0, mtimes clamped to
# SOURCE_DATE_EPOCH (default: the last commit's time), gzip -n.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
kernel=""
ebsbench="$root/build/ebsbench"

usage() {
	sed -n '2,3p' "$0" | sed 's/^# //' >&2
	exit 2
}

while [ $# -gt 0 ]; do
	case $1 in
	--kernel) kernel=$2; shift 2 ;;
	--ebsbench) ebsbench=$2; shift 2 ;;
	-h | --help) usage ;;
	--) shift; break ;;
	-*) echo "build-initramfs: unknown option $1" >&2; usage ;;
	*) break ;;
	esac
done
[ $# -ge 1 ] || usage
out=$1
shift

say() { echo "build-initramfs: $*" >&2; }
die() { say "$*"; exit 1; }

apt_install() {
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >&2 ||
		{ apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >&2; }
}

[ -x "$ebsbench" ] || die "$ebsbench missing: run make build/ebsbench"
if ! dpkg -s busybox-static >/dev/null 2>&1; then
	say "installing busybox-static"
	apt_install busybox-static
fi
busybox=/bin/busybox
command -v cpio >/dev/null || { say "installing cpio"; apt_install cpio; }
[ -n "$kernel" ] || kernel=$("$here/fetch-kernel.sh")
[ -f "$kernel" ] || die "kernel $kernel not found"

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage"/{bin,dev,etc/ebsbench,lib/modules,proc,sys,tmp,results,extra}

install -m 0755 "$busybox" "$stage/bin/busybox"
for applet in $("$busybox" --list); do
	[ -e "$stage/bin/$applet" ] || ln -s busybox "$stage/bin/$applet"
done
install -m 0755 "$ebsbench" "$stage/bin/ebsbench"
install -m 0755 "$here/guest-init.sh" "$stage/init"
install -m 0644 "$here/guest-config.json" "$stage/etc/ebsbench/config.json"
# The kernel opens /dev/console for init before devtmpfs is mounted.
mknod -m 0600 "$stage/dev/console" c 5 1 2>/dev/null || true

# ---- kernel modules ----
kdir=$(dirname "$kernel")
kver=$(basename "$kernel")
kver=${kver#vmlinuz-}
mtree="$kdir/../lib/modules/$kver"
: >"$stage/etc/ebsbench/modules"
if [ -f "$mtree/modules.dep" ]; then
	declare -A seen=()
	order=()
	# modules.dep: "a.ko: b.ko c.ko" lists a's dependencies so that the
	# last must be loaded first.
	add_module() { # PATH relative to the module tree
		local rel=$1 deps d
		[ -z "${seen[$rel]:-}" ] || return 0
		seen[$rel]=1
		deps=$(awk -v m="$rel" -F': *' '$1 == m {print $2; exit}' "$mtree/modules.dep")
		for d in $(echo "$deps" | tr ' ' '\n' | tac); do
			add_module "$d"
		done
		order+=("$rel")
	}
	for name in ${EBSBENCH_GUEST_MODULES:-nvme}; do
		rel=$(awk -F: -v n="$name" '{
			f = $1; sub(/.*\//, "", f); sub(/\.ko(\.(xz|zst|gz))?$/, "", f)
			gsub(/-/, "_", f); m = n; gsub(/-/, "_", m)
			if (f == m) { print $1; exit } }' "$mtree/modules.dep")
		if [ -n "$rel" ]; then
			add_module "$rel"
		elif grep -Eq "/${name//-/[-_]}\.ko(\.|$)" "$mtree/modules.builtin" 2>/dev/null; then
			say "module $name is built into $kver"
		else
			die "module $name is neither in $mtree/modules.dep nor built in"
		fi
	done
	for rel in "${order[@]}"; do
		base=$(basename "$rel")
		case $base in
		*.ko.xz) xz -dc "$mtree/$rel" >"$stage/lib/modules/${base%.xz}"; base=${base%.xz} ;;
		*.ko.zst) zstd -qdc "$mtree/$rel" >"$stage/lib/modules/${base%.zst}"; base=${base%.zst} ;;
		*.ko.gz) gzip -dc "$mtree/$rel" >"$stage/lib/modules/${base%.gz}"; base=${base%.gz} ;;
		*) cp "$mtree/$rel" "$stage/lib/modules/$base" ;;
		esac
		echo "$base" >>"$stage/etc/ebsbench/modules"
	done
	[ ${#order[@]} -eq 0 ] || say "modules: ${order[*]}"
else
	say "no module tree for $kver: assuming NVMe is built in"
fi

# ---- extra files ----
for spec in "$@"; do
	src=${spec%%:*}
	dest=/extra/$(basename "$src")
	[ "$spec" = "$src" ] || dest=${spec#*:}
	[ -f "$src" ] || die "extra file $src not found"
	mkdir -p "$stage$(dirname "$dest")"
	cp "$src" "$stage$dest"
done

# ---- archive ----
epoch=${SOURCE_DATE_EPOCH:-$(git -C "$root" log -1 --format=%ct 2>/dev/null || echo 0)}
find "$stage" -exec touch -h -d "@$epoch" {} +
mkdir -p "$(dirname "$out")"
(cd "$stage" && find . -mindepth 1 | LC_ALL=C sort |
	cpio --quiet -o -H newc --reproducible --owner=0:0) | gzip -n -9 >"$out.tmp"
mv "$out.tmp" "$out"
say "$out: $(stat -c %s "$out") bytes for kernel $kver"
