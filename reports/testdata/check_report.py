#!/usr/bin/env python3
"""End-to-end checks of `routesim report` and `routesim run --report` (CTest, reports/).

Goal: the files a user opens are sound: index.html is well-formed, self-contained and shows
the topology picture; trace.json is Chrome trace JSON; bad input and unwritable directories
exit 2; a headless Chromium renders the page to a picture that is not blank.
Method: run the CLI into a fresh directory, then check with the standard library only
(html.parser for tag balance, json, zlib for the PNG). Exit 77 means SKIPPED.

Usage: check_report.py {html|errors|browser} ROUTESIM SCENARIO OUTDIR
"""
import html.parser
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}
SKIP = 77


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


class Balance(html.parser.HTMLParser):
    """Every element that is opened is closed, in order."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack = []
        self.seen = set()
        self.errors = []

    def handle_starttag(self, tag, attrs):
        self.seen.add(tag)
        for name, value in attrs:
            if name in ("src", "href") and value and "://" in value:
                self.errors.append("external reference %s=%s" % (name, value))
        if tag not in VOID:
            self.stack.append((tag, self.getpos()))

    def handle_startendtag(self, tag, attrs):
        self.seen.add(tag)

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack:
            self.errors.append("</%s> at %s closes nothing" % (tag, self.getpos()))
            return
        open_tag, where = self.stack.pop()
        if open_tag != tag:
            self.errors.append("</%s> at %s closes <%s> from %s" % (tag, self.getpos(), open_tag, where))


def run(args, expect_code):
    done = subprocess.run(args, capture_output=True, text=True, timeout=120)
    if done.returncode != expect_code:
        fail("%s exited %d, expected %d\nstdout:\n%s\nstderr:\n%s"
             % (" ".join(args), done.returncode, expect_code, done.stdout, done.stderr))
    return done


def fresh(path):
    shutil.rmtree(path, ignore_errors=True)
    return path


def check_page(out):
    for name in ("index.html", "topology.dot", "topology.mmd", "trace.json"):
        if not os.path.isfile(os.path.join(out, name)):
            fail("missing " + name)
    text = open(os.path.join(out, "index.html"), encoding="utf-8").read()
    parser = Balance()
    parser.feed(text)
    parser.close()
    if parser.errors:
        fail("index.html: " + "; ".join(parser.errors[:5]))
    if parser.stack:
        fail("index.html: unclosed elements %s" % parser.stack[:5])
    for tag in ("html", "head", "body", "style", "svg", "table"):
        if tag not in parser.seen:
            fail("index.html has no <%s>" % tag)
    if "<script" in text.lower() or "<link" in text.lower() or "url(http" in text.lower():
        fail("index.html loads something from outside (script, link or url())")
    has_svg_file = os.path.isfile(os.path.join(out, "topology.svg"))
    if has_svg_file and 'class="picture"><svg' not in text:
        fail("topology.svg exists but index.html does not inline it")
    if not has_svg_file and "No topology picture" not in text:
        fail("no topology.svg and no note saying so")
    trace = json.load(open(os.path.join(out, "trace.json"), encoding="utf-8"))
    events = trace.get("traceEvents")
    if not isinstance(events, list) or not events:
        fail("trace.json has no traceEvents")
    for event in events:
        if "ph" not in event or "pid" not in event:
            fail("trace event without ph/pid: %s" % event)
    print("ok: %s (%d bytes, %d trace events)" % (out, len(text), len(events)))


def mode_html(cli, scenario, out):
    run([cli, "report", scenario, "--out", fresh(out)], 0)
    check_page(out)


def mode_errors(cli, scenario, out):
    fresh(out)
    os.makedirs(out)
    bad = os.path.join(out, "bad.json")
    with open(bad, "w") as handle:
        handle.write('{"name": "x", "topology": {"kind": "nope"}}')
    done = run([cli, "report", bad, "--out", os.path.join(out, "r1")], 2)
    if "bad.json" not in done.stderr:
        fail("the bad-input error does not name the file: " + done.stderr)
    run([cli, "report", os.path.join(out, "missing.json"), "--out", os.path.join(out, "r2")], 2)
    blocker = os.path.join(out, "a-file")
    open(blocker, "w").close()
    done = run([cli, "report", scenario, "--out", os.path.join(blocker, "sub")], 2)
    if "report directory" not in done.stderr:
        fail("the unwritable-directory error is unclear: " + done.stderr)
    run([cli, "run", scenario, "--report", os.path.join(blocker, "sub")], 2)
    done = run([cli, "run", scenario, "--report", os.path.join(out, "from-run")], 0)
    if not done.stdout.startswith("seed: ") or "verdict: PASS" not in done.stdout:
        fail("run --report changed the normal output:\n" + done.stdout)
    check_page(os.path.join(out, "from-run"))
    print("ok: errors exit 2, run --report writes the report")


def png_pixels(path):
    """Decodes an 8-bit RGB or RGBA PNG (what Chromium writes) into a set of colours."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail("screenshot is not a PNG")
    pos, idat, width, height, channels = 8, b"", 0, 0, 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            if depth != 8 or colour not in (2, 6):
                fail("unexpected PNG format depth %d colour %d" % (depth, colour))
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    previous = bytearray(stride)
    colours = set()
    for row in range(height):
        start = row * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                predictor = left if pa <= pb and pa <= pc else (up if pb <= pc else corner)
                line[i] = (line[i] + predictor) & 255
        if row % 4 == 0:
            for x in range(0, stride, channels * 2):
                colours.add(bytes(line[x:x + 3]))
        previous = line
    return width, height, colours


def mode_browser(cli, scenario, out):
    chromium = "/usr/bin/chromium"
    if not os.path.exists(chromium):
        print("SKIPPED: %s not found (install the chromium package)" % chromium)
        sys.exit(SKIP)
    run([cli, "report", scenario, "--out", fresh(out)], 0)
    shot = os.path.join(out, "screenshot.png")
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                        "--no-first-run", "--disable-background-networking",
                        "--disable-component-update", "--disable-sync",
                        "--user-data-dir=" + profile, "--hide-scrollbars",
                        "--window-size=1280,1600", "--screenshot=" + shot,
                        "file://" + os.path.abspath(os.path.join(out, "index.html"))],
                       capture_output=True, timeout=150)
    if not os.path.isfile(shot):
        fail("chromium wrote no screenshot")
    size = os.path.getsize(shot)
    width, height, colours = png_pixels(shot)
    # A blank page is one colour and a few kilobytes; the report has a coloured picture,
    # tables and charts.
    if size < 40000 or len(colours) < 40:
        fail("screenshot looks blank: %d bytes, %d colours" % (size, len(colours)))
    print("ok: screenshot %dx%d, %d bytes, %d colours sampled" % (width, height, size, len(colours)))


def main():
    if len(sys.argv) != 5:
        fail(__doc__)
    mode, cli, scenario, out = sys.argv[1:]
    {"html": mode_html, "errors": mode_errors, "browser": mode_browser}[mode](cli, scenario, out)


if __name__ == "__main__":
    main()
