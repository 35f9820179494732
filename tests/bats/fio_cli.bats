#!/usr/bin/env bats
# fio_cli.bats - `ebsbench fio` as the EKS gp2/gp3 benchmark runs fio: the benchmark's command block
# unchanged but for the path and scaled sizes/durations, on a loop device and
# on a regular file; every engine; the option parser's errors; target errors
# (size, alignment, EACCES, EBUSY); where the results go; signals; the
# io_uring -> libaio fallback.

bats_require_minimum_version 1.5.0

load helpers
load_bats_libs

# The benchmark's shared options, verbatim.
COMMON="--ioengine=libaio --direct=1 --group_reporting --output-format=json"
SIZE=256M     # the benchmark's 8G, scaled to the 256 MiB test device
SIZE_BYTES=$((256 << 20))
RT=3          # the benchmark's 600/120/60 s runs, scaled to seconds

setup_file() {
	require_ebsbench
	LOOP=$(make_loop 256)
	export LOOP
	# The "disk" the benchmark's testfile lives on: BATS_FILE_TMPDIR is under
	# TMPDIR (a disk here).  O_DIRECT if that file system takes it.
	export TFILE="$BATS_FILE_TMPDIR/testfile"
	export FDIRECT=1
	if ! dd if=/dev/zero of="$BATS_FILE_TMPDIR/probe" bs=4k count=1 oflag=direct 2>/dev/null; then
		FDIRECT=0
	fi
	rm -f "$BATS_FILE_TMPDIR/probe"
	# A copy of the binary that an unprivileged user can execute (the bats
	# temporary directories are mode 0700).
	NOBODY_DIR=$(mktemp -d /tmp/ebsbench-nobody.XXXXXX)
	chmod 755 "$NOBODY_DIR"
	cp "$EBSBENCH" "$NOBODY_DIR/ebsbench"
	chmod 755 "$NOBODY_DIR/ebsbench"
	export NOBODY_DIR
}

teardown_file() {
	cleanup_mounts
	cleanup_loops
	cleanup_groups
	[ -z "${NOBODY_DIR:-}" ] || rm -rf "$NOBODY_DIR"
}

setup() {
	cd "$BATS_TEST_TMPDIR"
}

teardown() {
	cleanup_mounts
	if [ -f "$BATS_TEST_TMPDIR/loop.mode" ]; then
		chmod "$(cat "$BATS_TEST_TMPDIR/loop.mode")" "$LOOP"
		rm -f "$BATS_TEST_TMPDIR/loop.mode"
	fi
}

# common_for TARGET -> the benchmark's COMMON, with --direct as the target allows.
common_for() {
	if [ "$1" = "$TFILE" ]; then
		echo "${COMMON/--direct=1/--direct=$FDIRECT}"
	else
		echo "$COMMON"
	fi
}

# ebs ARGS...: run `ebsbench fio ARGS`, stdout in $output, stderr in $stderr,
# and stdout saved as out.json.
ebs() {
	run --separate-stderr "$EBSBENCH" fio "$@"
	printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/out.json"
}

# A successful run: exit 0, stdout is one JSON document and nothing else,
# job error 0, named as asked.
assert_job_ok() {
	local name=$1
	[ "$status" -eq 0 ] || fail "exit $status, stderr: $stderr"
	json_doc out.json || fail "stdout is not exactly one JSON document: $output"
	assert_equal "$(jq -r '.jobs[0].jobname' out.json)" "$name"
	assert_equal "$(jnum out.json '.jobs[0].error')" 0
	assert_equal "$(jq '.jobs | length' out.json)" 1
}

# A time-based run of SECONDS measured SECONDS, never less, and not much
# more: the drain of the I/Os in flight (milliseconds; the slack is for a
# loaded 2-core VM, where a single I/O has been seen to take 0.6 s).
assert_runtime() {
	local dir=$1 seconds=$2 ms
	ms=$(jnum out.json ".jobs[0].$dir.runtime")
	[ "$ms" -ge $((seconds * 1000)) ] && [ "$ms" -le $((seconds * 1000 + 500)) ] ||
		fail "$dir runtime $ms ms for a ${seconds} s time-based run"
}

assert_positive() {
	local filter=$1 v
	v=$(jnum out.json "$filter") || fail "$filter is not a number"
	awk -v v="$v" 'BEGIN { exit !(v > 0) }' || fail "$filter = $v, want > 0"
}

