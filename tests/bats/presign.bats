#!/usr/bin/env bats
# presign.bats - `ebsbench presign`: its URLs are the ones the real AWS SDK
# (boto3, path-style, SigV4) makes for the same key, time and expiry, its
# POST policy carries a signature botocore agrees with, a SigV4-checking S3
# server (tests/peers) accepts its URLs and refuses tampered or expired
# ones, errors are one line with exit 2, and the secret key never shows.

bats_require_minimum_version 1.5.0

load helpers
load ../peers/peers
load_bats_libs

KEY_ID=AKIAIOSFODNN7EXAMPLE
SECRET=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY
# A session token with every character that needs encoding in a query.
TOKEN='FwoGZXIvYXdzEJr//////////wEaDH+test/token=='
NOW=20260902T000000Z

setup_file() {
	require_ebsbench
	/usr/bin/python3 -c 'import boto3' 2>/dev/null || {
		echo "# python3-boto3 is missing under /usr/bin/python3" \
			"(apt-get install python3-boto3; tests/peers/install.sh does it)" >&2
		return 1
	}
	write_boto3_check "$BATS_FILE_TMPDIR/boto3_check.py"
}

setup() {
	cd "$BATS_TEST_TMPDIR"
	export AWS_ACCESS_KEY_ID=$KEY_ID AWS_SECRET_ACCESS_KEY=$SECRET
	unset AWS_SESSION_TOKEN
	export EBSBENCH_PRESIGN_TIME=$NOW
	# No shared files of the machine's: the environment's keys are the ones.
	export AWS_SHARED_CREDENTIALS_FILE=$BATS_TEST_TMPDIR/no/credentials
	export AWS_CONFIG_FILE=$BATS_TEST_TMPDIR/no/config
	unset AWS_PROFILE
}

teardown() {
	[ -z "${PEERS_RUN:-}" ] || peers_stop "$PEERS_RUN"
}

# write_boto3_check FILE: the reference.  put: every URL in our block
# against boto3's generate_presigned_url(put_object); post: our fields and
# policy against generate_presigned_post, and our signature recomputed by
# botocore over our own policy bytes.  botocore's clock is frozen at the
# time we signed with.
write_boto3_check() {
	cat >"$1" <<-'PY'
	import base64, datetime, json, sys, unittest.mock as mock
	from urllib.parse import urlsplit, parse_qs
	import boto3, botocore.auth, botocore.signers
	from botocore.awsrequest import AWSRequest
	from botocore.config import Config

	mode, block_file, bucket, prefix, region, endpoint, expires, stamp = sys.argv[1:9]
	when = datetime.datetime.strptime(stamp, "%Y%m%dT%H%M%SZ")

	class Frozen(datetime.datetime):
	    @classmethod
	    def utcnow(cls):
	        return cls(*when.timetuple()[:6])

	def client():
	    return boto3.session.Session(region_name=region).client(
	        "s3", endpoint_url=endpoint or None,
	        config=Config(signature_version="s3v4", s3={"addressing_style": "path",
	                                                  "us_east_1_regional_endpoint": "regional"}))

	def split(url):
	    u = urlsplit(url)
	    return u.scheme, u.netloc, u.path, parse_qs(u.query, strict_parsing=True)

	def check_put(block):
	    urls, bad = block["upload"]["put"], 0
	    s3 = client()
	    for name, ours in urls.items():
	        theirs = s3.generate_presigned_url(
	            "put_object", Params={"Bucket": bucket, "Key": prefix + name},
	            ExpiresIn=int(expires))
	        if split(ours) != split(theirs):
	            bad += 1
	            print("MISMATCH %s\n  ours   %s\n  boto3  %s" % (name, ours, theirs))
	    print("%d of %d URLs equal boto3's (signature, path, host, query)"
	          % (len(urls) - bad, len(urls)))
	    return bad == 0 and len(urls) > 0

	def policy_of(fields):
	    doc = json.loads(base64.b64decode(fields["policy"]))
	    doc["conditions"] = sorted(json.dumps(c, sort_keys=True) for c in doc["conditions"])
	    return doc

	def check_post(block):
	    post = block["upload"]["post"]
	    ours = post["fields"]
	    limit = json.loads(base64.b64decode(ours["policy"]))["conditions"][-1]
	    s3 = client()
	    theirs = s3.generate_presigned_post(
	        bucket, prefix + "${filename}", Conditions=[limit], ExpiresIn=int(expires))
	    ok = post["url"] == theirs["url"] and post["key_prefix"] == prefix
	    for k in ("x-amz-algorithm", "x-amz-credential", "x-amz-date", "x-amz-security-token"):
	        ok &= ours.get(k) == theirs["fields"].get(k)
	    ok &= policy_of(ours) == policy_of(theirs["fields"])
	    creds = s3._request_signer._credentials
	    req = AWSRequest(method="POST", url=post["url"])
	    req.context["timestamp"] = stamp
	    sig = botocore.auth.SigV4Auth(creds, "s3", region).signature(ours["policy"], req)
	    ok &= sig == ours["x-amz-signature"]
	    print("post: url, fields and policy %s boto3's; signature %s botocore's (%s)"
	          % ("equal" if ok else "DIFFER from", "equals" if sig == ours["x-amz-signature"]
	             else "DIFFERS from", sig))
	    return ok

	with mock.patch.object(botocore.auth.datetime, "datetime", Frozen), \
	     mock.patch.object(botocore.signers.datetime, "datetime", Frozen):
	    block = json.load(open(block_file))
	    sys.exit(0 if (check_put if mode == "put" else check_post)(block) else 1)
	PY
}

