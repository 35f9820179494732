#!/usr/bin/env bats
# fio_steadystate.bats - fio's ways to end a job early, against fio 3.33
# itself: steady state (ss, ss_dur, ss_ramp; ss_interval is fio 3.35's) and
# its JSON "steadystate" object, io_size (io_limit) and number_ios.
#   - fio's own examples/steadystate.fio (from its source package), on a
#     loop device: the same steadystate keys, types and window lengths as
#     fio's, the write job (ss_ramp + ss_dur past its runtime) not attained,
#     the read job's criterion the one its window's samples give;
#   - a flat rated job ends once its window is steady, well before its
#     runtime, by fio's definition (every sample within the limit);
#   - with group_reporting the group is judged as one (its IOPS summed, as
#     fio) and all its jobs end together;
#   - a criterion that cannot be met runs to the end, attained 0;
#   - io_size, io_limit and number_ios end a job as fio's do (the same
#     io_kbytes and total_ios), ignored with time_based as fio ignores them.

bats_require_minimum_version 1.5.0

load helpers
load_bats_libs

# make deps copies fio's examples/ there (FIO_EXAMPLES: another copy).
FIO_EXAMPLES="${FIO_EXAMPLES:-$HELPERS_DIR/../../build/deps/share/fio-source/examples}"

setup_file() {
	require_ebsbench
	command -v fio >/dev/null || fail "fio is missing: make deps installs it"
	LOOP=$(make_filled_loop 256 /dev/zero)
	export LOOP
}

teardown_file() {
	cleanup_loops
}

setup() {
	cd "$BATS_TEST_TMPDIR"
}

# both OUT ARGS...: `ebsbench fio ARGS` into ours.OUT and fio's into
# fio.OUT, as JSON; each run must succeed.
both() {
	local out=$1
	shift
	"$EBSBENCH" fio "$@" --output-format=json >"ours.$out" 2>"ours.$out.err" ||
		fail "ebsbench fio $* failed: $(tail -3 "ours.$out.err")"
	fio "$@" --output-format=json >"fio.$out" 2>"fio.$out.err" ||
		fail "fio $* failed: $(tail -3 "fio.$out.err")"
}

# between V LO HI WHAT: LO <= V <= HI, or fail naming WHAT.
between() {
	awk -v v="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(v >= lo && v <= hi) }' ||
		fail "$4 = $1, want $2 .. $3"
}

# ss_shape FILE -> each job's steadystate leaves: path and JSON type.
ss_shape() {
	jq -r '.jobs[] | .jobname as $j | .steadystate | paths(scalars) as $p
		| "\($j) \($p | map(tostring) | join(".")) \(getpath($p) | type)"' "$1"
}

# criterion_of FILE JOB -> the criterion fio's t/steadystate_tests.py
# computes from the job's reported window: the largest deviation from the
# mean or the least-squares slope, in percent of the mean with "%".
criterion_of() {
	jq -r --argjson j "$2" '.jobs[$j].steadystate as $s
		| ($s.ss | test("^iops")) as $iops | ($s.ss | test("_slope")) as $slope
		| ($s.ss | endswith("%")) as $pct
		| (if $iops then $s.data.iops else $s.data.bw end) as $y | ($y | length) as $n
		| ($y | add / $n) as $mean
		| if $slope then
			(($n - 1) / 2) as $mx
			| ([range($n) | (. - $mx) * ($y[.] - $mean)] | add)
			  / ([range($n) | (. - $mx) * (. - $mx)] | add)
			| fabs | if $pct then . * 100 / ($mean | floor) else . end
		  else
			[$y[] | . - $mean | fabs] | max | if $pct then . * 100 / $mean else . end
		  end' "$1"
}

# criterion_matches FILE JOB: the reported criterion is the one its
# window gives, to 0.5 % (t/steadystate_tests.py's tolerance).
criterion_matches() {
	local reported computed
	reported=$(jq -r ".jobs[$2].steadystate.criterion | rtrimstr(\"%\") | tonumber | fabs" "$1")
	computed=$(criterion_of "$1" "$2")
	awk -v a="$reported" -v b="$computed" 'BEGIN { d = a - b; if (d < 0) d = -d;
		exit !(d <= 0.005 * b + 1e-6) }' ||
		fail "$1 job $2: criterion $reported, its window gives $computed"
}

