#!/usr/bin/env bats
# ec2_cmd.bats - `ebsbench ec2` against the SigV4-checking S3 peer over
# verified TLS and the real AWS CLI v2:
#   - its stdout is an input `aws ec2 run-instances --cli-input-json` takes:
#     the request the real CLI sends (to tests/peers/aws_capture.py, which
#     records it and refuses it) holds the volumes in the block-device
#     mapping, the shutdown behaviour that ends the bill, IMDSv2 only, and
#     the user-data, base64 as EC2 wants it, byte for byte what --user-data
#     prints but for its signing time;
#   - the binary is in S3 under the prefix before anything is printed, and
#     the user-data's sha256 is its own;
#   - the user-data's config is what `ebsbench run --dry-run` plans, and its
#     POST policy outlives the run's deadline;
#   - each bad input: one line naming it, a non-zero exit, nothing on stdout
#     and nothing uploaded; no URL, signature or key on stderr.
# tests/bats/ec2_userdata.bats runs the user-data it writes.

bats_require_minimum_version 1.5.0

load helpers
load ../peers/peers
load_bats_libs

# The S3 peer's only key pair (s3.sh takes it from here).
export AWS_ACCESS_KEY_ID=AKIAEBSBENCHEC2CMD01
export AWS_SECRET_ACCESS_KEY='ec2c/Secret+Key/ebsbench0000000000000000'

setup_file() {
	require_ebsbench
	require_aws_cli_v2
	peers_start "$BATS_FILE_TMPDIR/peers"
	aws_capture_start "$BATS_FILE_TMPDIR"
}

teardown_file() {
	aws_capture_stop "$BATS_FILE_TMPDIR"
	peers_stop "$BATS_FILE_TMPDIR/peers"
}

setup() {
	cd "$BATS_TEST_TMPDIR"
	PREFIX="runs/$BATS_ROOT_PID/$BATS_TEST_NUMBER"
}

# ec2 ARGS...: `ebsbench ec2` for this test's prefix on the TLS peer (run
# --separate-stderr: $output, $stderr, $status).
ec2() {
	run --separate-stderr "$EBSBENCH" ec2 --s3 "s3://$BUCKET/$PREFIX" --region ap-northeast-2 \
		--endpoint "$TLS_URL" --ca-file "$CA_FILE" "$@"
}

# in_s3 KEY: whether the object is in the S3 peer (a presigned GET).
in_s3() {
	curl -fsS --cacert "$CA_FILE" -o /dev/null "$(presign get "$1" 60)"
}

