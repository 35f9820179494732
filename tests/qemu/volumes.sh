# shellcheck shell=bash
# volumes.sh - for run-guest.sh: the emulated EBS volumes, the accelerator
# and the boot facts.  Sourced; uses image/lib.sh (say, die, the
# appliance's description) and the variables
# simulate_stall, throttle, eio_sector, shared_group, gp3_delivers,
# snapshot_latency (empty: none) and out of the caller.  With
# snapshot_latency it sets SNAPSHOT_DIR (tmpfs, the caller removes it).

# volumes_from_config CONFIG TIME_SCALE BURST_LENGTH OUT_CONFIG: writes the
# config (time_scale applied) to OUT_CONFIG and sets VOLUME_ARGS (QEMU
# arguments of both NVMe drives) and VOLUME_FACTS (JSON).  EBS gp2: baseline
# 3 IOPS/GiB within [100, 16000], burst 3,000 from a 5.4 M credit bucket
# refilled at the baseline: it lasts 5.4M / (3000 - baseline) s.  QEMU's
# leaky bucket holds 3000 x L and drains at 3000 - baseline while
# bursting: the burst lasts 3000 L / (3000 - baseline) s.
#
# The first drive (serial vol0123456789abcdef0) is that gp2 unless the
# config lists its volume id as gp3: then it is a second flat gp3 at the
# config's iops and size.  With shared_group (QEMU throttle keys, --throttle filter
# only) both drives also sit under one more throttle group, the
# instance's: its bucket is shared, so whatever drive runs drains it.
# A third drive, gp3c (serial vol0abcdef0123456789), a flat gp3 at its
# config's iops, only when the config lists vol-0abcdef0123456789.
# When the config lists that volume id as st1 or sc1, the first drive is
# that HDD volume instead: a bps throttle of the model's baseline
# (st1 40 MiB/s per TiB, sc1 12), burst (250, 80) and bucket (1 TiB of
# credit per TiB) read from the config's size, its burst length set so the
# burst lasts the model's seconds x time_scale, as the gp2's.
# With gp3_delivers (IOPS) the gp3 drive is capped there instead of at the
# config's iops: a volume that delivers less than it was sold as.
volumes_from_config() {
	local config=$1 scale=$2 burst_length=$3 dest=$4
	if [ -n "$scale" ]; then
		jq --argjson s "$scale" '.time_scale = $s' "$config" >"$dest"
	else
		jq . "$config" >"$dest"
	fi
	scale=$(jq -r '.time_scale // 1' "$dest")
	volume() { # TYPE FIELD DEFAULT
		jq -r --arg t "$1" --arg f "$2" --arg d "$3" \
			'[.devices[]? | select(.type == $t)][0][$f] // $d' "$dest"
	}
	local gp2_size gp3_size gp3_iops gp3_mibs gp2_mibs gp2_base burst_model_s default_l burst_qemu_s
	local first_gp3_iops first_gp3_mibs first_gp3_size
	read -r first_gp3_iops first_gp3_mibs first_gp3_size <<<"$(jq -r '[.devices[]? |
		select(.volume_id == "vol-0123456789abcdef0")][0]
		| if .type == "gp3" then "\(.iops // 3000) \(.throughput_mibs // 125) \(.size_gib // 100)"
		  else "" end' "$dest")"
	gp2_size=$(volume gp2 size_gib 100)
	# The gp3 drive's size: the config's device of its volume id, else its first gp3's.
	gp3_size=$(jq -r '[.devices[]? | select(.volume_id == "vol-0fedcba9876543210")][0].size_gib // empty' "$dest")
	gp3_size=${gp3_size:-$(volume gp3 size_gib 100)}
	gp3_iops=$(volume gp3 iops 3000)
	gp3_mibs=$(volume gp3 throughput_mibs 125)
	local gp3_cap=${gp3_delivers:-$gp3_iops}
	# gp2's throughput: 128 MiB/s up to 170 GiB, 250 MiB/s from there (the
	# model's rule; between 170 and 334 GiB only while credits last).
	gp2_mibs=$(awk -v g="$gp2_size" 'BEGIN { print (g <= 170 ? 128 : 250) }')
	read -r gp2_base burst_model_s default_l <<<"$(awk -v g="$gp2_size" -v s="$scale" 'BEGIN {
		b = 3 * g; if (b < 100) b = 100; if (b > 16000) b = 16000
		if (b >= 3000) { print b, 0, 0; exit }
		t = 5400000 / (3000 - b) * s
		l = int(t * (3000 - b) / 3000 + 0.5); if (l < 2) l = 2
		print b, t, l }')"
	[ "$default_l" != 0 ] || die "gp2 of $gp2_size GiB has no burst: nothing to emulate"
	burst_length=${burst_length:-$default_l}
	case $burst_length in '' | *[!0-9]*) die "--burst-length must be whole seconds" ;; esac
	[ "$burst_length" -ge 2 ] || die "--burst-length must be >= 2 (QEMU ignores the cap below)"
	burst_qemu_s=$(awk -v l="$burst_length" -v b="$gp2_base" 'BEGIN { printf "%.3f", 3000 * l / (3000 - b) }')
	say "gp2: ${gp2_size} GiB, baseline $gp2_base, burst 3000 for $burst_qemu_s s (L=$burst_length);" \
		"the model predicts ${burst_model_s} s at time_scale $scale, $gp2_mibs MiB/s;" \
		"gp3: flat $gp3_iops IOPS, $gp3_mibs MiB/s"
	[ -z "$gp3_delivers" ] || say "gp3: sold as $gp3_iops IOPS, delivers $gp3_delivers (--gp3-delivers)"
	# Limits as QEMU's throttle keys, I/O counted in 256 KiB units as EBS does.
	local limits_gp2="iops-total=$gp2_base,iops-total-max=3000,iops-total-max-length=$burst_length"
	limits_gp2+=",bps-total=$((gp2_mibs * 1048576))"
	# A drive that completes one I/O a second looks, to a guest waiting
	# 1 s per I/O, like one that stopped: the stall path without the bug.
	[ "$simulate_stall" = 0 ] || limits_gp2="iops-total=1"
	local hdd_type hdd_size
	read -r hdd_type hdd_size <<<"$(jq -r '[.devices[]? |
		select(.volume_id == "vol-0123456789abcdef0")][0]
		| if .type == "st1" or .type == "sc1" then "\(.type) \(.size_gib)" else "" end' "$dest")"
	[ -z "$hdd_type" ] || hdd_drive "$hdd_type" "$hdd_size" "$scale" "$3"
	[ -z "$first_gp3_iops" ] || {
		limits_gp2="iops-total=$first_gp3_iops,bps-total=$((first_gp3_mibs * 1048576))"
		say "the first drive is a gp3 too: flat $first_gp3_iops IOPS, $first_gp3_mibs MiB/s"
	}
	# A third drive (serial vol0abcdef0123456789), a flat gp3 too, only
	# when the config lists its volume id: the together phase's third volume.
	local third_size third_iops third_mibs third_args=()
	read -r third_size third_iops third_mibs <<<"$(jq -r '[.devices[]? |
		select(.volume_id == "vol-0abcdef0123456789")][0]
		| if . then "\(.size_gib // 100) \(.iops // 3000) \(.throughput_mibs // 125)" else "" end' "$dest")"
	local gp2_args gp3_args shared_args=()
	if [ -n "$shared_group" ]; then
		[ "$throttle" = filter ] || die "--shared-group needs --throttle filter"
		shared_args=(-object "throttle-group,id=tg-shared,$(sed 's/\([a-z-]*=\)/x-\1/g' <<<"$shared_group")")
		say "both drives under one more throttle group: $shared_group"
	fi
	if [ -n "$snapshot_latency" ]; then
		[ "$throttle" = filter ] || die "--snapshot-latency needs --throttle filter"
		SNAPSHOT_DIR=$(mktemp -d /dev/shm/ebsbench-snapshot.XXXXXX)
		say "gp3: restored from a snapshot: a cluster's first read waits $snapshot_latency ns"
	fi
	mapfile -t gp2_args < <(drive_args gp2 "${hdd_size:-${first_gp3_size:-$gp2_size}}" "$limits_gp2")
	mapfile -t gp3_args < <(drive_args gp3 "$gp3_size" \
		"iops-total=$gp3_cap,bps-total=$((gp3_mibs * 1048576))" "$(eio_rules)")
	VOLUME_ARGS=("${shared_args[@]}" "${gp2_args[@]}" -device nvme,serial=vol0123456789abcdef0,drive=gp2
		"${gp3_args[@]}" -device nvme,serial=vol0fedcba9876543210,drive=gp3)
	if [ -n "$third_iops" ]; then
		mapfile -t third_args < <(drive_args gp3c "$third_size" \
			"iops-total=$third_iops,bps-total=$((third_mibs * 1048576))")
		VOLUME_ARGS+=("${third_args[@]}" -device nvme,serial=vol0abcdef0123456789,drive=gp3c)
		say "a third drive, gp3c: flat $third_iops IOPS, $third_mibs MiB/s"
	fi
	VOLUME_FACTS=$(jq -n --argjson gp2_base "$gp2_base" --argjson l "$burst_length" \
		--argjson q "$burst_qemu_s" --argjson m "$burst_model_s" --argjson gp3 "$gp3_iops" \
		--argjson ts "$scale" --arg throttle "$throttle" --argjson gp2_mibs "$gp2_mibs" \
		--argjson gp3_mibs "$gp3_mibs" '{time_scale: $ts, throttle: $throttle,
		gp2: {serial: "vol0123456789abcdef0", baseline_iops: $gp2_base, burst_iops: 3000,
		      burst_length: $l, burst_seconds_emulated: $q, burst_seconds_model: $m,
		      throughput_mibs: $gp2_mibs},
		gp3: {serial: "vol0fedcba9876543210", iops: $gp3, throughput_mibs: $gp3_mibs}}')
	[ -z "$gp3_delivers" ] ||
		VOLUME_FACTS=$(jq --argjson d "$gp3_delivers" '.gp3.delivers_iops = $d' <<<"$VOLUME_FACTS")
	[ -z "$eio_sector" ] ||
		VOLUME_FACTS=$(jq --argjson s "$eio_sector" '.gp3.read_eio_sector = $s' <<<"$VOLUME_FACTS")
	[ -z "$first_gp3_iops" ] ||
		VOLUME_FACTS=$(jq --argjson i "$first_gp3_iops" --argjson m "$first_gp3_mibs" \
			'.gp2 = {serial: .gp2.serial, type: "gp3", iops: $i, throughput_mibs: $m}' <<<"$VOLUME_FACTS")
	[ -z "$hdd_type" ] || VOLUME_FACTS=$(jq --argjson h "$HDD_FACTS" '.gp2 = $h' <<<"$VOLUME_FACTS")
	[ -z "$shared_group" ] ||
		VOLUME_FACTS=$(jq --arg g "$shared_group" '.shared_group = $g' <<<"$VOLUME_FACTS")
	[ -z "$third_iops" ] ||
		VOLUME_FACTS=$(jq --argjson i "$third_iops" --argjson m "$third_mibs" \
			'.gp3c = {serial: "vol0abcdef0123456789", type: "gp3", iops: $i, throughput_mibs: $m}' <<<"$VOLUME_FACTS")
	[ -z "$snapshot_latency" ] ||
		VOLUME_FACTS=$(jq --argjson n "$snapshot_latency" '.gp3.snapshot_latency_ns = $n' <<<"$VOLUME_FACTS")
}

