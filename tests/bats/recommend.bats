#!/usr/bin/env bats
# recommend.bats - `ebsbench recommend` end to end on the real binary:
#   - seed 000's three priced answers (fixtures from
#     tests/unit/fixtures/make_seed000_fixtures.py): gp3 100 GiB at 3,000
#     IOPS and 125 MiB/s for $9.12 against $11.40; $26.22 with --iops
#     6000; a gp2 of 1,000 GiB held for IOPS gives gp3 at the 100 GiB asked
#     for ($9.12);
#   - results.json of ebsbench 0.1.0 (schema 1, results-gp2-gp3.json, kept
#     as written) read by `report` and `recommend`; a newer schema refused;
#   - --out DIR: the VolumeAttributesClass files pass the offline schema
#     check (tests/k8s/validate.js), a broken copy does not, and apply.md
#     holds the kubectl patch and aws ec2 modify-volume lines with the caveats;
#   - `report` writes recommend.md, the same text `recommend` prints;
#   - st1 for 500 MiB/s sequential at 8,000 GiB (12,800 GiB, $576.00 in
#     us-east-1), its class and modify-volume; st1/sc1 refused for small
#     random I/O, one sentence each;
#   - bad input: one line naming the problem, exit 2, nothing on stdout;
#   - docs/recommend.md's example output is the real output.

bats_require_minimum_version 1.5.0

load helpers
load_bats_libs

REPO=$BATS_TEST_DIRNAME/../..
FIXTURES=$REPO/tests/unit/fixtures
SEED=$FIXTURES/results-seed000.json
K8S_TESTS=$REPO/tests/k8s

setup_file() {
	require_ebsbench
	bash "$K8S_TESTS/install.sh" >&2
}

setup() {
	cd "$BATS_TEST_TMPDIR"
}

# rec ARGS...: `ebsbench recommend ARGS --json` into rec.json, checked to succeed.
rec() {
	run --separate-stderr "$EBSBENCH" recommend "$@" --json
	assert_success
	printf '%s\n' "$output" >rec.json
	json_doc rec.json
}

# pick DEVICE FILTER -> FILTER on the device's object of rec.json.
pick() {
	jq -r --arg d "$1" ".devices[] | select(.device == \$d) | $2" rec.json
}

@test "seed 000, no requirement: the gp2 is a gp3 100 GiB at 3,000 IOPS and 125 MiB/s for \$9.12 against \$11.40" {
	rec "$SEED"
	assert_equal "$(pick gp2 .choice)" gp3
	assert_equal "$(pick gp2 '.candidates[] | select(.chosen) | [.size_gib, .iops, .throughput_mibs, .monthly_usd] | @tsv')" \
		"$(printf '100\t3000\t125\t9.12')"
	assert_equal "$(pick gp2 .current.monthly_usd)" 11.4
	assert_equal "$(pick gp2 '.candidates[] | select(.type == "gp2") | [.size_gib, .monthly_usd] | @tsv')" \
		"$(printf '1000\t114')"
	# The gp3 stays as it is; its p99 at 3,000 IOPS is its randread's.
	assert_equal "$(pick gp3 '.candidates[0] | [.chosen, .delta_usd, .p99.ms, .p99.phase] | @tsv')" \
		"$(printf 'true\t0\t12.9\trandread qd32')"
	# The table says the same.
	run --separate-stderr "$EBSBENCH" recommend "$SEED"
	assert_success
	assert_line '| **gp3** (chosen) | 100 GiB | 3,000 | 125 | $9.12 | -$2.28 | 12.9 ms (gp3, randread qd32 at 3,001 IOPS) |'
	assert_line '**gp2: gp3 100 GiB at 3000 IOPS and 125 MiB/s for $9.12 a month against $11.40 now ($2.28 less).**'
	assert_equal "$stderr" ""
}

