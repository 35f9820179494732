#!/usr/bin/env bats
# ec2_launch.bats - `ebsbench ec2 ... --launch`, end to end against a fake
# AWS CLI (tests/ec2/fake-aws, first on PATH: it records each call, keeps
# run-instances' input, and plays an instance's life, its pretend appliance
# fetching the binary through the user-data's presigned GET and uploading a
# rendered run through its POST policy) and the SigV4-checking S3 peer
# behind verified TLS (tests/peers):
#   - the calls in order (sts, ssm, run-instances, describe-instances,
#     terminate-instances of exactly the launched id), run-instances' input
#     on its stdin with the user-data and the run's tags, the progress on
#     stderr, the files fetched, report.html's path alone on stdout; no
#     secret on stdout or stderr;
#   - run-instances refused: one line, exit 1, nothing to terminate;
#   - each preflight failure one line and its exit status (no aws or no
#     credentials 3, an image that does not resolve 4, S3 refusing 5),
#     nothing launched;
#   - SIGINT mid-run: the instance terminated, what it uploaded fetched,
#     exit 7; an instance that ends before the run's report: exit 6;
#   - --keep: no terminate-instances; nor for an instance whose tags are
#     not this run's (exit 1).

bats_require_minimum_version 1.5.0

load helpers
load ../peers/peers
load launch_helpers
load_bats_libs

# The S3 server's only key pair (s3.sh takes it from here).
export AWS_ACCESS_KEY_ID=AKIAEBSBENCHEC2LNCH1
export AWS_SECRET_ACCESS_KEY='l4unch/Secret+Key/ebsbench000000000000000'
SECRET=$AWS_SECRET_ACCESS_KEY
EC2_TESTS=$BATS_TEST_DIRNAME/../ec2

setup_file() {
	require_ebsbench
	peers_start "$BATS_FILE_TMPDIR/peers"
	# The run the pretend appliance uploads.
	export FAKE_RUN=$BATS_FILE_TMPDIR/run
	render_fake_run "$FAKE_RUN"
	# A small stand-in for the binary the instance fetches (the real one
	# is a megabyte; ec2_cmd.bats uploads it).
	head -c 4096 /dev/urandom >"$BATS_FILE_TMPDIR/ebsbench"
	mkdir -p "$BATS_FILE_TMPDIR/bin"
	ln -s "$(cd "$EC2_TESTS" && pwd)/fake-aws" "$BATS_FILE_TMPDIR/bin/aws"
}

teardown_file() {
	peers_stop "$BATS_FILE_TMPDIR/peers"
}

setup() {
	cd "$BATS_TEST_TMPDIR"
	export PATH=$BATS_FILE_TMPDIR/bin:$PATH FAKE_AWS_DIR=$BATS_TEST_TMPDIR/aws
	export FAKE_CACERT=$CA_FILE EBSBENCH_EC2_POLL_S=1
	unset FAKE_CREDS FAKE_SSM FAKE_LAUNCH FAKE_RUN_MODE FAKE_TAGS
	PREFIX=runs/launch-$BATS_TEST_NUMBER-$RANDOM
}

# launch ARGS...: `ebsbench ec2 --launch` at the peer's prefix PREFIX.
launch() {
	run --separate-stderr "$EBSBENCH" ec2 --launch --volume gp3:100 --volume gp2:100 \
		--s3 "s3://$BUCKET/$PREFIX" --region ap-northeast-2 --endpoint "$TLS_URL" \
		--ca-file "$CA_FILE" --binary "$BATS_FILE_TMPDIR/ebsbench" "$@"
}

# The calls, each reduced to its service and operation.
ops() {
	awk '{ i = 1; while ($i ~ /^--/) i += 2; print $i " " $(i + 1) }' "$FAKE_AWS_DIR/calls.log" | uniq
}

# nothing_secret: no secret key, policy or signature in stdout or stderr.
nothing_secret() {
	secret_free "$(jq -r .UserData "$FAKE_AWS_DIR/input.json" |
		sed -n "/cat <<'CONFIG'$/,/^CONFIG$/p" | sed '1d;$d' | jq -r .upload.post.fields.policy)"
}

