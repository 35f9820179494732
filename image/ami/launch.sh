#!/usr/bin/env bash
# launch.sh --region R --ami AMI --config CONFIG.json [options]
# launch.sh --print-plan --config CONFIG.json
#
# Runs the seed's gp2-vs-gp3 benchmark on an m5.xlarge booted from the
# ebsbench AMI (make-ami.sh).  The config is the `ebsbench run` config
# WITHOUT "devices": this script creates the two volumes and names them.
#
# The flow, and why: the appliance must be told its volumes by volume id
# (the AMI's own root volume is an EBS volume too: with no devices listed,
# discovery would take it, and the write guard would refuse the whole run
# because of its GPT), and ids exist only once the volumes do.  Volumes
# attached after boot race the appliance, which waits 30 s for them.  So:
#   1. run-instances with NO user-data, shutdown behaviour "stop", and the
#      two volumes in the block-device mapping (deleted on termination):
#      gp2 100 GiB on /dev/sdf, gp3 100 GiB 3000 IOPS 125 MiB/s on /dev/sdg;
#   2. the appliance finds no config and powers itself off (the instance
#      stops); read the volume ids (and the root's) from describe-instances.
#      It is never stopped from outside: the appliance keeps a UEFI
#      variable set while it runs and clears it at its own power-off; a
#      forced stop would leave it set, and the next boot would refuse to
#      run (init/boot_guard.h);
#   3. while stopped: user-data = CONFIG + "devices" by those volume ids,
#      shutdown behaviour "terminate" (modify-instance-attribute);
#   4. start-instances: the appliance boots with both volumes already
#      attached, runs, uploads, powers off, and the instance terminates,
#      taking both volumes with it.
# If anything fails between 1 and 4 the instance is terminated (volumes
# and all).  stdout carries the instance id and nothing else.
#
# Options:
#   --region R              (default: AWS_REGION, AWS_DEFAULT_REGION)
#   --ami AMI               the AMI make-ami.sh printed
#   --config FILE           the run's config (with its "upload" block: `ebsbench
#                           presign --post`; no "devices", no "allow_destroy")
#   --zone Z                availability zone (default: EC2 picks, or the subnet's)
#   --subnet-id S           subnet (default: the default VPC's); the instance
#                           needs a route to S3 (public IP, NAT or S3 endpoint)
#   --security-group-id SG  repeatable (default: the VPC's default group)
#   --instance-type T       default m5.xlarge
#   --name NAME             Name tag (default ebsbench)
#   --plan NAME             run that plan, as `ebsbench run --plan`: quick
#                           ("plan": "quick" in the user-data's config) or
#                           sweep ("phases": ["sweep"]); --print-plan shows it
#   --wait                  after the start, wait for the instance to end
#                           and print the appliance's verdict (exit 0 only
#                           for an "OK" verdict)
#   --dry-run               print every aws command (and the user-data, its
#                           URLs redacted) instead of running them
#   --print-plan            print CONFIG with stand-in devices (what the run
#                           will label gp3 and gp2) for `ebsbench presign
#                           --plan`, and exit; no AWS
# Exit: 0 launched (with --wait: verdict OK), 1 a step failed, 2 bad
# arguments or config.
set -euo pipefail

PROG=launch
HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=image/ami/common.sh
. "$HERE/common.sh"

usage() {
	sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'
}

# The seed's pair.  Device names are the block-device mapping's; the
# config names the volumes by id, gp3 first as in the seed.
GP2_DEVICE=/dev/sdf GP2_GIB=100
GP3_DEVICE=/dev/sdg GP3_GIB=100 GP3_IOPS=3000 GP3_MIBS=125
# EC2's limit on user-data, before base64.
USER_DATA_MAX=16384
# Same length as real volume ids: sizes computed with them hold.
STANDIN_GP3=vol-00000000000000003 STANDIN_GP2=vol-00000000000000002

