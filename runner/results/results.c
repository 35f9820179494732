/* results.c - reading and writing results.json. */
#include "results/results.h"
#include "results/internal.h"
#include "lib/lib.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int results_schema_check(const json_t *root, char *err, size_t errlen)
{
	const json_t *schema = json_object_get(root, RESULTS_KEY_SCHEMA);
	json_int_t version = json_integer_value(schema);

	if (!json_is_object(root) || !json_is_integer(schema) || version < RESULTS_SCHEMA_OLDEST)
		return error_set(err, errlen,
				 "not an ebsbench results file (no \"schema\" from %d to %d)",
				 RESULTS_SCHEMA_OLDEST, RESULTS_SCHEMA);
	if (version > RESULTS_SCHEMA) {
		snprintf(err, errlen,
			 "written by a newer ebsbench: schema %lld, this one reads %d to %d",
			 (long long)version, RESULTS_SCHEMA_OLDEST, RESULTS_SCHEMA);
		return -1;
	}
	return 0;
}

bool results_schema_ok(const json_t *root)
{
	char err[160];
	return results_schema_check(root, err, sizeof(err)) == 0;
}

json_t *results_load_file(const char *path, char *err, size_t errlen)
{
	json_error_t jerr;
	json_t *root = json_load_file(path, JSON_DECODE_ANY, &jerr);
	if (!root) {
		snprintf(err, errlen, "%s: %s", path, jerr.text);
		return NULL;
	}
	char why[160];
	if (results_schema_check(root, why, sizeof(why))) {
		snprintf(err, errlen, "%s: %s", path, why);
		json_decref(root);
		return NULL;
	}
	return root;
}

json_t *results_load(const char *dir, char *err, size_t errlen)
{
	char path[4200];
	snprintf(path, sizeof(path), "%s/%s", dir, RESULTS_FILE);
	return results_load_file(path, err, errlen);
}

json_t *results_load_any(const char *path, char *err, size_t errlen)
{
	struct stat st;

	if (stat(path, &st)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	return S_ISDIR(st.st_mode) ? results_load(path, err, errlen)
				   : results_load_file(path, err, errlen);
}

/* fsync of the file, then of its directory after the rename: a saved
 * results.json is what a resumed run continues from (run --resume), so it
 * must outlive a lost node or a power cut, not only the process. */
static int sync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	int rc = fsync(fd);
	close(fd);
	return rc;
}

int results_save(const json_t *results, const char *dir, char *err, size_t errlen)
{
	char path[4200], tmp[4210];
	snprintf(path, sizeof(path), "%s/%s", dir, RESULTS_FILE);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	bool ok = fd >= 0 &&
		  !json_dumpfd(results, fd,
			       JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15)) &&
		  !fsync(fd);
	if (fd >= 0 && close(fd))
		ok = false;
	if (!ok || rename(tmp, path) || sync_dir(dir)) {
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}
