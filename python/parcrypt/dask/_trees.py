"""Merkle trees and manifests on the cluster: ``hash_files``,
``merkle_root``, ``inclusion_proof``."""

import os
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

from parcrypt import merkle
from parcrypt.merkle import CompactRange

from ._common import (BATCH_FILES, DEFAULT_PART, _batches, _client, _cut, _delayed, _gather_all, _leaf_size,
                      _part_bytes, _slots, _view)

def _range_task(path: str, format: str, leaf: int, offset: int, length: int) -> bytes:
    # Read by the library into its own pipeline buffers and hashed there as
    # the next one is read, the GIL released: no part-sized Python buffer.
    return CompactRange.from_file(format, path, offset, length, leaf_size=leaf, threads=1).to_bytes()


def manifest_line(digest: Optional[bytes], name: str) -> str:
    """One line as ``sha256sum`` prints it (a name with a backslash or a
    newline is escaped and the line starts with a backslash)."""
    if digest is None:
        raise ValueError(f"{name}: BitTorrent v2 lists empty files without a root; use format='sha256' for a digest")
    hexed = digest.hex()
    if "\\" in name or "\n" in name:
        return "\\" + hexed + "  " + name.replace("\\", "\\\\").replace("\n", "\\n")
    return hexed + "  " + name


def _batch_task(joined: str, format: str, leaf_size: int, part: int) -> Tuple[List[str], List[Tuple[int, int]]]:
    """One batch of files, hashed on a worker: its manifest text, cut where
    a large file goes, and those large files as ``(position, size)``.

    The names come as one string joined by NULs (which no path holds) and
    the lines go back as a few strings, not lists of names or digests: Dask
    walks a list item by item (measured: 0.22 s for 10,000 digests against
    0.06 s of hashing). For tree formats each file is stat-ed here, not on
    the driver, and a file larger than ``part`` is left for a second round
    that splits it across the cluster. One ``merkle.hash_files`` call for
    the batch: one GIL release, not one per file. A missing file raises
    (the whole call fails; no manifest is returned)."""
    names = joined.split("\0")
    large: List[Tuple[int, int]] = []
    small = names
    if format != "sha256":
        small = []
        for i, name in enumerate(names):
            size = os.stat(name).st_size
            if size > part:
                large.append((i, size))
            else:
                small.append(name)
    digests = iter(merkle.hash_files(small, format, leaf_size=leaf_size, threads=1))
    texts: List[str] = []
    lines: List[str] = []
    big = {i for i, _ in large}
    for i, name in enumerate(names):
        if i in big:
            texts.append("".join(lines))
            lines = []
            continue
        r = next(digests)
        if isinstance(r, Exception):
            # Which file, among thousands, is what makes the error clear.
            raise type(r)(f"{name}: {r}") from r
        lines.append(manifest_line(r, name) + "\n")
    texts.append("".join(lines))
    return texts, large


def _merge(ranges: Sequence[bytes]) -> CompactRange:
    parts = [CompactRange.from_bytes(b) for b in ranges]
    whole = parts[0]
    for r in parts[1:]:
        whole = whole.merge(r)
    return whole


