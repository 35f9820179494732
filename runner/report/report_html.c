/* report_html.c - report.html: the page, its style and its table of parts
 * (see report_html.h).  A part is one function: a Markdown writer whose text
 * is formatted here, or an HTML writer whose output goes in as it is. */
#include "report/report_html.h"

#include <stdlib.h>
#include <string.h>

#include "lib/lib.h"
#include "report/html_table.h"
#include "report/recommend_md.h"
#include "report/report_charts.h"
#include "report/report_format.h"
#include "report/summary.h"
#include "run/run.h"

/* One part of the page, in an <article id="ID">: exactly one of markdown
 * (formatted, charts inlined) and html (written as it is) is set. */
struct html_part {
	const char *id;
	report_render_fn *markdown;
	report_render_fn *html;
};

static int html_devices(FILE *out, json_t *const *runs, size_t nruns);

/* The page's parts in order.  A new part (a comparison, a fleet view) is
 * one line here. */
static const struct html_part html_parts[] = {
	{ "summary", summary_write, NULL },
	{ "recommendation", recommend_md_write, NULL },
	{ "devices", NULL, html_devices },
};

/* Light and dark by the reader's setting, print in black on white; a chart
 * keeps its own white page in every mode, so its colours stay readable. */
static const char html_style[] =
	":root{color-scheme:light dark;--fg:#1b1b1b;--bg:#fff;--muted:#595959;--rule:#d0d0d0;"
	"--head:#f1f3f5;--quote:#f5f7fa;--accent:#1f5fa8}\n"
	"@media (prefers-color-scheme:dark){:root{--fg:#e4e6ea;--bg:#15171b;--muted:#a9adb4;"
	"--rule:#3b3f47;--head:#23262c;--quote:#1d2026;--accent:#82b4f0}}\n"
	"body{margin:0;background:var(--bg);color:var(--fg);"
	"font:15px/1.5 system-ui,-apple-system,'Segoe UI',sans-serif}\n"
	"main{max-width:1000px;margin:0 auto;padding:12px 24px 48px}\n"
	"h1{font-size:1.6em;margin:.5em 0}\n"
	"h2{font-size:1.3em;margin-top:1.5em;padding-bottom:.2em;border-bottom:1px solid "
	"var(--rule)}\n"
	"h3{font-size:1.08em;margin-top:1.2em}\n"
	".table{overflow-x:auto}\n"
	"table{border-collapse:collapse;margin:.6em 0;font-size:.9em}\n"
	"th,td{border:1px solid var(--rule);padding:4px 8px;text-align:left;vertical-align:top}\n"
	"thead th{background:var(--head)}\n"
	"td{font-variant-numeric:tabular-nums}\n"
	"blockquote{margin:.8em 0;padding:.4em 1em;border-left:4px solid var(--accent);"
	"background:var(--quote)}\n"
	"blockquote p{margin:.2em 0}\n"
	"code,pre{font-family:ui-monospace,monospace;font-size:.9em}\n"
	"a{color:var(--accent)}\n"
	"figure.chart{margin:1em 0}\n"
	"figure.chart svg{display:block;max-width:100%;height:auto;border-radius:4px;"
	"outline:1px solid var(--rule)}\n"
	"figcaption{color:var(--muted);font-size:.85em;margin-top:.3em}\n"
	"@page{margin:12mm}\n"
	"@media print{:root{--fg:#000;--bg:#fff;--muted:#444;--rule:#bbb;--head:#eee;"
	"--quote:#f4f4f4;--accent:#000}\n"
	"main{max-width:none;padding:0}\n"
	"article+article,section+section{break-before:page}\n"
	"figure.chart,table,blockquote,h3{break-inside:avoid}\n"
	"h2,h3{break-after:avoid}\n"
	".table{overflow:visible}}\n";

/* The parts' inputs, for the hooks. */
struct html_ctx {
	json_t *const *runs;
	size_t nruns;
};

/* What render writes for the runs, as a malloc'd string, or NULL. */
static char *render_to_memory(report_render_fn *render, json_t *const *runs, size_t nruns)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	if (!mem)
		return NULL;
	int rc = render(mem, runs, nruns);
	if (fclose(mem) || rc) {
		free(text);
		return NULL;
	}
	return text;
}

/* The SVG after its XML prolog: inline SVG in HTML takes none. */
static const char *without_prolog(const char *svg)
{
	const char *end;
	if (strncmp(svg, "<?xml", 5) || !(end = strstr(svg, "?>")))
		return svg;
	end += 2;
	return end + strspn(end, "\r\n");
}

/* ![alt](chart.svg): the chart drawn inline by the writer of its file, in
 * a figure named after the file; -1 (the alt text instead) for a name no
 * writer draws. */
