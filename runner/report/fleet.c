/* fleet.c - the fleet report's files: fleet.md, fleet.json, fleet.svg and
 * report.html written into the --out directory, each by its one writer. */
#include "report/fleet.h"

#include <errno.h>
#include <string.h>

#include "lib/lib.h"
#include "report/report.h"
#include "report/svg_fleet.h"
#include "run/run.h"

typedef int fleet_render_fn(FILE *out, const struct fleet *f);

int fleet_render(const struct fleet *f, const char *dir, char *err, size_t errlen)
{
	static const struct {
		const char *name;
		fleet_render_fn *render;
	} files[] = { { FLEET_MD_FILE, fleet_md_write },
		      { FLEET_JSON_FILE, fleet_json_write },
		      { FLEET_SVG_FILE, svg_fleet },
		      { NULL,
			fleet_html_page } }; /* NULL: report.html, as run/artifacts.c names it */
	char path[4200];

	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		const char *name = files[i].name ? files[i].name : artifacts_name(ARTIFACT_HTML);
		snprintf(path, sizeof(path), "%s/%s", dir, name);
		FILE *out = fopen(path, "w");
		if (!out)
			return error_set(err, errlen, "cannot create %s: %s", path,
					 strerror(errno));
		int rc = files[i].render(out, f);
		if (fclose(out) || rc)
			return error_set(err, errlen, "writing %s failed", path);
	}
	return 0;
}
