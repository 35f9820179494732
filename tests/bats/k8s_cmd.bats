#!/usr/bin/env bats
# k8s_cmd.bats - `ebsbench k8s`, offline:
#   - the List it writes validates against the Kubernetes API schemas
#     (tests/k8s/validate.js), item by item;
#   - its objects agree with each other (StorageClass, PVC, Job volumes and
#     devices, the Secret's config, the digest, the instance type) and all
#     carry the run's label, so `kubectl delete -f` of the same List finds
#     them; the StorageClasses (cluster-scoped) are named per run;
#   - the Secret's config is what `ebsbench run --dry-run` plans, on loop
#     devices at the PVCs' device paths in a container-like /dev: its
#     planned_s gives the Job's deadline by image/k8s/README.md's formula,
#     and its POST policy outlives the deadline;
#   - each bad input: one line naming it, exit 2, nothing on stdout; and the
#     POST policy and the secret key never reach stderr;
#   - nothing outside the run: a Namespace object only for the run's own
#     namespace, none for --namespace (Kubernetes' own refused), a name of
#     its own per call, the anti-affinity across namespaces;
#   - credentials known to expire before the upload policy are refused;
#   - the region from the profile's config file, and the fetch line as it
#     works.

bats_require_minimum_version 1.5.0

load helpers
load_bats_libs

REPO=$BATS_TEST_DIRNAME/../..
K8S_TESTS=$REPO/tests/k8s
# Made-up credentials: presign signs offline, nothing is sent anywhere.
export AWS_ACCESS_KEY_ID=AKIAEBSBENCHK8STEST1
export AWS_SECRET_ACCESS_KEY='k8s/Secret+Key/ebsbench000000000000000000'
DIGEST=sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
IMAGE=123456789012.dkr.ecr.ap-northeast-2.amazonaws.com/ebsbench:0.1.0@$DIGEST

