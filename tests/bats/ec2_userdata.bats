#!/usr/bin/env bats
# ec2_userdata.bats - image/ec2/user-data.sh run here as root, as cloud-init
# would run it on Amazon Linux 2023, against real peers: the binary comes
# from the SigV4-checking S3 peer over verified TLS through a presigned GET,
# the instance's facts from a local IMDSv2 (tests/peers/imds.py: no token, no
# answer), the volumes are loop devices listed by path with a time-scaled
# plan, and the results go back to S3 through URLs `ebsbench presign` made.
# The power-off command, the IMDS address, the install directory and the
# console are overridden through the script's EBSBENCH_* variables.
# Checked: the run completes and every file is in S3, results.json names the
# instance from IMDS and the binary's sha256, and the machine is powered off
# in every case: a wrong sha256 (nothing runs), a config ebsbench refuses,
# and a run cut by the deadline (partial results still uploaded); a reboot
# mid-run (its shutdown's SIGTERM) does not power off, and the per-boot copy
# the script left resumes the run at the next boot, once.

bats_require_minimum_version 1.5.0

load helpers
load ../peers/peers
load_bats_libs

USERDATA=$BATS_TEST_DIRNAME/../../image/ec2/user-data.sh
IMDS_PY=$BATS_TEST_DIRNAME/../peers/imds.py
# The S3 peer's only key pair (s3.sh takes it from here).
export AWS_ACCESS_KEY_ID=AKIAEBSBENCHEC2TEST01
export AWS_SECRET_ACCESS_KEY='ec2/Secret+Key/ebsbench00000000000000000'

setup_file() {
	require_ebsbench
	peers_start "$BATS_FILE_TMPDIR/peers"
	# The binary in S3, and a presigned GET for it, as a user would do with
	# `aws s3 cp` and `aws s3 presign`.
	local put
	put=$(presign put "ebsbench/$BATS_ROOT_PID/ebsbench" 600)
	curl -sS --fail --cacert "$CA_FILE" -T "$EBSBENCH" "$put" >/dev/null
	BIN_URL=$(presign get "ebsbench/$BATS_ROOT_PID/ebsbench" 600)
	BIN_SHA=$(sha256sum "$EBSBENCH" | cut -d' ' -f1)
	# IMDSv2 on a free port, in its own session, closing bats' fd 3.
	local imds=$BATS_FILE_TMPDIR/imds
	setsid /usr/bin/python3 "$IMDS_PY" "$imds.port" "$imds.log" --lifetime 600 \
		</dev/null >"$imds.out" 2>&1 3>&- &
	echo $! >"$imds.pid"
	local i
	for ((i = 0; i < 50; i++)); do
		[[ -s $imds.port ]] && break
		sleep 0.1
	done
	IMDS_PORT=$(cat "$imds.port") || return 1
	GP3=$(make_loop 32)
	GP2=$(make_loop 32)
	export BIN_URL BIN_SHA IMDS_PORT GP3 GP2
}

teardown_file() {
	local pid
	# A stopped server (kill fails) must not keep the peers running.
	if pid=$(cat "$BATS_FILE_TMPDIR/imds.pid" 2>/dev/null); then
		kill "$pid" 2>/dev/null || true
	fi
	peers_stop "$BATS_FILE_TMPDIR/peers"
	cleanup_loops
}

setup() {
	cd "$BATS_TEST_TMPDIR"
	PREFIX="ec2/$BATS_ROOT_PID/$BATS_TEST_NUMBER/"
}

# What the console showed: bats prints it only when the test fails.
teardown() {
	if [[ -f $BATS_TEST_TMPDIR/console ]]; then
		echo "console:"
		sed 's/^/  /' "$BATS_TEST_TMPDIR/console"
	fi
}

