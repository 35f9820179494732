#!/usr/bin/env bash
# lint-bats.sh - keep assertions that cannot fail out of the bats tests.
#
# bats runs a test body under `set -e`, and bash's `set -e` ignores a
# failing command that is not the last of an `a && b` list, and any `! cmd`:
# such a line looks like a check and checks nothing.  This reads each file
# as bash does (quotes, heredocs, $(...), [[ ]], (( )), subshells, line
# continuations, comments) and, in every function and @test body, flags:
#   and-list    `a && b` whose failure of `a` passes silently (allowed: the
#               body's last statement, `... && fail`, `&& break|continue|
#               return|exit`, `a && b || c`, and any if/while condition)
#   negation    `! cmd` that is not the body's last statement
#   or-true     `[ ]`, `[[ ]]`, `test`, `(( ))`, assert_*/refute_* followed by
#               `|| true` or `|| :`
#   pipe        an assertion in a pipeline stage other than the last
#   tool-true   `command -v X || true|:|return 0`: a missing tool passes
#   bare-skip   `skip` other than through skip_unavailable (helpers.bash),
#               which accepts only the reasons in tests/bats/skips.list
#   run-last    a test whose last statement is `run CMD` (not `run -N` or
#               `run !`): nothing looks at what it did
# Usage: tests/lint-bats.sh [FILE...]   (default: tests/bats/*.bats,
# tests/bats/*.bash and tests/peers/peers.bash).  Each finding goes to stdout as FILE:LINE: RULE: what
# and the statement; the exit status is 1 when there is one, 2 on bad usage.
#        tests/lint-bats.sh --skips-readme: docs/development.md quotes the entries of
# tests/bats/skips.list exactly (the list is kept in one place, shown there).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)

