# shellcheck shell=bash disable=SC1091
# peers.bash - the test peers for bats files: `load ../peers/peers`, then
#   setup_file()    { peers_start "$BATS_FILE_TMPDIR/peers"; }
#   teardown_file() { peers_stop "$BATS_FILE_TMPDIR/peers"; }
# peers_start installs what is missing (install.sh), starts s3.sh and tls.sh
# in DIR and exports every key of DIR/s3.env and DIR/tls.env (S3_URL,
# TLS_URL, CA_FILE, WRONG_CA_FILE, FLAKY_URL, STALL_URL, BUCKET, AWS_*...).

PEERS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

peers_start() {
	local dir=$1
	bash "$PEERS_DIR/install.sh" >&2 || return 1
	bash "$PEERS_DIR/s3.sh" start "$dir" >&2 || return 1
	bash "$PEERS_DIR/tls.sh" start "$dir" >&2 || {
		bash "$PEERS_DIR/s3.sh" stop "$dir"
		return 1
	}
	set -a
	. "$dir/s3.env"
	. "$dir/tls.env"
	set +a
}

peers_stop() {
	bash "$PEERS_DIR/tls.sh" stop "$1"
	bash "$PEERS_DIR/s3.sh" stop "$1"
}

# presign put|get|post KEY EXPIRES [ENDPOINT] -> a presigned URL (or POST
# JSON) for $BUCKET/KEY; ENDPOINT defaults to $TLS_URL.
presign() {
	/usr/bin/python3 "$PEERS_DIR/presign.py" "$1" "$BUCKET" "$2" "$3" "${4:-$TLS_URL}"
}

# presign_many [ENDPOINT] < lines "OP KEY EXPIRES [ENDPOINT]" -> one URL (or
# POST JSON) a line, in order, from one process (presign costs ~1 s each):
#   mapfile -t url < <(presign_many <<<"put a 60
#   get a 60 $S3_URL")
# then check ${#url[@]}: a failure inside <(...) goes unseen.
presign_many() {
	/usr/bin/python3 "$PEERS_DIR/presign.py" --many "$BUCKET" "${1:-$TLS_URL}"
}

# aws_capture_start DIR: tests/peers/aws_capture.py on a free port, its
# log DIR/capture.log; exports CAPTURE_URL (the real AWS CLI's
# --endpoint-url).  aws_capture_stop DIR ends it.
aws_capture_start() {
	local d=$1 i
	setsid /usr/bin/python3 "$PEERS_DIR/aws_capture.py" "$d/capture.port" "$d/capture.log" \
		</dev/null >/dev/null 2>&1 3>&- &
	echo $! >"$d/capture.pid"
	for ((i = 0; i < 50; i++)); do
		[[ -s $d/capture.port ]] && break
		sleep 0.1
	done
	CAPTURE_URL=http://127.0.0.1:$(cat "$d/capture.port") || return 1
	export CAPTURE_URL
}

aws_capture_stop() {
	local pid
	if pid=$(cat "$1/capture.pid" 2>/dev/null); then
		kill "$pid" 2>/dev/null || true
	fi
}