# config [RANDREAD_RUNTIME] [EXTRA_JSON] [GP2_PATH]: config.json, the two
# loop devices by path (gp3 first, as in the seed; gp2 at GP2_PATH if given), a time-scaled plan (time_scale 0.01:
# the randread phase lasts RANDREAD_RUNTIME / 100 s), and the upload block
# `ebsbench presign --plan` prints for it, trusting the test CA.
config() {
	local extra=${2:-'{}'}
	jq -n --arg gp3 "$GP3" --arg gp2 "${3:-$GP2}" --argjson rt "${1:-100}" '{
	  devices: [{path: $gp3, label: "gp3", type: "gp3", size_gib: 100},
	            {path: $gp2, label: "gp2", type: "gp2", size_gib: 100}],
	  region: "ap-northeast-2", time_scale: 0.01, test_size: "16M",
	  phases: [{phase: "layout"}, {phase: "randread", runtime: $rt}]}' >plan.json
	"$EBSBENCH" presign --bucket "$BUCKET" --prefix "$PREFIX" --region "$AWS_DEFAULT_REGION" \
		--expires 1h --endpoint "$TLS_URL" --plan plan.json >upload.json 2>presign.err || {
		cat presign.err
		return 1
	}
	jq -s --arg ca "$CA_FILE" --argjson extra "$extra" \
		'.[0] + {upload: (.[1].upload + {ca_file: $ca})} + $extra' plan.json upload.json >config.json
}

# fill URL SHA256 CONFIG_FILE: user-data.sh with its three blanks filled in,
# as a user would, into ./user-data.sh.
fill() {
	/usr/bin/python3 - "$USERDATA" "$1" "$2" "$3" >user-data.sh <<-'PY'
	import re, sys
	src, url, sha, cfg = sys.argv[1:5]
	text = open(src).read()
	config = open(cfg).read().rstrip("\n")
	out, n1 = re.subn(r"^EBSBENCH_URL='[^']*'$", lambda m: f"EBSBENCH_URL='{url}'", text, flags=re.M)
	out, n2 = re.subn(r"^EBSBENCH_SHA256='[^']*'$", lambda m: f"EBSBENCH_SHA256='{sha}'", out, flags=re.M)
	out, n3 = re.subn(r"(cat <<'CONFIG'\n).*?(\nCONFIG\n)", lambda m: m.group(1) + config + m.group(2),
	                  out, flags=re.S)
	if (n1, n2, n3) != (1, 1, 1):
	    sys.exit(f"fill: blanks found {n1, n2, n3}, want one of each")
	sys.stdout.write(out)
	PY
}

# userdata_env: the production defaults overridden, for env(1).
# EBSBENCH_TEST_MARK: every process the script starts inherits it, so
# leftovers can be found afterwards.
userdata_env() {
	ROOT=$BATS_TEST_TMPDIR/root
	ENV=(EBSBENCH_TEST_MARK="$BATS_TEST_TMPDIR" EBSBENCH_DIR="$ROOT" EBSBENCH_IMDS="http://127.0.0.1:$IMDS_PORT"
		EBSBENCH_POWEROFF="echo powered-off >>'$BATS_TEST_TMPDIR/poweroff'"
		EBSBENCH_PER_BOOT_DIR="$BATS_TEST_TMPDIR/per-boot"
		EBSBENCH_CONSOLE="$BATS_TEST_TMPDIR/console" CURL_CA_BUNDLE="$CA_FILE")
}

# run_userdata [VAR=VALUE...]: ./user-data.sh (or SCRIPT) as root, the
# production defaults overridden; a hang fails after 100 s instead of blocking.
run_userdata() {
	userdata_env
	run env "${ENV[@]}" "$@" timeout -k 5 100 bash "${SCRIPT:-./user-data.sh}" 3>&-
}

# from_s3 NAME: the object PREFIX/NAME, fetched over TLS with a presigned GET.
from_s3() {
	curl -sS --fail --cacert "$CA_FILE" "$(presign get "$PREFIX$1" 60)"
}

console_has() {
	grep -qF -- "$1" "$BATS_TEST_TMPDIR/console" || {
		echo "console lacks: $1"
		return 1
	}
}

# leftovers: processes started by this test's user-data still running.
leftovers() {
	grep -lzx "EBSBENCH_TEST_MARK=$BATS_TEST_TMPDIR" /proc/[0-9]*/environ 2>/dev/null || true
}

powered_off_once() {
	assert_file_exists "$BATS_TEST_TMPDIR/poweroff"
	assert_equal "$(cat "$BATS_TEST_TMPDIR/poweroff")" powered-off
}

