# shellcheck shell=bash
# lib.sh - process helpers shared by s3.sh and tls.sh (sourced).
# Every peer runs in its own session/process group, whose id is the pid
# written to its pid file, so stop ends the peer and all of its children and
# nothing else.  Each one also ends by itself after $PEERS_LIFETIME s.

PY=/usr/bin/python3 # Debian's interpreter (the one with python3-boto3)

PROG=peers
# say and die: the scripts' one pair.
# shellcheck source=../../image/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../image/lib.sh"

# spawn PIDFILE LOG CMD... - start CMD in the background, in a new session,
# under a lifetime limit; PIDFILE gets the session (= process group) id.
spawn() {
	local pidfile=$1 log=$2
	shift 2
	rm -f "$pidfile"
	# shellcheck disable=SC2016 # expanded by the inner bash
	setsid bash -c 'echo $$ >"$0"; exec timeout -k 5 "$@"' \
		"$pidfile" "${PEERS_LIFETIME:-3600}" "$@" >"$log" 2>&1 </dev/null \
		3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&- & # bats waits on fd 3
	local i
	for ((i = 0; i < 50; i++)); do
		[[ -s $pidfile ]] && return 0
		sleep 0.1
	done
	die "could not start $1"
}

# live_session SID - the session has a member that is not a zombie (an
# exited leader can stay a zombie for a while before init reaps it).
live_session() {
	# shellcheck disable=SC2009 # pgrep cannot tell zombies apart
	ps -o stat= --sid "$1" 2>/dev/null | grep -qv '^Z'
}

# alive PIDFILE - the peer's session still has a live member.
alive() {
	local pid
	pid=$(cat "$1" 2>/dev/null) || return 1
	[[ $pid =~ ^[0-9]+$ ]] && live_session "$pid"
}

# stop_pidfile PIDFILE - TERM the process group, KILL it after 5 s.
stop_pidfile() {
	local f=$1 pid i
	[[ -f $f ]] || return 0
	pid=$(cat "$f")
	if [[ $pid =~ ^[0-9]+$ ]] && live_session "$pid"; then
		# A stale pid file must not make us signal someone else's process:
		# the leader, unless gone or a zombie, is the `timeout` spawn started.
		local leader
		leader=$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null) || true
		if [[ -z $leader || $leader == "timeout "* ]]; then
			kill -TERM -- "-$pid" 2>/dev/null || true
			for ((i = 0; i < 50; i++)); do
				live_session "$pid" || break
				sleep 0.1
			done
			kill -KILL -- "-$pid" 2>/dev/null || true
		fi
	fi
	rm -f "$f"
}

# fail_start PIDFILE LOG MSG - stop the peer, show its log, fail.
fail_start() {
	stop_pidfile "$1"
	echo "peers: $3; last lines of $2:" >&2
	tail -n 20 "$2" >&2 || true
	exit 1
}

# free_ports N - N distinct TCP ports free on 127.0.0.1 right now.
free_ports() {
	"$PY" - "$1" <<'EOF'
import socket, sys
socks = []
for _ in range(int(sys.argv[1])):
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    socks.append(s)
print(" ".join(str(s.getsockname()[1]) for s in socks))
EOF
}

# wait_file FILE PIDFILE - wait (<= 10 s) for a peer to write FILE.
wait_file() {
	local i
	for ((i = 0; i < 100; i++)); do
		[[ -s $1 ]] && return 0
		alive "$2" || return 1
		sleep 0.1
	done
	return 1
}

# peer_args "$@": the start|stop DIR arguments every peer script takes; sets
# cmd and dir (made absolute, created), or exits 2 with the usage.
peer_args() {
	cmd=${1:-}
	dir=${2:-}
	[[ ($cmd == start || $cmd == stop) && -n $dir ]] || {
		echo "usage: $0 start|stop DIR" >&2
		exit 2
	}
	mkdir -p "$dir"
	dir=$(cd "$dir" && pwd)
}