setup_file() {
	require_ebsbench
	bash "$K8S_TESTS/install.sh" >&2
	# Stand-ins for the volumes: bigger than the 8 GiB test size, so the
	# layout phase is the one a 100 GiB volume gets.
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

# k8s ARGS...: `ebsbench k8s --image IMAGE --s3 ... --region ... ARGS`,
# status, output (the manifest) and stderr set.
k8s() {
	run --separate-stderr "$EBSBENCH" k8s --image "$IMAGE" --s3 s3://my-ebsbench-results/runs/k8s/ \
		--region ap-northeast-2 "$@"
}

# config_of MANIFEST > CONFIG: the run's config from the List's Secret.
config_of() {
	jq -r '.items[] | select(.kind == "Secret") | .stringData["config.json"]' "$1"
}

@test "the List validates against the Kubernetes schemas, item by item" {
	k8s --volume gp3:100 --volume gp2:100 --volume io2:200:8000
	assert_success
	echo "$output" >manifest.json
	run node "$K8S_TESTS/validate.js" manifest.json
	echo "$output"
	assert_success
	assert_line "9 documents checked, 0 failed"
	assert_equal "$(grep -c '^ok ' <<<"$output")" 9
	# The kinds in apply order: what is used before what uses it.
	assert_equal "$(jq -r '[.items[].kind] | join(" ")' manifest.json)" \
		"Namespace StorageClass StorageClass StorageClass PersistentVolumeClaim PersistentVolumeClaim PersistentVolumeClaim Secret Job"
	# The check can fail: a broken item, named by its place; an empty List.
	jq '.items[8].spec.backoffLimit = "0"' manifest.json >broken.json
	run node "$K8S_TESTS/validate.js" broken.json
	assert_failure 1
	assert_line "FAIL broken.json [1.9] batch/v1 Job $(jq -r '.items[8].metadata | .namespace + "/" + .name' manifest.json): data/spec/backoffLimit must be integer"
	jq '.items = []' manifest.json >empty.json
	run node "$K8S_TESTS/validate.js" empty.json
	assert_failure 1
	assert_line "FAIL empty.json [1] v1 List: no items"
}

@test "the objects agree: classes, claims, devices, config, digest, instance type, labels" {
	k8s --volume gp3:100:4000:250 --volume gp2:100 --volume io1:50:2500 --instance-type m6i.xlarge
	assert_success
	echo "$output" >manifest.json
	config_of manifest.json >config.json
	run jq -r --slurpfile cfg config.json --arg digest "$DIGEST" --arg image "$IMAGE" '
	  def check(ok; what): if ok then "ok   " + what else "FAIL " + what end;
	  ($cfg[0]) as $c | .items as $o
	  | ($o | map(select(.kind == "StorageClass"))) as $sc
	  | ($o | map(select(.kind == "PersistentVolumeClaim"))) as $pvc
	  | ($o[] | select(.kind == "Job")) as $job
	  | ($o[] | select(.kind == "Secret")) as $secret
	  | ($job.spec.template.spec) as $pod | ($pod.containers[0]) as $ctr
	  | ($job.metadata.labels["app.kubernetes.io/instance"]) as $run
	  | check($run | test("^ebsbench-[0-9]{8}-[0-9]{6}-[a-z0-9]{5}$"); "run name \($run)"),
	    check(($o | all(.metadata.labels["app.kubernetes.io/managed-by"] == "ebsbench")); "every object managed by ebsbench"),
	    check(($o | all(.metadata.labels["app.kubernetes.io/instance"] == $run)); "every object labelled"),
	    check(($o | map(select(.kind != "Namespace" and .kind != "StorageClass")) | all(.metadata.namespace == $run)); "namespaced objects in the run'"'"'s own namespace"),
	    check(($o[] | select(.kind == "Namespace") | .metadata.name) == $run; "the Namespace named as the run"),
	    check(($sc | all(.metadata.name | startswith($run + "-"))); "StorageClasses named per run"),
	    check(($sc | length) == 3 and ($pvc | length) == 3 and ($c.devices | length) == 3; "three of each"),
	    (range(0; 3) as $i | $c.devices[$i] as $d
	     | check($pvc[$i].spec.storageClassName == $sc[$i].metadata.name; "pvc \($i) class"),
	       check($pvc[$i].spec.volumeMode == "Block"; "pvc \($i) Block"),
	       check($pvc[$i].spec.resources.requests.storage == "\($d.size_gib)Gi"; "pvc \($i) size \($d.size_gib)"),
	       check($sc[$i].provisioner == "ebs.csi.aws.com" and $sc[$i].parameters.type == $d.type; "class \($i) type \($d.type)"),
	       check(($sc[$i].parameters.iops // null) == (if $d.iops then "\($d.iops)" else null end); "class \($i) iops"),
	       check(($sc[$i].parameters.throughput // null) == (if $d.throughput_mibs then "\($d.throughput_mibs)" else null end); "class \($i) throughput"),
	       check(($pod.volumes[] | select(.name == $ctr.volumeDevices[$i].name) | .persistentVolumeClaim.claimName) == $pvc[$i].metadata.name; "device \($i) claim"),
	       check($ctr.volumeDevices[$i].devicePath == $d.path; "device \($i) at \($d.path)")),
	    check([$c.devices[] | [.type, .size_gib, .iops, .throughput_mibs]] == [["gp3",100,4000,250],["gp2",100,null,null],["io1",50,2500,null]]; "config devices as given"),
	    check(($pod.volumes[] | select(.name == "config") | .secret.secretName) == $secret.metadata.name; "the Job reads the Secret"),
	    check($ctr.image == $image and ($ctr.env[] | select(.name == "EBSBENCH_IMAGE_DIGEST") | .value) == $digest; "pinned by digest"),
	    check($pod.nodeSelector["node.kubernetes.io/instance-type"] == "m6i.xlarge" and $c.environment.instance_type == "m6i.xlarge"; "instance type"),
	    check($job.spec.backoffLimit == 1 and $pod.restartPolicy == "Never" and $ctr.args == ["--resume=auto"]; "one replacement pod, which resumes"),
	    check($job.spec.podFailurePolicy.rules == [{action: "Ignore", onPodConditions: [{type: "DisruptionTarget"}]}, {action: "FailJob", onExitCodes: {containerName: "ebsbench", operator: "In", values: [1,2,3,4]}}]; "an evicted pod replaced uncounted; ebsbench'"'"'s own exits fail the Job"),
	    check(($c.upload.resume_get | startswith("https://s3.") and contains("/my-ebsbench-results/runs/k8s/results.json?")); "the resume GET of the run'"'"'s results.json"),
	    check($job.spec.template.metadata.annotations["karpenter.sh/do-not-disrupt"] == "true"; "do-not-disrupt"),
	    check($pod.automountServiceAccountToken == false and $ctr.securityContext.readOnlyRootFilesystem == true and $ctr.securityContext.privileged == false; "no token, read-only root, not privileged"),
	    check(($pod.volumes[] | select(.name == "results") | .emptyDir) != null and $c.output_dir == "/var/lib/ebsbench/results"; "results in an emptyDir"),
	    check(($o[] | select(.kind == "Namespace") | .metadata.labels["pod-security.kubernetes.io/enforce"]) == "privileged"; "namespace admits SYS_ADMIN"),
	    check($c.upload.post.key_prefix == "runs/k8s/" and ($c.upload.post.url | endswith("/my-ebsbench-results")); "one POST policy for the prefix")
	' manifest.json
	echo "$output"
	assert_success
	refute_output --partial FAIL
}

# dry_run_in_pod CONFIG > PLAN: `ebsbench run --dry-run` of CONFIG, in a
# /dev laid out as the container runtime lays it out for volumeDevices:
# loop devices at /dev/xvdb and /dev/xvdc.
dry_run_in_pod() {
	local a b
	a=$(stat -c '0x%t 0x%T' "$LOOP_A")
	b=$(stat -c '0x%t 0x%T' "$LOOP_B")
	cat >in-container.sh <<-EOF
	set -e
	mount -t tmpfs -o mode=755 tmpfs /dev
	mknod -m 666 /dev/null c 1 3
	mknod -m 660 /dev/xvdb b $a
	mknod -m 660 /dev/xvdc b $b
	"$EBSBENCH" run --config "$1" --dry-run --out out
	EOF
	unshare -m bash in-container.sh
}

# plan_of STDERR: the plan's seconds `ebsbench k8s` said it sized the Job for.
plan_of() {
	sed -n 's/.*, plan \([0-9]*\) s, activeDeadlineSeconds.*/\1/p' <<<"$1"
}

@test "the Secret's config plans under run --dry-run; its planned_s sizes the deadline and the policy outlives it" {
	# Provisioned IOPS below the instance's: the plan is the same on loop
	# devices as on EBS (a loop device's load curve needs the config's IOPS).
	k8s --volume gp3:100 --volume io2:100:4000
	assert_success
	echo "$output" >manifest.json
	config_of manifest.json >config.json
	dry_run_in_pod config.json >plan.json
	local planned said deadline expires signed
	planned=$(jq -r '.planned_s' plan.json)
	said=$(plan_of "$stderr")
	deadline=$(jq -r '.items[] | select(.kind == "Job") | .spec.activeDeadlineSeconds' manifest.json)
	echo "dry run planned_s $planned, k8s plan $said s, deadline $deadline s"
	assert_equal "$(jq -r '[.steps[].path] | unique | join(" ")' plan.json)" "/dev/xvdb /dev/xvdc"
	assert_equal "$(jq -r '[.devices[] | .label + "=" + .path] | join(" ")' plan.json)" "gp3=/dev/xvdb io2=/dev/xvdc"
	assert_equal "$said" "$(jq -r '.planned_s | . + 0.5 | floor' plan.json)"
	# image/k8s/README.md, Durations: plan x 1.1 + 900 s start + 600 s grace.
	assert_equal "$deadline" "$(jq -r '.planned_s * 1.1 | ceil + 1500' plan.json)"
	# The policy: the deadline, its 600 s grace, 300 s to apply, from signing.
	expires=$(jq -r '.upload.expires | fromdate' config.json)
	signed=$(jq -r '.upload.post.fields["x-amz-date"] | strptime("%Y%m%dT%H%M%SZ") | mktime' config.json)
	assert_equal "$((expires - signed))" "$((deadline + 900))"
}

@test "with gp2 the Job's plan is the EBS one, load curve included, and a loop device typed gp2 plans the same" {
	k8s --volume gp3:100 --volume gp2:100
	assert_success
	echo "$output" >manifest.json
	config_of manifest.json >config.json
	dry_run_in_pod config.json >plan.json
	local planned said
	planned=$(jq -r '.planned_s | . + 0.5 | floor' plan.json)
	said=$(plan_of "$stderr")
	echo "dry run (loop devices) planned_s $planned, k8s (EBS) plan $said s"
	# gp2's six load-curve steps at 75-330 IOPS (about 690 s) are in both:
	# on a loop device the config's gp2 and size give its rate.
	assert_equal "$(jq -r '[.steps[] | select(.phase == "loadcurve")] | length' plan.json)" 12
	assert_equal "$said" "$planned"
	((said > 5000))
	# The deadline covers the plan a dry run gives, by the formula.
	local deadline
	deadline=$(jq -r '.items[] | select(.kind == "Job") | .spec.activeDeadlineSeconds' manifest.json)
	assert_equal "$deadline" "$(jq -r '.planned_s * 1.1 | ceil + 1500' plan.json)"
}

@test "each bad input: one line naming it, exit 2, nothing on stdout" {
	local cases=(
		"--image r/e:0.1.0|--image 'r/e:0.1.0': pin it by digest"
		"--volume gp3:100:100|--volume 'gp3:100:100': gp3: 100 IOPS outside 3000..80000"
		"--volume gp9:100|--volume 'gp9:100': unknown type 'gp9'"
		"--volume gp2:100:3000|--volume 'gp2:100:3000': gp2's IOPS and throughput follow its size"
		"--volume io2:100|--volume 'io2:100': io2 needs its IOPS"
		"--volume st1:100|--volume 'st1:100': st1: 100 GiB outside 125..16384 GiB"
		"--s3 https://b-1/p|--s3 'https://b-1/p': want s3://BUCKET/PREFIX"
		"--s3 s3://b-1|--s3 's3://b-1': want s3://BUCKET/PREFIX"
		"--s3 s3://B_1/p|--s3 's3://B_1/p': 'B_1' is not a bucket name"
		"--namespace Bench|--namespace 'Bench': not a Kubernetes name"
		"--namespace default|--namespace 'default': Kubernetes' own namespace"
		"--namespace kube-system|--namespace 'kube-system': Kubernetes' own namespace"
		"--namespace kube-public|--namespace 'kube-public': Kubernetes' own namespace"
		"--namespace kube-node-lease|--namespace 'kube-node-lease': Kubernetes' own namespace"
		"--endpoint ftp://s3|--endpoint 'ftp://s3': want http:// or https://"
		"--fleet 0|--fleet '0': want a number of pods, 1 to 100"
		"--bogus|unknown option --bogus"
	)
	local c args want
	for c in "${cases[@]}"; do
		read -r -a args <<<"${c%%|*}"
		want=${c#*|}
		# The flag under test comes after the good ones and replaces them.
		run --separate-stderr "$EBSBENCH" k8s --image "$IMAGE" --volume gp3:100 \
			--s3 s3://b-1/p --region us-east-1 "${args[@]}"
		echo "${args[*]}: $status: $stderr"
		assert_equal "$status" 2
		assert_equal "$output" ""
		[[ $stderr == "ebsbench k8s: $want"* ]]
		assert_equal "$(wc -l <<<"$stderr")" 1
	done
	# No credentials (none in the environment, no profile files): presign's
	# reason, before anything is written.
	run --separate-stderr env -u AWS_ACCESS_KEY_ID -u AWS_SECRET_ACCESS_KEY -u AWS_PROFILE \
		AWS_SHARED_CREDENTIALS_FILE="$BATS_TEST_TMPDIR/none" AWS_CONFIG_FILE="$BATS_TEST_TMPDIR/none" \
		"$EBSBENCH" k8s --image "$IMAGE" --volume gp3:100 --s3 s3://b-1/p --region us-east-1
	assert_equal "$status" 2
	assert_equal "$output" ""
	[[ $stderr == "ebsbench k8s: no AWS credentials: AWS_ACCESS_KEY_ID is not set and profile 'default' is in neither "* ]]
	assert_equal "$(wc -l <<<"$stderr")" 1
	# Half a key pair in the environment: named.
	run --separate-stderr env -u AWS_SECRET_ACCESS_KEY "$EBSBENCH" k8s --image "$IMAGE" \
		--volume gp3:100 --s3 s3://b-1/p --region us-east-1
	assert_equal "$status" 2
	assert_equal "$stderr" "ebsbench k8s: AWS_ACCESS_KEY_ID is set but AWS_SECRET_ACCESS_KEY is not"
	run --separate-stderr "$EBSBENCH" k8s --volume gp3:100
	assert_equal "$status" 2
	assert_equal "$output" ""
	assert_equal "$stderr" "ebsbench k8s: --image, --volume and --s3 are required (try ebsbench k8s --help)"
	# No region anywhere: the environment, nor the profile's config file.
	run --separate-stderr env -u AWS_REGION -u AWS_DEFAULT_REGION AWS_CONFIG_FILE="$BATS_TEST_TMPDIR/none" \
		"$EBSBENCH" k8s --image "$IMAGE" --volume gp3:100 --s3 s3://b-1/p
	assert_equal "$status" 2
	assert_equal "$output" ""
	assert_equal "$stderr" "ebsbench k8s: no region: give --region, or set AWS_REGION, or a region in the profile's config file (try ebsbench k8s --help)"
}

@test "the POST policy and the secret key are in the manifest only, never on stderr" {
	export AWS_SESSION_TOKEN=k8s-session-token-ebsbench-test
	k8s --volume gp3:100
	assert_success
	echo "$output" >manifest.json
	config_of manifest.json >config.json
	local policy signature
	policy=$(jq -r '.upload.post.fields.policy' config.json)
	signature=$(jq -r '.upload.post.fields["x-amz-signature"]' config.json)
	[ "${#policy}" -gt 100 ]
	[ "${#signature}" -eq 64 ]
	assert_equal "$(jq -r '.upload.post.fields["x-amz-security-token"]' config.json)" "$AWS_SESSION_TOKEN"
	echo "stderr: $stderr"
	assert_equal "$(wc -l <<<"$stderr")" 2
	[[ ${stderr%%$'\n'*} == "ebsbench k8s: Job ebsbench-"*"/ebsbench-"*", plan "*" s, activeDeadlineSeconds "*"; its Secret allows writes to s3://my-ebsbench-results/runs/k8s/ until "*": keep the output secret" ]]
	# The next commands, with the run's own names.
	local run=${stderr#*: Job } ns
	ns=${run%%/*} run=${run#*/} run=${run%%,*}
	[[ ${stderr#*$'\n'} == "ebsbench k8s: then kubectl logs -f -n $ns job/$run; the results: ebsbench fetch --wait s3://my-ebsbench-results/runs/k8s/ --region ap-northeast-2; remove it all: kubectl delete -f with this output" ]]
	for s in "$policy" "$signature" "$AWS_SECRET_ACCESS_KEY" "$AWS_SESSION_TOKEN"; do
		[[ $stderr != *"$s"* ]]
	done
	# The secret key is in neither: only what it signed.
	! grep -qF "$AWS_SECRET_ACCESS_KEY" manifest.json
}

@test "an instance type the EBS model does not know: the manifest, and a note that the plan has no instance limit" {
	k8s --volume gp3:100 --instance-type r7i.xlarge
	assert_success
	assert_equal "$(jq -r '.items[] | select(.kind == "Job") | .spec.template.spec.nodeSelector["node.kubernetes.io/instance-type"]' <<<"$output")" r7i.xlarge
	assert_equal "$(head -n 1 <<<"$stderr")" "ebsbench k8s: r7i.xlarge is not in the EBS model's instance table: the plan assumes no instance limit"
	assert_equal "$(wc -l <<<"$stderr")" 3
}

@test "--fleet 3: an Indexed Job, fresh ephemeral volumes per pod, config-I.json uploading under PREFIX/I/" {
	k8s --volume gp3:100 --volume gp2:100 --fleet 3
	assert_success
	echo "$output" >manifest.json
	run node "$K8S_TESTS/validate.js" manifest.json
	echo "$output"
	assert_success
	assert_line "5 documents checked, 0 failed"
	run jq -r '
	  def check(ok; what): if ok then "ok   " + what else "FAIL " + what end;
	  .items as $o
	  | ($o | map(select(.kind == "StorageClass"))) as $sc
	  | ($o[] | select(.kind == "Job")) as $job | ($o[] | select(.kind == "Secret")) as $secret
	  | ($job.spec.template.spec) as $pod | ($pod.containers[0]) as $ctr
	  | check([$o[].kind] == ["Namespace", "StorageClass", "StorageClass", "Secret", "Job"]; "no PVC objects"),
	    check($job.spec.completionMode == "Indexed" and $job.spec.completions == 3 and $job.spec.parallelism == 3; "Indexed, 3 at once"),
	    check($job.spec.backoffLimitPerIndex == 0 and ($job.spec | has("backoffLimit") | not); "a failed index ends only itself"),
	    (range(0; 2) as $i | ($pod.volumes[] | select(.name == $ctr.volumeDevices[$i].name) | .ephemeral.volumeClaimTemplate) as $t
	     | check($t.spec.storageClassName == $sc[$i].metadata.name and $t.spec.volumeMode == "Block" and $t.spec.resources.requests.storage == "100Gi"; "pod volume \($i) ephemeral on its class")),
	    check(($ctr.env[] | select(.name == "JOB_COMPLETION_INDEX") | .valueFrom.fieldRef.fieldPath) == "metadata.annotations['"'"'batch.kubernetes.io/job-completion-index'"'"']"; "the index from the annotation"),
	    check(($ctr.volumeMounts[] | select(.name == "config")) == {name: "config", mountPath: "/etc/ebsbench/config.json", readOnly: true, subPathExpr: "config-$(JOB_COMPLETION_INDEX).json"}; "pod I mounts config-I.json"),
	    check(($pod.volumes[] | select(.name == "config") | .secret.secretName) == $secret.metadata.name; "the Job reads the Secret"),
	    check(($secret.stringData | keys) == ["config-0.json", "config-1.json", "config-2.json"]; "a config per index"),
	    check([$secret.stringData[] | fromjson | .upload.post.key_prefix] == ["runs/k8s/0/", "runs/k8s/1/", "runs/k8s/2/"]; "each under its own prefix"),
	    check(([$secret.stringData[] | fromjson | .upload | has("resume_get")] | any | not) and ($ctr | has("args") | not); "a fleet pod does not resume"),
	    check([$secret.stringData[] | fromjson | del(.upload.post.key_prefix)] | unique | length == 1; "one policy, otherwise the same config")
	' manifest.json
	echo "$output"
	assert_success
	refute_output --partial FAIL
	# Pod 1's config is planned as the one run's.
	jq -r '.items[] | select(.kind == "Secret") | .stringData["config-1.json"]' manifest.json >config.json
	dry_run_in_pod config.json >plan.json
	jq -e '.planned_s > 0' plan.json
}

@test "--namespace names the user's: no Namespace object, so apply never relabels it and delete -f never deletes it" {
	k8s --volume gp3:100 --namespace prod
	assert_success
	echo "$output" >manifest.json
	assert_equal "$(jq -r '[.items[].kind] | join(" ")' manifest.json)" "StorageClass PersistentVolumeClaim Secret Job"
	assert_equal "$(jq -r '[.items[] | select(.kind != "StorageClass") | .metadata.namespace] | unique | join(" ")' manifest.json)" prod
	run node "$K8S_TESTS/validate.js" manifest.json
	assert_success
	assert_line "4 documents checked, 0 failed"
	# stderr says what the namespace must be, in one line of its own.
	assert_equal "$(sed -n 2p <<<"$stderr")" "ebsbench k8s: no Namespace object: prod must exist, and its Pod Security must admit the pod at level privileged (it adds CAP_SYS_ADMIN); kubectl delete -f leaves the namespace alone"
	[[ $(sed -n 3p <<<"$stderr") == "ebsbench k8s: then kubectl logs -f -n prod job/ebsbench-"* ]]
	# A fleet in the user's namespace: the same.
	k8s --volume gp3:100 --namespace prod --fleet 2
	assert_success
	assert_equal "$(jq -r '[.items[].kind] | join(" ")' <<<"$output")" "StorageClass Secret Job"
}

@test "two calls in the same second: two runs, nothing shared; the anti-affinity spans every namespace" {
	export EBSBENCH_PRESIGN_TIME=20261203T130551Z
	k8s --volume gp3:100
	assert_success
	echo "$output" >a.json
	k8s --volume gp3:100
	assert_success
	echo "$output" >b.json
	local a b
	a=$(jq -r '.items[] | select(.kind == "Job") | .metadata.name' a.json)
	b=$(jq -r '.items[] | select(.kind == "Job") | .metadata.name' b.json)
	echo "$a $b"
	[[ $a == ebsbench-20261203-130551-* && $b == ebsbench-20261203-130551-* ]]
	[[ $a != "$b" ]]
	# No object of one is an object of the other (kind, namespace, name).
	assert_equal "$(jq -r '.items[] | [.kind, .metadata.namespace // "", .metadata.name] | join("/")' a.json b.json | sort | uniq -d)" ""
	# Never two ebsbench pods on a node, whatever their namespaces.
	assert_equal "$(jq -c '.items[] | select(.kind == "Job") | .spec.template.spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution' a.json)" \
		'[{"labelSelector":{"matchLabels":{"app.kubernetes.io/name":"ebsbench"}},"namespaceSelector":{},"topologyKey":"kubernetes.io/hostname"}]'
}

# process_creds SECONDS: a credential_process printing a session expiring
# SECONDS from now, in the profile "temp" of a config file of its own.
process_creds() {
	local until
	until=$(date -u -d "@$(($(date +%s) + $1))" +%Y-%m-%dT%H:%M:%SZ)
	cat >creds.sh <<-EOF
	printf '{"Version": 1, "AccessKeyId": "ASIAEBSBENCHTEMP0001", "SecretAccessKey": "t3mp/Secret", "SessionToken": "tok", "Expiration": "$until"}'
	EOF
	printf '[profile temp]\ncredential_process = sh %s/creds.sh\nregion = eu-west-1\n' "$PWD" >config
	echo "$until"
}

@test "credentials that expire before the upload policy: refused in one line; the region from the profile" {
	local until
	until=$(process_creds 3600)
	run --separate-stderr env -u AWS_ACCESS_KEY_ID -u AWS_SECRET_ACCESS_KEY -u AWS_REGION -u AWS_DEFAULT_REGION \
		AWS_CONFIG_FILE="$PWD/config" AWS_SHARED_CREDENTIALS_FILE="$PWD/none" \
		"$EBSBENCH" k8s --image "$IMAGE" --volume gp3:100 --s3 s3://b-1/p --profile temp
	echo "$stderr"
	assert_equal "$status" 2
	assert_equal "$output" ""
	assert_equal "$(wc -l <<<"$stderr")" 1
	[[ $stderr == "ebsbench k8s: the credentials (credential_process of profile 'temp' in $PWD/config) expire at $until, before the run's upload policy would at "*": the run would lose its results; sign with credentials that last until then "* ]]
	# The same from the environment, its expiry where botocore reads it.
	run --separate-stderr env AWS_SESSION_TOKEN=tok AWS_CREDENTIAL_EXPIRATION="$until" \
		"$EBSBENCH" k8s --image "$IMAGE" --volume gp3:100 --s3 s3://b-1/p --region us-east-1
	assert_equal "$status" 2
	[[ $stderr == "ebsbench k8s: the credentials (the environment) expire at $until, before "* ]]
	# A session that outlives the policy (the plan's 1,391 s, its deadline
	# and grace: about 1 h 10 min): signed, in the profile's region.
	process_creds 10800 >/dev/null
	run --separate-stderr env -u AWS_ACCESS_KEY_ID -u AWS_SECRET_ACCESS_KEY -u AWS_REGION -u AWS_DEFAULT_REGION \
		AWS_CONFIG_FILE="$PWD/config" AWS_SHARED_CREDENTIALS_FILE="$PWD/none" \
		"$EBSBENCH" k8s --image "$IMAGE" --volume gp3:100 --s3 s3://b-1/p --profile temp
	echo "$stderr"
	assert_success
	config_of <(echo "$output") >config.json
	assert_equal "$(jq -r '.region' config.json)" eu-west-1
	assert_equal "$(jq -r '.upload.post.fields["x-amz-credential"]' config.json | cut -d/ -f3)" eu-west-1
	[[ $stderr == *"the results: ebsbench fetch --wait s3://b-1/p --region eu-west-1 --profile temp;"* ]]
}

@test "--config and --plan: the run's plan from the user's config, the deadline and the policy following it" {
	k8s --volume gp3:100
	assert_success
	local full
	full=$(plan_of "$stderr")
	# A shorter plan: two phases of 60 s.
	echo '{"phases": [{"phase": "randread", "runtime": 60}, {"phase": "lat", "runtime": 60}]}' >short.json
	k8s --volume gp3:100 --config short.json
	assert_success
	echo "$output" >manifest.json
	config_of manifest.json >config.json
	local said deadline
	said=$(plan_of "$stderr")
	deadline=$(jq -r '.items[] | select(.kind == "Job") | .spec.activeDeadlineSeconds' manifest.json)
	echo "full plan $full s, --config plan $said s, deadline $deadline s"
	((said < full / 2))
	assert_equal "$(jq -c '[.phases[].phase]' config.json)" '["randread","lat"]'
	assert_equal "$(jq -r '.output_dir' config.json)" /var/lib/ebsbench/results
	dry_run_in_pod config.json >plan.json
	assert_equal "$said" "$(jq -r '.planned_s | . + 0.5 | floor' plan.json)"
	assert_equal "$deadline" "$(jq -r '.planned_s * 1.1 | ceil + 1500' plan.json)"
	# --plan NAME in place of the config's phases.
	k8s --volume gp3:100 --config short.json --plan sweep
	assert_success
	config_of <(echo "$output") >sweep.json
	assert_equal "$(jq -c '.phases' sweep.json)" '["sweep"]'
	# What a launcher's config may not hold: one line each.
	local c
	for c in '{"devices": []}|names devices: give --volume' \
		'{"upload": {}}|has an upload block: the launcher signs it' \
		'{"output_dir": "/tmp/x"}|sets output_dir: the launcher does' \
		'[1]|is not a JSON object'; do
		echo "${c%%|*}" >bad.json
		k8s --volume gp3:100 --config bad.json
		assert_equal "$status" 2
		assert_equal "$output" ""
		assert_equal "$stderr" "ebsbench k8s: --config bad.json ${c#*|}"
	done
	k8s --volume gp3:100 --plan nosuch
	assert_equal "$status" 2
	assert_equal "$stderr" "ebsbench k8s: --plan 'nosuch': the plans are: sweep, quick"
}

@test "--plan quick: the README's two volumes plan at most 6 minutes, not 5,363 s, in the Job and the dry run" {
	k8s --volume gp3:100:3000:125 --volume gp2:100
	assert_success
	local full
	full=$(plan_of "$stderr")
	k8s --volume gp3:100:3000:125 --volume gp2:100 --plan quick
	assert_success
	echo "$output" >manifest.json
	config_of manifest.json >config.json
	assert_equal "$(jq -r '.plan' config.json)" quick
	dry_run_in_pod config.json >plan.json
	local said deadline
	said=$(plan_of "$stderr")
	deadline=$(jq -r '.items[] | select(.kind == "Job") | .spec.activeDeadlineSeconds' manifest.json)
	echo "default plan $full s, quick plan $said s (dry run $(jq .planned_s plan.json) s), deadline $deadline s"
	assert_equal "$full" 5363
	((said <= 360))
	assert_equal "$said" "$(jq -r '.planned_s | . + 0.5 | floor' plan.json)"
	assert_equal "$deadline" "$(jq -r '.planned_s * 1.1 | ceil + 1500' plan.json)"
	# Every phase of the default plan, on a 1 GiB region; gp3's timed steps
	# stop when steady (the analysis's metric), gp2's run to their ceiling on
	# its bucket, bar its load steps at or below its 300 IOPS baseline.
	assert_equal "$(jq -r '[.steps[].phase] | unique | join(" ")' plan.json)" \
		"lat layout loadcurve randread randwrite seqread seqwrite"
	assert_equal "$(jq -r '[.steps[].options.size] | unique | join(" ")' plan.json)" 1073741824
	assert_equal "$(jq -r '[.steps[] | select(.device == "gp3" and .phase != "layout") | .phase + "=" + .options.steadystate] | unique | join(" ")' plan.json)" \
		"lat=snia_p99 loadcurve=snia_p99 randread=snia_iops randwrite=snia_iops seqread=snia_bw seqwrite=snia_bw"
	assert_equal "$(jq -r '[.steps[] | select(.device == "gp2" and .options.steadystate) | .load.percent] | join(" ")' plan.json)" \
		"100 90 75 50 25"
	assert_equal "$(jq -r '[.steps[] | select(.options.steadystate) | .options.steadystate_floor] | unique | join(" ")' plan.json)" \
		"10000000us 5000000us"
}

@test "--encrypted, --kms-key-id, --toleration, --node-selector: in the classes and the pod, schema-valid; bad ones one line" {
	local kms=arn:aws:kms:ap-northeast-2:123456789012:key/0f8c2b1e-1234-4cde-9abc-0123456789ab
	k8s --volume gp3:100 --volume gp2:100 --kms-key-id "$kms" --toleration dedicated=bench:NoSchedule \
		--toleration spot --node-selector karpenter.sh/capacity-type=on-demand --node-selector team=sre
	assert_success
	echo "$output" >manifest.json
	run node "$K8S_TESTS/validate.js" manifest.json
	assert_success
	assert_line "7 documents checked, 0 failed"
	run jq -c '[.items[] | select(.kind == "StorageClass") | .parameters | [.encrypted, .kmsKeyId]] | unique' manifest.json
	assert_output "[[\"true\",\"$kms\"]]"
	run jq -c '.items[] | select(.kind == "Job") | .spec.template.spec | [.tolerations, .nodeSelector]' manifest.json
	assert_output '[[{"key":"dedicated","operator":"Equal","value":"bench","effect":"NoSchedule"},{"key":"spot","operator":"Exists"}],{"node.kubernetes.io/instance-type":"m5.xlarge","kubernetes.io/os":"linux","karpenter.sh/capacity-type":"on-demand","team":"sre"}]'
	# --encrypted alone: the account's default key; none of these: neither.
	k8s --volume gp3:100 --encrypted
	assert_equal "$(jq -c '[.items[] | select(.kind == "StorageClass") | .parameters | [.encrypted, .kmsKeyId]]' <<<"$output")" '[["true",null]]'
	k8s --volume gp3:100
	assert_equal "$(jq -c '[.items[] | select(.kind == "StorageClass") | .parameters | has("encrypted")]' <<<"$output")" '[false]'
	assert_equal "$(jq -c '.items[] | select(.kind == "Job") | .spec.template.spec | has("tolerations")' <<<"$output")" false
	local cases=(
		"--toleration a:NoWay|--toleration 'a:NoWay': want KEY[=VALUE][:EFFECT]"
		"--toleration =x|--toleration '=x': want KEY[=VALUE][:EFFECT]"
		"--node-selector team|--node-selector 'team': want KEY=VALUE, a Kubernetes label"
		"--node-selector kubernetes.io/os=windows|--node-selector 'kubernetes.io/os=windows': kubernetes.io/os is chosen already"
	)
	local c args
	for c in "${cases[@]}"; do
		read -r -a args <<<"${c%%|*}"
		k8s --volume gp3:100 "${args[@]}"
		echo "${args[*]}: $status: $stderr"
		assert_equal "$status" 2
		assert_equal "$output" ""
		[[ $stderr == "ebsbench k8s: ${c#*|}"* ]]
		assert_equal "$(wc -l <<<"$stderr")" 1
	done
}

@test "image/k8s's Durations and the hand manifests' deadlines are what the binary writes for the README's volumes" {
	k8s --volume gp3:100:3000:125 --volume gp2:100
	assert_success
	local plan deadline readme_plan readme_deadline f
	plan=$(plan_of "$stderr")
	deadline=$(jq -r '.items[] | select(.kind == "Job") | .spec.activeDeadlineSeconds' <<<"$output")
	readme_plan=$(sed -n 's/^| plan | \([0-9,]*\) s .*/\1/p' "$REPO/image/k8s/README.md" | tr -d ,)
	readme_deadline=$(sed -n 's/^| `activeDeadlineSeconds` | \([0-9,]*\) s .*/\1/p' "$REPO/image/k8s/README.md" | tr -d ,)
	echo "binary: plan $plan s, deadline $deadline s; README: $readme_plan s, $readme_deadline s"
	assert_equal "$readme_plan" "$plan"
	assert_equal "$readme_deadline" "$deadline"
	for f in job.yaml job-pvc.yaml job-indexed.yaml; do
		assert_equal "$(sed -n 's/^  activeDeadlineSeconds: //p' "$REPO/image/k8s/$f")" "$deadline"
	done
}
