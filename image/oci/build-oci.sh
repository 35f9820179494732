#!/usr/bin/env bash
# build-oci.sh - the ebsbench container image as an OCI image layout, built
# from scratch without a container engine, byte for byte reproducibly.
#
#   image/oci/build-oci.sh [--ebsbench PATH] OUTDIR
#
# OUTDIR gets oci-layout, index.json and blobs/sha256/ (one gzip layer, the
# config, the manifest); index.json tags the manifest with the version
# (org.opencontainers.image.ref.name), so `skopeo inspect oci:OUTDIR:0.1.0`
# and `skopeo copy oci:OUTDIR:0.1.0 docker://...` work.  OUTDIR must be
# absent, empty or a layout written before (it is replaced whole).
#
# The one layer holds:
#   /usr/local/bin/ebsbench                the static binary (default build/ebsbench)
#   /etc/ssl/certs/ca-certificates.crt     Debian's ca-certificates bundle, made from
#                                          the package's own files (never this host's
#                                          /etc/ssl/certs, which holds local CAs)
#   /etc/ebsbench/                         empty: the config is mounted here
#   /var/lib/ebsbench/                     WorkingDir: results go here
#   /tmp/                                  1777
#
# Reproducible: the same binary, commit and SOURCE_DATE_EPOCH (default: the
# last commit's time) give the same manifest digest on any Debian 12 machine
# with the same ca-certificates, gzip and tar: entries sorted by name, every
# mtime SOURCE_DATE_EPOCH, uid/gid 0 numeric, no atime/ctime or PID in pax
# headers, `gzip -n`, JSON with sorted keys.
#
# stdout: one line `oci-image sha256:<manifest digest> <bytes> bytes` (the
# bytes a pull transfers: manifest + config + compressed layer); progress
# and errors (one line, exit 2 for bad input, 1 otherwise) on stderr.
#
# Environment: SOURCE_DATE_EPOCH; EBSBENCH_REVISION (default: git HEAD,
# "-dirty" appended when the tree has changes); EBSBENCH_SOURCE (default:
# the git remote "origin" when it is a network URL).
set -euo pipefail
export LC_ALL=C TZ=UTC

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# Bad input exits 2, anything else 1 (die "..." 1).
PROG=build-oci DIE_STATUS=2
# shellcheck source=../lib.sh
. "$ROOT/image/lib.sh"

usage() {
	echo "usage: image/oci/build-oci.sh [--ebsbench PATH] OUTDIR" >&2
	exit 2
}