static int inline_chart(void *ctx, FILE *out, const char *alt, const char *target)
{
	const struct html_ctx *c = ctx;
	report_render_fn *render = report_chart_named(target);
	size_t n = strlen(target);
	char *svg;
	if (!render || !(svg = render_to_memory(render, c->runs, c->nruns)))
		return -1;
	fputs("<figure class=\"chart\" data-artifact=\"", out);
	report_html_text(out, target, n);
	fputs("\">\n", out);
	fputs(without_prolog(svg), out);
	fputs("<figcaption>", out);
	report_html_text(out, alt, strlen(alt));
	fputs("</figcaption>\n</figure>\n", out);
	free(svg);
	return 0;
}

/* A link to another report file is a link to its part of this page, if it
 * has one; the page links nowhere else. */
static const char *in_page_link(void *ctx, const char *target)
{
	(void)ctx;
	if (!strcmp(target, artifacts_name(ARTIFACT_RECOMMEND)))
		return "#recommendation";
	return NULL;
}

/* A row of the devices table: the names (d NULL) or a device's, after
 * its run's number when there are several runs. */
struct device_row {
	const json_t *d;
	bool runs;  /* several runs: a column for the run */
	size_t run; /* 1-based */
};

static const char *const device_heads[] = { "Run", "Label", "Path", "Model", "Serial", "Volume" };
/* The device's keys under device_heads[1...]. */
static const char *const device_keys[] = { "label", "path", "model", "serial", "volume_id" };

static void device_cell(FILE *out, size_t i, const void *ctx)
{
	const struct device_row *r = ctx;
	size_t k = i + !r->runs; /* the column of device_heads */
	const char *v;
	if (r->d && k == 0) {
		fprintf(out, "%zu", r->run);
		return;
	}
	v = !r->d ? device_heads[k] : json_string_value(json_object_get(r->d, device_keys[k - 1]));
	v = v ? v : REPORT_MISSING;
	report_html_text(out, v, strlen(v));
}

/* The devices each run measured, in the words the device and the config
 * gave, every one escaped. */
static int html_devices(FILE *out, json_t *const *runs, size_t nruns)
{
	struct html_table t;
	struct device_row head = { NULL, nruns > 1, 0 };
	const size_t n = ARRAY_SIZE(device_keys) + (nruns > 1);
	size_t i;
	fputs("<section>\n<h2>Devices</h2>\n", out);
	html_table_open(&t, out, HTML_TABLE_DEVICES);
	html_table_row(&t, n, 0, device_cell, &head);
	html_table_body(&t);
	for (size_t r = 0; r < nruns; r++) {
		struct device_row row = { NULL, nruns > 1, r + 1 };
		json_array_foreach(json_object_get(runs[r], RESULTS_KEY_DEVICES), i, row.d)
			html_table_row(&t, n, 0, device_cell, &row);
	}
	html_table_close(&t);
	fputs("</section>\n", out);
	return ferror(out) ? -1 : 0;
}

/* One part in its article; a part with nothing to say is left out. */
static int write_part(FILE *out, const struct html_part *p, struct html_ctx *c)
{
	struct report_html_hooks hooks = { c, inline_chart, in_page_link };
	char *text = render_to_memory(p->markdown ? p->markdown : p->html, c->runs, c->nruns);
	int rc = 0;
	if (!text)
		return -1;
	if (text[0]) {
		fprintf(out, "<article id=\"%s\">\n", p->id);
		if (p->markdown)
			rc = report_html_markdown(out, text, &hooks);
		else
			fputs(text, out);
		fputs("</article>\n", out);
	}
	free(text);
	return rc;
}

int report_html_page(FILE *out, const char *title, int (*body)(FILE *, const void *),
		     const void *ctx)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<meta name=\"color-scheme\" content=\"light dark\">\n"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	      "style-src 'unsafe-inline'\">\n"
	      "<title>",
	      out);
	report_html_text(out, title, strlen(title));
	fprintf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<main>\n", html_style);
	int rc = body(out, ctx);
	fputs("</main>\n</body>\n</html>\n", out);
	return rc || fflush(out) || ferror(out) ? -1 : 0;
}

/* The run's parts in order, each in its article. */
static int write_parts(FILE *out, const void *ctx)
{
	struct html_ctx c = *(const struct html_ctx *)ctx;
	int rc = 0;
	for (size_t i = 0; !rc && i < ARRAY_SIZE(html_parts); i++)
		rc = write_part(out, &html_parts[i], &c);
	return rc;
}

int report_html_write(FILE *out, json_t *const *runs, size_t nruns)
{
	struct html_ctx c = { runs, nruns };
	return report_html_page(out, "EBS benchmark report", write_parts, &c);
}
