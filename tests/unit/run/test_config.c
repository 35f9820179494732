/* test_config.c - the run config: its defaults, every key it reads, the
 * region's prices under any "prices" override, and its strictness: an
 * unknown key, a wrong type or a bad size is one line naming the key. */
#include <jansson.h>
#include <string.h>

#include "check.h"
#include "lib/lib.h"
#include "run/config.h"
#include "run/internal.h"

/* Parses a config document into c (after config_defaults); 0 or -1. */
static int config_of(struct run_config *c, const char *text, char *err, size_t errlen)
{
	json_error_t jerr;
	json_t *root = json_loads(text, 0, &jerr);
	int rc;

	config_defaults(c);
	err[0] = '\0';
	if (!root) {
		snprintf(err, errlen, "test document: %s", jerr.text);
		return -1;
	}
	rc = config_from_json(c, root, err, errlen);
	json_decref(root);
	return rc;
}

/* What a config of "{}" means: the EKS gp2/gp3 benchmark's settings. */
static void test_defaults(struct checks *checks)
{
	struct run_config c;
	char err[256];

	CHECK(config_of(&c, "{}", err, sizeof(err)) == 0);
	CHECK(!strcmp(c.region, "ap-northeast-2"));
	CHECK(!strcmp(c.ioengine, "io_uring"));
	CHECK(!strcmp(c.output_dir, "results"));
	CHECK_NEAR(c.time_scale, 1.0, 0);
	CHECK_EQ_U64(c.test_size, 8ull * 1024 * 1024 * 1024);
	CHECK_EQ_U64(c.device_count, 0);
	CHECK_EQ_U64(c.allow_count, 0);
	CHECK(c.phases == NULL);
	CHECK(c.upload.mode == UPLOAD_NONE);
	CHECK(!c.prices_overridden);
	CHECK(!strcmp(c.prices.region, "ap-northeast-2"));
	CHECK_NEAR(c.prices.type[EBS_GP2].gib_month, 0.114, 0);
	CHECK_NEAR(c.prices.type[EBS_GP3].iops_month, 0.0057, 0);
	config_free(&c);
}

static const char full_doc[] =
	"{\"devices\": [{\"volume_id\": \"vol-0abc\", \"label\": \"old\", \"type\": \"gp2\","
	"               \"size_gib\": 100},"
	"              {\"path\": \"/dev/nvme2n1\", \"type\": \"GP3\", \"size_gib\": 200,"
	"               \"iops\": 6000, \"throughput_mibs\": 250}],"
	" \"allow_destroy\": [\"vol-0abc\", \"/dev/loop3\"], \"accept_model\": \"QEMU NVMe Ctrl\","
	" \"time_scale\": 0.01, \"test_size\": \"16MiB\", \"ioengine\": \"libaio\","
	" \"output_dir\": \"/tmp/out\", \"phases\": [{\"phase\": \"randread\"}, {\"phase\": "
	"\"lat\"}],"
	" \"environment\": {\"instance_type\": \"m5.xlarge\", \"instance_id\": \"i-0123\","
	"                   \"zone\": \"ap-northeast-2a\", \"image_digest\": \"sha256:ab\"}}";

/* Every key lands where the run reads it. */
static void test_every_key(struct checks *checks)
{
	struct run_config c;
	char err[256];

	if (!CHECK(config_of(&c, full_doc, err, sizeof(err)) == 0)) {
		fprintf(stderr, "%s\n", err);
		return;
	}
	CHECK_EQ_U64(c.device_count, 2);
	CHECK(!strcmp(c.devices[0].volume_id, "vol-0abc") && !c.devices[0].path[0]);
	CHECK(!strcmp(c.devices[0].label, "old"));
	CHECK(c.devices[0].has_type && c.devices[0].type == EBS_GP2);
	CHECK_NEAR(c.devices[0].size_gib, 100, 0);
	CHECK_NEAR(c.devices[0].iops, 0, 0); /* 0: the type's own */
	CHECK(!strcmp(c.devices[1].path, "/dev/nvme2n1") && !c.devices[1].volume_id[0]);
	CHECK(!c.devices[1].label[0]);
	CHECK(c.devices[1].type == EBS_GP3); /* any case */
	CHECK_NEAR(c.devices[1].iops, 6000, 0);
	CHECK_NEAR(c.devices[1].throughput_mibs, 250, 0);
	CHECK_EQ_U64(c.allow_count, 2);
	CHECK(!strcmp(c.allow_destroy[1], "/dev/loop3"));
	CHECK(!strcmp(c.accept_model, "QEMU NVMe Ctrl"));
	CHECK_NEAR(c.time_scale, 0.01, 0);
	CHECK_EQ_U64(c.test_size, 16ull << 20);
	CHECK(!strcmp(c.ioengine, "libaio"));
	CHECK(!strcmp(c.output_dir, "/tmp/out"));
	CHECK(json_array_size(c.phases) == 2);
	CHECK(!strcmp(c.instance_type, "m5.xlarge") && !strcmp(c.instance_id, "i-0123"));
	CHECK(!strcmp(c.zone, "ap-northeast-2a") && !strcmp(c.image_digest, "sha256:ab"));
	config_free(&c);
	CHECK(c.phases == NULL);
}

