#!/usr/bin/python3
"""doccheck.py - check that the documentation's snippets still hold.

Usage: doccheck.py [--ebsbench PATH] [FILE.md...]
       (default: README.md, docs/**/*.md but docs/example, image/*/README.md,
        tests/README.md)

For every fenced block and link of every file:
  sh, bash, shell   the block parses (`bash -n`); every `ebsbench SUB` it runs exists and
                    takes each --flag shown (`ebsbench SUB --help` names it); every repository
                    script it runs exists and, when the script has a --help, takes each flag;
                    every `make TARGET` is a Makefile target; a block that applies
                    image/k8s/X.yaml creates the Secrets X reads, and never applies a manifest
                    whose REPLACE_WITH_DIGEST placeholders it did not render
  json              parses; a run config (a "devices", "phases" or "upload" key) passes
                    `ebsbench run --dry-run` with its devices on loop devices (as root)
  yaml              every document passes tests/k8s/validate.js ("```yaml crd": a custom
                    resource the Kubernetes models do not hold; parsed only)
  links             every relative link and image resolves to a file or directory
One line per problem on stdout (FILE:LINE: what), then on stderr the ebsbench commands and
flags checked and the commands not checked (tools outside the repository).  Exit 0 when
nothing is wrong, 1 otherwise, 2 on usage errors.
"""
import glob
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
FENCE = re.compile(r"^(\s*)```(\S*)\s*(.*)$")
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
CONFIG_KEYS = ("devices", "phases", "upload")
ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
FLAG = re.compile(r"(?<![\w-])(--[a-z][a-z0-9_-]*)")
EBSBENCH = ("ebsbench", "build/ebsbench", "./build/ebsbench")
LOOP_GIB = 16


