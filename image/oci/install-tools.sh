#!/usr/bin/env bash
# install-tools.sh - the Debian packages for checking and running the OCI
# image here, installed only when missing (safe before every test run, as
# root): skopeo (inspect, copy to a registry), umoci (unpack to a runtime
# bundle), runc and crun (run the bundle).  build-oci.sh itself needs none
# of them: tar, gzip, coreutils, jq, binutils and dpkg.
set -euo pipefail

# One install at a time (concurrent test files); apt waits for its own lock.
exec 9>"${TMPDIR:-/tmp}/ebsbench-oci-install.lock"
flock -w 600 9 || { echo "oci: install lock busy" >&2; exit 1; }

missing=()
for p in skopeo umoci runc crun jq binutils ca-certificates; do
	[[ $(dpkg-query -W -f='${Status}' "$p" 2>/dev/null) == "install ok installed" ]] || missing+=("$p")
done
((${#missing[@]})) || exit 0
echo "oci: installing ${missing[*]}" >&2
apt_wait=(-o DPkg::Lock::Timeout=300)
apt-get "${apt_wait[@]}" update -qq
DEBIAN_FRONTEND=noninteractive apt-get "${apt_wait[@]}" install -y -qq --no-install-recommends \
	"${missing[@]}" >/dev/null