/* Sizes as fio writes them: 8G, 8GiB, 8g and a plain byte count. */
static void test_sizes(struct checks *checks)
{
	static const struct {
		const char *doc;
		uint64_t bytes;
	} sizes[] = {
		{ "{\"test_size\": \"8G\"}", 8ull << 30 },
		{ "{\"test_size\": \"8GiB\"}", 8ull << 30 },
		{ "{\"test_size\": \"512k\"}", 512ull << 10 },
		{ "{\"test_size\": \"1t\"}", 1ull << 40 },
		{ "{\"test_size\": \"4096\"}", 4096 },
	};
	struct run_config c;
	char err[256];

	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
		CHECK(config_of(&c, sizes[i].doc, err, sizeof(err)) == 0);
		CHECK_EQ_U64(c.test_size, sizes[i].bytes);
		config_free(&c);
	}
}

/* A document the run refuses, and what its one-line error must name. */
struct refusal {
	const char *doc;
	const char *names;
};

static const struct refusal refusals[] = {
	{ "{\"bogus\": 1}", "unknown key 'bogus'" },
	{ "{\"timescale\": 0.01}", "unknown key 'timescale'" },
	{ "{\"devices\": [{\"path\": \"/dev/x\", \"colour\": \"red\"}]}",
	  "unknown key 'devices[].colour'" },
	{ "{\"environment\": {\"owner\": \"me\"}}", "unknown key 'environment.owner'" },
	{ "{\"time_scale\": \"fast\"}", "'time_scale' must be a positive number" },
	{ "{\"time_scale\": 0}", "'time_scale' must be a positive number" },
	{ "{\"time_scale\": -1}", "'time_scale' must be a positive number" },
	{ "{\"test_size\": \"8X\"}", "'test_size' must be a size" },
	{ "{\"test_size\": \"G8\"}", "'test_size' must be a size" },
	{ "{\"test_size\": \"0\"}", "'test_size' must be a size" },
	{ "{\"test_size\": 8589934592}", "'test_size' must be a size" },
	{ "{\"test_size\": \"99999999999P\"}", "'test_size' must be a size" },
	{ "{\"region\": 7}", "'region' must be a non-empty string" },
	{ "{\"output_dir\": \"\"}", "'output_dir' must be a non-empty string" },
	{ "{\"ioengine\": [\"libaio\"]}", "'ioengine' must be a non-empty string" },
	{ "{\"accept_model\": \"0123456789012345678901234567890123456789012345678\"}",
	  "'accept_model' must be a non-empty string (under 48 bytes)" },
	{ "{\"devices\": {\"path\": \"/dev/x\"}}", "'devices' must be an array" },
	{ "{\"devices\": [\"/dev/x\"]}", "devices[0] must be an object" },
	{ "{\"devices\": [{\"label\": \"x\"}]}",
	  "devices[0] needs exactly one of 'path' and 'volume_id'" },
	{ "{\"devices\": [{\"path\": \"/dev/x\"}, {\"path\": \"/dev/y\", \"volume_id\": "
	  "\"vol-1\"}]}",
	  "devices[1] needs exactly one of 'path' and 'volume_id'" },
	{ "{\"devices\": [{\"path\": \"/dev/x\", \"type\": \"gp9\"}]}", "devices[].type must be" },
	{ "{\"devices\": [{\"path\": \"/dev/x\", \"size_gib\": \"100\"}]}",
	  "'devices[].size_gib' must be a positive number" },
	{ "{\"devices\": [{\"path\": \"/dev/x\", \"iops\": -3000}]}",
	  "'devices[].iops' must be a positive number" },
	{ "{\"allow_destroy\": \"vol-1\"}", "'allow_destroy' must be an array" },
	{ "{\"allow_destroy\": [\"\"]}", "'allow_destroy[]' must be a non-empty string" },
	{ "{\"prices\": {\"gp4.gib_month\": 1}}", "unknown price 'gp4.gib_month'" },
	{ "{\"prices\": {\"gp3.gib_month\": \"cheap\"}}", "price 'gp3.gib_month'" },
	{ "{\"prices\": [0.1]}", "'prices' must be an object" },
	{ "{\"phases\": []}", "'phases' has the wrong type" },
	{ "{\"phases\": {\"phase\": \"randread\"}}", "'phases' has the wrong type" },
	{ "{\"environment\": [\"m5.xlarge\"]}", "'environment' has the wrong type" },
	{ "{\"environment\": {\"zone\": 1}}", "'zone' must be a non-empty string" },
	{ "[{\"region\": \"us-east-1\"}]", "the document must be a JSON object" },
};

