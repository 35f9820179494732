# ebsbench - build, test and bench.  On a fresh Debian 12 machine `make`
# installs only what the binary's build needs ($(DEPS_BUILD_STAMP)); `make test`,
# `make image` and `make demo` install everything else up front ($(DEPS_STAMP)),
# never mid-test (README.md, Development).

VERSION := 0.1.0
DEPS := $(CURDIR)/build/deps
MUSL_CC := musl-gcc
WARN := -Wall -Wextra -Werror
# -ffile-prefix-map: two clean trees in different directories build the
# same bytes (the appliance image's digest depends on it).
BASE_CFLAGS := -std=c11 -Irunner -D_GNU_SOURCE -DEBSBENCH_VERSION='"$(VERSION)"' $(WARN) \
	-ffile-prefix-map=$(CURDIR)=.
# The binary's budget is 1 MiB (tests/bats/binary_size.bats): no unwind
# tables (C has no exceptions; nothing here unwinds), and the rooms that
# run once a command, not once an I/O, built for size (MUSL_OPT).
MUSL_OPT := -O2
COLD_DIRS := report decide analysis launch cli demand model output results upload
$(foreach d,$(COLD_DIRS),$(eval build/musl/$(d)/%.o: MUSL_OPT := -Os))
MUSL_CFLAGS = $(BASE_CFLAGS) $(MUSL_OPT) -ffunction-sections -fdata-sections -fno-asynchronous-unwind-tables -isystem $(DEPS)/kernel-headers -I$(DEPS)/include
MUSL_LIBS := $(DEPS)/lib/liburing.a $(DEPS)/lib/libaio.a $(DEPS)/lib/libjansson.a \
	$(DEPS)/lib/libmbedtls.a $(DEPS)/lib/libmbedx509.a $(DEPS)/lib/libmbedcrypto.a \
	$(DEPS)/lib/libblkid.a -lm
ASAN_CFLAGS := $(BASE_CFLAGS) -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=all
# Every glibc link (unit-asan, ebsbench-asan, the fuzz targets) takes its
# libraries from here, and only here.
ASAN_LIBS := -luring -laio -ljansson -lmbedtls -lmbedx509 -lmbedcrypto -lblkid -lm
# libFuzzer targets: Debian's clang 14 (libfuzzer-14-dev), the runner sources
# instrumented for coverage, ASan and UBSan.
FUZZ_CC := clang
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_CFLAGS := $(BASE_CFLAGS) -O1 -g $(FUZZ_SAN) -fsanitize=fuzzer-no-link
FUZZ_SECONDS ?= 300

# V=1 shows full command lines.
Q := $(if $(V),,@)

# net/tls_none.c stands in for net/tls.c in a binary without TLS (init).
NO_TLS_SRC := runner/net/tls_none.c
SRCS := $(filter-out $(NO_TLS_SRC),$(wildcard runner/*.c runner/*/*.c))
LIB_SRCS := $(filter-out runner/main.c,$(SRCS))
INIT_SRCS := $(wildcard init/*.c)
UNIT_SRCS := $(wildcard tests/unit/*/test_*.c)
# tests/unit mirrors the source folders: tests/unit/net/test_http.c -> net/test_http.
UNIT_NAMES := $(patsubst tests/unit/%.c,%,$(UNIT_SRCS))

