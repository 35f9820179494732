/* histlog.c - fio's histogram log rows from our cumulative histograms. */
#include "job/histlog.h"
#include "job/internal.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

void histlog_init(struct histlog *h, unsigned coarseness, uint32_t bs, const bool dirs[DDIR_COUNT])
{
	memset(h, 0, sizeof(*h));
	h->coarseness = coarseness > HISTLOG_MAX_COARSENESS ? HISTLOG_MAX_COARSENESS : coarseness;
	h->bs = bs;
	h->sum_ms = UINT64_MAX;
	h->bins = HISTLOG_FIO_BINS >> h->coarseness;
	for (int d = 0; d < DDIR_COUNT; d++) {
		h->dirs[d] = dirs[d];
		histogram_init(&h->before[d]);
	}
}

unsigned histlog_fio_bin(unsigned index)
{
	/* The first 29 groups are fio's own layout, index for index; fio's
	 * last bin takes everything from 2^34 ns up, as fio saturates. */
	return index < HISTLOG_FIO_BINS ? index : HISTLOG_FIO_BINS - 1;
}

void histlog_fio_counts(const struct histogram *now, const struct histogram *before,
			uint64_t fine[HISTLOG_FIO_BINS])
{
	memset(fine, 0, HISTLOG_FIO_BINS * sizeof(fine[0]));
	for (unsigned i = 0; i < HISTOGRAM_BUCKETS; i++)
		fine[histlog_fio_bin(i)] += now->count[i] - before->count[i];
}

unsigned histlog_coarsen(const uint64_t fine[HISTLOG_FIO_BINS], unsigned coarseness,
			 uint64_t *coarse)
{
	unsigned stride = 1u << coarseness;
	unsigned n = HISTLOG_FIO_BINS / stride; /* 1856 is 29 x 2^6: no remainder */
	for (unsigned j = 0; j < n; j++) {
		uint64_t sum = 0;
		for (unsigned k = 0; k < stride; k++)
			sum += fine[j * stride + k];
		coarse[j] = sum;
	}
	return n;
}

void histlog_put_row(FILE *f, uint64_t ms, int ddir, uint32_t bs, const uint64_t *bins, unsigned n)
{
	/* fio: "%lu, %u, %llu, " then each bin followed by ", " but the last. */
	fprintf(f, "%" PRIu64 ", %d, %" PRIu32, ms, ddir, bs);
	for (unsigned j = 0; j < n; j++)
		fprintf(f, ", %" PRIu64, bins[j]);
	fputc('\n', f);
}

bool histlog_window(struct histlog *h, FILE *f, uint64_t ms,
		    const struct direction_stats dir[DDIR_COUNT])
{
	bool joins = ms == h->sum_ms;
	if (!joins)
		memset(h->sum, 0, sizeof(h->sum));
	h->sum_ms = ms;
	for (int d = 0; d < DDIR_COUNT; d++) {
		if (!h->dirs[d])
			continue;
		histlog_fio_counts(&dir[d].clat_hist, &h->before[d], h->fine);
		unsigned n = histlog_coarsen(h->fine, h->coarseness, h->coarse);
		if (f)
			histlog_put_row(f, ms, d, h->bs, h->coarse, n);
		for (unsigned j = 0; j < n; j++)
			h->sum[j] += h->coarse[j];
		h->before[d] = dir[d].clat_hist;
	}
	return joins;
}

json_t *histlog_sparse(const uint64_t *bins, unsigned n)
{
	unsigned first = 0, last = n;
	char *text = NULL;
	size_t len = 0;
	FILE *out;

	while (first < n && !bins[first])
		first++;
	while (last > first && !bins[last - 1])
		last--;
	if (first == n || !(out = open_memstream(&text, &len)))
		return json_string("");
	fprintf(out, "%u:", first);
	for (unsigned j = first; j < last; j++)
		fprintf(out, j > first ? " %" PRIu64 : "%" PRIu64, bins[j]);
	fclose(out);
	json_t *w = json_string(text);
	free(text);
	return w;
}
