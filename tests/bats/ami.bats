#!/usr/bin/env bats
# ami.bats - image/ami/make-ami.sh and launch.sh without AWS, which cannot
# be reached from here.  What runs for real: the argument and config
# checks, the --dry-run command sequences, the IAM policy files (jq), the
# configs the scripts write (parsed by the real ebsbench), and every
# command line the scripts build, given to the real AWS CLI v2 (Debian's
# awscli) against a local endpoint that records the API request it makes
# and refuses it.
#
# What does NOT run for real is AWS itself: for the scripts' polling and
# answer parsing, `aws` on PATH is a RECORDING (standin_aws below) that
# replays canned JSON answers shaped like the AWS CLI reference's examples
# (import progress, instance states, block-device mappings, console output);
# the calls it got are then replayed through the real CLI for the record
# of the requests AWS would have received.

bats_require_minimum_version 1.5.0

load helpers
load ../peers/peers
load_bats_libs

AMI_DIR=$BATS_TEST_DIRNAME/../../image/ami
MAKE_AMI=$AMI_DIR/make-ami.sh
LAUNCH=$AMI_DIR/launch.sh
REAL_AWS=/usr/bin/aws
# A signature and a session token that must never be printed.
SIG=5ec2e7000000000000000000000000000000000000000000000000000000beef
TOKEN=EBSBENCHSECRETSESSIONTOKEN

setup_file() {
	# make deps installs Debian's awscli (v2); a test never installs.
	[[ -x $REAL_AWS ]] || {
		echo "# $REAL_AWS is missing: run make deps" >&2
		return 1
	}
	# (replay.py checks that it is v2: aws --version costs a second.)
	# The real CLI's own driver, one process for many command lines: a
	# fresh driver each (customizations keep state), one model loader for
	# all (loading the EC2 model is most of a call's cost).  Each call must
	# end in the endpoint's EbsbenchCapture error, nothing earlier.
	cat >"$BATS_FILE_TMPDIR/replay.py" <<-'PY'
		import contextlib, io, sys
		import awscli
		from awscli.clidriver import create_clidriver
		if not awscli.__version__.startswith("2."):
		    sys.exit("the real CLI is aws-cli/%s, not v2" % awscli.__version__)
		url, bad, loader = sys.argv[1], 0, None
		for path in sys.argv[2:]:
		    argv = [a.decode() for a in open(path, "rb").read().split(b"\0")[:-1]]
		    driver = create_clidriver()
		    if loader is None:
		        loader = driver.session.get_component("data_loader")
		    else:
		        driver.session.register_component("data_loader", loader)
		    err = io.StringIO()
		    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
		        rc = driver.main(argv + ["--endpoint-url", url])
		    if "EbsbenchCapture" not in err.getvalue():
		        bad += 1
		        print("the real CLI refused: aws %s: exit %s: %s" % (" ".join(argv), rc, err.getvalue().strip()))
		sys.exit(1 if bad else 0)
	PY
	# The endpoint the real CLI talks to (tests/peers/aws_capture.py):
	# records each request and answers every one with an error.
	aws_capture_start "$BATS_FILE_TMPDIR"
}

teardown_file() {
	aws_capture_stop "$BATS_FILE_TMPDIR"
}

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	# A PATH holding only what the scripts use: no aws unless a test adds one.
	BIN=$BATS_TEST_TMPDIR/bin
	mkdir -p "$BIN"
	local t
	for t in bash env jq sha256sum stat dd grep sed awk cut head tail mktemp wc rm cat dirname sleep tr; do
		ln -s "$(command -v "$t")" "$BIN/$t" || return 1
	done
	# The scripts run with only $BIN on PATH: "${MAKE_AMI_RUN[@]}" ...
	MAKE_AMI_RUN=(/usr/bin/env "PATH=$BIN" "$MAKE_AMI")
	LAUNCH_RUN=(/usr/bin/env "PATH=$BIN" "$LAUNCH")
	# The real CLI must find no profile or credentials of this machine.
	export AWS_CONFIG_FILE=/nonexistent AWS_SHARED_CREDENTIALS_FILE=/nonexistent
	export AWS_ACCESS_KEY_ID=AKIAEBSBENCHAMITEST0 AWS_SECRET_ACCESS_KEY=ami/test/secret
	export AWS_EC2_METADATA_DISABLED=true AWS_MAX_ATTEMPTS=1
	unset AWS_REGION AWS_DEFAULT_REGION AWS_SESSION_TOKEN
	export EBSBENCH_AMI_POLL_S=0
	# A disk image as make image shapes it: GPT header at sector 1, and the
	# UKI's command line somewhere inside.
	DISK=$BATS_TEST_TMPDIR/disk.raw
	truncate -s 1M "$DISK"
	printf 'EFI PART' | dd of="$DISK" bs=1 seek=512 conv=notrunc status=none
	printf 'console=ttyS0 ebsbench.image_digest=sha256:%064d' 7 |
		dd of="$DISK" bs=1 seek=70000 conv=notrunc status=none
	DISK_SHA=$(sha256sum "$DISK" | cut -c1-64)
	# A config as the README builds it: one POST policy for the uploads.
	jq -n --arg sig "$SIG" --arg token "$TOKEN" '{region: "ap-northeast-2",
	  upload: {post: {url: "https://s3.ap-northeast-2.amazonaws.com/my-results", key_prefix: "runs/1/",
	    fields: {policy: "eyJleHBpcmF0aW9uIjoiMjAyNi0wOS0wMlQwNjowMDowMFoifQ==",
	             "x-amz-algorithm": "AWS4-HMAC-SHA256",
	             "x-amz-credential": "AKIAEBSBENCHAMITEST0/20260902/ap-northeast-2/s3/aws4_request",
	             "x-amz-date": "20260902T000000Z", "x-amz-security-token": $token,
	             "x-amz-signature": $sig}},
	    expires: "2026-09-02T06:00:00Z"}}' >post.json
	# The same with PUT URLs.
	jq -n --arg sig "$SIG" --arg token "$TOKEN" '{upload: {put: {"results.json":
	  ("https://s3.ap-northeast-2.amazonaws.com/my-results/runs/1/results.json?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Security-Token=" + $token + "&X-Amz-Signature=" + $sig)}}}' >put.json
}