bin=$ROOT/build/ebsbench
out=
while (($#)); do
	case $1 in
	--ebsbench) (($# >= 2)) || die "--ebsbench needs a path"; bin=$2; shift 2 ;;
	--ebsbench=*) bin=${1#*=}; shift ;;
	-h | --help) usage ;;
	--) shift; (($# == 1)) || usage; out=$1; shift ;;
	-*) die "unknown option $1 (usage: build-oci.sh [--ebsbench PATH] OUTDIR)" ;;
	*) [[ -z $out ]] || die "one OUTDIR only (got $out and $1)"; out=$1; shift ;;
	esac
done
[[ -n $out ]] || die "no OUTDIR (usage: build-oci.sh [--ebsbench PATH] OUTDIR)"

# --- inputs, all checked before anything is written ------------------------

[[ -e $bin ]] || die "--ebsbench $bin: no such file (run make build/ebsbench first)"
[[ -f $bin && -x $bin ]] || die "--ebsbench $bin: not an executable file"
# What `make oci` needs beyond the binary's build, installed up front.
need_packages jq binutils ca-certificates
for tool in tar gzip sha256sum jq readelf dpkg-query; do
	command -v "$tool" >/dev/null || die "$tool is missing (apt-get install tar gzip coreutils jq binutils dpkg)" 1
done
# An image FROM scratch has no libc and no loader: only a static x86-64 ELF runs.
elf=$(readelf -hl "$bin" 2>/dev/null) || die "--ebsbench $bin: not an ELF executable"
grep -q 'Machine:.*X86-64' <<<"$elf" || die "--ebsbench $bin: not an x86-64 binary (the image is linux/amd64)"
! grep -q 'INTERP' <<<"$elf" || die "--ebsbench $bin: dynamically linked (the image has no libc): use the static build/ebsbench"

# OUTDIR: absent, empty, or an earlier layout (replaced as a whole).
out=${out%/}
[[ -n $out ]] || die "OUTDIR must not be /"
if [[ -e $out ]]; then
	[[ -d $out ]] || die "OUTDIR $out exists and is not a directory"
	[[ -z $(ls -A "$out") || -f $out/oci-layout ]] ||
		die "OUTDIR $out exists and is neither empty nor an OCI layout: not overwriting it"
fi

# The image config, from the description; the arrays must be arrays of strings.
entrypoint=$(appliance oci.entrypoint)
cmd=$(appliance_list oci.cmd)
for array in "$entrypoint" "${cmd:-[]}"; do
	jq -e 'type == "array" and all(type == "string")' <<<"$array" >/dev/null 2>&1 ||
		die "$(appliance_file): oci.entrypoint and oci.cmd must be JSON arrays of strings, not $array"
done
image_path=$(appliance oci.path)
workdir=$(appliance oci.workdir)
title=$(appliance oci.title)
description=$(appliance oci.description)

version=$(sed -n 's/^VERSION[[:space:]]*:=[[:space:]]*//p' "$ROOT/Makefile")
[[ -n $version ]] || die "no VERSION in $ROOT/Makefile" 1
said=$("$bin" --version 2>/dev/null) || die "--ebsbench $bin: \`ebsbench --version\` failed"
[[ $said == "ebsbench $version" ]] || die "--ebsbench $bin says '$said', the tree is $version (stale binary?)"

in_git() { git -C "$ROOT" rev-parse --git-dir >/dev/null 2>&1; }
if [[ -z ${SOURCE_DATE_EPOCH:-} ]]; then
	in_git || die "not a git tree: set SOURCE_DATE_EPOCH"
	SOURCE_DATE_EPOCH=$(git -C "$ROOT" log -1 --format=%ct)
fi
[[ $SOURCE_DATE_EPOCH =~ ^[0-9]+$ ]] || die "SOURCE_DATE_EPOCH '$SOURCE_DATE_EPOCH' is not a number of seconds"
created=$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%dT%H:%M:%SZ)

revision=${EBSBENCH_REVISION:-}
if [[ -z $revision ]]; then
	in_git || die "not a git tree: set EBSBENCH_REVISION"
	revision=$(git -C "$ROOT" rev-parse HEAD)
	if [[ -n $(git -C "$ROOT" status --porcelain 2>/dev/null) ]]; then
		revision+=-dirty
	fi
