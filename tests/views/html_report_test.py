#!/usr/bin/env python3
"""The HTML report as a person sees it: headless Chromium renders the report
of the seeds' transpose (examples/transpose.cu, transposeSmem, --block 32,16)
to a PNG, and the test looks at the pixels.

What must be seen, worked out from the kernel: tile[icol][irow] reads a
[16][32] float tile with icol = lane % 16 and irow = lane / 16, so lanes
0-15 hit bank 0 and lanes 16-31 bank 1, 16 distinct words each: the
picture shows banks 0 and 1 with 16 cells each (one green, 15 red), a
16-way conflict. The fix the bank-conflict rule checked pads the rows, after
which every lane has a bank of its own: one green row of 32 cells, no red.

The report's table must also hold the same numbers as the JSON view; its
summary must link to rows that exist; the picture must say which request it
is (block (0,0,0), warp 0, the warp's first request of the access: every
warp's costs the same) and list each lane's bytes: lane L reads
tile[L % 16][L / 16], (L % 16) * 128 + (L / 16) * 4 bytes from lane 0's.

Usage: html_report_test.py GMEM_ANALYZE SOURCE_DIR [--screenshot PNG]
(--screenshot also keeps the rendered page, as docs/images holds it).
Exit 77 (skipped) where no Chromium is installed.
"""
import html
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

