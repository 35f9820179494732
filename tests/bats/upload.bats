#!/usr/bin/env bats
# upload.bats - `ebsbench run` sends its files to S3 through presigned URLs
# over verified TLS, against the real peers (tests/peers: s3rver checking
# SigV4 behind nginx with a test CA, a fail-once proxy, stalling servers),
# on a loop device with a short plan: what S3 holds equals the local files,
# refusals are not retried, transient failures are, an expiring URL stops
# the run before any I/O, nothing hangs, and no secret is ever printed.

bats_require_minimum_version 1.5.0

load helpers
load ../peers/peers
load upload_helpers
load_bats_libs

# The S3 server's only key pair (s3.sh takes it from here), unlike anything
# else in the output, so a leak cannot hide.
export AWS_ACCESS_KEY_ID=AKIAEBSBENCHUPLOAD01
export AWS_SECRET_ACCESS_KEY='upl0ad/Secret+Key/ebsbench0000000000000000'

setup_file() {
	upload_setup_file
}

teardown_file() {
	upload_teardown_file
}

setup() {
	cd "$BATS_TEST_TMPDIR"
}

@test "URLs presigned by boto3: every file goes up over verified TLS, S3 holds the local bytes" {
	local prefix="boto3/$RANDOM/" n
	config "$(put_block "$TLS_URL" "$prefix" 3600)"
	run_ebsbench
	assert_success
	assert_equal "$output" ""
	same_in_s3 "$prefix"
	# Each phase's log and results.json went up as the phase ended: two
	# results.json uploads before the end, one at the end.
	assert_equal "$(grep -oE 'uploaded [a-z_.0-9]+|\| Measured \|' <<<"$stderr" | paste -sd' ')" \
		"uploaded vol_layout_iops.1.log uploaded results.json uploaded vol_rr_iops.1.log uploaded vol_rr_clat_hist.1.log uploaded results.json | Measured | uploaded summary.md uploaded iops_timeline.svg uploaded latency_percentiles.svg uploaded latency_heatmap.svg uploaded recommend.md uploaded report.html uploaded results.json"
	assert_equal "$(grep -c "^PUT /$BUCKET/${prefix}results.json?.* 200$" "$BATS_FILE_TMPDIR/peers/s3.log")" 3
	[[ $stderr == *"upload: 10 uploaded, 0 failed, 0 skipped"* ]]
	for n in "${ARTIFACTS[@]:1}"; do
		assert_equal "$(record "$n" status)" uploaded
		assert_equal "$(record "$n" url)" "$TLS_URL/$BUCKET/$prefix$n"
	done
	# Each went up as what it is (artifacts.c's types): S3 serves it back
	# with the Content-Type it received, so a presigned link opens
	# report.html as a page.
	local urls want i=0
	mapfile -t urls < <(for n in "${ARTIFACTS[@]}"; do echo "get $prefix$n 60"; done | presign_many)
	for n in "${ARTIFACTS[@]}"; do
		case $n in
		*.html) want="text/html; charset=utf-8" ;;
		*.md) want="text/markdown; charset=utf-8" ;;
		*.svg) want="image/svg+xml" ;;
		*.json) want="application/json" ;;
		*.log) want="text/plain" ;;
		esac
		assert_equal "$n: $(curl -sS --fail --cacert "$CA_FILE" -o /dev/null -w '%{content_type}' \
			"${urls[i]}")" "$n: $want"
		i=$((i + 1))
	done
}

@test "URLs from ebsbench presign --plan upload the same way" {
	local prefix="ours/$RANDOM"
	plan_json
	run --separate-stderr "$EBSBENCH" presign --endpoint "$TLS_URL" --bucket "$BUCKET" \
		--prefix "$prefix" --region "$AWS_DEFAULT_REGION" --expires 1h --plan plan.json
	assert_success
	# Exactly the files the run writes, and "expires" is taken (and ignored).
	assert_equal "$(jq -r '.upload.put | keys | join(" ")' <<<"$output")" \
		"$(printf '%s\n' "${ARTIFACTS[@]}" | sort | paste -sd' ')"
	config "$(jq .upload <<<"$output")"
	run_ebsbench
	assert_success
	same_in_s3 "$prefix/"
	[[ $stderr == *"upload: 10 uploaded, 0 failed, 0 skipped"* ]]
}

