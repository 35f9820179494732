#!/usr/bin/python3
"""chromium_check.py - open a report.html in Debian's headless Chromium and say what it saw.

Usage: chromium_check.py --html FILE --scheme light|dark --png OUT.png [--pdf OUT.pdf]
                         [--timeout SECONDS]

Drives Chromium through the DevTools protocol over --remote-debugging-pipe (fd 3 and 4,
NUL-separated JSON: no npm package, no port), with prefers-color-scheme emulated.  Prints
one JSON document on stdout, for a test to assert on:
  console_errors  console.error/assert, uncaught exceptions, error log entries (CSP included)
  requests        every URL the page requested (a self-contained page: only itself)
  dom             title, script count, h1/h2 texts, section and table counts, the text,
                  each figure.chart (data-artifact, whether an inline <svg> is its child)
  background      the screenshot's pixel at (4, 4): the page's own background
  heatmap_panels  per g.panel of the heatmap: the share of its box's pixels in the colours
                  of its cells (exact fills, +-12 per channel): 0 when the panel is blank
  cliff_lines     per line.cliff: how many dashes the screenshot has within 2 px of it in
                  its stroke colour at 70 % or more opacity over the white chart (runs of
                  3 to 9 rows, then a gap of 2 to 6): its 6-on-4-off dashes, where the
                  series' own drop at the cliff is one long run, a crossing line 1 or 2
                  rows, and the lighter "predicted" line 40 %: 0 without the cliff line;
                  dashes_alone the same with the series hidden (a second screenshot of
                  the line's box), as a series that swings at the cliff fills the gaps
  pdf             (--pdf) the page count (pdfinfo) and each page's text (pdftotext, its
                  white space collapsed)
Exits 2 (one line on stderr) when Chromium cannot be driven or the timeout passes.
"""
import argparse
import base64
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile

from PIL import Image

VIEW_WIDTH = 1100


class Browser:
    """One headless Chromium, commands over the pipe, events kept in order."""

    def __init__(self, profile):
        cmd_r, self.cmd_w = os.pipe()
        self.resp_r, resp_w = os.pipe()
        binary = shutil.which("chromium") or "/usr/bin/chromium"
        args = [binary, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--disable-extensions", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--hide-scrollbars",
                "--remote-debugging-pipe", f"--user-data-dir={profile}", "about:blank"]

        def fds():
            # Chromium reads commands on fd 3 and answers on fd 4; subprocess
            # would close them after this runs, so close_fds=False below (every
            # other descriptor of ours is close-on-exec anyway).
            os.dup2(cmd_r, 3)
            os.dup2(resp_w, 4)
            os.set_inheritable(3, True)
            os.set_inheritable(4, True)

        self.proc = subprocess.Popen(args, close_fds=False, preexec_fn=fds,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                     start_new_session=True)
        os.close(cmd_r)
        os.close(resp_w)
        self.buf = b""
        self.next_id = 0
        self.events = []

    def _read(self):
        while b"\0" not in self.buf:
            chunk = os.read(self.resp_r, 1 << 20)
            if not chunk:
                raise RuntimeError("chromium closed the DevTools pipe")
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def call(self, method, params=None, session=None):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.cmd_w, json.dumps(msg).encode() + b"\0")
        while True:
            m = self._read()
            if m.get("id") == self.next_id:
                if "error" in m:
                    raise RuntimeError(f"{method}: {m['error'].get('message')}")
                return m.get("result", {})
            self.events.append(m)

    def wait_event(self, method):
        while True:
            for i, e in enumerate(self.events):
                if e.get("method") == method:
                    return self.events.pop(i)
            self.events.append(self._read())

    def close(self):
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc.wait()