assert_zero_ios() {
	assert_equal "$(jnum out.json ".jobs[0].$1.total_ios")" 0
}

# --- the benchmark's fio block -------------------------------------------------

# 0. layout: fio --name=layout --filename=F --size=8G --rw=write --bs=1M $COMMON
benchmark_layout() {
	local target=$1
	ebs --name=layout --filename="$target" --size=$SIZE --rw=write --bs=1M $(common_for "$target")
	assert_job_ok layout
	# One pass over the region, every byte once, in 1 MiB writes.
	assert_equal "$(jnum out.json '.jobs[0].write.io_bytes')" "$SIZE_BYTES"
	assert_equal "$(jnum out.json '.jobs[0].write.total_ios')" 256
	assert_positive '.jobs[0].write.iops'
	assert_positive '.jobs[0].write.bw_bytes'
	assert_zero_ios read
	assert_equal "$(jq -r '.jobs[0]."job options".rw' out.json)" write
	assert_equal "$(jq -r '.jobs[0]."job options".bs' out.json)" 1M
}

# 1. fio --name=gp3-randread --filename=F --size=8G --rw=randread --bs=4k
#    --iodepth=32 --runtime=600 --time_based --write_iops_log=gp3_rr
#    --log_avg_msec=1000 $COMMON
benchmark_randread_qd32() {
	local target=$1
	ebs --name=gp3-randread --filename="$target" --size=$SIZE --rw=randread --bs=4k \
		--iodepth=32 --runtime=$RT --time_based --write_iops_log=gp3_rr --log_avg_msec=1000 \
		$(common_for "$target")
	assert_job_ok gp3-randread
	assert_positive '.jobs[0].read.iops'
	assert_zero_ios write
	assert_runtime read $RT
	# The benchmark's file name, relative to the working directory as fio's.
	assert_file_exists "$BATS_TEST_TMPDIR/gp3_rr_iops.1.log"
	run check_window_log gp3_rr_iops.1.log 0 $RT 1000
	assert_success
	# Only reads were done: no write rows at all.
	run check_window_log gp3_rr_iops.1.log 1 0 1000
	assert_success
	# Every second saw I/O on an uncapped device.
	run awk -F', *' '$2 <= 0 { print "empty window: " $0; bad = 1 } END { exit bad }' gp3_rr_iops.1.log
	assert_success
	assert_equal "$(jnum out.json '.jobs[0].read.iops_samples')" $RT
}

# 2. fio --name=gp3-randwrite ... --rw=randwrite --bs=4k --iodepth=32
#    --runtime=120 --time_based $COMMON
benchmark_randwrite_qd32() {
	local target=$1
	ebs --name=gp3-randwrite --filename="$target" --size=$SIZE --rw=randwrite --bs=4k \
		--iodepth=32 --runtime=2 --time_based $(common_for "$target")
	assert_job_ok gp3-randwrite
	assert_positive '.jobs[0].write.iops'
	assert_zero_ios read
	assert_runtime write 2
}

# 3. fio --name=gp3-lat ... --rw=randread --bs=4k --iodepth=1 --runtime=60
#    --time_based $COMMON
benchmark_randread_qd1() {
	local target=$1
	ebs --name=gp3-lat --filename="$target" --size=$SIZE --rw=randread --bs=4k --iodepth=1 \
		--runtime=2 --time_based $(common_for "$target")
	assert_job_ok gp3-lat
	assert_positive '.jobs[0].read.iops'
	assert_positive '.jobs[0].read.clat_ns.percentile["50.000000"]'
	assert_runtime read 2
	# qd1 is qd1: every submission found the queue at depth 1.
	run jnum out.json '.jobs[0].iodepth_level["1"]'
	assert_success
	awk -v v="$output" 'BEGIN { exit !(v >= 99.9) }' || fail "iodepth_level[1] = $output at qd1"
}

