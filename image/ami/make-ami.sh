#!/usr/bin/env bash
# make-ami.sh --region R --bucket B [options] [DISK.raw]
#
# Turns the appliance's raw GPT disk image (`make image`:
# build/ebsbench-disk.raw) into a UEFI AMI with the AWS CLI v2:
#   1. aws s3 cp DISK s3://B/PREFIX/ebsbench-disk-SHA256.raw
#   2. aws ec2 import-snapshot (Format=RAW; VM Import's service role,
#      "vmimport" by default: README.md has its policies and commands)
#   3. aws ec2 describe-import-snapshot-tasks until the snapshot is done
#      (progress and a rough time left on stderr)
#   4. aws ec2 register-image: x86_64, UEFI boot, ENA, IMDSv2 only, the
#      snapshot as /dev/xvda (gp3, deleted with the instance)
#   5. aws ec2 create-tags: the AMI and the snapshot get
#      ebsbench:disk-sha256 (the disk image's sha256) and
#      ebsbench:image-digest (what results.json calls .ebsbench.image_digest)
#   6. aws ec2 describe-images until the AMI is available.
# stdout carries the AMI id and nothing else; commands and progress go to
# stderr.  An AMI of this account already tagged with the same disk sha256
# is reused (said on stderr) unless --force.
#
# Options:
#   --region R       the AMI's region (default: AWS_REGION, AWS_DEFAULT_REGION);
#                    the bucket must be in it
#   --bucket B       S3 bucket the vmimport role can read
#   --prefix P       key prefix in the bucket (default ebsbench/ami/)
#   --name NAME      AMI name (default ebsbench-<first 16 hex of the sha256>)
#   --role-name R    VM Import service role (default vmimport)
#   --timeout S      give up waiting for the import after S seconds (3600)
#   --force          import again even if an AMI holds this disk already
#   --dry-run        print every aws command instead of running it (no AWS
#                    CLI or credentials needed; later ids are placeholders)
#   DISK.raw         default: build/ebsbench-disk.raw
# Exit: 0 done, 1 a step failed (one line saying which), 2 bad arguments.
set -euo pipefail

PROG=make-ami
HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=image/ami/common.sh
. "$HERE/common.sh"

usage() {
	sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'
}

REGION=${AWS_REGION:-${AWS_DEFAULT_REGION:-}}
BUCKET='' PREFIX='ebsbench/ami/' NAME='' ROLE=vmimport TIMEOUT_S=3600 FORCE=0 DRY_RUN=0 DISK=''
while (($#)); do
	case $1 in
	--region | --bucket | --prefix | --name | --role-name | --timeout)
		(($# >= 2)) || die "$1 needs a value" 2
		case $1 in
		--region) REGION=$2 ;;
		--bucket) BUCKET=$2 ;;
		--prefix) PREFIX=$2 ;;
		--name) NAME=$2 ;;
		--role-name) ROLE=$2 ;;
		--timeout) TIMEOUT_S=$2 ;;
		esac
		shift 2
		;;
	--force) FORCE=1 && shift ;;
	--dry-run) DRY_RUN=1 && shift ;;
	-h | --help) usage && exit 0 ;;
	-*) die "unknown option $1 (try --help)" 2 ;;
	*)
		[[ -z $DISK ]] || die "one disk image only ($DISK, then $1)" 2
		DISK=$1 && shift
		;;
	esac
done
DISK=${DISK:-$HERE/../../build/ebsbench-disk.raw}

# ---- inputs -----------------------------------------------------------------------
check_region "$REGION"
[[ -n $BUCKET ]] || die "no bucket: give --bucket (an S3 bucket in $REGION the vmimport role can read)" 2
[[ $BUCKET =~ ^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$ ]] ||
	die "--bucket '$BUCKET' is not an S3 bucket name (3-63 of a-z 0-9 . -)" 2
[[ $PREFIX =~ ^[A-Za-z0-9/._-]*$ && $PREFIX != /* ]] ||
	die "--prefix '$PREFIX': use letters, digits and / . _ - (no leading /)" 2
[[ -z $PREFIX || $PREFIX == */ ]] || PREFIX+=/
[[ $ROLE =~ ^[A-Za-z0-9+=,.@_-]{1,64}$ ]] || die "--role-name '$ROLE' is not an IAM role name" 2
if [[ ! $TIMEOUT_S =~ ^[1-9][0-9]*$ ]]; then
	die "--timeout '$TIMEOUT_S' is not a number of seconds" 2
