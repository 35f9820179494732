#!/usr/bin/env bats
# image.bats - the appliance's initramfs (image/build-initramfs.sh):
# reproducible from a clean tree, and holding what PID 1 needs.

bats_require_minimum_version 1.5.0

ROOT="$BATS_TEST_DIRNAME/../.."

@test "initramfs: two builds from clean trees have the same sha256" {
	local a="$BATS_TEST_TMPDIR/a" b="$BATS_TEST_TMPDIR/b"
	git clone -q "$ROOT" "$a"
	git clone -q "$ROOT" "$b"
	# In parallel: each tree builds its own static libraries and binaries.
	make -C "$a" build/initramfs.cpio.gz >"$BATS_TEST_TMPDIR/a.log" 2>&1 &
	local pa=$!
	make -C "$b" build/initramfs.cpio.gz >"$BATS_TEST_TMPDIR/b.log" 2>&1 || {
		tail -n 20 "$BATS_TEST_TMPDIR/b.log"
		return 1
	}
	wait "$pa" || {
		tail -n 20 "$BATS_TEST_TMPDIR/a.log"
		return 1
	}
	local sa sb
	sa=$(sha256sum <"$a/build/initramfs.cpio.gz" | cut -c1-64)
	sb=$(sha256sum <"$b/build/initramfs.cpio.gz" | cut -c1-64)
	echo "# initramfs: $(stat -c %s "$a/build/initramfs.cpio.gz") bytes, sha256 $sa" >&3
	[ "$sa" = "$sb" ]
	# The binaries themselves, not only the archive around them.
	cmp "$a/build/ebsbench" "$b/build/ebsbench"
	cmp "$a/build/ebsbench-init" "$b/build/ebsbench-init"
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
	gzip -dc "$ROOT/build/initramfs.cpio.gz" | cpio -tv --quiet | awk '$3 != "root" || $4 != "root" { bad = 1; print } END { exit bad }'
	grep -q '^busybox-static ' "$BATS_TEST_TMPDIR/x/etc/ebsbench/image.txt"
}
