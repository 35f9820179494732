#!/usr/bin/env bash
# run-guest.sh --kernel BZIMAGE --initrd INITRD | --disk IMAGE.raw  --out DIR [options]
#
# Boots the appliance (our kernel, ebsbench-init as PID 1) under QEMU, either
# directly (-kernel, -initrd, and the command line the UKI ships, from
# image/appliance.conf, plus the test switches below) or as EC2 does,
# from the UEFI disk image (OVMF firmware; the image on an NVMe boot disk
# with serial vol0b0070000000000000, opened read-only), with
# two emulated EBS volumes on NVMe, the way EC2 would run it:
#   nvme serial vol0123456789abcdef0: gp2-like, a leaky bucket of QEMU's block
#       throttling: baseline 3 IOPS/GiB, burst 3,000, burst length L seconds
#   nvme serial vol0fedcba9876543210: gp3-like, a flat cap (3,000 IOPS)
#   nvme serial vol0abcdef0123456789: a third, gp3-like, only when the config
#       lists vol-0abcdef0123456789 (the together phase's third volume)
# Both are null-co drives that read zeroes; sizes come from the config.
# virtio-net user networking carries IMDSv2 (tests/peers/imds.py answers at
# 169.254.169.254, serving the config as user-data) and the S3 peer
# (the guest reaches the host's loopback at 169.254.2.2, named
# s3.ebsbench.test through fw_cfg opt/ebsbench/hosts; the test CA goes in
# as fw_cfg opt/ebsbench/ca.pem).  The guest uploads, prints its summary
# and verdict on the console and powers off by itself; the results are
# then fetched back from S3.
#
# Options:
#   --disk IMAGE.raw    boot this GPT disk image under OVMF instead of --kernel
#                       and --initrd (its UKI carries the command line, so
#                       --watchdog-s, --io-timeout and --config-via cmdline
#                       do not apply)
#   --config FILE       the run's config (default tests/qemu/guest-config.json)
#   --s3 URL            the S3 peer as the guest sees it (https://s3.ebsbench.test:PORT);
#                       needs --ca and AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
#                       BUCKET and S3_URL (the plain endpoint, for fetching
#                       back) in the environment, as peers_start exports them
#   --ca FILE           the CA bundle that verifies the S3 peer
#   --config-via imds|fw_cfg|cmdline   how the config reaches the guest (imds)
#   --user-data FILE    serve this file as user-data verbatim (no upload block)
#   --no-imds           no IMDS at all (169.254.169.254 does not answer)
#   --watchdog-s N      ebsbench.watchdog_s on the kernel command line
#   --ovmf-vars FILE    the UEFI variable store to boot with and keep (created
#                       from OVMF's template when missing; default: a fresh
#                       copy in DIR): what one boot leaves, the next sees
#   --reset-when REGEX  reset the machine (QEMU monitor system_reset, as a
#                       panic's reboot would) once the console matches
#                       REGEX; guest reboots are then allowed (no -no-reboot)
#   --reset-count N     reset at the Nth console line matching --reset-when's
#                       REGEX instead of the first (default 1): e.g. the
#                       upload of results.json marking the third step begun
#   --time-scale S      the config's time_scale (default: the config's)
#   --burst-length L    the gp2 bucket's burst length in whole seconds >= 2
#                       (default: the one whose burst lasts the model's gp2
#                       burst seconds x S: 100 GiB, S=0.01 -> L=18, 20 s)
#   --timeout SECONDS   kill QEMU and fail after this long (default 240)
#   --accel auto|kvm|tcg  auto (default) uses KVM only if a probe boot works
#   --simulate-stall    cap the gp2 drive at 1 IOPS and time guest I/O out
#                       after 1 s: tests the stall detection (exit 3)
#   --throttle drive|filter  -drive's own throttling.* options (default), or
#                       a throttle-group object and the throttle filter
#   --io-timeout S      the guest's NVMe I/O timeout (default 10 s)
#   --shared-group KEYS one more throttle group above both drives (QEMU
#                       throttle keys, e.g. the instance's EBS limits:
#                       bps-total=81250000,bps-total-max=593750000,
#                       bps-total-max-length=16); needs --throttle filter
#   --gp3-delivers IOPS cap the gp3 drive at IOPS whatever the config's iops
#                       (an under-delivering volume; facts.json's
#                       .gp3.delivers_iops, .gp3.iops stays the config's)
#   --snapshot-latency NS  the gp3 drive is a volume still loading from its
#                       snapshot: the first read of each 64 KiB cluster waits
#                       NS ns (a null-co backing with latency-ns, a qcow2
#                       overlay on tmpfs, the copy-on-read filter above it),
#                       later reads of it do not (facts.json's
#                       .gp3.snapshot_latency_ns); needs --throttle filter
#   --eio-sector N      the gp3 drive fails every read touching 512-byte
#                       sector N with EIO (QEMU's blkdebug): a bad block
#   --qemu-arg ARG      one more QEMU argument (repeatable)
#   --no-stall-workaround  do not trace QEMU's NVMe events (see tests/qemu/README.md)
#   --ebsbench BIN      the host's ebsbench, for `presign` (default build/ebsbench)
#   --print-cmdline     print the kernel command line a --kernel boot gets
#                       and exit (boots nothing)
#
# The command line of a --kernel boot is the shipped one (appliance_cmdline:
# the description's kernel.cmdline and ebsbench.image_digest of this kernel
# and initramfs, as the UKI's) followed by the test switches, and only these:
#   nvme_core.io_timeout=S   always (10, --io-timeout S; 1 with
#                            --simulate-stall): the shipped line never
#                            times EBS I/O out, so the known TCG stall of a
#                            throttled drive would hang until --timeout
#                            instead of showing as guest NVMe timeouts (exit 3)
#   ebsbench.watchdog_s=N    with --watchdog-s N: the watchdog path in seconds
#   ebsbench.config=BASE64   with --config-via cmdline: the first place init
#                            looks for the config, tested as such
#
# DIR receives console.txt, qemu.txt (the command line), user-data.json
# (URLs redacted), imds.log, results/ (what the guest uploaded, fetched
# back from S3) and facts.json (emulated volumes, boot timing, verdict,
# whether the guest powered itself off).
#
# Exit: 0 the guest powered off by itself with verdict OK and (with --s3)
# results.json came back from S3; 1 it powered off otherwise (see
# facts.json and console.txt); 2 usage or set-up; 3 the emulated NVMe
# drive stalled (a known QEMU 7.2 TCG issue: retry once); 4 timeout: the
# guest did not power off.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
kernel="" initrd="" disk="" out="" time_scale="" burst_length="" timeout=240 accel=auto
config="$here/guest-config.json" simulate_stall=0 extra_args=() throttle=drive
stall_workaround=1 io_timeout=10 eio_sector="" snapshot_latency="" shared_group="" gp3_delivers="" s3="" ca="" via=imds user_data="" imds=1 watchdog="" reset_re="" reset_count=1 ovmf_vars=""
ebsbench="$root/build/ebsbench" print_cmdline=0

