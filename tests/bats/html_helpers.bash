# shellcheck shell=bash
# html_helpers.bash - report.html opened in headless Chromium
# (tests/tools/chromium_check.py) and what every such page must show;
# shared by html.bats (a fixture re-rendered) and qemu.bats (the
# appliance's own report, fetched back from S3).  Needs only bats and jq.

CHROMIUM_CHECK="$(cd "$(dirname "${BASH_SOURCE[0]}")/../tools" && pwd)/chromium_check.py"

# html_expect WHAT ACTUAL EXPECTED: fails, saying what, unless equal.
html_expect() {
	[ "$2" = "$3" ] || {
		echo "FAILED: $1: $2, expected $3" >&2
		return 1
	}
}

# chromium_open HTML SCHEME PNG [PDF]: the page in Chromium (light or dark,
# printed to PDF when asked); its JSON (chromium_check.py's) in $PAGE.  A
# hang fails the test after at most 3 minutes.
chromium_open() {
	local html=$1 scheme=$2 png=$3 pdf=${4:-} rc=0
	PAGE=$BATS_TEST_TMPDIR/page-$scheme.json
	timeout 180 /usr/bin/python3 "$CHROMIUM_CHECK" --html "$html" --scheme "$scheme" \
		--png "$png" ${pdf:+--pdf "$pdf"} --timeout 150 >"$PAGE" || rc=$?
	html_expect "chromium_check.py's exit status" "$rc" 0
}

# page Q: jq query Q over $PAGE.
page() {
	jq -r "$1" "$PAGE"
}

# assert_self_contained: no console error, no script, and the file the
# only thing the page requested.
assert_self_contained() {
	html_expect "console errors: $(page '.console_errors')" "$(page '.console_errors | length')" 0
	html_expect "scripts" "$(page '.dom.scripts')" 0
	html_expect "requests beyond the file: $(page '.requests')" \
		"$(jq '.url as $url | [.requests[] | select(. != $url)] | length' "$PAGE")" 0
}

# assert_charts_shown PANELS: the three charts every run has, each an
# inline <svg>; the heatmap's PANELS panels each filled with its colours
# (over 1 % of the panel's pixels: a blank one has none), the cliff's dashed line drawn in the
# screenshot with the series hidden (at least half of its 6-on-4-off
# dashes: a 360-px line has 36; with the series shown, its drop and swings
# at the cliff cover all but 3 of them on some runs).
assert_charts_shown() {
	local chart
	for chart in iops_timeline.svg latency_percentiles.svg latency_heatmap.svg; do
		html_expect "$chart inline" \
			"$(page "[.dom.figures[] | select(.artifact == \"$chart\" and .svg)] | length")" 1
	done
	html_expect "heatmap panels" "$(page '.heatmap_panels | length')" "$1"
	html_expect "heatmap panels drawn: $(page '[.heatmap_panels[].palette_share]')" \
		"$(page '[.heatmap_panels[] | select(.palette_share > 0.01)] | length')" "$1"
	html_expect "cliff lines" "$(page '.cliff_lines | length')" 1
	html_expect "cliff line drawn: $(page '.cliff_lines')" \
		"$(page '.cliff_lines[0].dashes_alone >= .cliff_lines[0].box[3] / 20')" true
}