# hdd_drive TYPE GIB SCALE [L]: limits_gp2 as an st1/sc1 of GIB (the
# model's figures, MiB/s from MiB of credit: a leaky bucket of burst x L
# bytes draining at burst - baseline while bursting lasts burst L /
# (burst - baseline) s) and HDD_FACTS, the first drive's facts.json entry.
hdd_drive() {
	local base burst model_s l
	read -r base burst model_s l <<<"$(awk -v t="$1" -v g="$2" -v s="$3" -v l="${4:-}" 'BEGIN {
		b = (t == "st1" ? 40 : 12) * g / 1024; m = (t == "st1" ? 250 : 80) * g / 1024
		cap = (t == "st1" ? 500 : 250); if (m > cap) m = cap; if (b > m) b = m
		if (b >= m) { print b, m, 0, 0; exit }
		secs = 1024 * g / (m - b) * s
		if (l == "") l = int(secs * (m - b) / m + 0.5); if (l < 2) l = 2
		printf "%.7f %.7f %.3f %d\n", b, m, secs, l }')"
	[ "$l" != 0 ] || die "$1 of $2 GiB has no burst: nothing to emulate"
	local qemu_s
	qemu_s=$(awk -v l="$l" -v b="$base" -v m="$burst" 'BEGIN { printf "%.3f", m * l / (m - b) }')
	limits_gp2="bps-total=$(awk -v b="$base" 'BEGIN { printf "%.0f", b * 1048576 }')"
	limits_gp2+=",bps-total-max=$(awk -v m="$burst" 'BEGIN { printf "%.0f", m * 1048576 }')"
	limits_gp2+=",bps-total-max-length=$l"
	say "the first drive is an $1 of $2 GiB: baseline $base MiB/s, burst $burst MiB/s for" \
		"$qemu_s s (L=$l); the model predicts $model_s s at time_scale $3"
	HDD_FACTS=$(jq -n --arg t "$1" --argjson g "$2" --argjson b "$base" --argjson m "$burst" \
		--argjson l "$l" --argjson q "$qemu_s" --argjson ms "$model_s" '{serial:
		"vol0123456789abcdef0", type: $t, size_gib: $g, baseline_mibs: $b, burst_mibs: $m,
		burst_length: $l, burst_seconds_emulated: $q, burst_seconds_model: $ms}')
}

