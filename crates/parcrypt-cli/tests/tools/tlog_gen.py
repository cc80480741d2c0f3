#!/usr/bin/env python3
"""Write a C2SP tlog-tiles log with Python's hashlib: a second implementation,
independent of parcrypt's and of the Go generator beside this file, for the
CLI's interop tests.

    python3 tlog_gen.py OUT_DIR SIZE

Entry i is (i*13) % 70 bytes, and 300 + i % 200 bytes when i % 333 == 5.
The root is computed by RFC 6962's recursive definition (MTH with the split
at the largest power of two below n), not from the tiles. Prints
"SIZE HEXROOT". The checkpoint carries no signature.
"""

import base64
import hashlib
import os
import struct
import sys


def entry(i):
    n = 300 + i % 200 if i % 333 == 5 else (i * 13) % 70
    return bytes((j * 11 + i * 3) % 256 for j in range(n))


def leaf(data):
    return hashlib.sha256(b"\x00" + data).digest()


def node(left, right):
    return hashlib.sha256(b"\x01" + left + right).digest()


def mth(hashes):
    """RFC 6962 section 2.1, over leaf hashes."""
    if len(hashes) == 1:
        return hashes[0]
    if not hashes:
        return hashlib.sha256(b"").digest()
    k = 1
    while k * 2 < len(hashes):
        k *= 2
    return node(mth(hashes[:k]), mth(hashes[k:]))


def index_path(n):
    groups = []
    while True:
        groups.append(n % 1000)
        n //= 1000
        if n == 0:
            break
    groups.reverse()
    return "/".join(("x%03d" if i < len(groups) - 1 else "%03d") % g for i, g in enumerate(groups))


def tile_name(n, width):
    return index_path(n) + ("" if width == 256 else ".p/%d" % width)


def write(out, rel, data):
    path = os.path.join(out, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def main():
    out, size = sys.argv[1], int(sys.argv[2])
    entries = [entry(i) for i in range(size)]
    level = [leaf(e) for e in entries]
    for start in range(0, size, 256):
        chunk = entries[start : start + 256]
        bundle = b"".join(struct.pack(">H", len(e)) + e for e in chunk)
        write(out, "tile/entries/" + tile_name(start // 256, len(chunk)), bundle)
    # Level L tiles hold the hashes of level L; level L+1's hashes are the
    # MTHs of the full tiles of level L.
    lvl = 0
    while level:
        for start in range(0, len(level), 256):
            chunk = level[start : start + 256]
            write(out, "tile/%d/%s" % (lvl, tile_name(start // 256, len(chunk))), b"".join(chunk))
        level = [mth(level[s : s + 256]) for s in range(0, len(level) - 255, 256)]
        lvl += 1
    root = mth([leaf(e) for e in entries])
    text = "example.com/python-log\n%d\n%s\n" % (size, base64.b64encode(root).decode())
    write(out, "checkpoint", text.encode())
    print(size, root.hex())


if __name__ == "__main__":
    main()