@test "one command: preflight, run-instances, progress, the results fetched, the instance terminated" {
	# The profile, for ebsbench's signing and for every aws call.
	printf '[bench]\naws_access_key_id = %s\naws_secret_access_key = %s\n' \
		"$AWS_ACCESS_KEY_ID" "$SECRET" >credentials
	AWS_SHARED_CREDENTIALS_FILE=$PWD/credentials launch --profile bench
	assert_success
	nothing_secret
	local name=${PREFIX##*/}
	assert_equal "$output" "$name/report.html"
	for f in results.json summary.md report.html; do
		cmp "$FAKE_RUN/$f" "$name/$f"
	done
	assert_equal "$(ops | tr '\n' ,)" \
		"sts get-caller-identity,ssm get-parameters,ec2 run-instances,ec2 describe-instances,ec2 terminate-instances,"
	# Every call with the region and profile, JSON out.
	run grep -vc '^--region ap-northeast-2 --profile bench --output json ' "$FAKE_AWS_DIR/calls.log"
	assert_output 0
	grep -qx -- "--region ap-northeast-2 --profile bench --output json ssm get-parameters --names /aws/service/ami-amazon-linux-latest/al2023-ami-kernel-default-x86_64" "$FAKE_AWS_DIR/calls.log"
	grep -qx -- "--region ap-northeast-2 --profile bench --output json ec2 run-instances --cli-input-json file:///dev/stdin" "$FAKE_AWS_DIR/calls.log"
	# Exactly the launched instance terminated, once.
	run grep -c "terminate-instances" "$FAKE_AWS_DIR/calls.log"
	assert_output 1
	grep -qx -- "--region ap-northeast-2 --profile bench --output json ec2 terminate-instances --instance-ids i-0fa4e5c0ffee12345" "$FAKE_AWS_DIR/calls.log"
	# The input: the volumes, shutdown behaviour, the run's tags and the
	# user-data whose binary the appliance fetched and checked.
	jq -e '.InstanceInitiatedShutdownBehavior == "terminate" and
		([.BlockDeviceMappings[].Ebs.VolumeType] == ["gp3", "gp2"]) and
		([.TagSpecifications[] | select(.ResourceType == "instance") | .Tags[] | select(.Key == "ebsbench:prefix") | .Value] == ["'"$PREFIX/"'"])' \
		"$FAKE_AWS_DIR/input.json"
	grep -qx "binary ok" "$FAKE_AWS_DIR/appliance.log"
	# The progress: the instance's state, then the files uploaded.
	[[ $stderr == *"ebsbench ec2: aws answers as arn:aws:iam::123456789012:user/bench"* ]] || fail "$stderr"
	[[ $stderr == *"ebsbench ec2: launched instance i-0fa4e5c0ffee12345 (ebsbench-"*"): plan "*" s, deadline "* ]] || fail "$stderr"
	[[ $stderr == *"ebsbench ec2: instance i-0fa4e5c0ffee12345 pending"$'\n'* ]] || fail "$stderr"
	[[ $stderr == *"ebsbench ec2: instance i-0fa4e5c0ffee12345 running, 1 file uploaded"$'\n'* ]] || fail "$stderr"
	[[ $stderr == *", 3 files uploaded, the run has ended"$'\n'* ]] || fail "$stderr"
	[[ $stderr == *"ebsbench ec2: terminated instance i-0fa4e5c0ffee12345"* ]] || fail "$stderr"
}

@test "run-instances refused: one line, exit 1, nothing terminated" {
	FAKE_LAUNCH=refused launch
	assert_failure 1
	assert_equal "$output" ""
	# aws's identity, the binary's upload (two lines), the failure
	assert_equal "$(grep -c '' <<<"$stderr")" 4
	[[ $stderr == *"ebsbench ec2: aws ec2 run-instances failed: An error occurred (InsufficientInstanceCapacity) when calling the RunInstances operation: We currently do not have sufficient m5.xlarge capacity in the Availability Zone you requested (ap-northeast-2a). (nothing runs; the binary is under s3://$BUCKET/$PREFIX/: give the next try a new --s3 prefix)" ]] || fail "$stderr"
	assert_equal "$(ops | tail -1)" "ec2 run-instances"
}

@test "preflight: no aws, no credentials, no image, S3 refusing: one line each, its status, nothing launched" {
	run --separate-stderr env PATH=/nonexistent "$EBSBENCH" ec2 --launch --volume gp3:100 \
		--s3 "s3://$BUCKET/$PREFIX" --region ap-northeast-2 --endpoint "$TLS_URL"
	assert_failure 3
	assert_equal "$stderr" "ebsbench ec2: the AWS CLI's credentials do not answer (aws sts get-caller-identity: aws is not on PATH: install it, or put it there): check aws's configuration (--profile)"
	FAKE_CREDS=none launch
	assert_failure 3
	assert_equal "$output" ""
	assert_equal "$stderr" "ebsbench ec2: the AWS CLI's credentials do not answer (aws sts get-caller-identity: Unable to locate credentials. You can configure credentials by running \"aws configure\".): check aws's configuration (--profile)"
	FAKE_SSM=missing launch
	assert_failure 4
	[[ $stderr == *"ebsbench ec2: the image resolve:ssm:/aws/service/ami-amazon-linux-latest/al2023-ami-kernel-default-x86_64 does not resolve in ap-northeast-2 (no such parameter in this region): give --image-id an AMI or resolve:ssm:PARAMETER of that region" ]] || fail "$stderr"
	AWS_SECRET_ACCESS_KEY='wr0ng/Secret+Key' launch
	assert_failure 5
	[[ $stderr == *"ebsbench ec2: S3 refused the listing of s3://$BUCKET/$PREFIX/: HTTP 403 SignatureDoesNotMatch: "*": check the bucket, its region and the credentials (--profile)" ]] || fail "$stderr"
	run ! grep -q 'run-instances' "$FAKE_AWS_DIR/calls.log"
	assert_file_not_exists "$FAKE_AWS_DIR/input.json"
}

@test "SIGINT mid-run: the instance terminated, what it uploaded fetched, exit 7" {
	FAKE_RUN_MODE=endless "$EBSBENCH" ec2 --launch --volume gp3:100 \
		--s3 "s3://$BUCKET/$PREFIX" --region ap-northeast-2 --endpoint "$TLS_URL" \
		--ca-file "$CA_FILE" --binary "$BATS_FILE_TMPDIR/ebsbench" --out back \
		>launch.out 2>launch.err 3>&- &
	local pid=$! i rc=0
	for ((i = 0; i < 300; i++)); do
		grep -q "running, 1 file uploaded" launch.err && break
		sleep 0.1
	done
	grep -q "running, 1 file uploaded" launch.err || fail "$(cat launch.err)"
	kill -INT "$pid"
	wait "$pid" || rc=$?
	assert_equal "$rc" 7
	grep -qx -- "--region ap-northeast-2 --output json ec2 terminate-instances --instance-ids i-0fa4e5c0ffee12345" "$FAKE_AWS_DIR/calls.log"
	assert_equal "$(cat launch.out)" back/summary.md
	cmp "$FAKE_RUN/summary.md" back/summary.md
	grep -qF "ebsbench ec2: stopping: terminating instance i-0fa4e5c0ffee12345" launch.err
	grep -qF "ebsbench ec2: stopped before its end (exit 7)" launch.err
	output=$(cat launch.out) stderr=$(cat launch.err) nothing_secret
}

@test "the instance ends before the run's report: what it uploaded fetched, exit 6" {
	FAKE_RUN_MODE=failed launch --out back
	assert_failure 6
	assert_equal "$output" back/summary.md
	cmp "$FAKE_RUN/summary.md" back/summary.md
	[[ $stderr == *"ebsbench ec2: the instance is "*" (Client.InstanceInitiatedShutdown: Instance initiated shutdown) before the run recorded its report"* ]] || fail "$stderr"
}

@test "--keep: the instance left, not terminated" {
	launch --keep --out kept
	assert_success
	assert_equal "$output" kept/report.html
	run ! grep -q 'terminate-instances' "$FAKE_AWS_DIR/calls.log"
	[[ $stderr == *"ebsbench ec2: kept instance i-0fa4e5c0ffee12345 (it powers itself off at the run's end"* ]] || fail "$stderr"
}

@test "an instance without this run's tags is not terminated: said, exit 1" {
	FAKE_TAGS=foreign launch --out back
	assert_failure 1
	assert_equal "$output" back/report.html
	run ! grep -q 'terminate-instances' "$FAKE_AWS_DIR/calls.log"
	[[ $stderr == *"ebsbench ec2: instance i-0fa4e5c0ffee12345 does not carry this run's tags (Name ebsbench-"*", ebsbench:prefix $PREFIX/): not terminated"* ]] || fail "$stderr"
}

@test "bad usage: --launch's options alone, with --user-data, a used prefix, a DIR not empty" {
	run --separate-stderr "$EBSBENCH" ec2 --volume gp3:100 --s3 "s3://$BUCKET/$PREFIX" \
		--region ap-northeast-2 --keep
	assert_failure 2
	assert_equal "$stderr" "ebsbench ec2: --keep and --out go with --launch (try ebsbench ec2 --help)"
	launch --user-data
	assert_failure 2
	mkdir full
	touch full/x
	launch --out full
	assert_failure 2
	assert_equal "$stderr" "ebsbench ec2: full is not empty: give --out a new directory"
	curl -fsS --cacert "$CA_FILE" -o /dev/null -T "$FAKE_RUN/summary.md" \
		"$(presign put "$PREFIX/summary.md" 60)"
	launch
	assert_failure 2
	[[ $stderr == *"ebsbench ec2: s3://$BUCKET/$PREFIX/ holds objects already: give --s3 a prefix of its own to this run" ]] || fail "$stderr"
	assert_file_not_exists "$FAKE_AWS_DIR/input.json"
}
