/* test_s3_fetch.c - a ListObjectsV2 page as S3 writes it (entities in
 * keys, the continuation token, a page that is not truncated), and which
 * keys may become files under a directory. */
#include <string.h>

#include "check.h"
#include "upload/upload.h"
#include "upload/internal.h"

struct seen {
	char keys[4][64];
	uint64_t sizes[4];
	unsigned n;
};

static int collect(const char *key, uint64_t size, void *ctx)
{
	struct seen *s = ctx;
	if (s->n == 4)
		return -1;
	snprintf(s->keys[s->n], sizeof(s->keys[0]), "%s", key);
	s->sizes[s->n++] = size;
	return 0;
}

static void test_parse_list(struct checks *checks)
{
	static const char page[] =
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<ListBucketResult xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">"
		"<Name>b</Name><Prefix>runs/7/</Prefix><KeyCount>2</KeyCount>"
		"<MaxKeys>2</MaxKeys><IsTruncated>true</IsTruncated>"
		"<Contents><Key>runs/7/results.json</Key><LastModified>2026-12-02T00:00:00.000Z"
		"</LastModified><ETag>&quot;abc&quot;</ETag><Size>17437</Size>"
		"<StorageClass>STANDARD</StorageClass></Contents>"
		"<Contents><Key>runs/7/a&amp;b &lt;c&gt;.log</Key><Size>0</Size></Contents>"
		"<NextContinuationToken>1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=</"
		"NextContinuationToken></ListBucketResult>";
	struct seen s = { .n = 0 };
	char token[128];
	CHECK(s3_fetch_parse_list(page, collect, &s, token, sizeof(token)) == 0);
	CHECK(s.n == 2 && !strcmp(s.keys[0], "runs/7/results.json") && s.sizes[0] == 17437);
	CHECK(!strcmp(s.keys[1], "runs/7/a&b <c>.log") && s.sizes[1] == 0);
	CHECK(!strcmp(token, "1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM="));
	/* The last page: no token. */
	s.n = 0;
	CHECK(s3_fetch_parse_list("<ListBucketResult><IsTruncated>false</IsTruncated>"
				  "</ListBucketResult>",
				  collect, &s, token, sizeof(token)) == 0 &&
	      s.n == 0 && !token[0]);
	/* Truncated without a token, no listing, a Contents without Size. */
	CHECK(s3_fetch_parse_list("<ListBucketResult><IsTruncated>true</IsTruncated>"
				  "</ListBucketResult>",
				  collect, &s, token, sizeof(token)) == -1);
	CHECK(s3_fetch_parse_list("<Error><Code>AccessDenied</Code></Error>", collect, &s, token,
				  sizeof(token)) == -1);
	CHECK(s3_fetch_parse_list("<ListBucketResult><Contents><Key>k</Key></Contents>"
				  "</ListBucketResult>",
				  collect, &s, token, sizeof(token)) == -1);
}

static void test_safe_name(struct checks *checks)
{
	CHECK(s3_fetch_safe_name("results.json"));
	CHECK(s3_fetch_safe_name("sub/dir/x.log"));
	CHECK(s3_fetch_safe_name("..x/.y"));
	CHECK(!s3_fetch_safe_name(""));
	CHECK(!s3_fetch_safe_name("/etc/passwd"));
	CHECK(!s3_fetch_safe_name("../x"));
	CHECK(!s3_fetch_safe_name("a/../../x"));
	CHECK(!s3_fetch_safe_name("a/./x"));
	CHECK(!s3_fetch_safe_name("a//x"));
	CHECK(!s3_fetch_safe_name("a/"));
	CHECK(!s3_fetch_safe_name(".."));
}

CHECK_MAIN(test_parse_list, test_safe_name)
