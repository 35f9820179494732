#!/usr/bin/env bats
# demand.bats - `ebsbench recommend --demand` end to end on the real binary:
#   - a batch that drains a 100 GiB gp2's bucket: 10 quiet minutes, then
#     3,000 IOPS of 16 KiB; dry 5,400,000 / (3,000 - 300) = 2,000 s into it,
#     at 10:43:20, throttled the 1,600 s left; gp3 at its included 3,000 IOPS
#     and 125 MiB/s for $9.12 (Seoul) against $11.40, gp2 only at 500 GiB;
#   - the same trace as `aws cloudwatch get-metric-data` prints it (newest
#     first, two volumes told apart by Label, a BurstBalance at 50 % where
#     the current volume's replay starts) and as get-metric-statistics (one
#     metric a file, in no order) gives the same answer;
#   - a throughput-bound trace needs gp3 MiB/s, not IOPS;
#   - with a results directory: the current volume and the instance from it,
#     the p99 measured at the demand's level;
#   - --out writes the apply files; bad input is one line naming the file,
#     the place and the problem, exit 2, nothing on stdout.

bats_require_minimum_version 1.5.0

load helpers
load_bats_libs

REPO=$BATS_TEST_DIRNAME/../..
SEED=$REPO/tests/unit/fixtures/results-seed000.json
T0=1795168800 # 2026-11-20T10:00:00Z

setup_file() {
	require_ebsbench
}

setup() {
	cd "$BATS_TEST_TMPDIR"
	# batch.csv: the draining batch, one row a minute for 70 minutes.
	{
		echo "time,volume,read_ops,write_ops,read_bytes,write_bytes"
		for ((i = 0; i < 70; i++)); do
			iops=$((i < 10 ? 10 : 3000))
			echo "$((T0 + 60 * i)),${VOL:-vol-0aaaaaaaaaaaaaaaa},$((iops * 60)),0,$((iops * 60 * 16384)),0"
		done
	} >batch.csv
}

# demand ARGS...: `ebsbench recommend ARGS --json` into rec.json, checked.
demand() {
	run --separate-stderr "$EBSBENCH" recommend "$@" --json
	assert_success
	printf '%s\n' "$output" >rec.json
	json_doc rec.json
}

# pick VOLUME FILTER -> FILTER on the volume's object of rec.json.
pick() {
	jq -r --arg v "$1" ".volumes[] | select(.volume == \$v) | $2" rec.json
}

@test "a batch that drains a 100 GiB gp2: dry at 10:43:20, gp3 at 3,000 IOPS and 125 MiB/s for \$9.12" {
	demand --demand batch.csv --volume gp2:100
	V=vol-0aaaaaaaaaaaaaaaa
	assert_equal "$(pick $V .current.replay.dry_at)" 2026-11-20T10:43:20Z
	assert_equal "$(pick $V '.current.replay | [.throttled_s, .worst_s, .bound] | @tsv')" \
		"$(printf '1600\t1600\tvolume IOPS')"
	assert_equal "$(pick $V '[.choice, .current.monthly_usd] | @tsv')" "$(printf 'gp3\t11.4')"
	assert_equal "$(pick $V '.candidates[] | select(.chosen) | [.size_gib, .iops, .throughput_mibs, .monthly_usd, .replay.throttled_s] | @tsv')" \
		"$(printf '100\t3000\t125\t9.12\t0')"
	assert_equal "$(pick $V '.candidates[] | select(.type == "gp2") | [.size_gib, .monthly_usd] | @tsv')" \
		"$(printf '500\t57')"
	assert_equal "$stderr" ""
	# The table says the same.
	run --separate-stderr "$EBSBENCH" recommend --demand batch.csv --volume gp2:100
	assert_success
	assert_line --partial "its bucket ran dry at 2026-11-20 10:43:20 UTC and stayed empty 1600 s."
	assert_line '| **gp3** (chosen) | 100 GiB | 3,000 | 125 | $9.12 | -$2.28 | 0.00 % | 0 s | not measured at this load |'
	assert_line "Each 60-second interval is an average: bursts shorter than it are not seen. An \`ebsbench observe\` trace (--peak-from) or --peak-factor sizes for them."
	# 40 % of the time may throttle: gp2 100 GiB (38 %) is enough.
	demand --demand batch.csv --volume gp2:100 --throttle-budget 40
	assert_equal "$(pick $V '.candidates[] | select(.type == "gp2") | .size_gib')" 100
}

