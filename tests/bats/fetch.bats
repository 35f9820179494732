#!/usr/bin/env bats
# fetch.bats - `ebsbench fetch [--wait] s3://BUCKET/PREFIX/ [DIR]` against the
# SigV4-checking S3 peer behind verified TLS (tests/peers): a run's files,
# put there with presigned PUTs or by `ebsbench run` itself (URLs from
# `ebsbench presign`, on a loop device), come back byte for byte through signed
# ListObjectsV2 pages and GETs with credentials from a profile the AWS CLI
# wrote, and `ebsbench report` renders them again; a local file that
# differs is refused unless --force; wrong credentials and an empty prefix
# are one line and a non-zero exit; --wait waits until results.json records
# report.html; no secret or URL is ever printed.

bats_require_minimum_version 1.5.0

load helpers
load ../peers/peers
load upload_helpers
load_bats_libs

# The S3 server's only key pair (s3.sh takes it from here).
export AWS_ACCESS_KEY_ID=AKIAEBSBENCHFETCH001
export AWS_SECRET_ACCESS_KEY='f3tch/Secret+Key/ebsbench0000000000000000'
KEY_ID=$AWS_ACCESS_KEY_ID
SECRET=$AWS_SECRET_ACCESS_KEY

setup_file() {
	require_ebsbench
	require_aws_cli_v2
	peers_start "$BATS_FILE_TMPDIR/peers"
	DEV=$(make_loop 32)
	export DEV
	# A run's results: the fixture's record, rendered, and a log in a sub-folder.
	local run=$BATS_FILE_TMPDIR/run f
	mkdir -p "$run/logs"
	cp "$BATS_TEST_DIRNAME/../unit/fixtures/results-gp2-gp3.json" "$run/results.json"
	"$EBSBENCH" report "$run" >/dev/null
	head -c 300000 /dev/urandom >"$run/logs/gp3_rr_iops.1.log"
	(cd "$run" && find . -type f | sed 's|^\./||' | sort) >"$BATS_FILE_TMPDIR/names"
	local urls
	urls=$(sed 's|.*|put runs/r1/& 600|' "$BATS_FILE_TMPDIR/names" | presign_many)
	paste -d ' ' "$BATS_FILE_TMPDIR/names" <(echo "$urls") | while read -r f url; do
		curl -fsS --cacert "$CA_FILE" -o /dev/null -T "$run/$f" "$url" || return 1
	done
}

teardown_file() {
	peers_stop "$BATS_FILE_TMPDIR/peers"
	cleanup_loops
}

setup() {
	cd "$BATS_TEST_TMPDIR"
	export AWS_SHARED_CREDENTIALS_FILE=$PWD/aws/credentials AWS_CONFIG_FILE=$PWD/aws/config
	unset AWS_ACCESS_KEY_ID AWS_SECRET_ACCESS_KEY AWS_SESSION_TOKEN AWS_PROFILE
	"$AWS" configure set aws_access_key_id "$KEY_ID" --profile bench
	"$AWS" configure set aws_secret_access_key "$SECRET" --profile bench
	export AWS_PROFILE=bench
}

# fetch ARGS...: ebsbench fetch against the TLS peer, stdout and stderr apart.
fetch() {
	run --separate-stderr "$EBSBENCH" fetch --endpoint "$TLS_URL" --ca-file "$CA_FILE" "$@"
}

# wait_line TEXT FILE: until FILE holds TEXT, 10 s at most.
wait_line() {
	local i
	for ((i = 0; i < 100; i++)); do
		grep -q "$1" "$2" && return
		sleep 0.1
	done
}

# wait_exit PID: until the background PID has ended (10 s at most), then its status.
wait_exit() {
	local i
	for ((i = 0; i < 100; i++)); do
		kill -0 "$1" 2>/dev/null || break
		sleep 0.1
	done
	wait "$1"
}

# nothing_secret: no secret, signature or credential scope in any output.
nothing_secret() {
	[[ $output != *"$SECRET"* && $stderr != *"$SECRET"* ]] || return 1
	[[ $output != *X-Amz-* && $stderr != *X-Amz-* ]]
}

@test "a run comes back byte for byte, page by page, and report renders it again" {
	EBSBENCH_FETCH_PAGE_KEYS=3 fetch "s3://$BUCKET/runs/r1/"
	assert_success
	nothing_secret
	assert_equal "$output" "r1/report.html"
	diff -r "$BATS_FILE_TMPDIR/run" r1
	local n
	n=$(wc -l <"$BATS_FILE_TMPDIR/names")
	[[ $stderr == *"ebsbench fetch: $n objects, "*" bytes into r1 (0 already there)" ]]
	[[ $stderr == *"logs/gp3_rr_iops.1.log (300000 bytes)"* ]]
	# Pages of 3 keys: the listing went on by continuation token.
	grep -q 'GET /ebsbench-results?.*continuation-token=.* 200$' "$BATS_FILE_TMPDIR/peers/s3.log"
	run "$EBSBENCH" report r1
	assert_success
	cmp "$BATS_FILE_TMPDIR/run/summary.md" r1/summary.md
	# Into a directory named, with the prefix written without its '/'.
	fetch "s3://$BUCKET/runs/r1" out/here
	assert_success
	assert_equal "$output" "out/here/report.html"
	diff -r "$BATS_FILE_TMPDIR/run" out/here
}

