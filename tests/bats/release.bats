#!/usr/bin/env bats
# release.bats - `make release` (image/release.sh, image/sbom.sh) in a clean
# clone: dist/ holds the binary, the OCI archive, the gzipped disk image,
# the UKI, the SPDX SBOM and SHA256SUMS, which verifies; skopeo reads the
# archive and finds the OCI layout's manifest digest; the SBOM names every
# source runner/deps/deps.sh pins with its version and its .dsc's sha256,
# and every artifact with its own; a second clone in another directory
# writes the same bytes.  image.bats builds the images twice from nothing;
# the second clone here reuses the first one's compiled binaries and checks
# the packing.

bats_require_minimum_version 1.5.0

load helpers
load_bats_libs

REPO=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
VERSION=0.1.0
CACHE=${EBSBENCH_CACHE:-/var/cache/ebsbench}

# clone DIR: a clean clone of this commit sharing this tree's static
# libraries (building them takes minutes; the binaries are the clone's own).
clone() {
	git clone -q "$REPO" "$1"
	mkdir "$1/build"
	ln -s "$REPO/build/deps" "$1/build/deps"
	# A checkout is newer than the libraries' stamp: keep make from
	# running deps.sh again.
	touch -d 2020-01-01 "$1"/runner/deps/*
}

setup_file() {
	[ -f "$REPO/build/deps/.stamp-all" ] || {
		echo "# no $REPO/build/deps: run make deps first" >&2
		return 1
	}
	local a=$BATS_FILE_TMPDIR/a t0=$SECONDS
	clone "$a"
	env -u SOURCE_DATE_EPOCH -u EBSBENCH_REVISION -u EBSBENCH_SOURCE \
		make -C "$a" --no-print-directory release >"$BATS_FILE_TMPDIR/a.out" 2>"$BATS_FILE_TMPDIR/a.log" || {
		tail -n 20 "$BATS_FILE_TMPDIR/a.log" >&2
		return 1
	}
	echo "# make release in a clean clone: $((SECONDS - t0)) s" >&3
	export A=$a OUT=$BATS_FILE_TMPDIR/a.out
	EPOCH=$(git -C "$a" log -1 --format=%ct)
	export EPOCH
}

setup() {
	cd "$BATS_TEST_TMPDIR"
}

# checksum SPDXID: that package's sha256 in dist/'s SBOM.
checksum() {
	jq -r --arg id "$1" '.packages[] | select(.SPDXID == $id) | .checksums[0].checksumValue' "$A/dist/sbom.spdx.json"
}

@test "dist/: the binary, the OCI archive, the disk image, the UKI, the SBOM; SHA256SUMS verifies; stdout names each" {
	assert_equal "$(cd "$A/dist" && ls)" "$(printf '%s\n' LICENSE SHA256SUMS ebsbench ebsbench-disk.raw.gz \
		ebsbench-oci.tar ebsbench.efi sbom.spdx.json)"
	# Every file but itself, in sha256sum's format, and each one right.
	assert_equal "$(awk '{ print $2 }' "$A/dist/SHA256SUMS")" "$(cd "$A/dist" && ls | grep -vx SHA256SUMS)"
	run -0 bash -c 'cd "$1/dist" && sha256sum --strict -c SHA256SUMS' _ "$A"
	# The shipped files are the ones make image built.
	cmp "$A/dist/ebsbench" "$A/build/ebsbench"
	cmp "$A/dist/LICENSE" "$A/LICENSE"
	cmp "$A/dist/ebsbench.efi" "$A/build/ebsbench.efi"
	gzip -dc "$A/dist/ebsbench-disk.raw.gz" >disk.raw
	cmp disk.raw "$A/build/ebsbench-disk.raw"
	# gzip -n: no name and no time in the header (bytes 4-7 are the mtime).
	assert_equal "$(od -An -tx1 -j3 -N5 "$A/dist/ebsbench-disk.raw.gz" | tr -d ' ')" 0000000000
	# stdout: a line per file, then the OCI and appliance digests.
	local f
	for f in LICENSE SHA256SUMS ebsbench ebsbench-disk.raw.gz ebsbench-oci.tar ebsbench.efi sbom.spdx.json; do
		grep -qx "$f sha256:$(sha256sum <"$A/dist/$f" | cut -c1-64) dist/$f" "$OUT" || fail "no line for $f: $(cat "$OUT")"
	done
	assert_equal "$(wc -l <"$OUT")" 9
	grep -Eqx 'oci sha256:[0-9a-f]{64} dist/ebsbench-oci.tar' "$OUT"
	grep -Eqx 'appliance sha256:[0-9a-f]{64} dist/ebsbench.efi' "$OUT"
	# No time but SOURCE_DATE_EPOCH, even on the files.
	assert_equal "$(stat -c %Y "$A"/dist/* | sort -u)" "$EPOCH"
}

@test "the OCI archive: skopeo reads it, its manifest digest is the layout's; docker load's manifest.json names the same blobs" {
	local layout digest
	layout=$(jq -r '.manifests[0].digest' "$A/build/oci/index.json")
	digest=$(skopeo inspect --format '{{.Digest}}' "oci-archive:$A/dist/ebsbench-oci.tar:$VERSION")
	assert_equal "$digest" "$layout"
	grep -qx "oci $layout dist/ebsbench-oci.tar" "$OUT"
	run -0 skopeo inspect "oci-archive:$A/dist/ebsbench-oci.tar:$VERSION"
	assert_equal "$(jq -r '.Labels["org.opencontainers.image.revision"]' <<<"$output")" "$(git -C "$A" rev-parse HEAD)"
	# The archive holds the layout's files byte for byte, root-owned, one mtime.
	mkdir x
	tar -xf "$A/dist/ebsbench-oci.tar" -C x
	diff -r -x manifest.json x "$A/build/oci"
	run -0 env TZ=UTC tar --numeric-owner -tvf "$A/dist/ebsbench-oci.tar"
	assert_equal "${#lines[@]}" 8
	awk -v d="$(date -u -d "@$EPOCH" '+%Y-%m-%d %H:%M')" '$2 != "0/0" || $4 " " $5 != d { bad = 1; print } END { exit bad }' \
		<<<"$output"
	# docker save's manifest.json (what docker load reads): the same config
	# and layer, tagged; skopeo's docker-archive reader takes it.
	local manifest
	manifest=$(cat "x/blobs/sha256/${layout#sha256:}")
	assert_equal "$(jq -c '[.[] | .Config, .Layers[], .RepoTags[]]' x/manifest.json)" \
		"$(jq -c --arg tag "ebsbench:$VERSION" '[.config.digest, .layers[].digest, $tag] |
			map(sub("^sha256:"; "blobs/sha256/"))' <<<"$manifest")"
	run -0 skopeo inspect "docker-archive:$A/dist/ebsbench-oci.tar"
	assert_equal "$(jq -r '.Layers | length' <<<"$output")" 1
}

@test "the SBOM: SPDX 2.3 naming every deps.sh source with its version and .dsc sha256, and every artifact with its own" {
	local sbom=$A/dist/sbom.spdx.json var ver name n=0
	assert_equal "$(jq -r '.spdxVersion + " " + .dataLicense + " " + .SPDXID' "$sbom")" "SPDX-2.3 CC0-1.0 SPDXRef-DOCUMENT"
	assert_equal "$(jq -r .creationInfo.created "$sbom")" "$(date -u -d "@$EPOCH" +%Y-%m-%dT%H:%M:%SZ)"
	# Each package has the fields SPDX 2.3 requires, and a unique SPDXID.
	jq -e '.packages | all(.SPDXID and .name and .downloadLocation and (.SPDXID | test("^SPDXRef-[A-Za-z0-9.-]+$")))' "$sbom"
	jq -e '.packages | map(.SPDXID) | length == (unique | length)' "$sbom"
	# The enumerations in SPDX 2.3's JSON spelling (its schema's enums).
	jq -e '.packages | all(.primaryPackagePurpose | IN("APPLICATION", "FRAMEWORK", "LIBRARY", "CONTAINER",
		"OPERATING_SYSTEM", "DEVICE", "FIRMWARE", "SOURCE", "ARCHIVE", "FILE", "INSTALL", "OTHER"))' "$sbom"
	jq -e '[.packages[].checksums[]?.algorithm] | all(. == "SHA256")' "$sbom"
	jq -e '.relationships | all(.relationshipType | IN("DESCRIBES", "CONTAINS", "STATIC_LINK", "GENERATED_FROM"))' "$sbom"
	# Every relationship joins two elements the document has.
	jq -e '(.packages | map(.SPDXID) + ["SPDXRef-DOCUMENT"]) as $ids |
		.relationships | length > 0 and all(.spdxElementId as $a | .relatedSpdxElement as $b |
		($ids | index($a)) and ($ids | index($b)))' "$sbom"
	# Every pinned source, read from deps.sh itself: a bump the SBOM misses fails here.
	while read -r var ver; do
		name=$(tr 'A-Z_' 'a-z-' <<<"${var%_VER}")
		[ -f "$CACHE/src/${name}_$ver.dsc" ] || fail "no $CACHE/src/${name}_$ver.dsc"
		jq -e --arg n "$name" --arg v "$ver" --arg sha "$(sha256sum <"$CACHE/src/${name}_$ver.dsc" | cut -c1-64)" \
			'[.packages[] | select(.name == $n and .versionInfo == $v and .checksums[0].checksumValue == $sha)] | length == 1' \
			"$sbom" >/dev/null || fail "$name $ver with its .dsc's sha256 is not in the SBOM"
		jq -e --arg n "$name" '.relationships[] | select(.spdxElementId == "SPDXRef-ebsbench" and
			.relationshipType == "STATIC_LINK" and .relatedSpdxElement == "SPDXRef-debian-src-" + $n)' "$sbom" >/dev/null ||
			fail "the SBOM does not say ebsbench links $name"
		n=$((n + 1))
	done < <(grep -E '^[A-Z_]+_VER=' "$REPO/runner/deps/deps.sh" | sed 's/=/ /; s/[[:space:]]*#.*//')
	[ "$n" -ge 5 ] || fail "deps.sh pins $n sources"
	# The libc, the kernel's source, the appliance's packages: their versions.
	local pkg
	for pkg in musl-dev busybox-static ca-certificates systemd-boot-efi; do
		jq -e --arg n "$pkg" --arg v "$(dpkg-query -W -f='${Version}' "$pkg")" \
			'[.packages[] | select(.name == $n and .versionInfo == $v)] | length == 1' "$sbom" >/dev/null ||
			fail "$pkg is not in the SBOM at its installed version"
	done
	jq -e --arg v "$(sed -n 's/^source_version = //p' "$REPO/image/appliance.conf")" \
		'.packages[] | select(.name == "linux-source-6.1" and .versionInfo == $v)' "$sbom" >/dev/null
	# The artifacts: each checksum is the file's.
	assert_equal "$(checksum SPDXRef-ebsbench)" "$(sha256sum <"$A/dist/ebsbench" | cut -c1-64)"
	assert_equal "$(checksum SPDXRef-uki)" "$(sha256sum <"$A/dist/ebsbench.efi" | cut -c1-64)"
	assert_equal "$(checksum SPDXRef-disk)" "$(gzip -dc "$A/dist/ebsbench-disk.raw.gz" | sha256sum | cut -c1-64)"
	assert_equal "$(checksum SPDXRef-oci)" "$(sha256sum <"$A/dist/ebsbench-oci.tar" | cut -c1-64)"
	assert_equal "$(checksum SPDXRef-initramfs)" "$(sha256sum <"$A/build/initramfs.cpio.gz" | cut -c1-64)"
}

