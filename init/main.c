/* main.c - ebsbench-init, PID 1 of the appliance:
 *
 *   mounts and console -> network (udhcpc) -> config (command line, fw_cfg,
 *   IMDSv2 user-data) -> instance facts (IMDSv2) -> the NVMe namespaces ->
 *   `ebsbench run --dry-run` (the plan's length sets the watchdog) ->
 *   `ebsbench run` (uploads as it goes) -> summary and a one-line verdict
 *   on the console -> power off.
 *
 * Every path ends in boot_poweroff(); nothing here may exit, since PID 1
 * exiting panics the kernel.  Two watchdogs: supervise() stops the run at
 * its deadline (SIGTERM, so it uploads what it has), and an alarm powers
 * off from a signal handler if PID 1 itself gets stuck. */
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "boot.h"
#include "boot_guard.h"
#include "lib/lib.h"
#include "cmdline.h"
#include "config_source.h"
#include "imds.h"
#include "net.h"
#include "supervise.h"
#include "verdict.h"

#define EBSBENCH_BIN "/bin/ebsbench"
#define RUN_DIR "/run/ebsbench"
#define CONFIG_PATH RUN_DIR "/config.json"
#define PLAN_PATH RUN_DIR "/plan.json"
#define RESULTS_DIR RUN_DIR "/results"
/* Before the plan is known: boot, DHCP, IMDS and the dry run. */
#define BOOT_WATCHDOG_S 600
/* The run's deadline: the plan, 10 % more, and 10 min for uploads; after
 * SIGTERM it has GRACE_S to upload partial results. */
#define RUN_SLACK 0.10
#define RUN_MARGIN_S 600.0
#define GRACE_S 300.0
#define NVME_WAIT_S 30
#define MAX_WANTED 16

struct appliance {
	char cmdline[4096];
	bool rescue;
	unsigned watchdog_s; /* 0: computed from the plan */
	char imds_base[128];
	char digest_env[160]; /* "EBSBENCH_IMAGE_DIGEST=..." or "" */
	char *run_env[4];     /* what ebsbench runs with: see child_env() */
	bool imds_ok;
	struct imds imds;
	struct imds_facts facts;
	size_t config_devices;
	/* How each listed device shows up: "vol0abc..." (an NVMe controller's
	 * serial, the volume id without its dash) or a /dev path. */
	char wanted[MAX_WANTED][160];
	size_t wanted_count;
	bool uploads;
	bool resume_get; /* the upload block can fetch the run's results.json back */
};

static _Noreturn void fail(const struct appliance *a, const char *verdict)
{
	say("verdict: FAILED: %s", verdict);
	if (a->rescue)
		boot_rescue_shell();
	boot_poweroff();
}

/* The previous boot died in its run (the guard was set) and this one may
 * not continue it (why): power off rather than run the sequence again. */
static _Noreturn void refuse_again(const char *why)
{
	say("verdict: STOPPED: the previous boot did not finish (a kernel panic, a hang or a "
	    "reset) %s: powering off rather than run the sequence again",
	    why);
	boot_poweroff();
}

static void read_cmdline(struct appliance *a)
{
	char *text = read_small_file("/proc/cmdline", sizeof(a->cmdline) - 1);
	snprintf(a->cmdline, sizeof(a->cmdline), "%s", text ? text : "");
	free(text);
	char v[128];
	a->rescue =
		cmdline_value(a->cmdline, "ebsbench.rescue", v, sizeof(v)) == 1 && strcmp(v, "0");
	if (cmdline_value(a->cmdline, "ebsbench.watchdog_s", v, sizeof(v)) == 1)
		a->watchdog_s = (unsigned)strtoul(v, NULL, 10);
	if (cmdline_value(a->cmdline, "ebsbench.imds", v, sizeof(v)) == 1)
		snprintf(a->imds_base, sizeof(a->imds_base), "%s", v);
	if (cmdline_value(a->cmdline, "ebsbench.image_digest", v, sizeof(v)) == 1)
		snprintf(a->digest_env, sizeof(a->digest_env), "EBSBENCH_IMAGE_DIGEST=%s", v);
}

/* fw_cfg extras for lab runs: host names (the S3 peer's) and a private CA. */
static void apply_fw_cfg_extras(void)
{
	char *hosts = read_small_file(FW_CFG_DIR "/hosts/raw", 64 * 1024);
	FILE *f = hosts ? fopen("/etc/hosts", "a") : NULL;
	if (f) {
		fputs(hosts, f);
		fclose(f);
		say("fw_cfg: host names added to /etc/hosts");
	}
	free(hosts);
	char *ca = read_small_file(FW_CFG_DIR "/ca.pem/raw", 1024 * 1024);
	f = ca ? fopen(RUN_DIR "/ca.pem", "w") : NULL;
	if (f) {
		fputs(ca, f);
		fclose(f);
		say("fw_cfg: CA bundle in " RUN_DIR "/ca.pem");
	}
	free(ca);
}

