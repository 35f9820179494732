/* config_source.h - where the appliance's config comes from, and what
 * the appliance adds to it before `ebsbench run` reads it.
 *
 * Sources, first found wins: the kernel command line (ebsbench.config=),
 * QEMU's fw_cfg (opt/ebsbench/config), EC2 user-data through IMDSv2.  The
 * document is `ebsbench run`'s config (runner/config.h), checked strictly
 * by the run itself; here it only has to be a JSON object. */
#ifndef EBSBENCH_INIT_CONFIG_SOURCE_H
#define EBSBENCH_INIT_CONFIG_SOURCE_H

#include <jansson.h>
#include <stddef.h>

#include "imds.h"

#define CONFIG_SOURCE_MAX (1024 * 1024)
#define FW_CFG_DIR "/sys/firmware/qemu_fw_cfg/by_name/opt/ebsbench"

/* A whole file of at most max bytes, NUL-ended, malloc'ed; NULL with
 * errno set (EFBIG when longer). */
char *read_small_file(const char *path, size_t max);

/* The config named by an ebsbench.config= value: a path (leading '/') or
 * base64 JSON.  Malloc'ed text, or NULL with a one-line reason. */
char *config_from_cmdline(const char *value, char *err, size_t errlen);

/* text parsed as a JSON object, with the instance facts added to its
 * "environment" where the config does not already say them.  origin
 * names the source in errors ("user-data is not valid JSON: line 1
 * column 9: ...").  NULL with the reason in err. */
json_t *config_for_run(const char *text, const char *origin, const struct imds_facts *facts,
		       char *err, size_t errlen);

#endif