# boto3_check put|post BLOCK BUCKET PREFIX REGION ENDPOINT EXPIRES_S
boto3_check() {
	/usr/bin/python3 "$BATS_FILE_TMPDIR/boto3_check.py" "$@" "$NOW"
}

@test "PUT URLs equal boto3's for every artifact (AWS endpoint, session token, odd prefix)" {
	export AWS_SESSION_TOKEN=$TOKEN
	run --separate-stderr "$EBSBENCH" presign --bucket ebsbench-results \
		--prefix '/runs/2026 09+ü' --region ap-northeast-2 --expires 6h
	assert_success
	echo "$output" >block.json
	json_doc block.json
	# The seed's run: 8 report files (report.html included), 6 phases' and
	# 6 load curve steps' IOPS logs for each of gp2 and gp3, and the
	# histogram logs of their randread and lat phases.
	assert_equal "$(jq '.upload.put | length' block.json)" 36
	assert_equal "$(jq -r '.upload.expires' block.json)" 2026-09-02T06:00:00Z
	run boto3_check put block.json ebsbench-results 'runs/2026 09+ü/' ap-northeast-2 "" 21600
	echo "$output"
	assert_success
	assert_output --partial "36 of 36 URLs equal boto3's"
	# Query parameters in canonical order, the signature last.
	jq -r '.upload.put["results.json"]' block.json | sed 's/.*?//; s/=[^&]*//g' >order
	assert_equal "$(cat order)" \
		"X-Amz-Algorithm&X-Amz-Credential&X-Amz-Date&X-Amz-Expires&X-Amz-Security-Token&X-Amz-SignedHeaders&X-Amz-Signature"
}

@test "PUT URLs equal boto3's for an S3-compatible endpoint with a port" {
	for endpoint in http://127.0.0.1:4569 https://localhost:8443; do
		run --separate-stderr "$EBSBENCH" presign --bucket bkt.with.dots --prefix p \
			--region us-east-1 --expires 7d --endpoint "$endpoint"
		assert_success
		echo "$output" >block.json
		jq -r '.upload.put["results.json"]' block.json |
			grep -q "^$endpoint/bkt.with.dots/p/results.json?"
		run boto3_check put block.json bkt.with.dots p/ us-east-1 "$endpoint" 604800
		echo "$output"
		assert_success
	done
}

