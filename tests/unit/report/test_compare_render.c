/* test_compare_render.c - compare.md and report.html's comparison section
 * from one document (seed 000 against a copy with 5 % more gp3 randread
 * IOPS and its gp2 cliff 10 s later): every verdict and sentence as the
 * numbers say, Markdown cells that cannot split a row, HTML escaped. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "analysis/analysis.h"
#include "report/compare.h"
#include "report/report.h"
#include "results/results.h"

#define SEED "tests/unit/fixtures/results-seed000.json"
#define EN_DASH "\xe2\x80\x93"

/* results_phase, writable: the copies are changed here. */
static json_t *phase_of(json_t *run, const char *phase, const char *device)
{
	return (json_t *)results_phase(run, phase, device);
}

/* B: gp3's randread 5 % up, gp2's cliff at 2,010 s, its label odd. */
static json_t *document(void)
{
	struct ebs_prices prices = ebs_prices_default();
	json_t *a = json_load_file(SEED, 0, NULL), *b = json_load_file(SEED, 0, NULL), *v;
	json_t *gp3 = json_object_get(phase_of(b, "randread", "gp3"), "iops_series");
	json_t *gp2 = json_object_get(phase_of(b, "randread", "gp2"), "iops_series");
	size_t i;
	json_array_foreach(gp3, i, v)
		json_array_set_new(gp3, i, json_real(json_number_value(v) + 150));
	json_array_foreach(gp2, i, v) json_array_set_new(gp2, i,
							 json_real(i == 0     ? 5997
								   : i < 2010 ? 3001
									      : 300));
	json_object_set_new(json_object_get(b, "environment"), "instance_type",
			    json_string("m5.<large>|&"));
	analysis_build(a, &prices);
	analysis_build(b, &prices);
	json_t *doc = compare_build(a, b, "runs/a", "runs/b");
	json_decref(a);
	json_decref(b);
	return doc;
}

static char *render(int (*writer)(FILE *, const json_t *), const json_t *doc)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f || writer(f, doc))
		return NULL;
	fclose(f);
	return text;
}

static void markdown(struct checks *checks)
{
	json_t *doc = document();
	char *md = render(compare_md_write, doc);
	CHECK(md != NULL);
	if (!md)
		return;
	/* Flat series: intervals of no width, apart by 150 or the same. */
	CHECK(strstr(md,
		     "| gp3 | randread | IOPS | 3,001 (3,001 " EN_DASH
		     " 3,001) | 3,151 (3,151 " EN_DASH " 3,151) | +150 IOPS (+5.0 %) | higher |"));
	CHECK(strstr(md, "| gp2 | randread (burst) | IOPS | 3,001 (3,001 " EN_DASH
			 " 3,001) | 3,001 (3,001 " EN_DASH
			 " 3,001) | +0 IOPS (+0.0 %) | not significant |"));
	CHECK(strstr(md, "- gp2: the cliff came at 2000 s in A and 2010 s in B: 10 s later in B, "
			 "more than the resolution of one window (1 s)."));
	/* The instance type's pipe, '<' and '&' are escaped (md_table.c), in a
	 * cell and in a sentence alike: no new cell, no tag, no entity. */
	CHECK(strstr(md, "| instance type | m5.xlarge | m5.&lt;large>\\|&amp; |"));
	CHECK(strstr(md, "- A ran on instance type m5.xlarge, B on m5.&lt;large>\\|&amp;"));
	CHECK(strstr(md, "batch means"));
	free(md);
	json_decref(doc);
}

static void html(struct checks *checks)
{
	json_t *doc = document();
	char *h = render(compare_html_write, doc);
	CHECK(h != NULL);
	if (!h)
		return;
	CHECK(!strncmp(h, "<section class=\"ebsbench-compare\">", 34));
	CHECK(strstr(h, "</section>\n") && !strstr(strstr(h, "</section>"), "<table"));
	CHECK(strstr(h, "<td>m5.&lt;large&gt;|&amp;</td>"));
	CHECK(!strstr(h, "<large>"));
	CHECK(strstr(h, "<td>gp3</td><td>randread</td><td>IOPS</td><td>3,001 (3,001 " EN_DASH
			" 3,001)</td><td>3,151 (3,151 " EN_DASH
			" 3,151)</td><td>+150 IOPS (+5.0 %)</td>"
			"<td>higher</td>"));
	/* Every list and table closes. */
	size_t ul = 0, ulc = 0, tab = 0, tabc = 0;
	for (const char *p = h; (p = strstr(p, "<ul>")); p++)
		ul++;
	for (const char *p = h; (p = strstr(p, "</ul>")); p++)
		ulc++;
	for (const char *p = h; (p = strstr(p, "<table>")); p++)
		tab++;
	for (const char *p = h; (p = strstr(p, "</table>")); p++)
		tabc++;
	CHECK(ul == 2 && ulc == 2);
	CHECK(tab == 2 && tabc == 2);
	free(h);
	json_decref(doc);
}

CHECK_MAIN(markdown, html)