@test "fio's examples/steadystate.fio on a loop device: fio's steadystate keys and types, not attained past its runtime, the read window judged as fio judges it" {
	[ -f "$FIO_EXAMPLES/steadystate.fio" ] ||
		fail "$FIO_EXAMPLES/steadystate.fio is missing: make deps unpacks fio's source"
	# Unchanged but for its targets (/dev/null, /dev/zero) and its 5 minute
	# runtime: 20 s leaves ss-write's window (10 s ramp, 30 s) unfilled.
	sed -e "s#^filename=/dev/null#filename=$LOOP#" -e "s#^filename=/dev/zero#filename=$LOOP#" \
		-e 's#^runtime=5m#runtime=20#' "$FIO_EXAMPLES/steadystate.fio" >ss.fio
	[ "$(grep -c "^filename=$LOOP\$" ss.fio)" = 2 ] || fail "the example's filenames moved"
	[ "$(grep -c '^runtime=20$' ss.fio)" = 2 ] || fail "the example's runtimes moved"
	# Ours first: its writes need a device of zeros (the write guard).
	both ex.json ss.fio
	local f
	for f in ours fio; do
		assert_equal "$(jq -c '[.jobs[] | [.jobname, .groupid, .steadystate.ss,
			.steadystate.duration, (.steadystate.data.iops | length),
			(.steadystate.data.bw | length)]]' "$f.ex.json")" \
			'[["ss-write",0,"iops:10.000000%",30,30,30],["ss-read",1,"bw_slope:1.000000%",10,10,10]]'
		# The write job cannot fill its window in time: not attained,
		# the whole runtime, no criterion yet.
		assert_equal "$(jq -c '.jobs[0].steadystate | [.attained, .criterion]' "$f.ex.json")" \
			'[0,"0.000000%"]'
		between "$(jnum "$f.ex.json" '.jobs[0].write.runtime')" 19900 20500 "$f: ss-write's runtime"
	done
	run diff <(ss_shape fio.ex.json) <(ss_shape ours.ex.json)
	[ "$status" -eq 0 ] || fail "steadystate keys or types differ (< fio, > ours): $output"
	# The read job (4 jobs, one group): judged over its last 10 samples.
	criterion_matches ours.ex.json 1
	local rt
	rt=$(jnum ours.ex.json '.jobs[1].read.runtime')
	if [ "$(jq '.jobs[1].steadystate.attained' ours.ex.json)" = 1 ]; then
		# Attained at the last look (20 s) ends with the runtime: CI saw 20,012 ms.
		between "$rt" 15000 20500 "an attained ss-read's runtime (5 s ramp + 10 s window, at most its runtime)"
		between "$(criterion_of ours.ex.json 1)" 0 0.999999 "an attained ss-read's slope in %"
	else
		between "$rt" 19900 20500 "ss-read's runtime, not attained"
	fi
	printf '# ss-read: attained %s after %s ms (fio: %s after %s ms)\n' \
		"$(jq '.jobs[1].steadystate.attained' ours.ex.json)" "$rt" \
		"$(jq '.jobs[1].steadystate.attained' fio.ex.json)" \
		"$(jnum fio.ex.json '.jobs[1].read.runtime')" >&3
}

