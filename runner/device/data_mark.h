/* data_mark.h - the mark ebsbench leaves on every sector it writes.
 *
 * A write plan may only overwrite a device that holds nothing, or nothing
 * but what an earlier ebsbench run wrote.  To tell the two apart without a
 * label that a crash could leave half-written, every 512-byte sector of
 * every write starts with a 32-byte header: a 16-byte magic, the sector's
 * own byte offset on the device, and a check word derived from that offset.
 * The rest of the sector is the job's random payload.  Data of anyone else
 * would have to carry, in every non-zero sector, this magic followed by that
 * very sector's offset and check word to pass as ebsbench's. */
#ifndef EBSBENCH_DATA_MARK_H
#define EBSBENCH_DATA_MARK_H

#include <stddef.h>
#include <stdint.h>

#define DATA_MARK_SECTOR 512u /* every sector this size carries a mark */
#define DATA_MARK_LEN 32u     /* bytes of header at the start of a sector */

/* Stamps the mark on every whole DATA_MARK_SECTOR-aligned sector of the
 * len bytes at buf, which go to the device at byte offset. */
void data_mark_stamp(void *buf, size_t len, uint64_t offset);

#endif
