#!/usr/bin/env bats
# credentials.bats - `ebsbench presign` finds credentials where AWS's own
# tools do, in files the real AWS CLI v2 writes (/usr/bin/aws configure
# set): the environment first, then a profile named by --profile or
# AWS_PROFILE, else default, in the shared credentials and config files,
# and a credential_process that is the CLI's own `aws configure
# export-credentials`.  Each signs URLs the SigV4-checking S3 peer accepts
# (and a wrong key's it refuses); a missing profile or a failing process
# is one line and exit 2; the secret key never shows.

bats_require_minimum_version 1.5.0

load helpers
load ../peers/peers
load_bats_libs

# The S3 server's only key pair (s3.sh takes it from here), unlike anything
# else in the output, so a leak cannot hide.
export AWS_ACCESS_KEY_ID=AKIAEBSBENCHCRED0001
export AWS_SECRET_ACCESS_KEY='cr3d/Secret+Key/ebsbench00000000000000000'
KEY_ID=$AWS_ACCESS_KEY_ID
SECRET=$AWS_SECRET_ACCESS_KEY
WRONG_SECRET='wr0ng/Secret+Key/ebsbench0000000000000000'

setup_file() {
	require_ebsbench
	require_aws_cli_v2
	peers_start "$BATS_FILE_TMPDIR/peers"
}

teardown_file() {
	peers_stop "$BATS_FILE_TMPDIR/peers"
}

setup() {
	cd "$BATS_TEST_TMPDIR"
	export AWS_SHARED_CREDENTIALS_FILE=$PWD/aws/credentials AWS_CONFIG_FILE=$PWD/aws/config
	unset AWS_ACCESS_KEY_ID AWS_SECRET_ACCESS_KEY AWS_SESSION_TOKEN AWS_PROFILE
}

# aws_set PROFILE KEY_ID SECRET: the CLI writes the pair into the files.
aws_set() {
	"$AWS" configure set aws_access_key_id "$2" --profile "$1"
	"$AWS" configure set aws_secret_access_key "$3" --profile "$1"
}

# no_secret: neither the secret key nor the wrong one in stdout or stderr.
no_secret() {
	[[ $output != *"$SECRET"* && $stderr != *"$SECRET"* ]] || return 1
	[[ $output != *"$WRONG_SECRET"* && $stderr != *"$WRONG_SECRET"* ]] || return 1
	[[ $output != *Secret+Key* && $stderr != *Secret+Key* ]]
}