MUSL_OBJS := $(patsubst runner/%.c,build/musl/%.o,$(SRCS))
MUSL_LIB_OBJS := $(filter-out build/musl/main.o,$(MUSL_OBJS))
ASAN_LIB_OBJS := $(patsubst runner/%.c,build/asan/%.o,$(LIB_SRCS))
# PID 1 of the appliance: init/ plus the runner's plain-HTTP client for
# IMDS, with tls_none.o for tls.o: no mbedTLS in it (tests/bats/init_size.bats).
INIT_OBJS := $(patsubst init/%.c,build/musl/init/%.o,$(INIT_SRCS))
INIT_LIB_OBJS := $(filter-out build/musl/init/main.o,$(INIT_OBJS))
INIT_RUNNER_OBJS := $(addprefix build/musl/net/,http.o http_response.o url.o fail.o tcp.o tls_none.o)
ASAN_INIT_LIB_OBJS := $(patsubst init/%.c,build/asan/init/%.o,$(filter-out init/main.c,$(INIT_SRCS)))
FUZZ_SRCS := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_TARGETS := $(patsubst tests/fuzz/fuzz_%.c,%,$(FUZZ_SRCS))
FUZZ_LIB_OBJS := $(patsubst runner/%.c,build/fuzz/obj/%.o,$(LIB_SRCS)) build/fuzz/obj/input.o
INIT_LIBS := $(DEPS)/lib/libjansson.a
# The build's packages and static libraries (deps.sh --build), and everything
# (deps.sh --all: the tests', the image's and the demo's too).
DEPS_BUILD_STAMP := $(DEPS)/.stamp-build
DEPS_STAMP := $(DEPS)/.stamp-all
# test, image, demo and example run `make deps` as their recipe's first
# step rather than naming the stamp as a prerequisite: .SECONDARY makes a
# missing stamp intermediate, which make would remake only after the other
# prerequisites (the binaries), and those must not start before every
# package is in.
# Every C file we format and lint.
C_FILES := $(wildcard runner/*.[ch] runner/*/*.[ch] init/*.[ch] tests/unit/*.h tests/unit/fixtures/*.h tests/unit/*/*.c \
	tests/tools/*.c tests/fuzz/*.[ch])

.SECONDARY:
.PHONY: all deps deps-build example example-check test unit unit-musl unit-asan bats bench bench-parity bench-quick bench-drift \
	bench-rate bench-demand demo lint format clean kernel initramfs image oci release asan fuzz fuzz-build fuzz-smoke

all: build/ebsbench build/ebsbench-init

$(DEPS_BUILD_STAMP): runner/deps/deps.sh runner/deps/mbedtls_config.h
	bash runner/deps/deps.sh --build $(DEPS)
	touch $@

$(DEPS_STAMP): $(DEPS_BUILD_STAMP) runner/deps/deps.sh runner/deps/mbedtls_config.h
	bash runner/deps/deps.sh --all $(DEPS)
	touch $@

deps-build: $(DEPS_BUILD_STAMP)

deps: $(DEPS_STAMP)

build/musl/%.o: runner/%.c $(DEPS_BUILD_STAMP)
	@mkdir -p $(@D)
	@echo "  CC musl $<"
	$(Q)$(MUSL_CC) $(MUSL_CFLAGS) -MMD -MP -c $< -o $@

build/musl/init/%.o: init/%.c $(DEPS_BUILD_STAMP)
	@mkdir -p $(@D)
	@echo "  CC musl $<"
	$(Q)$(MUSL_CC) $(MUSL_CFLAGS) -MMD -MP -c $< -o $@

build/asan/init/%.o: init/%.c $(DEPS_STAMP)
	@mkdir -p $(@D)
	@echo "  CC asan $<"
	$(Q)cc $(ASAN_CFLAGS) -MMD -MP -c $< -o $@

build/asan/%.o: runner/%.c $(DEPS_STAMP)
	@mkdir -p $(@D)
	@echo "  CC asan $<"
	$(Q)cc $(ASAN_CFLAGS) -MMD -MP -c $< -o $@

build/fuzz/obj/%.o: runner/%.c $(DEPS_STAMP)
	@mkdir -p $(@D)
	@echo "  CC fuzz $<"
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -MMD -MP -c $< -o $@

build/fuzz/obj/input.o: tests/fuzz/input.c tests/fuzz/input.h
	@mkdir -p $(@D)
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -MMD -MP -c $< -o $@

build/fuzz/%: tests/fuzz/fuzz_%.c tests/fuzz/input.h $(FUZZ_LIB_OBJS)
	@echo "  LD fuzz $@"
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -Irunner -Itests/fuzz -o $@ $< \
		$(FUZZ_LIB_OBJS) $(ASAN_LIBS)

# The whole binary under ASan and UBSan (glibc: they do not work with
# static musl), to run any command under the sanitizers.
build/ebsbench-asan: build/asan/main.o $(ASAN_LIB_OBJS)
	@echo "  LD asan $@"
	$(Q)cc $(ASAN_CFLAGS) -o $@ $^ $(ASAN_LIBS)

# One static, stripped binary: what the appliance, the container and
# EC2 user-data all run.
# Linked beside, then renamed: a test running the binary while a parallel
# one relinks it (make image) keeps the old file, never half of a new one.
build/ebsbench: $(MUSL_OBJS)
	$(Q)$(MUSL_CC) -static -s -Wl,--gc-sections -o $@.tmp $^ $(MUSL_LIBS) && mv -f $@.tmp $@
	@echo "build/ebsbench: $$(stat -c %s $@) bytes (static, stripped)"

build/ebsbench-init: $(INIT_OBJS) $(INIT_RUNNER_OBJS)
	$(Q)$(MUSL_CC) -static -s -Wl,--gc-sections -Wl,-Map=$@.map -o $@ $^ $(INIT_LIBS) -lm
	@echo "build/ebsbench-init: $$(stat -c %s $@) bytes (static, stripped)"

# Test helpers: static, so they run in any root (a container, the guest).
build/no-io-uring: tests/tools/no_io_uring.c $(DEPS_STAMP)
	@echo "  LD musl $@"
	$(Q)$(MUSL_CC) $(MUSL_CFLAGS) -static -s -o $@ $<

build/foreign-syscall: tests/tools/foreign_syscall.c $(DEPS_STAMP)
	@echo "  LD musl $@"
	$(Q)$(MUSL_CC) $(MUSL_CFLAGS) -static -s -o $@ $<

# EBS log page 0xD0 fixtures, built from the public struct definitions
# (not the parser's offsets) for test_ebs_reference.
EBS_PAGES := build/ebs-log-pages/expected.json
$(EBS_PAGES): tests/unit/fixtures/ebs_log_pages.py
	@echo "  GEN $(@D)"
	$(Q)/usr/bin/python3 $< $(@D)
build/unit-musl/device/test_ebs_reference build/unit-asan/device/test_ebs_reference: $(EBS_PAGES)

build/unit-musl/%: tests/unit/%.c $(wildcard tests/unit/*.h tests/unit/fixtures/*) $(MUSL_LIB_OBJS) $(INIT_LIB_OBJS)
	@mkdir -p $(@D)
	@echo "  LD musl $@"
	$(Q)$(MUSL_CC) $(MUSL_CFLAGS) -Irunner -Iinit -Itests/unit -static -o $@ $< $(MUSL_LIB_OBJS) $(INIT_LIB_OBJS) $(MUSL_LIBS)

# The HTTP client as init links it: its net objects and no mbedTLS library,
# so this link fails if one of them comes to need mbedTLS.
build/unit-musl/net/test_tls_none: tests/unit/net/test_tls_none.c tests/unit/check.h $(INIT_RUNNER_OBJS)
	@mkdir -p $(@D)
	@echo "  LD musl $@"
	$(Q)$(MUSL_CC) $(MUSL_CFLAGS) -Irunner -Itests/unit -static -o $@ $< $(INIT_RUNNER_OBJS)

build/unit-asan/net/test_tls_none: tests/unit/net/test_tls_none.c tests/unit/check.h \
		$(patsubst build/musl/%,build/asan/%,$(INIT_RUNNER_OBJS))
	@mkdir -p $(@D)
	@echo "  LD asan $@"
	$(Q)cc $(ASAN_CFLAGS) -Irunner -Itests/unit -o $@ $< $(patsubst build/musl/%,build/asan/%,$(INIT_RUNNER_OBJS))

build/unit-asan/%: tests/unit/%.c $(wildcard tests/unit/*.h tests/unit/fixtures/*) $(ASAN_LIB_OBJS) $(ASAN_INIT_LIB_OBJS)
	@mkdir -p $(@D)
	@echo "  LD asan $@"
	$(Q)cc $(ASAN_CFLAGS) -Irunner -Iinit -Itests/unit -o $@ $< $(ASAN_LIB_OBJS) $(ASAN_INIT_LIB_OBJS) $(ASAN_LIBS)

# The appliance: our kernel (cached outside the clone, see
# kernel-config/build-kernel.sh) and a reproducible initramfs.
kernel: $(DEPS_STAMP)
	@bash kernel-config/build-kernel.sh

build/initramfs.cpio.gz: $(DEPS_STAMP) build/ebsbench build/ebsbench-init image/build-initramfs.sh image/udhcpc.script \
		image/ca-bundle.sh image/appliance.conf image/appliance.sh image/lib.sh
	$(Q)bash image/build-initramfs.sh --init build/ebsbench-init --ebsbench build/ebsbench $@

initramfs: build/initramfs.cpio.gz

# Every launch artifact (UKI, UEFI disk image, OCI layout) and its digest:
# stdout is only the digest lines (build-image.sh runs make with >&2).
image:
	$(Q)$(MAKE) --no-print-directory deps >&2
	@bash image/build-image.sh

# The Pod's image alone, from the binary: build/oci (an OCI layout, the
# digest on stdout) in seconds, no kernel, initramfs or QEMU; the packages
# it needs (jq, binutils, ca-certificates) installed when missing.
oci: build/ebsbench
	@bash image/oci/build-oci.sh --ebsbench build/ebsbench build/oci

# dist/: the binary, the OCI archive, the disk image, the UKI, the SBOM and
# SHA256SUMS, the same bytes from any clean tree of a commit
# (image/release.sh, docs/release.md); stdout is only the digest lines.
release:
	$(Q)$(MAKE) --no-print-directory deps >&2
	@bash image/release.sh

unit-musl: $(addprefix build/unit-musl/,$(UNIT_NAMES))
	@for t in $^; do echo "== $$t"; ./$$t || exit 1; done

# ASan and UBSan need glibc: the same tests, linked against Debian's -dev libs.
unit-asan: $(addprefix build/unit-asan/,$(UNIT_NAMES))
	@for t in $^; do echo "== $$t"; ./$$t || exit 1; done

unit: unit-musl unit-asan

# Everything the suites share is built first: files run side by side must
# never race to build the same target (or the kernel) in this tree.
bats: build/ebsbench build/ebsbench-init build/no-io-uring build/foreign-syscall build/ebsbench-asan \
		build/initramfs.cpio.gz kernel
	bash tests/run-bats.sh

# lint too: a style or cppcheck finding fails CI, not only a later reader.
# Every program the steps run is built first, on every CPU; then the steps
# run one after another, each its own make (so `make -j test` cannot run
# the unit tests beside the bats files, which choose their own concurrency).
TEST_PROGRAMS := $(addprefix build/unit-musl/,$(UNIT_NAMES)) $(addprefix build/unit-asan/,$(UNIT_NAMES)) \
	$(addprefix build/fuzz/,$(FUZZ_TARGETS)) build/ebsbench build/ebsbench-init build/no-io-uring \
	build/foreign-syscall build/ebsbench-asan build/initramfs.cpio.gz
test:
	$(Q)$(MAKE) --no-print-directory deps
	$(Q)$(MAKE) --no-print-directory -j$(shell nproc) $(TEST_PROGRAMS)
	$(Q)$(MAKE) --no-print-directory unit
	$(Q)$(MAKE) --no-print-directory lint
	$(Q)$(MAKE) --no-print-directory fuzz-smoke
	$(Q)$(MAKE) --no-print-directory bats

asan: build/ebsbench-asan

fuzz-build: $(addprefix build/fuzz/,$(FUZZ_TARGETS))

# Each target FUZZ_SECONDS from its corpus in tests/fuzz/corpus (new inputs
# go to build/fuzz/work); any crash, leak or sanitizer report fails.
fuzz: fuzz-build
	@bash tests/fuzz/run.sh --seconds $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# In `make test`: every corpus file replayed, then each target briefly.
fuzz-smoke: fuzz-build
	@bash tests/fuzz/run.sh --replay --seconds 3 $(FUZZ_TARGETS)

# IOPS, CPU and memory against fio and t/io_uring on a sparse and a
# data-backed loop bed (tests/bench/bench.sh), then the figures fio and
# ebsbench give side by side, then rate-limited latency beside fio's (the
# comparisons a loaded CI machine cannot make reliably), then a 14-day
# CloudWatch export of two volumes through recommend --demand (under 1 s).
bench: $(DEPS_STAMP) build/ebsbench
	@status=0; for b in bench parity rate demand; do bash tests/bench/$$b.sh || status=1; done; exit $$status

# recommend --demand on 40,320 CloudWatch points (tests/bench/demand.sh).
bench-demand: $(DEPS_STAMP) build/ebsbench
	bash tests/bench/demand.sh

bench-parity: $(DEPS_STAMP) build/ebsbench
	bash tests/bench/parity.sh

# The quick plan against the default, wall time per phase (tests/bench/quick.sh,
# the table in docs/run.md); about 6 minutes.
bench-quick: $(DEPS_STAMP) build/ebsbench
	bash tests/bench/quick.sh

# 30 minutes: one row per second, exactly, beside fio's rows.
# Rate-limited latency beside fio's (tests/bench/rate.sh): printed, not asserted.
bench-rate: $(DEPS_STAMP) build/ebsbench
	bash tests/bench/rate.sh

bench-drift: $(DEPS_STAMP) build/ebsbench
	DRIFT_FIO=1 DRIFT_PARALLEL=1 bash tests/bench/drift.sh

# The appliance in QEMU against emulated gp2 and gp3, uploading to a local
# S3; every artifact ends up in ./demo-out, the summary on stdout.
demo:
	$(Q)$(MAKE) --no-print-directory deps >&2
	@bash tests/qemu/demo.sh

# docs/example: a `make demo` run's report files, results.json and a
# screenshot of report.html (tests/tools/example.sh); example-check (in the
# bats suite, tests/bats/docs.bats) re-renders them from that results.json.
example:
	$(Q)$(MAKE) --no-print-directory deps >&2
	@bash tests/tools/example.sh update

example-check: build/ebsbench
	@bash tests/tools/example.sh check

lint: $(DEPS_STAMP) $(MUSL_OBJS) $(INIT_OBJS)
	@echo "  LINT clang-format, cppcheck, lint-layers, lint-bats"
	$(Q)clang-format --dry-run --Werror $(C_FILES)
	$(Q)cppcheck --error-exitcode=1 --enable=warning,style,performance --std=c11 -q \
		--suppress=missingIncludeSystem --suppress='*:$(DEPS)/include/*' -D_GNU_SOURCE -D__x86_64__ -DCHAR_BIT=8 -Irunner -Iinit -Itests/unit -Itests/fuzz -I$(DEPS)/include runner init tests/unit tests/tools tests/fuzz
	bash tests/lint-layers.sh
	bash tests/lint-bats.sh
	bash tests/lint-bats.sh --skips-readme

format:
	clang-format -i $(C_FILES)

clean:
	rm -rf build/musl build/asan build/unit-musl build/unit-asan build/fuzz build/ebsbench \
		build/ebsbench-asan build/ebsbench-init build/ebsbench-init.map build/no-io-uring build/foreign-syscall \
		build/ebs-log-pages build/initramfs.cpio.gz build/ebsbench.efi build/ebsbench.cmdline \
		build/ebsbench-disk.raw build/oci dist

# The user-data script is built into the binary (.incbin: no -MMD line).
build/musl/launch/ec2_user_data.o build/asan/launch/ec2_user_data.o build/fuzz/obj/launch/ec2_user_data.o: \
	image/ec2/user-data.sh

# Header dependencies, from the compiler (-MMD -MP).
-include $(shell find build/musl build/asan build/fuzz -name '*.d' 2>/dev/null)