REGION=${AWS_REGION:-${AWS_DEFAULT_REGION:-}}
AMI='' CONFIG='' ZONE='' SUBNET='' SGS=() TYPE=m5.xlarge NAME=ebsbench
WAIT=0 DRY_RUN=0 PRINT_PLAN=0 PLAN=
while (($#)); do
	case $1 in
	--region | --ami | --config | --zone | --subnet-id | --security-group-id | --instance-type | --name | --plan)
		(($# >= 2)) || die "$1 needs a value" 2
		case $1 in
		--region) REGION=$2 ;;
		--ami) AMI=$2 ;;
		--config) CONFIG=$2 ;;
		--zone) ZONE=$2 ;;
		--subnet-id) SUBNET=$2 ;;
		--security-group-id) SGS+=("$2") ;;
		--instance-type) TYPE=$2 ;;
		--name) NAME=$2 ;;
		--plan) PLAN=$2 ;;
		esac
		shift 2
		;;
	--wait) WAIT=1 && shift ;;
	--dry-run) DRY_RUN=1 && shift ;;
	--print-plan) PRINT_PLAN=1 && shift ;;
	-h | --help) usage && exit 0 ;;
	*) die "unknown argument $1 (try --help)" 2 ;;
	esac
done

# with_devices GP3_ID GP2_ID: CONFIG, compact, with the devices added
# (facts as created, gp3 first as in the seed), the launch's region
# when it names none (results.json records it) and --plan's plan.
with_devices() {
	jq -c --arg gp3 "$1" --arg gp2 "$2" --arg region "$REGION" --arg plan "$PLAN" \
		--argjson gp3_gib "$GP3_GIB" --argjson iops "$GP3_IOPS" --argjson mibs "$GP3_MIBS" \
		--argjson gp2_gib "$GP2_GIB" '
		{devices: [{volume_id: $gp3, label: "gp3", type: "gp3", size_gib: $gp3_gib, iops: $iops,
		            throughput_mibs: $mibs},
		           {volume_id: $gp2, label: "gp2", type: "gp2", size_gib: $gp2_gib}]}
		+ . + (if has("region") or $region == "" then {} else {region: $region} end)
		+ (if $plan == "quick" then {plan: "quick"} elif $plan == "sweep" then {phases: ["sweep"]}
		   else {} end)' "$CONFIG"
}

# ---- the config ---------------------------------------------------------------------
[[ -z $PLAN || $PLAN == quick || $PLAN == sweep ]] || die "--plan '$PLAN': the plans are: sweep, quick" 2
[[ -n $CONFIG ]] || die "no config: give --config FILE (the ebsbench run config, with its upload block)" 2
[[ -e $CONFIG ]] || die "config $CONFIG not found" 2
[[ -f $CONFIG && -r $CONFIG ]] || die "config $CONFIG is not a readable file" 2
command -v jq >/dev/null 2>&1 || die "jq is not on PATH (apt-get install jq)"
kind=$(jq -r 'if type != "object" then "not-object"
	elif has("devices") then "devices" elif has("allow_destroy") then "allow_destroy"
	elif (.upload.put | type) == "object" or (.upload.post | type) == "object" then "ok"
	else "no-upload" end' "$CONFIG" 2>/dev/null) || kind=not-object
case $kind in
not-object) die "config $CONFIG is not a JSON object" 2 ;;
devices) die "config $CONFIG lists \"devices\": remove them, this script creates the volumes and names them by id" 2 ;;
allow_destroy) die "config $CONFIG has \"allow_destroy\": the volumes made here are blank and need none; the only disk it could unlock is the boot disk" 2 ;;
esac
if ((PRINT_PLAN)); then
	with_devices "$STANDIN_GP3" "$STANDIN_GP2" | jq .
	exit 0
fi
[[ $kind == ok ]] ||
	die "config $CONFIG has no upload block (ebsbench presign ... --post): the results would end with the instance" 2

# ---- the other inputs ------------------------------------------------------------------
check_region "$REGION"
[[ -n $AMI ]] || die "no AMI: give --ami (make-ami.sh prints it)" 2
[[ $AMI =~ ^ami-[0-9a-f]{8,17}$ ]] || die "--ami '$AMI' is not an AMI id (ami-0123...)" 2
[[ -z $ZONE || ($ZONE == "$REGION"* && $ZONE =~ ^[a-z0-9-]+$) ]] ||
	die "--zone '$ZONE' is not a zone of $REGION" 2
