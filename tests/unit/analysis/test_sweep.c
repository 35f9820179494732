/* test_sweep.c - the model's line under the block-size sweep, on seed
 * 002's volumes: at qd1 a 16 KiB write of 1 ms is latency-bound at
 * 15.6 MiB/s (seed 002 measured 16.0 MB/s on gp3), a gp2 at its baseline
 * IOPS-bound, 1 MiB throughput-bound at the volume's 125 MiB/s (seed 002:
 * 149 MB/s = 142 MiB/s on a gp3 of 125, the 150 of its table), the
 * instance bound where it is the lowest; and analysis.devices[].sweep:
 * one object per sweep step, measured against that line with verdict.c's
 * words (the service time its mean slat plus its p50 clat), other phases
 * left out. */
#include <string.h>

#include "check.h"
#include "analysis/analysis.h"
#include "analysis/sweep.h"
#include "lib/lib.h"

static struct ebs_volume volume(enum ebs_type type)
{
	struct ebs_volume v;
	ebs_volume_init(&v, type, 100);
	return v;
}

/* Latency binds small blocks, throughput large ones (gp3 3,000 / 125). */
static void test_gp3_line(struct checks *checks)
{
	struct ebs_volume gp3 = volume(EBS_GP3);
	struct sweep_point p = sweep_predict(&gp3, 16 * KIB, 1e-3, true, NAN);
	CHECK_NEAR(p.latency_mibs, 15.625, 1e-9);
	CHECK_NEAR(p.iops_mibs, 3000 * 16.0 * KIB / MIB, 1e-9); /* 16 KiB: not merged */
	CHECK_NEAR(p.throughput_mibs, 125, 1e-9);
	CHECK_NEAR(p.predicted_mibs, 15.625, 1e-9);
	CHECK(p.bound == EBS_BOUND_LATENCY);
	/* 128 KiB sequential merges two to a 256 KiB unit: 6,000 I/O/s. */
	p = sweep_predict(&gp3, 128 * KIB, 1.25e-3, true, NAN);
	CHECK_NEAR(p.iops_mibs, 750, 1e-9);
	CHECK_NEAR(p.predicted_mibs, 100, 1e-9);
	CHECK(p.bound == EBS_BOUND_LATENCY);
	p = sweep_predict(&gp3, MIB, 7e-3, true, NAN);
	CHECK_NEAR(p.latency_mibs, 1 / 7e-3, 1e-9);
	CHECK_NEAR(p.predicted_mibs, 125, 1e-9);
	CHECK(p.bound == EBS_BOUND_VOLUME_THROUGHPUT);
	/* An instance below the volume's cap binds (m5.large's 81.25 MB/s). */
	p = sweep_predict(&gp3, MIB, 7e-3, true, 77.5);
	CHECK_NEAR(p.predicted_mibs, 77.5, 1e-9);
	CHECK(p.bound == EBS_BOUND_INSTANCE_THROUGHPUT);
	/* No service time: latency bounds nothing. */
	p = sweep_predict(&gp3, 16 * KIB, NAN, true, NAN);
	CHECK(isnan(p.latency_mibs));
	CHECK(p.bound == EBS_BOUND_VOLUME_IOPS);
	CHECK_NEAR(p.predicted_mibs, 46.875, 1e-9);
}

/* A 100 GiB gp2: its baseline 300 IOPS binds 16 KiB; with credits its
 * 3,000 burst leaves the latency to bind; its cap is 128 MiB/s. */