# Set-up problems exit 2 (1 means the guest ran and failed).
PROG=run-guest DIE_STATUS=2
# shellcheck source=../../image/lib.sh
. "$root/image/lib.sh"

while [ $# -gt 0 ]; do
	case $1 in
	--kernel) kernel=$2; shift 2 ;;
	--initrd) initrd=$2; shift 2 ;;
	--disk) disk=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--config) config=$2; shift 2 ;;
	--s3) s3=$2; shift 2 ;;
	--ca) ca=$2; shift 2 ;;
	--config-via) via=$2; shift 2 ;;
	--user-data) user_data=$2; shift 2 ;;
	--no-imds) imds=0; shift ;;
	--watchdog-s) watchdog=$2; shift 2 ;;
	--reset-when) reset_re=$2; shift 2 ;;
	--reset-count) reset_count=$2; shift 2 ;;
	--ovmf-vars) ovmf_vars=$2; shift 2 ;;
	--time-scale) time_scale=$2; shift 2 ;;
	--burst-length) burst_length=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--accel) accel=$2; shift 2 ;;
	--simulate-stall) simulate_stall=1; shift ;;
	--throttle) throttle=$2; shift 2 ;;
	--io-timeout) io_timeout=$2; shift 2 ;;
	--eio-sector) eio_sector=$2; shift 2 ;;
	--gp3-delivers) gp3_delivers=$2; shift 2 ;;
	--snapshot-latency) snapshot_latency=$2; shift 2 ;;
	--shared-group) shared_group=$2; shift 2 ;;
	--qemu-arg) extra_args+=("$2"); shift 2 ;;
	--no-stall-workaround) stall_workaround=0; shift ;;
	--ebsbench) ebsbench=$2; shift 2 ;;
	--print-cmdline) print_cmdline=1; shift ;;
	*) say "unknown argument $1"; usage ;;
	esac