# 4. fio --name=gp3-seqread / gp3-seqwrite ... --rw=read|write --bs=1M
#    --iodepth=8 --runtime=60 --time_based $COMMON
benchmark_seq() {
	local target=$1 rw=$2 dir=$3 other=$4
	ebs --name=gp3-seq$rw --filename="$target" --size=$SIZE --rw=$rw --bs=1M --iodepth=8 \
		--runtime=2 --time_based $(common_for "$target")
	assert_job_ok gp3-seq$rw
	assert_positive ".jobs[0].$dir.bw_bytes"
	assert_zero_ios "$other"
	assert_runtime "$dir" 2
	# Whole 1 MiB blocks only, and time-based wraps past the 256 MiB region.
	local bytes
	bytes=$(jnum out.json ".jobs[0].$dir.io_bytes")
	assert_equal $((bytes % (1 << 20))) 0
	assert_equal "$(jnum out.json ".jobs[0].$dir.total_ios")" $((bytes >> 20))
}

@test "benchmark step 0 layout: 1 MiB sequential write of the whole region (loop device)" {
	benchmark_layout "$LOOP"
}

@test "benchmark step 1 randread qd32 + --write_iops_log=gp3_rr --log_avg_msec=1000 (loop device)" {
	benchmark_randread_qd32 "$LOOP"
}

@test "benchmark step 2 randwrite qd32 (loop device)" {
	benchmark_randwrite_qd32 "$LOOP"
}

@test "benchmark step 3 randread qd1 (loop device)" {
	benchmark_randread_qd1 "$LOOP"
}

@test "benchmark step 4 seqread 1M qd8 (loop device)" {
	benchmark_seq "$LOOP" read read write
}

@test "benchmark step 4 seqwrite 1M qd8 (loop device)" {
	benchmark_seq "$LOOP" write write read
}

@test "benchmark step 0 layout creates the test file (regular file)" {
	rm -f "$TFILE"
	benchmark_layout "$TFILE"
	assert_equal "$(stat -c %s "$TFILE")" "$SIZE_BYTES"
}

@test "benchmark step 1 randread qd32 + --write_iops_log=gp3_rr --log_avg_msec=1000 (regular file)" {
	benchmark_randread_qd32 "$TFILE"
}

@test "benchmark step 2 randwrite qd32 (regular file)" {
	benchmark_randwrite_qd32 "$TFILE"
	# A write job on an existing file neither grows nor truncates it.
	assert_equal "$(stat -c %s "$TFILE")" "$SIZE_BYTES"
}

@test "benchmark step 3 randread qd1 (regular file)" {
	benchmark_randread_qd1 "$TFILE"
}

@test "benchmark step 4 seqread 1M qd8 (regular file)" {
	benchmark_seq "$TFILE" read read write
}

@test "benchmark step 4 seqwrite 1M qd8 (regular file)" {
	benchmark_seq "$TFILE" write write read
}

# --- engines -----------------------------------------------------------------

engine_run() {
	local target=$1 engine=$2 depth=8
	ebs --name="eng-$engine" --filename="$target" --size=$SIZE --rw=randrw --bs=4k \
		--iodepth=$depth --runtime=1 --time_based --ioengine="$engine" \
		--direct="$([ "$target" = "$TFILE" ] && echo "$FDIRECT" || echo 1)" --output-format=json
	assert_job_ok "eng-$engine"
	assert_equal "$(jq -r '.jobs[0].ebsbench.ioengine' out.json)" "$engine"
	assert_equal "$(jq -r '.jobs[0].ebsbench | has("engine_note")' out.json)" false
	assert_positive '.jobs[0].read.iops'
	assert_positive '.jobs[0].write.iops'
	if [ "$engine" = psync ]; then
		# A sync engine has one I/O in flight whatever --iodepth says (as fio).
		run jnum out.json '.jobs[0].iodepth_level["1"]'
		awk -v v="$output" 'BEGIN { exit !(v >= 99.9) }' || fail "psync iodepth_level[1] = $output"
	fi
}

@test "ioengine=io_uring runs (loop device and regular file)" {
	engine_run "$LOOP" io_uring
	engine_run "$TFILE" io_uring
}

@test "ioengine=libaio runs (loop device and regular file)" {
	engine_run "$LOOP" libaio
	engine_run "$TFILE" libaio
}

@test "ioengine=psync runs (loop device and regular file)" {
	engine_run "$LOOP" psync
	engine_run "$TFILE" psync
}

# --- the option parser -----------------------------------------------------

