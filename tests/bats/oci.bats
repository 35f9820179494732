#!/usr/bin/env bats
# oci.bats - the OCI image (image/oci/build-oci.sh), built without a
# container engine: two clean clones, each building its own binary, give the
# same manifest digest and skopeo reads the layout; the layer is sorted,
# root-owned, stamped with SOURCE_DATE_EPOCH and holds Debian's CA bundle;
# the image unpacked by umoci runs as a privileged container (runc, or crun
# with OCI_RUNTIME=crun) on two loop devices, records the digest it was
# given and uploads to the real S3 peer over TLS; bad input is one line.

bats_require_minimum_version 1.5.0

load helpers
load ../peers/peers
load_bats_libs

REPO=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
OCI=$REPO/image/oci
VERSION=0.1.0
ENTRYPOINT='["/usr/local/bin/ebsbench","run","--config","/etc/ebsbench/config.json"]'
RUNTIME=${OCI_RUNTIME:-runc}

setup_file() {
	require_ebsbench
	# make deps installs them (runner/deps/deps.sh): a test installs nothing.
	local tool
	for tool in skopeo umoci runc crun; do
		command -v "$tool" >/dev/null || {
			echo "oci.bats: $tool is missing: run make deps" >&2
			return 1
		}
	done
	# The image every test but the first uses: this tree's binary.
	local line
	line=$(bash "$OCI/build-oci.sh" --ebsbench "$EBSBENCH" "$BATS_FILE_TMPDIR/image" 2>"$BATS_FILE_TMPDIR/build.err") || {
		cat "$BATS_FILE_TMPDIR/build.err" >&2
		return 1
	}
	[[ $line =~ ^oci-image\ (sha256:[0-9a-f]{64})\ [0-9]+\ bytes$ ]] || {
		echo "# unexpected build-oci.sh output: $line" >&2
		return 1
	}
	export IMAGE=$BATS_FILE_TMPDIR/image IMAGE_DIGEST=${BASH_REMATCH[1]}
	export CID="ebsbench-oci-${BATS_ROOT_PID:-$$}"
}

teardown_file() {
	cleanup_loops
}

setup() {
	cd "$BATS_TEST_TMPDIR"
}

teardown() {
	# A container left by a failed or timed-out run; the peers one started.
	"$RUNTIME" delete --force "$CID" >/dev/null 2>&1 || true
	[ ! -d "$BATS_TEST_TMPDIR/peers" ] || peers_stop "$BATS_TEST_TMPDIR/peers"
}

# blob DIR DIGEST -> the blob's path in layout DIR.
blob() {
	echo "$1/blobs/sha256/${2#sha256:}"
}

