#!/usr/bin/env bash
# crun-spec.sh - turn the runtime spec `umoci unpack` writes (BUNDLE/config.json)
# into what ebsbench needs to run under crun or runc on a host: a privileged
# container (every capability, no seccomp, no masked paths, every device
# allowed) in the host's network namespace, with the block devices to test,
# the config and an output directory bound in.
#
#   image/oci/crun-spec.sh BUNDLE [--device DEV]... [--bind SRC:DST[:ro]]... [--env NAME=VALUE]...
#
#   --device /dev/nvme1n1     a block device node (same path) in the container; repeat
#   --bind SRC:DST[:ro]       bind-mount SRC at DST (read-write unless :ro); repeat
#   --env NAME=VALUE          e.g. EBSBENCH_IMAGE_DIGEST=sha256:...; repeat
#
# Then: crun run --bundle BUNDLE NAME.  The host's /etc/hosts and
# /etc/resolv.conf are bound in read-only (as Docker and the kubelet do: the
# image has neither), so localhost and S3 endpoints resolve.
set -euo pipefail

PROG=crun-spec DIE_STATUS=2
# shellcheck source=../lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

(($#)) || die "usage: crun-spec.sh BUNDLE [--device DEV]... [--bind SRC:DST[:ro]]... [--env NAME=VALUE]..."
bundle=$1
shift
[[ -f $bundle/config.json ]] || die "$bundle/config.json: no such file (umoci unpack --image DIR:TAG $bundle first)"

devices='[]' binds='[]' envs='[]'
for f in /etc/hosts /etc/resolv.conf; do
	[[ -f $f ]] && binds=$(jq -c --arg s "$f" '. + [{source: $s, destination: $s, ro: true}]' <<<"$binds")
done
while (($#)); do
	(($# >= 2)) || die "$1 needs a value"
	case $1 in
	--device)
		[[ -b $2 ]] || die "--device $2: not a block device"
		read -r maj min < <(stat -L -c '%t %T' "$2")
		devices=$(jq -c --arg p "$2" --argjson maj $((16#$maj)) --argjson min $((16#$min)) \
			'. + [{path: $p, type: "b", major: $maj, minor: $min, fileMode: 432, uid: 0, gid: 0}]' <<<"$devices")
		;;
	--bind)
		IFS=: read -r src dst ro <<<"$2"
		[[ -n $src && $dst == /* && (-z $ro || $ro == ro) ]] || die "--bind $2: want SRC:/DST[:ro]"
		[[ -e $src ]] || die "--bind $2: $src does not exist"
		binds=$(jq -c --arg s "$(realpath "$src")" --arg d "$dst" --argjson ro "$([[ $ro == ro ]] && echo true || echo false)" \
			'. + [{source: $s, destination: $d, ro: $ro}]' <<<"$binds")
		;;
	--env)
		[[ $2 == [A-Za-z_]*=* ]] || die "--env $2: want NAME=VALUE"
		envs=$(jq -c --arg e "$2" '. + [$e]' <<<"$envs")
		;;
	*) die "unknown option $1" ;;
	esac
	shift 2
done

# Every capability this process holds (docker --privileged: all it can give;
# a sandbox may lack some, e.g. CAP_SYS_RESOURCE), in <linux/capability.h> order.
names=(CHOWN DAC_OVERRIDE DAC_READ_SEARCH FOWNER FSETID KILL SETGID SETUID SETPCAP
	LINUX_IMMUTABLE NET_BIND_SERVICE NET_BROADCAST NET_ADMIN NET_RAW IPC_LOCK IPC_OWNER
	SYS_MODULE SYS_RAWIO SYS_CHROOT SYS_PTRACE SYS_PACCT SYS_ADMIN SYS_BOOT SYS_NICE
	SYS_RESOURCE SYS_TIME SYS_TTY_CONFIG MKNOD LEASE AUDIT_WRITE AUDIT_CONTROL SETFCAP
	MAC_OVERRIDE MAC_ADMIN SYSLOG WAKE_ALARM BLOCK_SUSPEND AUDIT_READ PERFMON BPF
	CHECKPOINT_RESTORE)
bnd=$(awk '/^CapBnd:/ { print $2 }' /proc/self/status)
[[ $bnd =~ ^[0-9a-f]+$ ]] || die "cannot read CapBnd from /proc/self/status"
caps=$(for i in "${!names[@]}"; do
	(((16#$bnd >> i) & 1)) && echo "CAP_${names[i]}"
done | jq -R . | jq -cs .)

tmp=$(mktemp "$bundle/.config.json.XXXXXX")
jq --argjson caps "$caps" --argjson devices "$devices" --argjson binds "$binds" \
	--argjson envs "$envs" '
	.process.terminal = false
	| .process.noNewPrivileges = false
	| .process.capabilities = {bounding: $caps, effective: $caps, inheritable: $caps,
		permitted: $caps, ambient: $caps}
	| .process.env = ([.process.env[] | select(startswith("TERM=") | not)] + $envs)
	| .hostname = "ebsbench"
	| .mounts = ([.mounts[] | if .type == "sysfs" then .options -= ["ro"] else . end]
		+ [$binds[] | {destination, type: "bind", source,
			options: ["rbind", "nosuid", (if .ro then "ro" else "rw" end)]}])
	| .linux.namespaces = [.linux.namespaces[] | select(.type != "network")]
	| .linux.devices = ((.linux.devices // []) + $devices)
	| .linux.resources.devices = [{allow: true, access: "rwm"}]
	| .linux.maskedPaths = [] | .linux.readonlyPaths = []
	| del(.linux.seccomp)' "$bundle/config.json" >"$tmp"
mv "$tmp" "$bundle/config.json"
