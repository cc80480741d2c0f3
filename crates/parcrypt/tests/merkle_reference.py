#!/usr/bin/env python3
"""Independent reference for parcrypt's Merkle formats (stdlib only).

Written straight from the specifications, in a different shape from the Rust
engine (whole levels in memory, recursion on the RFC's own definition):
- BEP 52: SHA-256 of each 16 KiB block (the last as is), leaf layer padded
  with 32 zero bytes to a power of two, parents SHA-256(left || right);
  piece layer = the layer whose nodes cover piece_length bytes, for files
  larger than one piece; an empty file has no root.
- AWS Glacier: SHA-256 of each 1 MiB chunk, pairs combined level by level,
  an odd last node carried up unchanged; empty input = SHA-256(b"").
- RFC 6962 MTH with 0x00/0x01 prefixes, split at the largest power of two < n.

Input bytes are i % 251. Run `python3 merkle_reference.py > data/merkle_vectors.txt`.
Self-check: the RFC 6962 roots of the transparency-dev leaves are asserted.
"""
import hashlib

H = lambda *parts: hashlib.sha256(b"".join(parts)).digest()


def data(n):
    return bytes(i % 251 for i in range(n))


def bep52(blob, piece_length):
    if not blob:
        return None, []
    block = 16384
    layer = [H(blob[i:i + block]) for i in range(0, len(blob), block)]
    width = 1
    while width < len(layer):
        width *= 2
    layer += [bytes(32)] * (width - len(layer))
    pieces = None
    covered = block
    levels = [layer]
    while len(layer) > 1 or pieces is None:
        if covered == piece_length:
            pieces = layer
        if len(layer) == 1:
            break
        layer = [H(layer[i], layer[i + 1]) for i in range(0, len(layer), 2)]
        covered *= 2
    root = layer[0]
    if len(blob) <= piece_length:
        return root, []
    n_pieces = -(-len(blob) // piece_length)
    return root, pieces[:n_pieces]


def glacier(blob):
    if not blob:
        return H(b"")
    mib = 1 << 20
    level = [H(blob[i:i + mib]) for i in range(0, len(blob), mib)]
    while len(level) > 1:
        nxt = [H(level[i], level[i + 1]) for i in range(0, len(level) - 1, 2)]
        if len(level) % 2:
            nxt.append(level[-1])
        level = nxt
    return level[0]


def mth(leaves):
    n = len(leaves)
    if n == 0:
        return H(b"")
    if n == 1:
        return H(b"\x00", leaves[0])
    k = 1
    while k * 2 < n:
        k *= 2
    return H(b"\x01", mth(leaves[:k]), mth(leaves[k:]))


def self_check():
    leaves = [bytes.fromhex(x) for x in
              ["", "00", "10", "2021", "3031", "40414243", "5051525354555657",
               "606162636465666768696a6b6c6d6e6f"]]
    assert mth(leaves[:3]).hex() == "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77"
    assert mth(leaves).hex() == "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328"


def main():
    self_check()
    K, M = 1024, 1 << 20
    sizes = [0, 1, 16 * K - 1, 16 * K, 16 * K + 1, 100_000, M, M + 1, 7 * M // 2]
    print("# parcrypt Merkle vectors from tests/merkle_reference.py; input bytes are i % 251")
    print("# bittorrent-v2 SIZE PIECE_LENGTH ROOT|none LAYER(comma-separated)|-")
    print("# glacier SIZE - ROOT -")
    print("# rfc6962 SIZE LEAF_SIZE ROOT -")
    for n in sizes:
        blob = data(n)
        for piece in [16 * K, 32 * K, 256 * K, M]:
            root, layer = bep52(blob, piece)
            print("bittorrent-v2", n, piece, root.hex() if root else "none",
                  ",".join(h.hex() for h in layer) or "-")
        print("glacier", n, "-", glacier(blob).hex(), "-")
        for leaf in [1, 4096, 4097]:
            if n // leaf > 70_000:
                continue
            leaves = [blob[i:i + leaf] for i in range(0, n, leaf)]
            print("rfc6962", n, leaf, mth(leaves).hex(), "-")


if __name__ == "__main__":
    main()