@test "equal files are left alone, one that differs is refused unless --force" {
	fetch "s3://$BUCKET/runs/r1/"
	assert_success
	fetch "s3://$BUCKET/runs/r1/"
	assert_success
	[[ $stderr == *"0 objects, 0 bytes into r1 ("*" already there)" ]]
	echo changed >>r1/summary.md
	fetch "s3://$BUCKET/runs/r1/"
	assert_failure 1
	assert_equal "$output" ""
	assert_equal "$(grep -vc 'already here, the same$' <<<"$stderr")" 1
	[[ $stderr == *"ebsbench fetch: r1/summary.md exists and differs from s3://$BUCKET/runs/r1/summary.md: not replaced (--force replaces it)" ]]
	[[ $(tail -c 8 r1/summary.md) == *changed ]]
	fetch "s3://$BUCKET/runs/r1/" --force
	assert_success
	[[ $stderr == *"summary.md ("*" bytes), replaced"* ]]
	diff -r "$BATS_FILE_TMPDIR/run" r1
}

@test "wrong credentials, an empty prefix, a missing profile: one line, non-zero" {
	"$AWS" configure set aws_secret_access_key 'wr0ng/Secret+Key' --profile bench
	fetch "s3://$BUCKET/runs/r1/"
	assert_failure 1
	nothing_secret
	[[ $stderr != *wr0ng* ]]
	assert_equal "$stderr" "ebsbench fetch: S3 refused the listing of s3://$BUCKET/runs/r1/: HTTP 403 SignatureDoesNotMatch: The request signature we calculated does not match the signature you provided. Check your key and signing method."
	[ ! -e r1 ]
	"$AWS" configure set aws_secret_access_key "$SECRET" --profile bench
	fetch "s3://$BUCKET/runs/none/"
	assert_failure 1
	assert_equal "$stderr" "ebsbench fetch: no objects under s3://$BUCKET/runs/none/"
	[ ! -e none ]
	fetch "s3://$BUCKET/runs/r1/" --profile nosuch
	assert_failure 2
	assert_equal "$(printf '%s\n' "$stderr" | wc -l)" 1
	[[ $stderr == "ebsbench fetch: no AWS credentials: profile 'nosuch' (from --profile) is in neither "* ]]
	# The server's certificate is checked.
	run --separate-stderr "$EBSBENCH" fetch --endpoint "$TLS_URL" --ca-file "$WRONG_CA_FILE" \
		"s3://$BUCKET/runs/r1/"
	assert_failure 1
	[[ $stderr == *"is --ca-file the server's CA?"* ]]
	run --separate-stderr "$EBSBENCH" fetch http://not-s3/x
	assert_failure 2
	[[ $stderr == *"s3://BUCKET/PREFIX/"* ]]
}

@test "a run that ebsbench run uploaded, through ebsbench presign's URLs, comes back as on disk" {
	plan_json 100
	run --separate-stderr "$EBSBENCH" presign --bucket "$BUCKET" --prefix runs/e2e \
		--region "$AWS_DEFAULT_REGION" --expires 1h --endpoint "$TLS_URL" --plan plan.json
	assert_success
	jq --arg ca "$CA_FILE" --argjson up "$(jq .upload <<<"$output")" \
		'. + {upload: ({ca_file: $ca} + $up)}' plan.json >cfg.json
	run --separate-stderr "$EBSBENCH" run --config cfg.json
	assert_success
	[[ $stderr == *"upload: 10 uploaded, 0 failed, 0 skipped"* ]]
	# The run has ended: --wait does not wait.
	fetch --wait "s3://$BUCKET/runs/e2e/" back
	assert_success
	nothing_secret
	[[ $stderr != *"waiting for the run"* ]] || fail "waited for an ended run: $stderr"
	assert_equal "$output" "back/report.html"
	[[ $stderr == *"ebsbench fetch: 10 objects, "* ]]
	diff -r out back
	run "$EBSBENCH" report back
	assert_success
	cmp out/summary.md back/summary.md
}

