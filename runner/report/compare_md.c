/* compare_md.c - `ebsbench compare` as Markdown (stdout, or compare.md):
 * compare_layout's parts as headings, bullets and pipe tables. */
#include "report/compare.h"

#include <stdbool.h>
#include <stdio.h>

/* "## text" and a blank line: every block ends with its own. */
static void md_heading(FILE *out, const char *text)
{
	fprintf(out, "## %s\n\n", text);
}

/* A paragraph and the blank line after it. */
static void md_paragraph(FILE *out, const char *text)
{
	fprintf(out, "%s\n\n", text ? text : "");
}

/* A bullet. */
static void md_item(FILE *out, const char *text, bool first)
{
	(void)first;
	fprintf(out, "- %s\n", text ? text : "");
}

/* A blank line ends a Markdown list. */
static void md_list_end(FILE *out)
{
	fputc('\n', out);
}

/* A cell's text with "|" escaped, so it cannot split the row. */
static void md_cell(FILE *out, const char *text)
{
	for (const char *p = text ? text : ""; *p; p++) {
		if (*p == '|')
			fputc('\\', out);
		fputc(*p, out);
	}
}

/* A pipe-table row; after the header its rule. */
static void md_row(FILE *out, const char *const *cells, size_t n, bool header)
{
	for (size_t i = 0; i < n; i++) {
		fputs("| ", out);
		md_cell(out, cells[i]);
		fputc(' ', out);
	}
	fputs("|\n", out);
	if (!header)
		return;
	for (size_t i = 0; i < n; i++)
		fputs("|---", out);
	fputs("|\n", out);
}

/* A blank line ends a table too. */
static void md_table_end(FILE *out)
{
	fputc('\n', out);
}

static const struct compare_format md_format = { md_heading,  md_paragraph, md_item,
						 md_list_end, md_row,	    md_table_end };

int compare_md_write(FILE *out, const json_t *doc)
{
	fputs("# ebsbench compare: B against A\n\n", out);
	compare_layout(out, doc, &md_format);
	return fflush(out) || ferror(out) ? -1 : 0;
}
