#!/usr/bin/env bats
# docs.bats - the documentation says what the code does:
#   - every snippet of README.md, docs/, image/*/README.md and tests/README.md holds
#     (tests/tools/doccheck.py: shell blocks parse, every ebsbench command and flag
#     shown exists, every run config passes `ebsbench run --dry-run` on loop devices,
#     every manifest the Kubernetes schema check, every relative link resolves);
#   - doccheck fails a snippet broken each way it guards against (a wrong Secret
#     name, unrendered placeholders, an unknown config key, a removed flag, a
#     command that is not there, a make target, a link, shell syntax, a manifest);
#   - docs/example is what `ebsbench report` renders from its results.json;
#   - `make` installs only the build's packages (runner/deps/deps.sh --build).

bats_require_minimum_version 1.5.0

load helpers
load_bats_libs

ROOT="$BATS_TEST_DIRNAME/../.."
DOCCHECK="$ROOT/tests/tools/doccheck.py"

setup() {
	require_ebsbench
	cd "$BATS_TEST_TMPDIR"
}

# broken FILE: doccheck on FILE fails and names the problem given as $2.
broken() {
	run --separate-stderr /usr/bin/python3 "$DOCCHECK" "$1"
	assert_failure 1
	assert_output --partial "$2"
}

@test "every snippet and link of the documentation holds" {
	run --separate-stderr /usr/bin/python3 "$DOCCHECK"
	echo "$stderr" >&3
	assert_success
	assert_output ""
	# It checked what the quickstarts run.
	[[ $stderr == *"checked ebsbench k8s: --apply --config --image --instance-type --region --s3 --volume"* ]] || fail "$stderr"
	[[ $stderr == *"checked ebsbench run --dry-run"* ]] || fail "$stderr"
	[[ $stderr == *"checked tests/k8s/validate.js"* ]] || fail "$stderr"
}

@test "doccheck: a block applying job-pvc.yaml with another Secret, or unrendered, fails" {
	cat >wrong-secret.md <<'EOF'
```sh
kubectl -n ebsbench create secret generic ebsbench-config --from-file=config.json=config.json
render image/k8s/job-pvc.yaml | kubectl apply -f -
```
EOF
	broken wrong-secret.md "reads Secret ebsbench-pvc-config, but the block creates ebsbench-config"
	cat >unrendered.md <<'EOF'
```sh
kubectl -n ebsbench create secret generic ebsbench-config --from-file=config.json=config.json
kubectl apply -f image/k8s/job.yaml
```
EOF
	broken unrendered.md "applies image/k8s/job.yaml with its REPLACE_WITH_DIGEST placeholders unrendered"
	cat >piped.md <<'EOF'
```sh
kubectl -n ebsbench create secret generic ebsbench-config --from-file=config.json=config.json
cat image/k8s/job.yaml |
    kubectl apply -f -
```
EOF
	broken piped.md "applies image/k8s/job.yaml with its REPLACE_WITH_DIGEST placeholders unrendered"
	# The right Secret, rendered: nothing to say.
	sed -e 's/ebsbench-config/ebsbench-pvc-config/' wrong-secret.md >right.md
	run --separate-stderr /usr/bin/python3 "$DOCCHECK" right.md
	assert_success
}

@test "doccheck: an unknown config key, or a config the run refuses, fails" {
	cat >config.md <<'EOF'
```json
{"devices": [{"volume_id": "vol-0abc", "label": "gp2", "type": "gp2", "size_gib": 100}],
 "allow_destroy": ["vol-0abc"], "test_size": "1G", "time_scale": 0.01, "colour": "blue"}
```
EOF
	broken config.md 'ebsbench run --dry-run refuses it (exit 2)'
	assert_output --partial colour
	sed -i 's/, "colour": "blue"//' config.md
	run --separate-stderr /usr/bin/python3 "$DOCCHECK" config.md
	assert_success
	sed -i 's/"size_gib": 100/"size_gib": 100000/' config.md
	broken config.md 'size_gib'
}

@test "doccheck: a flag or command that is not there fails; a make target, a script too" {
	printf '```sh\nebsbench k8s --image R@sha256:D --volumes gp3:100 --s3 s3://b/p --region r\n```\n' >flag.md
	broken flag.md "ebsbench k8s has no --volumes"
	printf '```sh\nebsbench fetch s3://b/p --wait\n```\n' >fetch.md
	run --separate-stderr "$EBSBENCH" fetch --help
	if [[ $output != *--wait* ]]; then
		broken fetch.md "ebsbench fetch has no --wait"
	fi
	printf '```sh\nx=$(ebsbench frobnicate --json)\n```\n' >cmd.md
	broken cmd.md "ebsbench frobnicate: no such command"
	printf '```sh\nmake demo && make no-such-target\n```\n' >make.md
	broken make.md "make no-such-target: no such target"
	printf '```sh\nimage/ami/launch.sh --region r --amy x\n```\n' >script.md
	broken script.md "image/ami/launch.sh has no --amy"
	printf '```sh\nimage/ami/no-such.sh --region r\n```\n' >gone.md
	broken gone.md "image/ami/no-such.sh: no such file"
}

