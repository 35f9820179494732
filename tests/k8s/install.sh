#!/usr/bin/env bash
# install.sh - node_modules for validate.js from package-lock.json (`npm ci`),
# only when missing or older than the lock file: safe to run before every
# test run.  Pinned: kubernetes-models 5.1.0 (the Kubernetes API schemas up
# to storage.k8s.io/v1 VolumeAttributesClass, which 4.5.1 lacks; ES modules
# only, loaded by validate.js with import(); it declares Node >= 22 and runs
# on the machine's Node 20: tests/bats/k8s.bats and recommend.bats prove it)
# and yaml 2.8.4; node and npm come with the machine (Node 20).
# npm ci needs the npm registry the first time only.
set -euo pipefail

K8S=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
	echo "k8s: node and npm are needed (Debian: apt-get install nodejs npm)" >&2
	exit 1
fi

# One install at a time (concurrent test files).
exec 9>"${TMPDIR:-/tmp}/ebsbench-k8s-install.lock"
flock -w 600 9 || { echo "k8s: install lock busy" >&2; exit 1; }

stamp=$K8S/node_modules/.package-lock.json # npm writes it on every install
if [[ ! -f $stamp || $K8S/package-lock.json -nt $stamp ||
	! -d $K8S/node_modules/kubernetes-models || ! -d $K8S/node_modules/yaml ]]; then
	echo "k8s: npm ci in $K8S"
	(cd "$K8S" && npm ci --no-audit --no-fund --loglevel=error)
fi
