#!/bin/bash
# user-data.sh - EC2 user-data for a stock Amazon Linux 2023 instance: fetch
# the static ebsbench binary through a presigned GET, check its sha256, write
# the run's config (below), add the instance's facts from IMDSv2, run the
# benchmark on the volumes the config names, and power off, whatever
# happened.  Launch with --instance-initiated-shutdown-behavior terminate
# and the power-off ends the bill (README.md has the commands).
#
# Fill in EBSBENCH_URL, EBSBENCH_SHA256 and the config between the CONFIG
# lines.  Everything else is optional.  Needs only what AL2023 ships: bash,
# curl, coreutils (sha256sum, timeout), python3 (to merge JSON; no jq).
#
# Everything the script and ebsbench print goes to the console (the serial
# console: `aws ec2 get-console-output --latest`) and to
# /var/lib/ebsbench/user-data.log.  The results stay in
# /var/lib/ebsbench/results/ until the instance goes, and each file goes to
# S3 as soon as it is written (the config's presigned PUT URLs).
#
# Deadlines: the run is wrapped in `timeout`, sized from the plan
# (`ebsbench run --dry-run`: planned_s, + 10 % as ebsbench itself allows
# + 600 s for the uploads); at the deadline ebsbench gets SIGTERM, stops
# the phase and uploads what it measured.  A separate watchdog powers the
# instance off if anything hangs, the script included.
#
# A reboot mid-run (an instance rebooted, a panic) resumes the run once:
# cloud-init runs user-data once per instance, so the script puts a copy of
# itself among the per-boot scripts while the run goes; at the next boot
# it runs `ebsbench run --resume=auto` (docs/run.md, "Resuming a stopped
# run"); a second such boot powers off instead.  A signal (the shutdown
# of that reboot) does not power off.
#
# For tests (production defaults in brackets): EBSBENCH_DIR [/var/lib/ebsbench]
# where it installs and writes; EBSBENCH_IMDS [http://169.254.169.254];
# EBSBENCH_POWEROFF [systemctl poweroff, then shutdown -h now, then
# poweroff -f] the command that ends the machine, run through bash -c;
# EBSBENCH_CONSOLE [/dev/console]; EBSBENCH_MAX_RUN_S [none] a cap on the
# run's deadline; EBSBENCH_ATTACH_WAIT_S [900] how long to wait for the
# volumes; EBSBENCH_PER_BOOT_DIR [/var/lib/cloud/scripts/per-boot].  curl
# honours CURL_CA_BUNDLE for a private CA.
set -uo pipefail

# ---- fill in ---------------------------------------------------------------
# A presigned GET for the binary (valid until the instance has booted):
#   aws s3 presign s3://my-bucket/ebsbench/0.1.0/ebsbench --expires-in 3600
EBSBENCH_URL='https://REPLACE_WITH_PRESIGNED_GET_URL'
# sha256sum build/ebsbench
EBSBENCH_SHA256='REPLACE_WITH_SHA256_OF_THE_BINARY'

write_config() {
	# The run's config (README.md "ebsbench run", "Upload").  List the
	# volumes explicitly: by volume_id (attached after launch; the script
	# waits for them), or by path /dev/sdf for volumes created with the
	# instance (AL2023 links block-device-mapping names to the NVMe
	# namespaces).  The boot disk is never a target: discovery skips system
	# disks, and a listed config touches nothing else.  gp3 first, then gp2,
	# as in the seed.  The "upload" block is what `ebsbench presign ...
	# --plan run.json` prints.  "environment" gets instance_type,
	# instance_id and zone from IMDSv2.
	cat <<'CONFIG'
{
  "devices": [
    {"volume_id": "vol-0fedcba9876543210", "label": "gp3", "type": "gp3", "size_gib": 100,
     "iops": 3000, "throughput_mibs": 125},
    {"volume_id": "vol-0123456789abcdef0", "label": "gp2", "type": "gp2", "size_gib": 100}
  ],
  "region": "ap-northeast-2",
  "upload": {"put": {"results.json": "https://REPLACE_WITH_THE_OUTPUT_OF_EBSBENCH_PRESIGN"}}
}
CONFIG
}
# ---------------------------------------------------------------------------