@test "the IMDS stand-in is IMDSv2-only: no token, 401" {
	local url=http://127.0.0.1:$IMDS_PORT/latest
	run curl -s -o /dev/null -w '%{http_code}' "$url/meta-data/instance-type"
	assert_output 401
	run curl -s -o /dev/null -w '%{http_code}' -X PUT "$url/api/token"
	assert_output 400
	local token
	token=$(curl -sS --fail -X PUT -H 'X-aws-ec2-metadata-token-ttl-seconds: 60' "$url/api/token")
	run curl -sS --fail -H "X-aws-ec2-metadata-token: $token" "$url/meta-data/instance-type"
	assert_output m5.xlarge
	run curl -s -o /dev/null -w '%{http_code}' -H "X-aws-ec2-metadata-token: nope" \
		"$url/meta-data/instance-type"
	assert_output 401
}

@test "user-data: fetch, verify, run, upload, the instance from IMDSv2 in results.json, power off" {
	config
	fill "$BIN_URL" "$BIN_SHA" config.json
	local before
	before=$(wc -l <"$BATS_FILE_TMPDIR/imds.log")
	run_userdata
	assert_success
	powered_off_once
	console_has "sha256 ok ($BIN_SHA): ebsbench "
	console_has "IMDSv2: instance-type m5.xlarge, instance-id i-0123456789abcdef0, zone ap-northeast-2a"
	console_has "running: ebsbench run --config $ROOT/config.json --out $ROOT/results"
	console_has "ebsbench: done, every file uploaded"
	console_has "done (exit 0): powering off"
	# ebsbench's own lines reached the console too: the TL;DR and uploads.
	console_has "upload: 13 uploaded, 0 failed, 0 skipped"
	# The deadline comes from the plan (or, if the dry run gave no plan,
	# the fallback, and the console says why).
	grep -qE "plan: [0-9]+ s; deadline [0-9]+ s|plan: the dry run did not give planned_s" \
		"$BATS_TEST_TMPDIR/console"
	# IMDSv2: one token, then every GET with it; nothing unauthenticated.
	run tail -n +"$((before + 1))" "$BATS_FILE_TMPDIR/imds.log"
	assert_line --index 0 "PUT /latest/api/token 200"
	assert_line "GET /latest/meta-data/instance-type 200 token: yes"
	assert_line "GET /latest/meta-data/instance-id 200 token: yes"
	assert_line "GET /latest/meta-data/placement/availability-zone 200 token: yes"
	refute_output --partial " 401"
	# The local results and what S3 holds.
	local r=$ROOT/results/results.json
	assert_equal "$(jq -r .environment.instance_type "$r")" m5.xlarge
	assert_equal "$(jq -r .environment.instance_id "$r")" i-0123456789abcdef0
	assert_equal "$(jq -r .environment.zone "$r")" ap-northeast-2a
	assert_equal "$(jq -r .ebsbench.image_digest "$r")" "sha256:$BIN_SHA"
	assert_equal "$(jq -r '[.phases[].device] | unique | join(",")' "$r")" gp2,gp3
	from_s3 results.json >s3-results.json
	assert_equal "$(sha256sum <s3-results.json)" "$(sha256sum <"$r")"
	local n
	for n in summary.md gp2_rr_iops.1.log gp3_layout_iops.1.log; do
		from_s3 "$n" >"s3-$n"
		cmp "s3-$n" "$ROOT/results/$n"
	done
	# The config holds bearer URLs: root only.
	assert_equal "$(stat -c %a "$ROOT/config.json")" 600
	# Nothing left behind: the watchdog and the console tee are gone.
	assert_equal "$(leftovers)" ""
}

