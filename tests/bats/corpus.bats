#!/usr/bin/env bats
# corpus.bats - the scenario corpus (tests/corpus): some 300 volume states
# whose truth is known, written as results directories by
# tests/corpus/generate.py (gp2 buckets from empty to full at three time
# scales, gp3 and io2 delivering 30..100 % of their facts, volumes without a
# bucket whose 110 % load step is held or served above the limit, io2 held
# by the instance, a gp3 whose qd1 I/Os wait on a throttle, a gp3 still
# loading from its snapshot, three volumes driven at once under an
# instance limit or under their own sum), each analysed
# again by `ebsbench report --json`, then
# judged by tests/corpus/check.py: the start balance within 5 points, the
# cliff where the balance puts it, the delivered level within 3 %, each
# phase's bound, at most 8 findings, no phase steady in a window it was
# served on borrowed credit (a bucket's, the instance's burst), and no sentence that
# tests/corpus/forbidden.py says is false for the state, in the analysis or
# in summary.md, nor st1/sc1 chosen in recommend.md for the state's small
# random I/O.  The checker is also shown to fail on a planted claim.
# fd 3 gets the counts (states, sentences, claims checked, failures per
# check) and how long each step took.  No `# run-bats: alone:` line: it
# measures nothing a neighbour could disturb.

bats_require_minimum_version 1.5.0

load helpers
load_bats_libs

CORPUS_PY=$BATS_TEST_DIRNAME/../corpus
WORKERS=2 # the machines have 2 CPUs; `ebsbench report` is one process per state

# ms_since T0: milliseconds since EPOCHREALTIME was T0.
ms_since() {
	awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%d", (b - a) * 1000 }'
}

