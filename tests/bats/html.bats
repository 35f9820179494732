#!/usr/bin/env bats
# html.bats - report.html in a real browser, Debian's headless Chromium
# (tests/tools/chromium_check.py, over the DevTools protocol): `ebsbench
# report` re-renders a fixture with a gp2 credit cliff
# (tests/unit/fixtures/results-seed000.json, its randread phases given
# per-window latency histograms here, so the heatmap has two panels), then
# the page is opened light, dark and printed.  It must request nothing but
# itself, log no console error, hold summary.md's every section, a table
# per phase, the recommendation and each chart as an inline <svg>, and the
# screenshot must show the heatmap's cells and the cliff's dashed line
# where the DOM puts them.  A device whose label, model and serial are
# markup shows them as text; one whose label and model also hold '|' and a
# newline leaves every Markdown file's tables whole (summary.md,
# recommend.md, fleet.md, compare.md, apply.md) and no raw tag in them or
# in report.html.  qemu.bats checks the appliance's own report the same way.

bats_require_minimum_version 1.5.0

load helpers
load_bats_libs
load html_helpers

FIXTURE=$BATS_TEST_DIRNAME/../unit/fixtures/results-seed000.json
HOSTILE='<script>alert(1)</script><img src=x onerror=alert(2)> & "q"'

# with_histograms [LABEL]: the fixture, each randread window with a
# latency histogram (slower after the run's middle, as after a cliff),
# and the gp2 device's label, model and serial LABEL when one is given.
with_histograms() {
	jq --arg bad "${1:-}" '
	  (.phases[] | select(.phase == "randread")) |= (.clat_hist = {
	    log: (.device + "_rr_clat_hist.1.log"), window_ms: .window_ms, coarseness: 4,
	    bins: 116, windows: [range(.iops_series | length) as $i |
	      if $i * 2 < (.iops_series | length) then "40:40 400 300 80 5"
	      else "46:20 150 400 300 60 8" end]}) |
	  if $bad == "" then . else
	    (.devices[] | select(.label == "gp2")) |= (.label = $bad | .model = $bad | .serial = $bad) |
	    (.phases[] | select(.device == "gp2")) |= (.device = $bad) |
	    del(.analysis) end' "$FIXTURE"
}

setup_file() {
	require_ebsbench
	local d=$BATS_FILE_TMPDIR
	mkdir -p "$d/fixture" "$d/hostile"
	with_histograms >"$d/fixture/results.json"
	with_histograms "$HOSTILE" >"$d/hostile/results.json"
	"$EBSBENCH" report "$d/fixture" >/dev/null
	"$EBSBENCH" report "$d/hostile" >/dev/null
}

setup() {
	cd "$BATS_TEST_TMPDIR"
	REPORT=$BATS_FILE_TMPDIR/fixture/report.html
}

@test "report.html light: self-contained, summary.md's every section, a table per phase, the charts drawn" {
	[ -s "$REPORT" ] || fail "ebsbench report wrote no report.html"
	chromium_open "$REPORT" light light.png
	assert_self_contained
	assert_charts_shown 2
	# Every "## " heading of summary.md is a heading of the page, in its words.
	local heading phase
	while read -r heading; do
		assert_equal "$(jq --arg h "$heading" '[.dom.h2[] | select(. == $h)] | length' "$PAGE")" 1
	done < <(sed -n 's/^## //p' "$BATS_FILE_TMPDIR/fixture/summary.md" | sed 's/\*\*//g; s/`//g')
	# A table per phase: each phase's section heading, then its table.
	for phase in $(jq -r '[.phases[].phase] | unique[]' "$FIXTURE"); do
		assert_equal "$(page "[.dom.h2[] | select(endswith(\" — $phase\") or contains(\" — $phase (\"))] | length")" 1
	done
	[ "$(page '.dom.tables')" -ge "$(jq '[.phases[].phase] | unique | length + 3' "$FIXTURE")" ] ||
		fail "$(page '.dom.tables') tables"
	assert_equal "$(page '.dom.h1 | join("|")')" \
		"$(sed -n '1s/^# //p' "$BATS_FILE_TMPDIR/fixture/summary.md")|Recommendation"
	[[ "$(page '.dom.h2 | join("|")')" == "TL;DR|"*"|Findings|Cost|Phases in the order they ran|gp2 ("*"|Devices" ]] ||
		fail "parts: $(page '.dom.h2')"
	# Markdown formatted, not shown: no bold stars, no table rules, no links.
	run page '.dom.text'
	refute_output --partial '**'
	refute_output --partial '|---|'
	refute_output --partial ']('
	# The page's own light background.
	[ "$(page '.background | min')" -ge 230 ] || fail "background $(page '.background')"
}

@test "report.html dark (prefers-color-scheme): a dark page, the charts still drawn on their white" {
	chromium_open "$REPORT" dark dark.png
	assert_self_contained
	assert_charts_shown 2
	[ "$(page '.background | max')" -le 40 ] || fail "background $(page '.background')"
}

@test "report.html printed: a page per section, no chart cut across pages" {
	chromium_open "$REPORT" light print.png print.pdf
	assert_self_contained
	local sections pages
	sections=$(page '.dom.sections')
	pages=$(page '.pdf.pages')
	[ "$pages" -ge "$sections" ] || fail "$pages pages for $sections sections"
	# Each section but the first of its part starts a page: its heading is
	# the page's first text (the TL;DR follows the title, the first
	# recommendation its heading).
	assert_equal "$(jq '[.dom.h2[] as $h | .pdf.page_texts | map(select(startswith($h))) |
		length | select(. > 0)] | length' "$PAGE")" "$((sections - 2))"
	# Each chart whole on one page: its title and its caption together.
	assert_equal "$(jq '[.dom.figures[] as $f | .pdf.page_texts |
		map(select(contains($f.title) and contains($f.caption))) | length | select(. > 0)] |
		length' "$PAGE")" "$(page '.dom.figures | length')"
}