class Check:
    def __init__(self, ebsbench):
        self.ebsbench = ebsbench
        self.problems = []
        self.helps = {}
        self.checked = {}
        self.unchecked = set()
        self.loops = []
        self.files = []
        self.tmp = tempfile.mkdtemp(prefix="doccheck-")

    def problem(self, where, what):
        self.problems.append(f"{where}: {what}")

    # ---- blocks and links -------------------------------------------------------------
    def file(self, path):
        rel = os.path.relpath(path, ROOT)
        lines = open(path, encoding="utf-8").read().split("\n")
        block, start, lang, info, indent = None, 0, "", "", ""
        for n, line in enumerate(lines, 1):
            m = FENCE.match(line)
            if block is None and m:
                block, start, indent, lang, info = [], n, m.group(1), m.group(2), m.group(3)
                continue
            if block is not None:
                if line.strip() == "```":
                    self.block(f"{rel}:{start}", lang, info, "\n".join(block) + "\n")
                    block = None
                else:
                    block.append(line[len(indent):] if line.startswith(indent) else line)
                continue
            self.links(path, rel, n, line)
        if block is not None:
            self.problem(f"{rel}:{start}", "a code block that never closes")

    def links(self, path, rel, n, line):
        for target in LINK.findall(re.sub(r"`[^`]*`", "", line)):
            if re.match(r"^[a-z]+:", target):
                continue
            page, _, anchor = target.partition("#")
            dest = os.path.normpath(os.path.join(os.path.dirname(path), page)) if page else path
            if not os.path.exists(dest):
                self.problem(f"{rel}:{n}", f"link to {target}: no such file")
            elif anchor and dest.endswith(".md") and anchor not in anchors(dest):
                self.problem(f"{rel}:{n}", f"link to {target}: no heading makes #{anchor}")

    def block(self, where, lang, info, text):
        if lang in ("sh", "bash", "shell"):
            self.shell(where, text)
        elif lang == "json":
            self.json_block(where, text)
        elif lang == "yaml":
            self.yaml_block(where, info, text)

    # ---- shell --------------------------------------------------------------------------
    def shell(self, where, text):
        r = subprocess.run(["bash", "-n"], input=text, capture_output=True, text=True)
        if r.returncode:
            err = r.stderr.strip().splitlines()
            self.problem(where, "does not parse: " + (err[0] if err else "bash -n failed"))
            return
        logical = re.sub(r"\\\n", " ", text)
        heredoc, kept = None, []
        for line in logical.split("\n"):
            if heredoc:  # a here-document's body is data, not commands
                if line.strip() == heredoc:
                    heredoc = None
                continue
            m = re.search(r"<<-?\s*'?\"?(\w+)", line)
            if m:
                heredoc = m.group(1)
            kept.append(strip_comment(line))
        self.command_line(where, "\n".join(kept))
        self.k8s(where, logical)

    def command_line(self, where, line):
        for seg in segments(line):
            try:
                words = shlex.split(seg, posix=True)
            except ValueError:
                words = seg.split()
            while words and (ASSIGNMENT.match(words[0]) or words[0] in ("time", "exec", "!")):
                words.pop(0)
            if not words or words[0].startswith(("$", "{", "}", "-", ">", "<", "'", '"')):
                continue
            cmd = words[0]
            if cmd in EBSBENCH:
                self.ebsbench_cmd(where, words[1:])
            elif cmd == "make":
                self.make(where, words[1:])
            elif "/" in cmd and not cmd.startswith("/"):
                self.script(where, cmd, words[1:])
            elif cmd in ("bash", "sh") and len(words) > 1 and "/" in words[1]:
                self.script(where, words[1], words[2:])
            elif re.match(r"^[a-z][a-z0-9_.-]*$", cmd) and cmd not in ("done", "do", "then",
                                                                       "fi", "else", "for", "if"):
                self.unchecked.add(cmd)

    def help_of(self, argv):
        key = tuple(argv)
        if key not in self.helps:
            r = subprocess.run(argv + ["--help"], capture_output=True, text=True, cwd=ROOT,
                               timeout=30)
            self.helps[key] = (r.returncode, r.stdout + r.stderr)
        return self.helps[key]

    def flags(self, where, name, help_text, args):
        for flag in FLAG.findall(" ".join(args)):
            if not re.search(re.escape(flag) + r"(?![\w-])", help_text):
                self.problem(where, f"{name} has no {flag} (not in its --help)")
            self.checked.setdefault(name, set()).add(flag)

    def ebsbench_cmd(self, where, args):
        if not args or args[0].startswith("-"):
            return
        sub = args[0]
        rc, text = self.help_of([self.ebsbench, sub])
        if rc or "usage" not in text:
            self.problem(where, f"ebsbench {sub}: no such command (ebsbench {sub} --help: exit {rc})")
            self.checked.setdefault(f"ebsbench {sub}", set())
            return
        self.flags(where, f"ebsbench {sub}", text, args[1:])

    def make(self, where, args):
        text = open(os.path.join(ROOT, "Makefile")).read()
        for t in args:
            if t.startswith("-") or "=" in t:
                continue
            if not re.search(r"(?m)^" + re.escape(t) + r"\s*:(?!=)", text):
                self.problem(where, f"make {t}: no such target in the Makefile")
            self.checked.setdefault("make", set()).add(t)

    def script(self, where, path, args):
        if path.startswith(("./build/", "build/")) or "$" in path:
            return
        full = os.path.join(ROOT, path)
        if not os.path.isfile(full):
            self.problem(where, f"{path}: no such file in the repository")
            return
        if "--help" in open(full, errors="replace").read():
            rc, text = self.help_of(["bash", full])
            self.flags(where, path, text, args)
        else:
            self.checked.setdefault(path, set())

    def k8s(self, where, text):
        text = re.sub(r"\|\s*\n\s*", "| ", text)  # a pipeline on several lines is one line
        made = set(re.findall(r"create\s+secret\s+generic\s+([\w.-]+)", text))
        for rel in sorted(set(re.findall(r"image/k8s/[\w.-]+\.ya?ml", text))):
            if not re.search(r"(kubectl\s+apply\s+-f\s+|render\s+)" + re.escape(rel), text) and \
                    not any("kubectl apply" in l for l in text.split("\n") if rel in l):
                continue
            full = os.path.join(ROOT, rel)
            if not os.path.isfile(full):
                self.problem(where, f"{rel}: no such file")
                continue
            manifest = open(full).read()
            if "REPLACE_WITH_DIGEST" in manifest and self.unrendered(text, rel):
                self.problem(where, f"applies {rel} with its REPLACE_WITH_DIGEST placeholders "
                             "unrendered (render it first)")
            for secret in sorted(set(re.findall(r"secretName:\s*([\w.-]+)", manifest))):
                if secret not in made:
                    self.problem(where, f"applies {rel}, which reads Secret {secret}, but the block "
                                 f"creates {', '.join(sorted(made)) or 'no Secret'}")

    @staticmethod
    def unrendered(text, rel):
        """A line that applies rel (kubectl apply -f rel, or rel piped into kubectl apply)
        without render rel on it."""
        for line in text.split("\n"):
            if rel in line and "kubectl" in line and "apply" in line and \
                    not re.search(r"render\s+" + re.escape(rel), line):
                return True
        return False

    # ---- json -----------------------------------------------------------------------------
    def json_block(self, where, text):
        try:
            doc = json.loads(text)
        except ValueError as e:
            self.problem(where, f"not JSON: {e}")
            return
        if not isinstance(doc, dict) or not any(k in doc for k in CONFIG_KEYS):
            return
        devices = doc.get("devices") or [{}]
        if not isinstance(devices, list) or not self.loops_for(len(devices)):
            self.problem(where, "a run config, but no loop devices to dry-run it on (root needed)")
            return
        names = {}
        for dev, loop in zip(devices, self.loops):
            if isinstance(dev, dict):
                for k in ("volume_id", "path"):
                    if k in dev:
                        names[dev[k]] = loop
                dev.pop("volume_id", None)
                dev["path"] = loop
        doc["devices"] = devices
        if isinstance(doc.get("allow_destroy"), list):
            doc["allow_destroy"] = [names.get(a, a) for a in doc["allow_destroy"]]
        cfg = os.path.join(self.tmp, "config.json")
        with open(cfg, "w") as f:
            json.dump(doc, f)
        r = subprocess.run([self.ebsbench, "run", "--config", cfg, "--dry-run"],
                           capture_output=True, text=True, cwd=self.tmp, timeout=60)
        self.checked.setdefault("ebsbench run --dry-run", set()).add(where)
        if r.returncode:
            err = [l for l in r.stderr.splitlines() if l.strip()]
            self.problem(where, f"ebsbench run --dry-run refuses it (exit {r.returncode}): "
                         + (err[0] if err else ""))

    def loops_for(self, n):
        while len(self.loops) < n:
            back = os.path.join(self.tmp, f"loop{len(self.loops)}.img")
            with open(back, "wb") as f:
                f.truncate(LOOP_GIB << 30)
            r = subprocess.run(["losetup", "-f", "--show", back], capture_output=True, text=True)
            if r.returncode:
                return False
            self.loops.append(r.stdout.strip())
        return True

    # ---- yaml -----------------------------------------------------------------------------
    def yaml_block(self, where, info, text):
        path = os.path.join(self.tmp, "block.yaml")
        with open(path, "w") as f:
            f.write(text)
        if "crd" in info.split():
            script = ("const Y=require('yaml');const t=require('fs').readFileSync(process.argv[1],"
                      "'utf8');for(const d of Y.parseAllDocuments(t)){if(d.errors.length)"
                      "{console.log(d.errors[0].message);process.exit(1)}}")
            argv = ["node", "-e", script, path]
            env = dict(os.environ, NODE_PATH=os.path.join(ROOT, "tests", "k8s", "node_modules"))
        else:
            argv = ["node", os.path.join(ROOT, "tests", "k8s", "validate.js"), path]
            env = None
        r = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=120)
        self.checked.setdefault("tests/k8s/validate.js", set()).add(where)
        if r.returncode:
            bad = [l for l in (r.stdout + r.stderr).splitlines() if "FAIL" in l or "rror" in l]
            self.problem(where, "the manifest fails the schema check: "
                         + (bad[0] if bad else r.stdout.strip()[:200]))

    def close(self):
        for loop in self.loops:
            subprocess.run(["losetup", "-d", loop], capture_output=True)
        subprocess.run(["rm", "-rf", self.tmp])


