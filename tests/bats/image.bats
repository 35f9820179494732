#!/usr/bin/env bats
# image.bats - `make image`: the initramfs, the UKI, the UEFI disk image
# and the OCI image, byte for byte the same from two clean trees; and the
# initramfs holding what PID 1 needs.

bats_require_minimum_version 1.5.0

ROOT="$BATS_TEST_DIRNAME/../.."

@test "make image: two clean trees give the same initramfs, UKI, disk image and OCI image digests" {
	local a="$BATS_TEST_TMPDIR/a" b="$BATS_TEST_TMPDIR/b"
	git clone -q "$ROOT" "$a"
	git clone -q "$ROOT" "$b"
	# In parallel: each tree builds its own static libraries, binaries and
	# images (the kernel comes from the cache both share).
	make -C "$a" --no-print-directory image >"$BATS_TEST_TMPDIR/a.out" 2>"$BATS_TEST_TMPDIR/a.log" &
	local pa=$!
	make -C "$b" --no-print-directory image >"$BATS_TEST_TMPDIR/b.out" 2>"$BATS_TEST_TMPDIR/b.log" || {
		tail -n 20 "$BATS_TEST_TMPDIR/b.log"
		return 1
	}
	wait "$pa" || {
		tail -n 20 "$BATS_TEST_TMPDIR/a.log"
		return 1
	}
	sed 's/^/# /' "$BATS_TEST_TMPDIR/a.out" >&3
	for name in kernel initramfs appliance uki disk oci; do
		grep -Eq "^$name sha256:[0-9a-f]{64} " "$BATS_TEST_TMPDIR/a.out" || { echo "no $name digest"; return 1; }
	done
	diff "$BATS_TEST_TMPDIR/a.out" "$BATS_TEST_TMPDIR/b.out"
	# The binaries themselves, not only the archives around them.
	cmp "$a/build/ebsbench" "$b/build/ebsbench"
	cmp "$a/build/ebsbench-init" "$b/build/ebsbench-init"
	cmp "$a/build/ebsbench-disk.raw" "$b/build/ebsbench-disk.raw"
}

@test "initramfs: init, ebsbench, busybox's udhcpc and shell, the CA bundle; root-owned, mtimes fixed" {
	make -C "$ROOT" build/initramfs.cpio.gz >/dev/null
	local list epoch
	list=$(gzip -dc "$ROOT/build/initramfs.cpio.gz" | cpio -t --quiet)
	for f in init bin/ebsbench bin/busybox bin/udhcpc bin/sh etc/udhcpc.script \
		etc/ssl/certs/ca-certificates.crt etc/ebsbench/image.txt dev/console; do
		grep -qx "$f" <<<"$list" || { echo "missing $f"; return 1; }
	done
	# Sorted, as the build promises.
	[ "$list" = "$(LC_ALL=C sort <<<"$list")" ]
	epoch=$(git -C "$ROOT" log -1 --format=%ct)
	mkdir "$BATS_TEST_TMPDIR/x"
	(cd "$BATS_TEST_TMPDIR/x" && gzip -dc "$ROOT/build/initramfs.cpio.gz" |
		cpio -idm --quiet --no-absolute-filenames init etc/ebsbench/image.txt)
	[ "$(stat -c %Y "$BATS_TEST_TMPDIR/x/init")" = "$epoch" ]
	# The long listing first: a failing gzip or cpio would leave awk
	# nothing to object to.
	local long
	long=$(gzip -dc "$ROOT/build/initramfs.cpio.gz" | cpio -tv --quiet)
	[ "$(wc -l <<<"$long")" -eq "$(wc -l <<<"$list")" ]
	awk '$3 != "root" || $4 != "root" { bad = 1; print } END { exit bad }' <<<"$long"
	grep -q '^busybox-static ' "$BATS_TEST_TMPDIR/x/etc/ebsbench/image.txt"
}