# The batch as the AWS CLI prints get-metric-data: newest first, a second
# volume in the same file, a BurstBalance result to skip.
write_metric_data() {
	/usr/bin/python3 - "$T0" <<'PY' >md.json
import datetime, json, sys
t0 = int(sys.argv[1])
iso = lambda t: datetime.datetime.fromtimestamp(t, datetime.timezone.utc).isoformat()
ts = [t0 + 60 * i for i in range(70)][::-1]
iops = lambda t: 10 if t - t0 < 600 else 3000
res = [
    {"Id": "r", "Label": "vol-0aaaaaaaaaaaaaaaa VolumeReadOps", "Timestamps": [iso(t) for t in ts],
     "Values": [iops(t) * 60.0 for t in ts], "StatusCode": "Complete"},
    {"Id": "rb", "Label": "vol-0aaaaaaaaaaaaaaaa VolumeReadBytes", "Timestamps": [iso(t) for t in ts],
     "Values": [iops(t) * 60.0 * 16384 for t in ts], "StatusCode": "Complete"},
    {"Id": "bb", "Label": "vol-0aaaaaaaaaaaaaaaa BurstBalance", "Timestamps": [iso(t) for t in ts],
     "Values": [50.0 if t == t0 else 40.0 for t in ts], "StatusCode": "Complete"},
    {"Id": "r2", "Label": "vol-0bbbbbbbbbbbbbbbb VolumeReadOps", "Timestamps": [iso(t) for t in ts],
     "Values": [600.0 for t in ts], "StatusCode": "Complete"},
]
print(json.dumps({"MetricDataResults": res, "Messages": []}, indent=4))
PY
}

@test "get-metric-data (newest first, two volumes) and get-metric-statistics give the batch's answer" {
	write_metric_data
	demand --demand md.json --volume gp2:100
	assert_equal "$(jq -r '[.volumes[].volume] | join(" ")' rec.json)" "vol-0aaaaaaaaaaaaaaaa vol-0bbbbbbbbbbbbbbbb"
	# Its BurstBalance began at 50 %: 2.7 M credits and 290 x 600 refilled
	# while quiet drain in 2,874,000 / 2,700 = 1,064 s: dry at 1,664 s, 10:27:44.
	assert_equal "$(pick vol-0aaaaaaaaaaaaaaaa '[.current.replay.dry_at, .trace.burst_balance.first_percent, .trace.burst_balance.min_percent] | @tsv')" \
		"$(printf '2026-11-20T10:27:44Z\t50\t40')"
	assert_equal "$(pick vol-0aaaaaaaaaaaaaaaa '.candidates[] | select(.chosen) | [.type, .iops, .throughput_mibs] | @tsv')" \
		"$(printf 'gp3\t3000\t125')"
	# 10 IOPS never throttle a gp2 of 100 GiB.
	assert_equal "$(pick vol-0bbbbbbbbbbbbbbbb '[.current.replay.throttled_s, .current.replay.dry_at] | @tsv')" \
		"$(printf '0\t')"
	# get-metric-statistics: one metric a file, Datapoints shuffled, the volume in the file name.
	jq '{Label: "VolumeReadOps", Datapoints: ([.MetricDataResults[0] | range(0; .Timestamps | length) as $i |
		{Timestamp: .Timestamps[$i], Sum: .Values[$i], Unit: "Count"}] | sort_by(.Sum, .Timestamp))}' md.json \
		>vol-0aaaaaaaaaaaaaaaa-reads.json
	jq '{Label: "VolumeReadBytes", Datapoints: [.MetricDataResults[1] | range(0; .Timestamps | length) as $i |
		{Timestamp: .Timestamps[$i], Sum: .Values[$i], Unit: "Bytes"}]}' md.json >vol-0aaaaaaaaaaaaaaaa-bytes.json
	demand --demand vol-0aaaaaaaaaaaaaaaa-reads.json --demand vol-0aaaaaaaaaaaaaaaa-bytes.json --volume gp2:100
	assert_equal "$(jq '.volumes | length' rec.json)" 1
	assert_equal "$(pick vol-0aaaaaaaaaaaaaaaa '[.current.replay.dry_at, .trace.peak_mibs] | @tsv')" \
		"$(printf '2026-11-20T10:43:20Z\t46.875')"
}