# tampered URL -> URL with the last hex digit of its signature changed.
tampered() {
	if [ "${1: -1}" = 0 ]; then
		echo "${1%?}1"
	else
		echo "${1%?}0"
	fi
}

@test "a tampered signature gets 403 SignatureDoesNotMatch once, no retry; a file without URL is skipped" {
	local prefix="tamper/$RANDOM/" block sig
	block=$(put_block "$TLS_URL" "$prefix" 3600)
	sig=$(tampered "$(jq -r '.put["summary.md"]' <<<"$block")")
	config "$(jq --arg u "$sig" '.put["summary.md"] = $u | del(.put["vol_rr_iops.1.log"])' <<<"$block")"
	run_ebsbench
	assert_failure 4
	# One line says which file, what S3 said and that the file stays here.
	local line
	line=$(grep "upload summary.md" <<<"$stderr")
	assert_equal "$(wc -l <<<"$line")" 1
	[[ $line == *"failed after 1 attempt "*"HTTP 403 SignatureDoesNotMatch: The request signature"*"kept in out/"* ]]
	[[ $stderr != *"retrying"* ]]
	assert_equal "$(grep -c "^PUT /$BUCKET/${prefix}summary.md?.* 403 SignatureDoesNotMatch$" \
		"$BATS_FILE_TMPDIR/peers/s3.log")" 1
	assert_equal "$(record summary.md status)" failed
	assert_equal "$(record summary.md attempts)" 1
	assert_equal "$(record summary.md http_status)" 403
	[[ $(record summary.md error) == *SignatureDoesNotMatch* ]]
	# Skipped, said on stderr and in results.json, never dropped silently.
	[[ $stderr == *"no URL for vol_rr_iops.1.log in upload.put: skipped"* ]]
	assert_equal "$(record vol_rr_iops.1.log status)" skipped
	[ -s out/vol_rr_iops.1.log ]
	[ -s out/summary.md ]
	same_in_s3 "$prefix" results.json vol_layout_iops.1.log iops_timeline.svg
	[[ $stderr == *"upload: 8 uploaded, 1 failed, 1 skipped"* ]]
}

@test "a URL that expires before the run's estimated end is refused before any I/O" {
	local before
	sha256sum "$DEV" >before
	# Valid for 2 minutes: less than the plan plus 10 % plus 5 minutes.
	config "$(put_block "$TLS_URL" short/ 120)"
	run_ebsbench
	assert_failure 2
	assert_equal "$(wc -l <<<"$stderr")" 1
	[[ $stderr =~ "the upload URL for "[a-z_.0-9]+" expires at "20[0-9-]+T[0-9:]+Z", before the run's estimated end at "20[0-9-]+T[0-9:]+Z ]]
	[ ! -e out ]
	# Long expired (signed 2 h ago for 30 min) by ebsbench presign.
	plan_json
	run --separate-stderr env EBSBENCH_PRESIGN_TIME="$(date -u -d '2 hours ago' +%Y%m%dT%H%M%SZ)" \
		"$EBSBENCH" presign --endpoint "$TLS_URL" --bucket "$BUCKET" --prefix old \
		--region "$AWS_DEFAULT_REGION" --expires 30m --plan plan.json
	assert_success
	config "$(jq .upload <<<"$output")"
	run_ebsbench
	assert_failure 2
	[[ $stderr == *"the upload URL for "*" expires at "*", before the run's estimated end at "* ]]
	[ ! -e out ]
	sha256sum -c --quiet before
	# Nothing reached the server.
	run ! grep -q "/old/\|/short/" "$BATS_FILE_TMPDIR/peers/s3.log"
}