/* The config's text and where it came from; fails the boot if none. */
static char *find_config(struct appliance *a, const char **origin)
{
	char value[3072], err[512];
	int rc = cmdline_value(a->cmdline, "ebsbench.config", value, sizeof(value));
	if (rc == -1)
		fail(a, "ebsbench.config= is longer than the command line allows");
	if (rc == 1) {
		*origin = "the kernel command line's config";
		char *text = config_from_cmdline(value, err, sizeof(err));
		if (!text)
			fail(a, err);
		return text;
	}
	char *text = read_small_file(FW_CFG_DIR "/config/raw", CONFIG_SOURCE_MAX);
	if (text) {
		*origin = "fw_cfg opt/ebsbench/config";
		return text;
	}
	if (!a->imds_ok)
		fail(a,
		     "no config: none on the command line or in fw_cfg, and IMDS is unreachable");
	*origin = "user-data";
	rc = imds_get(&a->imds, "/latest/user-data", &text, err, sizeof(err));
	if (rc == 0)
		fail(a, "no config: the instance has no user-data (give the ebsbench config as "
			"user-data)");
	if (rc < 0)
		fail(a, err);
	return text;
}

static void remember_devices(struct appliance *a, json_t *devices)
{
	size_t i;
	json_t *d;
	a->wanted_count = 0;
	json_array_foreach(devices, i, d)
	{
		const char *vol = json_string_value(json_object_get(d, "volume_id"));
		const char *path = json_string_value(json_object_get(d, "path"));
		if (a->wanted_count == MAX_WANTED || (!vol && !path))
			continue;
		char *w = a->wanted[a->wanted_count++];
		if (vol)
			snprintf(w, sizeof(a->wanted[0]), "vol%s",
				 strncmp(vol, "vol-", 4) ? vol + 3 : vol + 4);
		else
			snprintf(w, sizeof(a->wanted[0]), "%s", path);
	}
}

static void write_config(struct appliance *a, json_t *config)
{
	json_t *devices = json_object_get(config, "devices");
	a->config_devices = json_is_array(devices) ? json_array_size(devices) : 0;
	if (a->config_devices)
		remember_devices(a, devices);
	json_t *upload = json_object_get(config, "upload");
	a->uploads = upload != NULL;
	a->resume_get = json_is_string(json_object_get(upload, "resume_get"));
	/* 0600: presigned URLs are bearer credentials. */
	int fd = open(CONFIG_PATH, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || json_dumpfd(config, fd, JSON_INDENT(1)) || close(fd))
		fail(a, "cannot write " CONFIG_PATH);
}

static size_t nvme_namespaces(void)
{
	glob_t g;
	size_t n = glob("/sys/block/nvme*n*", 0, NULL, &g) == 0 ? g.gl_pathc : 0;
	globfree(&g);
	return n;
}

static bool nvme_serial_present(const char *serial)
{
	glob_t g;
	bool found = false;
	if (glob("/sys/class/nvme/nvme*/serial", 0, NULL, &g) == 0)
		for (size_t i = 0; i < g.gl_pathc && !found; i++) {
			char *s = read_small_file(g.gl_pathv[i], 64);
			size_t n = s ? strlen(s) : 0;
			while (n && (s[n - 1] == '\n' || s[n - 1] == ' '))
				s[--n] = '\0';
			found = s && !strcmp(s, serial);
			free(s);
		}
	globfree(&g);
	return found;
}

static size_t devices_missing(const struct appliance *a)
{
	size_t missing = 0;
	for (size_t i = 0; i < a->wanted_count; i++)
		missing += a->wanted[i][0] == '/' ? access(a->wanted[i], F_OK) != 0
						  : !nvme_serial_present(a->wanted[i]);
	return missing;
}

/* NVMe controllers probe asynchronously: wait for the devices the config
 * lists, by volume id or path (a count would include the boot disk, itself
 * an NVMe namespace on Nitro), else for the count to hold still for 2 s. */
static void wait_for_nvme(const struct appliance *a)
{
	size_t last = 0, steady = 0;
	for (int tick = 0; tick < NVME_WAIT_S * 10; tick++) {
		size_t n = nvme_namespaces();
		if (a->wanted_count ? !devices_missing(a) : (n && n == last && ++steady >= 20))
			break;
		if (n != last)
			steady = 0;
		last = n;
		struct timespec t = { 0, 100000000L };
		nanosleep(&t, NULL);
	}
	say("%zu NVMe namespace(s)%s", nvme_namespaces(),
	    a->wanted_count && devices_missing(a) ? "; a listed device is still missing" : "");
}

