#!/usr/bin/env bash
# sbom.sh ARTIFACTS - the release's SPDX 2.3 JSON SBOM on stdout.
#
# ARTIFACTS is a file of "NAME sha256:HEX PATH" lines (image/release.sh
# writes it): ebsbench, ebsbench-init, kernel, initramfs, uki, disk, oci
# (its manifest digest) and oci-archive.  The SBOM names, each as an SPDX
# package with its version, where it comes from and its sha256:
#   - every Debian source package runner/deps/deps.sh pins (a NAME_VER=
#     line there: liburing, libaio, jansson, mbedtls, util-linux), the
#     hash being its .dsc's (the .dsc lists its tarballs' sha256, copied
#     into sourceInfo), from the cache deps.sh downloads them into;
#   - the Debian binary packages whose files ship: musl-dev (libc.a),
#     libgcc-12-dev (libgcc.a), linux-source-6.1 (the kernel's source, the
#     version image/appliance.conf pins), busybox-static, ca-certificates
#     and systemd-boot-efi (the UKI's stub), at the installed version, the
#     hash being the .deb's as apt's index lists it;
#   - ebsbench itself (this commit) and each artifact built from them;
# and the relationships: which binary links which library statically,
# which image contains what, what was built from what.  Deterministic:
# the one time in it is SOURCE_DATE_EPOCH's, the namespace is made of the
# version and the commit.  Errors: one line on stderr, exit 1.
set -euo pipefail
export LC_ALL=C TZ=UTC
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PROG=sbom
# shellcheck source=lib.sh
. "$ROOT/image/lib.sh"
[ $# -eq 1 ] && [ -f "$1" ] || usage
artifacts=$1
CACHE=${EBSBENCH_CACHE:-/var/cache/ebsbench}
DEBIAN=https://deb.debian.org/debian
DEBIAN_SECURITY=https://security.debian.org/debian-security

version=$(sed -n 's/^VERSION[[:space:]]*:=[[:space:]]*//p' "$ROOT/Makefile")
[ -n "$version" ] || die "no VERSION in $ROOT/Makefile"
revision=${EBSBENCH_REVISION:-$(git -C "$ROOT" rev-parse HEAD 2>/dev/null)} ||
	die "not a git tree: set EBSBENCH_REVISION"
[ -n "$revision" ] || die "not a git tree: set EBSBENCH_REVISION"
[[ ${SOURCE_DATE_EPOCH:-} =~ ^[0-9]+$ ]] || die "SOURCE_DATE_EPOCH '${SOURCE_DATE_EPOCH:-}' is not a number of seconds"
created=$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%dT%H:%M:%SZ)

# artifact NAME: its "sha256:HEX" from ARTIFACTS.
artifact() {
	local d
	d=$(awk -v n="$1" '$1 == n { print $2; exit }' "$artifacts")
	[[ $d =~ ^sha256:[0-9a-f]{64}$ ]] || die "$artifacts has no sha256 for $1"
	echo "${d#sha256:}"
}
# spdx_id TEXT: TEXT as an SPDX identifier's tail (letters, digits, . and -).
spdx_id() { echo "SPDXRef-${1//[^A-Za-z0-9.-]/-}"; }
# Declared licences, as each package's Debian copyright file states them.
declare -A LICENSE=(
	[liburing]="(LGPL-2.1-or-later OR MIT) AND (GPL-2.0-only WITH Linux-syscall-note OR MIT)"
	[libaio]=LGPL-2.1-or-later [jansson]=MIT [mbedtls]="Apache-2.0 OR GPL-2.0-or-later"
	[util-linux]=LGPL-2.1-or-later [musl-dev]=MIT
	[libgcc-12-dev]="GPL-3.0-or-later WITH GCC-exception-3.1" [linux-source-6.1]=GPL-2.0-only
	[busybox-static]=GPL-2.0-only [ca-certificates]=MPL-2.0 [systemd-boot-efi]=LGPL-2.1-or-later
)
declare -A COMMENT=(
	[util-linux]="Only libblkid is built and linked (LGPL-2.1-or-later)."
	[mbedtls]="Built with runner/deps/mbedtls_config.h (sha256 $(sha256sum <"$ROOT/runner/deps/mbedtls_config.h" | cut -c1-64)) as its config.h."
	[musl-dev]="Its libc.a is linked statically into ebsbench and ebsbench-init."
	[libgcc-12-dev]="Its libgcc.a is linked statically into ebsbench and ebsbench-init."
	[linux-source-6.1]="The kernel's source: make tinyconfig plus kernel-config/ebsbench.config, no modules."
	[busybox-static]="Shipped in the initramfs (/bin/busybox: udhcpc and the rescue shell)."
	[ca-certificates]="The CA bundle in the initramfs and the OCI image, made from the package's own files (image/ca-bundle.sh)."
	[systemd-boot-efi]="linuxx64.efi.stub: the UKI's EFI stub."
)

