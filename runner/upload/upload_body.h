/* upload_body.h - the request bodies and S3's replies (upload_body.c):
 * Content-MD5, the multipart POST body, the XML of an error. */
#ifndef EBSBENCH_UPLOAD_BODY_H
#define EBSBENCH_UPLOAD_BODY_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define UPLOAD_MD5_B64_LEN 24 /* base64 of 16 bytes */

/* base64(MD5) of len bytes of fd from offset 0, for Content-MD5. */
int upload_body_content_md5(int fd, uint64_t len, char out[UPLOAD_MD5_B64_LEN + 1]);
/* Whether "--" boundary occurs neither in len bytes of fd nor in the
 * fields or the key, so it cannot end a part early. */
bool upload_body_boundary_free(const char *boundary, int fd, uint64_t len, const json_t *fields,
			       const char *key);
/* A multipart/form-data body for an S3 POST: the fields in their order
 * ("key" replaced by key, or added after them), then the file, last, as S3
 * requires, named filename.  0, or -1 on a write or read error. */
int upload_body_multipart_write(FILE *out, const char *boundary, const json_t *fields,
				const char *key, const char *filename, int fd, uint64_t len);
/* The text of the first <tag>...</tag> in xml with XML's five entities
 * decoded and any control byte made a space, so it fits in one log line:
 * 0, or -1 when there is none. */
int upload_body_xml_text(const char *xml, const char *tag, char *out, size_t outlen);
/* S3's <Error><Code> and <Message> from an XML body; 0 if a Code was found. */
int upload_body_s3_error(const char *xml, char *code, size_t codelen, char *msg, size_t msglen);

#endif
