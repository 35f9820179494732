/* volume_json.c - a results.json device's "volume" as the model's
 * ebs_volume: what every analysis that predicts a device starts from, and
 * the phase its cliff is found in. */
#include "analysis/analysis.h"
#include "results/results.h"

void analysis_volume_from_json(const json_t *device, struct ebs_volume *v)
{
	const json_t *vol = json_object_get(device, "volume");
	const char *name = json_string_value(json_object_get(vol, "type"));
	enum ebs_type type = EBS_GP3;
	if (name)
		ebs_type_parse(name, &type);
	ebs_volume_init(v, type, results_num_or(vol, "size_gib", 0));
	if (results_num_or(vol, "iops", 0) > 0)
		v->iops = results_num_or(vol, "iops", 0);
	if (results_num_or(vol, "throughput_mibs", 0) > 0)
		v->throughput_mibs = results_num_or(vol, "throughput_mibs", 0);
}

const char *analysis_cliff_phase(const json_t *device)
{
	struct ebs_volume v;
	analysis_volume_from_json(device, &v);
	return ebs_cliff_phase(v.type);
}