@test "--plan lists exactly the files that run writes" {
	cat >plan.json <<-'JSON'
	{"devices": [{"path": "/dev/nvme1n1", "label": "data", "type": "gp3"},
	             {"volume_id": "vol-0123456789abcdef0", "type": "gp2"},
	             {"path": "/dev/nvme3n1", "type": "gp2"}],
	 "phases": [{"phase": "randread", "runtime": 60}, {"phase": "seqwrite"}]}
	JSON
	run --separate-stderr "$EBSBENCH" presign --bucket b-1 --prefix p --region us-east-1 \
		--expires 1h --plan plan.json
	assert_success
	echo "$output" | jq -r '.upload.put | keys_unsorted[]' >names
	printf '%s\n' results.json summary.md iops_timeline.svg latency_percentiles.svg \
		latency_heatmap.svg recommend.md report.html \
		data_rr_iops.1.log data_rr_clat_hist.1.log gp2_rr_iops.1.log \
		gp2_rr_clat_hist.1.log gp2-2_rr_iops.1.log gp2-2_rr_clat_hist.1.log \
		data_sw_iops.1.log gp2_sw_iops.1.log gp2-2_sw_iops.1.log >want
	diff want names
	echo "$output" >block.json
	run boto3_check put block.json b-1 p/ us-east-1 "" 3600
	assert_success
}

@test "--post: fields and policy equal boto3's, signature equals botocore's" {
	export AWS_SESSION_TOKEN=$TOKEN
	run --separate-stderr "$EBSBENCH" presign --bucket ebsbench-results --prefix runs/7 \
		--region eu-west-1 --expires 2h --post --max-size 64M
	assert_success
	echo "$output" >block.json
	assert_equal "$(jq -r .upload.post.key_prefix block.json)" runs/7/
	jq -r .upload.post.fields.policy block.json | base64 -d |
		jq -e '.conditions | index([["content-length-range", 0, 67108864]])'
	run boto3_check post block.json ebsbench-results runs/7/ eu-west-1 "" 7200
	echo "$output"
	assert_success
	# Devices the kernel names on the instance: no PUT list, but POST works.
	echo '{"devices": [{"volume_id": "vol-0123456789abcdef0"}]}' >plan.json
	run --separate-stderr "$EBSBENCH" presign --bucket ebsbench-results --prefix runs/7 \
		--region eu-west-1 --expires 2h --post --plan plan.json
	assert_success
	[[ $stderr != *warning* ]]
	run --separate-stderr "$EBSBENCH" presign --bucket ebsbench-results --prefix runs/7 \
		--region eu-west-1 --expires 10m --post --plan plan.json
	assert_success
	[[ $stderr == *"warning: the plan runs about"* ]]
}

@test "errors: missing credentials, bad --expires, unknown option: exit 2, one line" {
	one_line_error() {
		assert_failure 2
		assert_equal "$output" ""
		assert_equal "$(printf '%s\n' "$stderr" | wc -l)" 1
		[[ $stderr == "ebsbench presign: "* ]]
	}
	local args=(--bucket ebsbench-results --prefix p --region us-east-1)
	run --separate-stderr env -u AWS_ACCESS_KEY_ID "$EBSBENCH" presign "${args[@]}" --expires 1h
	one_line_error
	assert_equal "$stderr" "ebsbench presign: AWS_SECRET_ACCESS_KEY is set but AWS_ACCESS_KEY_ID is not"
	run --separate-stderr env AWS_SECRET_ACCESS_KEY= "$EBSBENCH" presign "${args[@]}" --expires 1h
	one_line_error
	assert_equal "$stderr" "ebsbench presign: AWS_ACCESS_KEY_ID is set but AWS_SECRET_ACCESS_KEY is not"
	run --separate-stderr env -u AWS_ACCESS_KEY_ID -u AWS_SECRET_ACCESS_KEY "$EBSBENCH" presign \
		"${args[@]}" --expires 1h
	one_line_error
	assert_equal "$stderr" "ebsbench presign: no AWS credentials: AWS_ACCESS_KEY_ID is not set and profile 'default' is in neither $AWS_SHARED_CREDENTIALS_FILE (no such file) nor $AWS_CONFIG_FILE (no such file)"
	for bad in 8d 169h 6 0m 6x abc -1h; do
		run --separate-stderr "$EBSBENCH" presign "${args[@]}" --expires "$bad"
		one_line_error
		[[ $stderr == *"--expires '$bad'"* ]]
	done
	run --separate-stderr "$EBSBENCH" presign "${args[@]}" --expires 1h --frobnicate
	one_line_error
	[[ $stderr == *"unknown option --frobnicate"* ]]
	run --separate-stderr "$EBSBENCH" presign --bucket b-1 --region us-east-1 --expires 1h
	one_line_error
	run --separate-stderr "$EBSBENCH" presign "${args[@]}" --expires 1h --endpoint ftp://h
	one_line_error
	run --separate-stderr "$EBSBENCH" presign --bucket Bad_Bucket --prefix p \
		--region us-east-1 --expires 1h
	one_line_error
	run --separate-stderr env EBSBENCH_PRESIGN_TIME=yesterday "$EBSBENCH" presign "${args[@]}" \
		--expires 1h
	one_line_error
	echo '{"devices": [{"volume_id": "vol-1"}]}' >plan.json
	run --separate-stderr "$EBSBENCH" presign "${args[@]}" --expires 1h --plan plan.json
	one_line_error
	[[ $stderr == *label* ]]
}