packages=()
# package JQ_ARGS... FILTER: one SPDX package object, appended to packages.
package() { packages+=("$(jq -n -c -S "$@")"); }

# --- the Debian source packages deps.sh pins -------------------------------
src_ids=()
while read -r var ver; do
	name=$(tr 'A-Z_' 'a-z-' <<<"${var%_VER}")
	dsc=$CACHE/src/${name}_${ver#*:}.dsc
	[ -f "$dsc" ] || die "$dsc not found: deps.sh downloads it (make deps, EBSBENCH_CACHE=$CACHE)"
	case $name in lib*) pool=${name:0:4} ;; *) pool=${name:0:1} ;; esac
	files=$(sed -n '/^Checksums-Sha256:/,/^[^ ]/s/^ \([0-9a-f]\{64\}\) [0-9]* \(.*\)/\2 sha256:\1/p' "$dsc" | paste -sd';' | sed 's/;/; /g')
	[ -n "$files" ] || die "$dsc lists no Checksums-Sha256"
	id=$(spdx_id "debian-src-$name")
	src_ids+=("$id")
	package --arg id "$id" --arg name "$name" --arg ver "$ver" --arg sha "$(sha256sum <"$dsc" | cut -c1-64)" \
		--arg url "$DEBIAN/pool/main/$pool/$name/$(basename "$dsc")" --arg files "$files" \
		--arg lic "${LICENSE[$name]:-NOASSERTION}" --arg comment "${COMMENT[$name]:-}" '{
		SPDXID: $id, name: $name, versionInfo: $ver, supplier: "Organization: Debian",
		downloadLocation: $url, filesAnalyzed: false, primaryPackagePurpose: "SOURCE",
		checksums: [{algorithm: "SHA256", checksumValue: $sha}],
		sourceInfo: ("Debian bookworm source package \($name) \($ver), pinned in runner/deps/deps.sh; the checksum is its .dsc'"'"'s, which lists: \($files)"),
		licenseConcluded: "NOASSERTION", licenseDeclared: $lic, copyrightText: "NOASSERTION",
		externalRefs: [{referenceCategory: "PACKAGE-MANAGER", referenceType: "purl",
			referenceLocator: "pkg:deb/debian/\($name)@\($ver)?arch=source&distro=debian-12"}]}
		+ (if $comment == "" then {} else {comment: $comment} end)'