# usage_error PATTERN ARGS...: exit 2, nothing on stdout, one stderr line
# matching PATTERN, and the target was never created.
usage_error() {
	local pattern=$1
	shift
	run -2 --separate-stderr "$EBSBENCH" fio "$@"
	[ -z "$output" ] || fail "stdout not empty: $output"
	[ "${#stderr_lines[@]}" -eq 1 ] || fail "want exactly one stderr line, got: $stderr"
	[[ $stderr =~ $pattern ]] || fail "stderr '$stderr' does not match /$pattern/"
	[ ! -e "$BATS_TEST_TMPDIR/never" ] || fail "a rejected command created its target"
}

NEVER_ARGS=(--filename=never --size=1M --rw=randwrite)

@test "unknown option --zonemode=zbd: exit 2, one line naming it" {
	usage_error "zonemode" --name=x "${NEVER_ARGS[@]}" --zonemode=zbd
}

@test "unknown option --bogus: exit 2, one line naming it" {
	usage_error "bogus" --name=x "${NEVER_ARGS[@]}" --bogus
}

@test "unsupported fio engine --ioengine=spdk: exit 2" {
	usage_error "ioengine.*spdk" --name=x "${NEVER_ARGS[@]}" --ioengine=spdk
}

@test "bad value --bs=abc: exit 2, names bs and the value" {
	usage_error "'bs'.*'abc'" --name=x "${NEVER_ARGS[@]}" --bs=abc
}

@test "bad value --rw=sideways: exit 2" {
	usage_error "'rw'.*'sideways'" --name=x "${NEVER_ARGS[@]}" --rw=sideways
}

@test "bad value --iodepth=0: exit 2" {
	usage_error "iodepth" --name=x "${NEVER_ARGS[@]}" --iodepth=0
}

@test "bad value --runtime=soon: exit 2" {
	usage_error "runtime.*soon" --name=x "${NEVER_ARGS[@]}" --runtime=soon --time_based
}

@test "missing --name: exit 2" {
	usage_error "--name" "${NEVER_ARGS[@]}"
}

@test "no --filename: the job runs on fio's JOBNAME.0.0 in the current directory" {
	run --separate-stderr "$EBSBENCH" fio --name=noname --size=1M --rw=write --bs=64k \
		--output-format=json
	[ "$status" -eq 0 ] || fail "exit $status: $stderr"
	[ "$(stat -c %s noname.0.0)" -eq 1048576 ] || fail "noname.0.0 is not the 1 MiB job file"
	[ "$(jq -r '.jobs[0].write.io_bytes' <<<"$output")" -eq 1048576 ] || fail "wrote: $output"
	# A --name is still needed to name it.
	usage_error "--name" --size=1M
	# Without --size there is nothing to lay out: refused, and no empty
	# file left behind (fio creates none either).
	run --separate-stderr "$EBSBENCH" fio --name=nosize
	[ "$status" -eq 1 ] || fail "exit $status: $stderr"
	[[ $stderr == *"nosize.0.0: --size is needed"* ]] || fail "stderr: $stderr"
	[ ! -e nosize.0.0 ] || fail "a refused job left nosize.0.0 behind"
}

# (A job without a filename is no longer an error: it runs on fio's
# default name, above.)
@test "a positional job file argument: exit 2, names it" {
	printf '[job]\niodepth=0\n' >job.fio
	usage_error "job\.fio" job.fio
}

@test "--write_iops_log without --log_avg_msec: exit 2" {
	usage_error "log_avg_msec" --name=x "${NEVER_ARGS[@]}" --write_iops_log=never-log
	[ ! -e never-log_iops.1.log ]
}

# --- target errors ---------------------------------------------------------

@test "--size beyond the device: exit 1, one line naming the device" {
	run -1 --separate-stderr "$EBSBENCH" fio --name=big --filename="$LOOP" --size=1G \
		--rw=randread --bs=4k $COMMON
	[ -z "$output" ] || fail "stdout not empty: $output"
	[ "${#stderr_lines[@]}" -eq 1 ] || fail "stderr: $stderr"
	[[ $stderr == *"$LOOP"* ]] || fail "stderr does not name $LOOP: $stderr"
	# offset + size past the end is the same error.
	run -1 --separate-stderr "$EBSBENCH" fio --name=big --filename="$LOOP" --offset=192M \
		--size=128M --rw=read --bs=1M $COMMON
	[ "${#stderr_lines[@]}" -eq 1 ] && [[ $stderr == *"$LOOP"* ]] || fail "stderr: $stderr"
}

