/* fuzz_fio_argv.c - `ebsbench fio` options from the command line: one
 * `--name=value` word per input line, through the option table, then the
 * check of the whole combination. */
#include <stdlib.h>

#include "input.h"
#include "job/options.h"
#include "job/internal.h"

#define MAX_WORDS 64

/* One input: `ebsbench fio` arguments, one per line. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_cstring(data, size);
	char *words[MAX_WORDS];
	size_t n = fuzz_split(text, '\n', words, MAX_WORDS);
	struct job_options *o = malloc(sizeof(*o));
	char err[512];

	if (!o)
		abort();
	options_defaults(o);
	if (options_parse_argv(o, (int)n, words, err, sizeof(err)) == 0)
		(void)options_validate(o, err, sizeof(err));
	free(o);
	free(text);
	return 0;
}
