"""report_png.py SHOT.png REPORT.html WIDTH HEIGHT - checks a headless-Chromium
screenshot of an onnxcost report: a PNG of the window's size that is not blank
and shows the bars the report draws, in the colours it gave them.

Python's standard library only (struct + zlib decode the PNG); exits non-zero
with a line per failed check."""
import re
import struct
import sys
import xml.etree.ElementTree as ET
import zlib

SVG = "{http://www.w3.org/2000/svg}"


def read_png(path):
    """(width, height, rows of RGB bytes) of an 8-bit RGB or RGBA PNG."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG file")
    pos, idat, hdr = 8, [], None
    while pos + 8 <= len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            hdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
        pos += 12 + n
    w, h, depth, ctype, _, _, interlace = hdr
    if depth != 8 or ctype not in (2, 6) or interlace:
        raise ValueError("unexpected PNG format: depth %d colour type %d" % (depth, ctype))
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(b"".join(idat))
    stride = w * bpp
    rows, prev = [], bytearray(stride)
    for y in range(h):
        start = y * (stride + 1)
        filt, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        if filt == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 255
        elif filt == 2:
            line = bytearray((a + b) & 255 for a, b in zip(line, prev))
        elif filt == 3:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + (left + prev[i]) // 2) & 255
        elif filt == 4:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b, c = prev[i], prev[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        elif filt != 0:
            raise ValueError("bad PNG filter %d in row %d" % (filt, y))
        rows.append(bytes(line) if bpp == 3 else
                    b"".join(bytes(line[i:i + 3]) for i in range(0, stride, 4)))
        prev = line
    return w, h, rows


def main():
    shot, report, want_w, want_h = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    problems = []
    w, h, rows = read_png(shot)
    if (w, h) != (want_w, want_h):
        problems.append("screenshot is %dx%d, expected %dx%d" % (w, h, want_w, want_h))
    counts = {}
    for r in rows:
        for i in range(0, len(r), 3):
            px = r[i:i + 3]
            counts[px] = counts.get(px, 0) + 1
    total = w * h
    top_colour, top_n = max(counts.items(), key=lambda kv: kv[1])
    if len(counts) < 200:
        problems.append("only %d distinct colours: a blank or unstyled page" % len(counts))
    if top_n > 0.9 * total:
        problems.append("colour #%s fills %.0f%% of the image" % (top_colour.hex(), 100 * top_n / total))
    # The bars' colours as the report emits them; a bar taller than a few
    # pixels keeps its exact colour inside, whatever the anti-aliasing does.
    root = ET.parse(report).getroot()
    svgs = root.findall(".//" + SVG + "svg")
    fills = set()
    for svg in svgs:
        for rect in svg.iter(SVG + "rect"):
            if rect.get("class") == "bar" and float(rect.get("width")) >= 6:
                fills.add(rect.get("fill"))
    if len(fills) < 3:
        problems.append("the report has only %d bar colours" % len(fills))
    for fill in sorted(fills):
        if not re.fullmatch(r"#[0-9a-f]{6}", fill):
            problems.append("unexpected fill %r" % fill)
            continue
        n = counts.get(bytes.fromhex(fill[1:]), 0)
        if n < 20:
            problems.append("bar colour %s: %d pixels in the screenshot" % (fill, n))
    # The top of the page is the header and the first chart: not the
    # background alone.
    first = rows[: min(h, 600)]
    head_colours = set(r[i:i + 3] for r in first for i in range(0, len(r), 3))
    if len(head_colours) < 50:
        problems.append("the top 600 rows have only %d colours" % len(head_colours))
    for p in problems:
        print("report_png: " + p)
    if not problems:
        print("report_png: %dx%d, %d colours, %d bar colours all present" % (w, h, len(counts), len(fills)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
