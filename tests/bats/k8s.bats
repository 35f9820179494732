#!/usr/bin/env bats
# k8s.bats - the Kubernetes launch files in image/k8s/, offline:
#   - every YAML document validates against the Kubernetes API schemas
#     (tests/k8s/validate.js, npm kubernetes-models), and broken copies are
#     rejected, so the check can fail;
#   - the manifests carry what a benchmark pod needs (retried only for a lost pod, which resumes; never
#     disrupted, m5.xlarge, privileged or Block-mode volumes, Indexed for
#     fleets, deadlines that fit the plan) and agree with each other and
#     with the example Secrets (names, keys, device paths);
#   - each example config is accepted by the real binary: `ebsbench run
#     --dry-run` parses it (a config error exits 2 before devices are
#     looked at), refuses its expired example URLs, and with loop devices in
#     place of the volumes and URLs freshly made by `ebsbench presign`,
#     plans the run: the example's upload block covers every file it
#     writes, and the Job's deadline covers the plan;
#   - the Block-mode PVC paths (/dev/xvdb, /dev/xvdc) resolve in a /dev
#     laid out as the container runtime lays it out.
# YAML is parsed with node (npm yaml, pinned in tests/k8s), not jq or yq.

bats_require_minimum_version 1.5.0

load helpers
load_bats_libs

REPO=$BATS_TEST_DIRNAME/../..
K8S_TESTS=$REPO/tests/k8s
MANIFESTS=$REPO/image/k8s
# Made-up credentials: presign signs offline, nothing is sent anywhere.
export AWS_ACCESS_KEY_ID=AKIAEBSBENCHK8STEST1
export AWS_SECRET_ACCESS_KEY='k8s/Secret+Key/ebsbench000000000000000000'

setup_file() {
	require_ebsbench
	bash "$K8S_TESTS/install.sh" >&2
	# Each example Secret's configs as files: DIR/NAME/KEY.
	SECRETS=$BATS_FILE_TMPDIR/secrets
	export SECRETS
	yaml_node "$MANIFESTS/secret-example.yaml" >"$BATS_FILE_TMPDIR/secrets.log" <<-'JS'
	const fs = require("fs"), path = require("path");
	for (const d of docs(process.argv[2]).filter((d) => d.kind === "Secret")) {
	  const dir = path.join(process.env.SECRETS, d.metadata.name);
	  fs.mkdirSync(dir, { recursive: true });
	  for (const [k, v] of Object.entries(d.stringData || {})) fs.writeFileSync(path.join(dir, k), v);
	  for (const [k, v] of Object.entries(d.data || {}))
	    fs.writeFileSync(path.join(dir, k), Buffer.from(v, "base64"));
	  console.log(d.metadata.name);
	}
	JS
	# Stand-ins for the volumes: sparse, bigger than the 8 GiB test size,
	# so the plan's layout phase is the one a 100 GiB volume gets.
	LOOP_A=$(make_loop 8300)
	LOOP_B=$(make_loop 8300)
	export LOOP_A LOOP_B
}

teardown_file() {
	cleanup_loops
}

setup() {
	cd "$BATS_TEST_TMPDIR"
}

# yaml_node [ARGS...] < SCRIPT: runs SCRIPT with node, with docs(FILE)
# (every document of a YAML file, read as Kubernetes reads YAML) and
# manifest(NAME) (docs of image/k8s/NAME) defined.
yaml_node() {
	local js=${BATS_TEST_TMPDIR:-$BATS_FILE_TMPDIR}/script.js
	{
		cat <<-'JS'
		const YAML = require(process.env.K8S_TESTS + "/node_modules/yaml");
		const docs = (file) => YAML.parseAllDocuments(require("fs").readFileSync(file, "utf8"),
		  { version: "1.1", uniqueKeys: true }).map((d) => d.toJS()).filter((d) => d !== null);
		const manifest = (name) => docs(process.env.MANIFESTS + "/" + name);
		JS
		cat
	} >"$js"
	K8S_TESTS=$K8S_TESTS MANIFESTS=$MANIFESTS node "$js" "$@"
}

# dry_run CONFIG: `ebsbench run --config CONFIG --dry-run`, setting status,
# output (the plan) and stderr.
dry_run() {
	run --separate-stderr "$EBSBENCH" run --config "$1" --dry-run --out "$BATS_TEST_TMPDIR/out"
}

