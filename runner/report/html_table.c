/* html_table.c - the HTML tables' one writer (html_table.h): each layout's
 * opening, closing and line ends in a table, the rows' structure here. */
#include "report/html_table.h"
#include "report/svg_draw.h"

static const struct {
	const char *open;  /* through <thead> */
	const char *close; /* after </thead> or </tbody> */
	bool head_lines;   /* a head row ends its line */
	bool cell_lines;   /* a cell ends its line */
} layouts[] = {
	[HTML_TABLE_MARKDOWN] = { "<div class=\"table\"><table>\n<thead>\n", "</table></div>\n",
				  true, false },
	[HTML_TABLE_DEVICES] = { "<div class=\"table\"><table>\n<thead>", "</table></div>\n", false,
				 false },
	[HTML_TABLE_COMPARE] = { "<table>\n<thead>", "\n</table>\n", false, false },
	[HTML_TABLE_FLEET] = { "<table class=\"fleet-dist\">\n<thead>", "\n</table>\n", false,
			       true },
};

void html_table_open(struct html_table *t, FILE *out, enum html_table_layout layout)
{
	t->out = out;
	t->layout = layout;
	t->body = false;
	fputs(layouts[layout].open, out);
}

void html_table_row(struct html_table *t, size_t n, size_t th, html_cell_fn *put, const void *ctx)
{
	fputs("<tr>", t->out);
	for (size_t i = 0; i < n; i++) {
		const char *tag = t->body && i >= th ? "td" : "th";
		fprintf(t->out, "<%s>", tag);
		put(t->out, i, ctx);
		fprintf(t->out, layouts[t->layout].cell_lines ? "</%s>\n" : "</%s>", tag);
	}
	fputs(t->body || layouts[t->layout].head_lines ? "</tr>\n" : "</tr>", t->out);
}

static void xml_cell(FILE *out, size_t i, const void *ctx)
{
	svg_put_xml(out, ((const char *const *)ctx)[i]);
}

void html_table_texts(struct html_table *t, const char *const *cells, size_t n, size_t th)
{
	html_table_row(t, n, th, xml_cell, cells);
}

void html_table_body(struct html_table *t)
{
	fputs("</thead>\n<tbody>\n", t->out);
	t->body = true;
}

void html_table_close(struct html_table *t)
{
	fputs(t->body ? "</tbody>" : "</thead>", t->out);
	fputs(layouts[t->layout].close, t->out);
}