fi
[[ -z $NAME || $NAME =~ ^[A-Za-z0-9()./_@-]{3,128}$ ]] ||
	die "--name '$NAME': 3-128 of letters, digits and ( ) . / _ @ -" 2
[[ -e $DISK ]] || die "disk image $DISK not found (make image builds build/ebsbench-disk.raw)" 2
[[ -f $DISK && -r $DISK ]] || die "disk image $DISK is not a readable file" 2
size=$(stat -L -c %s "$DISK")
((size > 0 && size % 512 == 0)) || die "disk image $DISK is $size bytes: not a whole number of 512-byte sectors" 2
[[ $(dd if="$DISK" bs=8 skip=64 count=1 status=none 2>/dev/null | tr -d '\000') == 'EFI PART' ]] ||
	die "disk image $DISK has no GPT header at sector 1: not what make image builds" 2
need_tools
trap 'rm -f "${AWS_ERR:-}"' EXIT
exec 3>&1

SHA=$(sha256sum "$DISK" | cut -c1-64)
# The UKI's command line names the digest results.json will carry; it sits
# unpacked in the FAT file system, so the raw disk holds it as text.
DIGEST=$(grep -aoE -m1 'ebsbench\.image_digest=sha256:[0-9a-f]{64}' "$DISK" | head -n 1 | cut -d= -f2) || true
NAME=${NAME:-ebsbench-${SHA:0:16}}
KEY=${PREFIX}ebsbench-disk-$SHA.raw
say "disk $DISK: $((size / 1048576)) MiB, sha256 $SHA${DIGEST:+, image digest $DIGEST}"
((DRY_RUN)) && dry_note "make-ami --dry-run: disk sha256 $SHA; nothing below was run"

# wait_available AMI: poll until the AMI is available (progress on stderr).
wait_available() {
	local start=$SECONDS state='' reason='' line poll
	poll=$(poll_interval 10)
	while :; do
		line=$(AWS_LOG=0 aws_query '.Images[0] // {} | [.State // "unknown", .StateReason.Message // "no reason given"]
			| join("\u001f")' '' ec2 describe-images --region "$REGION" --image-ids "$1") || exit 1
		fields state reason <<<"${line:-unknown}"
		case $state in
		available) return 0 ;;
		failed | invalid | deregistered | error) die "$1 is $state: $reason" ;;
		esac
		((SECONDS - start < 900)) || die "$1 still $state after 900 s"
		say "$1: $state, $(mmss $((SECONDS - start))) elapsed"
		sleep "$poll"
	done
}

# ---- already there? -----------------------------------------------------------------
if ((!FORCE)); then
	dry_note "an AMI already tagged with this sha256 is reused (--force imports again):"
	existing=$(aws_query '[.Images[] | select(.State == "available" or .State == "pending")] | sort_by(.CreationDate) | last | .ImageId' '' \
		ec2 describe-images --region "$REGION" --owners self \
		--filters "Name=tag:ebsbench:disk-sha256,Values=$SHA")
	if [[ -n $existing ]]; then
		say "$existing already holds this disk image (tag ebsbench:disk-sha256=$SHA): reusing it (--force imports again)"
		wait_available "$existing"
		echo "$existing"
		exit 0
	fi
	dry_note "none found:"
fi

# ---- the bucket, then the upload -------------------------------------------------------
# VM Import reads the bucket only in the import's own region: check before
# a slow upload and a slower failure.
location=$(aws_json '.LocationConstraint // "us-east-1"' "$REGION" \
	s3api get-bucket-location --bucket "$BUCKET" --region "$REGION")
[[ $location == EU ]] && location=eu-west-1
[[ $location == "$REGION" ]] ||
	die "bucket $BUCKET is in $location, not $REGION: VM Import reads the disk from a bucket in the AMI's region"

say "uploading to s3://$BUCKET/$KEY"
if ((DRY_RUN)); then
	aws_do s3 cp "$DISK" "s3://$BUCKET/$KEY" --region "$REGION" --only-show-errors
else
	aws_do s3 cp "$DISK" "s3://$BUCKET/$KEY" --region "$REGION" --only-show-errors >&2