[[ -z $SUBNET || $SUBNET =~ ^subnet-[0-9a-f]{8,17}$ ]] || die "--subnet-id '$SUBNET' is not a subnet id" 2
for sg in "${SGS[@]}"; do
	[[ $sg =~ ^sg-[0-9a-f]{8,17}$ ]] || die "--security-group-id '$sg' is not a security group id" 2
done
[[ $TYPE =~ ^[a-z][a-z0-9-]*\.[a-z0-9]+$ ]] || die "--instance-type '$TYPE' is not an instance type" 2
[[ $NAME =~ ^[A-Za-z0-9._:/@+=-]{1,128}$ ]] || die "--name '$NAME': 1-128 of letters, digits and . _ : / @ + = -" 2
# The user-data with real ids has the stand-ins' size.
bytes=$(with_devices "$STANDIN_GP3" "$STANDIN_GP2" | wc -c)
((bytes <= USER_DATA_MAX)) ||
	die "the user-data would be $bytes bytes, over EC2's $USER_DATA_MAX: sign one POST policy (ebsbench presign --post) instead of a URL per file" 2
need_tools
exec 3>&1

work=$(mktemp -d)
INSTANCE='' STARTED=0
# What instance_fields and the AMI's description fill in.
state='' reason='' ROOT='' GP2='' GP3='' mode='' name='' SHA=''
# shellcheck disable=SC2317 # the EXIT trap calls it
on_exit() {
	local rc=$?
	trap - EXIT
	if ((rc && !DRY_RUN)) && [[ -n $INSTANCE ]] && ((!STARTED)); then
		say "terminating $INSTANCE (its volumes go with it)"
		AWS_LOG=0 aws_do ec2 terminate-instances --region "$REGION" --instance-ids "$INSTANCE" \
			--output json >/dev/null || say "could not terminate $INSTANCE: do it by hand"
	fi
	rm -rf "$work" "${AWS_ERR:-}"
	exit "$rc"
}
trap on_exit EXIT
trap 'exit 130' INT TERM HUP

