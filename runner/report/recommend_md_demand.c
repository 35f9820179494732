/* recommend_md_demand.c - the files of `recommend --demand --out DIR`
 * beside the apply files: recommend.md with a chart per trace, the charts
 * (svg_demand.c), and report.html, the same Markdown as HTML with the
 * charts inline (report_html_markdown), so the two cannot disagree. */
#include "report/recommend_md.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/lib.h"
#include "report/report_html.h"
#include "report/svg.h"

struct demand_page {
	const struct demand_answer *a;
	const struct demand_trace *const *traces;
	size_t n;
	const char *md;
};

/* The chart a Markdown image names, inline, without its XML prolog. */
static int inline_chart(void *ctx, FILE *out, const char *alt, const char *target)
{
	const struct demand_page *pg = ctx;
	(void)alt;
	for (size_t i = 0; i < pg->n; i++) {
		char name[64], *svg = NULL;
		size_t len = 0;
		recommend_demand_chart_name(pg->a[i].rec.label, name, sizeof(name));
		if (strcmp(name, target))
			continue;
		FILE *m = open_memstream(&svg, &len);
		if (!m)
			return -1;
		int rc = svg_demand_chart(m, pg->traces[i], &pg->a[i]);
		rc |= fclose(m);
		const char *body = svg ? strstr(svg, "<svg") : NULL;
		if (!rc && body)
			fprintf(out, "<figure>%s</figure>\n", body);
		free(svg);
		return rc || !body ? -1 : 0;
	}
	return 0;
}

static int page_body(FILE *out, const void *ctx)
{
	const struct demand_page *pg = ctx;
	struct report_html_hooks hooks = { .ctx = (void *)pg, .image = inline_chart };
	return report_html_markdown(out, pg->md, &hooks);
}

/* Opens dir/name for writing; NULL with the reason in err. */
static FILE *open_in(const char *dir, const char *name, char *path, size_t cap, char *err,
		     size_t errlen)
{
	FILE *f = NULL;
	if ((size_t)snprintf(path, cap, "%s/%s", dir, name) >= cap || !(f = fopen(path, "w")))
		error_set(err, errlen, "%s/%s: %s", dir, name, strerror(errno));
	return f;
}

/* Closes f after a write that returned wrote (0: written): 0, or -1 with
 * the reason when either failed (the file is closed either way). */
static int close_written(FILE *f, int wrote, const char *path, char *err, size_t errlen)
{
	int closed = fclose(f);
	if (wrote || closed)
		return error_set(err, errlen, "%s: write error", path);
	return 0;
}

int recommend_md_demand_write(const char *dir, const struct demand_answer *a,
			      const struct demand_trace *const *traces, size_t n,
			      const struct ebs_prices *prices, char *err, size_t errlen)
{
	char path[4096], name[64], *md = NULL;
	size_t len = 0;
	FILE *f, *m = open_memstream(&md, &len);

	if (!m)
		return error_set(err, errlen, "out of memory");
	recommend_md_demand(m, a, n, prices, true);
	if (fclose(m) || !md) {
		free(md);
		return error_set(err, errlen, "out of memory");
	}
	int rc = 0;
	if (!(f = open_in(dir, "recommend.md", path, sizeof(path), err, errlen)))
		rc = -1;
	else
		rc = close_written(f, fputs(md, f) < 0, path, err, errlen);
	for (size_t i = 0; !rc && i < n; i++) {
		recommend_demand_chart_name(a[i].rec.label, name, sizeof(name));
		if (!(f = open_in(dir, name, path, sizeof(path), err, errlen)))
			rc = -1;
		else
			rc = close_written(f, svg_demand_chart(f, traces[i], &a[i]), path, err,
					   errlen);
	}
	struct demand_page pg = { a, traces, n, md };
	if (!rc && !(f = open_in(dir, "report.html", path, sizeof(path), err, errlen)))
		rc = -1;
	else if (!rc)
		rc = close_written(f, report_html_page(f, "Demand recommendation", page_body, &pg),
				   path, err, errlen);
	free(md);
	return rc;
}