# snapshot_nodes ID BYTES: with snapshot_latency, the drive's lowest node
# ID-raw as a volume restored from a snapshot (DESIGN.md, "Emulating it in
# QEMU"): a slow null-co backing (every read waits snapshot_latency ns), a
# qcow2 overlay on tmpfs with that backing, and the copy-on-read filter
# above it, so the first read of a 64 KiB cluster pays the latency and
# copies it up, and later reads are the overlay's.  QEMU arguments, a line
# each.
snapshot_nodes() {
	local id=$1 bytes=$2
	qemu-img create -q -f qcow2 "$SNAPSHOT_DIR/$id.qcow2" "$bytes" || die "qemu-img create failed"
	echo -blockdev
	echo "driver=null-co,node-name=$id-snapshot,size=$bytes,latency-ns=$snapshot_latency,read-zeroes=on"
	echo -blockdev
	echo "driver=qcow2,node-name=$id-cow,file.driver=file,file.filename=$SNAPSHOT_DIR/$id.qcow2,backing=$id-snapshot"
	echo -blockdev
	echo "driver=copy-on-read,node-name=$id-raw,file=$id-cow"
}

# eio_rules: with --eio-sector N, writes DIR/blkdebug.rules (QEMU's blkdebug
# fails every read that touches sector N with errno 5, EIO: a bad block) and
# prints its path; else prints nothing.
eio_rules() {
	[ -n "$eio_sector" ] || return 0
	printf '[inject-error]\nevent = "read_aio"\nerrno = "5"\nsector = "%s"\n' \
		"$eio_sector" >"$out/blkdebug.rules"
	echo "$out/blkdebug.rules"
}

