/* upload_body.c - what an upload sends and how it reads S3's answer:
 * Content-MD5, the multipart/form-data body of a POST, S3's XML errors,
 * the retry schedule and the record results.json keeps. */
#include "upload/upload.h"
#include "upload/upload_body.h"

#include <errno.h>
#include <mbedtls/base64.h>
#include <mbedtls/md5.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "net/net.h"

#define UPLOAD_CHUNK (64 * 1024)

/* pread all of want bytes at off, or fewer only at end of file. */
static ssize_t read_at(int fd, unsigned char *buf, size_t want, uint64_t off)
{
	size_t got = 0;
	while (got < want) {
		ssize_t n = pread(fd, buf + got, want - got, (off_t)(off + got));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		got += (size_t)n;
	}
	return (ssize_t)got;
}

int upload_body_content_md5(int fd, uint64_t len, char out[UPLOAD_MD5_B64_LEN + 1])
{
	unsigned char *chunk = malloc(UPLOAD_CHUNK), digest[16];
	mbedtls_md5_context md5;
	uint64_t done = 0;
	size_t olen = 0;
	mbedtls_md5_init(&md5);
	int rc = chunk ? mbedtls_md5_starts_ret(&md5) : -1;
	while (rc == 0 && done < len) {
		size_t want = len - done < UPLOAD_CHUNK ? (size_t)(len - done) : UPLOAD_CHUNK;
		ssize_t n = read_at(fd, chunk, want, done);
		/* A file shorter than len would give the digest of other bytes. */
		rc = n == (ssize_t)want ? mbedtls_md5_update_ret(&md5, chunk, want) : -1;
		done += want;
	}
	if (rc == 0)
		rc = mbedtls_md5_finish_ret(&md5, digest);
	if (rc == 0)
		rc = mbedtls_base64_encode((unsigned char *)out, UPLOAD_MD5_B64_LEN + 1, &olen,
					   digest, sizeof(digest));
	mbedtls_md5_free(&md5);
	free(chunk);
	return rc ? -1 : 0;
}

/* Whether "--" boundary is in the file; reads overlap by the delimiter's
 * length so one split between two reads is found too. */
static bool file_has(int fd, uint64_t len, const char *delim, size_t dlen)
{
	unsigned char *buf = malloc(UPLOAD_CHUNK + dlen);
	size_t carry = 0;
	bool found = !buf;
	for (uint64_t off = 0; !found && off < len;) {
		size_t want = len - off < UPLOAD_CHUNK ? (size_t)(len - off) : UPLOAD_CHUNK;
		ssize_t n = read_at(fd, buf + carry, want, off);
		if (n <= 0) {
			found = true; /* unreadable: no boundary can be promised */
			break;
		}
		size_t have = carry + (size_t)n;
		found = memmem(buf, have, delim, dlen) != NULL;
		carry = have < dlen - 1 ? have : dlen - 1;
		memmove(buf, buf + have - carry, carry);
		off += (uint64_t)n;
	}
	free(buf);
	return found;
}

bool upload_body_boundary_free(const char *boundary, int fd, uint64_t len, const json_t *fields,
			       const char *key)
{
	char delim[128];
	const char *name;
	json_t *v;
	int n = snprintf(delim, sizeof(delim), "--%s", boundary);
	if (n < 3 || (size_t)n >= sizeof(delim) || strstr(key, delim))
		return false;
	json_object_foreach((json_t *)fields, name, v)
	{
		const char *s = json_string_value(v);
		if (strstr(name, delim) || (s && strstr(s, delim)))
			return false;
	}
	return !file_has(fd, len, delim, (size_t)n);
}

static void part_head(FILE *out, const char *boundary, const char *name)
{
	fprintf(out, "--%s\r\nContent-Disposition: form-data; name=\"%s\"\r\n\r\n", boundary, name);
}

static int copy_file(FILE *out, int fd, uint64_t len)
{
	unsigned char *chunk = malloc(UPLOAD_CHUNK);
	uint64_t done = 0;
	int rc = chunk ? 0 : -1;
	while (rc == 0 && done < len) {
		size_t want = len - done < UPLOAD_CHUNK ? (size_t)(len - done) : UPLOAD_CHUNK;
		ssize_t n = read_at(fd, chunk, want, done);
		rc = n == (ssize_t)want && fwrite(chunk, 1, want, out) == want ? 0 : -1;
		done += want;
	}
	free(chunk);
	return rc;
}

int upload_body_multipart_write(FILE *out, const char *boundary, const json_t *fields,
				const char *key, const char *filename, int fd, uint64_t len)
{
	const char *name;
	json_t *v;
	bool keyed = false;
	/* S3 reads the form in order and takes the first file part as the
	 * object: key and policy fields must come before it. */
	json_object_foreach((json_t *)fields, name, v)
	{
		bool is_key = !strcasecmp(name, "key");
		part_head(out, boundary, name);
		fprintf(out, "%s\r\n", is_key ? key : json_string_value(v));
		keyed |= is_key;
	}
	if (!keyed) {
		part_head(out, boundary, "key");
		fprintf(out, "%s\r\n", key);
	}
	fprintf(out,
		"--%s\r\nContent-Disposition: form-data; name=\"file\"; filename=\"%s\"\r\n"
		"Content-Type: application/octet-stream\r\n\r\n",
		boundary, filename);
	if (copy_file(out, fd, len))
		return -1;
	fprintf(out, "\r\n--%s--\r\n", boundary);
	return ferror(out) ? -1 : 0;
}

int upload_body_xml_text(const char *xml, const char *tag, char *out, size_t outlen)
{
	char open[40], close[40];
	snprintf(open, sizeof(open), "<%s>", tag);
	snprintf(close, sizeof(close), "</%s>", tag);
	const char *s = strstr(xml, open), *e;
	if (!s || !(e = strstr(s += strlen(open), close)) || !outlen)
		return -1;
	static const char *const ent[][2] = { { "&amp;", "&" },
					      { "&lt;", "<" },
					      { "&gt;", ">" },
					      { "&quot;", "\"" },
					      { "&apos;", "'" } };
	size_t o = 0;
	while (s < e && o + 1 < outlen) {
		size_t k = 0;
		while (k < 5 && strncmp(s, ent[k][0], strlen(ent[k][0])))
			k++;
		char c = k < 5 ? ent[k][1][0] : *s;
		s += k < 5 ? strlen(ent[k][0]) : 1;
		out[o++] = (unsigned char)c < 0x20 ? ' ' : c;
	}
	out[o] = '\0';
	return 0;
}

int upload_body_s3_error(const char *xml, char *code, size_t codelen, char *msg, size_t msglen)
{
	const char *err = xml ? strstr(xml, "<Error>") : NULL;
	if (msglen)
		msg[0] = '\0';
	if (!err || upload_body_xml_text(err, "Code", code, codelen))
		return -1;
	upload_body_xml_text(err, "Message", msg, msglen);
	return 0;
}