@test "a throughput-bound trace: gp3 provisions 400 MiB/s, not IOPS" {
	{
		echo "time,read_ops,read_bytes"
		for ((i = 0; i < 30; i++)); do
			echo "$((T0 + 60 * i)),$((400 * 60)),$((400 * 60 * 1048576))"
		done
	} >seq.csv
	demand --demand seq.csv --volume gp3:500
	assert_equal "$(pick volume '.current.replay | [.share, .bound] | @tsv')" "$(printf '1\tvolume throughput')"
	assert_equal "$(pick volume '.candidates[] | select(.chosen) | [.type, .iops, .throughput_mibs, .replay.throttled_s] | @tsv')" \
		"$(printf 'gp3\t3000\t400\t0')"
}

@test "--peak-from a 1 s trace: a minute's mean of 2,500 IOPS peaks at 3 x, gp3 provisions 7,500" {
	# fine.csv: each minute 50 s at 100 reads a second and 10 s at 500:
	# 10,000 / 60 = 166.7 on average, 500 at the peak: a factor of 3.
	{
		echo "time,read_ops,read_bytes"
		for ((i = 0; i < 120; i++)); do
			r=$((i % 60 < 10 ? 500 : 100))
			echo "$((T0 + i)),$r,$((r * 4096))"
		done
	} >fine.csv
	{
		echo "time,read_ops,read_bytes"
		for ((i = 0; i < 10; i++)); do
			echo "$((T0 + 60 * i)),$((2500 * 60)),$((2500 * 60 * 4096))"
		done
	} >minutes.csv
	demand --demand minutes.csv --peak-from fine.csv --volume gp3:100
	assert_equal "$(pick volume '[.trace.peak_factor, .need.iops] | @tsv')" "$(printf '3\t7500')"
	# The current gp3's 3,000 hold the minutes' mean, not their 7,500 peak.
	assert_equal "$(pick volume '.current.replay | [.throttled_s, .hidden_s] | @tsv')" "$(printf '0\t600')"
	assert_equal "$(pick volume '.candidates[] | select(.chosen) | [.type, .iops, .replay.share] | @tsv')" \
		"$(printf 'gp3\t7500\t0')"
	# The same factor given directly; without one, the answer says what a minute hides.
	demand --demand minutes.csv --peak-factor 3 --volume gp3:100
	assert_equal "$(pick volume .need.iops)" 7500
	run --separate-stderr "$EBSBENCH" recommend --demand minutes.csv --volume gp3:100
	assert_success
	assert_line --partial "Each 60-second interval is an average: bursts shorter than it are not seen."
	assert_line --partial "Replayed, it never throttles the trace."
}

@test "with a results directory: its volume and instance, the p99 measured at the demand's level" {
	VOL=vol-0gp3gp3gp3gp3 setup
	demand --demand batch.csv "$SEED"
	V=vol-0gp3gp3gp3gp3
	assert_equal "$(pick $V '[.current.type, .current.replay.throttled_s] | @tsv')" "$(printf 'gp3\t0')"
	assert_equal "$(pick $V '.candidates[0] | [.chosen, .delta_usd, .p99.ms, .p99.phase] | @tsv')" \
		"$(printf 'true\t0\t12.9\trandread qd32')"
}

