/* recommend_apply.c - the ready-to-apply files of `ebsbench recommend --out
 * DIR`: a VolumeAttributesClass per distinct gp3/io2 target (the EBS CSI
 * driver's parameters type, iops, throughput) and apply.md, with per
 * volume the Kubernetes route (kubectl patch pvc) or the EC2 one (aws ec2
 * modify-volume), both setting type, IOPS and throughput in one change,
 * and the caveats that apply.  Nothing here is run. */
#include "lib/lib.h"
#include "report/recommend_apply.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "report/md_table.h"
#include "report/report_format.h"
#include "results/results.h"
#include "report/recommend_md.h"

#define NAME_LEN 64
#define MB_PER_MIB (1024.0 * 1024.0 / 1e6)

/* The VolumeAttributesClass of a target: "ebsbench-gp3-3000iops-125mibs",
 * "ebsbench-st1". */
static void vac_name(char *buf, size_t len, const struct recommend_candidate *c)
{
	if (c->type == EBS_GP3)
		snprintf(buf, len, "ebsbench-gp3-%.0fiops-%.0fmibs", c->iops, c->mibs);
	else if (c->type == EBS_IO2)
		snprintf(buf, len, "ebsbench-io2-%.0fiops", c->iops);
	else
		snprintf(buf, len, "ebsbench-%s", ebs_type_name(c->type));
}

/* gp3 and io2 provision what a VolumeAttributesClass sets, st1 and sc1
 * are a type it sets; gp2's performance follows its size, which only the
 * PVC's request changes. */
static bool has_vac(const struct recommend_candidate *c)
{
	return c->type != EBS_GP2;
}

/* gp3 and io2: IOPS to set. */
static bool sets_iops(const struct recommend_candidate *c)
{
	return c->type == EBS_GP3 || c->type == EBS_IO2;
}

/* The chosen target of a device when it changes anything, else NULL. */
static const struct recommend_candidate *target_of(const struct recommend_device *d)
{
	const struct recommend_candidate *c = d->choice >= 0 ? &d->cand[d->choice] : NULL;
	if (!c || (recommend_same_config(&c->volume, &d->current) &&
		   fabs(c->volume.size_gib - d->current.size_gib) < 0.5))
		return NULL;
	return c;
}