fi

# ---- import -------------------------------------------------------------------------------
TASK=$(aws_json '.ImportTaskId' import-snap-DRYRUN \
	ec2 import-snapshot --region "$REGION" --role-name "$ROLE" \
	--description "ebsbench disk sha256 $SHA" \
	--disk-container "Format=RAW,UserBucket={S3Bucket=$BUCKET,S3Key=$KEY}" \
	--tag-specifications "ResourceType=import-snapshot-task,Tags=[{Key=ebsbench:disk-sha256,Value=$SHA}]")
say "import task $TASK started (usually 5 to 15 minutes)"

poll=$(poll_interval 15)
if ((DRY_RUN)); then
	dry_note "repeated every ${poll} s until .SnapshotTaskDetail.Status is completed (at most $TIMEOUT_S s):"
	aws_query '' '' ec2 describe-import-snapshot-tasks --region "$REGION" --import-task-ids "$TASK" >/dev/null
	SNAP=snap-DRYRUN
else
	start=$SECONDS start_ms=$(now_ms) SNAP='' status='' message='' progress=''
	while :; do
		line=$(AWS_LOG=0 aws_query '.ImportSnapshotTasks[0].SnapshotTaskDetail // {}
			| [.Status // "unknown", .StatusMessage // "", .Progress // "", .SnapshotId // ""]
			| join("\u001f")' '' \
			ec2 describe-import-snapshot-tasks --region "$REGION" --import-task-ids "$TASK") || exit 1
		fields status message progress SNAP <<<"${line:-unknown}"
		elapsed=$((SECONDS - start))
		case $status in
		completed)
			[[ -n $SNAP ]] || die "import $TASK completed without a snapshot id"
			say "import: completed after $(mmss "$elapsed"): snapshot $SNAP"
			break
			;;
		deleting | deleted)
			die "import $TASK failed: ${message:-$status} (the vmimport role and its bucket access are the usual cause: README.md)"
			;;
		esac
		left=''
		if [[ $progress =~ ^[0-9]+$ ]] && ((progress > 0 && progress < 100)); then
			# As fast from here as so far: rough, and said so.
			left=", about $(mmss $((($(now_ms) - start_ms) * (100 - progress) / progress / 1000))) left"
		fi
		say "import: $status${message:+ ($message)}${progress:+ $progress%}, $(mmss "$elapsed") elapsed$left"
		((elapsed < TIMEOUT_S)) ||
			die "import $TASK not done after $TIMEOUT_S s (still $status); it may finish: aws ec2 describe-import-snapshot-tasks --region $REGION --import-task-ids $TASK"
		sleep "$poll"
	done
fi

# ---- register and tag -------------------------------------------------------------------------
# (register-image --tag-specifications would tag the AMI as it is made,
# but Debian 12's AWS CLI, 2.9, does not have it.)
AMI=$(aws_json '.ImageId' ami-DRYRUN \
	ec2 register-image --region "$REGION" --name "$NAME" \
	--description "ebsbench appliance disk sha256 $SHA" \
	--architecture x86_64 --boot-mode uefi --ena-support --imds-support v2.0 \
	--root-device-name /dev/xvda --virtualization-type hvm \
	--block-device-mappings "DeviceName=/dev/xvda,Ebs={SnapshotId=$SNAP,VolumeType=gp3,DeleteOnTermination=true}")
say "registered $AMI ($NAME)"
tags=("Key=Name,Value=$NAME" "Key=ebsbench:disk-sha256,Value=$SHA")
[[ -z $DIGEST ]] || tags+=("Key=ebsbench:image-digest,Value=$DIGEST")
aws_do ec2 create-tags --region "$REGION" --resources "$AMI" "$SNAP" --tags "${tags[@]}"

# ---- available? -----------------------------------------------------------------------------------
if ((DRY_RUN)); then
	dry_note "repeated every $(poll_interval 10) s until .Images[0].State is available:"
	aws_query '' '' ec2 describe-images --region "$REGION" --image-ids "$AMI" >/dev/null
	dry_note "stdout: the AMI id"
	exit 0
fi
wait_available "$AMI"
say "$AMI is available in $REGION (snapshot $SNAP, disk sha256 $SHA)"
echo "$AMI"
