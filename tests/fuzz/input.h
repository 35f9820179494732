/* input.h - turning libFuzzer's byte buffer into what the parsers
 * take: a NUL-terminated string, or several fields split on a byte. */
#ifndef EBSBENCH_FUZZ_INPUT_H
#define EBSBENCH_FUZZ_INPUT_H

#include <stddef.h>
#include <stdint.h>

/* The whole input as a malloc'ed string (an embedded NUL ends it early, as
 * it would for any C string the program reads).  Never NULL: aborts on
 * out of memory, which libFuzzer reports. */
char *fuzz_cstring(const uint8_t *data, size_t size);

/* Splits text in place on sep into at most max fields (the last one keeps
 * any further separators).  Returns the field count, at least 1. */
size_t fuzz_split(char *text, char sep, char **fields, size_t max);

/* The libFuzzer entry point each target defines. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
