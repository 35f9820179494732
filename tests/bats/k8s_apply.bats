#!/usr/bin/env bats
# k8s_apply.bats - `ebsbench k8s ... --apply`, end to end against a fake
# kubectl (tests/k8s/fake-kubectl, first on PATH: it records each call with
# its stdin and plays a cluster and a Job's life, its pod uploading a
# rendered run through the Secret's POST policy) and the SigV4-checking S3
# peer behind verified TLS (tests/peers):
#   - the calls in order (preflight, apply, logs, get job, delete), the
#     progress on stderr, the files fetched, report.html's path alone on
#     stdout, the delete given the List the apply got, which passes the
#     schema check; no secret on stdout or stderr;
#   - a failed Job: its reason and log lines, what it uploaded fetched, the
#     cleanup, exit 6;
#   - SIGINT mid-run: the pod deleted with its grace period, what it
#     uploaded fetched, the cleanup, exit 7; while Pending: only the
#     cleanup;
#   - each preflight failure one line and its exit status (no kubectl or no
#     cluster 3, no CSI driver 4, S3 refusing 5), nothing applied; no node
#     of the type a warning only, a NodePool that admits one a note;
#   - --keep: nothing deleted, DIR/run.json (0600) the List applied; the
#     same when kubectl stops answering about the Job (left to run).

bats_require_minimum_version 1.5.0

load helpers
load ../peers/peers
load launch_helpers
load_bats_libs

# The S3 server's only key pair (s3.sh takes it from here).
export AWS_ACCESS_KEY_ID=AKIAEBSBENCHAPPLY001
export AWS_SECRET_ACCESS_KEY='4pply/Secret+Key/ebsbench0000000000000000'
SECRET=$AWS_SECRET_ACCESS_KEY
DIGEST=sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
IMAGE=123456789012.dkr.ecr.ap-northeast-2.amazonaws.com/ebsbench:0.1.0@$DIGEST
K8S_TESTS=$BATS_TEST_DIRNAME/../k8s

setup_file() {
	require_ebsbench
	bash "$K8S_TESTS/install.sh" >&2
	peers_start "$BATS_FILE_TMPDIR/peers"
	# The run the fake pod uploads.
	export FAKE_RUN=$BATS_FILE_TMPDIR/run
	render_fake_run "$FAKE_RUN"
	# kubectl is the fake.
	mkdir -p "$BATS_FILE_TMPDIR/bin"
	ln -s "$(cd "$K8S_TESTS" && pwd)/fake-kubectl" "$BATS_FILE_TMPDIR/bin/kubectl"
}

teardown_file() {
	peers_stop "$BATS_FILE_TMPDIR/peers"
}

setup() {
	cd "$BATS_TEST_TMPDIR"
	export PATH=$BATS_FILE_TMPDIR/bin:$PATH FAKE_KUBECTL_DIR=$BATS_TEST_TMPDIR/cluster
	export FAKE_CACERT=$CA_FILE EBSBENCH_K8S_POLL_S=1
	unset FAKE_CLUSTER FAKE_CSI FAKE_NODES FAKE_NODEPOOLS FAKE_JOB
	PREFIX=runs/apply-$BATS_TEST_NUMBER-$RANDOM
}

# apply ARGS...: `ebsbench k8s --apply` at the peer's prefix PREFIX.
apply() {
	run --separate-stderr "$EBSBENCH" k8s --apply --image "$IMAGE" --volume gp3:100 \
		--volume gp2:100 --s3 "s3://$BUCKET/$PREFIX" --endpoint "$TLS_URL" \
		--ca-file "$CA_FILE" "$@"
}

# The calls, each reduced to its verb and object (get job, logs, ...).
verbs() {
	awk '{ i = 1; while ($i == "--context" || $i == "--kubeconfig" || $i ~ /^--request-timeout=/)
	         i += $i ~ /^--request-timeout=/ ? 1 : 2
	       v = $i; if (v == "get" || v == "delete") v = v " " $(i + 1); print v }' \
		"$FAKE_KUBECTL_DIR/calls.log" | uniq
}

