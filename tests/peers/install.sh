#!/usr/bin/env bash
# install.sh - make this Debian 12 machine ready for the test peers, doing
# only what is missing (safe to run before every test run, as root):
#   - node_modules from package-lock.json (`npm ci`) when absent or older
#     than the lock file (@20minutes/s3rver 4.0.4: SigV4-checking S3 server);
#   - Debian packages nginx-light, openssl, python3-boto3, curl, procps.
# node and npm come with the machine (Node 20).
set -euo pipefail

PEERS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# One install at a time (concurrent test files); apt waits for its own lock.
exec 9>"${TMPDIR:-/tmp}/ebsbench-peers-install.lock"
flock -w 600 9 || { echo "peers: install lock busy" >&2; exit 1; }
apt_wait=(-o DPkg::Lock::Timeout=300)

missing=()
for p in nginx-light openssl python3-boto3 curl procps; do
	# Any nginx flavour will do.
	[[ $p == nginx-light ]] && command -v nginx >/dev/null && continue
	[[ $(dpkg-query -W -f='${Status}' "$p" 2>/dev/null) == "install ok installed" ]] || missing+=("$p")
done
if ((${#missing[@]})); then
	echo "peers: installing ${missing[*]}"
	# Use a fresh package list; keep the system nginx from starting (we run
	# private instances only).
	apt-get "${apt_wait[@]}" update -qq
	policy=/usr/sbin/policy-rc.d
	own_policy=0
	if [[ ! -e $policy ]]; then
		printf '#!/bin/sh\nexit 101\n' >"$policy"
		chmod +x "$policy"
		own_policy=1
	fi
	rc=0
	DEBIAN_FRONTEND=noninteractive apt-get "${apt_wait[@]}" install -y -qq --no-install-recommends \
		"${missing[@]}" >/dev/null || rc=$?
	((own_policy)) && rm -f "$policy"
	((rc == 0)) || exit "$rc"
fi

stamp=$PEERS/node_modules/.package-lock.json # npm writes it on every install
if [[ ! -f $stamp || $PEERS/package-lock.json -nt $stamp ||
	! -d $PEERS/node_modules/@20minutes/s3rver ]]; then
	echo "peers: npm ci in $PEERS"
	(cd "$PEERS" && npm ci --no-audit --no-fund --loglevel=error)
fi
