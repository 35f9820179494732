# shellcheck shell=bash
# lib.sh - the one set of script helpers, sourced by every image, kernel,
# QEMU and test script: one-line messages on stderr (say, die), the usage
# line, Debian packages installed when missing, and (image/appliance.sh)
# the appliance's description.  Set PROG (and DIE_STATUS, die's default
# exit code, when it is not 1), then source it.

say() { echo "$PROG: $*" >&2; }
# die MESSAGE [CODE]: one line naming the problem; exit CODE (default
# DIE_STATUS, else 1).  DIED tells an EXIT trap the line is already out.
die() {
	say "error: $1"
	DIED=1
	exit "${2:-${DIE_STATUS:-1}}"
}
# usage: the script's second line ("# NAME ARGS...") as "usage: NAME ARGS...".
usage() {
	sed -n '2p' "$0" | sed 's/^# /usage: /' >&2
	exit 2
}
# need_packages PKG...: installs those that are not installed, updating
# apt's index once if the first try fails (a fresh machine has none); a
# concurrent apt is waited for, up to 5 minutes.
need_packages() {
	local missing=() p apt=(apt-get -o DPkg::Lock::Timeout=300)
	for p in "$@"; do
		[ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" = "install ok installed" ] || missing+=("$p")
	done
	[ ${#missing[@]} -gt 0 ] || return 0
	say "installing ${missing[*]}"
	DEBIAN_FRONTEND=noninteractive "${apt[@]}" install -y -qq "${missing[@]}" >/dev/null 2>&1 ||
		{ "${apt[@]}" update -qq >&2 &&
			DEBIAN_FRONTEND=noninteractive "${apt[@]}" install -y -qq "${missing[@]}" >/dev/null; } ||
		die "cannot install ${missing[*]}"
}

# shellcheck source=appliance.sh
. "$(dirname "${BASH_SOURCE[0]}")/appliance.sh"