@test "a flat rated job ends once steady: iops:5% over 3 s, not its 30 s runtime, every sample within 5 % of the mean" {
	both flat.json --name=flat --ioengine=null --size=1G --rw=randread --rate_iops=2000 \
		--time_based --runtime=30 --ss=iops:5% --ss_dur=3
	local f
	for f in ours fio; do
		assert_equal "$(jq '.jobs[0].steadystate.attained' "$f.flat.json")" 1
		between "$(jnum "$f.flat.json" '.jobs[0].read.runtime')" 2500 6000 "$f: runtime of a steady job"
	done
	between "$(jnum ours.flat.json '.jobs[0].read.runtime')" 3000 6000 "ours: runtime (3 samples of 1 s)"
	assert_equal "$(jq '.jobs[0].steadystate.data.iops | length' ours.flat.json)" 3
	run jq -e '.jobs[0].steadystate.data | .iops_mean as $m | all(.iops[]; (. - $m | fabs) < 0.05 * $m)' \
		ours.flat.json
	assert_success
	between "$(jnum ours.flat.json '.jobs[0].steadystate.data.iops_mean')" 1900 2100 "the window's IOPS"
	between "$(jnum ours.flat.json '.jobs[0].steadystate.data.bw_mean')" $((1900 * 4096)) \
		$((2100 * 4096)) "the window's bandwidth (bytes/s)"
	criterion_matches ours.flat.json 0
	# fio's normal report's line, from the same run's figures.
	"$EBSBENCH" fio --name=flat --ioengine=null --size=1G --rw=randread --rate_iops=2000 \
		--time_based --runtime=30 --ss=iops:5% --ss_dur=3 >normal.txt 2>/dev/null ||
		fail "ebsbench's normal report failed"
	grep -Ex '  steadystate  : attained=yes, bw=[0-9.]+KiB/s \([0-9.]+kB/s\), iops=[0-9.]+k?, iops mean dev=[0-9]+\.[0-9]{3}%' \
		normal.txt || fail "no fio steadystate line: $(grep steadystate normal.txt)"
}

@test "group_reporting: the group judged as one (its IOPS summed) and every job of it ended together" {
	both group.json --name=grp --ioengine=null --size=1G --rw=randread --rate_iops=1000 \
		--numjobs=3 --group_reporting --time_based --runtime=30 --ss=iops:5% --ss_dur=3
	local f
	for f in ours fio; do
		assert_equal "$(jq '.jobs | length' "$f.group.json")" 1
		assert_equal "$(jq '.jobs[0].steadystate.attained' "$f.group.json")" 1
		between "$(jnum "$f.group.json" '.jobs[0].steadystate.data.iops_mean')" 2800 3200 \
			"$f: the group's IOPS (3 jobs of 1000)"
		# The longest job's runtime: none ran on.
		between "$(jnum "$f.group.json" '.jobs[0].read.runtime')" 2500 6000 "$f: the group's runtime"
	done
	criterion_matches ours.group.json 0
}

@test "a criterion that cannot be met (a slope below 0) runs to the end: attained 0, the last window judged" {
	both never.json --name=never --ioengine=null --size=1G --rw=randread --rate_iops=1000 \
		--time_based --runtime=4 --ss=iops_slope:0% --ss_dur=2
	local f
	for f in ours fio; do
		assert_equal "$(jq -c '.jobs[0].steadystate | [.ss, .attained]' "$f.never.json")" \
			'["iops_slope:0.000000%",0]'
		between "$(jnum "$f.never.json" '.jobs[0].read.runtime')" 3950 4500 "$f: runtime"
	done
	run jq -e '.jobs[0].steadystate.data.iops | length == 2 and all(.[]; . > 900)' ours.never.json
	assert_success
	criterion_matches ours.never.json 0
}

@test "ss_interval (fio 3.35's): one sample per interval, ss_dur / ss_interval of them" {
	run --separate-stderr "$EBSBENCH" fio --name=iv --ioengine=null --size=1G --rw=randread \
		--rate_iops=1000 --time_based --runtime=30 --ss=iops:5% --ss_dur=4 --ss_interval=2 \
		--output-format=json
	assert_success
	assert_equal "$(jq -c '.jobs[0].steadystate | [.duration, .attained, (.data.iops | length)]' \
		<<<"$output")" '[4,1,2]'
	between "$(jq '.jobs[0].read.runtime' <<<"$output")" 4000 7000 "runtime (2 samples of 2 s)"
}