@test "--iops 6000: gp3 at 6,000 IOPS for \$26.22; --region us-east-1 prices io2 too, an unknown region nothing" {
	rec "$SEED" --iops 6000
	assert_equal "$(pick gp2 '.candidates[] | select(.chosen) | [.type, .iops, .throughput_mibs, .monthly_usd] | @tsv')" \
		"$(printf 'gp3\t6000\t125\t26.22')"
	assert_equal "$(pick gp2 '.candidates[0].p99.measured')" false
	rec "$SEED" --iops 6000 --region us-east-1
	assert_equal "$(pick gp2 '.candidates[] | select(.type == "io2") | .monthly_usd')" 402.5
	assert_equal "$(jq -r .prices.region rec.json)" us-east-1
	# A region without built-in prices: said once, every cost unknown, nothing chosen.
	rec "$SEED" --region eu-west-1
	assert_equal "$stderr" "ebsbench recommend: no built-in prices for eu-west-1: costs unknown"
	assert_equal "$(pick gp2 '[.choice, .current.monthly_usd] | @tsv')" "$(printf '\t')"
	assert_equal "$(pick gp2 .summary)" "gp2: no candidate meets the need at a known price."
}

@test "a gp2 of 1,000 GiB held for IOPS: gp3 at the 100 GiB asked for, \$9.12 against \$114.00, and how to apply it" {
	rec "$FIXTURES/results-seed000-gp2-1000.json" --iops 3000 --gib 100
	assert_equal "$(pick gp2 '[.current.monthly_usd, (.candidates[] | select(.chosen) | .type, .size_gib, .monthly_usd)] | @tsv')" \
		"$(printf '114\tgp3\t100\t9.12')"
	run --separate-stderr "$EBSBENCH" recommend "$FIXTURES/results-seed000-gp2-1000.json" \
		--iops 3000 --gib 100 --out apply
	assert_success
	assert_file_exist apply/vac-ebsbench-gp3-3000iops-125mibs.yaml
	run cat apply/apply.md
	assert_line "kubectl -n NAMESPACE patch pvc PVC --type=merge -p '{\"spec\":{\"volumeAttributesClassName\":\"ebsbench-gp3-3000iops-125mibs\"}}'"
	assert_line "aws ec2 modify-volume --region ap-northeast-2 --volume-id vol-0gp2gp2gp2gp2 --volume-type gp3 --iops 3000 --throughput 125"
	assert_output --partial "EBS cannot shrink a volume"
	assert_output --partial "keep 1000 GiB (\$91.20 a month)"
	assert_output --partial "Four modifications per volume per rolling 24 hours"
	assert_output --partial "Never the type alone"
}

@test "the VolumeAttributesClass files pass the offline Kubernetes schema check; a broken one does not" {
	run --separate-stderr "$EBSBENCH" recommend "$SEED" --iops 6000 --mibs 250 --out apply
	assert_success
	# Two devices, one target: one class.
	run ls apply
	assert_output "$(printf 'apply.md\nvac-ebsbench-gp3-6000iops-250mibs.yaml')"
	run node "$K8S_TESTS/validate.js" apply
	assert_success
	assert_line "ok   apply/vac-ebsbench-gp3-6000iops-250mibs.yaml [1] storage.k8s.io/v1 VolumeAttributesClass ebsbench-gp3-6000iops-250mibs"
	mkdir broken
	grep -v '^driverName:' apply/vac-ebsbench-gp3-6000iops-250mibs.yaml >broken/vac.yaml
	run node "$K8S_TESTS/validate.js" broken
	assert_failure 1
	assert_line --partial "data must have required property driverName"
}

@test "ebsbench 0.1.0's results.json (schema 1) is read by report and recommend; a newer schema is refused" {
	assert_equal "$(jq .schema "$FIXTURES/results-gp2-gp3.json")" 1
	mkdir old
	cp "$FIXTURES/results-gp2-gp3.json" old/results.json
	run --separate-stderr "$EBSBENCH" report --out rendered old
	assert_success
	assert_file_exist rendered/summary.md
	assert_file_exist rendered/recommend.md
	rec old
	assert_equal "$(pick gp2 '.candidates[] | select(.chosen) | [.type, .iops, .throughput_mibs, .monthly_usd] | @tsv')" \
		"$(printf 'gp3\t3000\t125\t9.12')"
	mkdir new
	jq '.schema = 5' "$SEED" >new/results.json
	run --separate-stderr "$EBSBENCH" recommend new
	assert_failure 2
	assert_output ""
	assert_equal "$stderr" "ebsbench recommend: new/results.json: written by a newer ebsbench: schema 5, this one reads 1 to 4"
	run --separate-stderr "$EBSBENCH" report new
	assert_failure 1
	[[ $stderr == *"schema 5, this one reads 1 to 4" ]]
}