@test "a device's label, model and serial that are markup show as text, nothing runs" {
	local html=$BATS_FILE_TMPDIR/hostile/report.html
	[ -s "$html" ] || fail "no report.html"
	run grep -ci '<script\|<img' "$html"
	assert_output 0
	chromium_open "$html" light hostile.png
	assert_self_contained
	# Shown as written: in the TL;DR's column and in the devices' table.
	[ "$(jq --arg s "$HOSTILE" '.dom.text | split($s) | length - 1' "$PAGE")" -ge 4 ] ||
		fail "the label is not shown as text"
}

# md_tables_whole FILE: every pipe-table row of FILE has its header's
# cells (a '\' escapes the next character, as GFM reads a row); prints
# each row that has not, with its line number.
md_tables_whole() {
	awk '{ n = 0
	       for (i = 1; i <= length($0); i++) {
	         c = substr($0, i, 1)
	         if (c == "\\") i++
	         else if (c == "|") n++
	       } }
	     !/^\|/ { cols = 0; next }
	     !cols { cols = n; next }
	     n != cols { print FILENAME ":" FNR ": " n - 1 " cells, not " cols - 1 ": " $0 }' "$1"
}

@test "a label and a model with '|', '<', a newline and HTML: every Markdown table whole, no raw tag" {
	local label=$'a|b <script>alert(1)</script>\nLABELTAIL' f
	local model=$'m|o <script>alert(2)</script>\nMODELTAIL'
	mkdir -p run other
	jq --arg l "$label" --arg m "$model" '
	  (.devices[] | select(.label == "gp2")) |= (.label = $l | .model = $m) |
	  (.phases[] | select(.device == "gp2")) |= (.device = $l) | del(.analysis)' \
		"$FIXTURE" >run/results.json
	cp run/results.json other/results.json
	"$EBSBENCH" report run >/dev/null
	"$EBSBENCH" report --out fleet run other 2>/dev/null
	"$EBSBENCH" compare run other --out cmp 2>/dev/null
	"$EBSBENCH" recommend run --out rec >recommend-stdout.md
	local md=(run/summary.md run/recommend.md fleet/summary.md fleet/fleet.md cmp/compare.md
		rec/apply.md recommend-stdout.md)
	for f in "${md[@]}"; do
		[ -s "$f" ] || fail "$f not written"
		assert_equal "$(md_tables_whole "$f")" ""
		assert_equal "$(grep -c '^LABELTAIL\|^MODELTAIL\|<script' "$f")" 0
	done
	grep -qF 'a\|b &lt;script>alert(1)&lt;/script> LABELTAIL' run/summary.md ||
		fail "the label is not one escaped cell: $(grep -n LABELTAIL run/summary.md)"
	for f in run/report.html fleet/report.html cmp/report.html; do
		assert_equal "$(grep -ci '<script' "$f")" 0
	done
	grep -qF 'a|b &lt;script&gt;alert(1)&lt;/script&gt; LABELTAIL' run/report.html ||
		fail "report.html does not show the label as text"
}

@test "compare --out writes report.html: the comparison in the report's page, self-contained" {
	run --separate-stderr "$EBSBENCH" compare "$BATS_FILE_TMPDIR/fixture" "$BATS_FILE_TMPDIR/fixture" --out cmp
	assert_success
	chromium_open cmp/report.html light compare.png
	assert_self_contained
	assert_equal "$(page '.dom.h2 | map(select(. == "Comparison: B against A")) | length')" 1
	[ "$(page '.dom.tables')" -ge 1 ] || fail "no table: $(page '.dom.tables')"
	run page '.dom.text'
	assert_output --partial 'not significant'
}
