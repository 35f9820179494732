# shellcheck shell=bash
# upload_helpers.bash - shared by upload.bats and faults.bats: a one-device
# config on $DEV with an upload block, boto3-presigned PUT URLs for every
# artifact, reading S3 back, the "uploads" records, and a run of
# `ebsbench run` that checks its output for secrets.  Needs helpers.bash
# and ../peers/peers.bash loaded; upload_setup_file starts the peers and
# sets DEV.

ARTIFACTS=(results.json summary.md iops_timeline.svg latency_percentiles.svg latency_heatmap.svg
	recommend.md report.html vol_layout_iops.1.log vol_rr_iops.1.log vol_rr_clat_hist.1.log)

# upload_setup_file: what upload.bats and faults.bats start with: the
# binary checked, the peers up, a 32 MiB loop device in DEV, and empty
# lists of what was printed and of the secrets (for no_secrets).
upload_setup_file() {
	require_ebsbench || return 1
	peers_start "$BATS_FILE_TMPDIR/peers" || return 1
	DEV=$(make_loop 32) || return 1
	export DEV
	: >"$BATS_FILE_TMPDIR/captures"
	: >"$BATS_FILE_TMPDIR/secrets"
}

# upload_teardown_file: the peers stopped, the loop devices detached.
upload_teardown_file() {
	peers_stop "$BATS_FILE_TMPDIR/peers"
	cleanup_loops
}

# plan_json [RANDREAD_RUNTIME]: plan.json, short_config's plan on DEV
# (the randread phase lasts runtime / 100 s), DEV allowed to be destroyed.
plan_json() {
	short_config "$DEV" '[{"phase": "layout"}, {"phase": "randread", "runtime": '"${1:-100}"'}]' |
		jq --arg dev "$DEV" '. + {allow_destroy: [$dev]}' >plan.json
}

# config UPLOAD_JSON [RANDREAD_RUNTIME]: cfg.json = the plan + this upload
# block, ca_file the test CA unless the block names another.
config() {
	plan_json "${2:-100}"
	jq --arg ca "$CA_FILE" --argjson up "$1" '. + {upload: ({ca_file: $ca} + $up)}' \
		plan.json >cfg.json
}

# put_block ENDPOINT PREFIX EXPIRES_S: {"put": {file: URL}} for every
# artifact, presigned by boto3 for ENDPOINT.
put_block() {
	local n urls
	mapfile -t urls < <(for n in "${ARTIFACTS[@]}"; do echo "put $2$n $3"; done |
		presign_many "$1")
	[ "${#urls[@]}" = "${#ARTIFACTS[@]}" ] || return 1
	jq -n '$ARGS.positional as $a | ($a | length / 2) as $h |
	       {put: ([range($h)] | map({($a[.]): $a[. + $h]}) | add)}' \
		--args "${ARTIFACTS[@]}" "${urls[@]}"
}

# same_in_s3 PREFIX [FILE...]: each file (default: every artifact), read
# back over TLS with a boto3-presigned GET, is byte for byte the local one.
same_in_s3() {
	local prefix=$1 n i=0 urls
	shift
	local files=("${@:-${ARTIFACTS[@]}}")
	mapfile -t urls < <(for n in "${files[@]}"; do echo "get $prefix$n 60"; done | presign_many)
	assert_equal "${#urls[@]}" "${#files[@]}"
	for n in "${files[@]}"; do
		curl -sS --fail --cacert "$CA_FILE" -o back "${urls[i]}"
		i=$((i + 1))
		assert_equal "$(sha256sum <back)" "$(sha256sum <"out/$n")"
	done
}

# no_secrets: nothing this run printed or wrote holds the secret key, the
# key id or a signature of its config; all of it also goes to the captures
# the last test checks once more.
no_secrets() {
	local secrets=$BATS_TEST_TMPDIR/secrets seen=$BATS_TEST_TMPDIR/seen
	{
		grep -o 'X-Amz-Signature=[0-9a-f]*' cfg.json | cut -d= -f2
		jq -r '.upload.post.fields // {} | to_entries[] |
		       select(.key | ascii_downcase == "x-amz-signature") | .value' cfg.json
		echo "$AWS_SECRET_ACCESS_KEY"
		echo "$AWS_ACCESS_KEY_ID"
	} | grep -v '^$' >"$secrets"
	{
		printf '%s\n%s\n' "$output" "$stderr"
		cat out/* 2>/dev/null || true
	} >"$seen"
	cat "$seen" >>"$BATS_FILE_TMPDIR/captures"
	cat "$secrets" >>"$BATS_FILE_TMPDIR/secrets"
	run ! grep -F -f "$secrets" "$seen"
}

# run_ebsbench: ebsbench run --config cfg.json; sets status, output,
# stderr and ELAPSED (s), and checks for secrets.
run_ebsbench() {
	local t0=$SECONDS st out err
	run --separate-stderr "$EBSBENCH" run --config cfg.json
	ELAPSED=$((SECONDS - t0))
	st=$status out=$output err=$stderr
	no_secrets
	status=$st output=$out stderr=$err
}

# record FILE FIELD: FILE's entry in results.json's "uploads".
record() {
	jq -r --arg n "$1" ".uploads[] | select(.artifact == \$n) | .$2" out/results.json
}