def anchors(path):
    """The #anchors GitHub makes of a Markdown file's headings (lower case, punctuation but
    - and _ dropped, spaces as -; a repeated heading gets -1, -2, ...)."""
    seen, out, fence = {}, set(), False
    for line in open(path, encoding="utf-8"):
        if line.lstrip().startswith("```"):
            fence = not fence
        m = None if fence else re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if m:
            slug = re.sub(r"[^\w\- ]", "", m.group(1).lower()).replace(" ", "-")
            k = seen.get(slug, 0)
            seen[slug] = k + 1
            out.add(slug if k == 0 else f"{slug}-{k}")
    return out


def strip_comment(line):
    """The line without its comment: from a # that starts a word outside quotes."""
    quote = None
    for i, ch in enumerate(line):
        if quote:
            quote = None if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (i == 0 or line[i - 1] in " \t"):
            return line[:i]
    return line


def segments(line):
    """Split a command line where a command can start: |, ||, &&, ;, (, ), $( and `, outside
    quotes (inside double quotes only at $( ... ) and `, as the shell does)."""
    out, cur, quote, i = [], "", None, 0
    while i < len(line):
        ch = line[i]
        if quote == "'":
            quote = None if ch == "'" else quote
        elif ch == "\\" and i + 1 < len(line):
            cur += line[i:i + 2]
            i += 2
            continue
        elif ch == '"':
            quote = None if quote == '"' else '"'
        elif line.startswith("$(", i) or ch == "`" or (ch in "()" and quote is None) or \
                (quote == '"' and ch == ")") or (quote is None and ch in "|;&\n"):
            if ch == "$":
                i += 1
            if ch == ")" and quote == '"':
                pass
            out.append(cur)
            cur = ""
            i += 1
            continue
        elif ch == "'" and quote is None:
            quote = "'"
        cur += ch
        i += 1
    out.append(cur)
    return out