done < <(sed -n 's/^\([A-Z][A-Z0-9_]*_VER\)=\([^[:space:]#]*\).*/\1 \2/p' "$ROOT/runner/deps/deps.sh")
((${#src_ids[@]})) || die "runner/deps/deps.sh pins no NAME_VER= source"

# --- the Debian binary packages whose files ship ---------------------------
kernel_pkg=$(appliance kernel.source_package)
kernel_ver=$(appliance kernel.source_version)
read -r _ stub_pkg <<<"$(appliance uki.stub)"
# binary PKG VERSION: its package object; the .deb's sha256 and pool path
# from apt's index (a version apt no longer lists gets NOASSERTION).
binary() {
	local pkg=$1 ver=$2 show sha="" file="" url=NOASSERTION id arch
	show=$(apt-cache show "$pkg=$ver" 2>/dev/null || true)
	arch=$(sed -n 's/^Architecture: //p' <<<"$show" | head -n1)
	sha=$(sed -n 's/^SHA256: //p' <<<"$show" | head -n1)
	file=$(sed -n 's/^Filename: //p' <<<"$show" | head -n1)
	if [ -n "$file" ]; then
		case $file in pool/updates/*) url=$DEBIAN_SECURITY/$file ;; *) url=$DEBIAN/$file ;; esac
	fi
	[ -n "$sha" ] || say "warning: apt's index does not list $pkg=$ver: no hash for it in the SBOM"
	id=$(spdx_id "debian-$pkg")
	package --arg id "$id" --arg name "$pkg" --arg ver "$ver" --arg sha "$sha" --arg url "$url" \
		--arg arch "${arch:+arch=$arch&}" --arg lic "${LICENSE[$pkg]:-NOASSERTION}" --arg comment "${COMMENT[$pkg]:-}" '{
		SPDXID: $id, name: $name, versionInfo: $ver, supplier: "Organization: Debian",
		downloadLocation: $url, filesAnalyzed: false, primaryPackagePurpose: "LIBRARY",
		sourceInfo: "Debian bookworm binary package \($name) \($ver), as installed on the build machine",
		licenseConcluded: "NOASSERTION", licenseDeclared: $lic, copyrightText: "NOASSERTION",
		externalRefs: [{referenceCategory: "PACKAGE-MANAGER", referenceType: "purl",
			referenceLocator: "pkg:deb/debian/\($name)@\($ver)?\($arch)distro=debian-12"}]}
		+ (if $sha == "" then {} else {checksums: [{algorithm: "SHA256", checksumValue: $sha}]} end)
		+ (if $comment == "" then {} else {comment: $comment} end)'
}
installed() {
	dpkg-query -W -f='${Version}' "$1" 2>/dev/null || die "Debian package $1 is not installed"
}
for pkg in musl-dev libgcc-12-dev busybox-static ca-certificates "$stub_pkg"; do
	binary "$pkg" "$(installed "$pkg")"
done
binary "$kernel_pkg" "$kernel_ver"

# --- ebsbench and what was built from it -----------------------------------
source_url=${EBSBENCH_SOURCE:-NOASSERTION}
package --arg ver "$version" --arg rev "$revision" --arg url "$source_url" '{
	SPDXID: "SPDXRef-ebsbench-source", name: "ebsbench", versionInfo: $ver,
	downloadLocation: $url, filesAnalyzed: false, primaryPackagePurpose: "SOURCE",
	sourceInfo: "git commit \($rev)", licenseConcluded: "NOASSERTION",
	licenseDeclared: "Apache-2.0", copyrightText: "NOASSERTION"}'
# built ID NAME FILE PURPOSE SHA COMMENT [VERSION]: an artifact of this build.
built() {
	package --arg id "SPDXRef-$1" --arg name "$2" --arg file "$3" --arg purpose "$4" --arg sha "$5" \
		--arg comment "$6" --arg ver "${7:-$version}" --arg created "$created" '{
		SPDXID: $id, name: $name, versionInfo: $ver, packageFileName: $file,
		downloadLocation: "NOASSERTION", filesAnalyzed: false, primaryPackagePurpose: $purpose,
		builtDate: $created, checksums: [{algorithm: "SHA256", checksumValue: $sha}],
		licenseConcluded: "NOASSERTION", licenseDeclared: "NOASSERTION", copyrightText: "NOASSERTION",
		comment: $comment}'
}
oci=$(artifact oci)
built ebsbench ebsbench ebsbench APPLICATION "$(artifact ebsbench)" \
	"The static musl binary (make build/ebsbench), shipped as dist/ebsbench."
built ebsbench-init ebsbench-init ebsbench-init APPLICATION "$(artifact ebsbench-init)" \
	"PID 1 of the appliance (make build/ebsbench-init), in the initramfs as /init."
built kernel linux bzImage OPERATING_SYSTEM "$(artifact kernel)" \
	"The appliance kernel (kernel-config/build-kernel.sh) from $kernel_pkg $kernel_ver." \
	"$kernel_ver"
built initramfs ebsbench-initramfs initramfs.cpio.gz ARCHIVE "$(artifact initramfs)" \
	"The appliance's root (image/build-initramfs.sh); /etc/ebsbench/image.txt in it lists each file's sha256."
built uki ebsbench-uki ebsbench.efi OPERATING_SYSTEM "$(artifact uki)" \
	"The unified kernel image (image/uefi/build-uki.sh); its command line names ebsbench.image_digest=$(awk '$1 == "appliance" { print $2 }' "$artifacts")."
built disk ebsbench-disk ebsbench-disk.raw OPERATING_SYSTEM "$(artifact disk)" \
	"The UEFI GPT disk image an AMI is imported from (image/uefi/build-disk.sh); shipped as ebsbench-disk.raw.gz (gzip -9n), the checksum is the raw image's."
built oci ebsbench-oci-image ebsbench-oci.tar CONTAINER "$(artifact oci-archive)" \
	"The OCI image (image/oci/build-oci.sh) as an OCI archive, tag $version; its manifest digest is sha256:$oci."
packages[-1]=$(jq -c -S --arg ref "pkg:oci/ebsbench@sha256:$oci?tag=$version" \
	'.externalRefs = [{referenceCategory: "PACKAGE-MANAGER", referenceType: "purl", referenceLocator: $ref}]' \
	<<<"${packages[-1]}")

# --- relationships ----------------------------------------------------------
rels=()
rel() { rels+=("$1 $2 $3"); }
for a in ebsbench uki disk oci; do rel SPDXRef-DOCUMENT DESCRIBES "SPDXRef-$a"; done
rel SPDXRef-ebsbench GENERATED_FROM SPDXRef-ebsbench-source
rel SPDXRef-ebsbench-init GENERATED_FROM SPDXRef-ebsbench-source
for id in "${src_ids[@]}"; do rel SPDXRef-ebsbench STATIC_LINK "$id"; done
# init links jansson and libm only (the Makefile's INIT_LIBS).
rel SPDXRef-ebsbench-init STATIC_LINK "$(spdx_id debian-src-jansson)"
for b in ebsbench ebsbench-init; do
	rel "SPDXRef-$b" STATIC_LINK "$(spdx_id debian-musl-dev)"
	rel "SPDXRef-$b" STATIC_LINK "$(spdx_id debian-libgcc-12-dev)"
done
rel SPDXRef-kernel GENERATED_FROM "$(spdx_id "debian-$kernel_pkg")"
for c in SPDXRef-ebsbench SPDXRef-ebsbench-init "$(spdx_id debian-busybox-static)" "$(spdx_id debian-ca-certificates)"; do
	rel SPDXRef-initramfs CONTAINS "$c"
done
for c in SPDXRef-kernel SPDXRef-initramfs "$(spdx_id "debian-$stub_pkg")"; do rel SPDXRef-uki CONTAINS "$c"; done
rel SPDXRef-disk CONTAINS SPDXRef-uki
rel SPDXRef-oci CONTAINS SPDXRef-ebsbench
rel SPDXRef-oci CONTAINS "$(spdx_id debian-ca-certificates)"

printf '%s\n' "${packages[@]}" | jq -s -S --arg version "$version" --arg rev "$revision" \
	--arg created "$created" --arg rels "$(printf '%s\n' "${rels[@]}")" '{
	spdxVersion: "SPDX-2.3", dataLicense: "CC0-1.0", SPDXID: "SPDXRef-DOCUMENT",
	name: "ebsbench-\($version)",
	documentNamespace: "https://spdx.org/spdxdocs/ebsbench-\($version)-\($rev)",
	creationInfo: {created: $created, creators: ["Tool: ebsbench image/sbom.sh"]},
	packages: .,
	relationships: ($rels | split("\n") | map(select(. != "") | split(" ")
		| {spdxElementId: .[0], relationshipType: .[1], relatedSpdxElement: .[2]}))}'
