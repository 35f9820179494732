#!/usr/bin/env bash
# release.sh - what `make release` runs: every launch artifact, built by
# image/build-image.sh, packed into dist/ with its digest and an SBOM.
#
#   dist/ebsbench               the static binary (EC2 user-data, any host)
#   dist/ebsbench-oci.tar       the OCI image as an OCI archive: `skopeo copy
#                               oci-archive:...` pushes it; beside index.json,
#                               the manifest.json `docker save` writes, which
#                               `docker load -i` reads (not tried with a
#                               daemon; skopeo's docker-archive: reads it)
#   dist/ebsbench-disk.raw.gz   the UEFI disk image an AMI is imported from
#                               (gzip -9n: 64 MiB of mostly zeros; gunzip it
#                               for image/ami/make-ami.sh)
#   dist/ebsbench.efi           the UKI (kernel + initramfs + command line)
#   dist/sbom.spdx.json         SPDX 2.3: every pinned source, its version
#                               and hash, and what each artifact holds
#                               (image/sbom.sh)
#   dist/LICENSE                ebsbench's licence (Apache-2.0; docs/release.md
#                               says what the others ask)
#   dist/SHA256SUMS             `sha256sum -c` format, every file above
#
# Reproducible: two clean trees of one commit, on machines with the same
# Debian packages, write the same bytes.  The only time anywhere is
# SOURCE_DATE_EPOCH (default: the last commit's); dist/ is replaced whole.
#
# stdout: "NAME sha256:HEX PATH" lines: each file of dist/, then the OCI
# manifest digest (what a Pod pins) and the appliance digest (what
# results.json names); progress and errors (one line) on stderr.
set -euo pipefail
export LC_ALL=C TZ=UTC
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
PROG=release
# shellcheck source=lib.sh
. image/lib.sh
[ $# -eq 0 ] || die "no arguments: make release writes dist/" 2
for tool in git tar gzip jq sha256sum skopeo apt-cache; do
	command -v "$tool" >/dev/null || die "$tool is missing (runner/deps/deps.sh installs it)"
done
git rev-parse --git-dir >/dev/null 2>&1 || die "not a git tree: a release is made from a commit"
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct)}
# One revision for the OCI labels and the SBOM alike.
if [ -z "${EBSBENCH_REVISION:-}" ]; then
	EBSBENCH_REVISION=$(git rev-parse HEAD)
	[ -z "$(git status --porcelain)" ] || EBSBENCH_REVISION+=-dirty
fi
export EBSBENCH_REVISION
[[ $EBSBENCH_REVISION != *-dirty ]] || say "warning: the tree has uncommitted changes: revision $EBSBENCH_REVISION"
version=$(sed -n 's/^VERSION[[:space:]]*:=[[:space:]]*//p' Makefile)
sha() { sha256sum <"$1" | cut -c1-64; }

mkdir -p build
work=$(mktemp -d "$root/build/.release.XXXXXX")
trap 'rm -rf "$work"' EXIT
out=$work/dist
mkdir "$out"
bash image/build-image.sh >"$work/images"
# image FIELD NAME: build-image's digest (2) or path (3) of artifact NAME.
image() {
	local v
	v=$(awk -v n="$2" -v f="$1" '$1 == n { print $f; exit }' "$work/images")
	[ -n "$v" ] || die "image/build-image.sh printed no $2 line"
	echo "$v"
}
umask 022

say "dist: the binary, its licence, the UKI, the disk image (gzip -9n)"
cp build/ebsbench "$out/ebsbench"
cp LICENSE "$out/LICENSE"
cp "$(image 3 uki)" "$out/ebsbench.efi"
gzip -9n <"$(image 3 disk)" >"$out/ebsbench-disk.raw.gz"

# The OCI layout as an archive, packed as the layer is (sorted, one mtime,
# root-owned, no atime/ctime), plus docker save's manifest.json: docker
# load reads that, skopeo and every OCI tool read index.json.
say "dist: the OCI archive (tag $version)"
layout=$(image 3 oci)
cp -a "$layout" "$work/oci"
manifest=$(jq -r '.manifests[0].digest' "$work/oci/index.json")
[ "sha256:${manifest#sha256:}" = "$(image 2 oci)" ] || die "$layout/index.json names $manifest, not $(image 2 oci)"
blob=$work/oci/blobs/sha256
jq -n -c -S -j --arg config "blobs/sha256/$(jq -r '.config.digest | ltrimstr("sha256:")' "$blob/${manifest#sha256:}")" \
	--arg tag "ebsbench:$version" --argjson layers "$(jq -c '[.layers[].digest | "blobs/sha256/" + ltrimstr("sha256:")]' \
		"$blob/${manifest#sha256:}")" '[{Config: $config, RepoTags: [$tag], Layers: $layers}]' >"$work/oci/manifest.json"
(cd "$work/oci" && tar --create --file="$out/ebsbench-oci.tar" \
	--format=posix --pax-option=exthdr.name=%d/PaxHeaders/%f,delete=atime,delete=ctime \
	--sort=name --mtime="@$SOURCE_DATE_EPOCH" --owner=0 --group=0 --numeric-owner \
	--mode=a+rX,go-w --no-acls --no-xattrs --no-selinux \
	blobs index.json manifest.json oci-layout)
said=$(skopeo inspect --raw "oci-archive:$out/ebsbench-oci.tar:$version" | sha256sum | cut -c1-64)
[ "sha256:$said" = "$manifest" ] || die "skopeo reads manifest sha256:$said from the archive, not $manifest"

say "dist: the SBOM"
{
	cat "$work/images"
	echo "ebsbench sha256:$(sha build/ebsbench) build/ebsbench"
	echo "ebsbench-init sha256:$(sha build/ebsbench-init) build/ebsbench-init"
	echo "oci-archive sha256:$(sha "$out/ebsbench-oci.tar") dist/ebsbench-oci.tar"
} >"$work/artifacts"
bash image/sbom.sh "$work/artifacts" >"$out/sbom.spdx.json"

mapfile -t files < <(cd "$out" && ls)
(cd "$out" && sha256sum -- "${files[@]}") >"$out/SHA256SUMS"
find "$out" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
rm -rf dist
mv "$out" dist
for f in "${files[@]}" SHA256SUMS; do echo "$f sha256:$(sha "dist/$f") dist/$f"; done
echo "oci $manifest dist/ebsbench-oci.tar"
echo "appliance $(image 2 appliance) dist/ebsbench.efi"
say "dist/: ${#files[@]} files and SHA256SUMS ($(du -sh dist | cut -f1)); check with: cd dist && sha256sum -c SHA256SUMS"