# with_loops CONFIG > NEW: the config with its devices on the loop devices
# (by path), every other key as it was.
with_loops() {
	jq --arg a "$LOOP_A" --arg b "$LOOP_B" \
		'.devices |= [to_entries[] | .value + {path: (if .key == 0 then $a else $b end)} | del(.volume_id)]' "$1"
}

# fresh_upload CONFIG > NEW: the config with an upload block `ebsbench
# presign` makes now, of the same kind (put or post), for the same bucket,
# prefix and region as the example's.
fresh_upload() {
	local cfg=$1 url bucket prefix region post=()
	url=$(jq -r '.upload.put["results.json"] // .upload.post.url' "$cfg")
	region=$(sed -n 's|^https://s3\.\([a-z0-9-]*\)\.amazonaws\.com/.*|\1|p' <<<"$url")
	bucket=$(sed -n 's|^https://[^/]*/\([^/?]*\).*|\1|p' <<<"$url")
	if jq -e '.upload.post' "$cfg" >/dev/null; then
		post=(--post)
		prefix=$(jq -r '.upload.post.key_prefix' "$cfg")
	else
		prefix=$(sed -n "s|^https://[^/]*/$bucket/\(.*\)results\.json?.*|\1|p" <<<"$url")
	fi
	[[ -n $region && -n $bucket && -n $prefix ]] || {
		echo "cannot read bucket/prefix/region from $url" >&2
		return 1
	}
	"$EBSBENCH" presign --bucket "$bucket" --prefix "$prefix" --region "$region" --expires 6h \
		--plan "$cfg" "${post[@]}" 2>/dev/null >"$BATS_TEST_TMPDIR/fresh-upload.json" || return 1
	jq -s '.[0] + {upload: .[1].upload}' "$cfg" "$BATS_TEST_TMPDIR/fresh-upload.json"
}

