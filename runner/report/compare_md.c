/* compare_md.c - `ebsbench compare` as Markdown (stdout, or compare.md):
 * compare_layout's parts as headings, bullets and pipe tables, every text
 * through md_table.c's escaping (labels and sentences name devices). */
#include "report/compare.h"
#include "report/md_table.h"

#include <stdbool.h>
#include <stdio.h>

/* "## text" and a blank line: every block ends with its own. */
static void md_heading(FILE *out, const char *text)
{
	fputs("## ", out);
	md_text(out, text);
	fputs("\n\n", out);
}

/* A paragraph and the blank line after it. */
static void md_paragraph(FILE *out, const char *text)
{
	md_text(out, text);
	fputs("\n\n", out);
}

/* A bullet. */
static void md_item(FILE *out, const char *text, bool first)
{
	(void)first;
	fputs("- ", out);
	md_text(out, text);
	fputc('\n', out);
}

/* A blank line ends a Markdown list. */
static void md_list_end(FILE *out)
{
	fputc('\n', out);
}

/* A pipe-table row (md_table.c's escaping); after the header its rule. */
static void md_row(FILE *out, const char *const *cells, size_t n, bool header)
{
	md_table_row(out, cells, n);
	if (header)
		md_table_rule(out, n);
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