# nothing_secret: no secret key, policy or signature in stdout or stderr.
nothing_secret() {
	secret_free "$(jq -r '.items[] | select(.kind == "Secret") | .stringData["config.json"]' \
		"$FAKE_KUBECTL_DIR/apply.json" | jq -r .upload.post.fields.policy)"
}

@test "one command: preflight, apply, progress, the results fetched, everything deleted" {
	apply --context eks-test
	assert_success
	nothing_secret
	local name=${PREFIX##*/}
	# stdout: the report's path alone.
	assert_equal "$output" "$name/report.html"
	for f in results.json summary.md report.html; do
		cmp "$FAKE_RUN/$f" "$name/$f"
	done
	# The calls in order, each with the user's context.
	assert_equal "$(verbs | tr '\n' ,)" \
		"version,get csidriver,get nodes,apply,get job,logs,get job,delete -f,"
	run grep -vc '^--context eks-test ' "$FAKE_KUBECTL_DIR/calls.log"
	assert_output 0
	local ns run
	ns=$(jq -r '.items[] | select(.kind == "Job") | .metadata.namespace' "$FAKE_KUBECTL_DIR/apply.json")
	run=$(jq -r '.items[] | select(.kind == "Job") | .metadata.name' "$FAKE_KUBECTL_DIR/apply.json")
	grep -qx -- "--context eks-test --request-timeout=60s get csidriver ebs.csi.aws.com -o name" "$FAKE_KUBECTL_DIR/calls.log"
	grep -qx -- "--context eks-test --request-timeout=60s get nodes -l node.kubernetes.io/instance-type=m5.xlarge -o json" "$FAKE_KUBECTL_DIR/calls.log"
	grep -qx -- "--context eks-test logs -f -n $ns job/$run" "$FAKE_KUBECTL_DIR/calls.log"
	grep -qx -- "--context eks-test --request-timeout=60s get job -n $ns $run -o json" "$FAKE_KUBECTL_DIR/calls.log"
	grep -qx -- "--context eks-test --request-timeout=60s delete -f - --ignore-not-found --wait=false" "$FAKE_KUBECTL_DIR/calls.log"
	# The delete got what the apply got, which passes the schema check.
	cmp "$FAKE_KUBECTL_DIR/apply.json" "$FAKE_KUBECTL_DIR/delete.json"
	run node "$K8S_TESTS/validate.js" "$FAKE_KUBECTL_DIR/apply.json"
	assert_success
	assert_line "7 documents checked, 0 failed"
	# The progress: the Job's state, then the pod's phase, percent and ETA.
	[[ $stderr == *"ebsbench k8s: Job pending"$'\n'* ]] || fail "$stderr"
	[[ $stderr == *"ebsbench k8s: Job running, [1/12] precondition gp3 /dev/xvdb 80%, ETA 0:00:20"* ]] || fail "$stderr"
	[[ $stderr == *"ebsbench k8s: Job running, [2/12] randread gp3 /dev/xvdb 50%, ETA 0:05:00"* ]] || fail "$stderr"
	[[ $stderr == *"ebsbench k8s: Job complete"$'\n'* ]] || fail "$stderr"
	[[ $stderr == *"ebsbench k8s: applied Job $ns/$run: plan "*" s, activeDeadlineSeconds "* ]]
	[[ $stderr == *"ebsbench k8s: deleted the run's objects, its namespace $ns"* ]]
	# Nothing of the List on disk.
	run find . -name run.json
	assert_output ""
}

@test "a failed Job: its reason and last log lines, what it uploaded fetched, cleaned up, exit 6" {
	FAKE_JOB=failed apply --out back
	assert_failure 6
	nothing_secret
	assert_equal "$output" "back/summary.md"
	cmp "$FAKE_RUN/summary.md" back/summary.md
	assert_file_not_exists back/report.html
	[[ $stderr == *"ebsbench k8s: the Job failed: BackoffLimitExceeded: Job has reached the specified backoff limit"* ]] || fail "$stderr"
	[[ $stderr == *"ebsbench k8s: its log: ebsbench run: phase randread on gp3 failed: io_uring: Input/output error"* ]] || fail "$stderr"
	assert_equal "$(verbs | tail -1)" "delete -f"
	cmp "$FAKE_KUBECTL_DIR/apply.json" "$FAKE_KUBECTL_DIR/delete.json"
}

@test "SIGINT mid-run: the pod deleted with its grace, what it uploaded fetched, cleaned up, exit 7" {
	FAKE_JOB=endless "$EBSBENCH" k8s --apply --image "$IMAGE" --volume gp3:100 \
		--s3 "s3://$BUCKET/$PREFIX" --endpoint "$TLS_URL" --ca-file "$CA_FILE" \
		--out back >apply.out 2>apply.err 3>&- &
	local pid=$! i
	for ((i = 0; i < 300; i++)); do
		grep -q "Job running, \[2/12\]" apply.err && break
		sleep 0.1
	done
	grep -q "Job running, \[2/12\]" apply.err || fail "$(cat apply.err)"
	kill -INT "$pid"
	local rc=0
	wait "$pid" || rc=$?
	assert_equal "$rc" 7
	local run
	run=$(jq -r '.items[] | select(.kind == "Job") | .metadata.name' "$FAKE_KUBECTL_DIR/apply.json")
	grep -qx -- "--request-timeout=60s delete pod -n $run -l job-name=$run --wait=false" "$FAKE_KUBECTL_DIR/calls.log"
	assert_equal "$(verbs | sed -n '/delete pod/,$p' | tr '\n' ,)" "delete pod,get job,delete -f,"
	cmp "$FAKE_KUBECTL_DIR/apply.json" "$FAKE_KUBECTL_DIR/delete.json"
	assert_equal "$(cat apply.out)" back/report.html
	cmp "$FAKE_RUN/results.json" back/results.json
	grep -qF "ebsbench k8s: stopping: the pod has 600 s to end its phase and upload what it measured" apply.err
	grep -qF "ebsbench k8s: stopped before its end (exit 7)" apply.err
	output=$(cat apply.out) stderr=$(cat apply.err) nothing_secret
}

@test "SIGINT while the pod is Pending: nothing to wait for, cleaned up, exit 7" {
	FAKE_PENDING=1 "$EBSBENCH" k8s --apply --image "$IMAGE" --volume gp3:100 \
		--s3 "s3://$BUCKET/$PREFIX" --endpoint "$TLS_URL" --ca-file "$CA_FILE" \
		>apply.out 2>apply.err 3>&- &
	local pid=$! i rc=0
	for ((i = 0; i < 300; i++)); do
		grep -q "Job pending" apply.err && break
		sleep 0.1
	done
	kill -INT "$pid"
	wait "$pid" || rc=$?
	assert_equal "$rc" 7
	assert_equal "$(cat apply.out)" ""
	grep -qF "ebsbench k8s: stopped before the pod ran: nothing measured" apply.err
	run ! grep -q "^delete pod" "$FAKE_KUBECTL_DIR/calls.log"
	cmp "$FAKE_KUBECTL_DIR/apply.json" "$FAKE_KUBECTL_DIR/delete.json"
}

@test "preflight: no kubectl, no cluster, no CSI driver, S3 refusing: one line each, its status, nothing applied" {
	run --separate-stderr env PATH=/nonexistent "$EBSBENCH" k8s --apply \
		--image "$IMAGE" --volume gp3:100 --s3 "s3://$BUCKET/$PREFIX" --endpoint "$TLS_URL"
	assert_failure 3
	assert_equal "$stderr" "ebsbench k8s: the cluster does not answer (kubectl version: kubectl is not on PATH: install it, or put it there): check kubectl's context and credentials (--context, --kubeconfig)"
	FAKE_CLUSTER=down apply
	assert_failure 3
	assert_equal "$output" ""
	assert_equal "$stderr" "ebsbench k8s: the cluster does not answer (kubectl version: The connection to the server localhost:8080 was refused - did you specify the right host or port?): check kubectl's context and credentials (--context, --kubeconfig)"
	FAKE_CSI=none apply
	assert_failure 4
	assert_equal "$stderr" "ebsbench k8s: no EBS CSI driver (kubectl get csidriver ebs.csi.aws.com: Error from server (NotFound): csidrivers.storage.k8s.io \"ebs.csi.aws.com\" not found): install the aws-ebs-csi-driver add-on and its IAM role (docs/launch.md)"
	AWS_SECRET_ACCESS_KEY='wr0ng/Secret+Key' apply
	assert_failure 5
	assert_equal "$stderr" "ebsbench k8s: S3 refused the listing of s3://$BUCKET/$PREFIX/: HTTP 403 SignatureDoesNotMatch: The request signature we calculated does not match the signature you provided. Check your key and signing method.: check the bucket, its region and the credentials (--profile)"
	run ! grep -q '^apply' "$FAKE_KUBECTL_DIR/calls.log"
	assert_file_not_exists "$FAKE_KUBECTL_DIR/apply.json"
}

@test "no node of the type: a warning only; a Karpenter NodePool that admits it: a note" {
	FAKE_NODES=none apply --instance-type m6i.large
	assert_success
	[[ $stderr == *"ebsbench k8s: warning: no node of instance type m6i.large and no Karpenter NodePool that admits one: the pod stays Pending until a node group or autoscaler adds one (--instance-type names another)"* ]] || fail "$stderr"
	PREFIX=$PREFIX-pool
	cat >pools.json <<-'EOF'
		{"items": [
		  {"metadata": {"name": "graviton"}, "spec": {"template": {"spec": {"requirements": [
		    {"key": "node.kubernetes.io/instance-type", "operator": "In", "values": ["m7g.large"]}]}}}},
		  {"metadata": {"name": "general"}, "spec": {"template": {"spec": {"requirements": [
		    {"key": "node.kubernetes.io/instance-type", "operator": "NotIn", "values": ["t3.micro"]}]}}}}
		]}
	EOF
	rm -rf "$FAKE_KUBECTL_DIR"
	FAKE_NODES=none FAKE_NODEPOOLS=$PWD/pools.json apply --instance-type m6i.large
	assert_success
	[[ $stderr == *"ebsbench k8s: no m6i.large node yet: Karpenter's NodePool general can make one"* ]] || fail "$stderr"
	[[ $stderr != *warning* ]]
}

@test "the node check weighs --node-selector and --toleration: a tainted node, a pool without the label, one that makes it" {
	cat >nodes.json <<-'EOF'
		{"items": [
		  {"metadata": {"name": "cordoned"}, "spec": {"unschedulable": true}},
		  {"metadata": {"name": "gpu-only"}, "spec": {"taints": [
		    {"key": "nvidia.com/gpu", "value": "present", "effect": "NoSchedule"},
		    {"key": "soft", "effect": "PreferNoSchedule"}]}}
		]}
	EOF
	FAKE_NODES=$PWD/nodes.json apply --node-selector team=storage
	assert_success
	grep -qx -- "--request-timeout=60s get nodes -l node.kubernetes.io/instance-type=m5.xlarge,team=storage -o json" "$FAKE_KUBECTL_DIR/calls.log"
	[[ $stderr == *"ebsbench k8s: warning: every m5.xlarge node with the pod's labels carries taint nvidia.com/gpu=present:NoSchedule, which the pod does not tolerate, and no Karpenter NodePool can make another: the pod stays Pending (--toleration nvidia.com/gpu=present:NoSchedule lets it on)"* ]] || fail "$stderr"
	# Tolerated (by key alone, any value): no warning.
	PREFIX=$PREFIX-tolerated
	rm -rf "$FAKE_KUBECTL_DIR"
	FAKE_NODES=$PWD/nodes.json apply --node-selector team=storage --toleration nvidia.com/gpu:NoSchedule
	assert_success
	[[ $stderr != *warning* && $stderr != *"node yet"* ]] || fail "$stderr"
	# A pool that admits the type but not the label, then one whose template gives it.
	cat >pools.json <<-'EOF'
		{"items": [
		  {"metadata": {"name": "general"}, "spec": {"template": {"spec": {"requirements": [
		    {"key": "node.kubernetes.io/instance-type", "operator": "NotIn", "values": ["t3.micro"]}]}}}},
		  {"metadata": {"name": "tainted"}, "spec": {"template": {"metadata": {"labels": {"team": "storage"}},
		    "spec": {"taints": [{"key": "dedicated", "value": "db", "effect": "NoExecute"}]}}}},
		  {"metadata": {"name": "storage"}, "spec": {"template": {"spec": {"requirements": [
		    {"key": "team", "operator": "In", "values": ["storage", "db"]}]}}}}
		]}
	EOF
	PREFIX=$PREFIX-pool
	rm -rf "$FAKE_KUBECTL_DIR"
	FAKE_NODES=none FAKE_NODEPOOLS=$PWD/pools.json apply --node-selector team=storage
	assert_success
	[[ $stderr == *"ebsbench k8s: no m5.xlarge node yet: Karpenter's NodePool storage can make one"* ]] || fail "$stderr"
	PREFIX=$PREFIX-none
	rm -rf "$FAKE_KUBECTL_DIR"
	FAKE_NODES=none FAKE_NODEPOOLS=$PWD/pools.json apply --node-selector team=web
	assert_success
	[[ $stderr == *"ebsbench k8s: warning: no node of instance type m5.xlarge with the --node-selector labels and no Karpenter NodePool that admits one"* ]] || fail "$stderr"
}

@test "--keep: nothing deleted, DIR/run.json (0600) is the List applied" {
	apply --keep --out kept
	assert_success
	assert_equal "$output" kept/report.html
	cmp "$FAKE_KUBECTL_DIR/apply.json" kept/run.json
	assert_equal "$(stat -c %a kept/run.json)" 600
	run ! grep -q '^delete' "$FAKE_KUBECTL_DIR/calls.log"
	[[ $stderr == *"kept the run's objects: kubectl delete -f kept/run.json removes them"* ]]
}

@test "kubectl stops answering about the Job: the run left alone, DIR/run.json and how to go on, exit 1" {
	FAKE_GET_JOB_FAILS=1 apply --out lost
	assert_failure 1
	assert_equal "$output" ""
	[[ $stderr == *"ebsbench k8s: kubectl get job "*" failed: error: You must be logged in to the server (Unauthorized)"* ]] || fail "$stderr"
	[[ $stderr == *"ebsbench k8s: lost track of the Job, which may still run: its results, once uploaded: ebsbench fetch --wait s3://$BUCKET/$PREFIX/ lost (with this command's --region, --profile, --endpoint); then kubectl delete -f lost/run.json removes its objects"* ]] || fail "$stderr"
	cmp "$FAKE_KUBECTL_DIR/apply.json" lost/run.json
	assert_equal "$(stat -c %a lost/run.json)" 600
	run ! grep -q "delete" "$FAKE_KUBECTL_DIR/calls.log"
}

@test "bad usage: --apply's options alone, a used prefix, a DIR not empty, a fleet" {
	run --separate-stderr "$EBSBENCH" k8s --image "$IMAGE" --volume gp3:100 \
		--s3 "s3://$BUCKET/$PREFIX" --keep
	assert_failure 2
	assert_equal "$stderr" "ebsbench k8s: --keep, --out, --context, --kubeconfig and --ca-file go with --apply (try ebsbench k8s --help)"
	mkdir full
	touch full/x
	apply --out full
	assert_failure 2
	assert_equal "$stderr" "ebsbench k8s: full is not empty: give --out a new directory"
	apply --fleet 2
	assert_failure 2
	curl -fsS --cacert "$CA_FILE" -o /dev/null -T "$FAKE_RUN/summary.md" \
		"$(presign put "$PREFIX/summary.md" 60)"
	apply
	assert_failure 2
	assert_equal "$stderr" "ebsbench k8s: s3://$BUCKET/$PREFIX/ holds objects already: give --s3 a prefix of its own to this run"
	assert_file_not_exists "$FAKE_KUBECTL_DIR/apply.json"
}
