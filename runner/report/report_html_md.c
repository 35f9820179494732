/* report_html_md.c - the report's Markdown formatted as HTML: the summary's
 * and the recommendation's own words, never reworded (see report_html.h).
 * It reads only the Markdown those writers produce, line by line. */
#include "lib/lib.h"
#include "report/html_table.h"
#include "report/report_html.h"

#include <stdbool.h>
#include <string.h>

/* The block a line is in; one closes before another opens. */
enum md_block { MD_NONE, MD_PARA, MD_QUOTE, MD_LIST, MD_THEAD, MD_TBODY, MD_CODE };

struct md_state {
	FILE *out;
	const struct report_html_hooks *hooks;
	enum md_block block;
	bool section;		 /* a "## " part's <section> is open */
	struct html_table table; /* MD_THEAD or MD_TBODY's */
};

/* What closes each block. */
static const char *const md_closer[] = {
	[MD_NONE] = "",
	[MD_PARA] = "</p>\n",
	[MD_QUOTE] = "</p></blockquote>\n",
	[MD_LIST] = "</ul>\n",
	[MD_THEAD] = "", /* html_table_close */
	[MD_TBODY] = "",
	[MD_CODE] = "</code></pre>\n",
};

/* The entities the Markdown writers put in (md_table.c's escaping): "&lt;"
 * for '<' and "&amp;" for '&'; any other '&' is text. */
static const char *const md_entities[] = { "&lt;", "&amp;" };

/* The length of such an entity at s, or 0: it passes through as it is. */
static size_t entity_len(const char *s, const char *end)
{
	for (size_t i = 0; i < ARRAY_SIZE(md_entities); i++) {
		size_t n = strlen(md_entities[i]);
		if ((size_t)(end - s) >= n && !memcmp(s, md_entities[i], n))
			return n;
	}
	return 0;
}

void report_html_text(FILE *out, const char *text, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)text[i];
		if (c == '&')
			fputs("&amp;", out);
		else if (c == '<')
			fputs("&lt;", out);
		else if (c == '>')
			fputs("&gt;", out);
		else if (c == '"')
			fputs("&quot;", out);
		else if (c == '\'')
			fputs("&#39;", out);
		else
			fputc(c < 0x20 ? ' ' : c, out);
	}
}

/* "](target)" after a link's or image's text (s is past its '['): the
 * text ends at *text_end, the target is [*target, *target_end); returns
 * the end of the whole, or NULL when s starts no link. */
static const char *link_parts(const char *s, const char *end, const char **text_end,
			      const char **target, const char **target_end)
{
	const char *close = memchr(s, ']', (size_t)(end - s));
	if (!close || close + 1 >= end || close[1] != '(')
		return NULL;
	const char *paren = memchr(close + 2, ')', (size_t)(end - close - 2));
	if (!paren)
		return NULL;
	*text_end = close;
	*target = close + 2;
	*target_end = paren;
	return paren + 1;
}

/* Copies [s, end) into buf as a string, cut to fit. */
static const char *span_copy(char *buf, size_t len, const char *s, const char *end)
{
	size_t n = (size_t)(end - s) < len - 1 ? (size_t)(end - s) : len - 1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return buf;
}

static void inline_span(struct md_state *st, const char *s, const char *end);

/* ![alt](target): the caller's block for it (a chart): 0, or -1 when the
 * caller draws none (the alt text goes in instead). */
static int draw_image(struct md_state *st, const char *alt, const char *alt_end, const char *target,
		      const char *target_end)
{
	char a[256], t[256];
	if (!st->hooks || !st->hooks->image)
		return -1;
	return st->hooks->image(st->hooks->ctx, st->out, span_copy(a, sizeof(a), alt, alt_end),
				span_copy(t, sizeof(t), target, target_end));
}

/* [text](target): a link within the page when the caller has one, else the
 * text alone. */
static void inline_link(struct md_state *st, const char *text, const char *text_end,
			const char *target, const char *target_end)
{
	char t[256];
	const char *href = st->hooks && st->hooks->link
				   ? st->hooks->link(st->hooks->ctx,
						     span_copy(t, sizeof(t), target, target_end))
				   : NULL;
	if (href) {
		fputs("<a href=\"", st->out);
		report_html_text(st->out, href, strlen(href));
		fputs("\">", st->out);
	}
	inline_span(st, text, text_end);
	if (href)
		fputs("</a>", st->out);
}