/* Each refusal: -1, one line, "config:" first, naming the key. */
static void test_strictness(struct checks *checks)
{
	for (size_t i = 0; i < ARRAY_SIZE(refusals); i++) {
		struct run_config c;
		char err[256];
		int rc = config_of(&c, refusals[i].doc, err, sizeof(err));

		if (!CHECK(rc == -1) || !CHECK(strstr(err, refusals[i].names) != NULL))
			fprintf(stderr, "  %s -> %d \"%s\"\n", refusals[i].doc, rc, err);
		CHECK(strncmp(err, "config: ", 8) == 0);
		CHECK(strchr(err, '\n') == NULL);
		config_free(&c);
	}
}

/* More devices than the run can hold is refused, not cut short. */
static void test_device_limit(struct checks *checks)
{
	char doc[2048] = "{\"devices\": [";
	struct run_config c;
	char err[256];

	for (int i = 0; i <= CONFIG_MAX_DEVICES; i++)
		snprintf(doc + strlen(doc), sizeof(doc) - strlen(doc), "%s{\"path\": \"/dev/d%d\"}",
			 i ? ", " : "", i);
	strcat(doc, "]}");
	CHECK(config_of(&c, doc, err, sizeof(err)) == -1);
	CHECK(strstr(err, "'devices' must be an array of at most 16") != NULL);
	config_free(&c);
}

/* The config's region picks the prices; "prices" overrides them in
 * whichever order the keys come; a region without a table knows no
 * price until the config gives one. */
static void test_region_prices(struct checks *checks)
{
	struct run_config c;
	char err[256];

	CHECK(config_of(&c, "{\"region\": \"us-east-1\"}", err, sizeof(err)) == 0);
	CHECK(!strcmp(c.region, "us-east-1") && !strcmp(c.prices.region, "us-east-1"));
	CHECK_NEAR(c.prices.type[EBS_GP2].gib_month, 0.10, 0);
	CHECK_NEAR(c.prices.type[EBS_GP3].gib_month, 0.08, 0);
	CHECK(!c.prices_overridden);
	config_free(&c);
	CHECK(config_of(&c, "{\"prices\": {\"gp3.gib_month\": 0.07}, \"region\": \"us-east-1\"}",
			err, sizeof(err)) == 0);
	CHECK_NEAR(c.prices.type[EBS_GP3].gib_month, 0.07, 0);
	CHECK_NEAR(c.prices.type[EBS_GP3].iops_month, 0.005, 0); /* us-east-1's own */
	CHECK(c.prices_overridden);
	config_free(&c);
	CHECK(config_of(&c, "{\"region\": \"eu-west-1\", \"prices\": {\"gp2.gib_month\": 0.11}}",
			err, sizeof(err)) == 0);
	CHECK(!strcmp(c.region, "eu-west-1"));
	CHECK_NEAR(c.prices.type[EBS_GP2].gib_month, 0.11, 0);
	CHECK(isnan(c.prices.type[EBS_GP3].gib_month)); /* never Seoul's */
	CHECK_NEAR(c.prices.type[EBS_GP3].iops_included, 3000, 0);
	config_free(&c);
	/* An empty "prices" overrides nothing. */
	CHECK(config_of(&c, "{\"prices\": {}}", err, sizeof(err)) == 0);
	CHECK(!c.prices_overridden);
	config_free(&c);
}

