#!/usr/bin/env bash
# example.sh - docs/example: a real run's report, kept equal to what the code renders.
#
#   example.sh update   `make demo` once (the appliance in QEMU, about 2 minutes once built),
#                       then every file the run wrote (results.json names each in its
#                       uploads: the report files, the charts and the fio-format logs) into
#                       docs/example, and report.png: the top of report.html in Debian's
#                       headless Chromium (tests/tools/chromium_check.py), for the README
#   example.sh check    `ebsbench report` on a copy of docs/example/results.json; every
#                       committed file must be what it renders, byte for byte (the render
#                       holds no time or path of its own: the times in it are the run's, from
#                       results.json).  report.png is not compared: Chromium draws it.
#                       Every file results.json says the run uploaded must be there.
# Exit 0, or 1 naming each file that differs (and how to regenerate them).
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
example=${EXAMPLE_DIR:-$root/docs/example} # EXAMPLE_DIR: another copy, for tests
ebsbench=${EBSBENCH:-$root/build/ebsbench}
FILES="summary.md recommend.md report.html iops_timeline.svg latency_percentiles.svg
  latency_heatmap.svg latency_vs_load.svg"
PNG_HEIGHT=1190 # the header, the TL;DR and the randread chart with its cliff

update() {
	local out=$root/build/example-demo
	DEMO_OUT=$out bash "$root/tests/qemu/demo.sh" >/dev/null
	mkdir -p "$example"
	rm -f "$example"/*.md "$example"/*.svg "$example"/*.html "$example"/*.log "$example"/results.json
	for f in results.json $FILES $(jq -r '.uploads[].artifact' "$out/results.json"); do
		[ -f "$out/$f" ] || { echo "example: the demo wrote no $f" >&2 && exit 1; }
		cp "$out/$f" "$example/$f"
	done
	/usr/bin/python3 "$root/tests/tools/chromium_check.py" --html "$example/report.html" \
		--scheme light --png "$out/report-full.png" >/dev/null
	/usr/bin/python3 - "$out/report-full.png" "$example/report.png" "$PNG_HEIGHT" <<'PY'
import sys
from PIL import Image
src, dst, height = sys.argv[1], sys.argv[2], int(sys.argv[3])
img = Image.open(src)
img.crop((0, 0, img.width, min(height, img.height))).quantize(colors=128).save(dst, optimize=True)
PY
	echo "example: docs/example updated from $out" >&2
}

check() {
	local tmp rc=0
	[ -x "$ebsbench" ] || { echo "example: $ebsbench: not built" >&2 && exit 2; }
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' RETURN
	cp "$example/results.json" "$tmp/"
	"$ebsbench" report "$tmp" >/dev/null 2>"$tmp/stderr" || {
		echo "example: ebsbench report failed on ${example#"$root"/}/results.json:" >&2
		cat "$tmp/stderr" >&2
		return 1
	}
	for f in $FILES; do
		if ! cmp -s "$tmp/$f" "$example/$f"; then
			echo "example: ${example#"$root"/}/$f is not what ebsbench report renders from its results.json:" >&2
			diff "$example/$f" "$tmp/$f" | head -n 8 >&2 || true
			rc=1
		fi
	done
	# Every file the run wrote (and uploaded) is in the example.
	for f in $(jq -r '.uploads[].artifact' "$example/results.json"); do
		[ -f "$example/$f" ] || {
			echo "example: the run wrote $f (results.json's uploads), which ${example#"$root"/} lacks" >&2
			rc=1
		}
	done
	# Nothing the render writes is missing from the example, nor the other way round.
	for f in "$tmp"/*.md "$tmp"/*.svg "$tmp"/*.html; do
		case " $(echo $FILES) " in *" $(basename "$f") "*) ;; *)
			echo "example: ebsbench report also writes $(basename "$f"), which ${example#"$root"/} lacks" >&2
			rc=1
			;;
		esac
	done
	((rc == 0)) || echo "example: regenerate with make example (or re-render: ebsbench report docs/example)" >&2
	return "$rc"
}

case "${1:-}" in
update) update ;;
check) check ;;
*) echo "usage: tests/tools/example.sh update|check" >&2 && exit 2 ;;
esac