static void test_gp2_line(struct checks *checks)
{
	struct ebs_volume gp2 = volume(EBS_GP2);
	struct sweep_point p = sweep_predict(&gp2, 16 * KIB, 0.5e-3, false, NAN);
	CHECK_NEAR(p.iops_mibs, 300 * 16.0 * KIB / MIB, 1e-9);
	CHECK(p.bound == EBS_BOUND_VOLUME_IOPS);
	CHECK_NEAR(p.predicted_mibs, 4.6875, 1e-9);
	p = sweep_predict(&gp2, 16 * KIB, 0.5e-3, true, NAN);
	CHECK(p.bound == EBS_BOUND_LATENCY);
	CHECK_NEAR(p.predicted_mibs, 31.25, 1e-9);
	p = sweep_predict(&gp2, MIB, 5e-3, true, NAN);
	CHECK(p.bound == EBS_BOUND_VOLUME_THROUGHPUT);
	CHECK_NEAR(p.predicted_mibs, 128, 1e-9);
}

/* One phase record as `ebsbench run` writes it: bytes/s moved, p50 clat
 * and mean slat (its service time at qd1 is their sum). */
static json_t *record(const char *phase, const char *rw, double bs, double bytes_s, double p50_ns,
		      double slat_ns)
{
	bool write = !strcmp(rw, "write");
	json_t *dir = json_pack("{s:f,s:f,s:f,s:{s:{s:f}},s:{s:f}}", "iops", bytes_s / bs,
				"bw_bytes", bytes_s, "io_bytes", bytes_s * 30, "clat_ns",
				"percentile", "50.000000", p50_ns, "slat_ns", "mean", slat_ns);
	json_t *idle = json_pack("{s:i,s:i,s:i}", "iops", 0, "bw_bytes", 0, "io_bytes", 0);
	return json_pack("{s:s,s:s,s:i,s:i,s:n,s:i,s:f,s:s,s:i,s:{s:i,s:o,s:o},s:[]}", "phase",
			 phase, "device", "gp3", "started_ms", 1000, "ended_ms", 31000,
			 "idle_before_s", "iodepth", 1, "bs", bs, "rw", rw, "window_ms", 1000,
			 "job", "job_runtime", 30000, "read", write ? idle : dir, "write",
			 write ? dir : idle, "iops_series");
}

/* A gp3 run: the 16 KiB and 1 MiB writes as the model says, a plain qd1
 * phase between them, the read at half the cap. */
static json_t *sweep_run(void)
{
	json_t *phases = json_pack("[o,o,o,o]",
				   record("sweep", "write", 16 * KIB, 15.625 * MIB, 0.75e6, 0.25e6),
				   record("lat", "randread", 4 * KIB, 4 * KIB * 1000, 1e6, 0),
				   record("sweep", "write", MIB, 124 * MIB, 7e6, 0),
				   record("sweep", "read", 2 * MIB, 60 * MIB, 30e6, 0));
	return json_pack("{s:i,s:{s:f},s:{},s:[{s:s,s:s,s:{s:s,s:i}}],s:o}", "schema", 1, "plan",
			 "time_scale", 1.0, "environment", "devices", "label", "gp3", "kind", "ebs",
			 "volume", "type", "gp3", "size_gib", 100, "phases", phases);
}