/* config_prices_apply counts what it set and stops at the first bad one. */
static void test_prices_apply(struct checks *checks)
{
	struct ebs_prices p = ebs_prices_default();
	json_t *obj =
		json_pack("{sfsf}", "io2.iops_month_over_32000", 0.04, "gp3.mibs_included", 250.0);
	unsigned count = 99;
	char err[256];

	CHECK(config_prices_apply(&p, obj, &count, err, sizeof(err)) == 0);
	CHECK_EQ_U64(count, 2);
	CHECK_NEAR(p.type[EBS_IO2].iops_month_over[0], 0.04, 0);
	CHECK_NEAR(p.type[EBS_GP3].mibs_included, 250, 0);
	json_decref(obj);
	obj = json_pack("{sf}", "gp3.iops", 0.01);
	CHECK(config_prices_apply(&p, obj, &count, err, sizeof(err)) == -1);
	CHECK(strstr(err, "'gp3.iops'") != NULL);
	json_decref(obj);
}

/* A file: the same parse; a broken one names the file and the line. */
static void test_load_file(struct checks *checks)
{
	char dir[64], path[128], err[512];
	struct run_config c;

	if (!CHECK(check_temp_dir(dir, sizeof(dir), "config")))
		return;
	CHECK(check_write_file(dir, "good.json",
			       "{\"region\": \"us-east-1\",\n \"time_scale\": 0.5}", path,
			       sizeof(path)));
	config_defaults(&c);
	CHECK(config_load_file(&c, path, err, sizeof(err)) == 0);
	CHECK(!strcmp(c.region, "us-east-1") && c.time_scale == 0.5);
	config_free(&c);
	CHECK(check_write_file(dir, "bad.json", "{\"region\": \"us-east-1\",\n \"time_scale\": }",
			       path, sizeof(path)));
	config_defaults(&c);
	CHECK(config_load_file(&c, path, err, sizeof(err)) == -1);
	CHECK(strstr(err, path) != NULL && strstr(err, "(line 2)") != NULL);
	config_free(&c);
	CHECK(check_write_file(dir, "strict.json", "{\"time_scale\": 1, \"timescale\": 2}", path,
			       sizeof(path)));
	config_defaults(&c);
	CHECK(config_load_file(&c, path, err, sizeof(err)) == -1);
	CHECK(strstr(err, "unknown key 'timescale'") != NULL);
	config_free(&c);
	snprintf(path, sizeof(path), "%s/missing.json", dir);
	config_defaults(&c);
	CHECK(config_load_file(&c, path, err, sizeof(err)) == -1);
	CHECK(strstr(err, path) != NULL);
	config_free(&c);
	check_remove_tree(dir);
}

/* A config text and the one line it is refused with, or NULL: taken. */
struct config_case {
	const char *doc, *message;
};

/* Each case parsed: refused with exactly its message, or taken. */
static void check_cases(struct checks *checks, const struct config_case *cases, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct run_config c;
		char err[256] = "";
		int rc = config_of(&c, cases[i].doc, err, sizeof(err));
		if (cases[i].message ? !CHECK(rc == -1 && !strcmp(err, cases[i].message))
				     : !CHECK(rc == 0))
			fprintf(stderr, "  case %zu: %s -> %d '%s'\n", i, cases[i].doc, rc, err);
		config_free(&c);
	}
}

/* Every number the config carries, just outside its range, is one line
 * naming the key, the value and the range (the EBS model's limits for a
 * volume's), and just inside it is taken. */