@test "ebsbench ec2 --user-data: this binary uploaded beside the run, fetched, verified, run, every file up" {
	# What `ebsbench ec2` writes, with the instance's /dev/sdf and /dev/sdg
	# being the loop devices here: nothing else of it is changed.
	jq -n '{time_scale: 0.01, test_size: "16M", phases: [{phase: "layout"}, {phase: "randread", runtime: 100}]}' >plan.json
	"$EBSBENCH" ec2 --volume gp3:100:3000:125 --volume gp2:100 --s3 "s3://$BUCKET/$PREFIX" \
		--region ap-northeast-2 --endpoint "$TLS_URL" --ca-file "$CA_FILE" --config plan.json \
		--user-data >made.sh 2>ec2.err || {
		cat ec2.err
		return 1
	}
	sed -e "s|\"/dev/sdf\"|\"$GP3\"|; s|\"/dev/sdg\"|\"$GP2\"|" made.sh >user-data.sh
	assert_equal "$(diff made.sh user-data.sh | grep -c '^>')" 2
	run_userdata
	assert_success
	powered_off_once
	console_has "sha256 ok ($BIN_SHA): ebsbench "
	console_has "ebsbench: done, every file uploaded"
	# What ran is in S3 beside its results, and results.json names it.
	from_s3 ebsbench >s3-ebsbench
	cmp s3-ebsbench "$EBSBENCH"
	local r=$ROOT/results/results.json
	assert_equal "$(jq -r .ebsbench.image_digest "$r")" "sha256:$BIN_SHA"
	assert_equal "$(jq -r '[.phases[].device] | unique | join(",")' "$r")" gp2,gp3
	assert_equal "$(jq -r '.devices[] | select(.label == "gp3") | .volume.iops' "$r")" 3000
	from_s3 results.json >s3-results.json
	assert_equal "$(sha256sum <s3-results.json)" "$(sha256sum <"$r")"
	# stderr names the prefix, never a URL or the policy's signature.
	run cat ec2.err
	assert_output --partial "s3://$BUCKET/$PREFIX"
	refute_output --partial "X-Amz-Signature"
	refute_output --partial "$(grep -o '"x-amz-signature": "[0-9a-f]*' made.sh | cut -d'"' -f4)"
	refute_output --partial "$AWS_SECRET_ACCESS_KEY"
}

@test "user-data: a wrong sha256 runs nothing, says so, and still powers off" {
	config
	fill "$BIN_URL" e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855 config.json
	run_userdata
	assert_failure 1
	powered_off_once
	console_has "ERROR: sha256 mismatch: expected e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855, got $BIN_SHA: refusing to run this binary"
	console_has "done (exit 1): powering off"
	assert_file_not_exists "$ROOT/ebsbench"
	assert_file_not_exists "$ROOT/ebsbench.part"
	assert_file_not_exists "$ROOT/results"
	run ! grep -q "$PREFIX" "$BATS_FILE_TMPDIR/peers/s3.log"
}

@test "user-data: a config ebsbench refuses is not run, the reason is on the console, power off" {
	config 100 '{"bogus": 1}'
	fill "$BIN_URL" "$BIN_SHA" config.json
	run_userdata
	assert_failure 1
	powered_off_once
	console_has "config: unknown key 'bogus'"
	console_has "ERROR: ebsbench refused the config (dry run exit 2, above): not running"
	assert_file_not_exists "$ROOT/results"
}

@test "user-data: the deadline stops the run with SIGTERM, partial results still go up, power off" {
	# A 30 s randread phase, and a deadline of 4 s.
	config 3000
	fill "$BIN_URL" "$BIN_SHA" config.json
	local t0=$SECONDS
	run_userdata EBSBENCH_MAX_RUN_S=4
	assert_equal "$status" 124
	((SECONDS - t0 < 25))
	powered_off_once
	console_has "deadline capped at 4 s (EBSBENCH_MAX_RUN_S)"
	console_has "ebsbench: stopped at the deadline (4 s); partial results uploaded"
	from_s3 results.json >s3-results.json
	assert_equal "$(jq -r .environment.stopped_early s3-results.json)" true
	assert_equal "$(sha256sum <s3-results.json)" "$(sha256sum <"$ROOT/results/results.json")"
}

