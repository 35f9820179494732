# ebsbench - build, test and bench.  `make test` and `make demo` set up
# everything they need on a fresh Debian 12 machine (see README.md).

VERSION := 0.1.0
DEPS := $(CURDIR)/build/deps
MUSL_CC := musl-gcc
WARN := -Wall -Wextra -Werror
BASE_CFLAGS := -std=c11 -D_GNU_SOURCE -DEBSBENCH_VERSION='"$(VERSION)"' $(WARN)
MUSL_CFLAGS := $(BASE_CFLAGS) -O2 -ffunction-sections -fdata-sections -isystem $(DEPS)/kernel-headers -I$(DEPS)/include
MUSL_LIBS := $(DEPS)/lib/liburing.a $(DEPS)/lib/libaio.a $(DEPS)/lib/libjansson.a \
	$(DEPS)/lib/libmbedtls.a $(DEPS)/lib/libmbedx509.a $(DEPS)/lib/libmbedcrypto.a -lm
ASAN_CFLAGS := $(BASE_CFLAGS) -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=all
ASAN_LIBS := -luring -laio -ljansson -lmbedtls -lmbedx509 -lmbedcrypto -lm

# V=1 shows full command lines.
Q := $(if $(V),,@)

SRCS := $(wildcard runner/*.c)
LIB_SRCS := $(filter-out runner/main.c,$(SRCS))
HDRS := $(wildcard runner/*.h)
UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_NAMES := $(notdir $(UNIT_SRCS:.c=))

MUSL_OBJS := $(patsubst runner/%.c,build/musl/%.o,$(SRCS))
MUSL_LIB_OBJS := $(filter-out build/musl/main.o,$(MUSL_OBJS))
ASAN_LIB_OBJS := $(patsubst runner/%.c,build/asan/%.o,$(LIB_SRCS))
DEPS_STAMP := $(DEPS)/.stamp-all

.SECONDARY:
.PHONY: all deps test unit unit-musl unit-asan bats bench bench-drift demo lint format clean

all: build/ebsbench

$(DEPS_STAMP): runner/deps.sh
	bash runner/deps.sh $(DEPS)
	touch $@

deps: $(DEPS_STAMP)

build/musl/%.o: runner/%.c $(HDRS) $(DEPS_STAMP)
	@mkdir -p $(@D)
	@echo "  CC musl $<"
	$(Q)$(MUSL_CC) $(MUSL_CFLAGS) -c $< -o $@

build/asan/%.o: runner/%.c $(HDRS) $(DEPS_STAMP)
	@mkdir -p $(@D)
	@echo "  CC asan $<"
	$(Q)cc $(ASAN_CFLAGS) -c $< -o $@

# One static, stripped binary: what the appliance, the container and
# EC2 user-data all run.
build/ebsbench: $(MUSL_OBJS)
	$(Q)$(MUSL_CC) -static -s -Wl,--gc-sections -o $@ $^ $(MUSL_LIBS)
	@echo "build/ebsbench: $$(stat -c %s $@) bytes (static, stripped)"

build/unit-musl/%: tests/unit/%.c $(wildcard tests/unit/*.h tests/unit/fixtures/*) $(MUSL_LIB_OBJS)
	@mkdir -p $(@D)
	@echo "  LD musl $@"
	$(Q)$(MUSL_CC) $(MUSL_CFLAGS) -Irunner -static -o $@ $< $(MUSL_LIB_OBJS) $(MUSL_LIBS)

build/unit-asan/%: tests/unit/%.c $(wildcard tests/unit/*.h tests/unit/fixtures/*) $(ASAN_LIB_OBJS)
	@mkdir -p $(@D)
	@echo "  LD asan $@"
	$(Q)cc $(ASAN_CFLAGS) -Irunner -o $@ $< $(ASAN_LIB_OBJS) $(ASAN_LIBS)

unit-musl: $(addprefix build/unit-musl/,$(UNIT_NAMES))
	@for t in $^; do echo "== $$t"; ./$$t || exit 1; done

# ASan and UBSan need glibc: the same tests, linked against Debian's -dev libs.
unit-asan: $(addprefix build/unit-asan/,$(UNIT_NAMES))
	@for t in $^; do echo "== $$t"; ./$$t || exit 1; done

unit: unit-musl unit-asan

bats: build/ebsbench
	bash tests/run-bats.sh

test: unit bats

bench: build/ebsbench
	bash tests/bench/bench.sh

# 30 minutes: one row per second, exactly, beside fio's rows.
bench-drift: build/ebsbench
	DRIFT_FIO=1 DRIFT_PARALLEL=1 bash tests/bench/drift.sh

demo:
	@echo "make demo lands with the appliance issue (QEMU boot against emulated gp2/gp3)."
	@echo "Today: make && build/ebsbench fio --help"

lint:
	clang-format --dry-run --Werror runner/*.[ch] tests/unit/*.[ch]
	cppcheck --error-exitcode=1 --enable=warning,style,performance --std=c11 -q \
		--suppress=missingIncludeSystem --suppress='*:$(DEPS)/include/*' -D_GNU_SOURCE -D__x86_64__ -DCHAR_BIT=8 -Irunner -I$(DEPS)/include runner tests/unit

format:
	clang-format -i runner/*.[ch] tests/unit/*.[ch]

clean:
	rm -rf build/musl build/asan build/unit-musl build/unit-asan build/ebsbench