# one_line_error STATUS: the last run failed with STATUS and said why in
# exactly one line on stderr.
one_line_error() {
	assert_equal "$status" "$1"
	assert_equal "$(printf '%s\n' "$stderr" | grep -c .)" 1
	assert_output ''
}

# standin_aws: puts the RECORDING on PATH as `aws`.  Answers come from
# $ANS/<operation>.<n> (the n-th call), else $ANS/<operation>; a file
# $ANS/<operation>.err is an error.  Each call is logged in $ANS/calls;
# with STANDIN_REAL=1 the argument vectors of the calls that change
# something (not describe-*, get-*) are kept for replay_real.
standin_aws() {
	ANS=$BATS_TEST_TMPDIR/answers
	mkdir -p "$ANS"
	export ANS REAL_AWS
	cat >"$BIN/aws" <<-'SH'
		#!/bin/bash
		# A recording, not AWS (see ami.bats).
		if [[ $1 == --version ]]; then
		    echo "${STANDIN_VERSION:-aws-cli/2.9.19 Python/3.11.2 Linux source/x86_64.debian.12 (recording)}"
		    exit 0
		fi
		printf '%s\n' "$*" >>"$ANS/calls"
		op=$2 n=0
		read -r n <"$ANS/n.$op" 2>/dev/null
		n=$((n + 1))
		echo "$n" >"$ANS/n.$op"
		if [[ -n ${STANDIN_REAL:-} && $op != describe-* && $op != get-* ]]; then
		    # Kept for the real CLI (replay_real), file:// arguments copied.
		    seq=0
		    read -r seq <"$ANS/seq" 2>/dev/null
		    seq=$((seq + 1)) args=()
		    echo "$seq" >"$ANS/seq"
		    for a in "$@"; do
		        [[ $a == file://* ]] && /bin/cp "${a#file://}" "$ANS/file.$seq" && a=file://$ANS/file.$seq
		        args+=("$a")
		    done
		    printf -v seq %03d "$seq"
		    printf '%s\0' "${args[@]}" >"$ANS/argv.$seq"
		fi
		if [[ -f $ANS/$op.err ]]; then
		    IFS= read -r -d '' body <"$ANS/$op.err"
		    printf '%s' "$body" >&2
		    exit 254
		fi
		for f in "$ANS/$op.$n" "$ANS/$op"; do
		    [[ -f $f ]] && { IFS= read -r -d '' body <"$f"; printf '%s' "$body"; exit 0; }
		done
		exit 0
	SH
	chmod +x "$BIN/aws"
}

# answer OPERATION[.N] JSON
answer() {
	printf '%s\n' "$2" >"$ANS/$1"
}

# captured ACTION: the params of the recorded EC2 API requests for ACTION,
# one JSON object a line.
captured() {
	jq -c --arg a "$1" 'select(.params.Action == $a) | .params' "$BATS_FILE_TMPDIR/capture.log"
}

# jq_true FILTER [FILE]: the input is exactly one JSON document and FILTER
# is true of it (jq -e alone passes on empty input).
jq_true() {
	run -0 jq -se "length == 1 and (.[0] | $1)" "${@:2}"
}

# request ACTION FILTER: exactly one ACTION request was recorded, and its
# params pass the jq FILTER (jq -e alone passes on no input at all).
request() {
	local params
	params=$(captured "$1")
	[[ -n $params ]] || fail "no $1 request was recorded"
	jq_true "$2" <<<"$params"
}

# replay_real: every kept call, given to the real AWS CLI v2 (one process:
# its start-up is most of the cost) against the capture
# endpoint.  Fails unless each call got as far as sending its request: the
# real CLI parsed and validated every argument the script built.
replay_real() {
	local argv=("$ANS"/argv.*)
	[[ -e ${argv[0]} ]] || fail "no call was kept for the real CLI"
	: >"$BATS_FILE_TMPDIR/capture.log"
	run /usr/bin/python3 "$BATS_FILE_TMPDIR/replay.py" "$CAPTURE_URL" "${argv[@]}"
	assert_success
}

# ---- the IAM policy files ----------------------------------------------------------------

@test "the IAM files: VM Import (vmie.amazonaws.com) may assume the role; the role reads the bucket and makes snapshots, nothing more" {
	jq_true '.Version == "2012-10-17"
	  and ([.Statement[] | select(.Effect == "Allow" and .Action == "sts:AssumeRole"
	        and .Principal.Service == "vmie.amazonaws.com"
	        and .Condition.StringEquals["sts:Externalid"] == "vmimport")] | length == 1)' \
		"$AMI_DIR/vmimport-trust.json"
	local p=$AMI_DIR/vmimport-policy.json
	jq_true '[.Statement[] | select(.Resource | tostring | contains("arn:aws:s3:::EBSBENCH_BUCKET/*"))
	  | .Action[]] | contains(["s3:GetObject", "s3:ListBucket", "s3:GetBucketLocation"])' "$p"
	jq_true '[.Statement[].Action[]] | contains(["ec2:ModifySnapshotAttribute", "ec2:CopySnapshot", "ec2:RegisterImage"])' "$p"
	# No write to S3, no IAM, no wildcard action.
	jq_true '[.Statement[].Action[]] | any(. == "*" or startswith("iam:") or . == "s3:PutObject" or . == "s3:*") | not' "$p"
	# The README's sed turns the placeholder into a bucket and the result parses.
	jq_true '.Statement[0].Resource[1] == "arn:aws:s3:::my-bucket/*"' <<<"$(sed 's/EBSBENCH_BUCKET/my-bucket/g' "$p")"
}

@test "common.sh redact: no URL keeps its query, no POST signing field its value" {
	local text
	text=$(printf '%s\n' "PUT https://s3.ap-northeast-2.amazonaws.com/b/k?X-Amz-Signature=$SIG&X-Amz-Security-Token=$TOKEN done" \
		"'http://h/p?a=$SIG' \"https://h/q?$TOKEN\"" '{"x-amz-signature": "'"$SIG"'", "Policy": "'"$TOKEN"'"}' |
		PROG=t bash -c ". '$AMI_DIR/common.sh' && redact")
	[[ $text == *"https://s3.ap-northeast-2.amazonaws.com/b/k?REDACTED done"* && $text == *"http://h/p?REDACTED'"* ]] || fail "$text"
	[[ $text == *'"x-amz-signature": "REDACTED"'* && $text == *'"Policy": "REDACTED"'* ]] || fail "$text"
	[[ $text != *"$SIG"* && $text != *"$TOKEN"* ]] || fail "$text"
}

# ---- make-ami.sh: inputs ------------------------------------------------------------------

@test "make-ami: a missing disk, a bad region, a missing or bad bucket, a file that is not a GPT disk: one line each, exit 2" {
	run --separate-stderr "${MAKE_AMI_RUN[@]}" --region ap-northeast-2 --bucket my-bucket nosuch.raw
	one_line_error 2
	assert_equal "$stderr" "make-ami: error: disk image nosuch.raw not found (make image builds build/ebsbench-disk.raw)"
	run --separate-stderr "${MAKE_AMI_RUN[@]}" --region ap-northeast-2a --bucket my-bucket "$DISK"
	one_line_error 2
	assert_equal "$stderr" "make-ami: error: --region 'ap-northeast-2a' is not a region name like ap-northeast-2"
	run --separate-stderr "${MAKE_AMI_RUN[@]}" --bucket my-bucket "$DISK"
	one_line_error 2
	[[ $stderr == *"no region"* ]]
	run --separate-stderr "${MAKE_AMI_RUN[@]}" --region ap-northeast-2 "$DISK"
	one_line_error 2
	[[ $stderr == *"no bucket"* ]]
	run --separate-stderr "${MAKE_AMI_RUN[@]}" --region ap-northeast-2 --bucket My_Bucket "$DISK"
	one_line_error 2
	[[ $stderr == *"not an S3 bucket name"* ]]
	head -c 1048576 /dev/zero >zeros.raw
	run --separate-stderr "${MAKE_AMI_RUN[@]}" --region ap-northeast-2 --bucket my-bucket zeros.raw
	one_line_error 2
	[[ $stderr == *"no GPT header"* ]]
	run --separate-stderr "${MAKE_AMI_RUN[@]}" --region ap-northeast-2 --bucket my-bucket --frobnicate "$DISK"
	one_line_error 2
}

@test "make-ami: no aws on PATH is one clear line, exit 1" {
	run --separate-stderr "${MAKE_AMI_RUN[@]}" --region ap-northeast-2 --bucket my-bucket "$DISK"
	one_line_error 1
	[[ $stderr == "make-ami: error: the AWS CLI (aws) is not on PATH: install AWS CLI v2"* ]]
}

@test "make-ami and launch: AWS CLI v1 is refused in one line" {
	standin_aws
	export STANDIN_VERSION="aws-cli/1.45.11 Python/3.11.7 Linux/6.1 botocore/1.43.11"
	run --separate-stderr "${MAKE_AMI_RUN[@]}" --region ap-northeast-2 --bucket my-bucket "$DISK"
	one_line_error 1
	[[ $stderr == *"needs AWS CLI v2, found 'aws-cli/1.45.11"* ]]
	run --separate-stderr "${LAUNCH_RUN[@]}" --region ap-northeast-2 --ami ami-0123456789abcdef0 --config post.json
	one_line_error 1
	[[ ! -e $ANS/calls ]] # nothing was asked of AWS
}

# ---- make-ami.sh: the commands --------------------------------------------------------------

@test "make-ami --dry-run: upload, import (RAW), poll, register (UEFI, ENA), tag with the disk's sha256; no aws needed" {
	run --separate-stderr -0 "${MAKE_AMI_RUN[@]}" --dry-run --region ap-northeast-2 --bucket my-bucket "$DISK"
	local cmds
	cmds=$(grep '^aws ' <<<"$output" | cut -d' ' -f2,3)
	assert_equal "$cmds" "ec2 describe-images
s3api get-bucket-location
s3 cp
ec2 import-snapshot
ec2 describe-import-snapshot-tasks
ec2 register-image
ec2 create-tags
ec2 describe-images"
	local key=ebsbench/ami/ebsbench-disk-$DISK_SHA.raw
	assert_line "aws s3 cp $DISK s3://my-bucket/$key --region ap-northeast-2 --only-show-errors"
	assert_line --partial "--disk-container 'Format=RAW,UserBucket={S3Bucket=my-bucket,S3Key=$key}'"
	assert_line --partial "--role-name vmimport"
	local reg
	reg=$(grep '^aws ec2 register-image' <<<"$output")
	for want in "--architecture x86_64" "--boot-mode uefi" "--ena-support" "--imds-support v2.0" \
		"--root-device-name /dev/xvda" "--virtualization-type hvm" \
		"'DeviceName=/dev/xvda,Ebs={SnapshotId=snap-DRYRUN,VolumeType=gp3,DeleteOnTermination=true}'"; do
		[[ $reg == *" $want"* ]] || fail "register-image lacks $want: $reg"
	done
	# The AMI and its snapshot tagged with the disk's sha256 and the appliance digest.
	assert_line "aws ec2 create-tags --region ap-northeast-2 --resources ami-DRYRUN snap-DRYRUN --tags Key=Name,Value=ebsbench-${DISK_SHA:0:16} Key=ebsbench:disk-sha256,Value=$DISK_SHA Key=ebsbench:image-digest,Value=sha256:$(printf '%064d' 7)"
	# Every command names the region, and nothing but commands and comments is printed.
	run -1 grep -v -e '^# ' -e '--region ap-northeast-2' <<<"$output"
}

@test "make-ami, then launch with its AMI, against the recording: progress, one id on stdout each, and the real AWS CLI v2 takes every call and would send what AWS needs" {
	require_ebsbench
	standin_aws
	export STANDIN_REAL=1
	# make-ami: no AMI of this disk yet, the import in three polls, the AMI pending once.
	answer describe-images.1 '{"Images": []}'
	answer get-bucket-location '{"LocationConstraint": "ap-northeast-2"}'
	answer import-snapshot '{"ImportTaskId": "import-snap-0b1c2d3e4f5a6b7c8", "SnapshotTaskDetail": {"Status": "active", "StatusMessage": "pending", "Progress": "0"}}'
	answer describe-import-snapshot-tasks.1 '{"ImportSnapshotTasks": [{"ImportTaskId": "import-snap-0b1c2d3e4f5a6b7c8", "SnapshotTaskDetail": {"DiskImageSize": 0.0, "Format": "RAW", "Progress": "3", "Status": "active", "StatusMessage": "pending"}}]}'
	answer describe-import-snapshot-tasks.2 '{"ImportSnapshotTasks": [{"ImportTaskId": "import-snap-0b1c2d3e4f5a6b7c8", "SnapshotTaskDetail": {"DiskImageSize": 1048576.0, "Format": "RAW", "Progress": "42", "Status": "active", "StatusMessage": "downloading/converting"}}]}'
	answer describe-import-snapshot-tasks '{"ImportSnapshotTasks": [{"ImportTaskId": "import-snap-0b1c2d3e4f5a6b7c8", "SnapshotTaskDetail": {"DiskImageSize": 1048576.0, "Format": "RAW", "SnapshotId": "snap-0a1b2c3d4e5f60718", "Status": "completed"}}]}'
	answer register-image '{"ImageId": "ami-0fedcba9876543210"}'
	answer describe-images.2 '{"Images": [{"ImageId": "ami-0fedcba9876543210", "State": "pending"}]}'
	answer describe-images '{"Images": [{"ImageId": "ami-0fedcba9876543210", "Name": "ebsbench-0123", "State": "available", "BootMode": "uefi", "Tags": [{"Key": "ebsbench:disk-sha256", "Value": "'"$DISK_SHA"'"}]}]}'
	run --separate-stderr -0 "${MAKE_AMI_RUN[@]}" --region ap-northeast-2 --bucket my-bucket "$DISK"
	assert_output ami-0fedcba9876543210
	[[ $stderr == *"import: active (downloading/converting) 42%"*"left"* ]] || fail "no progress: $stderr"
	[[ $stderr == *"import: completed"*"snapshot snap-0a1b2c3d4e5f60718"* ]] || fail "$stderr"
	[[ $stderr == *"ami-0fedcba9876543210: pending"* ]] || fail "$stderr"
	local ami=$output

	# launch: pending, running (volumes attached), stopping, stopped (the
	# first boot powered itself off), then pending and running again with
	# the config.
	local bdm='"RootDeviceName": "/dev/xvda", "BlockDeviceMappings": [
	  {"DeviceName": "/dev/xvda", "Ebs": {"Status": "attached", "VolumeId": "vol-0aaaaaaaaaaaaaaaa", "DeleteOnTermination": true}},
	  {"DeviceName": "/dev/sdf", "Ebs": {"Status": "attached", "VolumeId": "vol-0f2f2f2f2f2f2f2f2", "DeleteOnTermination": true}},
	  {"DeviceName": "/dev/sdg", "Ebs": {"Status": "attached", "VolumeId": "vol-0e3e3e3e3e3e3e3e3", "DeleteOnTermination": true}}]'
	answer run-instances '{"Instances": [{"InstanceId": "i-0123456789abcdef0", "State": {"Code": 0, "Name": "pending"}}]}'
	answer describe-instances.1 '{"Reservations": [{"Instances": [{"InstanceId": "i-0123456789abcdef0", "State": {"Code": 0, "Name": "pending"}}]}]}'
	answer describe-instances.2 '{"Reservations": [{"Instances": [{"InstanceId": "i-0123456789abcdef0", "State": {"Code": 16, "Name": "running"}, '"$bdm"'}]}]}'
	answer describe-instances.3 '{"Reservations": [{"Instances": [{"InstanceId": "i-0123456789abcdef0", "State": {"Code": 64, "Name": "stopping"}, '"$bdm"'}]}]}'
	answer describe-instances.4 '{"Reservations": [{"Instances": [{"InstanceId": "i-0123456789abcdef0", "State": {"Code": 80, "Name": "stopped"}, '"$bdm"'}]}]}'
	answer describe-instances.5 '{"Reservations": [{"Instances": [{"InstanceId": "i-0123456789abcdef0", "State": {"Code": 0, "Name": "pending"}, '"$bdm"'}]}]}'
	answer describe-instances '{"Reservations": [{"Instances": [{"InstanceId": "i-0123456789abcdef0", "State": {"Code": 16, "Name": "running"}, '"$bdm"'}]}]}'
	answer start-instances '{"StartingInstances": [{"InstanceId": "i-0123456789abcdef0", "CurrentState": {"Code": 0, "Name": "pending"}}]}'
	local before
	before=$(wc -l <"$ANS/calls")
	run --separate-stderr -0 "${LAUNCH_RUN[@]}" --region ap-northeast-2 --ami "$ami" --config post.json
	assert_output i-0123456789abcdef0
	[[ $stderr == *"volumes: gp2 vol-0f2f2f2f2f2f2f2f2 (/dev/sdf), gp3 vol-0e3e3e3e3e3e3e3e3 (/dev/sdg); root vol-0aaaaaaaaaaaaaaaa is not a target"* ]] || fail "$stderr"
	local printed=$stderr ops
	ops=$(tail -n +$((before + 1)) "$ANS/calls" | cut -d' ' -f2 | uniq | tr '\n' ' ')
	assert_equal "$ops" "describe-images run-instances describe-instances modify-instance-attribute start-instances describe-instances "
	# No signature in anything the script printed.
	run -1 grep -q -- "$SIG" <<<"$printed"

	# Both scripts' calls through the real CLI: what AWS would have received.
	replay_real
	run -0 jq -se --arg key "/my-bucket/ebsbench/ami/ebsbench-disk-$DISK_SHA.raw" --arg sha "$DISK_SHA" \
		'any(.[]; .method == "PUT" and .path == $key and .sha256 == $sha)' "$BATS_FILE_TMPDIR/capture.log"
	request ImportSnapshot '.["DiskContainer.Format"] == "RAW" and .["DiskContainer.UserBucket.S3Bucket"] == "my-bucket"
		and .["DiskContainer.UserBucket.S3Key"] == "ebsbench/ami/ebsbench-disk-'"$DISK_SHA"'.raw" and .RoleName == "vmimport"'
	request ImportSnapshot '.["TagSpecification.1.Tag.1.Value"] == "'"$DISK_SHA"'"' 
	request RegisterImage '.BootMode == "uefi" and .EnaSupport == "true" and .Architecture == "x86_64"
		and .ImdsSupport == "v2.0" and .RootDeviceName == "/dev/xvda" and .VirtualizationType == "hvm"
		and .["BlockDeviceMapping.1.DeviceName"] == "/dev/xvda"
		and .["BlockDeviceMapping.1.Ebs.SnapshotId"] == "snap-0a1b2c3d4e5f60718"
		and .["BlockDeviceMapping.1.Ebs.VolumeType"] == "gp3"
		and .["BlockDeviceMapping.1.Ebs.DeleteOnTermination"] == "true"'
	request CreateTags '.["ResourceId.1"] == "ami-0fedcba9876543210" and .["ResourceId.2"] == "snap-0a1b2c3d4e5f60718"
		and ([to_entries[] | select(.key | test("^Tag\\.[0-9]+\\.Value$")) | .value]
		     == ["ebsbench-'"${DISK_SHA:0:16}"'", "'"$DISK_SHA"'", "sha256:'"$(printf '%064d' 7)"'"])'
	# The instance: m5.xlarge, the two volumes made with it and deleted with it, no user-data yet.
	request RunInstances '.InstanceType == "m5.xlarge" and .InstanceInitiatedShutdownBehavior == "stop"
		and (has("UserData") | not) and .["MetadataOptions.HttpTokens"] == "required"
		and .["BlockDeviceMapping.1.DeviceName"] == "/dev/sdf" and .["BlockDeviceMapping.1.Ebs.VolumeType"] == "gp2"
		and .["BlockDeviceMapping.1.Ebs.VolumeSize"] == "100" and .["BlockDeviceMapping.1.Ebs.DeleteOnTermination"] == "true"
		and .["BlockDeviceMapping.2.DeviceName"] == "/dev/sdg" and .["BlockDeviceMapping.2.Ebs.VolumeType"] == "gp3"
		and .["BlockDeviceMapping.2.Ebs.Iops"] == "3000" and .["BlockDeviceMapping.2.Ebs.Throughput"] == "125"
		and .["BlockDeviceMapping.2.Ebs.DeleteOnTermination"] == "true"'
	# The user-data EC2 would store: the config with the volumes by id, gp3 first, never the root.
	captured ModifyInstanceAttribute | jq -r 'select(has("UserData.Value")) | .["UserData.Value"]' |
		base64 -d >user-data.json
	jq_true '[.devices[] | [.volume_id, .type]] == [["vol-0e3e3e3e3e3e3e3e3", "gp3"], ["vol-0f2f2f2f2f2f2f2f2", "gp2"]]
		and .upload.post.fields["x-amz-signature"] == "'"$SIG"'"' user-data.json
	run -1 grep -q vol-0aaaaaaaaaaaaaaaa user-data.json
	run -0 jq -se 'map(select(has("InstanceInitiatedShutdownBehavior.Value"))) | length == 1
		and .[0]["InstanceInitiatedShutdownBehavior.Value"] == "terminate"' <<<"$(captured ModifyInstanceAttribute)"
	request StartInstances '.["InstanceId.1"] == "i-0123456789abcdef0"'
	# ... which the real runner parses, with the run's file names.
	run --separate-stderr -0 "$EBSBENCH" presign --bucket my-results --prefix p/ --region ap-northeast-2 \
		--expires 3h --plan user-data.json
	jq_true '.upload.put | has("gp3_rr_iops.1.log") and has("gp2_rr_iops.1.log")' <<<"$output"
	# --plan quick: the config's own key, which presign plans in minutes.
	run --separate-stderr -0 "${LAUNCH_RUN[@]}" --print-plan --config post.json --plan quick
	echo "$output" >quick.json
	jq_true '.plan == "quick" and (.devices | length) == 2' quick.json
	run --separate-stderr -0 "$EBSBENCH" presign --bucket my-results --prefix runs/1/ \
		--region ap-northeast-2 --expires 3h --plan quick.json
	run --separate-stderr "${LAUNCH_RUN[@]}" --print-plan --config post.json --plan slow
	one_line_error 2
	[[ $stderr == *"--plan 'slow': the plans are: sweep, quick"* ]] || fail "$stderr"
}

