"""Encrypted files on the cluster: many files (``encrypt_files``,
``decrypt_files``), one large stream (``encrypt_large``) and one
Cobblestone message (``cobblestone_encrypt``, ``cobblestone_decrypt``)."""

import contextlib
import os
import tempfile
from pathlib import Path
from typing import Any, Callable, List, Optional, Sequence, Tuple, Union

from parcrypt import stream

from ._common import DEFAULT_PART, _client, _gather_all, _read, _slots, _view

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