# manifest_of DIR -> the manifest tagged $VERSION in layout DIR (JSON).
manifest_of() {
	local d
	d=$(jq -er --arg v "$VERSION" '.manifests[] |
		select(.annotations["org.opencontainers.image.ref.name"] == $v) | .digest' "$1/index.json") &&
		cat "$(blob "$1" "$d")"
}

@test "two clean clones, each building its own binary, give the same image digest; skopeo reads it" {
	[ -f "$REPO/build/deps/.stamp-all" ] || fail "no $REPO/build/deps: run make build/ebsbench first"
	local n head line digests=() t0=$SECONDS stamps
	head=$(git -C "$REPO" rev-parse HEAD)
	stamps=$(stat -c '%y %n' "$REPO"/build/deps/.stamp-*)
	for n in 1 2; do
		git clone -q "$REPO" "clone$n"
		assert_equal "$(git -C "clone$n" rev-parse HEAD)" "$head"
		# The static libraries are shared (building them takes minutes); the
		# binary is compiled from the clone's own sources.  Their stamps are
		# never remade through the link (-o): the clone's deps.sh is newer,
		# and a touch there would make this tree's objects stale, rebuilt by
		# the next make -C "$REPO" under the files running beside this one.
		mkdir "clone$n/build"
		ln -s "$REPO/build/deps" "clone$n/build/deps"
		make -C "clone$n" -s -j2 -o "$(pwd -P)/clone$n/build/deps/.stamp-all" \
			-o "$(pwd -P)/clone$n/build/deps/.stamp-build" build/ebsbench >/dev/null
		run --separate-stderr env -u SOURCE_DATE_EPOCH -u EBSBENCH_REVISION -u EBSBENCH_SOURCE \
			"clone$n/image/oci/build-oci.sh" "out$n"
		assert_success
		[[ $output =~ ^oci-image\ (sha256:[0-9a-f]{64})\ ([0-9]+)\ bytes$ ]] || fail "stdout: $output"
		digests+=("${BASH_REMATCH[1]}")
		echo "# clone$n: $output" >&3
	done
	echo "# two clones built and packed in $((SECONDS - t0)) s" >&3
	assert_equal "$(stat -c '%y %n' "$REPO"/build/deps/.stamp-*)" "$stamps"
	cmp clone1/build/ebsbench clone2/build/ebsbench
	assert_equal "${digests[0]}" "${digests[1]}"
	diff -r out1 out2
	assert_equal "$(ls out1)" "$(printf '%s\n' blobs index.json oci-layout)"
	assert_equal "$(ls out1/blobs/sha256 | wc -l)" 3

	# skopeo (containers/image) accepts the layout and finds the tag.
	run skopeo inspect "oci:out1:$VERSION"
	assert_success
	assert_equal "$(jq -r .Digest <<<"$output")" "${digests[0]}"
	assert_equal "$(jq -r '.Os + "/" + .Architecture' <<<"$output")" linux/amd64
	assert_equal "$(jq -r '.Labels["org.opencontainers.image.revision"]' <<<"$output")" "$head"
	assert_equal "$(jq -r '.Labels["org.opencontainers.image.version"]' <<<"$output")" "$VERSION"
	assert_equal "$(jq -r '.Labels["org.opencontainers.image.title"]' <<<"$output")" ebsbench
	assert_equal "$(jq -r '.Created' <<<"$output")" \
		"$(date -u -d "@$(git -C "$REPO" log -1 --format=%ct)" +%Y-%m-%dT%H:%M:%SZ)"
	run skopeo inspect --config "oci:out1:$VERSION"
	assert_success
	assert_equal "$(jq -c .config.Entrypoint <<<"$output")" "$ENTRYPOINT"
	assert_equal "$(jq -r .config.WorkingDir <<<"$output")" /var/lib/ebsbench
	assert_equal "$(jq -r '.config.Env[]' <<<"$output")" \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin

	# The digest moves with SOURCE_DATE_EPOCH: the equality above is not vacuous.
	run --separate-stderr env SOURCE_DATE_EPOCH=1700000000 clone1/image/oci/build-oci.sh out3
	assert_success
	[[ $output == "oci-image sha256:"* && $output != "oci-image ${digests[0]} "* ]] ||
		fail "SOURCE_DATE_EPOCH changed nothing: $output"
}

@test "the layer: sorted, root-owned, every mtime SOURCE_DATE_EPOCH, gzip -n, Debian's CA bundle" {
	local epoch=1234567890 m layer
	run --separate-stderr env SOURCE_DATE_EPOCH=$epoch "$OCI/build-oci.sh" --ebsbench "$EBSBENCH" img
	assert_success
	m=$(manifest_of img)
	assert_equal "$(jq -r '.layers | length' <<<"$m")" 1
	assert_equal "$(jq -r '.layers[0].mediaType' <<<"$m")" application/vnd.oci.image.layer.v1.tar+gzip
	layer=$(blob img "$(jq -r '.layers[0].digest' <<<"$m")")
	# gzip -n: no file name (FLG bit 3), MTIME 0.
	assert_equal "$(od -An -tx1 -N8 "$layer" | tr -d ' ')" 1f8b080000000000
	# The config's diff_id is the uncompressed tar's digest.
	assert_equal "$(jq -r '.rootfs.diff_ids[0]' "$(blob img "$(jq -r .config.digest <<<"$m")")")" \
		"sha256:$(gzip -dc "$layer" | sha256sum | cut -d' ' -f1)"
	# Exactly these entries, in this order, with these modes, root:root, at the epoch.
	gzip -dc "$layer" >layer.tar
	assert_equal "$(tar --utc --full-time -tvf layer.tar | awk '{ print $1, $2, $4, $5, $6 }')" \
		"$(cat <<-EOF
		drwxr-xr-x 0/0 2009-02-13 23:31:30 etc/
		drwxr-xr-x 0/0 2009-02-13 23:31:30 etc/ebsbench/
		drwxr-xr-x 0/0 2009-02-13 23:31:30 etc/ssl/
		drwxr-xr-x 0/0 2009-02-13 23:31:30 etc/ssl/certs/
		-rw-r--r-- 0/0 2009-02-13 23:31:30 etc/ssl/certs/ca-certificates.crt
		drwxrwxrwt 0/0 2009-02-13 23:31:30 tmp/
		drwxr-xr-x 0/0 2009-02-13 23:31:30 usr/
		drwxr-xr-x 0/0 2009-02-13 23:31:30 usr/local/
		drwxr-xr-x 0/0 2009-02-13 23:31:30 usr/local/bin/
		-rwxr-xr-x 0/0 2009-02-13 23:31:30 usr/local/bin/ebsbench
		drwxr-xr-x 0/0 2009-02-13 23:31:30 var/
		drwxr-xr-x 0/0 2009-02-13 23:31:30 var/lib/
		drwxr-xr-x 0/0 2009-02-13 23:31:30 var/lib/ebsbench/
		EOF
		)"
	# No pax headers (atime, ctime, a PID in their names), no user or group names.
	run ! grep -qa -e PaxHeaders -e atime= -e ctime= layer.tar
	assert_equal "$(tar -tvf layer.tar | awk '{ print $2 }' | sort -u)" 0/0
	mkdir root
	tar -xf layer.tar -C root
	cmp root/usr/local/bin/ebsbench "$EBSBENCH"
	# The bundle is the package's certificates only, never this host's local CAs.
	cmp root/etc/ssl/certs/ca-certificates.crt <(
		dpkg-query -L ca-certificates | grep '^/usr/share/ca-certificates/mozilla/.*\.crt$' |
			LC_ALL=C sort | while read -r f; do sed -e '$a\' "$f"; done)
	[ "$(grep -c 'BEGIN CERTIFICATE' root/etc/ssl/certs/ca-certificates.crt)" -gt 100 ]
	assert_equal "$(jq -r .created "$(blob img "$(jq -r .config.digest <<<"$m")")")" 2009-02-13T23:31:30Z
}

@test "the image runs as a privileged container (runc; OCI_RUNTIME=crun), on two loop devices and uploads to S3 over TLS" {
	peers_start "$BATS_TEST_TMPDIR/peers"
	local a b prefix="oci/$RANDOM/" n
	a=$(make_loop 32)
	b=$(make_loop 32)

	# The bundle: the image's rootfs and umoci's runtime spec, made
	# privileged, on the host network (https://localhost:PORT is the peer).
	umoci unpack --image "$IMAGE:$VERSION" bundle >/dev/null
	[ -x bundle/rootfs/usr/local/bin/ebsbench ]
	mkdir -p etc results
	cp "$CA_FILE" etc/ca.pem
	jq -n --arg a "$a" --arg b "$b" '{
	  devices: [{path: $a, label: "ga", type: "gp3", size_gib: 100},
	            {path: $b, label: "gb", type: "gp2", size_gib: 100}],
	  allow_destroy: [$a, $b], time_scale: 0.01, test_size: "16M", output_dir: "out",
	  phases: [{phase: "layout"}, {phase: "randread", runtime: 100}]}' >plan.json
	run --separate-stderr "$EBSBENCH" presign --endpoint "$TLS_URL" --bucket "$BUCKET" \
		--prefix "$prefix" --region "$AWS_DEFAULT_REGION" --expires 1h --plan plan.json
	assert_success
	jq --argjson p "$output" '. + {upload: ($p.upload + {ca_file: "/etc/ebsbench/ca.pem"})}' \
		plan.json >etc/config.json
	bash "$OCI/crun-spec.sh" bundle --device "$a" --device "$b" \
		--bind "$PWD/etc:/etc/ebsbench:ro" --bind "$PWD/results:/var/lib/ebsbench" \
		--env "EBSBENCH_IMAGE_DIGEST=$IMAGE_DIGEST"

	local cmd=("$RUNTIME" run --bundle bundle "$CID")
	# crun 1.8 refuses hybrid cgroups (v1 plus a v2 tree with controllers,
	# as on the build machine): hide the v2 tree from it (image/oci/README.md).
	if [[ $RUNTIME == crun ]] && grep -qs . /sys/fs/cgroup/unified/cgroup.controllers; then
		cmd=(unshare -m --propagation private sh -c 'umount /sys/fs/cgroup/unified && exec "$@"' sh "${cmd[@]}")
	fi
	run --separate-stderr timeout 150 "${cmd[@]}"
	((status == 0)) || fail "$RUNTIME run: exit $status: $stderr"
	local res=results/out/results.json
	[ -f "$res" ] || fail "no $res"
	# It ran in the container (its hostname), on both devices, and names the image.
	assert_equal "$(jq -r .environment.hostname "$res")" ebsbench
	assert_equal "$(jq -r '[.devices[].path] | join(" ")' "$res")" "$a $b"
	assert_equal "$(jq -r .ebsbench.image_digest "$res")" "$IMAGE_DIGEST"
	assert_equal "$(jq -r .ebsbench.version "$res")" "$VERSION"
	[[ $stderr == *"upload: "*" uploaded, 0 failed, 0 skipped"* ]] || fail "upload summary missing"
	# What S3 holds is the local results.json, byte for byte (and the summary).
	for n in results.json summary.md; do
		curl -sS --fail --cacert "$CA_FILE" -o back "$(presign get "$prefix$n" 60)"
		assert_equal "$(sha256sum <back)" "$(sha256sum <"results/out/$n")"
	done
	grep -q "^PUT /$BUCKET/${prefix}results.json?.* 200$" "$BATS_TEST_TMPDIR/peers/s3.log"
}