# instance_fields: from describe-instances, the instance's state and its
# reason, and the volume ids of the root device, GP2_DEVICE and
# GP3_DEVICE, into $state $reason $ROOT $GP2 $GP3.
instance_fields() {
	local line
	# shellcheck disable=SC2016 # jq's $i
	line=$(AWS_LOG=0 aws_query '.Reservations[0].Instances[0] | . as $i
		| def vol($d): [$i.BlockDeviceMappings[]? | select(.DeviceName == $d) | .Ebs.VolumeId][0] // "";
		[.State.Name // "unknown", .StateReason.Message // "no reason given",
		 vol(.RootDeviceName // "/dev/xvda"), vol("'"$GP2_DEVICE"'"), vol("'"$GP3_DEVICE"'")]
		| join("\u001f")' '' \
		ec2 describe-instances --region "$REGION" --instance-ids "$INSTANCE") || exit 1
	fields state reason ROOT GP2 GP3 <<<"${line:-unknown}"
}

# wait_state "STATE..." TIMEOUT_S: poll until the instance is in one of
# the states (instance_fields' variables then hold its answer).
wait_state() {
	local want=" $1 " limit=$2 start=$SECONDS last='' poll
	poll=$(poll_interval 5)
	while :; do
		instance_fields
		[[ $want == *" $state "* ]] && break
		case $state in
		shutting-down | terminated)
			die "$INSTANCE is $state: $reason (its console: aws ec2 get-console-output --region $REGION --instance-id $INSTANCE --latest --output text)"
			;;
		esac
		((SECONDS - start < limit)) ||
			die "$INSTANCE still $state after $limit s (waiting for ${1// / or }; its console: aws ec2 get-console-output --region $REGION --instance-id $INSTANCE --latest --output text)"
		if [[ $state != "$last" ]] || (((SECONDS - start) % 30 < poll)); then
			say "$INSTANCE: $state, $(mmss $((SECONDS - start))) (waiting for ${1// / or })"
		fi
		last=$state
		sleep "$poll"
	done
	say "$INSTANCE: $state after $(mmss $((SECONDS - start)))"
}

# ---- the AMI -----------------------------------------------------------------------------
if ((DRY_RUN)); then
	dry_note "launch --dry-run: nothing below was run; ids are placeholders"
	aws_query '' '' ec2 describe-images --region "$REGION" --image-ids "$AMI" >/dev/null
	SHA=DRYRUN-DISK-SHA256
else
	line=$(aws_query '.Images[0] | [.State // "unknown", .BootMode // "legacy-bios", .Name // "",
		([.Tags[]? | select(.Key == "ebsbench:disk-sha256") | .Value][0] // "")] | join("\u001f")' '' \
		ec2 describe-images --region "$REGION" --image-ids "$AMI")
	[[ -n $line ]] || die "$AMI not found in $REGION"
	fields state mode name SHA <<<"$line"
	[[ $state == available ]] || die "$AMI is $state, not available"
	[[ $mode == uefi ]] || die "$AMI boots $mode, not uefi: not an ebsbench AMI (make-ami.sh)"
	if [[ -z $SHA ]]; then
		say "warning: $AMI has no ebsbench:disk-sha256 tag (not made by make-ami.sh?)"
		SHA=unknown
	fi
	say "$AMI: $name, disk sha256 $SHA"
fi

# ---- 1. launch, no user-data yet ------------------------------------------------------------
tags="{Key=Name,Value=$NAME},{Key=ebsbench:ami,Value=$AMI},{Key=ebsbench:disk-sha256,Value=$SHA}"
args=(ec2 run-instances --region "$REGION" --image-id "$AMI" --instance-type "$TYPE" --count 1)
[[ -z $ZONE ]] || args+=(--placement "AvailabilityZone=$ZONE")
[[ -z $SUBNET ]] || args+=(--subnet-id "$SUBNET")
((${#SGS[@]} == 0)) || args+=(--security-group-ids "${SGS[@]}")
# shellcheck disable=SC2054 # the commas are the CLI's shorthand
args+=(--instance-initiated-shutdown-behavior stop
	--metadata-options HttpTokens=required,HttpEndpoint=enabled
	--block-device-mappings
	"DeviceName=$GP2_DEVICE,Ebs={VolumeType=gp2,VolumeSize=$GP2_GIB,DeleteOnTermination=true}"
	"DeviceName=$GP3_DEVICE,Ebs={VolumeType=gp3,VolumeSize=$GP3_GIB,Iops=$GP3_IOPS,Throughput=$GP3_MIBS,DeleteOnTermination=true}"
	--tag-specifications "ResourceType=instance,Tags=[$tags]" "ResourceType=volume,Tags=[$tags]")
dry_note "1. launch without user-data; the first boot finds no config and touches nothing"
INSTANCE=$(aws_json '.Instances[0].InstanceId' i-DRYRUN "${args[@]}")
say "launched $INSTANCE ($TYPE); it boots once without a config, to make its volumes, and powers itself off (about a minute)"

# ---- 2. the first boot ends itself; the volume ids -----------------------------------------
# The appliance powers off at once without a config (its boot watchdog
# after 600 s at worst).  Never stop it from outside: see the top.
if ((DRY_RUN)); then
	dry_note "2. repeated until stopped (the first boot powers itself off); then the volume ids of $GP2_DEVICE, $GP3_DEVICE and the root from .BlockDeviceMappings"
	aws_query '' '' ec2 describe-instances --region "$REGION" --instance-ids "$INSTANCE" >/dev/null
	GP2=$STANDIN_GP2 GP3=$STANDIN_GP3
else
	wait_state stopped 900
	[[ $GP2 =~ ^vol-[0-9a-f]+$ && $GP3 =~ ^vol-[0-9a-f]+$ ]] ||
		die "$INSTANCE: no volume ids for $GP2_DEVICE and $GP3_DEVICE in describe-instances"
	# The boot disk is never a target: it must be neither of the two.
	[[ $GP2 != "$GP3" && $GP2 != "$ROOT" && $GP3 != "$ROOT" ]] ||
		die "$INSTANCE: $GP2_DEVICE $GP2, $GP3_DEVICE $GP3, root ${ROOT:-?}: not three distinct volumes"
	say "volumes: gp2 $GP2 ($GP2_DEVICE), gp3 $GP3 ($GP3_DEVICE); root ${ROOT:-?} is not a target"
fi

# ---- 3. the config, and terminate at power-off ------------------------------------------------
with_devices "$GP3" "$GP2" >"$work/user-data.json"
bytes=$(wc -c <"$work/user-data.json")
((bytes <= USER_DATA_MAX)) || die "the user-data is $bytes bytes, over EC2's $USER_DATA_MAX"
# modify-instance-attribute takes user-data as a blob: base64 in the JSON
# (v2's default binary format, stated so a profile cannot change it); a
# file keeps the presigned URLs out of the process list.
jq -n --rawfile ud "$work/user-data.json" '{Value: ($ud | @base64)}' >"$work/user-data-attr.json"
if ((DRY_RUN)); then
	dry_note "3. user-data ($bytes bytes of $USER_DATA_MAX), URLs redacted:"
	redact_config "$work/user-data.json" | sed 's/^/#   /' >&3
fi
aws_do ec2 modify-instance-attribute --region "$REGION" --instance-id "$INSTANCE" \
	--cli-binary-format base64 --user-data "file://$work/user-data-attr.json"
aws_do ec2 modify-instance-attribute --region "$REGION" --instance-id "$INSTANCE" \
	--instance-initiated-shutdown-behavior Value=terminate

# ---- 4. the run ------------------------------------------------------------------------------------
dry_note "4. the run: the appliance powers off at the end and the instance terminates with its volumes"
aws_do ec2 start-instances --region "$REGION" --instance-ids "$INSTANCE" --output json >/dev/null
# From here the instance ends itself: no clean-up on our failures.
STARTED=1
if ((DRY_RUN)); then
	aws_query '' '' ec2 describe-instances --region "$REGION" --instance-ids "$INSTANCE" >/dev/null
else
	wait_state running 900
fi
say "$INSTANCE is running the benchmark; the console: aws ec2 get-console-output --region $REGION --instance-id $INSTANCE --latest --output text"
((DRY_RUN)) || echo "$INSTANCE"
((WAIT)) || exit 0

# ---- --wait ----------------------------------------------------------------------------------------
poll=$(poll_interval 60)
if ((DRY_RUN)); then
	dry_note "--wait: repeated every $poll s until terminated, the verdict from the console"
	aws_query '' '' ec2 describe-instances --region "$REGION" --instance-ids "$INSTANCE" >/dev/null
	aws_query '' '' ec2 get-console-output --region "$REGION" --instance-id "$INSTANCE" --latest >/dev/null
	exit 0
fi
start=$SECONDS verdict='' last=''
while :; do
	console=$(AWS_LOG=0 aws_query '.Output' '' ec2 get-console-output --region "$REGION" \
		--instance-id "$INSTANCE" --latest 2>/dev/null) || console=''
	# The console may still hold the first boot (its "no config" verdict):
	# only what follows the last boot banner counts.
	console=$(awk '/ebsbench-init: ebsbench .* appliance;/ { out = "" } { out = out $0 "\n" } END { printf "%s", out }' <<<"$console")
	line=$(grep -a 'ebsbench-init: ' <<<"$console" | tail -n 1 | redact) || line=''
	seen=$(grep -a 'ebsbench-init: verdict: ' <<<"$console" | tail -n 1 | redact) || seen=''
	[[ -z $seen ]] || verdict=$seen
	instance_fields
	case $state in
	terminated | stopped) break ;;
	esac
	if [[ -n $line && $line != "$last" ]]; then
		say "$INSTANCE: $state, $(mmss $((SECONDS - start))): ${line#*ebsbench-init: }"
		last=$line
	else
		say "$INSTANCE: $state, $(mmss $((SECONDS - start)))"
	fi
	sleep "$poll"
done
[[ $state == terminated ]] || say "warning: $INSTANCE is $state, not terminated: its volumes still cost money"
[[ -n $verdict ]] || die "$INSTANCE ended ($state) with no verdict on its console"
say "${verdict#*ebsbench-init: }"
[[ ${verdict#*ebsbench-init: verdict: } == OK* ]] || exit 1