/* Opens dir/name for writing; NULL with a reason naming the file. */
static FILE *open_in(const char *dir, const char *name, char *path, size_t plen, char *err,
		     size_t errlen)
{
	snprintf(path, plen, "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	if (!f)
		snprintf(err, errlen, "cannot create %s: %s", path, strerror(errno));
	return f;
}

/* Closes f; -1 with a reason when anything written was lost. */
static int close_checked(FILE *f, const char *path, char *err, size_t errlen)
{
	bool bad = ferror(f);
	if (fclose(f) || bad)
		return error_set(err, errlen, "writing %s failed", path);
	return 0;
}

/* vac-NAME.yaml: the EBS CSI driver's type, iops and throughput (gp3). */
static int write_vac(const char *dir, const struct recommend_candidate *c, char *err, size_t errlen)
{
	char name[NAME_LEN], file[NAME_LEN + 16], path[4200];

	vac_name(name, sizeof(name), c);
	snprintf(file, sizeof(file), "vac-%s.yaml", name);
	FILE *f = open_in(dir, file, path, sizeof(path), err, errlen);
	if (!f)
		return -1;
	fprintf(f,
		"# Written by ebsbench recommend.  storage.k8s.io/v1: Kubernetes 1.34 and later\n"
		"# (on 1.31-1.33 the API is storage.k8s.io/v1beta1, behind the\n"
		"# VolumeAttributesClass feature gate); the EBS CSI driver's volume\n"
		"# modification (ControllerModifyVolume) applies it.\n"
		"apiVersion: storage.k8s.io/v1\n"
		"kind: VolumeAttributesClass\n"
		"metadata:\n"
		"  name: %s\n"
		"driverName: ebs.csi.aws.com\n"
		"parameters:\n"
		"  type: %s\n",
		name, ebs_type_name(c->type));
	if (sets_iops(c))
		fprintf(f, "  iops: \"%.0f\"\n", c->iops);
	if (c->type == EBS_GP3)
		fprintf(f, "  throughput: \"%.0f\"\n", c->mibs);
	return close_checked(f, path, err, errlen);
}

/* The Kubernetes route: find the PVC, apply the class, patch the claim. */
static void kubernetes_route(FILE *f, const struct recommend_device *d,
			     const struct recommend_candidate *c, const char *vid)
{
	fprintf(f,
		"Kubernetes (EBS CSI driver), the claim bound to %s:\n\n```sh\n"
		"kubectl get pv -o jsonpath='{range .items[?(@.spec.csi.volumeHandle==\"%s\")]}"
		"{.spec.claimRef.namespace}{\" \"}{.spec.claimRef.name}{\"\\n\"}{end}'\n",
		vid, vid);
	if (has_vac(c)) {
		char name[NAME_LEN];
		vac_name(name, sizeof(name), c);
		fprintf(f,
			"kubectl apply -f vac-%s.yaml\n"
			"kubectl -n NAMESPACE patch pvc PVC --type=merge -p "
			"'{\"spec\":{\"volumeAttributesClassName\":\"%s\"}}'\n"
			"kubectl -n NAMESPACE get pvc PVC -o "
			"jsonpath='{.status.currentVolumeAttributesClassName}'\n```\n\n",
			name, name);
	} else {
		fprintf(f,
			"kubectl -n NAMESPACE patch pvc PVC --type=merge -p "
			"'{\"spec\":{\"resources\":{\"requests\":{\"storage\":\"%.0fGi\"}}}}'\n```"
			"\n\n"
			"gp2's performance follows its size: only the claim's request changes it "
			"(its storage class must allow volume expansion).\n\n",
			c->volume.size_gib);
	}
	if (has_vac(c) && c->volume.size_gib > d->current.size_gib + 0.5)
		fprintf(f,
			"The size (%.0f GiB, from %.0f) is the claim's resources.requests.storage: "
			"a second modification, after this one completed.\n\n",
			c->volume.size_gib, d->current.size_gib);
}

/* The EC2 route: one modify-volume with every field, then its progress. */
static void ec2_route(FILE *f, const struct recommend_device *d,
		      const struct recommend_candidate *c, const char *vid, const char *region)
{
	fprintf(f,
		"Or the EC2 API (not both: each is a modification):\n\n```sh\n"
		"aws ec2 modify-volume --region %s --volume-id %s --volume-type %s",
		region, vid, ebs_type_name(c->type));
	if (sets_iops(c))
		fprintf(f, " --iops %.0f", c->iops);
	if (c->type == EBS_GP3)
		fprintf(f, " --throughput %.0f", c->mibs);
	if (c->volume.size_gib > d->current.size_gib + 0.5)
		fprintf(f, " --size %.0f", c->volume.size_gib);
	fprintf(f, "\naws ec2 describe-volumes-modifications --region %s --volume-ids %s\n```\n\n",
		region, vid);
}

/* A target smaller than the volume: EBS does not shrink; in place keeps
 * the size, at its own price. */
static void shrink_caveat(FILE *f, const struct recommend_device *d,
			  const struct recommend_candidate *c, const struct ebs_prices *prices)
{
	struct ebs_volume in_place = c->volume;
	char usd[REPORT_NUM_LEN];

	if (!(c->volume.size_gib < d->current.size_gib - 0.5))
		return;
	in_place.size_gib = d->current.size_gib;
	double cost = ebs_monthly_cost(&in_place, prices);
	snprintf(usd, sizeof(usd), isfinite(cost) ? "$%.2f" : "unknown", cost);
	fprintf(f,
		"**Smaller than the volume**: EBS cannot shrink a volume (nor restore a snapshot "
		"smaller). The commands above change type, IOPS and throughput in place and keep "
		"%.0f GiB (%s a month); %.0f GiB is a new volume and a copy of the data.\n\n",
		d->current.size_gib, usd, c->volume.size_gib);
}

/* Above the instance's EBS baseline, the target holds only during the
 * instance's own burst (30 minutes a day on the smaller sizes). */
static void instance_caveat(FILE *f, const json_t *run, const struct recommend_candidate *c)
{
	const char *type =
		json_string_value(RESULTS_GET(run, RESULTS_KEY_ENVIRONMENT, "instance_type"));
	const struct instance_ebs_limits *inst = type ? ebs_instance_limits_find(type) : NULL;

	if (!inst ||
	    (c->iops <= inst->baseline_iops && c->mibs * MB_PER_MIB <= inst->baseline_mbps))
		return;
	fprintf(f,
		"**The instance**: the %s's EBS baseline is %.0f IOPS and %.2f MB/s; this volume "
		"provisions more, which it gets only while the instance's own EBS burst lasts.\n\n",
		inst->name, inst->baseline_iops, inst->baseline_mbps);
}

/* One device's section of apply.md. */
static void apply_device(FILE *f, const json_t *run, const struct recommend_device *d,
			 const char *region, const struct ebs_prices *prices)
{
	const struct recommend_candidate *c = target_of(d);
	const char *vid = d->volume_id[0] ? d->volume_id : "VOLUME_ID";

	fputs("## ", f);
	md_text(f, d->label);
	fputs(" (", f);
	md_text(f, vid);
	fputs(")\n\n", f);
	md_text(f, d->summary);
	fputs("\n\n", f);
	if (!c) {
		fputs(d->choice >= 0 ? "Nothing to change.\n\n" : "Nothing to apply.\n\n", f);
		return;
	}
	kubernetes_route(f, d, c, vid);
	ec2_route(f, d, c, vid, region);
	shrink_caveat(f, d, c, prices);
	instance_caveat(f, run, c);
}

/* The caveats every modification has (EBS's rules, seeds 000 and 002). */
static void apply_caveats(FILE *f)
{
	fputs("## Caveats\n\n"
	      "- One modification at a time: EBS takes the next one on a volume only after the "
	      "last is `completed` (`describe-volumes-modifications`; a 1 TiB volume can take "
	      "hours to optimize).\n"
	      "- Four modifications per volume per rolling 24 hours: type, IOPS and throughput go "
	      "in one change, as each command here sets them; a size change in Kubernetes is "
	      "another.\n"
	      "- Never the type alone: a gp2 changed to gp3 without IOPS and throughput keeps "
	      "gp2's performance where it is above gp3's baseline (billed, though the need may "
	      "not want it), while gp3's defaults (3,000 IOPS, 125 MiB/s) can be slower than the "
	      "gp2 they replace: set both, as here.\n"
	      "- A VolumeAttributesClass does not change the claim's storageClassName: keep the "
	      "wanted settings in the class, and check the PVC's "
	      "status.currentVolumeAttributesClassName and the volume's type, IOPS and "
	      "throughput after.\n",
	      f);
}

int recommend_apply_write(const char *dir, const json_t *run, const struct recommend_device *d,
			  size_t n, const struct ebs_prices *prices, char *err, size_t errlen)
{
	char path[4200], seen[RECOMMEND_MAX_DEVICES][NAME_LEN];
	size_t nseen = 0;
	const char *region = json_string_value(RESULTS_GET(run, RESULTS_KEY_PLAN, "region"));

	for (size_t i = 0; i < n && nseen < RECOMMEND_MAX_DEVICES; i++) {
		const struct recommend_candidate *c = target_of(&d[i]);
		char name[NAME_LEN];
		bool dup = false;
		if (!c || !has_vac(c))
			continue;
		vac_name(name, sizeof(name), c);
		for (size_t s = 0; s < nseen; s++)
			dup = dup || !strcmp(seen[s], name);
		if (dup)
			continue;
		snprintf(seen[nseen++], NAME_LEN, "%s", name);
		if (write_vac(dir, c, err, errlen))
			return -1;
	}
	FILE *f = open_in(dir, "apply.md", path, sizeof(path), err, errlen);
	if (!f)
		return -1;
	fputs("# Applying the recommendation\n\nWritten by `ebsbench recommend`; nothing here has "
	      "been run. Per volume, one route: Kubernetes or the EC2 API.\n\n",
	      f);
	for (size_t i = 0; i < n; i++)
		apply_device(f, run, &d[i],
			     region	      ? region
			     : prices->region ? prices->region
					      : "REGION",
			     prices);
	apply_caveats(f);
	return close_checked(f, path, err, errlen);
}