@test "the secret key never appears; stderr says the output is a secret" {
	export AWS_SESSION_TOKEN=$TOKEN
	local args=(--bucket ebsbench-results --prefix p --region us-east-1)
	for extra in "" --post "--endpoint http://127.0.0.1:1" "--expires 9d" "--bogus"; do
		# shellcheck disable=SC2086 # word splitting of extra is wanted
		run --separate-stderr "$EBSBENCH" presign "${args[@]}" --expires 6h $extra
		[[ $output != *"$SECRET"* && $stderr != *"$SECRET"* ]]
		# Nor any recognisable piece of it (base64 or URL-encoded forms).
		[[ $output != *"K7MDENG"* && $stderr != *"K7MDENG"* ]]
	done
	run --separate-stderr "$EBSBENCH" presign "${args[@]}" --expires 6h
	assert_success
	[[ $stderr == *"credentials-bearing URLs"*"store it as a secret"* ]]
}

@test "warns when the URLs expire before the plan is done" {
	run --separate-stderr "$EBSBENCH" presign --bucket b-1 --prefix p --region us-east-1 \
		--expires 30m
	assert_success
	[[ $stderr == *"warning: the plan runs about"*"raise --expires"* ]]
	run --separate-stderr "$EBSBENCH" presign --bucket b-1 --prefix p --region us-east-1 \
		--expires 1d
	assert_success
	[[ $stderr != *warning* ]]
}

@test "a SigV4-checking S3 server accepts the URLs over HTTP and verified TLS, and refuses tampered or expired ones" {
	PEERS_RUN=$BATS_TEST_TMPDIR/peers
	peers_start "$PEERS_RUN"
	unset EBSBENCH_PRESIGN_TIME
	head -c 100003 /dev/urandom >blob
	local url code
	for endpoint in "$S3_URL" "$TLS_URL"; do
		run --separate-stderr "$EBSBENCH" presign --bucket "$BUCKET" --prefix "e2e/$RANDOM" \
			--region "$AWS_DEFAULT_REGION" --expires 10m --endpoint "$endpoint"
		assert_success
		url=$(echo "$output" | jq -r '.upload.put["results.json"]')
		code=$(curl -sS --cacert "$CA_FILE" -o /dev/null -w '%{http_code}' -T blob "$url")
		assert_equal "$code" 200
		# Read back with boto3's own GET URL: the bytes are in the server.
		local key=${url#"$endpoint/$BUCKET/"}
		key=${key%%\?*}
		curl -sS --cacert "$CA_FILE" -o back "$(presign get "$key" 60 "$endpoint")"
		cmp blob back
		# Another key under the same signature: refused.
		code=$(curl -sS --cacert "$CA_FILE" -o /dev/null -w '%{http_code}' -T blob \
			"${url/results.json/summary.md}")
		assert_equal "$code" 403
	done
	# Signed two hours ago for 30 minutes: expired.
	run --separate-stderr env EBSBENCH_PRESIGN_TIME="$(date -u -d '2 hours ago' +%Y%m%dT%H%M%SZ)" \
		"$EBSBENCH" presign --bucket "$BUCKET" --prefix old --region "$AWS_DEFAULT_REGION" \
		--expires 30m --endpoint "$S3_URL"
	assert_success
	url=$(echo "$output" | jq -r '.upload.put["results.json"]')
	code=$(curl -sS -o /dev/null -w '%{http_code}' -T blob "$url")
	assert_equal "$code" 403
}