@test "bad input: a missing --ebsbench binary, a dynamic one, a foreign OUTDIR: one line, non-zero, nothing written" {
	run --separate-stderr "$OCI/build-oci.sh" --ebsbench "$PWD/no-such-ebsbench" out
	assert_failure 2
	assert_equal "$output" ""
	assert_equal "${#stderr_lines[@]}" 1
	[[ $stderr == "build-oci: error: --ebsbench $PWD/no-such-ebsbench: no such file"* ]] || fail "$stderr"
	[ ! -e out ]

	run --separate-stderr "$OCI/build-oci.sh" --ebsbench /bin/ls out
	assert_failure 2
	assert_equal "${#stderr_lines[@]}" 1
	[[ $stderr == *"dynamically linked"* ]] || fail "$stderr"
	[ ! -e out ]

	mkdir keep
	echo precious >keep/file
	run --separate-stderr "$OCI/build-oci.sh" --ebsbench "$EBSBENCH" keep
	assert_failure 2
	assert_equal "${#stderr_lines[@]}" 1
	[[ $stderr == *"neither empty nor an OCI layout"* ]] || fail "$stderr"
	assert_equal "$(ls keep)" file

	run --separate-stderr "$OCI/build-oci.sh"
	assert_failure 2
	assert_equal "${#stderr_lines[@]}" 1
}