@test "server down: bounded retries, exit 4, every file kept locally, the TL;DR shown" {
	local port
	port=$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	config "$(put_block "https://localhost:$port" down/ 3600 | jq '. + {max_retry_s: 2}')"
	run_ebsbench
	assert_failure 4
	[ "$ELAPSED" -lt 60 ]
	[[ $stderr == *"retrying in"* ]]
	[[ $stderr == *"TL;DR"* || $stderr == *"| Measured |"* ]]
	[[ $stderr == *"upload results.json to https://localhost:$port/$BUCKET/down/results.json failed after"* ]]
	[[ $stderr == *"upload: 0 uploaded, 10 failed, 0 skipped; every file is also in out/"* ]]
	local n attempts
	for n in "${ARTIFACTS[@]}"; do
		[ -s "out/$n" ]
		assert_equal "$(record "$n" status)" failed
		attempts=$(record "$n" attempts)
		[ "$attempts" -ge 1 ] && [ "$attempts" -le 5 ] || fail "$n: $attempts attempts, want 1 to 5"
		[[ $(record "$n" error) == *"refused"* ]]
	done
	# The end of the run gave the endpoint its full retry budget again.
	[ "$(record vol_layout_iops.1.log attempts)" -ge 2 ]
	json_doc out/results.json
	xmllint --noout out/iops_timeline.svg
}

@test "one 500 from the fail-once proxy: uploaded after a retry" {
	local prefix="flaky/$RANDOM/"
	config "$(put_block "$FLAKY_URL" "$prefix" 3600)"
	run_ebsbench
	assert_success
	[[ $stderr == *"upload summary.md: attempt 1 of 5 failed (HTTP 500 InternalError: flaky.py: injected failure); retrying in"* ]]
	[[ $stderr == *"uploaded summary.md ("*") to $FLAKY_URL/$BUCKET/${prefix}summary.md after 2 attempts"* ]]
	assert_equal "$(record summary.md attempts)" 2
	assert_equal "$(grep -c "^PUT /$BUCKET/${prefix}summary.md?.* 500$" "$FLAKY_LOG")" 1
	assert_equal "$(grep -c "^PUT /$BUCKET/${prefix}summary.md?.* 200$" "$FLAKY_LOG")" 1
	same_in_s3 "$prefix"
}

@test "the wrong CA: a clear certificate verification error, no retry" {
	config "$(put_block "$TLS_URL" wrongca/ 3600 | jq --arg ca "$WRONG_CA_FILE" '. + {ca_file: $ca}')"
	run_ebsbench
	assert_failure 4
	[[ $stderr == *"upload results.json to $TLS_URL/$BUCKET/wrongca/results.json failed after 1 attempt "*"TLS certificate verification failed"*"not trusted"* ]]
	[[ $stderr != *"retrying"* ]]
	[[ $(record summary.md error) == *"certificate verification failed"* ]]
	assert_equal "$(record summary.md attempts)" 1
	run ! grep -q "/wrongca/" "$BATS_FILE_TMPDIR/peers/s3.log"
}