drive_args() { # ID SIZE_GIB LIMITS [BLKDEBUG_RULES]: one drive's QEMU arguments, a line each
	local raw limits=$3
	# EBS counts SSD I/O in 256 KiB units; QEMU wants an IOPS limit for that.
	[[ $limits != *iops-* ]] || limits+=",iops-size=262144"
	raw="driver=null-co,size=$(awk -v g="$2" 'BEGIN { printf "%.0f", g * 1073741824 }'),read-zeroes=on"
	# Errors on demand: blkdebug under a raw format layer (whose reads fire
	# the read_aio event the rule waits for) over the null image.
	[ -z "${4:-}" ] ||
		raw="driver=raw,file.driver=blkdebug,file.config=$4,$(sed 's/\([a-z-]*=\)/file.image.\1/g' <<<"$raw")"
	case $throttle in
	drive) # the BlockBackend's own throttling (-drive throttling.*)
		echo -drive
		echo "if=none,id=$1,$raw,$(sed 's/\([a-z-]*=\)/throttling.\1/g' <<<"$limits")" ;;
	filter) # a throttle group and the throttle filter driver above the drive
		echo -object
		echo "throttle-group,id=tg-$1,$(sed 's/\([a-z-]*=\)/x-\1/g' <<<"$limits")"
		if [ -n "$snapshot_latency" ] && [ "$1" = gp3 ]; then
			snapshot_nodes "$1" "$(awk -v g="$2" 'BEGIN { printf "%.0f", g * 1073741824 }')"
		else
			echo -blockdev
			echo "node-name=$1-raw,$raw"
		fi
		echo -blockdev
		if [ -n "$shared_group" ]; then # the volume's throttle, then the shared one above
			echo "driver=throttle,node-name=$1-volume,throttle-group=tg-$1,file=$1-raw"
			echo -blockdev
			echo "driver=throttle,node-name=$1,throttle-group=tg-shared,file=$1-volume"
		else
			echo "driver=throttle,node-name=$1,throttle-group=tg-$1,file=$1-raw"
		fi ;;
	*) die "--throttle must be filter or drive" ;;
	esac
}