def hash_files(paths: Sequence[Union[str, "os.PathLike[str]"]], format: str = "sha256", *, leaf_size: int = 4096,
               part_size: int = DEFAULT_PART, client=None) -> str:
    """A ``sha256sum``-style manifest of ``paths`` (in argument order) in
    ``format`` ("sha256", "rfc6962", "bittorrent-v2", "glacier"): the same
    lines ``parcrypt hash --format FORMAT`` prints.

    The driver only cuts the path list into batches of equal count (a few
    per cluster thread; it never stats or opens a file); each worker hashes
    its batch and returns its manifest lines. For tree formats the worker
    also stats its files and sends back, instead of a line, each file
    larger than ``part_size``; a second round splits those into aligned
    parts (a power-of-two number of leaves) across the cluster. A missing
    or unreadable file raises its ``OSError`` and no manifest is returned."""
    names = [os.fspath(p) for p in paths]
    for name in names:
        if "\0" in name:
            raise ValueError(f"{name!r}: a path cannot hold a NUL byte")
    if not names:
        return ""
    leaf = _leaf_size(format, leaf_size)
    part = _part_bytes(leaf, part_size)
    with _client(client) as c:
        cuts = _batches(len(names), _slots(c))
        # One graph for every batch (one message to the scheduler, not one
        # per task); all results in one gather.
        futures = c.map(_batch_task, ["\0".join(names[a:b]) for a, b in cuts], format=format,
                        leaf_size=leaf_size, part=part, pure=False)
        got = _gather_all(c, futures)
        large = [(a + i, size) for (a, _), (_, big) in zip(cuts, got) for i, size in big]
        roots: Dict[int, Optional[bytes]] = {}
        if large:
            jobs = [(i, off, min(part, size - off)) for i, size in large for off in range(0, size, part)]
            ranges = _gather_all(c, c.map(_range_task, [names[i] for i, _, _ in jobs], [format] * len(jobs),
                                          [leaf] * len(jobs), [off for _, off, _ in jobs],
                                          [n for _, _, n in jobs], pure=False))
            for i, _ in large:
                roots[i] = _merge([r for (j, _, _), r in zip(jobs, ranges) if j == i]).root()
    out = []
    for (a, _), (texts, big) in zip(cuts, got):
        out.append(texts[0])
        for (i, _), text in zip(big, texts[1:]):
            out.append(manifest_line(roots[a + i], names[a + i]) + "\n")
            out.append(text)
    return "".join(out)


def merkle_root(source, format: str = "rfc6962", *, leaf_size: int = 4096, part_size: int = DEFAULT_PART,
                entries: str = "file", client=None) -> Optional[bytes]:
    """The root of one big input, computed across the cluster:

    - a path: the file's bytes cut into ``leaf_size`` leaves (16 KiB / 1 MiB
      for "bittorrent-v2" / "glacier"); one task per part of at most
      ``part_size`` bytes, the part count a multiple of the cluster's threads
      (so every worker gets the same share);
    - a 2-D ``dask.array`` of ``uint8`` (n × w, "rfc6962"): each row is one
      leaf of ``w`` bytes, one task per chunk of rows;
    - a 1-D ``dask.array`` of ``uint8``: bytes cut into leaves as for a path
      (the last may be shorter), one task per chunk;
    - a ``dask.bag.Bag`` of bytes-like leaves ("rfc6962"), one task per
      partition;
    - a list of entry files ("rfc6962"), in list order: ``entries="file"``
      makes each file one leaf (as ``parcrypt merkle root --leaves
      FILE...``); ``entries="bundle"`` reads each file as entries, each a
      big-endian 16-bit length and that many bytes (C2SP tlog-tiles entry
      bundles, any number of entries per file). Files are batched as in
      :func:`hash_files`.

    Chunks and partitions of any size are accepted as they are: each task's
    leaves become a compact range starting at its first leaf's index, and
    adjacent ranges merge exactly whatever their alignment. Only a 1-D
    array's chunk boundaries that fall inside a leaf are realigned (moved
    down to the leaf boundary with dask's ``rechunk``). Same result as
    ``merkle.hash_file`` / ``merkle.root`` on one machine."""
    with _client(client) as c:
        if isinstance(source, (str, os.PathLike)):
            path = os.fspath(source)
            size = os.stat(path).st_size
            if size == 0:
                return merkle.hash_file(path, format, leaf_size=leaf_size)
            leaf = _leaf_size(format, leaf_size)
            cuts = _cut(size, leaf, part_size, _slots(c))
            # One graph (one message to the scheduler) for every part.
            futures = c.map(_range_task, [path] * len(cuts), [format] * len(cuts), [leaf] * len(cuts),
                            [off for off, _ in cuts], [n for _, n in cuts], pure=False)
            return _merge(c.gather(futures)).root()
        parts = _partitions(c, source, format, leaf_size, part_size, entries)
        if parts.total == 0:
            return CompactRange.empty(format, 0).root()
        tasks = [_delayed(_part_ranges)(item, parts.kind, parts.arg, format, begin, None, [])
                 for item, begin in zip(parts.items, parts.begins)]
        return _merge([r for ranges, _ in c.compute(tasks, sync=True) for r in ranges]).root()