@test "servers that stall (TLS handshake, or the reply): timeouts, no hang" {
	local block
	# Logs to a server that never answers the handshake, the rest to one
	# that takes the request and never replies.
	block=$(put_block "$STALL_TLS_URL" stall/ 3600)
	mapfile -t urls < <(printf 'put stall/%s 3600\n' vol_layout_iops.1.log vol_rr_iops.1.log |
		presign_many "$STALL_URL")
	block=$(jq --arg a "${urls[0]}" --arg b "${urls[1]}" \
		'.put["vol_layout_iops.1.log"] = $a | .put["vol_rr_iops.1.log"] = $b |
		 . + {timeout_s: 1, max_retry_s: 3}' <<<"$block")
	config "$block"
	run_ebsbench
	assert_failure 4
	[ "$ELAPSED" -lt 45 ]
	# A timeout may pass: retried, within the time budget.
	[ "$(record vol_layout_iops.1.log attempts)" -ge 2 ]
	[[ $(record vol_layout_iops.1.log error) == *"TLS handshake"*"timed out"* ]]
	[[ $(record summary.md error) == *"timed out"* ]]
	[[ $stderr == *"upload results.json to $STALL_TLS_URL/$BUCKET/stall/results.json failed"*"timed out"* ]]
	[ -s out/results.json ]
	[ -s out/summary.md ]
}

# start_capture DIR: an HTTPS server with the peers' localhost certificate
# that keeps each request's Content-Type and body (DIR/type.N, DIR/body.N)
# and answers 204, as S3 does to a POST; sets CAPTURE_URL and CAPTURE_PID.
start_capture() {
	mkdir -p "$1"
	/usr/bin/python3 - "$1" "$BATS_FILE_TMPDIR/peers/pki" 3>&- <<-'PY' &
	import http.server, itertools, os, ssl, sys
	out, pki = sys.argv[1], sys.argv[2]
	count = itertools.count()
	class Keep(http.server.BaseHTTPRequestHandler):
	    def do_POST(self):
	        body = self.rfile.read(int(self.headers["Content-Length"]))
	        n = next(count)
	        with open(f"{out}/type.{n}", "w") as f:
	            f.write(self.headers["Content-Type"])
	        with open(f"{out}/body.{n}", "wb") as f:
	            f.write(body)
	        self.send_response(204)
	        self.send_header("Content-Length", "0")
	        self.end_headers()
	    def log_message(self, *args):
	        pass
	server = http.server.HTTPServer(("127.0.0.1", 0), Keep)
	ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
	ctx.load_cert_chain(f"{pki}/server.crt", f"{pki}/server.key")
	server.socket = ctx.wrap_socket(server.socket, server_side=True)
	with open(f"{out}/port.tmp", "w") as f:
	    f.write(str(server.server_address[1]))
	os.replace(f"{out}/port.tmp", f"{out}/port")
	server.serve_forever()
	PY
	CAPTURE_PID=$!
	local i
	for ((i = 0; i < 100; i++)); do
		[ -s "$1/port" ] && break
		sleep 0.1
	done
	CAPTURE_URL="https://localhost:$(cat "$1/port")"
}

teardown() {
	[ -z "${CAPTURE_PID:-}" ] || kill "$CAPTURE_PID" 2>/dev/null || true
}

# check_forms DIR: every captured form has the config's fields in their
# order, then key (key_prefix + file name), then the file, last; the last
# form of each file carries the local file's bytes; the boundary is in no
# content.  Prints the file names sent, in order.
check_forms() {
	/usr/bin/python3 - "$1" cfg.json out <<-'PY'
	import json, os, re, sys
	d, cfg, out = sys.argv[1:4]
	post = json.load(open(cfg))["upload"]["post"]
	want = [k for k in post["fields"] if k != "key"]
	last = {}
	n = 0
	while os.path.exists(f"{d}/body.{n}"):
	    ctype = open(f"{d}/type.{n}").read()
	    body = open(f"{d}/body.{n}", "rb").read()
	    b = re.fullmatch(r"multipart/form-data; boundary=(\S+)", ctype).group(1).encode()
	    head, tail = b"--" + b + b"\r\n", b"\r\n--" + b + b"--\r\n"
	    assert body.startswith(head) and body.endswith(tail), n
	    parts = body[len(head):-len(tail)].split(b"\r\n--" + b + b"\r\n")
	    names, values = [], []
	    for p in parts:
	        h, _, v = p.partition(b"\r\n\r\n")
	        names.append(re.search(rb'name="([^"]*)"', h).group(1).decode())
	        values.append(v)
	    fields = [x for x in names if x not in ("key", "file")]
	    assert fields == want, (fields, want)
	    assert names[-2:] == ["key", "file"], names
	    key = values[-2].decode()
	    assert key.startswith(post["key_prefix"]), key
	    name = key[len(post["key_prefix"]):]
	    assert b'filename="%s"' % name.encode() in parts[-1].partition(b"\r\n\r\n")[0]
	    last[name] = values[-1]
	    print(name)
	    n += 1
	for name, data in last.items():
	    assert data == open(f"{out}/{name}", "rb").read(), name
	PY
}

@test "POST policy (ebsbench presign --post and boto3): fields in order, the file last, keys under the prefix" {
	# s3rver does not verify POST-policy signatures (tests/peers/README.md):
	# it checks the form as S3 parses it (a key after the file is refused);
	# the exact layout is checked on a capture of what we send.
	local prefix="post/$RANDOM" block
	plan_json
	run --separate-stderr "$EBSBENCH" presign --post --endpoint "$TLS_URL" --bucket "$BUCKET" \
		--prefix "$prefix" --region "$AWS_DEFAULT_REGION" --expires 1h --plan plan.json
	assert_success
	block=$(jq .upload <<<"$output")
	config "$block"
	run_ebsbench
	assert_success
	same_in_s3 "$prefix/"
	# The 10 files once each, and results.json as each of the 2 phases
	# begins (presign's block has a resume_get) and after it.
	assert_equal "$(grep -c "^POST /$BUCKET 204$" "$BATS_FILE_TMPDIR/peers/s3.log")" 14
	assert_equal "$(record summary.md url)" "$TLS_URL/$BUCKET"
	[[ $stderr == *"uploaded summary.md ("*" bytes) to $TLS_URL/$BUCKET as $prefix/summary.md"* ]]
	# The same policy, sent to the capture instead of S3.
	start_capture forms
	config "$(jq --arg u "$CAPTURE_URL/$BUCKET" '.post.url = $u' <<<"$block")"
	run_ebsbench
	assert_success
	run check_forms forms
	assert_success
	assert_equal "$(paste -sd' ' <<<"$output")" \
		"results.json vol_layout_iops.1.log results.json results.json vol_rr_iops.1.log vol_rr_clat_hist.1.log results.json summary.md iops_timeline.svg latency_percentiles.svg latency_heatmap.svg recommend.md report.html results.json"
	# boto3's own policy: fields.key "P/${filename}" gives the prefix.
	prefix="post-boto3/$RANDOM"
	config "$(presign post "$prefix/\${filename}" 3600 | jq '{post: .}')"
	run_ebsbench
	assert_success
	same_in_s3 "$prefix/"
}

@test "SIGTERM mid-phase: the partial results still go up before exit" {
	local prefix="term/$RANDOM/" pid i
	# A 30 s randread phase, stopped a moment after it starts.
	config "$(put_block "$TLS_URL" "$prefix" 3600)" 3000
	"$EBSBENCH" run --config cfg.json >stdout 2>stderr &
	pid=$!
	for ((i = 0; i < 100; i++)); do
		grep -q "uploaded results.json" stderr && break
		sleep 0.1
	done
	sleep 0.5
	kill -TERM "$pid"
	local rc=0
	wait "$pid" || rc=$?
	output=$(cat stdout) stderr=$(cat stderr)
	no_secrets
	# Stopped before its end: exit 5, for whoever may resume it.
	assert_equal "$rc" 5
	assert_equal "$(jq .environment.stopped_early out/results.json)" true
	assert_equal "$(jq '.phases | length' out/results.json)" 2
	[ "$(jq '.phases[1].job.job_runtime' out/results.json)" -lt 20000 ]
	same_in_s3 "$prefix"
}

@test "no output, log or results of these runs holds the secret key, the key id or a signature" {
	# A run of its own, so the check never depends on the tests above: one
	# URL tampered, so S3's error message (which echoes the request) is in
	# the output too.  Then everything every run of this file printed.
	local block
	block=$(put_block "$TLS_URL" "secrets/$RANDOM/" 3600)
	config "$(jq --arg u "$(tampered "$(jq -r '.put["summary.md"]' <<<"$block")")" \
		'.put["summary.md"] = $u' <<<"$block")"
	run_ebsbench
	assert_failure 4
	[[ $stderr == *"SignatureDoesNotMatch"* ]] || fail "no S3 error in the output: $stderr"
	grep -q "uploaded results.json" "$BATS_FILE_TMPDIR/captures"
	sort -u "$BATS_FILE_TMPDIR/secrets" | grep -v '^$' >secrets
	# Never a vacuous search: this test's own run alone gives six
	# signatures, the key and the key id.
	[ "$(wc -l <secrets)" -ge 8 ] || fail "only $(wc -l <secrets) secrets to look for"
	run ! grep -F -f secrets "$BATS_FILE_TMPDIR/captures"
	run ! grep -E 'X-Amz-(Signature|Credential|Security-Token)=[^R]' "$BATS_FILE_TMPDIR/captures"
	# Recorded URLs say where a file went, never how it was allowed.
	run ! grep -E '"url": "[^"]*\?' "$BATS_FILE_TMPDIR/captures"
}