static char **child_env(struct appliance *a)
{
	static char progress[] = "EBSBENCH_PROGRESS=plain";
	static char path[] = "PATH=/bin";
	size_t n = 0;
	a->run_env[n++] = progress;
	a->run_env[n++] = path;
	if (a->digest_env[0])
		a->run_env[n++] = a->digest_env;
	a->run_env[n] = NULL;
	return a->run_env;
}

/* ebsbench run --dry-run: the plan's planned_s (or fails the boot). */
static double plan_seconds(struct appliance *a)
{
	int fd = open(PLAN_PATH, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	char *argv[] = { EBSBENCH_BIN, "run",	    "--config",	 CONFIG_PATH,
			 "--out",      RESULTS_DIR, "--dry-run", NULL };
	struct supervise_result r;
	supervise(argv, fd, child_env(a), 0, 0, &r);
	if (fd >= 0)
		close(fd);
	if (r.status != 0) {
		char why[96];
		snprintf(why, sizeof(why), "the plan was refused (ebsbench run --dry-run exit %d)",
			 r.status);
		fail(a, why);
	}
	json_t *plan = json_load_file(PLAN_PATH, 0, NULL);
	double s = json_number_value(json_object_get(plan, "planned_s"));
	json_decref(plan);
	return s;
}

int main(void)
{
	static struct appliance a;
	boot_mount_all();
	supervise_block();
	boot_watchdog_arm(BOOT_WATCHDOG_S);
	mkdir(RUN_DIR, 0700);
	say("ebsbench %s appliance; kernel started at realtime_ms=%lld", EBSBENCH_VERSION,
	    boot_kernel_start_ms());
	read_cmdline(&a);
	enum boot_guard_state guard = boot_guard_check();
	/* A resumed boot that died too: no config makes a third boot run. */
	if (boot_guard_decide(guard, true) == BOOT_GUARD_REFUSE)
		refuse_again("and it had resumed the run once already");
	apply_fw_cfg_extras();

	char ifname[32], err[512];
	if (net_up(ifname, sizeof(ifname), err, sizeof(err)))
		say("network: %s", err);
	else
		say("network: %s is up at %.2f s", ifname, boot_uptime_s());
	a.imds_ok = imds_open(&a.imds, a.imds_base, err, sizeof(err)) == 0;
	if (a.imds_ok)
		imds_read_facts(&a.imds, &a.facts);
	else
		say("%s", err);

	const char *origin = "config";
	char *text = find_config(&a, &origin);
	json_t *config = config_for_run(text, origin, &a.facts, err, sizeof(err));
	free(text);
	if (!config)
		fail(&a, err);
	say("config from %s at %.2f s; instance %s %s in %s", origin, boot_uptime_s(),
	    a.facts.instance_type[0] ? a.facts.instance_type : "(not EC2)",
	    a.facts.instance_id[0] ? a.facts.instance_id : "-",
	    a.facts.zone[0] ? a.facts.zone : "-");
	write_config(&a, config);
	json_decref(config);
	enum boot_guard_action action = boot_guard_decide(guard, a.resume_get);
	if (action == BOOT_GUARD_REFUSE)
		refuse_again("and the config has no resume_get to continue it from");
	if (action == BOOT_GUARD_RESUME)
		say("the previous boot did not finish (a kernel panic, a hang or a reset): "
		    "resuming its run once, from the results.json it uploaded");
	wait_for_nvme(&a);

	double planned = plan_seconds(&a);
	double limit = a.watchdog_s ? a.watchdog_s : planned * (1 + RUN_SLACK) + RUN_MARGIN_S;
	double start = (double)clock_now_ns() / 1e9;
	say("plan: %.0f s, starting at %.2f s; watchdog stops the run after %.0f s", planned,
	    boot_uptime_s(), limit);
	boot_watchdog_arm((unsigned)(limit + GRACE_S + 60));

	char *argv[] = { EBSBENCH_BIN, "run",	    "--config",	     CONFIG_PATH,
			 "--out",      RESULTS_DIR, "--resume=auto", NULL };
	if (action != BOOT_GUARD_RESUME)
		argv[6] = NULL;
	struct supervise_result r;
	boot_guard_arm(action == BOOT_GUARD_RESUME);
	supervise(argv, -1, child_env(&a), start + limit, GRACE_S, &r);
	verdict_print(RESULTS_DIR, &r, a.uploads, (double)clock_now_ns() / 1e9 - start);
	if (r.status != 0 && a.rescue)
		boot_rescue_shell();
	boot_poweroff();
}