done
if [ "$print_cmdline" = 1 ]; then
	[ -n "$kernel" ] && [ -n "$initrd" ] || die "--print-cmdline needs --kernel and --initrd"
else
	[ -n "$out" ] && { [ -n "$disk" ] || { [ -n "$kernel" ] && [ -n "$initrd" ]; }; } || usage
fi

# guest_cmdline [USER_DATA]: a --kernel boot's command line: the shipped
# one, then the test switches (see above); USER_DATA goes on it as
# ebsbench.config with --config-via cmdline.
guest_cmdline() {
	local line timeout=$io_timeout
	line=$(appliance_cmdline "$kernel" "$initrd") || exit
	[ "$simulate_stall" = 0 ] || timeout=1
	line+=" nvme_core.io_timeout=$timeout"
	[ -z "$watchdog" ] || line+=" ebsbench.watchdog_s=$watchdog"
	[ "$via" != cmdline ] || line+=" ebsbench.config=$(base64 -w0 "$1")"
	echo "$line"
}

if [ -n "$disk" ]; then
	[ -f "$disk" ] || die "disk image $disk not found"
	[ "$via" != cmdline ] || die "--config-via cmdline needs --kernel: the disk's UKI has its own command line"
	ovmf=/usr/share/OVMF
	need_packages ovmf
else
	[ -f "$kernel" ] || die "kernel $kernel not found"
	[ -f "$initrd" ] || die "initramfs $initrd not found"
fi
case $via in imds | fw_cfg | cmdline) ;; *) die "--config-via must be imds, fw_cfg or cmdline" ;; esac
case $eio_sector in *[!0-9]*) die "--eio-sector must be a sector number" ;; esac
case $gp3_delivers in *[!0-9]* | 0) die "--gp3-delivers must be whole IOPS above 0" ;; esac
case $snapshot_latency in *[!0-9]* | 0) die "--snapshot-latency must be whole ns above 0" ;; esac
case $io_timeout in '' | *[!0-9]*) die "--io-timeout must be whole seconds" ;; esac
case $watchdog in *[!0-9]*) die "--watchdog-s must be whole seconds" ;; esac
case $reset_count in '' | *[!0-9]* | 0) die "--reset-count must be a whole number above 0" ;; esac
if [ "$print_cmdline" = 1 ]; then
	[ "$via" != cmdline ] || die "--print-cmdline: with --config-via cmdline the line holds the config, made at boot"
	guest_cmdline
	exit 0
fi
if [ -n "$s3" ]; then
	[ -f "$ca" ] || die "--s3 needs --ca FILE"
	[ -n "${BUCKET:-}" ] && [ -n "${S3_URL:-}" ] ||
		die "--s3 needs BUCKET and S3_URL in the environment (peers_start exports them)"
fi
need_packages jq qemu-system-x86 busybox-static

rm -rf "$out"
mkdir -p "$out"
out=$(cd "$out" && pwd)

# shellcheck source=volumes.sh
. "$here/volumes.sh"
volumes_from_config "$config" "$time_scale" "$burst_length" "$out/config.json"

# ---- the user-data: the config, the upload block, the test CA ----
prefix="qemu-$(date +%s)-$$"
if [ -n "$user_data" ]; then
	cp "$user_data" "$out/user-data.json"
elif [ -n "$s3" ]; then
	# The config's own upload keys (retry limits) stay; presign adds the URLs.
	jq 'del(.upload)' "$out/config.json" >"$out/plan.json"
	# A config that names no devices has no file names to sign ahead (the
	# run labels what it finds): one POST policy for the prefix then.
	post=()
	[ "$(jq '.devices // [] | length' "$out/plan.json")" -gt 0 ] || post=(--post)
	"$ebsbench" presign --bucket "$BUCKET" --prefix "$prefix" --region "${AWS_DEFAULT_REGION:-us-east-1}" \
		--expires 2h --endpoint "$s3" --plan "$out/plan.json" ${post[@]+"${post[@]}"} >"$out/upload.json" ||
		die "ebsbench presign failed"
	jq -s '.[0] * .[1] | .upload.ca_file = "/run/ebsbench/ca.pem"' \
		"$out/config.json" "$out/upload.json" >"$out/user-data.json"
else
	cp "$out/config.json" "$out/user-data.json"
fi