@test "--offset=100 on a loop device (not block aligned): a clear one-line error" {
	run --separate-stderr "$EBSBENCH" fio --name=misaligned --filename="$LOOP" --offset=100 \
		--size=4k --rw=randread --bs=4k $COMMON
	[ "$status" -eq 1 ] || [ "$status" -eq 2 ] || fail "exit $status"
	[ -z "$output" ] || fail "stdout not empty: $output"
	[ "${#stderr_lines[@]}" -eq 1 ] || fail "stderr: $stderr"
	[[ $stderr == *"$LOOP"* && $stderr == *offset* && $stderr == *100* ]] ||
		fail "stderr does not say which offset on which device: $stderr"
}

as_nobody() {
	setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
}

@test "EACCES on /dev/loopN as an unprivileged user: Permission denied" {
	# Closed to nobody, whatever mode the node had (teardown restores it).
	stat -c %a "$LOOP" >"$BATS_TEST_TMPDIR/loop.mode"
	chmod 0600 "$LOOP"
	if as_nobody test -r "$LOOP"; then
		fail "$LOOP is still readable by nobody after chmod 0600"
	fi
	run -1 --separate-stderr as_nobody "$NOBODY_DIR/ebsbench" fio --name=acc --filename="$LOOP" \
		--rw=randread --bs=4k --runtime=1 --time_based $COMMON
	[ -z "$output" ] || fail "stdout not empty: $output"
	[ "${#stderr_lines[@]}" -eq 1 ] || fail "stderr: $stderr"
	[[ $stderr == *"Permission denied"* && $stderr == *"$LOOP"* ]] || fail "stderr: $stderr"
}

@test "EACCES on a root-only file: Permission denied, file untouched" {
	local secret="$NOBODY_DIR/secret" before
	head -c 8M /dev/urandom >"$secret"
	chmod 600 "$secret"
	before=$(sha256sum <"$secret")
	run -1 --separate-stderr as_nobody "$NOBODY_DIR/ebsbench" fio --name=acc --filename="$secret" \
		--size=8M --rw=randwrite --bs=4k --runtime=1 --time_based \
		--ioengine=libaio --direct=0 --output-format=json
	[ -z "$output" ] || fail "stdout not empty: $output"
	[ "${#stderr_lines[@]}" -eq 1 ] || fail "stderr: $stderr"
	[[ $stderr == *"Permission denied"* && $stderr == *"$secret"* ]] || fail "stderr: $stderr"
	assert_equal "$(sha256sum <"$secret")" "$before"
	assert_equal "$(stat -c '%s %a %u' "$secret")" "8388608 600 0"
	rm -f "$secret"
}

@test "EBUSY: a write or trim job on a mounted loop device is refused, the file system intact" {
	local dev mnt before rw
	dev=$(make_loop 64)
	mkfs.ext4 -q -F "$dev"
	mnt="$BATS_TEST_TMPDIR/mnt"
	mkdir -p "$mnt"
	mount "$dev" "$mnt"
	track_mount "$mnt"
	head -c 4M /dev/urandom >"$mnt/data"
	sync
	before=$(sha256sum <"$mnt/data")

	# A trim destroys data as a write does: the same O_EXCL open refuses it.
	for rw in randwrite randtrim; do
		run --separate-stderr "$EBSBENCH" fio --name=busy --filename="$dev" --rw=$rw --bs=4k \
			--iodepth=32 --runtime=2 --time_based $COMMON
		[ "$status" -ne 0 ] || fail "a $rw job on a mounted device succeeded"
		[ -z "$output" ] || fail "$rw: stdout not empty: $output"
		[ "${#stderr_lines[@]}" -eq 1 ] || fail "$rw: stderr: $stderr"
		[[ $stderr == *busy* && $stderr == *"$dev"* ]] || fail "$rw: stderr does not say busy: $stderr"
	done

	# Read the file system back from the device, not from the page cache.
	umount "$mnt"
	run e2fsck -fn "$dev"
	assert_success
	mount -o ro "$dev" "$mnt"
	assert_equal "$(sha256sum <"$mnt/data")" "$before"
}

# --- where the results go ----------------------------------------------------

