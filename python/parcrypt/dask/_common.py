"""What every part of ``parcrypt.dask`` shares: the cluster (a caller's
client or a LocalCluster for the call), positional reads of a part of a
file, and how inputs are cut into tasks."""

import contextlib
import os
from typing import Any, Iterator, List, Tuple

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


def _delayed(fn):
    import dask

    return dask.delayed(fn, pure=False)