BAD = (0xE5, 0x39, 0x35)   # svg_view.cpp's colours.
GOOD = (0x43, 0xA0, 0x47)


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def read_png(path):
    """(width, height, rows of (r, g, b)) of an 8-bit RGB(A) PNG."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and ctype in (2, 6) and not interlace
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = w * bpp
    rows, prev = [], bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[i] = (line[i] + pred) & 255
        rows.append(line)
        prev = line
    return w, h, bpp, rows


def cells(png, colour):
    """Bounding boxes (x, y, w, h) of the cell-sized areas of one colour."""
    w, h, bpp, rows = png
    seen = set()
    out = []
    for y in range(h):
        row = rows[y]
        for x in range(w):
            if (x, y) in seen or tuple(row[x * bpp:x * bpp + 3]) != colour:
                continue
            stack, box = [(x, y)], [x, y, x, y]
            seen.add((x, y))
            while stack:
                cx, cy = stack.pop()
                box = [min(box[0], cx), min(box[1], cy), max(box[2], cx),
                       max(box[3], cy)]
                for nx, ny in ((cx + 1, cy), (cx - 1, cy), (cx, cy + 1),
                               (cx, cy - 1)):
                    if (0 <= nx < w and 0 <= ny < h and (nx, ny) not in seen
                            and tuple(rows[ny][nx * bpp:nx * bpp + 3])
                            == colour):
                        seen.add((nx, ny))
                        stack.append((nx, ny))
            bw, bh = box[2] - box[0] + 1, box[3] - box[1] + 1
            # A bank cell is 22 x 20; table borders are 6 wide, sectors 24.
            if 18 <= bw <= 23 and 16 <= bh <= 22:
                out.append((box[0], box[1], bw, bh))
    return out


def browser():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(name):
            return shutil.which(name)
    return None


def main():
    args = sys.argv[1:]
    shot = None
    if "--screenshot" in args:
        i = args.index("--screenshot")
        shot = os.path.abspath(args[i + 1])
        del args[i:i + 2]
    analyze, src = args
    source = os.path.normpath(os.path.join(src, "examples", "transpose.cu"))
    common = [analyze, source, "--block", "32,16", "--kernel", "transposeSmem"]
    page = subprocess.run(common + ["--format", "html"], capture_output=True,
                          text=True)
    data = subprocess.run(common + ["--format", "json"], capture_output=True,
                          text=True)
    if page.returncode != 0 or data.returncode != 0:
        fail("gmem-analyze failed: " + page.stderr + data.stderr)

    # The table's figures are the JSON view's.
    accesses = json.loads(data.stdout)["launches"][0]["accesses"]
    rows = re.findall(r'<tr id="launch-0-access-\d+" class="access (\w+)" '
                      r'data-access="(\d+)" data-line="(\d+)" '
                      r'data-per-request="([^"]+)">(.*?)</tr>', page.stdout)
    if len(rows) != len(accesses):
        fail("%d access rows, JSON has %d" % (len(rows), len(accesses)))
    for cls, ident, line, per_request, cells_html in rows:
        a = next(x for x in accesses if x["id"] == int(ident))
        tds = [html.unescape(re.sub("<[^>]+>", "", c))
               for c in re.findall(r"<td>(.*?)</td>", cells_html)]
        units = a.get("wavefronts", a.get("sectors"))
        want = ["%.2f" % a["per_request"], str(units), str(a["requests"])]
        got = [per_request, tds[6], tds[5]]
        if got != want or int(line) != a["line"]:
            fail("row of %s: %s, JSON %s" % (a["text"], got, want))
        if a["text"] == "tile[icol][irow]" and (cls != "bad" or
                                                a["conflict_ways"] != 16):
            fail("tile[icol][irow] is not drawn as a 16-way conflict")

    # The summary's links lead to rows and sections of the page.
    ids = set(re.findall(r' id="([^"]+)"', page.stdout))
    links = re.findall(r'<nav id="summary">.*?</nav>', page.stdout, re.S)
    targets = re.findall(r'href="#([^"]+)"', links[0] if links else "")
    if not targets or not all(t in ids for t in targets):
        fail("summary links %s, ids on the page %s" % (targets, sorted(ids)))
    if "launch-0-access-" not in " ".join(targets):
        fail("the summary links no costly line: %s" % targets)
    tile = re.search(r'<p class="sample">(.*?)</p>\s*<svg[^>]*>\s*'
                     r'(?:<style>[^<]*</style>)?\s*<title>'
                     r'[^<]*tile\[icol\]\[irow\].*?'
                     r'<table class="lanes">(.*?)</table>', page.stdout, re.S)
    if not tile:
        fail("no picture of tile[icol][irow] with its lanes' bytes")
    if not tile.group(1).startswith("Drawn: block (0,0,0), warp 0 (threads "
                                    "0-31 of the block), its request number "
                                    "1 of this access (its first)"):
        fail("the picture does not say which request it is: " + tile.group(1))
    offsets = dict(re.findall(r"<th>(\d+)</th><td>([^<]*)</td>",
                              html.unescape(tile.group(2))))
    want = {str(l): "+%d\u2026+%d" % ((l % 16) * 128 + l // 16 * 4,
                                      (l % 16) * 128 + l // 16 * 4 + 3)
            for l in range(32)}
    if offsets != want:
        fail("lane offsets %s, worked out %s" % (offsets, want))

    chrome = browser()
    if not chrome:
        print("SKIP: no Chromium (scripts/setup.sh installs Debian's)")
        sys.exit(77)
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "report.html")
        open(report, "w").write(page.stdout)
        png = os.path.join(tmp, "report.png")
        r = subprocess.run([chrome, "--headless", "--no-sandbox",
                            "--disable-gpu", "--hide-scrollbars",
                            "--force-device-scale-factor=1",
                            "--window-size=1280,2600",
                            "--screenshot=" + png, "file://" + report],
                           capture_output=True, text=True, timeout=120)
        if not os.path.exists(png):
            fail("Chromium wrote no screenshot: " + r.stderr[-2000:])
        image = read_png(png)
        if shot:
            shutil.copy(png, shot)

    red, green = cells(image, BAD), cells(image, GOOD)
    # Before: banks 0 and 1, a green first word and 15 red ones each.
    columns = sorted({x for x, _, _, _ in red})
    if len(red) != 30 or len(columns) != 2:
        fail("expected 15 red cells in each of 2 banks, saw %d in columns %s"
             % (len(red), columns))
    by_row = {}
    for x, y, _, _ in green:
        by_row.setdefault(y, []).append(x)
    sizes = sorted(len(v) for v in by_row.values())
    if sizes != [2, 32]:
        fail("expected a green row of 2 cells (before) and one of 32 (after "
             "the fix), saw rows of %s" % sizes)
    before = min(by_row, key=lambda y: len(by_row[y]))
    if sorted(by_row[before]) != columns:
        fail("the red cells are not under the banks of the green first row")
    if not all(y > before for _, y, _, _ in red):
        fail("red cells above the first word's row")
    after = max(by_row, key=lambda y: len(by_row[y]))
    if not after > max(y for _, y, _, _ in red):
        fail("the picture after the fix is not below the one before")
    print("PASS: 16-way conflict in banks 0 and 1 (30 red + 2 green cells); "
          "after the fix one row of 32 green cells")


if __name__ == "__main__":
    main()