# Every example config: "SECRET/KEY" lines.
example_configs() {
	(cd "$SECRETS" && ls -d -- */* | sort)
}

@test "tests/k8s: kubernetes-models and yaml pinned to exact versions, npm ci idempotent" {
	run node -e '
	  const p = require(process.argv[1] + "/package.json");
	  const lock = require(process.argv[1] + "/package-lock.json");
	  for (const [name, v] of Object.entries(p.dependencies)) {
	    const got = require(process.argv[1] + "/node_modules/" + name + "/package.json").version;
	    const locked = lock.packages["node_modules/" + name].version;
	    console.log(`${name} ${v} ${locked} ${got}`);
	    if (!/^\d+\.\d+\.\d+$/.test(v) || v !== locked || v !== got) process.exit(1);
	  }' "$K8S_TESTS"
	assert_success
	assert_line "kubernetes-models 5.1.0 5.1.0 5.1.0"
	assert_line "yaml 2.8.4 2.8.4 2.8.4"
	# A second install does nothing.
	run bash "$K8S_TESTS/install.sh"
	assert_success
	assert_output ""
}

@test "every document of every image/k8s/*.yaml validates against the Kubernetes API schemas" {
	run node "$K8S_TESTS/validate.js"
	assert_success
	local n
	n=$(yaml_node <<<'let n = 0; for (const f of require("fs").readdirSync(process.env.MANIFESTS))
	  if (f.endsWith(".yaml")) n += manifest(f).length; console.log(n)')
	assert_line "$n documents checked, 0 failed"
	assert_equal "$(grep -c '^ok ' <<<"$output")" "$n"
	# The kinds the launch files use, each seen.
	for kind in "v1 Namespace" "batch/v1 Job" "v1 Secret" "v1 PersistentVolumeClaim" \
		"storage.k8s.io/v1 StorageClass"; do
		assert_output --partial " $kind "
	done
}

@test "broken copies are rejected: a bad enum, a string for an int, an unquoted annotation, an unknown kind" {
	local m=$MANIFESTS
	sed 's/restartPolicy: Never/restartPolicy: Sometimes/' "$m/job.yaml" >restart.yaml
	sed 's/backoffLimit: 1/backoffLimit: "1"/' "$m/job-pvc.yaml" >backoff.yaml
	sed 's/operator: In/operator: Inn/' "$m/job.yaml" >policy.yaml
	sed 's|karpenter.sh/do-not-disrupt: "true"|karpenter.sh/do-not-disrupt: true|' "$m/job.yaml" >annotation.yaml
	sed 's/completionMode: Indexed/completionMode: Indexd/' "$m/job-indexed.yaml" >mode.yaml
	sed 's/volumeMode: Block/volumeMode: Raw/' "$m/job-pvc.yaml" >volmode.yaml
	sed 's/^kind: Job$/kind: Jobs/' "$m/job.yaml" >kind.yaml
	sed 's|^apiVersion: storage.k8s.io/v1$|apiVersion: storage.k8s.io/v9|' "$m/job-pvc.yaml" >api.yaml
	printf 'apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: bench}\n' >crd.yaml
	run node "$K8S_TESTS/validate.js" "$BATS_TEST_TMPDIR"
	assert_failure 1
	assert_line --partial "FAIL restart.yaml [1] batch/v1 Job ebsbench/ebsbench: data/spec/template/spec/restartPolicy must be equal to one of the allowed values"
	assert_line --partial "FAIL backoff.yaml [5] batch/v1 Job ebsbench/ebsbench-pvc: data/spec/backoffLimit must be integer"
	assert_line --partial "FAIL policy.yaml [1] batch/v1 Job ebsbench/ebsbench: data/spec/podFailurePolicy/rules/1/onExitCodes/operator must be equal to one of the allowed values"
	assert_line --partial "FAIL annotation.yaml [1] batch/v1 Job ebsbench/ebsbench: data/spec/template/metadata/annotations/karpenter.sh~1do-not-disrupt must be string"
	assert_line --partial "FAIL mode.yaml [3] batch/v1 Job ebsbench/ebsbench-fleet: data/spec/completionMode must be equal to one of the allowed values"
	assert_line --partial "FAIL volmode.yaml [3] v1 PersistentVolumeClaim ebsbench/bench-gp2: data/spec/volumeMode must be equal to one of the allowed values"
	assert_line "FAIL kind.yaml [1] batch/v1 Jobs ebsbench/ebsbench: unknown kind Jobs in batch/v1"
	assert_line --partial "FAIL api.yaml [1] storage.k8s.io/v9 StorageClass bench-gp2: unknown apiVersion storage.k8s.io/v9"
	assert_line --partial "FAIL crd.yaml [1] karpenter.sh/v1 NodePool bench: unknown apiVersion karpenter.sh/v1"
	# The untouched documents of the same copies still pass, one line each.
	assert_line "ok   api.yaml [3] v1 PersistentVolumeClaim ebsbench/bench-gp2"
	# Duplicate keys and YAML syntax errors too.
	printf 'apiVersion: v1\nkind: Secret\nmetadata: {name: a, name: b}\n' >dup.yaml
	run node "$K8S_TESTS/validate.js" dup.yaml
	assert_failure 1
	assert_output --partial "FAIL dup.yaml [1] YAML: Map keys must be unique"
}

@test "the Jobs: retried for a lost or evicted pod (it resumes), never disrupted, m5.xlarge, one per node, pinned digest, deadlines, results in an emptyDir" {
	run yaml_node <<-'JS'
	let bad = 0;
	const check = (ok, what) => { console.log(`${ok ? "ok  " : "FAIL"} ${what}`); if (!ok) bad++; };
	for (const file of ["job.yaml", "job-pvc.yaml", "job-indexed.yaml"]) {
	  const jobs = manifest(file).filter((d) => d.kind === "Job");
	  check(jobs.length === 1, `${file}: one Job`);
	  const job = jobs[0], spec = job.spec, pod = spec.template.spec, meta = spec.template.metadata;
	  const c = pod.containers[0], sc = c.securityContext || {};
	  check(pod.restartPolicy === "Never", `${file}: restartPolicy Never`);
	  if (file === "job-indexed.yaml") {
	    check(spec.backoffLimitPerIndex === 0 && spec.backoffLimit === undefined,
	      `${file}: backoffLimitPerIndex 0, no Job-wide backoffLimit (one failed run must not end the others)`);
	  } else {
	    const rules = (spec.podFailurePolicy || {}).rules || [];
	    const rule = rules[1] || {}, codes = rule.onExitCodes || {};
	    check(spec.backoffLimit === 1 && JSON.stringify(c.args) === '["--resume=auto"]',
	      `${file}: backoffLimit 1, the replacement pod resumes (--resume=auto)`);
	    check(JSON.stringify(rules[0]) === '{"action":"Ignore","onPodConditions":[{"type":"DisruptionTarget"}]}',
	      `${file}: an evicted pod (DisruptionTarget) is replaced first, not counted against backoffLimit`);
	    check(rule.action === "FailJob" && codes.containerName === c.name && codes.operator === "In" &&
	      JSON.stringify(codes.values) === "[1,2,3,4]", `${file}: ebsbench's own exits 1-4 fail the Job, not retried`);
	  }
	  check(meta.annotations["karpenter.sh/do-not-disrupt"] === "true", `${file}: karpenter.sh/do-not-disrupt "true"`);
	  check(pod.nodeSelector["node.kubernetes.io/instance-type"] === "m5.xlarge", `${file}: nodeSelector m5.xlarge`);
	  const anti = ((pod.affinity || {}).podAntiAffinity || {}).requiredDuringSchedulingIgnoredDuringExecution || [];
	  check(anti.some((t) => t.topologyKey === "kubernetes.io/hostname" &&
	      Object.entries(t.labelSelector.matchLabels).every(([k, v]) => meta.labels[k] === v)),
	    `${file}: never two ebsbench pods on one node (required anti-affinity on hostname)`);
	  // 480 s: the upload worst case job.yaml works out.
	  check(pod.terminationGracePeriodSeconds >= 480, `${file}: terminationGracePeriodSeconds ${pod.terminationGracePeriodSeconds} >= 480`);
	  check(Number.isInteger(spec.activeDeadlineSeconds), `${file}: activeDeadlineSeconds ${spec.activeDeadlineSeconds}`);
	  check(Number.isInteger(spec.ttlSecondsAfterFinished), `${file}: ttlSecondsAfterFinished ${spec.ttlSecondsAfterFinished}`);
	  const digest = (c.image.match(/@(sha256:.*)$/) || [])[1];
	  const env = Object.fromEntries((c.env || []).map((e) => [e.name, e]));
	  check(digest && env.EBSBENCH_IMAGE_DIGEST && env.EBSBENCH_IMAGE_DIGEST.value === digest,
	    `${file}: image pinned by digest, EBSBENCH_IMAGE_DIGEST the same (${digest})`);
	  check(!c.command && (!c.args || JSON.stringify(c.args) === '["--resume=auto"]'),
	    `${file}: the image's entrypoint runs (no command; args at most --resume=auto)`);
	  const vols = Object.fromEntries(pod.volumes.map((v) => [v.name, v]));
	  const mounts = c.volumeMounts || [];
	  const cfg = mounts.find((m) => vols[m.name].secret);
	  check(cfg && (cfg.mountPath === "/etc/ebsbench" && vols[cfg.name].secret.items.some((i) => i.path === "config.json") ||
	      cfg.mountPath === "/etc/ebsbench/config.json" && cfg.subPathExpr),
	    `${file}: config.json from a Secret at /etc/ebsbench/config.json`);
	  const work = mounts.find((m) => m.mountPath === c.workingDir);
	  check(work && vols[work.name].emptyDir, `${file}: working dir ${c.workingDir} is an emptyDir`);
	  check(c.resources.requests.cpu && c.resources.requests.memory && !(c.resources.limits || {}).cpu,
	    `${file}: cpu and memory requests, no cpu limit`);
	  check(sc.readOnlyRootFilesystem === true && sc.runAsUser === 0, `${file}: root, read-only root filesystem`);
	  check(pod.automountServiceAccountToken === false, `${file}: no service account token`);
	}
	process.exit(bad ? 1 : 0);
	JS
	assert_success
	refute_output --partial FAIL
}

@test "job.yaml is privileged with the host's /dev; job-pvc.yaml uses Block-mode PVCs on bench-gp2 and bench-gp3" {
	run yaml_node <<-'JS'
	let bad = 0;
	const check = (ok, what) => { console.log(`${ok ? "ok  " : "FAIL"} ${what}`); if (!ok) bad++; };
	const job = (f) => manifest(f).find((d) => d.kind === "Job");
	const priv = job("job.yaml").spec.template.spec, pc = priv.containers[0];
	check(pc.securityContext.privileged === true, "job.yaml: privileged");
	const dev = priv.volumes.find((v) => v.hostPath && v.hostPath.path === "/dev");
	check(dev && pc.volumeMounts.some((m) => m.name === dev.name && m.mountPath === "/dev"), "job.yaml: hostPath /dev at /dev");

	const pvc = manifest("job-pvc.yaml");
	const sc = Object.fromEntries(pvc.filter((d) => d.kind === "StorageClass").map((d) => [d.metadata.name, d]));
	for (const [name, type] of [["bench-gp2", "gp2"], ["bench-gp3", "gp3"]]) {
	  const s = sc[name];
	  check(s && s.provisioner === "ebs.csi.aws.com" && s.parameters.type === type &&
	    s.volumeBindingMode === "WaitForFirstConsumer", `StorageClass ${name}: ebs.csi.aws.com, type ${type}, WaitForFirstConsumer`);
	}
	check(sc["bench-gp3"].parameters.iops === "3000" && sc["bench-gp3"].parameters.throughput === "125",
	  "StorageClass bench-gp3: iops 3000, throughput 125 (strings, as parameters are)");
	check(sc["bench-gp2"].parameters.iops === undefined, "StorageClass bench-gp2: no iops (gp2 derives it from the size)");
	const claims = Object.fromEntries(pvc.filter((d) => d.kind === "PersistentVolumeClaim").map((d) => [d.metadata.name, d]));
	for (const [name, cls] of Object.entries(claims))
	  check(claims[name].spec.volumeMode === "Block" && sc[claims[name].spec.storageClassName],
	    `PVC ${name}: volumeMode Block on ${claims[name].spec.storageClassName}`);
	const p = job("job-pvc.yaml").spec.template.spec, c = p.containers[0];
	const vols = Object.fromEntries(p.volumes.map((v) => [v.name, v]));
	const devs = Object.fromEntries(c.volumeDevices.map((d) => [d.devicePath, vols[d.name].persistentVolumeClaim.claimName]));
	check(devs["/dev/xvdb"] === "bench-gp2" && devs["/dev/xvdc"] === "bench-gp3", "job-pvc.yaml: /dev/xvdb is bench-gp2, /dev/xvdc bench-gp3");
	check(c.securityContext.privileged === false && c.securityContext.capabilities.add.includes("SYS_ADMIN") &&
	  !p.volumes.some((v) => v.hostPath), "job-pvc.yaml: not privileged, no hostPath, CAP_SYS_ADMIN for the admin ioctls");
	process.exit(bad ? 1 : 0);
	JS
	assert_success
	refute_output --partial FAIL
}

@test "job-indexed.yaml: Indexed, a config per index in its Secret, fresh Block volumes per pod, the same StorageClasses" {
	run yaml_node <<-'JS'
	const fs = require("fs");
	let bad = 0;
	const check = (ok, what) => { console.log(`${ok ? "ok  " : "FAIL"} ${what}`); if (!ok) bad++; };
	const all = manifest("job-indexed.yaml"), job = all.find((d) => d.kind === "Job"), spec = job.spec;
	const p = spec.template.spec, c = p.containers[0];
	check(spec.completionMode === "Indexed", "completionMode Indexed");
	check(spec.completions >= 2 && spec.parallelism >= 1 && spec.parallelism <= spec.completions,
	  `completions ${spec.completions}, parallelism ${spec.parallelism}`);
	const m = c.volumeMounts.find((v) => v.subPathExpr);
	check(m && m.subPathExpr === "config-$(JOB_COMPLETION_INDEX).json" && m.mountPath === "/etc/ebsbench/config.json",
	  "config-$(JOB_COMPLETION_INDEX).json mounted as /etc/ebsbench/config.json");
	const idx = c.env.find((e) => e.name === "JOB_COMPLETION_INDEX");
	check(idx && idx.valueFrom.fieldRef.fieldPath === "metadata.annotations['batch.kubernetes.io/job-completion-index']",
	  "JOB_COMPLETION_INDEX from the completion-index annotation");
	const vols = Object.fromEntries(p.volumes.map((v) => [v.name, v]));
	const secretName = vols[m.name].secret.secretName;
	const secret = manifest("secret-example.yaml").find((d) => d.kind === "Secret" && d.metadata.name === secretName);
	const keys = Object.keys(secret.stringData).sort();
	const want = Array.from({ length: spec.completions }, (_, i) => `config-${i}.json`).sort();
	check(JSON.stringify(keys) === JSON.stringify(want), `Secret ${secretName} holds ${want.join(" ")}`);
	const cfgs = keys.map((k) => JSON.parse(secret.stringData[k]));
	const where = cfgs.map((cfg) => cfg.upload.post ? cfg.upload.post.key_prefix : cfg.upload.put["results.json"].split("?")[0]);
	check(new Set(where).size === cfgs.length, `every index uploads somewhere else: ${where.join(" ")}`);
	const paths = c.volumeDevices.map((d) => d.devicePath).sort().join(" ");
	check(cfgs.every((cfg) => cfg.devices.map((d) => d.path).sort().join(" ") === paths),
	  `every config lists the volumeDevices paths: ${paths}`);
	for (const d of c.volumeDevices) {
	  const t = vols[d.name].ephemeral.volumeClaimTemplate.spec;
	  check(t.volumeMode === "Block" && /^bench-gp[23]$/.test(t.storageClassName),
	    `${d.devicePath}: a fresh ephemeral Block volume on ${t.storageClassName}`);
	}
	const scs = (f) => JSON.stringify(manifest(f).filter((d) => d.kind === "StorageClass"));
	check(scs("job-indexed.yaml") === scs("job-pvc.yaml"), "its StorageClasses are job-pvc.yaml's, identical");
	process.exit(bad ? 1 : 0);
	JS
	assert_success
	refute_output --partial FAIL
}

@test "each Job's Secret exists in secret-example.yaml, with the key it mounts and the device paths it hands over" {
	run yaml_node <<-'JS'
	let bad = 0;
	const check = (ok, what) => { console.log(`${ok ? "ok  " : "FAIL"} ${what}`); if (!ok) bad++; };
	const secrets = Object.fromEntries(manifest("secret-example.yaml").filter((d) => d.kind === "Secret")
	  .map((d) => [d.metadata.name, d]));
	for (const file of ["job.yaml", "job-pvc.yaml"]) {
	  const p = manifest(file).find((d) => d.kind === "Job").spec.template.spec, c = p.containers[0];
	  const v = p.volumes.find((v) => v.secret), s = secrets[v.secret.secretName];
	  check(s && s.stringData["config.json"], `${file}: Secret ${v.secret.secretName} has config.json`);
	  const cfg = JSON.parse(s.stringData["config.json"]);
	  const work = c.volumeMounts.find((m) => m.mountPath === c.workingDir).mountPath;
	  check(cfg.output_dir.startsWith(work + "/"), `${file}: output_dir ${cfg.output_dir} is in the emptyDir`);
	  if (c.volumeDevices) {
	    const want = c.volumeDevices.map((d) => d.devicePath).sort().join(" ");
	    check(cfg.devices.map((d) => d.path).sort().join(" ") === want, `${file}: the config lists ${want}`);
	  } else {
	    check(cfg.devices.every((d) => /^vol-[0-9a-f]{17}$/.test(d.volume_id)), `${file}: the config names volumes by id`);
	  }
	  check(cfg.devices.map((d) => d.label).join(" ") === "gp3 gp2", `${file}: gp3 then gp2 in each phase, as in the seed`);
	}
	process.exit(bad ? 1 : 0);
	JS
	assert_success
	refute_output --partial FAIL
}

@test "each example config is read by the real binary: parsed, its expired URLs refused, planned with fresh ones" {
	local cfgs entry
	mapfile -t cfgs < <(example_configs)
	[ "${#cfgs[@]}" -ge 6 ]
	for entry in "${cfgs[@]}"; do
		echo "== $entry"
		local f=$SECRETS/$entry
		# As is: the config parses (a config error would name its key);
		# the example volumes are not on this machine, which is exit 2 too.
		dry_run "$f"
		assert_equal "$status" 2
		[[ $stderr == "ebsbench run: device "*" was not found (ebsbench discover lists what is attached)" ]]
		# On loop devices, with the example's URLs, signed for 2026-09-02
		# 00:00 UTC: refused before any I/O, naming the expiry.
		with_loops "$f" >loops.json
		dry_run loops.json
		assert_equal "$status" 2
		[[ $stderr == *"expires at 2026-09-02T03:00:00Z, before the run's estimated end"* ]]
		# With URLs presign makes now: the run is planned.
		fresh_upload loops.json >fresh.json
		dry_run fresh.json
		assert_equal "$status" 0
		# Six phases per volume and the load curve's six steps on each: on
		# loop devices (not EBS) gp3's rate is its config's IOPS, gp2's what
		# its config's size gives.
		jq -e '.planned_s > 0 and (.steps | length) == 24' <<<"$output" >/dev/null
		# A PUT block must name every file the run writes: the example's
		# names are exactly presign's.
		if jq -e '.upload.put' "$f" >/dev/null; then
			assert_equal "$(jq -r '.upload.put | keys[]' "$f" | sort)" \
				"$(jq -r '.upload.put | keys[]' fresh.json | sort)"
		fi
	done
}

@test "the Jobs' deadlines and the example URLs' lifetime cover the default plan on two 100 GiB volumes" {
	with_loops "$SECRETS/ebsbench-config/config.json" | jq 'del(.upload)' >plan.json
	dry_run plan.json
	assert_success
	local planned
	planned=$(jq -r '.planned_s | ceil' <<<"$output")
	echo "planned_s: $planned"
	# The benchmark's plan: layout 65.5 s + 109.2 s, randread 600 + 2,700 s,
	# then 120, 60, 60, 60 s per volume, each volume's load curve after its
	# randread (gp3's 6 steps of 20,000 I/Os' worth at 750-3,300 IOPS, 60 s at
	# least each; gp2's at 75-330 IOPS from its size, about 690 s), and before
	# the first write each 8 GiB test region read at the layout's rate, 65.5 s
	# + 109.2 s: 5,363 s, what `ebsbench k8s` plans on EBS
	# (image/k8s/README.md, Durations).
	((planned > 5300 && planned < 5400))
	run yaml_node "$planned" <<-'JS'
	const planned = Number(process.argv[2]);
	let bad = 0;
	for (const f of ["job.yaml", "job-pvc.yaml", "job-indexed.yaml"]) {
	  const j = manifest(f).find((d) => d.kind === "Job").spec;
	  // ebsbench's own allowance (10 %), five minutes before the container
	  // starts (node, volume, image), and the stop's upload grace.
	  const need = Math.ceil(planned * 1.1) + 300 + j.template.spec.terminationGracePeriodSeconds;
	  const ok = j.activeDeadlineSeconds >= need;
	  console.log(`${ok ? "ok  " : "FAIL"} ${f}: activeDeadlineSeconds ${j.activeDeadlineSeconds} >= ${need}`);
	  if (!ok) bad++;
	}
	for (const s of manifest("secret-example.yaml").filter((d) => d.kind === "Secret"))
	  for (const [k, v] of Object.entries(s.stringData)) {
	    const exp = Date.parse(JSON.parse(v).upload.expires), signed = Date.parse("2026-09-02T00:00:00Z");
	    const life = (exp - signed) / 1000, ok = life >= 7399;
	    console.log(`${ok ? "ok  " : "FAIL"} ${s.metadata.name}/${k}: URLs live ${life} s >= the 7,399 s deadline`);
	    if (!ok) bad++;
	  }
	process.exit(bad ? 1 : 0);
	JS
	assert_success
	refute_output --partial FAIL
}

@test "job-pvc.yaml's device paths resolve in a container's /dev (nodes /dev/xvdb, /dev/xvdc, no /dev/nvmeXnY)" {
	local cfg=$SECRETS/ebsbench-pvc-config/config.json
	with_loops "$cfg" >loops.json
	# The example config unchanged but for the URLs: its devices stay
	# /dev/xvdc (gp3) and /dev/xvdb (gp2).
	fresh_upload loops.json | jq --slurpfile orig "$cfg" '.devices = $orig[0].devices' >fresh.json
	# A /dev as runc builds it for volumeDevices: a tmpfs with the device
	# nodes at the devicePaths, the disks' own names absent.
	local a b
	a=$(stat -c '0x%t 0x%T' "$LOOP_A")
	b=$(stat -c '0x%t 0x%T' "$LOOP_B")
	cat >in-container.sh <<-EOF
	set -e
	mount -t tmpfs -o mode=755 tmpfs /dev
	mknod -m 666 /dev/null c 1 3
	mknod -m 660 /dev/xvdb b $b
	mknod -m 660 /dev/xvdc b $a
	"$EBSBENCH" run --config fresh.json --dry-run --out out >plan.json 2>err.txt
	EOF
	run unshare -m bash in-container.sh
	echo "$output"
	cat err.txt
	assert_success
	assert_equal "$(jq -r '[.steps[].path] | unique | join(" ")' plan.json)" "/dev/xvdb /dev/xvdc"
	assert_equal "$(jq -r '[.devices[] | .label + "=" + .path] | join(" ")' plan.json)" "gp3=/dev/xvdc gp2=/dev/xvdb"
}
