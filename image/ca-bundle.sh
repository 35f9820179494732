#!/usr/bin/env bash
# ca-bundle.sh OUT
#
# Debian's CA bundle, made from the ca-certificates
# package's own files, for the images (initramfs and OCI).
#
# Never this host's /etc/ssl/certs/ca-certificates.crt: a machine may have
# added local CAs there (a proxy's, a sandbox's), which must not be
# trusted by every appliance built on it, and which would make the images'
# bytes depend on the build machine.  The bundle is what
# update-ca-certificates writes from the package alone: each certificate,
# a newline added where missing, in name order, after dpkg checked them
# against its checksums.  Prints "ca-certificates VERSION N" on stdout.
set -euo pipefail
export LC_ALL=C
PROG=ca-bundle
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
[ $# -eq 1 ] || usage
version=$(dpkg-query -W -f='${Status} ${Version}' ca-certificates 2>/dev/null || true)
[[ $version == "install ok installed "* ]] ||
	die "Debian's ca-certificates is not installed (apt-get install ca-certificates)"
version=${version##* }
mapfile -t files < <(dpkg-query -L ca-certificates | grep '^/usr/share/ca-certificates/mozilla/.*\.crt$' | sort)
((${#files[@]})) || die "ca-certificates lists no certificates"
bad=$(dpkg --verify ca-certificates 2>&1 | grep '/usr/share/ca-certificates/' || true)
[[ -z $bad ]] || die "ca-certificates files were changed locally: ${bad%%$'\n'*}"
for f in "${files[@]}"; do sed -e '$a\' "$f"; done >"$1"
chmod 0644 "$1"
echo "ca-certificates $version ${#files[@]}"