DOM_FACTS = """(() => {
  const box = e => { const b = e.getBoundingClientRect();
    return [b.left + scrollX, b.top + scrollY, b.width, b.height]; };
  const heat = document.querySelector('figure.chart[data-artifact="latency_heatmap.svg"]');
  return JSON.stringify({
    title: document.title,
    scripts: document.querySelectorAll('script').length,
    h1: [...document.querySelectorAll('h1')].map(e => e.textContent),
    h2: [...document.querySelectorAll('h2')].map(e => e.textContent),
    sections: document.querySelectorAll('section').length,
    tables: document.querySelectorAll('table').length,
    text: document.body.innerText,
    figures: [...document.querySelectorAll('figure.chart')].map(f => ({
      artifact: f.dataset.artifact, svg: !!f.querySelector(':scope > svg'), box: box(f),
      title: (f.querySelector(':scope > svg > title') || {}).textContent || '',
      caption: (f.querySelector('figcaption') || {}).textContent || ''})),
    panels: heat ? [...heat.querySelectorAll('g.panel')].map(g => ({box: box(g),
      fills: [...new Set([...g.querySelectorAll('rect.cell')].map(c => c.getAttribute('fill')))]}))
      : [],
    cliffs: [...document.querySelectorAll('figure.chart line.cliff')].map(l => ({
      box: box(l), colour: l.getAttribute('stroke')})),
    height: document.documentElement.scrollHeight,
  });
})()"""


def rgb(hex_colour):
    h = hex_colour.lstrip("#")
    return tuple(int(h[i:i + 2], 16) for i in (0, 2, 4))


def palette_share(img, box, fills):
    """Share of the box's pixels within 12 per channel of one of fills."""
    x, y, w, h = (int(round(v)) for v in box)
    if w <= 0 or h <= 0 or not fills:
        return 0.0
    colours = img.crop((x, y, x + w, y + h)).getcolors(w * h) or []
    want = [rgb(f) for f in fills]
    hits = sum(n for n, c in colours
               if any(all(abs(c[k] - f[k]) <= 12 for k in range(3)) for f in want))
    return hits / float(w * h)


def drawn_in(pixel, stroke, min_alpha):
    """Whether pixel is stroke over white at min_alpha opacity or more."""
    k = max(range(3), key=lambda i: 255 - stroke[i])
    if 255 - stroke[k] < 60:
        return False
    alpha = (255 - pixel[k]) / float(255 - stroke[k])
    return alpha >= min_alpha and all(
        abs(pixel[i] - (255 - alpha * (255 - stroke[i]))) <= 30 for i in range(3))


def dashes(img, box, colour):
    """The dashes drawn in colour along the box's vertical centre line: runs of 3 to 9
    rows with a pixel within 2 px of it in colour at 70 % or more opacity, each followed
    by a gap of 2 to 6 rows and more of the line."""
    x, y, w, h = box
    cx, stroke = int(round(x + w / 2)), rgb(colour)
    px = img.load()
    rows = range(max(int(y), 0), min(int(y + h) + 1, img.height))
    drawn = [r for r in rows if any(drawn_in(px[c, r], stroke, 0.7)
                                    for c in range(cx - 2, cx + 3) if 0 <= c < img.width)]
    runs = []  # [first row, last row]
    for r in drawn:
        if runs and r == runs[-1][1] + 1:
            runs[-1][1] = r
        else:
            runs.append([r, r])
    return sum(1 for a, b in zip(runs, runs[1:])
               if 3 <= a[1] - a[0] + 1 <= 9 and 2 <= b[0] - a[1] - 1 <= 6)


HIDE_SERIES = """document.querySelectorAll('figure.chart .series, figure.chart .outlier')
  .forEach(e => e.style.visibility = 'hidden')"""


def cliffs_alone(b, s, cliffs):
    """Each cliff line's box screenshot again with the series hidden (a series that drops
    or swings at the cliff second draws over the gaps between its dashes), as an image
    placed at page coordinates, so that dashes() reads it as it reads the whole page."""
    if not cliffs:
        return []
    b.call("Runtime.evaluate", {"expression": HIDE_SERIES}, session=s)
    images = []
    for c in cliffs:
        x, y, w, h = (int(v) for v in c["box"])
        clip = {"x": max(x - 4, 0), "y": max(y - 2, 0), "width": w + 9, "height": h + 5,
                "scale": 1}
        data = b.call("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True,
                                                 "clip": clip}, session=s)["data"]
        part = Image.open(io.BytesIO(base64.b64decode(data))).convert("RGB")
        page = Image.new("RGB", (clip["x"] + part.width, clip["y"] + part.height), "white")
        page.paste(part, (clip["x"], clip["y"]))
        images.append(page)
    return images


