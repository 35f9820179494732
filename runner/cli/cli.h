/* cli.h - the subcommands: argv in, exit status out.  main.c's command
 * table points at these; each parses its own options and calls the floors
 * below.  Exit statuses are shared: 0 done, 1 the work failed, 2 bad usage
 * or config. */
#ifndef EBSBENCH_CLI_H
#define EBSBENCH_CLI_H

#include <signal.h>

/* `ebsbench run`: discover, guard, run the plan, analyse, report.  Also 3:
 * refused to write to a device that holds data. */
int cmd_run(int argc, char **argv, const volatile sig_atomic_t *stop);

/* `ebsbench fio`: one job from fio-style options.  Also 5: stopped early by
 * SIGINT/SIGTERM (the partial results were written). */
int cmd_fio(int argc, char **argv, const volatile sig_atomic_t *stop);

/* `ebsbench discover`: what is attached, and what is safe. */
int cmd_discover(int argc, char **argv, const volatile sig_atomic_t *stop);

/* `ebsbench report [--out DIR] [--print | --json] DIR...`: summary.md and
 * the SVG charts, rebuilt from results directories (one run, or a fleet
 * side by side); --json prints each record with its new analysis.  1: a
 * results.json missing or invalid, or an output write failed. */
int cmd_report(int argc, char **argv, const volatile sig_atomic_t *stop);

/* `ebsbench recommend RESULTS [--iops N] [--mibs M] [--p99-ms X] [--gib G]
 * [--region R] [--json] [--out DIR]`: the cheapest gp3, io2, gp2, st1 and sc1 per
 * measured volume, and the files that apply it.  2: usage, or a results
 * file missing, unreadable or of a newer schema. */
int cmd_recommend(int argc, char **argv, const volatile sig_atomic_t *stop);

/* `ebsbench compare A B [--json] [--out DIR]`: two runs phase by phase,
 * each change with its interval, and what makes them not comparable.  2:
 * usage, or a results file missing, unreadable or of a newer schema. */
int cmd_compare(int argc, char **argv, const volatile sig_atomic_t *stop);

/* `ebsbench presign`: sign the upload URLs (or a POST policy) for one run,
 * on the operator's machine, where the credentials are. */
int cmd_presign(int argc, char **argv, const volatile sig_atomic_t *stop);

/* `ebsbench fetch s3://BUCKET/PREFIX/ [DIR]`: a run's results back from S3
 * with the user's credentials.  1: S3 refused, a local file differs, or
 * nothing is under the prefix. */
int cmd_fetch(int argc, char **argv, const volatile sig_atomic_t *stop);

/* `ebsbench k8s`: one run on Block-mode PVCs as one List of Kubernetes
 * objects on stdout (its POST policy signed as presign signs), for
 * `kubectl apply -f -`.  2: usage, a bad volume, image or S3 destination,
 * missing credentials.  --apply runs it end to end through the user's
 * kubectl (launch/k8s_apply.h: its exit statuses K8S_APPLY_*, 0 to 7). */
int cmd_k8s(int argc, char **argv, const volatile sig_atomic_t *stop);

/* `ebsbench ec2`: one run on a stock Amazon Linux 2023 instance as the
 * input of `aws ec2 run-instances --cli-input-json` on stdout, after
 * uploading this binary under the run's prefix.  2: usage, a bad volume,
 * config or S3 destination, missing credentials; 1: S3 refused the
 * binary.  --launch runs it end to end through the user's aws CLI
 * (launch/ec2_launch.h: its exit statuses EC2_LAUNCH_*, 0 to 7). */
int cmd_ec2(int argc, char **argv, const volatile sig_atomic_t *stop);

/* `ebsbench observe DEVICE... [--interval 1s] [--duration D] [--out FILE]`:
 * the devices' demand from the kernel's counters, read-only, as the CSV
 * recommend --demand reads.  1: a device went away or the output failed;
 * 2: usage, or not a block device. */
int cmd_observe(int argc, char **argv, const volatile sig_atomic_t *stop);

/* `ebsbench version`. */
int cmd_version(int argc, char **argv, const volatile sig_atomic_t *stop);

#endif
