#!/bin/sh
# guest-init.sh - /init (PID 1, busybox sh) of the QEMU test guest.
#
# Mounts proc, sys and devtmpfs, loads the modules listed in
# /etc/ebsbench/modules, waits for the NVMe namespaces, runs
#   ebsbench discover, ebsbench run --dry-run, ebsbench run --out /results
# and prints everything the host needs on the console (ttyS0) between marker
# lines, then powers off.  run-guest.sh reads the console log:
#
#   =====EBSBENCH-INIT uptime_s=U realtime_ms=R=====   clocks at init start
#   =====EBSBENCH-SYSFS-BEGIN===== / -END=====         /sys/block/nvme* facts
#   =====EBSBENCH-DISCOVER-BEGIN===== / -END=====      ebsbench discover --json
#   =====EBSBENCH-PLAN-BEGIN===== / -END=====          ebsbench run --dry-run
#   =====EBSBENCH-RUN-EXIT rc=N=====                   ebsbench run's exit code
#   =====EBSBENCH-NVME-DMESG-BEGIN===== / -END=====    dmesg: NVMe timeouts, resets
#   =====EBSBENCH-RESULTS-BEGIN===== / -END=====       base64 of results/ as tar.gz
#   =====EBSBENCH-DONE=====
#
# Kernel command line (all optional):
#   ebsbench.config_b64=B64    the config (base64 JSON) instead of
#                              /etc/ebsbench/config.json
#   ebsbench.nvme_count=N      NVMe namespaces to wait for (default 1)
#   ebsbench.mode=dry-run      stop after the dry run
PATH=/bin:/sbin:/usr/bin:/usr/sbin
export PATH

mount -t devtmpfs devtmpfs /dev 2>/dev/null
exec </dev/console >/dev/console 2>&1
mount -t proc proc /proc
mount -t sysfs sysfs /sys

marker() { echo "=====EBSBENCH-$*====="; }

# Both clocks at one instant, so that the host can place ebsbench's wall
# clock times (started_ms) on the kernel's boot timeline.
init_clocks() {
	sec=0 usec=0
	up=$(cut -d' ' -f1 /proc/uptime)
	eval "$(adjtimex | awk '/time.tv_sec/ {print "sec=" $2} /time.tv_usec/ {print "usec=" $2}')"
	marker "INIT uptime_s=$up realtime_ms=$sec$(printf %03d $((usec / 1000)))"
}
init_clocks

finish() {
	sync
	marker DONE
	poweroff -f
	sleep 5
	echo o >/proc/sysrq-trigger
}

config=/etc/ebsbench/config.json
nvme_count=1
mode=run
for word in $(cat /proc/cmdline); do
	case $word in
	ebsbench.config_b64=*)
		mkdir -p /run/ebsbench
		echo "${word#*=}" | base64 -d >/run/ebsbench/config.json && config=/run/ebsbench/config.json
		;;
	ebsbench.nvme_count=*) nvme_count=${word#*=} ;;
	ebsbench.mode=*) mode=${word#*=} ;;
	esac
done
echo "guest-init: config $config"
cat "$config"

if [ -s /etc/ebsbench/modules ]; then
	while read -r module; do
		insmod "/lib/modules/$module" || echo "guest-init: insmod $module failed"
	done </etc/ebsbench/modules
fi

namespaces() {
	n=0
	for b in /sys/block/nvme*n*; do [ -e "$b" ] && n=$((n + 1)); done
	echo $n
}
waited=0
while [ "$(namespaces)" -lt "$nvme_count" ] && [ $waited -lt 300 ]; do
	sleep 0.1
	waited=$((waited + 1))
done
echo "guest-init: $(namespaces) NVMe namespace(s) after $((waited / 10)).$((waited % 10)) s"

marker SYSFS-BEGIN
for b in /sys/block/nvme*; do
	[ -e "$b" ] || continue
	echo "$b dev=$(cat "$b/dev") size=$(cat "$b/size") -> $(readlink -f "$b/device")"
	for a in model serial firmware_rev; do
		echo "  device/$a='$(cat "$b/device/$a" 2>/dev/null)'"
	done
done
for c in /sys/class/nvme/nvme*; do
	[ -e "$c" ] || continue
	echo "$c model='$(cat "$c/model")' serial='$(cat "$c/serial")' address=$(cat "$c/address" 2>/dev/null)"
done
marker SYSFS-END

accept=$(sed -n 's/.*"accept_model" *: *"\([^"]*\)".*/\1/p' "$config")
marker DISCOVER-BEGIN
ebsbench discover --json ${accept:+--accept-model "$accept"}
echo "discover rc=$?"
marker DISCOVER-END

marker PLAN-BEGIN
ebsbench run --config "$config" --out /results --dry-run
rc=$?
echo "dry-run rc=$rc"
marker PLAN-END

if [ $rc -eq 0 ] && [ "$mode" = run ]; then
	# Through a pipe: progress on a non-terminal is one plain line every
	# 10 s, which reads better in a log than a live line.
	{
		ebsbench run --config "$config" --out /results
		echo $? >/tmp/run.rc
	} 2>&1 | cat
	rc=$(cat /tmp/run.rc)
fi
marker "RUN-EXIT rc=$rc"

marker NVME-DMESG-BEGIN
dmesg | grep -iE 'nvme.*(timeout|reset|abort|disabl|error)|I/O error'
marker NVME-DMESG-END

# Only emergencies on the console from here: nothing may interleave with
# the base64 lines.
echo 1 >/proc/sys/kernel/printk
if [ -f /results/results.json ]; then
	marker RESULTS-BEGIN
	tar -C / -czf - results | base64
	marker RESULTS-END
fi
finish
