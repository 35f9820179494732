/* md_table.c - Markdown text and pipe-table rows with one escaping rule
 * (md_table.h): what came from a device, a config or a sentence shows as
 * text, never as markup that opens HTML, splits a cell or ends a row. */
#include "report/md_table.h"

void md_text(FILE *out, const char *text)
{
	for (; text && *text; text++) {
		if (*text == '\\' || *text == '|')
			fputc('\\', out);
		if (*text == '<')
			fputs("&lt;", out);
		else if (*text == '&')
			fputs("&amp;", out);
		else if (*text == '\n' || *text == '\r')
			fputc(' ', out);
		else
			fputc(*text, out);
	}
}

void md_table_row(FILE *out, const char *const *cells, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		fputs("| ", out);
		md_text(out, cells[i]);
		fputc(' ', out);
	}
	fputs("|\n", out);
}

void md_table_rule(FILE *out, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fputs("|---", out);
	fputs("|\n", out);
}

void md_table_head(FILE *out, const char *const *names, size_t n)
{
	md_table_row(out, names, n);
	md_table_rule(out, n);
}
