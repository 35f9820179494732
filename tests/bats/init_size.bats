#!/usr/bin/env bats
# init_size.bats - PID 1 stays small and without TLS: build/ebsbench-init
# speaks only plain HTTP (to IMDS), links net/tls_none.c in place of
# net/tls.c and no mbedTLS library, and is under 200,000 bytes.  Each
# marker looked for is first found in build/ebsbench, which does link
# mbedTLS, so the check is known to see what it looks for.

bats_require_minimum_version 1.5.0

load helpers
load_bats_libs

ROOT="$BATS_TEST_DIRNAME/../.."
INIT="$ROOT/build/ebsbench-init"
# mbedTLS's error texts (mbedtls_strerror) and its cipher suite names.
MARKERS=('SSL - ' 'X509 - ' 'PK - ' 'TLS-ECDHE-')

setup_file() {
	make -C "$ROOT" build/ebsbench build/ebsbench-init >/dev/null
}

@test "ebsbench-init: static, stripped, under 200,000 bytes" {
	local size
	size=$(stat -c %s "$INIT")
	echo "ebsbench-init: $size bytes" >&3
	((size < 200000)) || fail "build/ebsbench-init is $size bytes (the limit is 200,000): what grew it?"
	run file "$INIT"
	assert_output --partial 'statically linked'
	assert_output --partial 'stripped'
	refute_output --partial 'not stripped'
}

@test "ebsbench-init: no mbedTLS text in the binary (ebsbench has each marker)" {
	local m
	for m in "${MARKERS[@]}"; do
		run grep -c -F -a -- "$m" "$ROOT/build/ebsbench"
		assert_success
		run grep -c -F -a -- "$m" "$INIT"
		assert_output 0
	done
	run grep -c -a -i 'mbedtls' "$INIT"
	assert_output 0
}

@test "ebsbench-init: the link map takes nothing from an mbedTLS library, and tls_none.o" {
	local map="$INIT.map"
	[ -s "$map" ]
	run grep -c -E 'libmbed(tls|x509|crypto)\.a|mbedtls_' "$map"
	assert_output 0
	run grep -c -F 'net/tls_none.o' "$map"
	refute_output 0
	run grep -c -F 'net/tls.o' "$map"
	assert_output 0
}