@test "io_size, io_limit and number_ios end a job as fio's do: the same bytes and I/Os" {
	local dev=(--filename="$LOOP" --ioengine=libaio --direct=1)
	# Past the region: walked again until io_size (40 MiB over 16 MiB).
	both seq.json --name=seq "${dev[@]}" --rw=read --bs=64k --size=16M --io_size=40M
	both rnd.json --name=rnd "${dev[@]}" --rw=randread --bs=4k --size=64M --io_limit=8M
	both nios.json --name=nios "${dev[@]}" --rw=randread --bs=4k --iodepth=8 --number_ios=1000
	# A mixed job counts reads and writes; a write of 3 KiB blocks ends
	# past io_size, on the block that crossed it.
	both mix.json --name=mix --ioengine=null --rw=randrw --size=4M --io_size=10M
	both odd.json --name=odd --ioengine=null --rw=write --bs=3k --size=4M --io_size=10M
	local f
	for f in ours fio; do
		assert_equal "$(jq -c '.jobs[0].read | [.io_kbytes, .total_ios]' "$f.seq.json")" '[40960,640]'
		assert_equal "$(jq -c '.jobs[0].read | [.io_kbytes, .total_ios]' "$f.rnd.json")" '[8192,2048]'
		assert_equal "$(jq '.jobs[0].read.total_ios' "$f.nios.json")" 1000
		assert_equal "$(jq '.jobs[0] | .read.io_kbytes + .write.io_kbytes' "$f.mix.json")" 10240
		assert_equal "$(jq -c '.jobs[0].write | [.io_kbytes, .total_ios]' "$f.odd.json")" '[10242,3414]'
	done
}

@test "io_size counts the ramp's I/O, number_ios only what follows it; both ignored with time_based, as fio" {
	local rated=(--ioengine=null --size=1G --rw=randread --rate_iops=1000 --ramp_time=1)
	both ramp_size.json --name=rs "${rated[@]}" --io_size=8M
	both ramp_n.json --name=rn "${rated[@]}" --number_ios=2000
	both timed.json --name=t --ioengine=null --size=1G --rw=read --time_based --runtime=1 \
		--io_size=1M --number_ios=10
	local f
	for f in ours fio; do
		# 2048 I/Os in all, about 1000 of them in the ramp.
		between "$(jnum "$f.ramp_size.json" '.jobs[0].read.total_ios')" 1000 1100 \
			"$f: I/Os measured after a 1 s ramp of io_size=8M"
		assert_equal "$(jq '.jobs[0].read.total_ios' "$f.ramp_n.json")" 2000
		between "$(jnum "$f.timed.json" '.jobs[0].read.total_ios')" 100000 1e12 \
			"$f: I/Os of a 1 s time_based job with io_size=1M and number_ios=10"
	done
}

@test "bad steady-state options, or a group whose jobs' differ: one line naming the option, exit 2" {
	local base=(--ioengine=null --size=1M --name=bad)
	run --separate-stderr "$EBSBENCH" fio "${base[@]}" --ss=iops --ss_dur=10
	assert_equal "$status" 2
	[[ $stderr == *"option 'ss': invalid value 'iops'"* ]] || fail "$stderr"
	run --separate-stderr "$EBSBENCH" fio "${base[@]}" --ss=iops:10% --ss_dur=1
	assert_equal "$status" 2
	[[ $stderr == *"option 'ss_dur': must be a multiple of ss_interval"* ]] || fail "$stderr"
	run --separate-stderr "$EBSBENCH" fio "${base[@]}" --ss_dur=10 --ss_interval=500ms
	assert_equal "$status" 2
	[[ $stderr == *"option 'ss_interval'"* ]] || fail "$stderr"
	# fio's rule: the jobs of one group share their ss options.
	run --separate-stderr "$EBSBENCH" fio "${base[@]}" --ss=iops:10% --ss_dur=10 --name=two
	assert_equal "$status" 2
	[[ $stderr == *"job 'two': its steady-state options"*"differ from job 'bad'"* ]] || fail "$stderr"
	run --separate-stderr "$EBSBENCH" fio "${base[@]}" --ss=iops:10% --ss_dur=10 --name=two \
		--stonewall --output-format=json
	assert_success
	run --separate-stderr "$EBSBENCH" fio "${base[@]}" --name=two --new_group
	assert_equal "$status" 2
	[[ $stderr == *"option 'new_group' is supported only with stonewall"* ]] || fail "$stderr"
	[ "$(printf '%s\n' "$stderr" | wc -l)" = 1 ] || fail "more than one line: $stderr"
}
