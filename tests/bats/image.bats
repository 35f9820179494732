#!/usr/bin/env bats
# image.bats - `make image`: the initramfs, the UKI, the UEFI disk image
# and the OCI image, byte for byte the same from two clean trees; the
# initramfs holding what PID 1 needs; and image/appliance.conf as the one
# description every build script and the QEMU harness read.

bats_require_minimum_version 1.5.0

load helpers
load_bats_libs

ROOT="$BATS_TEST_DIRNAME/../.."

@test "make image: two clean trees give the same initramfs, UKI, disk image and OCI image digests" {
	local a="$BATS_TEST_TMPDIR/a" b="$BATS_TEST_TMPDIR/b"
	git clone -q "$ROOT" "$a"
	git clone -q "$ROOT" "$b"
	# Tree a builds everything from nothing.  Tree b takes a copy of the
	# static libraries this tree's own make built from the same deps.sh,
	# rather than a third build of them: the two trees' libraries still
	# come from two builds in two directories.  In parallel, each tree then
	# builds its own binaries and images (the kernel comes from the cache
	# both share).
	[ -f "$ROOT/build/deps/.stamp-all" ] || fail "no $ROOT/build/deps: run make deps first"
	mkdir "$b/build"
	cp -a "$ROOT/build/deps" "$b/build/deps"
	touch "$b/build/deps/.stamp-all"
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
	grep -Eq '^/bin/busybox sha256:[0-9a-f]{64} /bin/busybox busybox-static=[^ ]+$' \
		"$BATS_TEST_TMPDIR/x/etc/ebsbench/image.txt"
	grep -Eq '^/init sha256:[0-9a-f]{64} build/ebsbench-init$' "$BATS_TEST_TMPDIR/x/etc/ebsbench/image.txt"
}

# kernel_and_initrd: the cached kernel and the tree's initramfs, as KERNEL and INITRD.
kernel_and_initrd() {
	make -C "$ROOT" --no-print-directory build/initramfs.cpio.gz >/dev/null
	KERNEL="$(bash "$ROOT/kernel-config/build-kernel.sh")/bzImage"
	INITRD="$ROOT/build/initramfs.cpio.gz"
}

# uki_cmdline CONF: the .cmdline of a UKI built from description CONF.
uki_cmdline() {
	EBSBENCH_APPLIANCE=$1 bash "$ROOT/image/uefi/build-uki.sh" --kernel "$KERNEL" --initrd "$INITRD" \
		"$BATS_TEST_TMPDIR/uki.efi" 2>/dev/null
	objcopy -O binary --only-section=.cmdline "$BATS_TEST_TMPDIR/uki.efi" "$BATS_TEST_TMPDIR/uki.cmdline"
	cat "$BATS_TEST_TMPDIR/uki.cmdline"
}