@test "a second clean clone, in another directory, writes the same dist/" {
	local b=$BATS_TEST_TMPDIR/second/b t0=$SECONDS
	mkdir -p "${b%/*}"
	clone "$b"
	# The first clone's compiled objects and binaries, copied after the
	# checkout so make finds them up to date: this checks the packing.
	(cd "$A/build" && find . -path ./deps -prune -o -type f -print | cpio -pdm --quiet "$b/build")
	find "$b/build" -path "$b/build/deps" -prune -o -type f -exec touch {} +
	run --separate-stderr env -u SOURCE_DATE_EPOCH -u EBSBENCH_REVISION -u EBSBENCH_SOURCE make -C "$b" --no-print-directory release
	assert_success
	echo "# the second clone's make release: $((SECONDS - t0)) s" >&3
	assert_equal "$output" "$(cat "$OUT")"
	cmp "$A/dist/SHA256SUMS" "$b/dist/SHA256SUMS"
	diff -r "$A/dist" "$b/dist"
}

@test "bad input: an argument, a missing .dsc: one line naming it, non-zero, dist/ untouched" {
	run --separate-stderr bash "$A/image/release.sh" extra
	assert_failure 2
	assert_equal "$stderr" "release: error: no arguments: make release writes dist/"
	echo "x sha256:0 x" >artifacts
	run --separate-stderr env EBSBENCH_CACHE="$BATS_TEST_TMPDIR/nocache" SOURCE_DATE_EPOCH="$EPOCH" \
		bash "$A/image/sbom.sh" artifacts
	assert_failure 1
	assert_equal "$output" ""
	[[ $stderr == "sbom: error: $BATS_TEST_TMPDIR/nocache/src/liburing_"*".dsc not found: deps.sh downloads it"* ]] ||
		fail "stderr: $stderr"
	assert_equal "${#stderr_lines[@]}" 1
	run -0 bash -c 'cd "$1/dist" && sha256sum --quiet -c SHA256SUMS' _ "$A"
}
