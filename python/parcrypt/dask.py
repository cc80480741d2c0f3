"""The same trees, signatures and encrypted files on a Dask cluster.

``pip install "./python[dask]"`` adds dask and distributed. Every function
takes ``client=None``: with none, a ``distributed.LocalCluster`` (one worker
process per core) is started for the call and closed after it; with a
``distributed.Client``, its cluster is used. Results are byte-identical to
the single-machine ``parcrypt hash`` / ``merkle root`` / ``encrypt``.

How work is cut (docs/SCALING.md):

- files are read by the workers (a shared file system is assumed: every
  worker sees the same paths); what crosses the network is compact ranges
  (a few hundred bytes per task), hashes and booleans — never the data,
  except where the source is in memory (dask arrays and bags of leaves);
- large files are cut into parts of at most ``part_size`` bytes (default
  256 MiB): for ``merkle_root``, equal parts on leaf boundaries, as many as
  a multiple of the cluster's threads; for ``hash_files`` and
  ``inclusion_proof``, a power-of-two number of leaves (tree nodes);
- encrypting one large file sends the stream's **payload key** to the
  workers (it opens and forges that stream's segments, nothing else): use
  Dask's TLS security (``distributed.security.Security``) on a real
  network; parcrypt never logs it. The Cobblestone functions send the
  input key and the context to the workers (each derives the message's
  keys from them and the header), under the same advice.

Functions: :func:`hash_files`, :func:`merkle_root`, :func:`inclusion_proof`,
:func:`verify_batch`, :func:`encrypt_files`, :func:`decrypt_files`,
:func:`encrypt_large`, :func:`cobblestone_encrypt`, :func:`cobblestone_decrypt`.
"""

import contextlib
import hashlib
import itertools
import os
import tempfile
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple, Union

from parcrypt import ecdsa, merkle, stream
from parcrypt.merkle import CompactRange

__all__ = ["hash_files", "merkle_root", "inclusion_proof", "verify_batch", "encrypt_files", "decrypt_files",
           "encrypt_large", "manifest_line", "cobblestone_encrypt", "cobblestone_decrypt"]

DEFAULT_PART = 256 << 20
LEAF = {"bittorrent-v2": 16 << 10, "glacier": 1 << 20}


@contextlib.contextmanager
def _client(client) -> Iterator[Any]:
    """The caller's client, or a LocalCluster for the duration of the call."""
    if client is not None:
        yield client
        return
    from distributed import Client, LocalCluster

    with LocalCluster(processes=True, threads_per_worker=1, dashboard_address=None) as cluster, \
            Client(cluster) as local:
        yield local


def _leaf_size(format: str, leaf_size: int) -> int:
    return LEAF.get(format, leaf_size)


