"""ECDSA batch verification on the cluster: ``verify_batch``."""

import itertools
from typing import Any, Dict, List, Optional, Sequence, Tuple

from parcrypt import ecdsa

from ._common import _client, _delayed

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