@test "user-data: a reboot mid-run does not power off; the next boot's per-boot copy resumes the run, once" {
	local pid p i hook=$BATS_TEST_TMPDIR/per-boot/ebsbench-resume.sh
	# Four steps (layout, then a 10 s randread, on gp3 then gp2).
	config 1000
	fill "$BIN_URL" "$BIN_SHA" config.json
	userdata_env
	env "${ENV[@]}" bash ./user-data.sh 3>&- &
	pid=$!
	for ((i = 0; i < 300; i++)); do
		jq -e '.running.step >= 1' "$ROOT/results/results.json" >/dev/null 2>&1 && break
		sleep 0.1
	done
	sleep 0.5
	# The reboot's shutdown: SIGTERM to every process of the service (tee
	# too: what the script says after it is lost, as on a real shutdown).
	for p in $(leftovers); do
		p=${p#/proc/}
		kill -TERM "${p%/environ}" 2>/dev/null || true
	done
	wait "$pid" || true
	[ ! -f "$BATS_TEST_TMPDIR/poweroff" ]
	# Cut: by its SIGTERM, or by SIGPIPE once tee is gone, as SIGKILL would.
	jq -e '(.phases | length) < 4' "$ROOT/results/results.json"
	assert_file_exists "$hook"
	# The next boot: cloud-init runs the per-boot copy, not the user-data.
	SCRIPT=$hook run_userdata
	assert_success
	powered_off_once
	console_has "the run's previous boot did not finish: resuming its run once"
	console_has "running: ebsbench run --config $ROOT/config.json --out $ROOT/results --resume=auto"
	local r=$ROOT/results/results.json
	assert_equal "$(jq -c '[[.phases[].step], (.resumes | length), .environment.stopped_early]' "$r")" '[[0,1,2,3],1,false]'
	from_s3 results.json >s3-results.json
	assert_equal "$(sha256sum <s3-results.json)" "$(sha256sum <"$r")"
	[ ! -e "$hook" ]
	# A resumed boot that died too: the next one powers off, runs nothing.
	rm "$BATS_TEST_TMPDIR/poweroff"
	echo 2 >"$ROOT/run-boots"
	cp ./user-data.sh "$hook"
	SCRIPT=$hook run_userdata
	assert_failure 1
	powered_off_once
	console_has "the resumed run's boot did not finish either: not running it again"
	[ ! -e "$hook" ]
	assert_equal "$(jq -c '[.phases[].step]' "$r")" '[0,1,2,3]'
}

@test "user-data: waits for a volume attached after boot, then runs; one never attached: error, power off" {
	# gp2 appears once the script says it waits for it, as an attach-volume
	# would (a fixed delay raced the script's own start on a loaded host:
	# fetching and checking the binary can take longer than the delay).
	config 100 '{}' "$BATS_TEST_TMPDIR/late-gp2"
	fill "$BIN_URL" "$BIN_SHA" config.json
	(
		for _ in $(seq 1 300); do
			grep -qsF "waiting for $BATS_TEST_TMPDIR/late-gp2" "$BATS_TEST_TMPDIR/console" && break
			sleep 0.1
		done
		sleep 1
		ln -s "$GP2" "$BATS_TEST_TMPDIR/late-gp2"
	) 3>&- &
	run_userdata
	wait
	assert_success
	powered_off_once
	console_has "waiting for $BATS_TEST_TMPDIR/late-gp2 to be attached"
	grep -qE "attached after [0-9]+ s" "$BATS_TEST_TMPDIR/console"
	console_has "ebsbench: done, every file uploaded"

	rm -f "$BATS_TEST_TMPDIR/poweroff" "$BATS_TEST_TMPDIR/console"
	config 100 '{}' "$BATS_TEST_TMPDIR/never"
	fill "$BIN_URL" "$BIN_SHA" config.json
	run_userdata EBSBENCH_ATTACH_WAIT_S=2
	assert_failure 1
	powered_off_once
	console_has "ERROR: not attached after 2 s: $BATS_TEST_TMPDIR/never"
	assert_file_not_exists "$ROOT/results"
}

@test "user-data: filled in for the seed's run (36 PUT URLs), it fits EC2's 16 KB user-data limit gzipped" {
	# The default plan on two volumes named by id; presign signs offline.
	jq -n '{devices: [{volume_id: "vol-0fedcba9876543210", label: "gp3", type: "gp3", size_gib: 100},
	                  {volume_id: "vol-0123456789abcdef0", label: "gp2", type: "gp2", size_gib: 100}],
	        region: "ap-northeast-2"}' >plan.json
	"$EBSBENCH" presign --bucket my-ebsbench-results --prefix runs/2026-09-02-gp2-vs-gp3/ \
		--region ap-northeast-2 --expires 3h --plan plan.json 2>/dev/null >upload.json
	assert_equal "$(jq '.upload.put | length' upload.json)" 36
	jq -s '.[0] + .[1]' plan.json upload.json >config.json
	fill "$BIN_URL" "$BIN_SHA" config.json
	gzip -9n <user-data.sh >user-data.sh.gz
	local raw gz
	raw=$(stat -c %s user-data.sh)
	gz=$(stat -c %s user-data.sh.gz)
	echo "user-data: $raw bytes, $gz gzipped"
	((gz < 16384))
	# cloud-init runs the decompressed script: the same bytes.
	cmp <(gunzip <user-data.sh.gz) user-data.sh
	bash -n user-data.sh
}
