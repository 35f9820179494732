/* ec2_user_data.c - image/ec2/user-data.sh, built into the binary (so the
 * binary alone can launch a run), and its three blanks filled in: what
 * tests/bats/ec2_userdata.bats runs as cloud-init would. */
#include "launch/ec2.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "launch/internal.h"
#include "lib/lib.h"

/* The script's bytes, NUL-terminated (the Makefile makes this object
 * depend on the script). */
__asm__(".section .rodata\n"
	".global ec2_user_data_template\n"
	"ec2_user_data_template:\n"
	".incbin \"image/ec2/user-data.sh\"\n"
	".byte 0\n"
	".previous\n");
extern const char ec2_user_data_template[];

#define URL_LINE "EBSBENCH_URL='"
#define SHA_LINE "EBSBENCH_SHA256='"
#define CONFIG_OPEN "cat <<'CONFIG'"
#define CONFIG_CLOSE "CONFIG"

/* The word a line's here-document ends at ("PY" of "python3 - <<'PY'"),
 * into word[cap], or false; here-strings (<<<) are not here-documents. */
static bool heredoc_word(const char *line, size_t len, char *word, size_t cap)
{
	for (const char *s = line; (s = memmem(s, len - (size_t)(s - line), "<<", 2)); s += 2) {
		const char *w = s + 2;
		if (w < line + len && *w == '<') {
			s++;
			continue;
		}
		if (w < line + len && *w == '-')
			w++;
		if (w < line + len && (*w == '\'' || *w == '"'))
			w++;
		size_t n = 0;
		while (w + n < line + len && n + 1 < cap &&
		       (w[n] == '_' || (w[n] >= 'A' && w[n] <= 'Z') ||
			(w[n] >= 'a' && w[n] <= 'z')))
			n++;
		if (n) {
			memcpy(word, w, n);
			word[n] = '\0';
			return true;
		}
	}
	return false;
}

static bool comment_line(const char *line, size_t len)
{
	size_t i = 0;
	while (i < len && (line[i] == ' ' || line[i] == '\t'))
		i++;
	return i < len && line[i] == '#';
}

/* True when line (without its newline) is the end of here-document word:
 * the word alone, after tabs for <<-. */
static bool heredoc_end(const char *line, size_t len, const char *word)
{
	while (len && *line == '\t') {
		line++;
		len--;
	}
	return len == strlen(word) && !memcmp(line, word, len);
}

/* One line of the template to out, filled or dropped; *in_doc is the
 * here-document being copied ("" outside one). */
static void put_line(FILE *out, const char *line, size_t len, bool first, char *in_doc,
		     size_t doc_cap, const char *url, const char *sha, const char *config,
		     unsigned *filled)
{
	if (in_doc[0]) {
		if (heredoc_end(line, len, in_doc))
			in_doc[0] = '\0';
		else if (!strcmp(in_doc, CONFIG_CLOSE))
			return; /* the example config: replaced at its opening */
		fwrite(line, 1, len, out);
		fputc('\n', out);
		return;
	}
	if (!first && comment_line(line, len))
		return;
	if (len >= strlen(URL_LINE) && !memcmp(line, URL_LINE, strlen(URL_LINE))) {
		fprintf(out, "%s%s'\n", URL_LINE, url);
		*filled |= 1;
		return;
	}
	if (len >= strlen(SHA_LINE) && !memcmp(line, SHA_LINE, strlen(SHA_LINE))) {
		fprintf(out, "%s%s'\n", SHA_LINE, sha);
		*filled |= 2;
		return;
	}
	fwrite(line, 1, len, out);
	fputc('\n', out);
	if (heredoc_word(line, len, in_doc, doc_cap) &&
	    memmem(line, len, CONFIG_OPEN, strlen(CONFIG_OPEN))) {
		fprintf(out, "%s\n", config);
		*filled |= 4;
	}
}

char *ec2_user_data(const char *url, const char *sha256, const char *config, char *err,
		    size_t errlen)
{
	if (strpbrk(url, "'\n") || strpbrk(sha256, "'\n"))
		return error_set(err, errlen, "the binary's URL or sha256 holds a quote"), NULL;
	for (const char *s = config; (s = strstr(s, "\n" CONFIG_CLOSE)); s++)
		if (s[strlen(CONFIG_CLOSE) + 1] == '\n' || !s[strlen(CONFIG_CLOSE) + 1])
			return error_set(err, errlen, "the config holds a line CONFIG"), NULL;
	char *text = NULL, doc[32] = "";
	size_t size = 0;
	unsigned filled = 0;
	FILE *out = open_memstream(&text, &size);
	if (!out)
		return error_set(err, errlen, "out of memory"), NULL;
	for (const char *line = ec2_user_data_template; *line;) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		put_line(out, line, len, line == ec2_user_data_template, doc, sizeof(doc), url,
			 sha256, config, &filled);
		line += len + (nl != NULL);
	}
	if (fclose(out) || filled != 7) {
		free(text);
		return error_set(err, errlen,
				 "the built-in user-data.sh lacks its blanks (%u of 3 found)",
				 (filled & 1) + !!(filled & 2) + !!(filled & 4)),
		       NULL;
	}
	return text;
}