# qemu_accel auto|kvm|tcg KERNEL: the accelerator's QEMU arguments.  KVM
# only where it boots a guest: /dev/kvm alone is not enough (a nested KVM
# may exist and still fail to run Linux).  The probe boots the kernel with
# no initramfs: a working accelerator reaches the root-mount panic fast
# (the shipped parameters, and panic=-1: no wait before the reboot that
# -no-reboot turns into QEMU's exit).  With no kernel to probe with (a disk
# boot), auto means TCG.
qemu_accel() {
	local accel=$1 params
	if [ "$accel" = auto ]; then
		accel=tcg
		params=$(appliance_params) || exit
		if [ -n "$2" ] && [ -r /dev/kvm ] && [ -w /dev/kvm ] &&
			timeout 20 qemu-system-x86_64 -accel kvm -cpu host -M q35 -m 256 -nodefaults \
				-no-user-config -display none -serial stdio -no-reboot -kernel "$2" \
				-append "$params panic=-1" 2>&1 </dev/null | grep -q "Kernel panic"; then
			accel=kvm
		fi
	fi
	case $accel in
	kvm) echo "-accel kvm -cpu host" ;;
	tcg) echo "-accel tcg -cpu max" ;;
	*) die "--accel must be auto, kvm or tcg" ;;
	esac
}

# boot_facts DIR WALL POWERED_OFF VERDICT ACCEL: DIR/facts.json, with the
# boot timing when the guest got as far as a run: kernel start (the wall
# clock init printed) to the first phase's start (results.json).
boot_facts() {
	local dir=$1 start first=null
	start=$(sed -n 's/.*ebsbench-init: .*kernel started at realtime_ms=\([0-9]*\).*/\1/p' \
		"$dir/console.txt" | head -n 1)
	if [ -f "$dir/results/results.json" ]; then
		first=$(jq '[.phases[].started_ms] | min // null' "$dir/results/results.json")
	fi
	jq -n --argjson v "$VOLUME_FACTS" --arg accel "$5" --argjson wall "$2" \
		--argjson off "$3" --arg verdict "$4" --argjson start "${start:-null}" \
		--argjson first "$first" '$v + {accel: $accel, powered_off: $off, verdict: $verdict,
		boot: {qemu_wall_s: $wall, kernel_started_ms: $start,
		       kernel_to_first_io_s: (if $start and $first then (($first - $start) / 1000) else null end)}}' \
		>"$dir/facts.json"
}