@test "appliance.conf: a fact changed in a copy reaches the UKI, the QEMU harness, the initramfs and the OCI config; the harness adds only its switches" {
	kernel_and_initrd
	local conf="$BATS_TEST_TMPDIR/appliance.conf" shipped digest
	sed -e 's/^cmdline = panic=10$/cmdline = panic=7/' -e 's/^title = ebsbench$/title = ebsbench-copy/' \
		-e 's|^manifest = /etc/ebsbench/image.txt$|&\ntext = /etc/ebsbench/note 0644 from the copy|' \
		"$ROOT/image/appliance.conf" >"$conf"
	[ "$(grep -cx -e 'cmdline = panic=7' -e 'title = ebsbench-copy' -e 'text = /etc/ebsbench/note 0644 from the copy' "$conf")" -eq 3 ]
	digest=$(cat "$KERNEL" "$INITRD" | sha256sum | cut -c1-64)

	shipped=$(uki_cmdline "$conf")
	[ "$shipped" = "console=ttyS0,115200n8 panic=7 nvme_core.io_timeout=4294967295 ebsbench.image_digest=sha256:$digest" ] ||
		fail "UKI .cmdline: $shipped"
	# The harness: the shipped line, then its own switches and nothing else.
	run env EBSBENCH_APPLIANCE="$conf" "$ROOT/tests/qemu/run-guest.sh" --kernel "$KERNEL" --initrd "$INITRD" --print-cmdline
	[ "$status" -eq 0 ] || fail "run-guest.sh --print-cmdline: $output"
	[ "$output" = "$shipped nvme_core.io_timeout=10" ] || fail "harness line: $output"
	run env EBSBENCH_APPLIANCE="$conf" "$ROOT/tests/qemu/run-guest.sh" --kernel "$KERNEL" --initrd "$INITRD" \
		--print-cmdline --simulate-stall --watchdog-s 30
	[ "$output" = "$shipped nvme_core.io_timeout=1 ebsbench.watchdog_s=30" ] || fail "harness line: $output"
	# The tree's own description: panic=10 in both, the same way.
	shipped=$(uki_cmdline "$ROOT/image/appliance.conf")
	[[ " $shipped " == *" panic=10 "* ]] || fail "UKI .cmdline: $shipped"
	run "$ROOT/tests/qemu/run-guest.sh" --kernel "$KERNEL" --initrd "$INITRD" --print-cmdline
	[ "$output" = "$shipped nvme_core.io_timeout=10" ] || fail "harness line: $output"

	# The initramfs: the copy's one more entry.
	EBSBENCH_APPLIANCE=$conf bash "$ROOT/image/build-initramfs.sh" "$BATS_TEST_TMPDIR/initramfs.cpio.gz" 2>/dev/null
	mkdir "$BATS_TEST_TMPDIR/x"
	(cd "$BATS_TEST_TMPDIR/x" && gzip -dc "$BATS_TEST_TMPDIR/initramfs.cpio.gz" |
		cpio -idm --quiet --no-absolute-filenames etc/ebsbench/note)
	[ "$(cat "$BATS_TEST_TMPDIR/x/etc/ebsbench/note")" = "from the copy" ]

	# The OCI image's config: its title label from the copy.
	make -C "$ROOT" --no-print-directory build/ebsbench >/dev/null
	EBSBENCH_APPLIANCE=$conf bash "$ROOT/image/oci/build-oci.sh" --ebsbench "$ROOT/build/ebsbench" \
		"$BATS_TEST_TMPDIR/oci" >/dev/null 2>&1
	local manifest config
	manifest=$(jq -r '.manifests[0].digest' "$BATS_TEST_TMPDIR/oci/index.json")
	config=$(jq -r '.config.digest' "$BATS_TEST_TMPDIR/oci/blobs/sha256/${manifest#sha256:}")
	[ "$(jq -r '.config.Labels["org.opencontainers.image.title"]' "$BATS_TEST_TMPDIR/oci/blobs/sha256/${config#sha256:}")" = ebsbench-copy ]
}

@test "appliance.conf: an unknown key, a malformed line or a missing fact is a one-line error naming it" {
	kernel_and_initrd
	local conf="$BATS_TEST_TMPDIR/appliance.conf"
	sed 's/^cmdline = panic=10$/cmdlin = panic=10/' "$ROOT/image/appliance.conf" >"$conf"
	run env EBSBENCH_APPLIANCE="$conf" "$ROOT/tests/qemu/run-guest.sh" --kernel "$KERNEL" --initrd "$INITRD" --print-cmdline
	[ "$status" -eq 2 ]
	[[ $output == *"$conf:"[0-9]*": unknown key kernel.cmdlin: cmdlin = panic=10"* ]] || fail "$output"
	[ "${#lines[@]}" -eq 1 ] || fail "not one line: $output"
	sed 's/^name = ebsbench$/name ebsbench/' "$ROOT/image/appliance.conf" >"$conf"
	run env EBSBENCH_APPLIANCE="$conf" bash "$ROOT/image/uefi/build-uki.sh" --kernel "$KERNEL" --initrd "$INITRD" \
		"$BATS_TEST_TMPDIR/bad.efi"
	[ "$status" -eq 2 ]
	local line
	line=$(grep -n '^name ebsbench$' "$conf" | cut -d: -f1)
	[ "$output" = "build-uki: error: $conf:$line: not [section] or key = value: name ebsbench" ] || fail "$output"
	[ ! -e "$BATS_TEST_TMPDIR/bad.efi" ]
	grep -v '^esp_label = ' "$ROOT/image/appliance.conf" >"$conf"
	run env EBSBENCH_APPLIANCE="$conf" bash "$ROOT/image/uefi/build-disk.sh" "$BATS_TEST_TMPDIR/uki.efi" \
		"$BATS_TEST_TMPDIR/bad.raw"
	[ "$status" -eq 2 ]
	[[ $output == *"build-disk: error: $conf has no disk.esp_label"* ]] || fail "$output"
}
