#!/usr/bin/env bash
# Make a Debian 12 machine ready to build ebsbench: apt packages, plus static
# musl builds of liburing/libaio/jansson/mbedtls/libblkid (Debian only ships glibc ones),
# and (--all) everything the tests, the image and the demo use (test peers, QEMU,
# every format's tool).
# Idempotent; usage: runner/deps/deps.sh [--build|--all] [PREFIX]
#   (default --all; PREFIX default: <repo>/build/deps)
#        runner/deps/deps.sh --list build|rest: the Debian packages of each part
set -euo pipefail

# What `make build/ebsbench` needs, and nothing else: musl-gcc, make and a
# compiler, cmake (jansson), dpkg-dev (apt-get source, dpkg-source) and
# xz-utils (util-linux's source is .tar.xz).  The kernel's UAPI headers come
# with build-essential (libc6-dev -> linux-libc-dev).
BUILD_PACKAGES="musl-tools musl-dev build-essential cmake dpkg-dev xz-utils"
# The rest: what the tests, `make image` and `make demo` use, installed up
# front by `make test`, `make image` and `make demo` (never by `make`).
REST_PACKAGES="fio bats bats-assert
  bats-support bats-file jq libaio-dev liburing-dev libjansson-dev clang-format
  cppcheck xmlstarlet util-linux python3 libxml2-utils time e2fsprogs libmbedtls-dev
  ca-certificates libblkid-dev python3-six clang libfuzzer-14-dev
  fdisk gdisk dosfstools ntfs-3g exfatprogs f2fs-tools squashfs-tools genisoimage bcache-tools
  cryptsetup-bin lvm2 xfsprogs btrfs-progs nilfs-tools jfsutils reiserfsprogs udftools erofs-utils
  awscli python3-numpy python3-pandas
  bc bison flex libelf-dev libssl-dev cpio busybox-static systemd-boot-efi binutils mtools
  qemu-system-x86 ovmf
  skopeo umoci runc crun
  chromium poppler-utils python3-pil"
# Up front, so no test installs anything mid-run: the -dev packages are the
# glibc builds' (unit-asan, ebsbench-asan, the fuzz targets), clang and
# libfuzzer the fuzz targets'; the lines from "fdisk" on
# are each format's own tool (tests/bats/safety.bats), the real AWS CLI v2
# that tests/bats/ami.bats replays the AMI scripts through, numpy and pandas
# for fio's fiologparser_hist.py (tests/bats/histlog.bats), what the kernel,
# initramfs and UEFI image scripts need, QEMU with OVMF for the appliance
# tests, the OCI tools tests/bats/oci.bats checks the image with, and the
# headless browser report.html is checked in (tests/tools/chromium_check.py:
# chromium, pdfinfo, Pillow for the screenshot's pixels).  The
# test peers' and manifests' npm packages and Debian packages come from
# their own install.sh scripts, run last.
PART=all
case "${1:-}" in
--build) PART=build && shift ;;
--all) shift ;;
--list)
  case "${2:-}" in
  build) echo $BUILD_PACKAGES ;;
  rest) echo $REST_PACKAGES ;;
  *) echo "deps: --list build|rest" >&2 && exit 2 ;;
  esac
  exit 0
  ;;