@test "fetch --wait: waits while the run goes on, then fetches once results.json records report.html" {
	# A run in its middle: a phase's log and results.json, no report yet.
	local p=runs/going f
	jq '.uploads = [{artifact: "gp3_rr_iops.1.log", status: "uploaded"}]' \
		"$BATS_FILE_TMPDIR/run/results.json" >mid.json
	jq '.uploads += [{artifact: "report.html", status: "uploaded"}]' mid.json >final.json
	put() { curl -fsS --cacert "$CA_FILE" -o /dev/null -T "$2" "$(presign put "$p/$1" 60)"; }
	put gp3_rr_iops.1.log "$BATS_FILE_TMPDIR/run/logs/gp3_rr_iops.1.log"
	put results.json mid.json
	EBSBENCH_FETCH_POLL_S=1 "$EBSBENCH" fetch --wait --endpoint "$TLS_URL" --ca-file "$CA_FILE" \
		"s3://$BUCKET/$p/" back >fetch.out 2>fetch.err 3>&- &
	local pid=$!
	wait_line "waiting for the run" fetch.err
	grep -qF "waiting for the run under s3://$BUCKET/$p/ to end: 2 objects so far, no final report.html yet" fetch.err
	# report.html up, results.json not yet the final one: still waiting.
	put report.html "$BATS_FILE_TMPDIR/run/report.html"
	sleep 3
	kill -0 "$pid" || fail "fetch --wait ended before results.json recorded report.html"
	assert_file_not_exists back/report.html
	put results.json final.json
	wait_exit "$pid"
	assert_equal "$(cat fetch.out)" back/report.html
	cmp back/results.json final.json
	cmp back/report.html "$BATS_FILE_TMPDIR/run/report.html"
	run cat fetch.err
	refute_output --partial X-Amz-
	refute_output --partial "$SECRET"
}

@test "the region from the profile's config file, as AWS's tools take it; none anywhere: one line" {
	unset AWS_REGION AWS_DEFAULT_REGION
	fetch "s3://$BUCKET/runs/r1/"
	assert_failure 2
	assert_equal "$stderr" "ebsbench fetch: no region: give --region, or set AWS_REGION, or a region in the profile's config file (try ebsbench fetch --help)"
	# `aws configure` writes it where the CLI reads it: [profile bench].
	"$AWS" configure set region us-east-1 --profile bench
	fetch "s3://$BUCKET/runs/r1/"
	assert_success
	assert_equal "$output" "r1/report.html"
}

@test "fetch --wait --fleet 2: waits for every run of the fleet, then fetches them all and builds the fleet's view" {
	local p=runs/fleet
	jq '.uploads = [{artifact: "report.html", status: "uploaded"}]' \
		"$BATS_FILE_TMPDIR/run/results.json" >final.json
	put() { curl -fsS --cacert "$CA_FILE" -o /dev/null -T "$2" "$(presign put "$p/$1" 60)"; }
	# Run 0 has ended; run 1 has only begun.
	put 0/report.html "$BATS_FILE_TMPDIR/run/report.html"
	put 0/results.json final.json
	put 1/gp3_rr_iops.1.log "$BATS_FILE_TMPDIR/run/logs/gp3_rr_iops.1.log"
	EBSBENCH_FETCH_POLL_S=1 "$EBSBENCH" fetch --wait --fleet 2 --endpoint "$TLS_URL" --ca-file "$CA_FILE" \
		"s3://$BUCKET/$p/" back >fetch.out 2>fetch.err 3>&- &
	local pid=$!
	wait_line "waiting for the fleet" fetch.err
	grep -qF "waiting for the fleet under s3://$BUCKET/$p/: 1 of 2 runs ended, 1 objects so far in the others" fetch.err ||
		fail "$(cat fetch.err)"
	sleep 2
	kill -0 "$pid" || fail "fetch --wait --fleet 2 ended with one run still going: $(cat fetch.err)"
	put 1/report.html "$BATS_FILE_TMPDIR/run/report.html"
	put 1/results.json final.json
	wait_exit "$pid"
	assert_equal "$(cat fetch.out)" back/report.html
	cmp back/0/results.json final.json
	cmp back/1/results.json final.json
	assert_file_exists back/fleet.md
	assert_file_exists back/fleet.json
	# Two runs of a gp2 and a gp3 each: four volumes in two classes.
	assert_equal "$(jq -c '[(.runs | length), (.volumes | length), (.classes | length)]' back/fleet.json)" "[2,4,2]"
	grep -qF "ebsbench fetch: the fleet's report: 4 volumes in 2 classes, back/fleet.md" fetch.err
	# --fleet only with --wait; a bad count.
	fetch --fleet 2 "s3://$BUCKET/$p/"
	assert_failure 2
	fetch --wait --fleet 0 "s3://$BUCKET/$p/"
	assert_failure 2
	assert_equal "$stderr" "ebsbench fetch: --fleet '0': want a number of runs, 1 to 100"
}
