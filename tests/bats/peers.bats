#!/usr/bin/env bats
# peers.bats - the test peers (tests/peers) are real: an S3 server that
# checks SigV4 signatures, behind nginx with verified TLS, URLs presigned by
# the real AWS SDK (boto3), and the failure peers (stall, fail-once) behave.
# curl stands in for our client here; upload tests of ebsbench use the same
# peers through tests/peers/peers.bash.

bats_require_minimum_version 1.5.0

load helpers
load ../peers/peers
load_bats_libs

setup_file() {
	peers_start "$BATS_FILE_TMPDIR/peers"
}

teardown_file() {
	peers_stop "$BATS_FILE_TMPDIR/peers"
}

setup() {
	cd "$BATS_TEST_TMPDIR"
	# 1 MiB + 3 bytes of random data: several TLS records, an odd size.
	head -c 1048579 /dev/urandom >blob
}

# send METHOD URL [CURL ARGS...]: curl with our CA; the status goes to
# stdout, the body to ./body.
send() {
	local method=$1 url=$2
	shift 2
	curl -sS --cacert "$CA_FILE" --max-time 20 -X "$method" -o body \
		-w '%{http_code}' "$@" "$url"
}

sha() { sha256sum "$1" | cut -d' ' -f1; }

# sign N < lines "OP KEY EXPIRES [ENDPOINT]": the N URLs in array U, signed
# by one boto3 process.
sign() {
	mapfile -t U < <(presign_many)
	assert_equal "${#U[@]}" "$1"
}

@test "a boto3-presigned PUT over verified TLS stores the object; GET reads it back" {
	sign 3 <<-EOF
		put up/blob.bin 60
		get up/blob.bin 60
		get up/blob.bin 60 $S3_URL
	EOF
	assert_equal "${U[0]%%\?*}" "$TLS_URL/$BUCKET/up/blob.bin" # path style
	run send PUT "${U[0]}" -T blob
	assert_output 200
	run send GET "${U[1]}"
	assert_output 200
	assert_equal "$(sha body)" "$(sha blob)"
	# The object really sits in the S3 server, not just in a proxy.
	run send GET "${U[2]}"
	assert_output 200
	assert_equal "$(sha body)" "$(sha blob)"
}

@test "a tampered signature, path or Host gets 403 SignatureDoesNotMatch and stores nothing" {
	local url last i
	sign 3 <<-EOF
		put tamper/a.bin 60
		get tamper/a.bin 60
		get tamper/b.bin 60
	EOF
	url=${U[0]}
	last=${url: -1}
	[ "$last" = 0 ] && last=1 || last=0
	run send PUT "${url%?}$last" -T blob
	assert_output 403
	assert grep -q '<Code>SignatureDoesNotMatch</Code>' body

	run send PUT "${url/tamper\/a.bin/tamper\/b.bin}" -T blob
	assert_output 403
	assert grep -q '<Code>SignatureDoesNotMatch</Code>' body

	run send PUT "$url" -T blob -H "Host: 127.0.0.1:$TLS_PORT"
	assert_output 403
	assert grep -q '<Code>SignatureDoesNotMatch</Code>' body

	# No signature at all: refused like a private bucket.
	run send PUT "${url%%\?*}" -T blob
	assert_output 403
	assert grep -q '<Code>AccessDenied</Code>' body

	for i in 1 2; do
		run send GET "${U[$i]}"
		assert_output 404
		assert grep -q '<Code>NoSuchKey</Code>' body
	done
	# The S3 server itself refused them (not nginx).
	run grep -c '^PUT /ebsbench-results/tamper/.* 403 SignatureDoesNotMatch$' \
		"$BATS_FILE_TMPDIR/peers/s3.log"
	assert_output 3
	# The untouched URL still works: the refusals were about the tampering.
	run send PUT "$url" -T blob
	assert_output 200
}

@test "an expired presigned URL gets 403 'Request has expired'" {
	local url
	url=$(presign put expired.bin 1)
	sleep 2
	run send PUT "$url" -T blob
	assert_output 403
	assert grep -q '<Code>AccessDenied</Code>' body
	assert grep -q '<Message>Request has expired</Message>' body
}

@test "a chunked upload without Content-Length gets 411 MissingContentLength" {
	run send PUT "$(presign put chunked.bin 60)" -T blob -H 'Transfer-Encoding: chunked'
	assert_output 411
	assert grep -q '<Code>MissingContentLength</Code>' body
}

@test "TLS is verified: the test CA passes, the wrong CA fails" {
	run send GET "$TLS_URL/"
	assert_success
	assert_output 403 # S3's answer to an unsigned request: TLS went through
	run -60 curl -sS --cacert "$WRONG_CA_FILE" --max-time 10 "$TLS_URL/"
	assert_output --partial 'certificate'
	run -60 curl -sS --max-time 10 "$TLS_URL/" # the system CAs know nothing of it
	# No IP SAN: only the name localhost matches.
	run -60 curl -sS --cacert "$CA_FILE" --max-time 10 "https://127.0.0.1:$TLS_PORT/"
	assert_output --partial '127.0.0.1'

}

@test "the stall endpoints hang until the client's timeout" {
	local t0 t1
	t0=$(date +%s%N)
	run -28 curl -sS --cacert "$CA_FILE" --max-time 2 "$STALL_URL/"
	t1=$(date +%s%N)
	echo "took $(((t1 - t0) / 1000000)) ms"
	(((t1 - t0) >= 1900000000 && (t1 - t0) < 6000000000))

	t0=$(date +%s%N)
	run -28 curl -sS --cacert "$CA_FILE" --max-time 2 -T blob "$STALL_TLS_URL/$BUCKET/stall.bin"
	t1=$(date +%s%N)
	echo "took $(((t1 - t0) / 1000000)) ms"
	(((t1 - t0) >= 1900000000 && (t1 - t0) < 6000000000))
}

@test "the fail-once proxy answers 500 to the first PUT of a path, then proxies" {
	sign 3 <<-EOF
		put flaky/a.bin 60 $FLAKY_URL
		get flaky/a.bin 60
		get flaky/a.bin 60 $FLAKY_URL
	EOF
	run send PUT "${U[0]}" -T blob
	assert_output 500
	assert grep -q '<Code>InternalError</Code>' body
	run send PUT "${U[0]}" -T blob
	assert_output 200
	run send GET "${U[1]}"
	assert_output 200
	assert_equal "$(sha body)" "$(sha blob)"
	# GETs are never failed; signatures are checked behind it too.
	run send GET "${U[2]}"
	assert_output 200
	run send GET "${U[2]}0"
	assert_output 403
	run awk '$2 ~ "^/ebsbench-results/flaky/a.bin[?]" { print $1, $3 }' "$FLAKY_LOG"
	assert_output $'PUT 500\nPUT 200\nGET 200\nGET 403'
}

@test "presigned POST fields are accepted (the policy signature is not checked)" {
	local json
	sign 2 <<-EOF
		post form/post.bin 60
		get form/post.bin 60
	EOF
	json=${U[0]}
	local -a form=()
	local k v
	while IFS=$'\t' read -r k v; do
		form+=(-F "$k=$v")
	done < <(jq -r '.fields | to_entries[] | [.key, .value] | @tsv' <<<"$json")
	assert [ "${#form[@]}" -ge 10 ] # key, policy, x-amz-{algorithm,credential,date,signature}
	run send POST "$(jq -r .url <<<"$json")" "${form[@]}" -F "file=@blob"
	assert_output 204
	run send GET "${U[1]}"
	assert_output 200
	assert_equal "$(sha body)" "$(sha blob)"
}