static void test_ranges(struct checks *checks)
{
	static const struct config_case cases[] = {
		{ "{\"devices\": [{\"path\": \"/d\", \"type\": \"gp2\", \"size_gib\": "
		  "22222222100}]}",
		  "config: 'devices[0].size_gib' is 22222222100, outside 1..16384 GiB for gp2" },
		{ "{\"devices\": [{\"path\": \"/d\", \"type\": \"gp2\", \"size_gib\": 16384}]}",
		  NULL },
		{ "{\"devices\": [{\"path\": \"/d\", \"size_gib\": 65537}]}",
		  "config: 'devices[0].size_gib' is 65537, outside 0..65536 GiB for any EBS type" },
		{ "{\"devices\": [{\"size_gib\": 124, \"type\": \"st1\", \"path\": \"/d\"}]}",
		  "config: 'devices[0].size_gib' is 124, outside 125..16384 GiB for st1" },
		{ "{\"devices\": [{\"path\": \"/d\", \"type\": \"gp3\", \"iops\": 2999}]}",
		  "config: 'devices[0].iops' is 2999, outside 3000..80000 IOPS for gp3" },
		{ "{\"devices\": [{\"path\": \"/d\", \"type\": \"gp3\", \"iops\": 80000}]}", NULL },
		{ "{\"devices\": [{\"path\": \"/d\", \"type\": \"io2\", \"iops\": 256001}]}",
		  "config: 'devices[0].iops' is 256001, outside 100..256000 IOPS for io2" },
		{ "{\"devices\": [{\"path\": \"/d\", \"iops\": 1e300}]}",
		  "config: 'devices[0].iops' is 1e+300, outside 0..256000 IOPS for any EBS type" },
		{ "{\"devices\": [{\"path\": \"/d\", \"type\": \"gp3\", \"throughput_mibs\": "
		  "124}]}",
		  "config: 'devices[0].throughput_mibs' is 124, outside 125..2000 MiB/s for gp3" },
		{ "{\"devices\": [{\"path\": \"/d\", \"type\": \"gp2\", \"throughput_mibs\": "
		  "251}]}",
		  "config: 'devices[0].throughput_mibs' is 251, outside 0..250 MiB/s for gp2" },
		{ "{\"devices\": [{\"path\": \"/a\"}, {\"path\": \"/b\", \"type\": \"sc1\", "
		  "\"size_gib\": 1e9}]}",
		  "config: 'devices[1].size_gib' is 1000000000, outside 125..16384 GiB for sc1" },
		{ "{\"time_scale\": 9e-7}",
		  "config: 'time_scale' is 9e-07, outside 0.000001..100" },
		{ "{\"time_scale\": 1e308}",
		  "config: 'time_scale' is 1e+308, outside 0.000001..100" },
		{ "{\"time_scale\": 0.000001}", NULL },
		{ "{\"time_scale\": 100}", NULL },
		{ "{\"test_size\": \"4095\"}",
		  "config: 'test_size' is 4095 bytes, outside 4 KiB..64 TiB" },
		{ "{\"test_size\": \"65T\"}",
		  "config: 'test_size' is 71468255805440 bytes, outside 4 KiB..64 TiB" },
		{ "{\"test_size\": \"64T\"}", NULL },
		{ "{\"prices\": {\"gp3.iops_month\": -0.005}}",
		  "config: 'prices.gp3.iops_month' is -0.005, outside 0..1000 USD" },
		{ "{\"prices\": {\"gp2.gib_month\": 1e30}}",
		  "config: 'prices.gp2.gib_month' is 1e+30, outside 0..1000 USD" },
		{ "{\"prices\": {\"gp2.gib_month\": 0}}", NULL },
		{ "{\"prices\": {\"gp3.iops_included\": 3000}}", NULL },
		{ "{\"prices\": {\"gp3.mibs_included\": 1e7}}",
		  "config: 'prices.gp3.mibs_included' is 10000000, outside 0..256000" },
	};
	check_cases(checks, cases, ARRAY_SIZE(cases));
}

/* A gp2's iops follow from its size: the figure `aws ec2 describe-volumes`
 * reports (3 per GiB, 100..16,000) is taken with its size, any other is
 * one line naming that figure; st1 and sc1 report none. */