fi
source_url=${EBSBENCH_SOURCE:-}
if [[ -z $source_url ]] && in_git; then
	# Only a network URL: a local path would differ between two clones.
	source_url=$(git -C "$ROOT" remote get-url origin 2>/dev/null || true)
	[[ $source_url == *://* && $source_url != file://* ]] || source_url=
fi
[[ -n $source_url ]] || source_url=unknown

# --- build -----------------------------------------------------------------

[[ $revision != *-dirty ]] || say "warning: the tree has uncommitted changes: revision $revision"
mkdir -p "$(dirname "$out")"
work=$(mktemp -d "$(dirname "$out")/.build-oci.XXXXXX")
trap 'rm -rf "$work"' EXIT
umask 022
stage=$work/rootfs
layout=$work/layout
mkdir -p "$layout/blobs/sha256"

mkdir -p "$stage"
appliance_stage oci "$stage" "build/ebsbench=$bin" >"$work/manifest.txt"
ca_version=$(sed -n 's/.* ca-certificates=//p' "$work/manifest.txt")
[[ -n $ca_version ]] || die "[oci] of $(appliance_file) holds no ca_bundle" 1
say "rootfs: ebsbench $version ($(stat -c %s "$bin") bytes), ca-certificates $ca_version"

mapfile -t top < <(cd "$stage" && LC_ALL=C ls)
say "layer: tar (sorted, mtime @$SOURCE_DATE_EPOCH = $created, root:root) | gzip -n"
tar --create --file="$work/layer.tar" --directory="$stage" \
	--format=posix --pax-option=exthdr.name=%d/PaxHeaders/%f,delete=atime,delete=ctime \
	--sort=name --mtime="@$SOURCE_DATE_EPOCH" --owner=0 --group=0 --numeric-owner \
	--no-acls --no-xattrs --no-selinux \
	"${top[@]}"
diff_id=sha256:$(sha256sum <"$work/layer.tar" | cut -d' ' -f1)
gzip -n -9 <"$work/layer.tar" >"$work/layer.tar.gz"

# blob FILE -> moves FILE into the layout; prints "sha256:HEX SIZE".
blob() {
	local hex size
	hex=$(sha256sum <"$1" | cut -d' ' -f1)
	size=$(stat -c %s "$1")
	mv "$1" "$layout/blobs/sha256/$hex"
	echo "sha256:$hex $size"
}
# json FILE JQ_ARGS...: one compact JSON document, keys sorted, no newline.
json() {
	local f=$1
	shift
	jq -n -c -S -j "$@" >"$f"
}

read -r layer_digest layer_size < <(blob "$work/layer.tar.gz")

json "$work/config" --arg created "$created" --arg diff_id "$diff_id" \
	--arg path "PATH=$image_path" --arg workdir "$workdir" --argjson entrypoint "$entrypoint" \
	--argjson cmd "${cmd:-null}" --arg title "$title" --arg description "$description" \
	--arg version "$version" --arg revision "$revision" --arg source "$source_url" \
	--arg by "image/oci/build-oci.sh: ebsbench $version, Debian ca-certificates $ca_version" '{
	created: $created, architecture: "amd64", os: "linux",
	config: ({Entrypoint: $entrypoint, Env: [$path], WorkingDir: $workdir,
		Labels: {"org.opencontainers.image.title": $title,
			"org.opencontainers.image.description": $description,
			"org.opencontainers.image.version": $version,
			"org.opencontainers.image.revision": $revision,
			"org.opencontainers.image.source": $source}}
		+ (if $cmd == null then {} else {Cmd: $cmd} end)),
	rootfs: {type: "layers", diff_ids: [$diff_id]},
	history: [{created: $created, created_by: $by}]}'
read -r config_digest config_size < <(blob "$work/config")

json "$work/manifest" --arg cd "$config_digest" --argjson cs "$config_size" \
	--arg ld "$layer_digest" --argjson ls "$layer_size" '{
	schemaVersion: 2, mediaType: "application/vnd.oci.image.manifest.v1+json",
	config: {mediaType: "application/vnd.oci.image.config.v1+json", digest: $cd, size: $cs},
	layers: [{mediaType: "application/vnd.oci.image.layer.v1.tar+gzip", digest: $ld, size: $ls}]}'
read -r manifest_digest manifest_size < <(blob "$work/manifest")

json "$layout/index.json" --arg md "$manifest_digest" --argjson ms "$manifest_size" \
	--arg version "$version" '{
	schemaVersion: 2, mediaType: "application/vnd.oci.image.index.v1+json",
	manifests: [{mediaType: "application/vnd.oci.image.manifest.v1+json", digest: $md, size: $ms,
		platform: {architecture: "amd64", os: "linux"},
		annotations: {"org.opencontainers.image.ref.name": $version}}]}'
json "$layout/oci-layout" '{imageLayoutVersion: "1.0.0"}'

if [[ -e $out ]]; then
	[[ -f $out/oci-layout ]] && say "replacing the layout in $out"
	rm -rf "$out"
fi
mv "$layout" "$out"

total=$((manifest_size + config_size + layer_size))
say "$out: tag $version, layer $layer_digest ($layer_size bytes gzip, $(stat -c %s "$work/layer.tar") tar), revision $revision"
echo "oci-image $manifest_digest $total bytes"