# skips_readme: the block after docs/development.md's "<!-- tests/bats/skips.list -->"
# marker holds exactly the list's entries, in order.
skips_readme() {
	local want got
	want=$(grep -v -e '^#' -e '^[[:space:]]*$' "$ROOT/tests/bats/skips.list")
	got=$(awk '/^<!-- tests\/bats\/skips.list -->$/ { m = 1; next }
		m && /^```/ { if (in_block) exit; in_block = 1; next }
		in_block { print }' "$ROOT/docs/development.md")
	[ "$want" = "$got" ] && return 0
	echo "lint-bats: docs/development.md's quote of tests/bats/skips.list differs from the file:" >&2
	diff <(echo "$got") <(echo "$want") >&2 || true
	return 1
}
if [ "${1:-}" = --skips-readme ]; then
	skips_readme
	exit
fi

if [ $# -eq 0 ]; then
	cd "$ROOT"
	set -- tests/bats/*.bats tests/bats/*.bash tests/peers/peers.bash
fi
for f in "$@"; do
	[ -f "$f" ] || {
		echo "lint-bats: no such file: $f" >&2
		exit 2
	}
done

# The skip helper's own name: the one place allowed to call `skip`.
SKIP_HELPER=skip_unavailable

read -r -d '' PROGRAM <<'AWK' || true
# --- the context stack: file, fn, grp, sub, cs, ar, db, sq, dq, aq ----------
function push(c) { st[++sp] = c; acmd[sp] = 1; wd[sp] = "" }
function code(c) { return c == "file" || c == "fn" || c == "grp" || c == "sub" || c == "cs" }

function report(line, rule, msg, text) {
	text = src[line]
	gsub(/^[ \t]+|[ \t]+$/, "", text)
	printf "%s:%d: %s: %s: %s\n", FILENAME, line, rule, msg, text
	found++
}

# --- statements of the innermost function body -----------------------------
function stmt_reset() {
	s_text = ""; s_line = 0; s_kind = "normal"; s_neg = 0; s_nseg = 0
	s_w2 = ""; s_w3 = ""; s_nwords = 0
}

function stmt_word(w) {
	if (s_line == 0) s_line = FNR
	opwait = 0
	if (acmd[sp]) {
		if (s_nseg == 0 && (w == "then" || w == "do" || w == "else")) { return }
		if (s_nseg == 0 && w == "!") { s_neg = 1; return }
		if (w == "!") return
		seg[++s_nseg] = w
		if (s_nseg == 1) {
			# A condition: its words are commands too ("if ! a", "if (( x ))").
			if (w == "if" || w == "elif" || w == "while" || w == "until") { s_kind = "cond"; return }
			if (w == "fi" || w == "done" || w == "esac") s_kind = "closer"
			else if (w == "for" || w == "case") s_kind = "header"
		}
		acmd[sp] = 0
		s_nwords = 1
		return
	}
	if (s_nseg == 1) {
		s_nwords++
		if (s_nwords == 2) s_w2 = w
		else if (s_nwords == 3) s_w3 = w
	}
}

function stmt_op(op) {
	opwait = 1
	segop[s_nseg] = op
	acmd[sp] = 1
}

function stmt_end(   i) {
	if (s_nseg > 0) {
		n = ++fn_n[fd]
		k = fd SUBSEP n
		f_line[k] = s_line; f_text[k] = s_text; f_kind[k] = s_kind; f_neg[k] = s_neg
		f_nseg[k] = s_nseg; f_w2[k] = s_w2; f_w3[k] = s_w3
		for (i = 1; i <= s_nseg; i++) { f_seg[k, i] = seg[i]; f_segop[k, i] = segop[i] }
	}
	for (i in seg) delete seg[i]
	for (i in segop) delete segop[i]
	stmt_reset()
	opwait = 0
	acmd[sp] = 1
}

function asserts(w) {
	return w == "[" || w == "[[" || w == "test" || w == "((" || w ~ /^(assert|refute)(_|$)/
}

# run's own status checks: `run -N ...`, `run ! ...` (after --options).
function run_checked(w2, w3) {
	if (w2 ~ /^--/) w2 = w3
	return w2 == "!" || w2 ~ /^-[0-9]+$/
}

# Apply the rules to the finished body at depth fd.
function fn_check(   n, i, j, k, last, lastop, lastw, kk) {
	n = fn_n[fd]
	last = 0
	for (i = 1; i <= n; i++) if (f_kind[fd, i] == "normal" || f_kind[fd, i] == "cond") last = i
	for (i = 1; i <= n; i++) {
		k = fd SUBSEP i
		if (f_kind[k] != "normal") continue
		lastop = ""; lastw = ""
		for (j = 1; j < f_nseg[k]; j++) {
			if (f_segop[k, j] == "&&" || f_segop[k, j] == "||") {
				lastop = f_segop[k, j]
				lastw = f_seg[k, j + 1]
			}
			if (f_segop[k, j] == "||" && (f_seg[k, j + 1] == "true" || f_seg[k, j + 1] == ":") && asserts(f_seg[k, j]))
				report(f_line[k], "or-true", "an assertion followed by || true checks nothing", f_text[k])
			if (f_segop[k, j] == "|" && asserts(f_seg[k, j]))
				report(f_line[k], "pipe", "an assertion before | is not what the pipeline's status says", f_text[k])
		}
		if (i != last && lastop == "&&" && lastw !~ /^(fail|break|continue|return|exit)$/)
			report(f_line[k], "and-list", "in `a && b` a failing `a` is ignored (set -e): split it, or use `|| fail`", f_text[k])
		if (i != last && f_neg[k] && lastop != "||")
			report(f_line[k], "negation", "`! cmd` not last never fails (set -e ignores it): use `run !` or `cmd && fail`", f_text[k])
		if (f_text[k] ~ /command -v[^|&;]*\|\|[ \t]*(true|:|return 0)([ \t;]|$)/)
			report(f_line[k], "tool-true", "a missing tool must fail, not pass", f_text[k])
		if (fn_kind[fd] == "test" && i == last && f_seg[k, 1] == "run" && !run_checked(f_w2[k], f_w3[k]))
			report(f_line[k], "run-last", "a test ending in `run CMD` checks nothing", f_text[k])
	}
	for (i = 1; i <= n; i++) {
		k = fd SUBSEP i
		delete f_line[k]; delete f_text[k]; delete f_kind[k]; delete f_neg[k]
		delete f_w2[k]; delete f_w3[k]
		for (j = 1; j <= f_nseg[k]; j++) { delete f_seg[k, j]; delete f_segop[k, j] }
		delete f_nseg[k]
	}
	fn_n[fd] = 0
}

function fn_open(kind, name) {
	push("fn")
	fd = sp
	fn_kind[fd] = kind; fn_name[fd] = name; fn_n[fd] = 0
	stmt_reset()
}

function fn_close() {
	stmt_end()
	fn_check()
	sp--
	fd = 0
	for (i = sp; i >= 1; i--) if (st[i] == "fn") { fd = i; break }
	stmt_reset()
}

function in_fn_named(name,   i) {
	for (i = sp; i >= 1; i--) if (st[i] == "fn") return fn_name[i] == name
	return 0
}

# A word ended in code context c.
function word_done(w, c,   was) {
	if (w == "") return
	was = acmd[sp]
	if (was && w == "skip" && !in_fn_named(skiphelper))
		report(FNR, "bare-skip", "skip only through " skiphelper " with a reason listed in tests/bats/skips.list", $0)
	if (c == "fn") stmt_word(w)
	if (was && w == "{" && c != "file") { push("grp"); return }
	# name() { ...; }: a function defined inline; its body is a group.
	if (w ~ /\(\)$/) { acmd[sp] = 1; return }
	if (w == "[[") { if (c == "fn") acmd[sp] = 0; push("db"); return }
	if (acmd[sp] && w == "!") return
	if (w != "then" && w != "do" && w != "else" && w != "elif" && w != "if" && w != "while" && w != "until" && w != "time")
		acmd[sp] = 0
}

function end_word(c) {
	w = wd[sp]
	wd[sp] = ""
	word_done(w, c)
}

# A heredoc starting at position i of the current line: remember its
# delimiter; returns the position after it.
function heredoc(line, i,   strip, d, q) {
	i += 2
	strip = 0
	if (substr(line, i, 1) == "-") { strip = 1; i++ }
	while (substr(line, i, 1) ~ /[ \t]/) i++
	q = substr(line, i, 1)
	if (q == "'" || q == "\"") {
		i++
		d = ""
		while (i <= length(line) && substr(line, i, 1) != q) { d = d substr(line, i, 1); i++ }
	} else {
		d = ""
		while (i <= length(line) && substr(line, i, 1) ~ /[A-Za-z0-9_]/) { d = d substr(line, i, 1); i++ }
		i--
	}
	hd[++nhd] = d
	hstrip[nhd] = strip
	return i
}

function scan(line,   i, ch, two, c, n) {
	n = length(line)
	cont = 0
	for (i = 1; i <= n; i++) {
		ch = substr(line, i, 1)
		two = substr(line, i, 2)
		c = st[sp]
		if (fd && sp >= fd) s_text = s_text ch
		if (c == "sq") { if (ch == "'") sp--; continue }
		if (c == "aq") { if (ch == "\\") { i++; continue } if (ch == "'") sp--; continue }
		if (c == "dq") {
			if (ch == "\\") { i++; continue }
			if (ch == "\"") { sp--; continue }
			if (substr(line, i, 3) == "$((") { push("ar"); ard[sp] = 2; i += 2; continue }
			if (two == "$(") { push("cs"); i++; continue }
			continue
		}
		if (c == "ar") {
			if (ch == "(") ard[sp]++
			else if (ch == ")") { if (--ard[sp] == 0) sp-- }
			continue
		}
		if (c == "db") {
			if (ch == "\\") { i++; continue }
			if (ch == "'") { push("sq"); continue }
			if (ch == "\"") { push("dq"); continue }
			if (two == "$(") { push("cs"); i++; continue }
			if (two == "]]" && substr(line, i - 1, 1) ~ /[ \t]/ && substr(line, i + 2, 1) ~ /^([ \t;&|)]|)$/) {
				sp--; i++
				if (fd && sp >= fd) s_text = s_text "]"
			}
			continue
		}
		# code: file, fn, grp, sub, cs
		if (ch == "\\") {
			if (i == n) { cont = 1; continue }
			wd[sp] = wd[sp] substr(line, i, 2); i++
			if (fd && sp >= fd) s_text = s_text substr(line, i, 1)
			continue
		}
		if (ch == "#" && wd[sp] == "") { s_text = substr(s_text, 1, length(s_text) - 1); break }
		if (ch == "'") { wd[sp] = wd[sp] "Q"; push("sq"); continue }
		if (two == "$'") { wd[sp] = wd[sp] "Q"; push("aq"); i++; continue }
		if (ch == "\"") { wd[sp] = wd[sp] "Q"; push("dq"); continue }
		if (substr(line, i, 3) == "$((") { wd[sp] = wd[sp] "Q"; push("ar"); ard[sp] = 2; i += 2; continue }
		if (two == "$(" || two == "<(" || two == ">(") { wd[sp] = wd[sp] "Q"; push("cs"); i++; continue }
		if (ch == "$" && substr(line, i + 1, 1) == "{") {
			# ${...}: to the matching brace, as part of the word.
			d = 0
			wd[sp] = wd[sp] ch
			for (i++; i <= n; i++) {
				ch = substr(line, i, 1)
				if (fd && sp >= fd) s_text = s_text ch
				wd[sp] = wd[sp] ch
				if (ch == "{") d++
				else if (ch == "}" && --d == 0) break
			}
			continue
		}
		if (two == "<<" && substr(line, i + 2, 1) != "<") {
			end_word(c)
			j = heredoc(line, i)
			if (fd && sp >= fd) s_text = s_text substr(line, i + 1, j - i)
			i = j
			continue
		}
		if (two == "<<") {
			# a here-string: <<< WORD
			wd[sp] = wd[sp] "<<<"; i += 2
			if (fd && sp >= fd) s_text = s_text "<<"
			continue
		}
		if (ch == " " || ch == "\t") { end_word(c); continue }
		if (two == "((" && acmd[sp] && wd[sp] == "") {
			if (c == "fn") stmt_word("((")
			acmd[sp] = 0
			push("ar"); ard[sp] = 2; i++
			if (fd && sp >= fd) s_text = s_text "("
			continue
		}
		if (ch == "(" && acmd[sp] && wd[sp] == "") {
			if (c == "fn") stmt_word("(")
			acmd[sp] = 0
			push("sub")
			continue
		}
		if (ch == ")" && (c == "sub" || c == "cs")) { end_word(c); sp--; continue }
		if (two == "&&" || two == "||") {
			end_word(c)
			if (c == "fn") stmt_op(two); else acmd[sp] = 1
			i++
			if (fd && sp >= fd) s_text = s_text substr(two, 2, 1)
			continue
		}
		if (ch == "|") {
			end_word(c)
			if (c == "fn") stmt_op("|"); else acmd[sp] = 1
			continue
		}
		if (ch == "&" && substr(line, i - 1, 1) !~ /[<>]/ && substr(line, i + 1, 1) != ">") {
			end_word(c)
			if (c == "fn") stmt_end(); else acmd[sp] = 1
			continue
		}
		if (ch == ";") {
			end_word(c)
			if (c == "fn") stmt_end(); else acmd[sp] = 1
			continue
		}
		if (ch == "}" && wd[sp] == "" && acmd[sp] && (substr(line, i + 1, 1) ~ /^([ \t;&|)]|)$/)) {
			if (c == "fn") { fn_close(); continue }
			if (c == "grp") { sp--; continue }
		}
		wd[sp] = wd[sp] ch
	}
	c = st[sp]
	if (code(c)) {
		end_word(c)
		# A line ending in &&, || or | goes on on the next line.
		if (!cont && !(c == "fn" && opwait)) {
			if (c == "fn") stmt_end()
			else acmd[sp] = 1
		}
	}
	if (fd && sp >= fd) s_text = s_text "\n"
}

FNR == 1 {
	if (NR > 1 && sp != 1) printf "%s: unbalanced at end of file (%s open)\n", prevfile, st[sp] > "/dev/stderr"
	sp = 0; push("file"); fd = 0; nhd = 0; inhd = 0; stmt_reset(); prevfile = FILENAME
}

# Heredoc bodies are text, not code.
inhd {
	body = $0
	if (hstrip[inhd]) sub(/^\t+/, "", body)
	if (body == hd[inhd]) { if (++inhd > nhd) { inhd = 0; nhd = 0 } }
	next
}

{
	src[FNR] = $0
	line = $0
	if ((st[sp] == "file" || st[sp] == "fn") && acmd[sp] && wd[sp] == "" && !cont) {
		# A function or test header opens a body to lint; a one-line
		# function is its own header and body.
		if (line ~ /^[ \t]*(function[ \t]+)?[A-Za-z_][A-Za-z0-9_:-]*[ \t]*\(\)[ \t]*\{[ \t]*(#.*)?$/ ||
		    line ~ /^[ \t]*function[ \t]+[A-Za-z_][A-Za-z0-9_:-]*[ \t]*\{[ \t]*$/) {
			name = line
			sub(/^[ \t]*(function[ \t]+)?/, "", name)
			sub(/[ \t]*(\(\))?[ \t]*\{.*$/, "", name)
			fn_open("func", name)
			next
		}
		if (line ~ /^[ \t]*@test[ \t].*\{[ \t]*$/) {
			fn_open("test", line)
			next
		}
	}
	if (fd) { if (s_line == 0) s_text = "" }
	scan(line)
	if (nhd) inhd = 1
}

END {
	if (NR > 0 && sp != 1) printf "%s: unbalanced at end of file (%s open)\n", prevfile, st[sp] > "/dev/stderr"
	exit found > 0
}
AWK

status=0
awk -v skiphelper="$SKIP_HELPER" "$PROGRAM" "$@" || status=$?
if [ "$status" -ne 0 ]; then
	echo "lint-bats: assertions that cannot fail (see tests/lint-bats.sh for the rules)" >&2
	exit 1
fi