@test "--out writes apply.md, the VolumeAttributesClass files, recommend.md, the chart and report.html" {
	run --separate-stderr "$EBSBENCH" recommend --demand batch.csv --volume gp2:100 --out out
	assert_success
	assert_equal "$stderr" "$(printf '%s\n' "ebsbench recommend: apply.md and the VolumeAttributesClass files in out/" \
		"ebsbench recommend: recommend.md, report.html and the demand charts in out/")"
	assert_file_exists out/apply.md
	run grep -cF -- "--volume-id vol-0aaaaaaaaaaaaaaaa --volume-type gp3 --iops 3000 --throughput 125" out/apply.md
	assert_success
	assert_output 1
	assert_file_exists out/vac-ebsbench-gp3-3000iops-125mibs.yaml
	# recommend.md: what stdout says, and the chart it links.
	run --separate-stderr "$EBSBENCH" recommend --demand batch.csv --volume gp2:100
	diff <(grep -v '^!\[' out/recommend.md | sed '/^$/d') <(printf '%s\n' "$output" | sed '/^$/d')
	run grep -c '^!\[demand against each volume.s IOPS\](demand-vol-0aaaaaaaaaaaaaaaa.svg)$' out/recommend.md
	assert_output 1
	# The chart: the demand, a line per limit (gp3, io2, gp2 and its burst, the
	# current gp2 and its burst), where the current bucket runs dry: 2,600 s in.
	/usr/bin/python3 - out/demand-vol-0aaaaaaaaaaaaaaaa.svg <<'PY'
import sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
caps = [l for l in root.iter(ns + "line") if l.get("class") == "cap"]
assert len(caps) == 6, len(caps)
assert len(root.findall(ns + "polyline")) == 1
dry = [l for l in root.iter(ns + "line") if l.get("class") == "dry"]
x = float(dry[0].get("x1"))
xt = {t.text: float(t.get("x")) for t in root.iter(ns + "text") if t.get("class") == "xtick"}
at = xt["0"] + (xt["1"] - xt["0"]) * 2600 / 3600
assert abs(x - at) < 1, (x, at)
PY
	# report.html: the same text, the chart inline.
	run grep -c '<figure><svg xmlns="http://www.w3.org/2000/svg"' out/report.html
	assert_output 1
	run grep -c '<h2>vol-0aaaaaaaaaaaaaaaa (demand)</h2>' out/report.html
	assert_output 1
}

@test "bad input: one line naming the file, the place and the problem; exit 2, nothing on stdout" {
	printf 'time,read_ops\n%s,12\n%s,many\n' "$T0" "$((T0 + 60))" >bad.csv
	run --separate-stderr "$EBSBENCH" recommend --demand bad.csv --volume gp2:100
	assert_failure 2
	assert_equal "$output" ""
	assert_equal "$stderr" "ebsbench recommend: bad.csv:3: read_ops 'many' is not a number 0 or more"
	echo '{"MetricDataResults": [{"Label": "VolumeReadOps", "Timestamps": ["2026-11-20T10:00:00Z"], "Values": []}]}' >bad.json
	run --separate-stderr "$EBSBENCH" recommend --demand bad.json
	assert_failure 2
	assert_equal "$output" ""
	assert_equal "$stderr" "ebsbench recommend: bad.json: MetricDataResults[0]: 1 Timestamps but 0 Values"
	run --separate-stderr "$EBSBENCH" recommend --demand batch.csv --volume gp2
	assert_failure 2
	assert_equal "$stderr" "ebsbench recommend: --volume 'gp2': want TYPE:SIZE[:IOPS[:MIBPS]] (gp2:100, gp3:100:3000:125) (try ebsbench recommend --help)"
	run --separate-stderr "$EBSBENCH" recommend --demand batch.csv --instance m9.huge
	assert_failure 2
	assert_equal "$stderr" "ebsbench recommend: --instance: not in the instance table: m9.huge (try ebsbench recommend --help)"
	run --separate-stderr "$EBSBENCH" recommend --demand batch.csv --throttle-budget 100
	assert_failure 2
	assert_equal "$stderr" "ebsbench recommend: --throttle-budget needs a number from 0 to 99.99, not '100'"
}