@test "--output=FILE writes the JSON there and nothing to stdout" {
	ebs --name=out --filename="$LOOP" --rw=randread --bs=4k --iodepth=8 --runtime=1 --time_based \
		--output="$BATS_TEST_TMPDIR/result.json" $COMMON
	assert_success
	[ -z "$output" ] || fail "stdout not empty: $output"
	json_doc result.json || fail "result.json: $(head -c 300 result.json)"
	run jnum result.json '.jobs[0].read.iops'
	assert_success
	awk -v v="$output" 'BEGIN { exit !(v > 0) }'
	# And the normal format goes there too.
	ebs --name=out --filename="$LOOP" --rw=randread --bs=4k --runtime=1 --time_based \
		--ioengine=libaio --direct=1 --output-format=normal --output="$BATS_TEST_TMPDIR/result.txt"
	assert_success
	[ -z "$output" ]
	grep -q "IOPS=" result.txt
}

@test "stdout is only the JSON while the progress line draws on a terminal" {
	# stderr on a pty (progress redraws every second), stdout to a file.
	run script -qfec "exec '$EBSBENCH' fio --name=pty --filename='$LOOP' --rw=randread --bs=4k \
		--iodepth=8 --runtime=3 --time_based $COMMON >'$BATS_TEST_TMPDIR/pty.json'" \
		"$BATS_TEST_TMPDIR/typescript" </dev/null
	assert_success
	[[ $output == *"IOPS now"* ]] || fail "no progress line was drawn: $output"
	json_doc pty.json || fail "stdout is not exactly one JSON document: $(head -c 300 pty.json)"
	run ! grep -q "IOPS now" pty.json
}

@test "stdout is only the JSON when progress prints to a non-terminal (11 s run)" {
	ebs --name=pipe --filename="$LOOP" --rw=randread --bs=4k --iodepth=8 --runtime=11 \
		--time_based $COMMON
	assert_success
	[[ $stderr == *"IOPS now"* ]] || fail "no progress line on stderr: $stderr"
	json_doc out.json || fail "stdout is not exactly one JSON document: $(head -c 300 out.json)"
}

# --- signals -----------------------------------------------------------------

# stop_with SIGNAL: a 60 s time-based run stopped after ~2.5 s exits within
# 3 s on its own (not killed), with valid JSON of the partial run.
stop_with() {
	local sig=$1 pid rc t0 t1
	# Background jobs of a non-interactive shell start with SIGINT ignored;
	# give the child the default dispositions a terminal would.
	env --default-signal=INT,TERM "$EBSBENCH" fio --name=sig --filename="$LOOP" --rw=randread \
		--bs=4k --iodepth=32 --runtime=60 --time_based --write_iops_log=sig --log_avg_msec=1000 \
		$COMMON >sig.json 2>sig.err &
	pid=$!
	sleep 2.5
	kill -0 "$pid" || fail "the run ended early: $(cat sig.err)"
	t0=$(date +%s%N)
	kill -s "$sig" "$pid"
	for _ in $(seq 1 100); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.05
	done
	if kill -0 "$pid" 2>/dev/null; then
		kill -9 "$pid"
		fail "still running 5 s after SIG$sig"
	fi
	t1=$(date +%s%N)
	rc=0
	wait "$pid" || rc=$?
	[ "$rc" -eq 5 ] || fail "exit $rc after SIG$sig, want 5 (stopped, partial results)"
	grep -q "partial" sig.err || fail "no note that the results are partial: $(cat sig.err)"
	[ $(((t1 - t0) / 1000000)) -lt 3000 ] || fail "took $(((t1 - t0) / 1000000)) ms to stop"
	json_doc sig.json || fail "no valid JSON after SIG$sig: $(head -c 300 sig.json); $(cat sig.err)"
	local ms ios
	ms=$(jnum sig.json '.jobs[0].read.runtime')
	ios=$(jnum sig.json '.jobs[0].read.total_ios')
	[ "$ms" -ge 2000 ] && [ "$ms" -le 6000 ] || fail "partial runtime $ms ms"
	[ "$ios" -gt 0 ] || fail "no I/O in the partial result"
	# The windows before the stop are whole seconds, exactly.
	run awk -F', *' -v last="$(wc -l <sig_iops.1.log)" \
		'NR < last && $1 != NR * 1000 { print; bad = 1 } END { exit bad || NR < 2 }' sig_iops.1.log
	assert_success
}

@test "SIGINT during a time-based run: exits, prints valid JSON of the partial run" {
	stop_with INT
}

@test "SIGTERM during a time-based run: exits, prints valid JSON of the partial run" {
	stop_with TERM
}
