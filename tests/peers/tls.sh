#!/usr/bin/env bash
# tls.sh start|stop DIR - verified-HTTPS peers in front of s3.sh's server
# (start s3.sh first: its port is read from DIR/s3.env).
#
# start makes (once per DIR) with openssl, in DIR/pki:
#   ca.crt        test CA ("CN=ebsbench test CA", RSA 2048)
#   server.crt    its leaf for CN and SAN DNS:localhost (no IP SAN) and
#                 DNS:s3.ebsbench.test (the name QEMU guests use for the host)
#   wrong-ca.crt  an unrelated CA with the same subject name and another key
# and starts, each on a free port of 127.0.0.1:
#   - a private nginx (also on [::1] when it can) with three TLS servers:
#       TLS_URL        proxies to S3 (Host kept, so signatures match; no body
#                      size limit; a chunked request gets 411, as from S3)
#       FLAKY_URL      proxies to flaky.py, which fails the first PUT of each
#                      path with $FLAKY_STATUS (500) $FLAKY_FAILS (1) times,
#                      then proxies to S3; requests are logged in FLAKY_LOG
#       STALL_TLS_URL  TLS handshake completes, the HTTP response never comes
#                      (nginx streams the body to stall.py, which reads nothing)
#   - stall.py: STALL_URL accepts TCP and never answers (TLS handshake hangs)
# and writes DIR/tls.env (KEY=value lines):
#   TLS_PORT TLS_URL CA_FILE WRONG_CA_FILE FLAKY_PORT FLAKY_URL FLAKY_LOG
#   STALL_PORT STALL_URL STALL_TLS_PORT STALL_TLS_URL NGINX_ACCESS_LOG
# URLs are https://localhost:PORT with no trailing slash; presign for the URL
# you will use, since Host (with port) is signed.  Logs: DIR/nginx-error.log,
# DIR/nginx-access.log, DIR/stall.log, DIR/flaky.log (requests), DIR/flaky.err.
# stop: ends nginx, stall.py and flaky.py (pid files DIR/*.pid).
set -euo pipefail

PEERS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$PEERS/lib.sh"

peer_args "$@"

stop_all() {
	stop_pidfile "$dir/tls-nginx.pid"
	stop_pidfile "$dir/tls-flaky.pid"
	stop_pidfile "$dir/tls-stall.pid"
}
if [[ $cmd == stop ]]; then
	stop_all
	exit 0
fi

s3_port=$(sed -n 's/^S3_PORT=//p' "$dir/s3.env" 2>/dev/null) || true
[[ -n $s3_port ]] || die "no S3_PORT in $dir/s3.env: run s3.sh start $dir first"
command -v nginx >/dev/null || die "no nginx: run $PEERS/install.sh"
stop_all
rm -f "$dir/tls.env"
trap stop_all EXIT # any failure from here on leaves nothing running

# --- stall.py and flaky.py (they start while the keys are made) -----------
rm -f "$dir/stall.port" "$dir/flaky.port"
: >"$dir/flaky.log"
spawn "$dir/tls-stall.pid" "$dir/stall.log" "$PY" "$PEERS/stall.py" "$dir/stall.port"
spawn "$dir/tls-flaky.pid" "$dir/flaky.err" "$PY" "$PEERS/flaky.py" "$s3_port" \
	"$dir/flaky.port" "$dir/flaky.log" "${FLAKY_STATUS:-500}" "${FLAKY_FAILS:-1}"

# --- certificates ----------------------------------------------------------
pki=$dir/pki
make_ca() { # NAME: NAME.key + NAME.crt, a self-signed CA
	openssl req -x509 -newkey rsa:2048 -nodes -sha256 -days 7 \
		-subj "/CN=ebsbench test CA" -keyout "$pki/$1.key" -out "$pki/$1.crt" \
		-addext "basicConstraints=critical,CA:TRUE" \
		-addext "keyUsage=critical,keyCertSign,cRLSign" 2>/dev/null
}
if [[ ! -s $pki/server.crt ]]; then
	rm -rf "$pki"
	mkdir -p "$pki"
	make_ca ca
	make_ca wrong-ca
	openssl req -newkey rsa:2048 -nodes -sha256 -subj "/CN=localhost" \
		-keyout "$pki/server.key" -out "$pki/server.csr" 2>/dev/null
	cat >"$pki/server.ext" <<'EOF'
basicConstraints=critical,CA:FALSE
keyUsage=critical,digitalSignature,keyEncipherment
extendedKeyUsage=serverAuth
subjectAltName=DNS:localhost,DNS:s3.ebsbench.test
EOF
	openssl x509 -req -sha256 -days 7 -in "$pki/server.csr" -CA "$pki/ca.crt" \
		-CAkey "$pki/ca.key" -CAcreateserial -extfile "$pki/server.ext" \
		-out "$pki/server.crt" 2>/dev/null
fi