# ---- IMDS ----
imds_pid=""
stop_all() {
	[ -z "${SNAPSHOT_DIR:-}" ] || rm -rf "$SNAPSHOT_DIR"
	[ -z "${qpid:-}" ] || { kill "$qpid" 2>/dev/null || true; wait "$qpid" 2>/dev/null || true; }
	[ -z "$imds_pid" ] || { kill "$imds_pid" 2>/dev/null || true; wait "$imds_pid" 2>/dev/null || true; }
}
trap stop_all EXIT
net="user,id=n0,net=169.254.0.0/16,host=169.254.2.2"
if [ "$imds" = 1 ]; then
	ud_args=()
	[ "$via" != imds ] || ud_args=(--user-data "$out/user-data.json")
	python3 "$root/tests/peers/imds.py" "$out/imds.port" "$out/imds.log" --lifetime "$((timeout + 60))" \
		${ud_args[@]+"${ud_args[@]}"} 2>>"$out/imds.log" &
	imds_pid=$!
	for _ in $(seq 100); do [ -s "$out/imds.port" ] && break; sleep 0.1; done
	[ -s "$out/imds.port" ] || die "imds.py did not start (see $out/imds.log)"
	# One nc per connection: the -tcp: form shares one and hangs.
	net+=",guestfwd=tcp:169.254.169.254:80-cmd:busybox nc 127.0.0.1 $(cat "$out/imds.port")"
fi