@test "ec2: the real AWS CLI v2 sends run-instances with the volumes, the user-data and terminate" {
	"$EBSBENCH" ec2 --volume gp3:200:4000:250 --volume gp2:100 --volume io2:50:1000 \
		--s3 "s3://$BUCKET/$PREFIX" --region ap-northeast-2 --endpoint "$TLS_URL" \
		--ca-file "$CA_FILE" --instance-type m6i.2xlarge >input.json 2>err
	jq -e . input.json >/dev/null
	: >"$BATS_FILE_TMPDIR/capture.log"
	run "$AWS" ec2 run-instances --region ap-northeast-2 --endpoint-url "$CAPTURE_URL" \
		--cli-input-json file://input.json
	assert_failure
	assert_output --partial EbsbenchCapture
	local p
	p=$(jq -c 'select(.params.Action == "RunInstances") | .params' "$BATS_FILE_TMPDIR/capture.log")
	[ -n "$p" ]
	field() { jq -r --arg k "$1" '.[$k]' <<<"$p"; }
	assert_equal "$(field ImageId)" \
		resolve:ssm:/aws/service/ami-amazon-linux-latest/al2023-ami-kernel-default-x86_64
	assert_equal "$(field InstanceType)" m6i.2xlarge
	assert_equal "$(field InstanceInitiatedShutdownBehavior)" terminate
	assert_equal "$(field MetadataOptions.HttpTokens)" required
	assert_equal "$(field BlockDeviceMapping.1.DeviceName)" /dev/sdf
	assert_equal "$(field BlockDeviceMapping.1.Ebs.VolumeType)" gp3
	assert_equal "$(field BlockDeviceMapping.1.Ebs.VolumeSize)" 200
	assert_equal "$(field BlockDeviceMapping.1.Ebs.Iops)" 4000
	assert_equal "$(field BlockDeviceMapping.1.Ebs.Throughput)" 250
	assert_equal "$(field BlockDeviceMapping.1.Ebs.DeleteOnTermination)" true
	assert_equal "$(field BlockDeviceMapping.2.DeviceName)" /dev/sdg
	assert_equal "$(field BlockDeviceMapping.2.Ebs.VolumeType)" gp2
	assert_equal "$(field BlockDeviceMapping.2.Ebs.Iops)" null
	assert_equal "$(field BlockDeviceMapping.3.DeviceName)" /dev/sdh
	assert_equal "$(field BlockDeviceMapping.3.Ebs.Iops)" 1000
	assert_equal "$(field TagSpecification.1.Tag.2.Value)" "$PREFIX/"
	# EC2 receives the script base64-encoded, exactly as written.
	field UserData | base64 -d >sent.sh
	jq -j .UserData input.json | cmp - sent.sh
	head -1 sent.sh | grep -qx '#!/bin/bash'
	bash -n sent.sh
	# The binary went up first, and the script checks its sha256.
	in_s3 "$PREFIX/ebsbench"
	grep -qx "EBSBENCH_SHA256='$(sha256sum "$EBSBENCH" | cut -d' ' -f1)'" sent.sh
	# The config: three devices in mapping order, as the instance names them.
	awk '/^\tcat <<.CONFIG.$/ { f = 1; next } /^CONFIG$/ { f = 0 } f' sent.sh >config.json
	assert_equal "$(jq -c '[.devices[] | [.path, .type, .size_gib, .iops]]' config.json)" \
		'[["/dev/sdf","gp3",200,4000],["/dev/sdg","gp2",100,null],["/dev/sdh","io2",50,1000]]'
	assert_equal "$(jq -r .environment.instance_type config.json)" m6i.2xlarge
	assert_equal "$(jq -r .upload.post.key_prefix config.json)" "$PREFIX/"
	run cat err
	assert_output --partial "s3://$BUCKET/$PREFIX/"
	refute_output --partial X-Amz-Signature
	refute_output --partial "$(jq -r '.upload.post.fields["x-amz-signature"]' config.json)"
	refute_output --partial "$AWS_SECRET_ACCESS_KEY"
}

@test "ec2: the user-data's config is the run's plan, and its POST policy outlives the deadline" {
	ec2 --volume gp3:100 --volume gp2:100 --user-data
	assert_success
	awk '/^\tcat <<.CONFIG.$/ { f = 1; next } /^CONFIG$/ { f = 0 } f' <<<"$output" >config.json
	# Where the instance has /dev/sdf and /dev/sdg, this machine has loop
	# devices: the dry run plans the config as the instance will.
	local a b
	a=$(make_loop 8300)
	b=$(make_loop 8300)
	jq --arg a "$a" --arg b "$b" '.devices[0].path = $a | .devices[1].path = $b' config.json >here.json
	run --separate-stderr "$EBSBENCH" run --config here.json --dry-run --out out
	cleanup_loops
	assert_success
	local planned expires now
	planned=$(jq -r .planned_s <<<"$output")
	# The default plan on two 100 GiB volumes: over an hour.
	((${planned%.*} > 3600))
	expires=$(jq -r .upload.post.fields.policy config.json | base64 -d | jq -r .expiration)
	now=$(date -u +%s)
	# deadline = plan x 1.1 + 900 s start + 600 s grace; the policy: + 600 + 300.
	(($(date -ud "$expires" +%s) - now >= ${planned%.*} * 11 / 10 + 2400 - 60))
}