-*) echo "deps: unknown option ${1}; usage: deps.sh [--build|--all] [PREFIX]" >&2 && exit 2 ;;
esac
PACKAGES=$BUILD_PACKAGES
[[ $PART == build ]] || PACKAGES="$BUILD_PACKAGES $REST_PACKAGES"
# Exact Debian source versions (bookworm); bumping one forces a rebuild via its stamp.
LIBURING_VER=2.3-3
LIBAIO_VER=0.3.113-4
JANSSON_VER=2.14-2
MBEDTLS_VER=2.28.3-1
UTIL_LINUX_VER=2.38.1-5+deb12u3 # libblkid only

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
PREFIX=${1:-$ROOT/build/deps}
case "$PREFIX" in /*) ;; *) PREFIX=$PWD/$PREFIX ;; esac
CACHE=${EBSBENCH_CACHE:-/var/cache/ebsbench}
SRC=$CACHE/src
KH=$PREFIX/kernel-headers
export DEBIAN_FRONTEND=noninteractive
step="setup"
PROG=deps
# shellcheck source=../../image/lib.sh
. "$ROOT/image/lib.sh"
# Failures that set -e catches still get a one-line message naming the step
# (die's own line is enough).
trap 'if (($?)) && [[ -n $step && -z ${DIED:-} ]]; then say "error: $step failed"; fi' EXIT
# --cc and CFLAGS are word-split by the libraries' build systems.
[[ "$PREFIX$CACHE" != *[[:space:]]* ]] || die "PREFIX/EBSBENCH_CACHE must not contain spaces"
# Concurrent runs (parallel make, CI jobs) would share $CACHE/build and apt's lock.
mkdir -p "$SRC" "$PREFIX/include" "$PREFIX/lib"
exec 9>"$CACHE/.lock" && flock 9

apt_updated=0
apt_update() { ((apt_updated)) || apt-get update -qq; apt_updated=1; }

step="enabling deb-src"
need_update=0
has_src() {
  grep -qsE '^[[:space:]]*deb-src[[:space:]]' /etc/apt/sources.list /etc/apt/sources.list.d/*.list ||
    grep -qsE '^Types:.*deb-src' /etc/apt/sources.list.d/*.sources
}
if ! has_src; then
  if [[ -f /etc/apt/sources.list.d/debian.sources ]]; then
    sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources \
      >/etc/apt/sources.list.d/debian-src.sources
  else # older images still use the one-line format
    sed -n 's/^deb /deb-src /p' /etc/apt/sources.list >/etc/apt/sources.list.d/debian-src.list
  fi
  need_update=1
fi

step="apt package install"
missing=()
for p in $PACKAGES; do
  [[ $(dpkg-query -W -f='${Status}' "$p" 2>/dev/null) == "install ok installed" ]] || missing+=("$p")
done
# One update serves both the new deb-src stanzas and the installs.
if ((need_update || ${#missing[@]})); then apt_update; fi
if ((${#missing[@]})); then
  echo "deps: installing ${missing[*]}"
  apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# musl-gcc passes -nostdinc, so glibc's /usr/include is invisible (and must stay
# so: its libc headers would shadow musl's). Expose only the kernel UAPI headers.
step="kernel headers"
khver=$(dpkg-query -W -f='${Version}' linux-libc-dev)
if [[ $(cat "$PREFIX/.stamp-kernel-headers" 2>/dev/null) != "$khver" ]]; then
  rm -rf "$KH" && mkdir -p "$KH"
  for d in linux asm-generic mtd misc rdma sound video xen; do
    if [[ -d /usr/include/$d ]]; then cp -a "/usr/include/$d" "$KH/"; fi
  done
  cp -a /usr/include/x86_64-linux-gnu/asm "$KH/asm"
  echo "$khver" >"$PREFIX/.stamp-kernel-headers"
fi

offered() { apt-cache showsrc "$1" 2>/dev/null | sed -n 's/^Version: //p' | sort -u | xargs || true; }

# fetch NAME VERSION LOG: download (once, into $SRC) and unpack the exact Debian
# source; sets $dir. Pinning keeps static builds reproducible across machines.
fetch() {
  local name=$1 ver=$2 log=$3 have
  if [[ ! -f $SRC/${name}_$ver.dsc ]]; then
    have=$(offered "$name")
    if [[ " $have " != *" $ver "* ]] && ! ((apt_updated)); then
      apt_update # index may be stale or absent (e.g. image with cleaned lists)
      have=$(offered "$name")
    fi
    [[ " $have " == *" $ver "* ]] ||
      die "$name: pinned Debian source $ver not available (apt offers: ${have:-none})"
    (cd "$SRC" && apt-get source --download-only "$name=$ver") >>"$log" 2>&1 ||
      { tail -n 30 "$log" >&2; die "$name: downloading Debian source $ver failed"; }
  fi
  dir=$CACHE/build/$name-$ver
  rm -rf "$dir" && mkdir -p "$CACHE/build"
  # apt already verified the files against the signed Sources index; dpkg-source
  # merely warns that it lacks the uploader's key.
  dpkg-source -x "$SRC/${name}_$ver.dsc" "$dir" >>"$log" 2>&1 ||
    { tail -n 30 "$log" >&2; die "$name: unpacking Debian source $ver failed"; }
}

build_liburing() {
  # Flags go in --cc because configure ignores CFLAGS and probes <linux/*.h>;
  # without the kernel headers its probes fail and compat.h redefines types.
  ./configure --cc="musl-gcc -isystem $KH" --prefix="$PREFIX"
  make -C src -j"$(nproc)" ENABLE_SHARED=0 CFLAGS="-O2 -Wall" liburing.a
  rm -rf "$PREFIX/include/liburing"
  install -D -m644 src/include/liburing.h "$PREFIX/include/liburing.h"
  install -D -m644 -t "$PREFIX/include/liburing" src/include/liburing/*.h
  install -m644 src/liburing.a "$PREFIX/lib/"
}

build_libaio() {
  make -C src -j"$(nproc)" CC=musl-gcc ENABLE_SHARED=0 CFLAGS="-O2 -Wall -isystem $KH" libaio.a
  install -m644 src/libaio.h "$PREFIX/include/"
  install -m644 src/libaio.a "$PREFIX/lib/"
}

build_jansson() {
  cmake -S . -B build -DCMAKE_C_COMPILER=musl-gcc -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_INSTALL_PREFIX="$PREFIX" \
    -DJANSSON_BUILD_DOCS=OFF -DJANSSON_EXAMPLES=OFF -DJANSSON_WITHOUT_TESTS=ON \
    -DJANSSON_BUILD_SHARED_LIBS=OFF
  cmake --build build -j"$(nproc)"
  cmake --install build
}

# mbedTLS and libblkid run once a command (a TLS upload, a device probe),
# never once an I/O: built for size, as the Makefile's COLD_DIRS are. -Os
# takes 57 KB off the binary against -O2 (1,039,560 -> 982,248 bytes).
COLD_LIB_CFLAGS="-Os -ffunction-sections -fdata-sections"

build_mbedtls() {
  # The library's own Makefile needs only a compiler: error.c and friends are
  # pre-generated in the tarball, so no cmake/python. runner/deps/mbedtls_config.h
  # replaces config.h: a TLS 1.2 client and the digests we use, about 200 KB
  # less than upstream's defaults. The glibc ASan build uses Debian's own
  # headers and libs, so each variant is consistent with itself.
  cp "$ROOT/runner/deps/mbedtls_config.h" include/mbedtls/config.h
  make -C library -j"$(nproc)" CC=musl-gcc AR=ar CFLAGS="$COLD_LIB_CFLAGS" static
  rm -rf "$PREFIX/include/mbedtls" "$PREFIX/include/psa"
  # ssl.h and config_psa.h include psa/*.h, so both directories are needed.
  install -D -m644 -t "$PREFIX/include/mbedtls" include/mbedtls/*.h
  install -D -m644 -t "$PREFIX/include/psa" include/psa/*.h
  install -m644 library/libmbedtls.a library/libmbedx509.a library/libmbedcrypto.a "$PREFIX/lib/"
}

build_util_linux() {
  # dpkg-source leaves configure.ac newer than aclocal.m4: without these
  # touches make would rerun aclocal/autoconf, which the build does not need.
  touch aclocal.m4 && sleep 1 && touch configure Makefile.in config.h.in
  CC=musl-gcc CFLAGS="$COLD_LIB_CFLAGS -isystem $KH" ./configure \
    --disable-all-programs --enable-libblkid --disable-shared --enable-static \
    --without-systemd --without-udev --without-python --disable-nls --disable-bash-completion \
    --prefix="$PREFIX"
  make -j"$(nproc)" libblkid.la
  install -D -m644 libblkid/src/blkid.h "$PREFIX/include/blkid/blkid.h"
  install -m644 .libs/libblkid.a "$PREFIX/lib/"
  # util-linux's own test images (filesystems, RAID members and partition
  # tables made by their real tools): tests/bats/safety.bats writes each to
  # a loop device and checks a writing plan refuses it.
  rm -rf "$PREFIX/share/blkid-images"
  mkdir -p "$PREFIX/share/blkid-images"
  cp -a tests/ts/blkid/images-fs tests/ts/blkid/images-pt "$PREFIX/share/blkid-images/"
}

# build NAME VERSION [CONFIG]: run build_NAME (dashes as _) unless the stamp
# says VERSION (built with CONFIG, e.g. a config file's hash) is installed.
build() {
  local name=$1 ver=$2 stamp=$2${3:++$3} log=$CACHE/build-$1.log rc
  step="$name $ver build"
  [[ $(cat "$PREFIX/.stamp-$name" 2>/dev/null) == "$stamp" ]] && return 0
  echo "deps: building $name $ver (log: $log)"
  : >"$log"
  fetch "$name" "$ver" "$log"
  # set -e is ignored inside a subshell on the left of ||, so capture rc by hand.
  set +e
  (set -e; cd "$dir"; "build_${name//-/_}") >>"$log" 2>&1
  rc=$?
  set -e
  if ((rc)); then
    tail -n 30 "$log" >&2
    die "$name $ver build failed (full log: $log)"
  fi
  rm -rf "$CACHE/build" # dpkg-source also leaves copies of the orig tarball there
  echo "$stamp" >"$PREFIX/.stamp-$name"
}

build liburing "$LIBURING_VER"
build libaio "$LIBAIO_VER"
build jansson "$JANSSON_VER"
# A stamp names what its build depends on beyond the version, so a change
# of config or flags rebuilds it.
cold_flags=$(sha256sum <<<"$COLD_LIB_CFLAGS" | cut -c1-8)
build mbedtls "$MBEDTLS_VER" "$(sha256sum "$ROOT/runner/deps/mbedtls_config.h" | cut -c1-12)-$cold_flags"
build util-linux "$UTIL_LINUX_VER" "$cold_flags"

build_fio() {
  # fio's own tools, from the source package of the installed fio: t/io_uring
  # (the kernel's practical limit, which make bench sets beside fio and
  # ebsbench), fio's test scripts (t/*.py, run with ebsbench as their fio)
  # and fiologparser_hist.py (tests/bats/histlog.bats reads our histogram
  # logs with it), and its example job files (tests/bats/fio_steadystate.bats
  # runs examples/steadystate.fio).  Built with the system compiler: none of
  # it ships.
  rm -rf "$PREFIX/share/fio-source"
  mkdir -p "$PREFIX/share/fio-source" "$PREFIX/bin"
  cp -a t tools examples "$PREFIX/share/fio-source/"
  install -m755 tools/hist/fiologparser_hist.py "$PREFIX/bin/"
  ./configure >/dev/null
  make -j"$(nproc)" t/io_uring
  install -m755 t/io_uring "$PREFIX/bin/t-io_uring"
}

if [[ $PART == all ]]; then
  # "+examples": the build that also copies examples/ (an older stamp
  # builds again).
  build fio "$(dpkg-query -W -f='${Version}' fio)" examples

  step="test peers"
  bash "$ROOT/tests/peers/install.sh"
  step="manifest validator"
  bash "$ROOT/tests/k8s/install.sh"
fi

step="report"
echo "deps: liburing ${LIBURING_VER%-*} (Debian $LIBURING_VER) static musl"
echo "deps: libaio ${LIBAIO_VER%-*} (Debian $LIBAIO_VER) static musl"
echo "deps: jansson ${JANSSON_VER%-*} (Debian $JANSSON_VER) static musl"
echo "deps: mbedtls ${MBEDTLS_VER%-*} (Debian $MBEDTLS_VER) static musl"
echo "deps: libblkid ${UTIL_LINUX_VER%%-*} (Debian util-linux $UTIL_LINUX_VER) static musl"
echo "deps: musl $(dpkg-query -W -f='${Version}' musl) ($PART)"