wait_file "$dir/stall.port" "$dir/tls-stall.pid" || {
	stop_all
	die "stall.py did not start: $(cat "$dir/stall.log")"
}
wait_file "$dir/flaky.port" "$dir/tls-flaky.pid" || {
	stop_all
	die "flaky.py did not start: $(cat "$dir/flaky.err")"
}
stall_port=$(cat "$dir/stall.port")
flaky_up=$(cat "$dir/flaky.port")

# --- nginx -----------------------------------------------------------------
v6=0
grep -qs "^0\{31\}1 .* lo$" /proc/net/if_inet6 && v6=1
listen() { # PORT: listen lines for loopback
	echo "listen 127.0.0.1:$1 ssl;"
	((v6)) && echo "listen [::1]:$1 ssl ipv6only=on;"
	return 0
}
write_conf() { # TLS_PORT FLAKY_PORT STALL_TLS_PORT
	mkdir -p "$dir/nginx/tmp"
	cat >"$dir/nginx/nginx.conf" <<EOF
# Written by tests/peers/tls.sh: a private nginx for tests.
$( ((EUID == 0)) && echo "user root root;")
daemon off;
worker_processes 1;
pid $dir/nginx/nginx.pid;
error_log $dir/nginx-error.log error;
events { worker_connections 256; }
http {
    access_log $dir/nginx-access.log;
    client_body_temp_path $dir/nginx/tmp/body;
    proxy_temp_path $dir/nginx/tmp/proxy;
    fastcgi_temp_path $dir/nginx/tmp/fastcgi;
    uwsgi_temp_path $dir/nginx/tmp/uwsgi;
    scgi_temp_path $dir/nginx/tmp/scgi;
    ssl_certificate $pki/server.crt;
    ssl_certificate_key $pki/server.key;
    client_max_body_size 0;
    proxy_set_header Host \$http_host;
    proxy_buffering off;
    proxy_read_timeout 3600s;
    proxy_send_timeout 3600s;
    default_type application/xml;
    server {
        $(listen "$1")
        location / {
            if (\$http_transfer_encoding) {
                return 411 '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>MissingContentLength</Code><Message>You must provide the Content-Length HTTP header.</Message></Error>\n';
            }
            proxy_pass http://127.0.0.1:$s3_port;
        }
    }
    server {
        $(listen "$2")
        location / { proxy_pass http://127.0.0.1:$flaky_up; }
    }
    server {
        $(listen "$3")
        location / {
            proxy_request_buffering off;
            proxy_pass http://127.0.0.1:$stall_port;
        }
    }
}
EOF
}

# nginx binds ports picked a moment before: on a lost race, try again.
started=0
for _ in 1 2 3; do
	read -r tls_port flaky_port stall_tls_port < <(free_ports 3)
	write_conf "$tls_port" "$flaky_port" "$stall_tls_port"
	: >"$dir/nginx-error.log"
	spawn "$dir/tls-nginx.pid" "$dir/nginx.log" \
		nginx -p "$dir/nginx" -e "$dir/nginx-error.log" -c "$dir/nginx/nginx.conf"
	for ((i = 0; i < 100; i++)); do
		alive "$dir/tls-nginx.pid" || break
		if curl -s -o /dev/null --max-time 2 --cacert "$pki/ca.crt" \
			"https://localhost:$tls_port/" &&
			curl -s -o /dev/null --max-time 2 --cacert "$pki/ca.crt" \
				"https://localhost:$flaky_port/$RANDOM-probe" -X GET; then
			started=1
			break
		fi
		sleep 0.1
	done
	((started)) && break
	stop_pidfile "$dir/tls-nginx.pid"
	grep -q 'Address already in use' "$dir/nginx-error.log" "$dir/nginx.log" || break
done
if ((!started)); then
	stop_all
	echo "peers: nginx did not start; its logs:" >&2
	tail -n 20 "$dir/nginx-error.log" "$dir/nginx.log" >&2 || true
	exit 1
fi
: >"$dir/flaky.log" # drop the start-up probe

cat >"$dir/tls.env.tmp" <<EOF
TLS_PORT=$tls_port
TLS_URL=https://localhost:$tls_port
CA_FILE=$pki/ca.crt
WRONG_CA_FILE=$pki/wrong-ca.crt
FLAKY_PORT=$flaky_port
FLAKY_URL=https://localhost:$flaky_port
FLAKY_LOG=$dir/flaky.log
STALL_PORT=$stall_port
STALL_URL=https://localhost:$stall_port
STALL_TLS_PORT=$stall_tls_port
STALL_TLS_URL=https://localhost:$stall_tls_port
NGINX_ACCESS_LOG=$dir/nginx-access.log
EOF
mv "$dir/tls.env.tmp" "$dir/tls.env"
trap - EXIT
echo "tls: https://localhost:$tls_port -> S3 :$s3_port; flaky :$flaky_port; stall :$stall_port, :$stall_tls_port"
