#!/usr/bin/env python3
"""png_probe.py — reads an 8-bit RGB PNG with the standard library (zlib, struct) for the CLI tests.
usage: png_probe.py FILE [X,Y ...]: prints "size W H", one "text KEY VALUE" line per tEXt chunk, and "X,Y R G B"
for each pixel asked."""
import struct
import sys
import zlib


def read(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, texts = 8, b"", []
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and colour == 2, "expected 8-bit RGB"
        elif kind == b"IDAT":
            idat += body
        elif kind == b"tEXt":
            key, value = body.split(b"\0", 1)
            texts.append((key.decode("latin-1"), value.decode("latin-1")))
        pos += 12 + n
    raw, stride, rows, prev = zlib.decompress(idat), w * 3, [], bytearray(w * 3)
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a, b, c = line[i - 3] if i >= 3 else 0, prev[i], prev[i - 3] if i >= 3 else 0
            p = a + b - c
            pred = [0, a, b, (a + b) // 2,
                    a if abs(p - a) <= abs(p - b) and abs(p - a) <= abs(p - c) else b if abs(p - b) <= abs(p - c) else c][f]
            line[i] = (line[i] + pred) & 255
        rows.append(line)
        prev = line
    return w, h, texts, rows


w, h, texts, rows = read(sys.argv[1])
print("size", w, h)
for key, value in texts:
    print("text", key, value)
for q in sys.argv[2:]:
    x, y = map(int, q.split(","))
    print(q, *rows[y][3 * x:3 * x + 3])