# report_worker W: `ebsbench report --json` on every WORKERS-th state from
# W, each state's analysis into its analysed.json; a failure is named in
# report.failed.
report_worker() {
	local i dir
	for ((i = $1; i < ${#STATES[@]}; i += WORKERS)); do
		dir=${STATES[$i]}
		"$EBSBENCH" report --json "$dir" >"$dir/analysed.json" 2>"$dir/report.err" ||
			echo "$dir: exit $?: $(head -c 300 "$dir/report.err")" >>"$CORPUS/report.failed"
	done
}

setup_file() {
	require_ebsbench
	export CORPUS=$BATS_FILE_TMPDIR/corpus
	local t0 w
	t0=$EPOCHREALTIME
	/usr/bin/python3 -B "$CORPUS_PY/generate.py" "$CORPUS" 2>/dev/null
	local gen_ms
	gen_ms=$(ms_since "$t0")
	STATES=("$CORPUS"/*)
	t0=$EPOCHREALTIME
	: >"$CORPUS/report.failed"
	for ((w = 0; w < WORKERS; w++)); do
		report_worker "$w" &
	done
	wait
	local report_ms
	report_ms=$(ms_since "$t0")
	t0=$EPOCHREALTIME
	# Exit 1 (a check failed) is each test's to report below; 2 and up is not.
	local rc=0
	/usr/bin/python3 -B "$CORPUS_PY/check.py" --json "$CORPUS/check.json" "${STATES[@]}" \
		>"$CORPUS/check.txt" || rc=$?
	[ "$rc" -le 1 ] || {
		echo "# check.py failed (exit $rc)" >&2
		return 1
	}
	local check_ms
	check_ms=$(ms_since "$t0")
	jq -r '.totals | "# corpus: \(.states) states, \(.sentences) sentences, \(.claims) claims checked, \(.failures) failures in \(.failed_states) states"' "$CORPUS/check.json" >&3
	jq -r '.totals.by_check | to_entries[] | "# corpus: \(.key): \(.value) states fail"' "$CORPUS/check.json" >&3
	echo "# corpus: generate $gen_ms ms, ebsbench report ${#STATES[@]}x $report_ms ms ($WORKERS at a time), check $check_ms ms" >&3
}

# no_failures PATTERN: no failure whose check matches the jq regex PATTERN;
# else the first 3 of each such check (15 at most), one line each, and the
# count.
no_failures() {
	local n
	n=$(jq --arg p "$1" '[.failures[] | select(.check | test($p))] | length' "$CORPUS/check.json")
	[ "$n" -eq 0 ] && return 0
	jq -r --arg p "$1" '[.failures[] | select(.check | test($p))] | group_by(.check) |
		map(.[:3]) | flatten | .[:15][] |
		"\(.state): \(.check): \(.what)\(if .sentence then " [\(.where)] \(.sentence[:240])" else "" end)"' \
		"$CORPUS/check.json"
	echo "... $n failures in $(jq --arg p "$1" '[.failures[] | select(.check | test($p)) | .state] | unique | length' "$CORPUS/check.json") states"
	return 1
}

@test "corpus: every state is analysed again by ebsbench report and checked" {
	run cat "$CORPUS/report.failed"
	assert_output ""
	local states analysed
	states=$(jq '.totals.states' "$CORPUS/check.json")
	analysed=$(find "$CORPUS" -name analysed.json -size +0 | wc -l)
	[ "$states" -ge 200 ] || fail "only $states states checked"
	[ "$analysed" -eq "$states" ] || fail "$analysed analysed of $states"
}

@test "corpus: the start balance within 5 points of the bucket's (a lower bound at most 5 above it)" {
	no_failures '^balance$'
}

@test "corpus: the randread cliff found where the balance puts one, and only there" {
	no_failures '^cliff$'
}

@test "corpus: the delivered level within 3 % of what an under-delivering volume held" {
	no_failures '^delivered$'
}

@test "corpus: each phase's bound names the limit that held it (volume, instance, delivered...)" {
	no_failures '^bound$'
}

@test "corpus: at most 8 findings per run" {
	no_failures '^findings$'
}

@test "corpus: no phase called steady while on borrowed credit (a bucket's, the instance's burst)" {
	no_failures '^steady$'
}

@test "corpus: no sentence the state's truth makes false (tests/corpus/forbidden.py)" {
	no_failures '^forbidden:'
}

# plant GLOB JQ: a copy of the state matching GLOB whose analysed.json
# went through the jq program JQ; prints the copy's directory.
plant() {
	local src dir
	src=$(find "$CORPUS" -maxdepth 1 -name "$1" | head -1)
	[ -n "$src" ] || {
		echo "no state $1" >&2
		return 1
	}
	dir=$BATS_TEST_TMPDIR/$(basename "$src")
	cp -r "$src" "$dir"
	jq "$2" "$src/analysed.json" >"$dir/analysed.json"
	echo "$dir"
}

@test "corpus: the checker fails every kind of planted false claim and a planted wrong balance" {
	local gp2 flat delivered waits lower loading hdd st1 sc1_lower
	gp2=$(plant 'gp2-100g-start050-*' '.analysis.findings += ["vol randread: its bucket 100 % full at the start."] |
		.analysis.devices[0].credits_at_start = {"phase": "randread", "percent": 80}')
	flat=$(plant 'nobucket-gp3-100g-above110-x1' '.analysis.details = ["vol loadcurve: ran on burst credits.",
		"vol lat: the submitter did not keep the queue full.", "vol: check the volume facts.",
		"vol: the bucket was empty at the start of randread."]')
	delivered=$(plant 'delivered-gp3-3000-at050-*' '(.analysis.devices[0].phases[] | select(.phase == "randread") | .explanation) =
		"vol randread: 1500 IOPS: as predicted."')
	waits=$(plant 'qd1-waits-gp3-4000-x1' '.analysis.details += ["vol lat: 3344 IOPS; predicted 4000, bound by volume IOPS: worse than predicted."]')
	lower=$(plant 'gp2-100g-lower050-x1' '.analysis.details += ["vol randread: steady after 120 s."]')
	loading=$(plant 'loading-gp3-3000-x1' '.analysis.findings += ["vol delivers 1709 IOPS, 57 % of the 3000 it is sold as: the likely causes, in order: the config'"'"'s facts."]')
	hdd=$(plant 'gp2-20g-start000-x1-seed' '.')
	echo '| **st1** (chosen) | 12,800 GiB | 500 | 500 | $576.00 | +$566.00 | not measured at this load |' >>"$hdd/recommend.md"
	local sum spent
	sum=$(plant 'together-3gp3-on-m5.2xlarge-x1' '.analysis.findings += ["vola, volb and volc driven at once: 9000 IOPS in all; the m5.2xlarge'"'"'s EBS limit set it."]')
	spent=$(plant 'together-3gp3-on-m5.large-spent-x1' '.analysis.findings += ["vola, volb and volc driven at once: 3600 IOPS in all; the volumes set it.",
		"vola, volb and volc driven at once: vola delivers less than it is sold as."]')
	st1=$(plant 'st1-500g-start060-*' '.analysis.findings += ["vol seqread: 20 MiB/s after the cliff, worse than predicted.",
		"vol: 122 IOPS until 30.0 s, then 20 IOPS: the credit cliff."]')
	sc1_lower=$(plant 'sc1-500g-lower100-*' '.analysis.details += ["vol seqread: steady after 120 s."]')
	run /usr/bin/python3 -B "$CORPUS_PY/check.py" "$gp2" "$flat" "$delivered" "$waits" "$lower" "$loading" "$hdd" \
		"$sum" "$spent" "$st1" "$sc1_lower"
	assert_failure 1
	assert_output --partial "balance: 80.0 % where the truth is 50.0 %"
	local ids id
	ids=$(PYTHONPATH=$CORPUS_PY /usr/bin/python3 -B -c 'from forbidden import CLAIMS; print(*(c["id"] for c in CLAIMS))')
	[ "$(wc -w <<<"$ids")" -ge 6 ] || fail "forbidden.py lists: $ids"
	for id in $ids; do
		assert_output --regexp "forbidden:$id: [^[]*\\[(analysis|summary|recommend)[^ ]*\\] .(\\| \\*\\*st1\\*\\* \\(chosen|vol randread: its bucket 100|vol loadcurve: ran on|vol lat: the submitter|vol: check the|vol: the bucket was empty|vol randread: 1500 IOPS|vol lat: 3344 IOPS|vol randread: steady after|vol delivers 1709 IOPS|vol seqread: 20 MiB/s after|vol: 122 IOPS until|vola, volb and volc driven at once)"
	done
	assert_output --partial "sc1-500g-lower100-x1-hdd: forbidden:steady-on-credit:"
}