# ---- QEMU ----
append=$(guest_cmdline "$out/user-data.json")
fw_cfg=()
hosts_file="$out/guest-hosts"
printf '169.254.2.2\ts3.ebsbench.test\n' >"$hosts_file"
fw_cfg+=(-fw_cfg "name=opt/ebsbench/hosts,file=$hosts_file")
[ -z "$ca" ] || fw_cfg+=(-fw_cfg "name=opt/ebsbench/ca.pem,file=$ca")
[ "$via" != fw_cfg ] || fw_cfg+=(-fw_cfg "name=opt/ebsbench/config,file=$out/user-data.json")
[ ${#append} -lt 4000 ] || die "config too long for the kernel command line (${#append} bytes)"

accel_line=$(qemu_accel "$accel" "$kernel") || exit 2
read -ra accel_args <<<"$accel_line"
accel=tcg
[[ $accel_line != *kvm* ]] || accel=kvm
workaround_args=()
[ "$stall_workaround" = 0 ] ||
	workaround_args=(-trace "events=$here/stall-workaround.events,file=/dev/null")
# shellcheck disable=SC2054 # commas inside QEMU option strings
if [ -n "$disk" ]; then
	# As on Nitro: UEFI firmware, the boot disk one more NVMe controller.
	ovmf_vars=${ovmf_vars:-$out/ovmf-vars.fd}
	[ -f "$ovmf_vars" ] || cp "$ovmf/OVMF_VARS_4M.fd" "$ovmf_vars"
	boot_args=(-drive "if=pflash,format=raw,unit=0,readonly=on,file=$ovmf/OVMF_CODE_4M.fd"
		-drive "if=pflash,format=raw,unit=1,file=$ovmf_vars"
		-drive "if=none,id=boot,format=raw,readonly=on,file=$disk"
		-device nvme,serial=vol0b0070000000000000,drive=boot,bootindex=0)
else
	boot_args=(-kernel "$kernel" -initrd "$initrd" -append "$append")
fi
reboot_args=(-no-reboot)
[ -z "$reset_re" ] || reboot_args=(-monitor "unix:$out/monitor.sock,server=on,wait=off")
qemu=(qemu-system-x86_64 "${accel_args[@]}" -M q35 -smp 1 -m 512
	-nodefaults -no-user-config -display none "${reboot_args[@]}"
	-serial "file:$out/console.log" "${boot_args[@]}"
	-netdev "$net" -device virtio-net-pci,netdev=n0
	"${fw_cfg[@]}" "${VOLUME_ARGS[@]}"
	${workaround_args[@]+"${workaround_args[@]}"} ${extra_args[@]+"${extra_args[@]}"})
printf '%q ' "${qemu[@]}" | sed 's/ebsbench\.config=[^ ]*/ebsbench.config=.../' >"$out/qemu.txt"
echo >>"$out/qemu.txt"

# The guest kernel's words for an NVMe drive that stopped completing I/O.
stall_re='nvme[0-9]+: I/O [0-9]+ .*timeout|nvme[0-9]+:.*(resetting controller|Abort status|controller is down|Removing after probe failure)'

say "booting ($accel) with a ${timeout} s limit; console: $out/console.log"
start=$(date +%s.%N)
"${qemu[@]}" </dev/null >"$out/qemu.out" 2>&1 &
qpid=$!
verdict="" reset_sent=0
while kill -0 "$qpid" 2>/dev/null; do
	matches=0
	[ -z "$reset_re" ] || matches=$(grep -Eac "$reset_re" "$out/console.log" 2>/dev/null) || true
	if [ -n "$reset_re" ] && [ "$reset_sent" = 0 ] && [ "${matches:-0}" -ge "$reset_count" ]; then
		python3 -c 'import socket, sys, time
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); time.sleep(0.3)
s.sendall(b"system_reset\n"); time.sleep(0.3)' "$out/monitor.sock" && reset_sent=1
		say "console matched /$reset_re/ ($reset_count time(s)): machine reset (system_reset)"
	fi
	if grep -Eq "$stall_re" "$out/console.log" 2>/dev/null; then
		verdict=stall
		break
	fi
	if awk -v s="$start" -v n="$(date +%s.%N)" -v t="$timeout" 'BEGIN { exit !(n - s > t) }'; then
		verdict=timeout
		break
	fi
	sleep 0.5
done
stop_all
qpid="" imds_pid=""
wall=$(awk -v s="$start" -v n="$(date +%s.%N)" 'BEGIN { printf "%.1f", n - s }')
tr -d '\r' <"$out/console.log" >"$out/console.txt" 2>/dev/null || : >"$out/console.txt"
rm -f "$out/console.log"
if [ -z "$verdict" ] && grep -Eq "$stall_re" "$out/console.txt"; then verdict=stall; fi
if [ "$verdict" = stall ]; then
	grep -E "$stall_re" "$out/console.txt" | head -n 5 >&2
	say "QEMU NVMe drive stalled (guest I/O timeout): known TCG issue (after $wall s)"
	exit 3
fi
if [ "$verdict" = timeout ]; then
	tail -n 20 "$out/console.txt" >&2
	say "timed out after $timeout s: the guest did not power off; QEMU killed"
	exit 4
fi
powered_off=false
grep -q 'reboot: Power down' "$out/console.txt" && powered_off=true
guest_verdict=$(sed -n 's/^.*ebsbench-init: verdict: //p' "$out/console.txt" | tail -n 1)
say "QEMU exited after $wall s; powered off by the guest: $powered_off; verdict: ${guest_verdict:-none}"

# ---- the results, fetched back from S3 ----
# fetch NAME...: GET prefix/NAME from S3 into results/ (presigned for the
# plain endpoint), each that exists.
fetch() {
	local names=("$@") urls i
	mapfile -t urls < <(printf "get $prefix/%s 600 $S3_URL\n" "${names[@]}" |
		/usr/bin/python3 "$root/tests/peers/presign.py" --many "$BUCKET" "$S3_URL")
	[ ${#urls[@]} -eq ${#names[@]} ] || die "presigning the GETs failed"
	for i in "${!names[@]}"; do
		curl -sf -o "$out/results/${names[$i]}" "${urls[$i]}" 2>/dev/null || rm -f "$out/results/${names[$i]}"
	done
}
if [ -n "$s3" ] && [ -z "$user_data" ]; then
	mkdir -p "$out/results"
	if jq -e '.upload.put' "$out/upload.json" >/dev/null; then
		mapfile -t names < <(jq -r '.upload.put | keys[]' "$out/upload.json")
	else # POST: results.json says what else went up
		fetch results.json
		mapfile -t names < <(jq -r '["results.json"] + [.uploads[]?.artifact] | unique[]' \
			"$out/results/results.json" 2>/dev/null || echo results.json)
	fi
	fetch "${names[@]}"
	say "fetched back from S3: $(ls "$out/results" | wc -l) of ${#names[@]} files"
fi
# URLs are secrets even in a test's output directory.
jq 'if .upload.put then .upload.put |= map_values(sub("\\?.*"; "?REDACTED")) else . end' \
	"$out/user-data.json" >"$out/user-data.redacted.json" 2>/dev/null &&
	mv "$out/user-data.redacted.json" "$out/user-data.json" || true
rm -f "$out/upload.json" "$out/fetch.txt"

boot_facts "$out" "$wall" "$powered_off" "$guest_verdict" "$accel"
case $guest_verdict in OK:*) ;; *) exit 1 ;; esac
[ -z "$s3" ] || [ -f "$out/results/results.json" ] || { say "results.json did not reach S3"; exit 1; }
exit 0