@test "make-ami against the recording: a failed import is one line with AWS's reason, exit 1" {
	standin_aws
	answer describe-images '{"Images": []}'
	answer get-bucket-location '{"LocationConstraint": "ap-northeast-2"}'
	answer import-snapshot '{"ImportTaskId": "import-snap-0b1c2d3e4f5a6b7c8"}'
	answer describe-import-snapshot-tasks '{"ImportSnapshotTasks": [{"ImportTaskId": "import-snap-0b1c2d3e4f5a6b7c8", "SnapshotTaskDetail": {"Status": "deleted", "StatusMessage": "ClientError: Access Denied. Please ensure that the role vmimport exists"}}]}'
	run --separate-stderr "${MAKE_AMI_RUN[@]}" --region ap-northeast-2 --bucket my-bucket "$DISK"
	assert_equal "$status" 1
	assert_output ''
	assert_equal "$(grep -c 'error:' <<<"$stderr")" 1
	[[ $stderr == *"error: import import-snap-0b1c2d3e4f5a6b7c8 failed: ClientError: Access Denied. Please ensure that the role vmimport exists"* ]] || fail "$stderr"
	run -1 grep -q register-image "$ANS/calls"
}

@test "make-ami against the recording: a bucket in another region stops before the upload; an AMI of the same disk is reused" {
	standin_aws
	answer describe-images '{"Images": []}'
	answer get-bucket-location '{"LocationConstraint": null}'
	run --separate-stderr "${MAKE_AMI_RUN[@]}" --region ap-northeast-2 --bucket my-bucket "$DISK"
	assert_equal "$status" 1
	[[ $stderr == *"error: bucket my-bucket is in us-east-1, not ap-northeast-2"* ]] || fail "$stderr"
	run -1 grep -q 's3 cp' "$ANS/calls"
	# Tagged with this disk's sha256 already: its id, nothing imported.
	rm -f "$ANS"/*
	answer describe-images '{"Images": [{"ImageId": "ami-0aaaaaaaaaaaaaaaa", "State": "available", "CreationDate": "2026-09-01T00:00:00.000Z"}, {"ImageId": "ami-0bbbbbbbbbbbbbbbb", "State": "available", "CreationDate": "2026-09-02T00:00:00.000Z"}]}'
	run --separate-stderr -0 "${MAKE_AMI_RUN[@]}" --region ap-northeast-2 --bucket my-bucket "$DISK"
	assert_output ami-0bbbbbbbbbbbbbbbb
	assert_equal "$(cut -d' ' -f1,2 "$ANS/calls" | uniq)" "ec2 describe-images"
	assert_equal "$(head -n 1 "$ANS/calls")" "ec2 describe-images --region ap-northeast-2 --owners self --filters Name=tag:ebsbench:disk-sha256,Values=$DISK_SHA --output json"
}

# ---- launch.sh: inputs ----------------------------------------------------------------------

@test "launch: config missing, not JSON, listing devices or allow_destroy, or without uploads: one line, exit 2" {
	local l=("${LAUNCH_RUN[@]}" --region ap-northeast-2 --ami ami-0123456789abcdef0)
	run --separate-stderr "${l[@]}" --config nosuch.json
	one_line_error 2
	assert_equal "$stderr" "launch: error: config nosuch.json not found"
	echo '{"region": ' >bad.json
	run --separate-stderr "${l[@]}" --config bad.json
	one_line_error 2
	jq '. + {devices: [{path: "/dev/nvme0n1"}]}' post.json >dev.json
	run --separate-stderr "${l[@]}" --config dev.json
	one_line_error 2
	[[ $stderr == *'lists "devices"'* ]]
	jq '. + {allow_destroy: ["vol-0123456789abcdef0"]}' post.json >allow.json
	run --separate-stderr "${l[@]}" --config allow.json
	one_line_error 2
	[[ $stderr == *"boot disk"* ]]
	echo '{"region": "ap-northeast-2"}' >noup.json
	run --separate-stderr "${l[@]}" --config noup.json
	one_line_error 2
	[[ $stderr == *"no upload block"* ]]
}

@test "launch: bad region, AMI, zone; user-data over 16 KB names --post; no aws on PATH" {
	run --separate-stderr "${LAUNCH_RUN[@]}" --region Seoul --ami ami-0123456789abcdef0 --config post.json
	one_line_error 2
	run --separate-stderr "${LAUNCH_RUN[@]}" --region ap-northeast-2 --ami ami-xyz --config post.json
	one_line_error 2
	[[ $stderr == *"not an AMI id"* ]]
	run --separate-stderr "${LAUNCH_RUN[@]}" --region ap-northeast-2 --zone us-east-1a --ami ami-0123456789abcdef0 --config post.json
	one_line_error 2
	# 17 PUT URLs with a session token, as ebsbench presign signs them: over EC2's limit.
	jq --arg pad "$(head -c 16000 /dev/zero | tr '\0' A)" '.upload.put["summary.md"] = "https://s3/x?t=" + $pad' put.json >big.json
	run --separate-stderr "${LAUNCH_RUN[@]}" --region ap-northeast-2 --ami ami-0123456789abcdef0 --config big.json
	one_line_error 2
	[[ $stderr == *"over EC2's 16384"*"ebsbench presign --post"* ]] || fail "$stderr"
	run --separate-stderr "${LAUNCH_RUN[@]}" --region ap-northeast-2 --ami ami-0123456789abcdef0 --config post.json
	one_line_error 1
	[[ $stderr == *"the AWS CLI (aws) is not on PATH"* ]]
}

@test "launch --print-plan: the devices the run will have, accepted by the real ebsbench presign" {
	require_ebsbench
	run --separate-stderr -0 "${LAUNCH_RUN[@]}" --print-plan --config post.json
	echo "$output" >plan.json
	jq_true '[.devices[] | [.label, .type, .size_gib, (.iops // 0), (.volume_id | test("^vol-[0-9a-f]{17}$"))]]
		== [["gp3", "gp3", 100, 3000, true], ["gp2", "gp2", 100, 0, true]]' plan.json
	# The run's file names (labels gp3 and gp2) come out of it.
	run --separate-stderr -0 "$EBSBENCH" presign --bucket my-results --prefix runs/1/ \
		--region ap-northeast-2 --expires 3h --plan plan.json
	jq_true '.upload.put | has("gp3_rr_iops.1.log") and has("gp2_rr_iops.1.log")' <<<"$output"
}

# ---- launch.sh: the commands ------------------------------------------------------------------

@test "launch --dry-run: m5.xlarge, the two volumes in the mapping, no stop from outside, terminate set before the start; no signature printed" {
	for cfg in post.json put.json; do
		run --separate-stderr -0 "${LAUNCH_RUN[@]}" --dry-run --region ap-northeast-2 --zone ap-northeast-2a \
			--ami ami-0123456789abcdef0 --config "$cfg" --wait
		local cmds
		cmds=$(grep '^aws ' <<<"$output" | cut -d' ' -f3 | tr '\n' ' ')
		# Never a stop from outside: the first boot powers itself off.
		assert_equal "$cmds" "describe-images run-instances describe-instances modify-instance-attribute modify-instance-attribute start-instances describe-instances describe-instances get-console-output "
		local ri
		ri=$(grep '^aws ec2 run-instances' <<<"$output")
		for want in "--instance-type m5.xlarge" "--placement AvailabilityZone=ap-northeast-2a" \
			"--instance-initiated-shutdown-behavior stop" "--metadata-options HttpTokens=required,HttpEndpoint=enabled" \
			"'DeviceName=/dev/sdf,Ebs={VolumeType=gp2,VolumeSize=100,DeleteOnTermination=true}'" \
			"'DeviceName=/dev/sdg,Ebs={VolumeType=gp3,VolumeSize=100,Iops=3000,Throughput=125,DeleteOnTermination=true}'"; do
			[[ $ri == *" $want"* ]] || fail "run-instances lacks $want: $ri"
		done
		[[ $ri != *--user-data* ]] || fail "the first boot must have no user-data: $ri"
		assert_line "aws ec2 modify-instance-attribute --region ap-northeast-2 --instance-id i-DRYRUN --instance-initiated-shutdown-behavior Value=terminate"
		# The user-data is shown, its secrets are not.
		assert_line --partial '"volume_id": "vol-00000000000000003"'
		local printed="$output$stderr" secret
		for secret in "$SIG" "$TOKEN" "X-Amz-Signature=" "AKIAEBSBENCHAMITEST0/"; do
			run -1 grep -qi -- "$secret" <<<"$printed"
		done
	done
}

@test "launch against the recording: a failure before the start terminates the instance; --wait reports the verdict" {
	standin_aws
	local bdm='"BlockDeviceMappings": [
	  {"DeviceName": "/dev/xvda", "Ebs": {"VolumeId": "vol-0aaaaaaaaaaaaaaaa"}},
	  {"DeviceName": "/dev/sdf", "Ebs": {"VolumeId": "vol-0f2f2f2f2f2f2f2f2"}},
	  {"DeviceName": "/dev/sdg", "Ebs": {"VolumeId": "vol-0e3e3e3e3e3e3e3e3"}}], "RootDeviceName": "/dev/xvda"'
	answer describe-images '{"Images": [{"ImageId": "ami-0fedcba9876543210", "State": "available", "BootMode": "uefi"}]}'
	answer run-instances '{"Instances": [{"InstanceId": "i-0123456789abcdef0"}]}'
	# The first boot powered itself off before a poll saw it running: no stop needed.
	answer describe-instances '{"Reservations": [{"Instances": [{"State": {"Name": "stopped"}, '"$bdm"'}]}]}'
	echo "An error occurred (UnauthorizedOperation) when calling the ModifyInstanceAttribute operation: You are not authorized to perform this operation." >"$ANS/modify-instance-attribute.err"
	run --separate-stderr "${LAUNCH_RUN[@]}" --region ap-northeast-2 --ami ami-0fedcba9876543210 --config post.json
	assert_equal "$status" 1
	assert_output ''
	[[ $stderr == *"error: aws ec2 modify-instance-attribute failed (exit 254): An error occurred (UnauthorizedOperation)"* ]] || fail "$stderr"
	run -1 grep -q stop-instances "$ANS/calls"
	assert_equal "$(tail -n 1 "$ANS/calls")" "ec2 terminate-instances --region ap-northeast-2 --instance-ids i-0123456789abcdef0 --output json"

	# --wait: running, then terminated; the verdict from the console.
	rm -f "$ANS"/*
	answer describe-images '{"Images": [{"ImageId": "ami-0fedcba9876543210", "State": "available", "BootMode": "uefi"}]}'
	answer run-instances '{"Instances": [{"InstanceId": "i-0123456789abcdef0"}]}'
	answer describe-instances.1 '{"Reservations": [{"Instances": [{"State": {"Name": "running"}, '"$bdm"'}]}]}'
	answer describe-instances.2 '{"Reservations": [{"Instances": [{"State": {"Name": "stopped"}, '"$bdm"'}]}]}'
	answer describe-instances.3 '{"Reservations": [{"Instances": [{"State": {"Name": "running"}, '"$bdm"'}]}]}'
	answer describe-instances.4 '{"Reservations": [{"Instances": [{"State": {"Name": "running"}, '"$bdm"'}]}]}'
	answer describe-instances '{"Reservations": [{"Instances": [{"State": {"Name": "terminated"}, '"$bdm"'}]}]}'
	# The console still holds the first boot, whose verdict is not the run's.
	local boot1='ebsbench-init: ebsbench 0.1.0 appliance; kernel started at realtime_ms=1\nebsbench-init: verdict: FAILED: no config: the instance has no user-data (give the ebsbench config as user-data)\nebsbench-init: powering off\n'
	local boot2='ebsbench-init: ebsbench 0.1.0 appliance; kernel started at realtime_ms=2\nebsbench-init: plan: 4083 s, starting at 9.12 s\n'
	answer get-console-output.1 '{"InstanceId": "i-0123456789abcdef0", "Output": "'"$boot1$boot2"'"}'
	answer get-console-output '{"InstanceId": "i-0123456789abcdef0", "Output": "'"$boot1$boot2"'ebsbench-init: verdict: OK: 12 phase(s) on 2 device(s) in 4090 s; results uploaded\n"}'
	run --separate-stderr -0 "${LAUNCH_RUN[@]}" --region ap-northeast-2 --ami ami-0fedcba9876543210 --config post.json --wait
	assert_output i-0123456789abcdef0
	[[ $stderr == *"launch: verdict: OK: 12 phase(s) on 2 device(s) in 4090 s; results uploaded"* ]] || fail "$stderr"
	run -1 grep -q terminate-instances "$ANS/calls"
	# Ended with only the first boot's verdict on the console: no verdict, exit 1.
	rm -f "$ANS"/n.* "$ANS/get-console-output"
	run --separate-stderr -1 "${LAUNCH_RUN[@]}" --region ap-northeast-2 --ami ami-0fedcba9876543210 --config post.json --wait
	[[ $stderr == *"ended (terminated) with no verdict on its console"* && $stderr != *"launch: FAILED: no config"* ]] || fail "$stderr"
}