static void test_size_derived_iops(struct checks *checks)
{
	static const struct config_case cases[] = {
		{ "{\"devices\": [{\"path\": \"/d\", \"type\": \"gp2\", \"size_gib\": 100, "
		  "\"iops\": 300}]}",
		  NULL },
		{ "{\"devices\": [{\"path\": \"/d\", \"type\": \"gp2\", \"size_gib\": 10, "
		  "\"iops\": 100}]}",
		  NULL },
		{ "{\"devices\": [{\"iops\": 16000, \"path\": \"/d\", \"type\": \"gp2\", "
		  "\"size_gib\": 6000}]}",
		  NULL },
		{ "{\"devices\": [{\"path\": \"/d\", \"type\": \"gp2\", \"size_gib\": 100, "
		  "\"iops\": 500}]}",
		  "config: 'devices[0].iops' is 500: a gp2 of 100 GiB has 300 IOPS (3 per GiB, "
		  "100..16000), what aws ec2 describe-volumes reports: give that or leave 'iops' "
		  "out" },
		{ "{\"devices\": [{\"path\": \"/d\", \"type\": \"gp2\", \"iops\": 300}]}",
		  "config: 'devices[0].iops' is 300: a gp2's IOPS follow from its size: give "
		  "'size_gib' with it, or leave 'iops' out" },
		{ "{\"devices\": [{\"path\": \"/d\", \"type\": \"st1\", \"size_gib\": 500, "
		  "\"iops\": 20}]}",
		  "config: 'devices[0].iops' is 20: st1's rate follows from its size (in MiB/s) "
		  "and "
		  "AWS documents no IOPS for it: leave 'iops' out" },
	};
	check_cases(checks, cases, ARRAY_SIZE(cases));
}

/* Row i of the key table as docs/run.md writes it into line[cap]. */
static void key_row(const struct config_key *k, char *line, size_t cap)
{
	char range[64] = "";
	if (k->range)
		snprintf(range, sizeof(range), "%s", k->range);
	else if (k->cap)
		snprintf(range, sizeof(range), "under %zu bytes", k->cap);
	snprintf(line, cap, "| `%s` | %s | %s | %s |", k->name, k->type, range, k->doc);
}

/* docs/run.md's table of config keys is the key table, row by row: a key
 * added, renamed or re-ranged in config.c fails here until the docs say
 * it (the expected row is printed, to paste). */
static void test_docs_key_table(struct checks *checks)
{
	static const char head[] = "| key | takes | range | what |";
	char text[1 << 17], row[512];
	FILE *f = fopen("docs/run.md", "r");
	size_t n = f ? fread(text, 1, sizeof(text) - 1, f) : 0;
	if (f)
		fclose(f);
	text[n] = '\0';
	char *at = strstr(text, head);
	if (!CHECK(at != NULL))
		return;
	at = strchr(strchr(at, '\n') + 1, '\n') + 1; /* past the |---| line */
	for (size_t i = 0; config_key_at(i); i++) {
		char *end = strchr(at, '\n');
		key_row(config_key_at(i), row, sizeof(row));
		if (!end ||
		    !CHECK((size_t)(end - at) == strlen(row) && !strncmp(at, row, strlen(row)))) {
			fprintf(stderr, "docs/run.md's key table, row %zu, should be:\n%s\n", i + 1,
				row);
			return;
		}
		at = end + 1;
	}
	CHECK(at[0] != '|'); /* no row the table does not have */
}

/* Every number the table bounds is refused just past its bound, with the
 * range the table states: the checks are the table's. */
static void test_table_bounds(struct checks *checks)
{
	for (size_t i = 0; config_key_at(i); i++) {
		const struct config_key *k = config_key_at(i);
		char doc[128], want[160], err[256];
		struct run_config c;
		if (!(k->hi > 0))
			continue;
		if (!strcmp(k->type, "size"))
			snprintf(doc, sizeof(doc), "{\"%s\": \"%.0f\"}", k->name, k->hi + 1);
		else
			snprintf(doc, sizeof(doc), "{\"%s\": %.17g}", k->name, k->hi * 1.5);
		CHECK(config_of(&c, doc, err, sizeof(err)) == -1);
		snprintf(want, sizeof(want), "outside %s", k->range);
		if (!CHECK(strstr(err, k->name) && strstr(err, want)))
			fprintf(stderr, "%s: %s\n", k->name, err);
		config_free(&c);
	}
}

CHECK_MAIN(test_defaults, test_every_key, test_sizes, test_strictness, test_device_limit,
	   test_region_prices, test_prices_apply, test_load_file, test_ranges,
	   test_size_derived_iops, test_docs_key_table, test_table_bounds)