# put_status ARGS...: presign with ARGS for the TLS peer, PUT a file to the
# results.json URL and print the server's HTTP status; on 200 the bytes
# read back (through boto3's own GET URL) must be the ones sent.
put_status() {
	run --separate-stderr "$EBSBENCH" presign --bucket "$BUCKET" --region "$AWS_DEFAULT_REGION" \
		--prefix "cred/$BATS_TEST_NUMBER/$RANDOM" --expires 10m --endpoint "$TLS_URL" "$@"
	assert_success || return 1
	no_secret || return 1
	local url code key get
	url=$(jq -r '.upload.put["results.json"]' <<<"$output")
	[[ $url == *"X-Amz-Credential=$KEY_ID%2F"* ]] || return 1
	head -c 4099 /dev/urandom >blob
	code=$(curl -sS --cacert "$CA_FILE" -o /dev/null -w '%{http_code}' -T blob "$url")
	if [[ $code == 200 ]]; then
		key=${url#"$TLS_URL/$BUCKET/"}
		key=${key%%\?*}
		get=$(AWS_ACCESS_KEY_ID=$KEY_ID AWS_SECRET_ACCESS_KEY=$SECRET presign get "$key" 60)
		curl -fsS --cacert "$CA_FILE" -o back "$get" || return 1
		cmp blob back >&2 || return 1
	fi
	echo "$code"
}

# one_line_error: exit 2, nothing on stdout, one line on stderr, no secret.
one_line_error() {
	assert_failure 2
	assert_equal "$output" ""
	assert_equal "$(printf '%s\n' "$stderr" | wc -l)" 1
	[[ $stderr == "ebsbench presign: "* ]]
	no_secret
}

@test "a named profile written by aws configure set: by AWS_PROFILE and by --profile" {
	aws_set bench "$KEY_ID" "$SECRET"
	aws_set default "$KEY_ID" "$WRONG_SECRET"
	grep -qx '\[bench\]' aws/credentials
	export AWS_PROFILE=bench
	assert_equal "$(put_status)" 200
	unset AWS_PROFILE
	assert_equal "$(put_status --profile bench)" 200
	# --profile wins over AWS_PROFILE, and over keys in the environment.
	assert_equal "$(AWS_PROFILE=default put_status --profile bench)" 200
	assert_equal "$(AWS_ACCESS_KEY_ID=$KEY_ID AWS_SECRET_ACCESS_KEY=$WRONG_SECRET \
		put_status --profile bench)" 200
	# The default profile's secret is wrong: its signature is refused.
	assert_equal "$(put_status)" 403
}

@test "the default profile, with keys in the environment taken before it" {
	aws_set default "$KEY_ID" "$SECRET"
	assert_equal "$(put_status)" 200
	assert_equal "$(AWS_ACCESS_KEY_ID=$KEY_ID AWS_SECRET_ACCESS_KEY=$WRONG_SECRET put_status)" 403
	# The default profile's keys in the config file ([default]) serve as well.
	rm aws/credentials
	"$AWS" configure set aws_access_key_id "$KEY_ID" --profile default
	"$AWS" configure set aws_secret_access_key "$SECRET" --profile default
	mv aws/credentials aws/keys
	cat aws/keys >>aws/config
	grep -qx '\[default\]' aws/config
	assert_equal "$(put_status)" 200
}

@test "credential_process: aws configure export-credentials, by --profile and AWS_PROFILE" {
	aws_set src "$KEY_ID" "$SECRET"
	"$AWS" configure set credential_process \
		"$AWS configure export-credentials --profile src --format process" --profile proc
	grep -qx '\[profile proc\]' aws/config
	run "$AWS" configure export-credentials --profile src --format process
	assert_success
	assert_equal "$(jq -r '.Version, .AccessKeyId' <<<"$output")" "$(printf '1\n%s' "$KEY_ID")"
	assert_equal "$(put_status --profile proc)" 200
	assert_equal "$(AWS_PROFILE=proc put_status)" 200
}

@test "a missing profile, a failing or expired credential_process: one line, exit 2" {
	local args=(--bucket "$BUCKET" --prefix p --region us-east-1 --expires 1h)
	aws_set default "$KEY_ID" "$SECRET"
	run --separate-stderr "$EBSBENCH" presign "${args[@]}" --profile nosuch
	one_line_error
	assert_equal "$stderr" "ebsbench presign: no AWS credentials: profile 'nosuch' (from --profile) is in neither $PWD/aws/credentials nor $PWD/aws/config (no such file)"
	run --separate-stderr env AWS_PROFILE=nosuch "$EBSBENCH" presign "${args[@]}"
	one_line_error
	[[ $stderr == *"AWS_ACCESS_KEY_ID is not set and profile 'nosuch' (from AWS_PROFILE) is in neither"* ]]
	# A profile that exists with no keys at all.
	"$AWS" configure set region eu-west-1 --profile bare
	run --separate-stderr "$EBSBENCH" presign "${args[@]}" --profile bare
	one_line_error
	[[ $stderr == *"profile 'bare' (from --profile) has no aws_access_key_id"* ]]
	"$AWS" configure set credential_process \
		"$AWS configure export-credentials --profile nosuch --format process" --profile broken
	run --separate-stderr "$EBSBENCH" presign "${args[@]}" --profile broken
	one_line_error
	[[ $stderr == "ebsbench presign: credential_process of profile 'broken' (in $PWD/aws/config) failed (exit status "*"): "*"could not be found" ]]
	# A process whose credentials have run out.
	printf '#!/bin/sh\nprintf %s\n' \
		"'{\"Version\": 1, \"AccessKeyId\": \"$KEY_ID\", \"SecretAccessKey\": \"$SECRET\", \"Expiration\": \"2020-01-01T00:00:00Z\"}'" \
		>expired.sh
	chmod +x expired.sh
	"$AWS" configure set credential_process "$PWD/expired.sh" --profile old
	run --separate-stderr "$EBSBENCH" presign "${args[@]}" --profile old
	one_line_error
	[[ $stderr == *"credential_process of profile 'old'"*"expired at 2020-01-01T00:00:00Z" ]]
	# --help says the order.
	run "$EBSBENCH" presign --help
	assert_success
	[[ $output == *"AWS_ACCESS_KEY_ID"*"--profile, else AWS_PROFILE, else default"*"credential_process"* ]]
}