/* One markup element at s, written; returns where the text goes on, or
 * NULL when s starts none (a plain character). */
static const char *inline_markup(struct md_state *st, const char *s, const char *end, bool *strong)
{
	const char *te, *t, *tend, *next;
	size_t n;
	if (*s == '\\' && s + 1 < end && strchr("\\|*`[]()#-_!", s[1])) {
		report_html_text(st->out, s + 1, 1);
		return s + 2;
	}
	if (*s == '*' && s + 1 < end && s[1] == '*') {
		fputs(*strong ? "</strong>" : "<strong>", st->out);
		*strong = !*strong;
		return s + 2;
	}
	if (*s == '`' && (t = memchr(s + 1, '`', (size_t)(end - s - 1)))) {
		fputs("<code>", st->out);
		report_html_text(st->out, s + 1, (size_t)(t - s - 1));
		fputs("</code>", st->out);
		return t + 1;
	}
	if (*s == '!' && s + 1 < end && s[1] == '[' &&
	    (next = link_parts(s + 2, end, &te, &t, &tend))) {
		if (draw_image(st, s + 2, te, t, tend))
			inline_span(st, s + 2, te);
		return next;
	}
	if (*s == '[' && (next = link_parts(s + 1, end, &te, &t, &tend))) {
		inline_link(st, s + 1, te, t, tend);
		return next;
	}
	if (*s == '&' && (n = entity_len(s, end))) {
		fwrite(s, 1, n, st->out);
		return s + n;
	}
	if (end - s >= 4 && !memcmp(s, "<br>", 4)) {
		fputs("<br>", st->out);
		return s + 4;
	}
	return NULL;
}

/* Inline text: markup formatted, everything else escaped. */
static void inline_span(struct md_state *st, const char *s, const char *end)
{
	bool strong = false;
	while (s < end) {
		const char *next = inline_markup(st, s, end, &strong);
		if (!next) {
			report_html_text(st->out, s, 1);
			next = s + 1;
		}
		s = next;
	}
	if (strong)
		fputs("</strong>", st->out);
}

/* Ends the open block, if any. */
static void close_block(struct md_state *st)
{
	if (st->block == MD_THEAD || st->block == MD_TBODY)
		html_table_close(&st->table);
	fputs(md_closer[st->block], st->out);
	st->block = MD_NONE;
}

/* Closes what is open unless it is `block`; 1 when it was already open. */
static int enter_block(struct md_state *st, enum md_block block, const char *opener)
{
	if (st->block == block)
		return 1;
	close_block(st);
	fputs(opener, st->out);
	st->block = block;
	return 0;
}

/* "#" to "######" and a space: a heading; "## " opens a new section. */
static int heading_line(struct md_state *st, const char *s, const char *end)
{
	int level = 0;
	while (s + level < end && s[level] == '#' && level < 7)
		level++;
	if (level > 6 || s + level >= end || s[level] != ' ')
		return -1;
	close_block(st);
	if (level == 2) {
		fputs(st->section ? "</section>\n<section>\n" : "<section>\n", st->out);
		st->section = true;
	}
	fprintf(st->out, "<h%d>", level);
	inline_span(st, s + level + 1, end);
	fprintf(st->out, "</h%d>\n", level);
	return 0;
}

/* "|---|---|": the line under a table's header. */
static bool table_rule(const char *s, const char *end)
{
	for (; s < end; s++) {
		if (!strchr("|-: ", *s))
			return false;
	}
	return true;
}

/* [s, end) without its spaces either side. */
static void trim(const char **s, const char **end)
{
	while (*s < *end && **s == ' ')
		(*s)++;
	while (*end > *s && (*end)[-1] == ' ')
		(*end)--;
}

/* The next cell of a "| a | b |" row from *s (past a '|') to end, without
 * its spaces either side; "\|" stays in its cell.  False past the last. */
static bool next_cell(const char **s, const char *end, const char **cell, const char **cell_end)
{
	const char *p = *s;
	if (p >= end)
		return false;
	while (p < end && *p != '|')
		p += *p == '\\' && p + 1 < end ? 2 : 1;
	*cell = *s;
	*cell_end = p;
	trim(cell, cell_end);
	*s = p + 1;
	return p < end || *cell != *cell_end;
}

