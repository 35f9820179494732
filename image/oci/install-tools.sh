#!/usr/bin/env bash
# install-tools.sh - the Debian packages for checking and running the OCI
# image here, installed only when missing (safe before every test run, as
# root): skopeo (inspect, copy to a registry), umoci (unpack to a runtime
# bundle), runc and crun (run the bundle).  build-oci.sh itself needs none
# of them: tar, gzip, coreutils, jq, binutils and dpkg.
set -euo pipefail
PROG=oci
# shellcheck source=../lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

# One install at a time (concurrent test files); apt waits for its own lock.
exec 9>"${TMPDIR:-/tmp}/ebsbench-oci-install.lock"
flock -w 600 9 || die "install lock busy"
need_packages skopeo umoci runc crun jq binutils ca-certificates