@test "ec2 --plan NAME: the named plan in the user-data's config, its policy sized to it; an unknown name one line" {
	ec2 --volume gp3:100 --plan sweep --user-data
	assert_success
	awk '/^\tcat <<.CONFIG.$/ { f = 1; next } /^CONFIG$/ { f = 0 } f' <<<"$output" >config.json
	assert_equal "$(jq -c .phases config.json)" '["sweep"]'
	local full short
	ec2 --volume gp3:100 --user-data
	full=$(awk '/^\tcat <<.CONFIG.$/ { f = 1; next } /^CONFIG$/ { f = 0 } f' <<<"$output" |
		jq -r .upload.post.fields.policy | base64 -d | jq -r .expiration)
	short=$(jq -r .upload.post.fields.policy config.json | base64 -d | jq -r .expiration)
	echo "policy until $short (sweep) and $full (the default plan)"
	(($(date -ud "$short" +%s) < $(date -ud "$full" +%s)))
	# quick: the config's own key, the default phases ended when steady.
	ec2 --volume gp3:100 --plan quick --user-data
	assert_success
	awk '/^\tcat <<.CONFIG.$/ { f = 1; next } /^CONFIG$/ { f = 0 } f' <<<"$output" >quick.json
	assert_equal "$(jq -c '[.plan, .phases]' quick.json)" '["quick",null]'
	short=$(jq -r .upload.post.fields.policy quick.json | base64 -d | jq -r .expiration)
	(($(date -ud "$short" +%s) < $(date -ud "$full" +%s)))
	ec2 --volume gp3:100 --plan nosuch --user-data
	assert_failure 2
	assert_equal "$stderr" "ebsbench ec2: --plan 'nosuch': the plans are: sweep, quick"
	assert_equal "$output" ""
}

@test "ec2: comments are dropped, here-documents kept: the script still parses and fits EC2" {
	ec2 --volume gp3:100 --user-data
	assert_success
	bash -n <<<"$output"
	refute_output --partial "# ---- fill in"
	# The python here-documents are intact.
	assert_output --partial 'env = cfg.setdefault("environment", {})'
	assert_output --partial 'print(d["volume_id"])'
	((${#output} < 16384))
}

@test "ec2: bad input is one line, a non-zero exit, nothing on stdout and nothing uploaded" {
	local cases=(
		"--volume gp9:100|unknown type 'gp9'"
		"--volume gp3:100:99999999|gp3:100:99999999"
		"--volume gp3:100 --config nope.json|--config nope.json"
		"--volume gp3:100 --config devices.json|names devices: give --volume"
		"--volume gp3:100 --config bogus.json|unknown key 'bogus'"
		"--volume gp3:100 --binary /nonexistent/ebsbench|cannot read /nonexistent/ebsbench"
	)
	echo '{"devices": [{"path": "/dev/sdz"}]}' >devices.json
	echo '{"bogus": 1}' >bogus.json
	local c args want
	for c in "${cases[@]}"; do
		args=${c%%|*} want=${c#*|}
		# shellcheck disable=SC2086
		run --separate-stderr "$EBSBENCH" ec2 $args --s3 "s3://$BUCKET/$PREFIX" \
			--region ap-northeast-2 --endpoint "$TLS_URL" --ca-file "$CA_FILE"
		assert_equal "$status" 2
		assert_equal "$output" ""
		[[ $stderr == *"$want"* ]] || fail "ec2 $args: stderr lacks '$want': $stderr"
		assert_equal "$(wc -l <<<"$stderr")" 1
	done
	run ! in_s3 "$PREFIX/ebsbench"
	run --separate-stderr "$EBSBENCH" ec2 --volume gp3:100 --s3 "s3://$BUCKET"
	assert_equal "$status" 2
	assert_equal "$output" ""
}

@test "ec2: no credentials, or an S3 that cannot be reached: one line, non-zero, nothing printed" {
	run --separate-stderr env -u AWS_ACCESS_KEY_ID -u AWS_SECRET_ACCESS_KEY \
		AWS_SHARED_CREDENTIALS_FILE=/nonexistent AWS_CONFIG_FILE=/nonexistent \
		"$EBSBENCH" ec2 --volume gp3:100 --s3 "s3://$BUCKET/$PREFIX" --region ap-northeast-2 \
		--endpoint "$TLS_URL" --ca-file "$CA_FILE"
	assert_equal "$status" 2
	assert_equal "$output" ""
	assert_equal "$(wc -l <<<"$stderr")" 1
	[[ $stderr == *credentials* ]] || fail "stderr: $stderr"
	# Nothing listens on the stall peer's plain port: S3 unreachable.
	run --separate-stderr "$EBSBENCH" ec2 --volume gp3:100 --s3 "s3://$BUCKET/$PREFIX" \
		--region ap-northeast-2 --endpoint https://localhost:1 --ca-file "$CA_FILE"
	assert_equal "$status" 1
	assert_equal "$output" ""
	[[ $stderr == *"ebsbench ec2: uploading the binary to S3 failed"* ]] || fail "stderr: $stderr"
	[[ $stderr != *X-Amz-* ]] || fail "a URL on stderr: $stderr"
}