def _part_bytes(leaf: int, part_size: int) -> int:
    """A power-of-two number of leaves of about ``part_size`` bytes: such
    parts are nodes of every format's tree."""
    leaves = max(1, part_size // leaf)
    return leaf * (1 << (leaves.bit_length() - 1))


def _read(path: str, offset: int, length: int) -> bytearray:
    """Exactly ``length`` bytes of the file from ``offset`` (positional
    reads), or ``OSError`` if the file ends first: truncated meanwhile."""
    out = bytearray(length)
    view = memoryview(out)
    with open(path, "rb") as f:
        got = 0
        while got < length:
            n = os.preadv(f.fileno(), [view[got:]], offset + got)
            if n == 0:
                raise OSError(f"{path}: the file ends at byte {offset + got}, before the {length} bytes "
                              f"wanted from offset {offset} (was it truncated while it was read?)")
            got += n
    view.release()
    return out


@contextlib.contextmanager
def _view(path: str, offset: int, length: int) -> Iterator[Any]:
    """A part of a file, read with positional reads. Never a memory map: a
    map of a file another process truncates kills the worker that touches
    the lost pages with SIGBUS, where a read raises ``OSError`` (as the
    library's own file reads do)."""
    yield _read(path, offset, length)


def _slots(client) -> int:
    """Tasks the cluster runs at once (threads over all workers)."""
    return max(1, sum(client.nthreads().values()))


def _cut(size: int, leaf: int, part_size: int, slots: int) -> List[Tuple[int, int]]:
    """``(offset, length)`` parts of a file on leaf boundaries, at most about
    ``part_size`` bytes each, their count a multiple of ``slots`` (when the
    file has that many leaves) and their sizes within a leaf of each other:
    every worker gets the same share, none a part more at the end. Compact
    ranges merge at any leaf boundary, so parts need not be powers of two."""
    leaves = -(-size // leaf)
    parts = -(-size // max(part_size, leaf))
    parts = max(1, min(leaves, -(-parts // slots) * slots))
    base, extra = divmod(leaves, parts)
    out, at = [], 0
    for i in range(parts):
        n = base + (i < extra)
        out.append((at * leaf, min(size, (at + n) * leaf) - at * leaf))
        at += n
    return out


def _range_task(path: str, format: str, leaf: int, offset: int, length: int) -> bytes:
    with _view(path, offset, length) as data:
        r = CompactRange.from_leaves(format, offset // leaf, data, leaf_size=leaf, threads=1)
    return r.to_bytes()


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


#: ``hash_files`` cuts the path list into about this many batches per
#: cluster thread (at least ``BATCH_FILES`` files each, at most
#: ``MAX_BATCH_FILES``): 10,000 little files are a few tasks per thread, not
#: 10,000 (Dask's per-task overhead is one to two milliseconds, and the
#: driver's and scheduler's work grows with the task count), and still
#: enough that a slow worker does not hold the last one alone.
BATCHES_PER_THREAD = 1
BATCH_FILES = 256
MAX_BATCH_FILES = 8192


def _batches(n: int, slots: int) -> List[Tuple[int, int]]:
    """``[a, b)`` index ranges cutting ``n`` files into batches of equal
    count (within one)."""
    per = min(MAX_BATCH_FILES, max(BATCH_FILES, -(-n // (BATCHES_PER_THREAD * slots))))
    count = max(1, -(-n // per))
    base, extra = divmod(n, count)
    out, at = [], 0
    for i in range(count):
        k = base + (i < extra)
        out.append((at, at + k))
        at += k
    return out


def _gather_all(client, futures):
    """Every result, after every task has ended: on an error the first one
    is raised only once no task is still writing (so no temporary file
    appears after the call returned)."""
    from distributed import wait

    wait(futures)
    return client.gather(futures)


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


def _delayed(fn):
    import dask

    return dask.delayed(fn, pure=False)


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


def _verify_partition(rows, encoding: str = "der", prehashed: bool = False) -> List[bool]:
    """Verifies rows of (key bytes, message or digest, signature); each
    distinct key is parsed once, a key that does not parse fails its rows."""
    keys: Dict[bytes, Any] = {}
    items: List[Optional[Tuple[Any, Any, Any]]] = []
    for key, message, signature in rows:
        kb = bytes(key)
        if kb not in keys:
            try:
                keys[kb] = ecdsa.load_public_key(kb)
            except ValueError:
                keys[kb] = None
        if prehashed and len(message) != 32:
            raise ValueError(f"a digest of {len(message)} bytes: prehashed rows need 32-byte SHA-256 digests")
        items.append(None if keys[kb] is None else (keys[kb], message, signature))
    return _verify_items(items, encoding, prehashed)


def _verify_partition_packed(rows, encoding: str, prehashed: bool) -> bytes:
    """:func:`_verify_partition` as one byte per row (1 for valid)."""
    return bytes(_verify_partition(rows, encoding, prehashed))


def _verify_items(items: List[Optional[Tuple[Any, Any, Any]]], encoding: str, prehashed: bool) -> List[bool]:
    from parcrypt import _parcrypt

    good = [x for x in items if x is not None]
    batch = _parcrypt.ec_verify_batch_digests if prehashed else ecdsa.verify_batch
    results = iter(batch(good, encoding=encoding, threads=1))
    return [False if x is None else next(results) for x in items]


def _pack(rows: Sequence[Any], prehashed: bool) -> Tuple[List[bytes], bytes, bytes, bytes, bytes, bytes]:
    """Rows as a few flat buffers, which Dask serializes as they are (a list
    of tuples is walked item by item, ~20 µs a row): the distinct keys,
    each row's key number (u32), the messages and signatures concatenated,
    and where each ends (u64)."""
    from array import array

    keys: Dict[bytes, int] = {}
    which = array("I")
    for key, message, _ in rows:
        which.append(keys.setdefault(bytes(key), len(keys)))
        if prehashed and len(message) != 32:
            raise ValueError(f"a digest of {len(message)} bytes: prehashed rows need 32-byte SHA-256 digests")
    messages = array("Q", itertools.accumulate(len(r[1]) for r in rows))
    signatures = array("Q", itertools.accumulate(len(r[2]) for r in rows))
    return (list(keys), which.tobytes(), b"".join(bytes(r[1]) for r in rows), messages.tobytes(),
            b"".join(bytes(r[2]) for r in rows), signatures.tobytes())


def _verify_packed(packed: Tuple[List[bytes], bytes, bytes, bytes, bytes, bytes], encoding: str,
                   prehashed: bool) -> bytes:
    """One byte per row, 1 for a valid signature: Dask serializes a list
    of bools item by item (measured: 1.1 s for 50,000), a bytes object as
    it is (9 ms)."""
    from array import array

    key_bytes, which_b, data, data_ends_b, sigs, sig_ends_b = packed
    keys: List[Any] = []
    for kb in key_bytes:
        try:
            keys.append(ecdsa.load_public_key(kb))
        except ValueError:
            keys.append(None)
    which, data_ends, sig_ends = array("I"), array("Q"), array("Q")
    which.frombytes(which_b)
    data_ends.frombytes(data_ends_b)
    sig_ends.frombytes(sig_ends_b)
    data_v, sigs_v = memoryview(data), memoryview(sigs)
    items: List[Optional[Tuple[Any, Any, Any]]] = []
    d0 = s0 = 0
    for k, d1, s1 in zip(which, data_ends, sig_ends):
        key = keys[k]
        items.append(None if key is None else (key, data_v[d0:d1], sigs_v[s0:s1]))
        d0, s0 = d1, s1
    return bytes(_verify_items(items, encoding, prehashed))


def _verify_frame(frame, encoding: str, prehashed: bool):
    """One pandas partition's rows, read column-wise; a boolean Series."""
    key, message, signature = (frame[c] for c in frame.columns)
    return key.__class__(_verify_partition(zip(key, message, signature), encoding, prehashed), index=frame.index,
                         dtype=bool)


def verify_batch(items, *, prehashed: bool = False, encoding: str = "der", key_column: str = "public_key",
                 message_column: str = "message", signature_column: str = "signature",
                 client=None) -> Tuple[List[bool], int, List[int]]:
    """ECDSA P-256 verification of many ``(public key, message, signature)``
    items across the cluster: a ``dask.bag.Bag`` of tuples, a dask
    DataFrame with the named columns, or a plain sequence (partitioned
    here). With ``prehashed=True`` the middle item is the message's 32-byte
    SHA-256 digest (``cryptography``'s ``Prehashed(SHA256())``). Keys are
    SPKI PEM/DER or X9.62 points (bytes). Returns ``(results, failures,
    failed_indices)`` in input order; a malformed key or signature counts as
    a failure, a digest that is not 32 bytes raises ``ValueError``.

    A plain sequence is cut into a few parts per worker, each sent as flat
    buffers (the distinct keys once, messages and signatures concatenated);
    a DataFrame is verified column-wise per partition, without becoming a
    bag of tuples."""
    import dask.bag as db

    with _client(client) as c:
        if hasattr(items, "map_partitions") and hasattr(items, "columns"):
            frame = items[[key_column, message_column, signature_column]]
            series = frame.map_partitions(_verify_frame, encoding, prehashed, meta=(None, "bool"))
            results: Sequence[bool] = c.compute(series, sync=True).tolist()
        elif isinstance(items, db.Bag):
            # One byte per row from each partition, not a bag of bools
            # (which Dask would serialize item by item).
            tasks = [_delayed(_verify_partition_packed)(p, encoding, prehashed) for p in items.to_delayed()]
            results = [ok == 1 for part in c.compute(tasks, sync=True) for ok in part]
        else:
            seq = items if isinstance(items, Sequence) else list(items)
            workers = max(1, len(c.scheduler_info()["workers"]))
            parts = max(1, min(len(seq) // VERIFY_GRAIN, PARTS_PER_WORKER * workers))
            # Whole rounds of parts per worker (a multiple of the worker
            # count), so no worker is left with one part more at the end.
            if parts > workers:
                parts -= parts % workers
            step = -(-len(seq) // parts) if len(seq) else 1
            packed = [_pack(seq[i:i + step], prehashed) for i in range(0, len(seq), step)]
            # Scattered without hashing (tokenizing) them; each task runs
            # where its part already is.
            futures = c.map(_verify_packed, c.scatter(packed, hash=False), encoding=encoding,
                            prehashed=prehashed, pure=False) if packed else []
            results = [ok == 1 for part in c.gather(futures) for ok in part]
    results = list(results)
    failed = [i for i, ok in enumerate(results) if not ok]
    return results, len(failed), failed


#: A plain sequence of signatures goes in at most this many parts per
#: worker, each at least ``VERIFY_GRAIN`` rows (~15 ms of verification).
PARTS_PER_WORKER = 4
VERIFY_GRAIN = 256


def _encrypt_one(src: str, dst: str, key: bytes, overwrite: bool) -> int:
    return stream.encrypt_file(src, dst, key=key, overwrite=overwrite, threads=1)


def _decrypt_one(src: str, dst: str, key: bytes, overwrite: bool) -> int:
    return stream.decrypt_file(src, dst, key=key, overwrite=overwrite, threads=1)


def encrypt_files(paths: Sequence[Union[str, "os.PathLike[str]"]], out_dir: Union[str, "os.PathLike[str]"], *,
                  key: bytes, suffix: str = ".pc", overwrite: bool = False, client=None) -> List[str]:
    """One stream per file (``parcrypt encrypt`` format, 32-byte ``key``),
    written as ``out_dir/<name><suffix>`` by the workers; returns the paths.
    Each output appears only once complete (see ``stream.encrypt_file``).
    The key is sent to the workers."""
    outs = [os.path.join(os.fspath(out_dir), Path(p).name + suffix) for p in paths]
    with _client(client) as c:
        _gather_all(c, [c.submit(_encrypt_one, os.fspath(p), o, key, overwrite, pure=False)
                        for p, o in zip(paths, outs)])
    return outs


def decrypt_files(paths: Sequence[Union[str, "os.PathLike[str]"]], out_dir: Union[str, "os.PathLike[str]"], *,
                  key: bytes, suffix: str = ".pc", overwrite: bool = False, client=None) -> List[str]:
    """The inverse of :func:`encrypt_files` (``suffix`` removed from names)."""
    outs = []
    for p in paths:
        name = Path(p).name
        outs.append(os.path.join(os.fspath(out_dir), name[: -len(suffix)] if name.endswith(suffix) else name + ".out"))
    with _client(client) as c:
        _gather_all(c, [c.submit(_decrypt_one, os.fspath(p), o, key, overwrite, pure=False)
                        for p, o in zip(paths, outs)])
    return outs


def _seal_part(src: str, tmp: str, payload_key: bytes, segment_size: int, header_len: int, offset: int,
               length: int, last: bool) -> int:
    seg = stream.Segments.from_payload_key(payload_key, segment_size, header_len)
    with _view(src, offset, length) as data:
        sealed = seg.seal(offset // segment_size, data, last, threads=1)
    fd = os.open(tmp, os.O_WRONLY)
    try:
        at = seg.offset(offset // segment_size)
        view = memoryview(sealed)
        while view:
            n = os.pwrite(fd, view, at)
            view, at = view[n:], at + n
        os.fsync(fd)
    finally:
        os.close(fd)
    return len(sealed)


def encrypt_large(src: Union[str, "os.PathLike[str]"], dst: Union[str, "os.PathLike[str]"], *,
                  key: Optional[bytes] = None, passphrase=None, recipients=None,
                  segment_size: int = stream.DEFAULT_SEGMENT, part_size: int = DEFAULT_PART,
                  overwrite: bool = False, client=None) -> int:
    """One stream file for one large ``src``, its segments sealed by the
    workers at their offsets in a temporary file beside ``dst`` (shared file
    system), renamed to ``dst`` once every part is written. ``parcrypt
    decrypt`` reads it. The stream's payload key is sent to the workers.
    Returns the plaintext length."""
    src, dst = os.fspath(src), os.fspath(dst)
    if not overwrite and os.path.lexists(dst):
        raise FileExistsError(f"{dst} exists: pass overwrite=True to replace it")
    size = os.stat(src).st_size
    header, seg = stream.Segments.create(key=key, passphrase=passphrase, recipients=recipients,
                                         segment_size=segment_size)
    part = max(segment_size, part_size - part_size % segment_size)
    segments = max(1, -(-size // segment_size))
    total = seg.offset(segments - 1) + (size - (segments - 1) * segment_size) + 16
    offsets = list(range(0, size, part)) or [0]

    def fill(tmp: str) -> None:
        with _client(client) as c:
            futures = [c.submit(_seal_part, src, tmp, seg.payload_key, segment_size, seg.header_len, off,
                                min(part, size - off), off + part >= size, pure=False) for off in offsets]
            _gather_all(c, futures)

    _replace_when_filled(dst, header, total, fill)
    return size


def _cob_runs(chunks: int, part_size: int, slots: int) -> List[Tuple[int, int]]:
    """``(first, count)`` runs cutting a message of ``chunks`` chunks (the
    final one included): each at most about ``part_size`` bytes, their
    count a multiple of ``slots`` where there are enough chunks, their
    sizes within a chunk of each other."""
    from parcrypt.cobblestone import CHUNK

    per = max(1, part_size // CHUNK)
    runs = -(-chunks // per)
    runs = max(1, min(chunks, -(-runs // slots) * slots))
    base, extra = divmod(chunks, runs)
    out, at = [], 0
    for i in range(runs):
        n = base + (i < extra)
        out.append((at, n))
        at += n
    return out


def _pwrite_all(path: str, data: Any, at: int) -> None:
    fd = os.open(path, os.O_WRONLY)
    try:
        view = memoryview(data)
        while view:
            n = os.pwrite(fd, view, at)
            view, at = view[n:], at + n
        os.fsync(fd)
    finally:
        os.close(fd)


def _cob_seal_run(src: str, tmp: str, scheme, key: bytes, context: bytes, header: bytes, first: int, count: int,
                  size: int, last: bool) -> int:
    """Seals chunks ``first .. first + count`` of ``src`` into ``tmp`` at
    their offset; the run with the final chunk takes the rest of the file."""
    from parcrypt.cobblestone import CHUNK, Parts

    parts = scheme.parts(key, context, header)
    start = first * CHUNK
    end = size if last else start + count * CHUNK
    data = _read(src, start, end - start)
    sealed = parts.seal(first, data, last, threads=1)
    _pwrite_all(tmp, sealed, Parts.offset(first))
    return len(sealed)


def _cob_open_run(src: str, tmp: str, scheme, key: bytes, context: bytes, header: bytes, first: int, count: int,
                  size: int, last: bool) -> int:
    """Opens chunks ``first .. first + count`` of ``src`` and writes their
    plaintext into ``tmp`` at ``first * CHUNK``, only once every one of them
    verified (``InvalidTag`` otherwise, nothing written)."""
    from parcrypt.cobblestone import CHUNK, Parts

    parts = scheme.parts(key, context, header)  # the commitment, checked again here
    start = Parts.offset(first)
    end = size if last else Parts.offset(first + count)
    plain = parts.open(first, _read(src, start, end - start), last, threads=1)
    _pwrite_all(tmp, plain, first * CHUNK)
    return len(plain)


def _replace_when_filled(dst: str, head: bytes, total: int, fill: Callable[[str], None]) -> None:
    """A temporary file beside ``dst`` of ``total`` bytes starting with
    ``head``, which ``fill(path)`` completes (workers writing at their
    offsets), then renamed to ``dst``; removed instead if anything fails,
    so a failed run leaves no ``dst`` and no temporary file."""
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(os.path.abspath(dst)), prefix=f".{Path(dst).name}.",
                               suffix=".parcrypt-tmp")
    try:
        try:
            os.write(fd, head)
            os.ftruncate(fd, total)
        finally:
            os.close(fd)
        fill(tmp)
        os.replace(tmp, dst)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def _cob_run_all(c, task, src: str, tmp: str, scheme, key: bytes, context: bytes, header: bytes,
                 runs: List[Tuple[int, int]], size: int) -> None:
    last = len(runs) - 1
    futures = [c.submit(task, src, tmp, scheme, bytes(key), bytes(context), header, first, count, size, i == last,
                        pure=False) for i, (first, count) in enumerate(runs)]
    _gather_all(c, futures)


def cobblestone_encrypt(src: Union[str, "os.PathLike[str]"], dst: Union[str, "os.PathLike[str]"], key: bytes,
                        context: bytes, *, client=None, part_size: int = DEFAULT_PART, scheme=None,
                        overwrite: bool = False) -> int:
    """One Cobblestone message (``cryptography.cobblestone`` reads it) for
    one large file, sealed by the cluster: the driver draws the salt and
    writes the 56-byte header; each worker seals its own run of chunks
    (about ``part_size`` bytes, a multiple of the cluster's threads in
    number) and writes it at its offset (chunk k at ``HEADER + k *
    SEALED_CHUNK``) into a temporary file beside ``dst`` (shared file
    system), renamed to ``dst`` once every run is written. Byte-identical to
    ``cobblestone.encrypt`` given the salt. A 16-byte key is
    Cobblestone-128, a 32-byte one Cobblestone-256, unless ``scheme`` (a
    ``cobblestone.Scheme``) says otherwise. The key and context are sent to
    the workers (use Dask's TLS on a real network). Returns the plaintext
    length."""
    from parcrypt import cobblestone

    src, dst = os.fspath(src), os.fspath(dst)
    if not overwrite and os.path.lexists(dst):
        raise FileExistsError(f"{dst} exists: pass overwrite=True to replace it")
    scheme = cobblestone._scheme(key, scheme)
    size = os.stat(src).st_size
    header = scheme.parts(key, context).header
    total = cobblestone.sealed_len(size)

    def fill(tmp: str) -> None:
        with _client(client) as c:
            runs = _cob_runs(size // cobblestone.CHUNK + 1, part_size, _slots(c))
            _cob_run_all(c, _cob_seal_run, src, tmp, scheme, key, context, header, runs, size)

    _replace_when_filled(dst, header, total, fill)
    return size


def cobblestone_decrypt(src: Union[str, "os.PathLike[str]"], dst: Union[str, "os.PathLike[str]"], key: bytes,
                        context: bytes, *, client=None, part_size: int = DEFAULT_PART, scheme=None,
                        overwrite: bool = False) -> int:
    """Decrypts one Cobblestone message file across the cluster: the driver
    checks the file's length and the key commitment (``InvalidTag``, before
    any task starts); each worker opens its own run of chunks (the last run
    with the final chunk, which proves the length) and writes its plaintext,
    once all of it verified, at its offset into a temporary file beside
    ``dst``, renamed to ``dst`` only once every run verified: a wrong key or
    context, a modified, reordered, truncated or extended message leaves no
    ``dst``. Returns the plaintext length."""
    from parcrypt import cobblestone

    src, dst = os.fspath(src), os.fspath(dst)
    if not overwrite and os.path.lexists(dst):
        raise FileExistsError(f"{dst} exists: pass overwrite=True to replace it")
    scheme = cobblestone._scheme(key, scheme)
    size = os.stat(src).st_size
    plain = cobblestone.plain_len(size)
    header = bytes(_read(src, 0, cobblestone.HEADER))
    scheme.parts(key, context, header)  # the commitment, before any task starts

    def fill(tmp: str) -> None:
        with _client(client) as c:
            runs = _cob_runs(plain // cobblestone.CHUNK + 1, part_size, _slots(c))
            _cob_run_all(c, _cob_open_run, src, tmp, scheme, key, context, header, runs, size)

    _replace_when_filled(dst, b"", plain, fill)
    return plain