DIR=${EBSBENCH_DIR:-/var/lib/ebsbench}
IMDS=${EBSBENCH_IMDS:-http://169.254.169.254}
CONSOLE=${EBSBENCH_CONSOLE:-/dev/console}
MAX_RUN_S=${EBSBENCH_MAX_RUN_S:-}
# How long to wait for the config's volumes to be attached.
ATTACH_WAIT_S=${EBSBENCH_ATTACH_WAIT_S:-900}
# Used when the plan's length cannot be read (4 h: the default plan on two
# 100 GiB volumes is 68 min).
FALLBACK_DEADLINE_S=14400
# After the deadline's SIGTERM, how long ebsbench has to upload before KILL;
# and how much longer the watchdog waits for the script after that.
UPLOAD_GRACE_S=600
WATCHDOG_SLACK_S=300

BIN=$DIR/ebsbench
CFG=$DIR/config.json
OUT=$DIR/results
LOG=$DIR/user-data.log
# The run's boots so far (1, or 2 once resumed), and the per-boot copy.
BOOTS=$DIR/run-boots
HOOK=${EBSBENCH_PER_BOOT_DIR:-/var/lib/cloud/scripts/per-boot}/ebsbench-resume.sh

umask 077 # the config holds bearer URLs
mkdir -p "$DIR" || exit 1

# Every line to the console and the log file, once each.
if { : >>"$CONSOLE"; } 2>/dev/null; then
	exec > >(tee -a "$LOG" >>"$CONSOLE") 2>&1
else
	exec > >(tee -a "$LOG") 2>&1
fi
TEE_PID=$!

log() { printf '%s ebsbench-user-data: %s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$*"; }

poweroff_now() {
	if [[ -n ${EBSBENCH_POWEROFF:-} ]]; then
		bash -c "$EBSBENCH_POWEROFF"
		return
	fi
	systemctl poweroff || shutdown -h now || poweroff -f
}

WATCHDOG_PID=
# watchdog SECONDS: power off after SECONDS unless the script ends first
# (replaces an earlier watchdog).
watchdog() {
	stop_watchdog
	(
		trap - EXIT INT HUP
		trap 'kill "$sleeper" 2>/dev/null; exit 0' TERM
		sleep "$1" &
		sleeper=$!
		wait "$sleeper" || exit 0
		log "watchdog: $1 s passed and the script is still running: powering off"
		poweroff_now
	) &
	WATCHDOG_PID=$!
}
stop_watchdog() {
	[[ -z $WATCHDOG_PID ]] || kill "$WATCHDOG_PID" 2>/dev/null
	WATCHDOG_PID=
}

# shellcheck disable=SC2317 # the EXIT trap calls it
finish() {
	local rc=$?
	trap - EXIT INT TERM HUP
	stop_watchdog
	if [[ -n ${SIGNALLED:-} && -f $BOOTS ]]; then
		log "stopped by a signal (exit $rc): not powering off; the next boot resumes the run"
		exit "$rc"
	fi
	rm -f "$HOOK" "$BOOTS"
	log "done (exit $rc): powering off"
	poweroff_now
	# Let tee write the last lines before the script (and maybe the
	# machine) goes.
	exec >&- 2>&-
	wait "$TEE_PID" 2>/dev/null
	exit "$rc"
}
trap finish EXIT
trap 'SIGNALLED=1; log "signal: stopping"; exit 143' INT TERM HUP

die() {
	log "ERROR: $*"
	exit 1
}

# Until the plan is known: anything that hangs before the run still ends.
watchdog "$FALLBACK_DEADLINE_S"
log "starting (install dir $DIR)"
resume=
if [[ -f $BOOTS ]]; then
	[[ $(cat "$BOOTS") == 1 ]] || die "the resumed run's boot did not finish either: not running it again"
	resume=--resume=auto
	log "the run's previous boot did not finish: resuming its run once"
fi

# ---- the binary -------------------------------------------------------------
[[ $EBSBENCH_SHA256 =~ ^[0-9a-fA-F]{64}$ ]] ||
	die "EBSBENCH_SHA256 is not a sha256 (64 hex digits): fill it in at the top of the user-data"
[[ $EBSBENCH_URL == https://* && $EBSBENCH_URL != *REPLACE_WITH* ]] ||
	die "EBSBENCH_URL is not a presigned https URL: fill it in at the top of the user-data"
want=${EBSBENCH_SHA256,,}
# Resuming: the binary the run installed (its URL may have expired).
if [[ -n $resume && -x $BIN ]] && cp "$BIN" "$BIN.part"; then
	log "the installed binary, checked again"
else
	log "fetching the binary from ${EBSBENCH_URL%%\?*}"
	rm -f "$BIN.part"
	curl -fsS --retry 5 --retry-delay 2 --retry-all-errors --connect-timeout 10 --max-time 300 \
		-o "$BIN.part" "$EBSBENCH_URL" || die "could not fetch the binary (curl exit $?)"
fi
got=$(sha256sum "$BIN.part" | cut -d' ' -f1)
if [[ $got != "$want" ]]; then
	rm -f "$BIN.part"
	die "sha256 mismatch: expected $want, got $got: refusing to run this binary"
fi
{ chmod 0755 "$BIN.part" && mv -f "$BIN.part" "$BIN"; } || die "cannot install $BIN"
log "sha256 ok ($got): $("$BIN" version 2>&1)"

# ---- the config, with the instance's facts from IMDSv2 ----------------------
write_config >"$CFG" || die "cannot write $CFG"
if grep -q 'REPLACE_WITH' "$CFG"; then
	die "the config still holds REPLACE_WITH placeholders: fill it in (the upload block is what ebsbench presign prints)"
fi

imds_token=$(curl -fsS --retry 3 --connect-timeout 2 --max-time 10 -X PUT \
	-H 'X-aws-ec2-metadata-token-ttl-seconds: 21600' "$IMDS/latest/api/token") || imds_token=
imds() {
	curl -fsS --retry 3 --connect-timeout 2 --max-time 10 \
		-H "X-aws-ec2-metadata-token: $imds_token" "$IMDS/latest/meta-data/$1"
}
if [[ -n $imds_token ]]; then
	itype=$(imds instance-type) || itype=
	iid=$(imds instance-id) || iid=
	zone=$(imds placement/availability-zone) || zone=
	log "IMDSv2: instance-type ${itype:-?}, instance-id ${iid:-?}, zone ${zone:-?}"
else
	itype='' iid='' zone=''
	log "IMDSv2: no token from $IMDS: results.json will not name the instance"
fi
python3 - "$CFG" "$itype" "$iid" "$zone" <<'PY' || die "cannot add the instance's facts to $CFG"
import json, os, sys
path, itype, iid, zone = sys.argv[1:5]
with open(path) as f:
    cfg = json.load(f)
env = cfg.setdefault("environment", {})
for key, value in (("instance_type", itype), ("instance_id", iid), ("zone", zone)):
    if value:
        env[key] = value
with open(path + ".tmp", "w") as f:
    json.dump(cfg, f, indent=2)
    f.write("\n")
os.replace(path + ".tmp", path)
PY

# ---- the volumes ---------------------------------------------------------------
# Volumes attached after launch (aws ec2 attach-volume) show up a while
# after boot; so do AL2023's udev links (/dev/sdf) for volumes created with
# the instance.  Wait for every device the config lists.
missing_devices() {
	python3 - "$CFG" "$BIN" <<'PY'
import json, os, subprocess, sys
cfg = json.load(open(sys.argv[1]))
devices = cfg.get("devices", [])
attached = set()
if any("volume_id" in d for d in devices):
    cmd = [sys.argv[2], "discover", "--json"]
    if cfg.get("accept_model"):
        cmd += ["--accept-model", cfg["accept_model"]]
    out = subprocess.run(cmd, capture_output=True, text=True).stdout
    attached = {d.get("volume_id") for d in json.loads(out or "[]")}
for d in devices:
    if "volume_id" in d and d["volume_id"] not in attached:
        print(d["volume_id"])
    elif "path" in d and not os.path.exists(d["path"]):
        print(d["path"])
PY
}
waited=0
while missing=$(missing_devices) && [[ -n $missing ]]; do
	missing=${missing//$'\n'/ }
	((waited < ATTACH_WAIT_S)) || die "not attached after $waited s: $missing"
	((waited % 30 == 0)) && log "waiting for $missing to be attached"
	sleep 2
	waited=$((waited + 2))
done
((waited == 0)) || log "attached after $waited s"

# An instance has no image digest: the binary's sha256 names what ran
# (results.json .ebsbench.image_digest).
export EBSBENCH_IMAGE_DIGEST=sha256:$got

# ---- the plan, the deadline, the run -------------------------------------------
"$BIN" run --config "$CFG" --out "$OUT" --dry-run >"$DIR/plan.json"
rc=$?
if ((rc >= 1 && rc <= 3)); then
	# A config error, an expiring URL, a missing device or a refused write:
	# the run would stop at the same place.
	die "ebsbench refused the config (dry run exit $rc, above): not running"
fi
planned=
if ((rc == 0)); then
	planned=$(python3 -c 'import json, sys; print(int(json.load(open(sys.argv[1]))["planned_s"] + 0.999))' \
		"$DIR/plan.json" 2>/dev/null) || planned=
fi
if [[ -n $planned ]]; then
	deadline=$((planned + planned / 10 + UPLOAD_GRACE_S))
	log "plan: $planned s; deadline $deadline s (+ 10 % + $UPLOAD_GRACE_S s for the uploads)"
else
	deadline=$FALLBACK_DEADLINE_S
	log "plan: the dry run did not give planned_s (exit $rc); deadline $deadline s"
fi
if [[ -n $MAX_RUN_S ]] && ((MAX_RUN_S < deadline)); then
	deadline=$MAX_RUN_S
	log "deadline capped at $deadline s (EBSBENCH_MAX_RUN_S)"
fi
watchdog $((deadline + UPLOAD_GRACE_S + WATCHDOG_SLACK_S))

# From here a reboot resumes the run (the per-boot copy), once.
if [[ -n $resume ]]; then echo 2; else echo 1; fi >"$BOOTS"
{ mkdir -p "${HOOK%/*}" && cp "$0" "$HOOK.part" && chmod 0700 "$HOOK.part" && mv -f "$HOOK.part" "$HOOK"; } ||
	log "cannot install $HOOK: a reboot will not resume the run"
log "running: ebsbench run --config $CFG --out $OUT${resume:+ $resume}"
timeout --signal=TERM --kill-after="$UPLOAD_GRACE_S" "$deadline" "$BIN" run --config "$CFG" --out "$OUT" $resume
rc=$?
case $rc in
0) log "ebsbench: done, every file uploaded" ;;
1) log "ebsbench: a phase failed (exit 1); the rest ran and the results are kept" ;;
4) log "ebsbench: an upload failed (exit 4); every file is in $OUT/" ;;
5) log "ebsbench: stopped before its end (exit 5); partial results uploaded" ;;
124) log "ebsbench: stopped at the deadline ($deadline s); partial results uploaded" ;;
137) log "ebsbench: killed $UPLOAD_GRACE_S s after the deadline" ;;
*) log "ebsbench: exit $rc" ;;
esac
exit "$rc"