/* A row being written: where its next cell starts. */
struct md_row {
	struct md_state *st;
	const char **s, *end;
};

static void md_cell(FILE *out, size_t i, const void *ctx)
{
	const struct md_row *r = ctx;
	const char *cell, *cell_end;
	(void)out, (void)i;
	if (next_cell(r->s, r->end, &cell, &cell_end))
		inline_span(r->st, cell, cell_end);
}

/* One "| a | b |" row: its cells counted, then written in turn. */
static void table_row(struct md_state *st, const char *s, const char *end)
{
	const char *p = s + 1, *cell, *cell_end;
	size_t n = 0;
	while (next_cell(&p, end, &cell, &cell_end))
		n++;
	p = s + 1;
	struct md_row r = { st, &p, end };
	html_table_row(&st->table, n, 0, md_cell, &r);
}

/* A table's line: its header row, the rule under it, or a body row. */
static void table_line(struct md_state *st, const char *s, const char *end)
{
	if (st->block == MD_THEAD && table_rule(s, end)) {
		html_table_body(&st->table);
		st->block = MD_TBODY;
		return;
	}
	if (st->block != MD_TBODY && !enter_block(st, MD_THEAD, ""))
		html_table_open(&st->table, st->out, HTML_TABLE_MARKDOWN);
	table_row(st, s, end);
}

/* "```" opens or closes a code block; lines inside stay as they are. */
static void code_line(struct md_state *st, const char *s, const char *end)
{
	bool fence = end - s >= 3 && !memcmp(s, "```", 3);
	if (fence && st->block == MD_CODE) {
		close_block(st);
		return;
	}
	if (fence) {
		enter_block(st, MD_CODE, "<pre><code>");
		return;
	}
	report_html_text(st->out, s, (size_t)(end - s));
	fputc('\n', st->out);
}

/* A line of running text: quoted ("> "), a list item ("- ") or a paragraph's. */
static void text_line(struct md_state *st, const char *s, const char *end)
{
	if (*s == '>') {
		s += end - s >= 2 && s[1] == ' ' ? 2 : 1;
		if (enter_block(st, MD_QUOTE, "<blockquote><p>"))
			fputc('\n', st->out);
	} else if (end - s >= 2 && s[0] == '-' && s[1] == ' ') {
		enter_block(st, MD_LIST, "<ul>\n");
		fputs("<li>", st->out);
		inline_span(st, s + 2, end);
		fputs("</li>\n", st->out);
		return;
	} else if (enter_block(st, MD_PARA, "<p>")) {
		fputc('\n', st->out);
	}
	inline_span(st, s, end);
}

/* A line that is one image alone: a block of its own (a chart), not text. */
static bool image_line(struct md_state *st, const char *s, const char *end)
{
	const char *te, *t, *tend;
	if (end - s < 2 || s[0] != '!' || s[1] != '[' ||
	    link_parts(s + 2, end, &te, &t, &tend) != end)
		return false;
	close_block(st);
	if (draw_image(st, s + 2, te, t, tend)) {
		enter_block(st, MD_PARA, "<p>");
		inline_span(st, s + 2, te);
	}
	return true;
}

/* One line of Markdown, by what it starts with. */
static void md_line(struct md_state *st, const char *s, const char *end)
{
	if (st->block == MD_CODE || (end - s >= 3 && !memcmp(s, "```", 3)))
		code_line(st, s, end);
	else if (s == end)
		close_block(st);
	else if (*s == '#' && !heading_line(st, s, end))
		return;
	else if (*s == '|')
		table_line(st, s, end);
	else if (!image_line(st, s, end))
		text_line(st, s, end);
}

int report_html_markdown(FILE *out, const char *md, const struct report_html_hooks *hooks)
{
	struct md_state st = { out, hooks, MD_NONE, false, { 0 } };
	while (md && *md) {
		const char *nl = strchr(md, '\n');
		const char *end = nl ? nl : md + strlen(md);
		md_line(&st, md, end > md && end[-1] == '\r' ? end - 1 : end);
		md = nl ? nl + 1 : end;
	}
	close_block(&st);
	if (st.section)
		fputs("</section>\n", out);
	return fflush(out) || ferror(out) ? -1 : 0;
}
