#!/usr/bin/env bats
# resume_s3.bats - a run survives its pod, on a loop device and the S3 peer
# (tests/peers): `run --resume=auto` as `ebsbench k8s`'s Job runs it starts
# afresh when S3 holds nothing of the run; killed (SIGKILL) in its third
# phase and its output directory lost with the pod, the next one reads the
# run's own results.json back from S3 (the upload block's resume_get,
# signed by `ebsbench presign`) and ends with every phase once, the gap
# stated and counted, one results.json and one report in S3; a finished
# run is left alone; a GET S3 refuses stops it before any I/O; no URL is
# ever printed.

bats_require_minimum_version 1.5.0

load helpers
load ../peers/peers
load upload_helpers
load_bats_libs

# The S3 server's only key pair (s3.sh takes it from here).
export AWS_ACCESS_KEY_ID=AKIAEBSBENCHRESUME01
export AWS_SECRET_ACCESS_KEY='res0me/Secret+Key/ebsbench0000000000000000'

setup_file() {
	upload_setup_file
}

teardown_file() {
	upload_teardown_file
}

setup() {
	cd "$BATS_TEST_TMPDIR"
}

# config_auto PREFIX: cfg.json, four phases on DEV (each 3 s at time scale
# 0.01: layout, randread, randwrite, lat) and the upload block `ebsbench
# presign --post` signs for PREFIX, the test CA its ca_file.
config_auto() {
	short_config "$DEV" '[{"phase": "layout"}, {"phase": "randread", "runtime": 300},
		{"phase": "randwrite", "runtime": 300}, {"phase": "lat", "runtime": 300}]' >plan.json
	"$EBSBENCH" presign --post --endpoint "$TLS_URL" --bucket "$BUCKET" --prefix "$1" \
		--region "$AWS_DEFAULT_REGION" --expires 1h --plan plan.json 2>/dev/null |
		jq --arg ca "$CA_FILE" --slurpfile p plan.json '$p[0] + {upload: (.upload + {ca_file: $ca})}' >cfg.json
}

# run_auto: `ebsbench run --config cfg.json --resume=auto`, checked for secrets.
run_auto() {
	local st out err
	run --separate-stderr "$EBSBENCH" run --config cfg.json --resume=auto
	st=$status out=$output err=$stderr
	no_secrets
	status=$st output=$out stderr=$err
}

# s3_results PREFIX: S3's copy of PREFIX/results.json, on stdout.
s3_results() {
	curl -sS --fail --cacert "$CA_FILE" "$(presign get "$1/results.json" 60)"
}

@test "a lost pod's run resumed from S3: every phase once, the gap stated and counted, one report" {
	local prefix="pod/$RANDOM" pid i gap idle
	config_auto "$prefix"
	jq -e '.upload.resume_get | startswith("'"$TLS_URL/$BUCKET/$prefix/results.json?"'")' cfg.json >/dev/null
	# The first pod: nothing in S3 (404), so the run starts from its start;
	# killed 0.3 s into its third step, as a lost node would end it.
	"$EBSBENCH" run --config cfg.json --resume=auto >/dev/null 2>first.err &
	pid=$!
	for ((i = 0; i < 300; i++)); do
		[ "$(jq -r '.running.step // empty' out/results.json 2>/dev/null)" = 2 ] && break
		sleep 0.1
	done
	sleep 0.3
	kill -9 "$pid"
	wait "$pid" || true
	grep -qx "ebsbench run: S3 holds no results.json of this run: nothing to resume, the run starts from its start" first.err ||
		fail "$(cat first.err)"
	# S3 knows which step was cut: results.json went up as it began.
	assert_equal "$(s3_results "$prefix" | jq -c '[[.phases[].step], .running.step]')" '[[0,1],2]'
	# The pod's emptyDir died with it.
	rm -rf out
	sleep 2 # the gap
	run_auto
	assert_success
	[[ $stderr == *"ebsbench run: the stopped run's results.json fetched from S3 into out"* ]] || fail "$stderr"
	[[ $stderr == *"ebsbench run: resuming: 2 of 4 steps done; step 3 (randwrite on vol) was cut and runs again whole; a gap of "* ]] ||
		fail "no resume line: $stderr"
	assert_equal "$(jq -c '[.phases[] | [.step, .phase]]' out/results.json)" \
		'[[0,"layout"],[1,"randread"],[2,"randwrite"],[3,"lat"]]'
	assert_equal "$(jq -c '[.running, .environment.stopped_early]' out/results.json)" '[null,false]'
	assert_equal "$(jq -c '.resumes[0] | [.steps_done, .steps, .cut.step]' out/results.json)" '[2,4,2]'
	gap=$(jnum out/results.json '.resumes[0].gap_s')
	awk -v g="$gap" 'BEGIN { exit !(g >= 2 && g < 60) }' || fail "gap_s $gap"
	idle=$(jnum out/results.json '.phases[2].idle_before_s')
	awk -v i="$idle" -v g="$gap" 'BEGIN { exit !(i >= g) }' || fail "idle_before_s $idle < gap $gap"
	run grep -c '^> \*\*Resumed\.\*\* The run stopped with 2 of 4 steps done (randwrite on vol was cut and ran again whole) and resumed [0-9.]* s later' out/summary.md
	assert_output 1
	# What S3 holds is the one results.json and report, as if whole.
	same_in_s3 "$prefix/" results.json summary.md report.html vol_rw_iops.1.log
	# Another pod after the end: nothing to resume, nothing touched.
	rm -rf out
	run_auto
	assert_success
	assert_equal "$stderr" "ebsbench run: the run in S3 finished: nothing to resume"
	[ ! -e out/results.json ]
	# The same with the finished run's directory still there.
	mkdir -p out
	s3_results "$prefix" >out/results.json
	run_auto
	assert_success
	assert_equal "$stderr" "ebsbench run: the run in out finished: nothing to resume"
}

@test "a resume_get S3 refuses: exit 2 before any I/O, one line without the URL" {
	local prefix="refused/$RANDOM"
	config_auto "$prefix"
	# Another key's signature: S3 answers 403, not 404, and a fresh run
	# would overwrite what the prefix holds.
	jq '.upload.resume_get |= sub("X-Amz-Signature=[0-9a-f]{8}"; "X-Amz-Signature=00000000")' \
		cfg.json >bad.json
	mv bad.json cfg.json
	writes=$(writes_of "$DEV")
	run_auto
	assert_failure 2
	assert_output ""
	[[ $stderr == "ebsbench run --resume: the stopped run's results.json from S3: HTTP 403 "* ]] || fail "$stderr"
	assert_equal "$(wc -l <<<"$stderr")" 1
	assert_equal "$(writes_of "$DEV")" "$writes"
	[ ! -e out/results.json ]
}

@test "no secret in anything printed or written by the tests above" {
	[ -s "$BATS_FILE_TMPDIR/captures" ]
	run ! grep -F -f "$BATS_FILE_TMPDIR/secrets" "$BATS_FILE_TMPDIR/captures"
}
