/* data_mark.c - the 32-byte header ebsbench stamps on each sector it writes
 * (see data_mark.h for why). */
#include "device/data_mark.h"
#include "device/internal.h"
#include "lib/lib.h"

#include <string.h>

/* 16 bytes, no NUL: "ebsbench" and the layout's version. */
static const char mark_magic[16] = { 'e', 'b', 's', 'b', 'e', 'n', 'c', 'h',
				     '-', 'd', 'a', 't', 'a', '-', 'v', '1' };

/* splitmix64's finaliser: a check word no offset shares with another, so a
 * header copied to another place no longer verifies. */
static uint64_t check_word(uint64_t offset)
{
	uint64_t z = offset + 0x9E3779B97F4A7C15ull;
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static void put_le64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

void data_mark_stamp(void *buf, size_t len, uint64_t offset)
{
	/* The first whole sector: offsets not on a sector boundary occur only
	 * in buffered I/O to regular files, which no guard looks at. */
	size_t skip = (size_t)((DATA_MARK_SECTOR - offset % DATA_MARK_SECTOR) % DATA_MARK_SECTOR);
	for (size_t at = skip; at + DATA_MARK_SECTOR <= len; at += DATA_MARK_SECTOR) {
		uint8_t *p = (uint8_t *)buf + at;
		memcpy(p, mark_magic, sizeof(mark_magic));
		put_le64(p + 16, offset + at);
		put_le64(p + 24, check_word(offset + at));
	}
}

bool data_mark_valid(const uint8_t *sector, uint64_t offset)
{
	return memcmp(sector, mark_magic, sizeof(mark_magic)) == 0 && le64(sector + 16) == offset &&
	       le64(sector + 24) == check_word(offset);
}