@test "doccheck: a shell block that does not parse, a bad manifest, a dead link fail" {
	printf '```sh\nfor f in a b; do echo "$f"\n```\n' >syntax.md
	broken syntax.md "does not parse"
	cat >manifest.md <<'EOF'
```yaml
apiVersion: batch/v1
kind: Job
metadata: {name: x}
spec:
  backoffLimit: "none"
  template: {spec: {containers: [{name: x, image: x}], restartPolicy: Never}}
```
EOF
	broken manifest.md "fails the schema check"
	printf 'See [the run](docs/no-such-page.md) and ![x](x.png).\n' >link.md
	broken link.md "link to docs/no-such-page.md: no such file"
	assert_output --partial "link to x.png: no such file"
	printf '# Quick start\n\nSee [it](#quick-start), [that](#quickstart) and [run](%s#the-plan).\n' \
		"$ROOT/docs/run.md" >anchor.md
	broken anchor.md "link to #quickstart: no heading makes #quickstart"
	assert_output --partial "#the-plan: no heading makes #the-plan"
	refute_output --partial "#quick-start:"
}

@test "docs/example is what ebsbench report renders from its results.json" {
	run --separate-stderr bash "$ROOT/tests/tools/example.sh" check
	assert_success
	# A changed example fails: the check compares, it does not regenerate.
	mkdir ex
	cp -a "$ROOT/docs/example/." ex/
	sed -i 's/gp2/gp9/' ex/recommend.md
	EXAMPLE_DIR=$PWD/ex run --separate-stderr bash "$ROOT/tests/tools/example.sh" check
	assert_failure 1
	[[ $stderr == *"ex/recommend.md is not what ebsbench report renders"* ]] || fail "$stderr"
	[[ $stderr != *summary.md* ]] || fail "only recommend.md differs: $stderr"
}

@test "make installs only the build's packages; make test, image and demo everything first" {
	local build rest p
	build=$(bash "$ROOT/runner/deps/deps.sh" --list build)
	rest=$(bash "$ROOT/runner/deps/deps.sh" --list rest)
	[ -n "$build" ] || fail "deps.sh --list build is empty"
	[ -n "$rest" ] || fail "deps.sh --list rest is empty"
	for p in musl-tools build-essential dpkg-dev cmake; do
		[[ " $build " == *" $p "* ]] || fail "the build list lacks $p: $build"
	done
	# Nothing only the tests, the image or the demo use is in the build's list.
	for p in $rest; do
		[[ " $build " != *" $p "* ]] || fail "$p is in both lists"
	done
	for p in qemu-system-x86 chromium fio bats clang xfsprogs nodejs cppcheck busybox-static; do
		[[ " $build " != *" $p "* ]] || fail "the build list holds $p, which only tests use"
	done
	# From nothing (-B: every target remade, as on a fresh machine): make runs deps.sh
	# --build alone, first; test, image and demo run --all too before any compile.
	local nodeps=$BATS_TEST_TMPDIR/nodeps lines
	run --separate-stderr make -C "$ROOT" -n -B build/ebsbench build/ebsbench-init DEPS="$nodeps"
	assert_success
	lines=$(grep -E 'deps\.sh|musl-gcc' <<<"$output" | head -n 2)
	[[ $lines == "bash runner/deps/deps.sh --build $nodeps"$'\n'musl-gcc* ]] || fail "make: $lines"
	refute_output --partial "deps.sh --all"
	# The Pod's image: the binary's build and nothing of the kernel's or QEMU's.
	run --separate-stderr make -C "$ROOT" -n -B oci DEPS="$nodeps"
	assert_success
	assert_line "bash runner/deps/deps.sh --build $nodeps"
	assert_line "bash image/oci/build-oci.sh --ebsbench build/ebsbench build/oci"
	refute_output --partial "deps.sh --all"
	refute_output --regexp 'build-kernel|initramfs|qemu'
	for t in test image demo; do
		run make -C "$ROOT" -n -B "$t" DEPS="$nodeps" # image and demo: make deps >&2
		assert_success
		lines=$(grep -E 'deps\.sh|musl-gcc|(^| )cc ' <<<"$output" | head -n 2)
		assert_equal "$lines" "bash runner/deps/deps.sh --build $nodeps"$'\n'"bash runner/deps/deps.sh --all $nodeps"
	done
}
