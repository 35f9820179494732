/* config_source.c - reading the config from the command line or a file,
 * and giving it the instance facts only IMDS knows. */
#include "config_source.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmdline.h"

char *read_small_file(const char *path, size_t max)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	char *buf = malloc(max + 1);
	size_t n = 0;
	ssize_t r = 1;
	while (buf && n <= max && (r = read(fd, buf + n, max + 1 - n)) > 0)
		n += (size_t)r;
	int saved = r < 0 ? errno : (n > max ? EFBIG : 0);
	close(fd);
	if (!buf || saved) {
		free(buf);
		errno = buf ? saved : ENOMEM;
		return NULL;
	}
	buf[n] = '\0';
	return buf;
}

char *config_from_cmdline(const char *value, char *err, size_t errlen)
{
	if (value[0] == '/') {
		char *text = read_small_file(value, CONFIG_SOURCE_MAX);
		if (!text)
			snprintf(err, errlen, "ebsbench.config=%s: %s", value, strerror(errno));
		return text;
	}
	size_t cap = strlen(value) / 4 * 3 + 3;
	unsigned char *text = malloc(cap + 1);
	long n = text ? base64_decode(value, text, cap) : -1;
	if (n < 0) {
		free(text);
		snprintf(err, errlen, "ebsbench.config= is neither a /path nor base64");
		return NULL;
	}
	text[n] = '\0';
	return (char *)text;
}

static void set_if_absent(json_t *env, const char *key, const char *value)
{
	if (value[0] && !json_object_get(env, key))
		json_object_set_new(env, key, json_string(value));
}

json_t *config_for_run(const char *text, const char *origin, const struct imds_facts *facts,
		       char *err, size_t errlen)
{
	json_error_t je;
	json_t *root = json_loads(text, JSON_REJECT_DUPLICATES, &je);
	if (!root) {
		snprintf(err, errlen, "%s is not valid JSON: line %d column %d: %s", origin,
			 je.line, je.column, je.text);
		return NULL;
	}
	if (!json_is_object(root)) {
		snprintf(err, errlen,
			 "%s is JSON but not an object ({...}): not an ebsbench config", origin);
		json_decref(root);
		return NULL;
	}
	json_t *env = json_object_get(root, "environment");
	if (env && !json_is_object(env)) {
		snprintf(err, errlen, "%s: 'environment' must be an object", origin);
		json_decref(root);
		return NULL;
	}
	if (!env) {
		env = json_object();
		json_object_set_new(root, "environment", env);
	}
	set_if_absent(env, "instance_type", facts->instance_type);
	set_if_absent(env, "instance_id", facts->instance_id);
	set_if_absent(env, "zone", facts->zone);
	return root;
}