def default_files():
    files = [os.path.join(ROOT, "README.md")]
    # docs/example is a run's output, checked by tests/tools/example.sh, not prose.
    files += sorted(f for f in glob.glob(os.path.join(ROOT, "docs", "**", "*.md"), recursive=True)
                    if not f.startswith(os.path.join(ROOT, "docs", "example") + os.sep))
    files += sorted(glob.glob(os.path.join(ROOT, "image", "*", "README.md")))
    files += [os.path.join(ROOT, "tests", "README.md")]
    return [f for f in files if os.path.isfile(f)]


def main(argv):
    ebsbench = os.path.join(ROOT, "build", "ebsbench")
    if argv[:1] == ["--ebsbench"]:
        if len(argv) < 2:
            print("doccheck: --ebsbench needs a path", file=sys.stderr)
            return 2
        ebsbench, argv = os.path.abspath(argv[1]), argv[2:]
    if any(a.startswith("-") for a in argv):
        print("usage: doccheck.py [--ebsbench PATH] [FILE.md...]", file=sys.stderr)
        return 2
    if not os.access(ebsbench, os.X_OK):
        print(f"doccheck: {ebsbench}: not built (make build/ebsbench)", file=sys.stderr)
        return 2
    files = [os.path.abspath(a) for a in argv] or default_files()
    c = Check(ebsbench)
    try:
        for f in files:
            if not os.path.isfile(f):
                print(f"doccheck: {f}: no such file", file=sys.stderr)
                return 2
            c.file(f)
    finally:
        c.close()
    for p in c.problems:
        print(p)
    for name in sorted(c.checked):
        shown = sorted(c.checked[name])
        print(f"doccheck: checked {name}" + (f": {' '.join(shown)}" if shown and
                                               not name.endswith(("dry-run", ".js")) else
                                               f" ({len(shown)} block(s))" if shown else ""),
              file=sys.stderr)
    if c.unchecked:
        print("doccheck: not checked (outside the repository): " + " ".join(sorted(c.unchecked)),
              file=sys.stderr)
    print(f"doccheck: {len(files)} files, {len(c.problems)} problem(s)", file=sys.stderr)
    return 1 if c.problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
