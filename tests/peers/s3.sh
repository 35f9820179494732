#!/usr/bin/env bash
# s3.sh start|stop DIR - an S3 server that verifies SigV4 signatures
# (@20minutes/s3rver 4.0.4 via s3rver-run.js) on 127.0.0.1, plain HTTP.
#
# start: fresh data in DIR/s3-data, bucket $BUCKET (default ebsbench-results),
#   path-style only (--no-vhost-buckets), a free port chosen by the kernel;
#   waits (<= 20 s) until it answers, then writes DIR/s3.env (KEY=value lines,
#   for `set -a; . DIR/s3.env; set +a`):
#     S3_PORT S3_URL AWS_ACCESS_KEY_ID AWS_SECRET_ACCESS_KEY AWS_DEFAULT_REGION BUCKET
#   Log: DIR/s3.log, a line per request: METHOD URL STATUS [S3 error code].
#   Pid (also its process group and session): DIR/s3.pid.
#   Unsigned requests get 403 (see s3rver-run.js; S3RVER_ALLOW_ANONYMOUS=1).
#   The server exits by itself after $PEERS_LIFETIME s (default 3600).
# stop: ends the process group in DIR/s3.pid (TERM, then KILL after 5 s).
# Run tests/peers/install.sh first (node_modules, curl).
set -euo pipefail

PEERS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$PEERS/lib.sh"

peer_args "$@"

if [[ $cmd == stop ]]; then
	stop_pidfile "$dir/s3.pid"
	exit 0
fi

[[ -d $PEERS/node_modules/@20minutes/s3rver ]] || die "no node_modules: run $PEERS/install.sh"
stop_pidfile "$dir/s3.pid" # a restart replaces the old server

bucket=${BUCKET:-ebsbench-results}
key_id=${AWS_ACCESS_KEY_ID:-S3RVER}
secret=${AWS_SECRET_ACCESS_KEY:-S3RVER}
rm -rf "$dir/s3-data" "$dir/s3.env"
trap 'stop_pidfile "$dir/s3.pid"' EXIT # a failure leaves nothing running
mkdir -p "$dir/s3-data"

# s3rver makes ListObjectsV2 continuation tokens with DES, which Node's
# OpenSSL 3 keeps in its legacy provider: without it a truncated listing
# is a 500 (ebsbench fetch pages through one).
spawn "$dir/s3.pid" "$dir/s3.log" \
	env AWS_ACCESS_KEY_ID="$key_id" AWS_SECRET_ACCESS_KEY="$secret" \
	NODE_OPTIONS=--openssl-legacy-provider \
	node "$PEERS/s3rver-run.js" -d "$dir/s3-data" -a 127.0.0.1 -p 0 -s \
	--no-vhost-buckets --configure-bucket "$bucket"

# s3rver prints "S3rver listening on 127.0.0.1:PORT" once bound.
port=
for ((i = 0; i < 200; i++)); do
	port=$(sed -n 's/^S3rver listening on 127\.0\.0\.1:\([0-9]\+\)$/\1/p' "$dir/s3.log")
	[[ -n $port ]] && break
	alive "$dir/s3.pid" || break
	sleep 0.1
done
[[ -n $port ]] || fail_start "$dir/s3.pid" "$dir/s3.log" "s3rver did not start"

# It answers: an unsigned request gets an S3 XML error (403) or a listing.
code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 "http://127.0.0.1:$port/$bucket") || true
[[ $code == 200 || $code == 403 ]] || fail_start "$dir/s3.pid" "$dir/s3.log" "s3rver answers $code"

cat >"$dir/s3.env.tmp" <<EOF
S3_PORT=$port
S3_URL=http://127.0.0.1:$port
AWS_ACCESS_KEY_ID=$key_id
AWS_SECRET_ACCESS_KEY=$secret
AWS_DEFAULT_REGION=${AWS_DEFAULT_REGION:-us-east-1}
BUCKET=$bucket
EOF
mv "$dir/s3.env.tmp" "$dir/s3.env"
trap - EXIT
echo "s3: $bucket at http://127.0.0.1:$port (pid $(cat "$dir/s3.pid"))"