@test "report writes recommend.md: the text recommend prints for the same results" {
	mkdir seed
	cp "$SEED" seed/results.json
	run --separate-stderr "$EBSBENCH" report seed
	assert_success
	run --separate-stderr "$EBSBENCH" recommend seed
	assert_success
	assert_equal "$output" "$(cat seed/recommend.md)"
	grep -qF '](recommend.md)' seed/summary.md
}

@test "sequential 500 MiB/s at 8,000 GiB in us-east-1: st1 of 12,800 GiB for \$576.00; small random I/O never st1 or sc1" {
	rec "$SEED" --mibs 500 --gib 8000 --region us-east-1
	assert_equal "$(pick gp2 '.candidates[] | select(.chosen) | [.type, .size_gib, .throughput_mibs, .monthly_usd] | @tsv')" \
		"$(printf 'st1\t12800\t500\t576')"
	assert_equal "$(pick gp2 '.candidates[] | select(.type == "gp3") | .monthly_usd')" 655
	assert_equal "$(pick gp2 '[.candidates[].type] | join(" ")')" "gp3 io2 gp2 st1 sc1"
	run --separate-stderr "$EBSBENCH" recommend "$SEED" --mibs 500 --gib 8000 --region us-east-1 --out apply
	assert_success
	assert_line '| **st1** (chosen) | 12,800 GiB | 500 | 500 | $576.00 | +$566.00 | not measured at this load |'
	assert_line "- st1: st1's baseline is 40 MiB/s per TiB: 12800 GiB sustains 500 MiB/s."
	run node "$K8S_TESTS/validate.js" apply
	assert_success
	assert_line --partial "ok   apply/vac-ebsbench-st1.yaml"
	run cat apply/apply.md
	assert_line "aws ec2 modify-volume --region ap-northeast-2 --volume-id vol-0gp2gp2gp2gp2 --volume-type st1 --size 12800"
	# 400 IOPS of small I/O: a 16 TiB st1 moves 500 MiB/s, but every I/O up
	# to 1 MiB costs it 1 MiB: refused in one line each, gp3 chosen.
	rec "$SEED" --iops 400 --gib 16384 --region us-east-1
	assert_equal "$(pick gp2 .choice)" gp3
	assert_equal "$(pick gp2 '.candidates[] | select(.type == "st1" or .type == "sc1") | [.type, (.reasons | length)] | @tsv')" \
		"$(printf 'st1\t1\nsc1\t1')"
	assert_equal "$(pick gp2 '.candidates[] | select(.type == "st1") | .reasons[0]')" \
		"st1 refused: 400 IOPS without a MiB/s need is read as small random I/O, and every st1 I/O up to 1 MiB costs 1 MiB of its throughput credit; it is for sequential 1 MiB I/O (--mibs alone)."
}

@test "bad input: one line naming the problem, exit 2, nothing on stdout" {
	local args want
	while IFS='|' read -r args want; do
		# shellcheck disable=SC2086 # the arguments are split on purpose
		run --separate-stderr "$EBSBENCH" recommend $args
		assert_failure 2
		assert_output ""
		assert_equal "$(wc -l <<<"$stderr")" 1
		[[ $stderr == *"$want"* ]] || fail "recommend $args: '$stderr' does not say '$want'"
	done <<-EOF
	$SEED --iops -5|--iops needs a positive number, not '-5'
	$SEED --iops 0|--iops needs a positive number, not '0'
	$SEED --mibs 12x|--mibs needs a positive number, not '12x'
	$SEED --p99-ms|--p99-ms needs a positive number, not ''
	$SEED --iops 1e300|--iops is 1e300, outside 0..256000 IOPS
	$SEED --mibs 4001|--mibs is 4001, outside 0..4000 MiB/s
	$SEED --gib 65537|--gib is 65537, outside 0..65536 GiB
	$SEED --p99-ms 60001|--p99-ms is 60001, outside 0..60000 ms
	$SEED --fast|unknown option --fast
	$SEED $SEED|one results directory or file, not two
	--iops 3000|no results directory or results.json given
	nowhere/results.json|nowhere/results.json: No such file or directory
	$REPO/README.md|README.md:
	EOF
}

@test "docs/recommend.md's example is what recommend prints on seed 000's fixture" {
	run --separate-stderr "$EBSBENCH" recommend "$SEED"
	assert_success
	awk '/^```markdown$/ { f = 1; next } f && /^```$/ { f = 0 } f' "$REPO/docs/recommend.md" >readme.md
	[ -s readme.md ]
	assert_equal "$output" "$(cat readme.md)"
}