def pdf_facts(path):
    info = subprocess.run(["pdfinfo", path], capture_output=True, text=True, check=True).stdout
    pages = int(next(l.split()[1] for l in info.splitlines() if l.startswith("Pages:")))
    texts = []
    for p in range(1, pages + 1):
        text = subprocess.run(["pdftotext", "-f", str(p), "-l", str(p), path, "-"],
                              capture_output=True, text=True, check=True).stdout
        text = " ".join(text.split())
        texts.append(text)
    return {"pages": pages, "page_texts": texts}


def collect(b, args):
    target = b.call("Target.createTarget", {"url": "about:blank"})["targetId"]
    s = b.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
    for domain in ("Page", "Runtime", "Log", "Network"):
        b.call(domain + ".enable", session=s)
    b.call("Emulation.setEmulatedMedia",
           {"features": [{"name": "prefers-color-scheme", "value": args.scheme}]}, session=s)
    b.call("Emulation.setDeviceMetricsOverride",
           {"width": VIEW_WIDTH, "height": 900, "deviceScaleFactor": 1, "mobile": False},
           session=s)
    url = "file://" + os.path.abspath(args.html)
    b.call("Page.navigate", {"url": url}, session=s)
    b.wait_event("Page.loadEventFired")
    dom = json.loads(b.call("Runtime.evaluate", {"expression": DOM_FACTS, "returnByValue": True},
                            session=s)["result"]["value"])
    shot = b.call("Page.captureScreenshot",
                  {"format": "png", "captureBeyondViewport": True,
                   "clip": {"x": 0, "y": 0, "width": VIEW_WIDTH, "height": dom["height"],
                            "scale": 1}}, session=s)
    with open(args.png, "wb") as f:
        f.write(base64.b64decode(shot["data"]))
    pdf = None
    if args.pdf:
        data = b.call("Page.printToPDF", {"printBackground": True}, session=s)["data"]
        with open(args.pdf, "wb") as f:
            f.write(base64.b64decode(data))
        pdf = pdf_facts(args.pdf)
    return url, dom, pdf, cliffs_alone(b, s, dom["cliffs"])


def problems(events):
    errors, requests = [], []
    for e in events:
        m, p = e.get("method"), e.get("params", {})
        if m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
            errors.append(" ".join(str(a.get("value", a.get("description", "")))
                                   for a in p.get("args", [])))
        elif m == "Runtime.exceptionThrown":
            errors.append(p.get("exceptionDetails", {}).get("text", "exception"))
        elif m == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
            errors.append(p["entry"].get("text", ""))
        elif m == "Network.requestWillBeSent":
            requests.append(p.get("request", {}).get("url", ""))
    return errors, requests


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--html", required=True)
    ap.add_argument("--scheme", choices=("light", "dark"), required=True)
    ap.add_argument("--png", required=True)
    ap.add_argument("--pdf")
    ap.add_argument("--timeout", type=int, default=90)
    args = ap.parse_args()
    if not os.path.isfile(args.html):
        print(f"chromium_check: {args.html}: no such file", file=sys.stderr)
        return 2
    profile = tempfile.mkdtemp(prefix="chromium-check-")
    b = Browser(profile)

    def expired(*_):
        raise TimeoutError(f"no answer from chromium within {args.timeout} s")

    signal.signal(signal.SIGALRM, expired)
    signal.alarm(args.timeout)
    try:
        url, dom, pdf, alone = collect(b, args)
    except (RuntimeError, TimeoutError, OSError, subprocess.CalledProcessError) as e:
        print(f"chromium_check: {e}", file=sys.stderr)
        return 2
    finally:
        signal.alarm(0)
        b.close()
        shutil.rmtree(profile, ignore_errors=True)
    errors, requests = problems(b.events)
    img = Image.open(args.png).convert("RGB")
    out = {
        "url": url, "scheme": args.scheme, "console_errors": errors, "requests": requests,
        "dom": {k: v for k, v in dom.items() if k not in ("panels", "cliffs")},
        "background": list(img.getpixel((4, 4))),
        "heatmap_panels": [{"box": p["box"], "palette_share": palette_share(img, p["box"], p["fills"])}
                           for p in dom["panels"]],
        "cliff_lines": [{"box": c["box"], "colour": c["colour"],
                         "dashes": dashes(img, c["box"], c["colour"]),
                         "dashes_alone": dashes(a, c["box"], c["colour"])}
                        for c, a in zip(dom["cliffs"], alone)],
        "pdf": pdf,
    }
    json.dump(out, sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