#: Inclusion proofs over chunked sources see the leaves as aligned blocks of
#: this many leaves: only the leaf hashes of the leaf's block and of a short
#: last block travel to the driver (at most 2 MiB each).
PROOF_BLOCK = 1 << 16


class _Parts:
    """A source other than a path, as tasks: ``items`` (dask delayed chunks
    or lists of paths) of ``counts`` leaves starting at ``begins``; ``kind``
    and ``arg`` tell a worker how to read an item's leaves (:func:`_leaves`)."""

    def __init__(self, kind: str, arg: Any, items: List[Any], counts: List[int]):
        self.kind, self.arg, self.items, self.counts = kind, arg, items, counts
        self.begins = [0]
        for n in counts[:-1]:
            self.begins.append(self.begins[-1] + n)
        self.total = sum(counts)


def _partitions(client, source, format: str, leaf_size: int, part_size: int, entries: str) -> _Parts:
    import dask.array as da
    import dask.bag as db

    if isinstance(source, da.Array):
        if source.dtype.itemsize != 1 or source.dtype.kind not in "ui":
            raise ValueError(f"an array of leaves must hold bytes (uint8), not {source.dtype}: "
                             "pass array.view('uint8')")
        if source.ndim == 2:
            if format != "rfc6962":
                raise ValueError("rows of leaves make an RFC 6962 tree: format must be 'rfc6962'")
            if len(source.chunks[1]) > 1:
                source = source.rechunk({1: -1})  # each task needs whole rows
            items = list(source.to_delayed()[:, 0]) if source.shape[0] else []
            return _Parts("rows", source.shape[1], items, [n for n in source.chunks[0] if source.shape[0]])
        if source.ndim == 1:
            leaf = _leaf_size(format, leaf_size)
            if leaf < 1:
                raise ValueError("leaf_size must be at least 1")
            # Boundaries inside a leaf move down to the leaf's start (a few
            # bytes change chunks); aligned chunks are kept as they are.
            ends: List[int] = []
            at = 0
            for n in source.chunks[0]:
                at += n
                end = at if at == source.shape[0] else at - at % leaf
                if end > (ends[-1] if ends else 0):
                    ends.append(end)
            chunks = tuple(b - a for a, b in zip([0] + ends[:-1], ends))
            if chunks and chunks != source.chunks[0]:
                source = source.rechunk({0: chunks})
            items = list(source.to_delayed()) if chunks else []
            return _Parts("bytes", leaf, items, [-(-n // leaf) for n in chunks])
        raise ValueError(f"an array of leaves must be 1-D (bytes) or 2-D (rows), not {source.ndim}-D")
    if format != "rfc6962":
        raise ValueError("a bag or a list of entries makes an RFC 6962 tree: format must be 'rfc6962'")
    if isinstance(source, db.Bag):
        counts = client.compute(source.map_partitions(lambda p: [len(list(p))]), sync=True)
        return _Parts("bag", None, list(source.to_delayed()), list(counts))
    if isinstance(source, (list, tuple)):
        if entries not in ("file", "bundle"):
            raise ValueError(f"unknown entries {entries!r}: expected 'file' (one leaf per file) or 'bundle'")
        names = [os.fspath(p) for p in source]
        sizes = [os.stat(p).st_size for p in names]  # a missing file fails here, before any work
        batches: List[List[str]] = []
        batch_bytes = 0
        for name, size in zip(names, sizes):
            if not batches or len(batches[-1]) >= BATCH_FILES or batch_bytes + size > part_size // 4:
                batches.append([])
                batch_bytes = 0
            batches[-1].append(name)
            batch_bytes += size
        if entries == "file":
            counts = [len(b) for b in batches]
        else:
            # A bundle's entry count is known only by reading it: a first
            # pass walks the length prefixes, the second hashes.
            counts = _gather_all(client, client.map(_count_entries, batches, pure=False))
        return _Parts(entries, None, batches, counts)
    raise TypeError("source must be a path, a dask array or bag of leaves, or a list of entry files, "
                    f"not {type(source).__name__}")


def _bundle(data: bytes, name: str) -> List[memoryview]:
    """The entries of a bundle: each a big-endian u16 length, then the bytes."""
    out, pos, view = [], 0, memoryview(data)
    while pos < len(view):
        if pos + 2 > len(view):
            raise ValueError(f"{name}: truncated entry length at byte {pos}")
        n = int.from_bytes(view[pos:pos + 2], "big")
        if pos + 2 + n > len(view):
            raise ValueError(f"{name}: the entry at byte {pos} claims {n} bytes, only {len(view) - pos - 2} remain")
        out.append(view[pos + 2:pos + 2 + n])
        pos += 2 + n
    return out


def _count_entries(paths: List[str]) -> int:
    return sum(len(_bundle(Path(p).read_bytes(), p)) for p in paths)


def _leaves(item: Any, kind: str, arg: Any) -> Tuple[Any, Optional[int]]:
    """A task's leaves as ``CompactRange.from_leaves`` takes them:
    ``(buffer, leaf size)`` or ``(sequence of leaves, None)``."""
    import numpy as np

    if kind == "rows":
        if arg == 0:
            return [b""] * len(item), None
        return np.ascontiguousarray(item, dtype=np.uint8).reshape(-1), arg
    if kind == "bytes":
        return np.ascontiguousarray(item, dtype=np.uint8), arg
    if kind == "bag":
        return list(item), None
    leaves: List[Any] = []
    for p in item:
        data = Path(p).read_bytes()
        if kind == "file":
            leaves.append(data)
        else:
            leaves.extend(_bundle(data, p))
    return leaves, None


def _slice(leaves: Any, leaf: Optional[int], a: int, b: int) -> Any:
    return leaves[a * leaf:b * leaf] if leaf is not None else leaves[a:b]


def _part_ranges(item: Any, kind: str, arg: Any, format: str, begin: int, block: Optional[int],
                 wanted: List[Tuple[int, int]]) -> Tuple[List[bytes], List[bytes]]:
    """One task: the compact range of its leaves (with ``block``, one per
    piece between multiples of ``block``), and for each global leaf
    interval in ``wanted`` the leaf hashes of its leaves in this task."""
    leaves, leaf = _leaves(item, kind, arg)
    count = len(leaves) if leaf is None else -(-len(leaves) // leaf)
    cuts = [0, count]
    if block is not None:
        cuts = sorted({0, count, *range(-begin % block, count, block)})
    ranges = [CompactRange.from_leaves(format, begin + a, _slice(leaves, leaf, a, b), leaf_size=leaf,
                                       threads=1).to_bytes() for a, b in zip(cuts, cuts[1:])]
    hashes = []
    for lo, hi in wanted:
        a, b = max(lo - begin, 0), min(hi - begin, count)
        hashes.append(b"".join(merkle.leaf_hash(_slice(leaves, leaf, i, i + 1) if leaf else leaves[i])
                               for i in range(a, b)))
    return ranges, hashes


def _part_root_and_proof(path: str, leaf: int, offset: int, length: int, index: Optional[int]):
    with _view(path, offset, length) as data:
        root = merkle.root(data, leaf_size=leaf, threads=1)
        proof = merkle.inclusion_proof(data, index, leaf_size=leaf, threads=1) if index is not None else None
    return root, proof


def inclusion_proof(source, index: int, *, leaf_size: int = 4096, part_size: int = DEFAULT_PART,
                    entries: str = "file", client=None) -> Tuple[List[bytes], bytes]:
    """``(proof, root)``: the RFC 6962 audit path of leaf ``index`` and the
    tree's head, for any source :func:`merkle_root` takes in "rfc6962";
    equal to ``merkle.inclusion_proof`` / ``merkle.root`` on one machine.

    A path: the worker holding the leaf's part proves it inside the part,
    the others send their part roots. Other sources: the tree is seen as
    aligned blocks of ``PROOF_BLOCK`` leaves (nodes of the tree); each task
    returns a compact range per block piece it holds, and only the leaf
    hashes of the leaf's block and of a short last block reach the driver.
    The proof is the leaf's path in its block followed by the block's path
    among the block roots (``merkle.rfc6962_path``)."""
    with _client(client) as c:
        if isinstance(source, (str, os.PathLike)):
            return _file_inclusion_proof(c, os.fspath(source), index, leaf_size, part_size)
        parts = _partitions(c, source, "rfc6962", leaf_size, part_size, entries)
        n, block = parts.total, PROOF_BLOCK
        if not 0 <= index < n:
            raise ValueError(f"leaf index {index} is outside a tree of {n} leaves")
        mine, last = index // block * block, (n - 1) // block * block
        wanted = [(mine, min(mine + block, n))]
        if last != mine and n - last < block:
            wanted.append((last, n))
        tasks = [_delayed(_part_ranges)(item, parts.kind, parts.arg, "rfc6962", begin, block,
                                        _overlapping(wanted, begin, count))
                 for item, begin, count in zip(parts.items, parts.begins, parts.counts)]
        results = c.compute(tasks, sync=True)
    pieces = [CompactRange.from_bytes(r) for ranges, _ in results for r in ranges]
    got: Dict[Tuple[int, int], bytes] = {w: b"" for w in wanted}
    for (_, hashes), begin, count in zip(results, parts.begins, parts.counts):
        for w, h in zip(_overlapping(wanted, begin, count), hashes):
            got[w] += h
    blocks: Dict[int, CompactRange] = {}
    whole = None
    for piece in pieces:  # pieces never cross a block boundary
        whole = piece if whole is None else whole.merge(piece)
        k = piece.begin // block
        blocks[k] = blocks[k].merge(piece) if k in blocks else piece
    # A full block is one aligned subtree; a short last one is rooted from
    # its leaf hashes.
    roots = [blocks[k].subtrees()[0][2] for k in range(n // block)]
    if n % block:
        roots.append(_head(CompactRange.from_leaf_hashes("rfc6962", 0, got[(last, n)])))
    assert whole is not None and whole.end == n
    local = got[wanted[0]]
    hashes_of_block = [local[i:i + 32] for i in range(0, len(local), 32)]
    proof = merkle.rfc6962_path(hashes_of_block, index - mine) + merkle.rfc6962_path(roots, index // block)
    return proof, _head(whole)


def _overlapping(wanted: List[Tuple[int, int]], begin: int, count: int) -> List[Tuple[int, int]]:
    """The leaf intervals of ``wanted`` that meet leaves [begin, begin + count)."""
    return [(a, b) for a, b in wanted if a < begin + count and begin < b]


def _head(r: CompactRange) -> bytes:
    """An RFC 6962 tree head (never None, unlike an empty BitTorrent v2 file)."""
    root = r.root()
    assert root is not None
    return root


def _file_inclusion_proof(c, path: str, index: int, leaf_size: int, part_size: int) -> Tuple[List[bytes], bytes]:
    size = os.stat(path).st_size
    leaves = -(-size // leaf_size)
    if not 0 <= index < leaves:
        raise ValueError(f"leaf index {index} is outside a tree of {leaves} leaves")
    part = _part_bytes(leaf_size, part_size)
    per = part // leaf_size
    futures = [c.submit(_part_root_and_proof, path, leaf_size, off, min(part, size - off),
                        (index - off // leaf_size) if off // leaf_size <= index < off // leaf_size + per else None,
                        pure=False)
               for off in range(0, size, part)]
    results = c.gather(futures)
    roots = [r for r, _ in results]
    proof = list(results[index // per][1]) + merkle.rfc6962_path(roots, index // per)
    # The part roots are nodes of 2^j leaves: the library's RFC 6962 merge
    # over them as leaf hashes gives the tree head.
    return proof, _head(CompactRange.from_leaf_hashes("rfc6962", 0, roots))