static void test_sweep_in_the_analysis(struct checks *checks)
{
	json_t *run = sweep_run();
	struct ebs_prices prices = ebs_prices_default();
	CHECK(run != NULL);
	analysis_build(run, &prices);
	const json_t *dev =
		json_array_get(json_object_get(json_object_get(run, "analysis"), "devices"), 0);
	const json_t *sweep = json_object_get(dev, "sweep");
	CHECK_EQ_U64(json_array_size(sweep), 3); /* "lat" is not a step */
	const json_t *s16 = json_array_get(sweep, 0), *s1m = json_array_get(sweep, 1);
	const json_t *rd = json_array_get(sweep, 2);
	CHECK_NEAR(json_number_value(json_object_get(s16, "bs")), 16 * KIB, 1e-9);
	CHECK_NEAR(json_number_value(json_object_get(s16, "measured_mibs")), 15.625, 1e-9);
	CHECK_NEAR(json_number_value(json_object_get(s16, "predicted_mibs")), 15.625, 1e-6);
	CHECK_NEAR(json_number_value(json_object_get(s16, "service_time_ms")), 1, 1e-9);
	CHECK(!strcmp(json_string_value(json_object_get(s16, "bound")),
		      ebs_bound_name(EBS_BOUND_LATENCY)));
	CHECK(!strcmp(json_string_value(json_object_get(s16, "verdict")), "as predicted"));
	CHECK_NEAR(json_number_value(json_object_get(json_object_get(s16, "bounds"), "iops_mibs")),
		   46.875, 1e-9);
	/* 1 MiB in 7 ms, but the latency bound is the device's per-I/O time,
	 * the 16 KiB write's 1 ms: 1,000 MiB/s, so the cap binds. */
	CHECK_NEAR(json_number_value(json_object_get(s1m, "service_time_ms")), 7, 1e-9);
	CHECK_NEAR(
		json_number_value(json_object_get(json_object_get(s1m, "bounds"), "latency_mibs")),
		1000, 1e-6);
	CHECK(!strcmp(json_string_value(json_object_get(s1m, "bound")), "volume throughput"));
	CHECK_NEAR(json_number_value(json_object_get(s1m, "predicted_mibs")), 125, 1e-9);
	CHECK(!strcmp(json_string_value(json_object_get(s1m, "verdict")), "as predicted"));
	CHECK(!strcmp(json_string_value(json_object_get(rd, "rw")), "read"));
	CHECK(!strcmp(json_string_value(json_object_get(rd, "verdict")), "worse"));
	/* Its finding: both ends of the writes, the bound at each, the count. */
	bool said = false;
	size_t i;
	const json_t *line;
	json_array_foreach(json_object_get(json_object_get(run, "analysis"), "findings"), i, line)
	{
		said = said ||
		       !strcmp(json_string_value(line),
			       "gp3 sweep (qd1, O_DIRECT): 15.6 MiB/s at 16 KiB growing to "
			       "124.0 MiB/s at 1 MiB; the model's line is bound by latency "
			       "(iodepth / service time) at 16 KiB and by volume throughput at "
			       "1 MiB; 2 of 3 steps as predicted.");
	}
	CHECK(said);
	/* One opinion per step: the phase list carries the sweep's verdicts and
	 * the findings no per-step sentence of another model. */
	size_t k = 0;
	const json_t *v;
	json_array_foreach(json_object_get(dev, "phases"), i, v)
	{
		if (strcmp(json_string_value(json_object_get(v, "phase")), "sweep"))
			continue;
		const json_t *step = json_array_get(json_object_get(dev, "sweep"), k++);
		CHECK(json_equal(json_object_get(v, "verdict"), json_object_get(step, "verdict")));
		CHECK(json_equal(json_object_get(v, "predicted"),
				 json_object_get(step, "predicted_mibs")));
	}
	CHECK_EQ_U64(k, 3);
	json_array_foreach(json_object_get(json_object_get(run, "analysis"), "findings"), i, line)
		CHECK(strncmp(json_string_value(line), "gp3 sweep: ", 11) != 0);
	json_decref(run);
}

/* A device that ran no sweep has no "sweep" key at all. */
static void test_no_sweep_no_line(struct checks *checks)
{
	json_t *run = sweep_run();
	struct ebs_prices prices = ebs_prices_default();
	json_array_remove(json_object_get(run, "phases"), 3);
	json_array_remove(json_object_get(run, "phases"), 2);
	json_array_remove(json_object_get(run, "phases"), 0);
	analysis_build(run, &prices);
	const json_t *dev =
		json_array_get(json_object_get(json_object_get(run, "analysis"), "devices"), 0);
	CHECK(dev != NULL && json_object_get(dev, "sweep") == NULL);
	json_decref(run);
}

CHECK_MAIN(test_gp3_line, test_gp2_line, test_sweep_in_the_analysis, test_no_sweep_no_line)
