"""SHA-256 Merkle trees in standard formats, on every core.

RFC 6962 / 9162 (Certificate Transparency) trees over a list of leaves or
one buffer cut into ``leaf_size``-byte leaves (numpy arrays are read in
place), with inclusion and consistency proofs; BitTorrent v2 (BEP 52)
pieces roots and piece layers; the Amazon Glacier tree hash; and
``hash_file``, which computes what ``parcrypt hash --format`` prints.

    >>> from parcrypt import merkle
    >>> root = merkle.root([b"a", b"b", b"c"])
    >>> proof = merkle.inclusion_proof([b"a", b"b", b"c"], 1)
    >>> merkle.verify_inclusion(merkle.leaf_hash(b"b"), 1, 3, proof, root)   # raises InvalidProof if wrong
"""

import os
from typing import TYPE_CHECKING, Iterable, List, Optional, Sequence, Tuple, Union

from parcrypt import _parcrypt
from parcrypt._parcrypt import CompactRange

if TYPE_CHECKING:
    from typing_extensions import Buffer  # any bytes-like object (PEP 688)
else:
    Buffer = object

__all__ = [
    "hash_files", "CompactRange", "bittorrent_piece_hashes", "bittorrent_root_from_pieces", "rfc6962_path",
    "root", "inclusion_proof", "consistency_proof", "verify_inclusion", "verify_consistency",
    "leaf_hash", "node_hash", "bittorrent_v2", "glacier", "hash_file", "check", "hash_tree",
]

Leaves = Union[Sequence["Buffer"], "Buffer"]


def root(leaves: Leaves, *, leaf_size: Optional[int] = None, threads: Optional[int] = None,
         strategy: str = "steal") -> bytes:
    """The RFC 6962 tree head (32 bytes) of ``leaves``: a sequence of
    bytes-like objects, or with ``leaf_size`` one buffer cut into leaves of
    that many bytes (the last may be shorter). No leaves: SHA-256 of nothing."""
    return _parcrypt.rfc6962_root(leaves, leaf_size=leaf_size, threads=threads, strategy=strategy)


def inclusion_proof(leaves: Leaves, index: int, *, leaf_size: Optional[int] = None,
                    threads: Optional[int] = None, strategy: str = "steal") -> List[bytes]:
    """The audit path (RFC 9162 §2.1.3) of leaf ``index``."""
    return _parcrypt.rfc6962_inclusion_proof(leaves, index, leaf_size=leaf_size, threads=threads,
                                             strategy=strategy)


def consistency_proof(leaves: Leaves, old_size: int, new_size: int, *, leaf_size: Optional[int] = None,
                      threads: Optional[int] = None, strategy: str = "steal") -> List[bytes]:
    """The consistency proof (RFC 9162 §2.1.4) between the trees of the first
    ``old_size`` and the first ``new_size`` leaves."""
    return _parcrypt.rfc6962_consistency_proof(leaves, old_size, new_size, leaf_size=leaf_size,
                                               threads=threads, strategy=strategy)


def verify_inclusion(leaf_hash: Buffer, index: int, tree_size: int, proof: Sequence[Buffer],
                     root: Buffer) -> None:
    """Returns None if ``proof`` shows the leaf with hash ``leaf_hash`` at
    ``index`` in the tree of ``tree_size`` leaves with head ``root``; raises
    ``InvalidProof`` otherwise (``ValueError`` for impossible arguments)."""
    _parcrypt.rfc6962_verify_inclusion(leaf_hash, index, tree_size, proof, root)


def verify_consistency(old_size: int, new_size: int, old_root: Buffer, new_root: Buffer,
                       proof: Sequence[Buffer]) -> None:
    """Returns None if ``proof`` shows the tree ``old_root`` is a prefix of
    ``new_root``; raises ``InvalidProof`` otherwise."""
    _parcrypt.rfc6962_verify_consistency(old_size, new_size, old_root, new_root, proof)


def leaf_hash(data: Buffer) -> bytes:
    """SHA-256(0x00 ‖ data): an RFC 6962 leaf hash."""
    return _parcrypt.rfc6962_leaf_hash(data)


def node_hash(left: Buffer, right: Buffer) -> bytes:
    """SHA-256(0x01 ‖ left ‖ right): an RFC 6962 interior node."""
    return _parcrypt.rfc6962_node_hash(left, right)


def bittorrent_v2(data: Buffer, *, piece_length: int = 16384, threads: Optional[int] = None,
                  strategy: str = "steal") -> Tuple[Optional[bytes], List[bytes]]:
    """BEP 52 for one file's bytes: ``(pieces_root, piece_layer)``.
    ``pieces_root`` is None for empty data; ``piece_layer`` (one hash per
    piece of ``piece_length`` bytes, a power of two ≥ 16 KiB) is empty when
    the file is not larger than one piece, as BEP 52 omits it then."""
    return _parcrypt.bittorrent_v2(data, piece_length=piece_length, threads=threads, strategy=strategy)


def glacier(data: Buffer, *, threads: Optional[int] = None, strategy: str = "steal") -> bytes:
    """The Amazon Glacier tree hash (``x-amz-sha256-tree-hash``, 1 MiB chunks)."""
    return _parcrypt.glacier(data, threads=threads, strategy=strategy)


def hash_file(path, format: str = "sha256", *, leaf_size: int = 4096, threads: Optional[int] = None,
              strategy: str = "steal") -> Optional[bytes]:
    """The digest ``parcrypt hash --format FORMAT`` prints for the file at
    ``path``: "sha256", "rfc6962" (over ``leaf_size``-byte leaves),
    "bittorrent-v2" (pieces root; None for an empty file) or "glacier".
    Files are read with positional reads (``pread``), never memory-mapped,
    in bounded memory: a file truncated while it is read raises ``OSError``
    (never SIGBUS)."""
    return _parcrypt.hash_file(path, format, leaf_size=leaf_size, threads=threads, strategy=strategy)


def bittorrent_piece_hashes(data: "Buffer", piece_length: int, *, threads: Optional[int] = None,
                            strategy: str = "steal") -> List[bytes]:
    """BEP 52 piece-layer hashes of a part of a file that starts at a piece
    boundary (a short last piece padded as in the file's tree): the parts'
    lists concatenated are the file's piece layer."""
    return _parcrypt.bittorrent_piece_hashes(data, piece_length, threads=threads, strategy=strategy)


def bittorrent_root_from_pieces(layer: Sequence["Buffer"], piece_length: int) -> bytes:
    """The pieces root of a file longer than one piece, from its piece layer."""
    return _parcrypt.bittorrent_root_from_pieces(layer, piece_length)


def rfc6962_path(nodes: Sequence["Buffer"], index: int) -> List[bytes]:
    """The RFC 6962 audit path of ``nodes[index]`` among subtree roots: with
    leaves cut into parts of 2^j leaves, a leaf's proof is its proof inside
    its part followed by ``rfc6962_path(part_roots, part_index)``."""
    return _parcrypt.rfc6962_path(nodes, index)


def hash_files(paths: Sequence[Union[str, "os.PathLike[str]"]], format: str = "sha256", *, leaf_size: int = 4096,
               threads: Optional[int] = None, strategy: str = "steal") -> List[Union[bytes, None, Exception]]:
    """What ``parcrypt hash --format FORMAT PATHS...`` computes, in one call:
    files spread over the threads (large tree-format files with every
    thread), one entry per path in order — the digest, None for an empty
    file in "bittorrent-v2", or the exception (``OSError``, ``ValueError``)
    that file raised (a file truncated while it is read: ``OSError``); the
    other files are still hashed."""
    return _parcrypt.hash_files(paths, format, leaf_size=leaf_size, threads=threads, strategy=strategy)


def check(lines_or_path: Union[str, bytes, "os.PathLike[str]", Iterable[Union[str, bytes]]], *,
          format: str = "sha256", leaf_size: int = 4096, threads: Optional[int] = None,
          strategy: str = "steal", ignore_missing: bool = False, zero: bool = False) -> List[Tuple[str, str]]:
    """Verifies a checksum list as ``parcrypt hash --check`` and ``sha256sum -c``
    do, with the listed files hashed on all cores (``threads``: None or 0 for
    every core).

    ``lines_or_path`` is the path of a list (``str``, ``bytes`` or
    ``os.PathLike``), or its lines (any other iterable of ``str``/``bytes``,
    a trailing newline dropped). Every form ``sha256sum`` reads is read:
    ``HASH  NAME``, ``HASH *NAME``, escaped lines (a leading backslash),
    ``SHA256 (NAME) = HASH``, and the tags ``parcrypt hash --tag`` writes for
    the tree formats; untagged lines are in ``format`` ("sha256", "rfc6962"
    with ``leaf_size``, "bittorrent-v2", "glacier"). With ``zero`` the list's
    lines end in NUL (``sha256sum -z``) and names are taken as they are.

    Returns ``(name, status)`` per line, in order: "OK", "FAILED" or "FAILED
    open or read" for a listed file (a missing one is left out with
    ``ignore_missing``), "improperly formatted" for a line that is not a
    checksum line (its text as the name). Blank and ``#`` lines give nothing.
    Names are decoded as ``os.fsdecode`` decodes them. The list is read in
    bounded memory; a line over 16 MiB counts as improperly formatted.

        >>> results = merkle.check("SHA256SUMS")
        >>> ok = all(status == "OK" for _, status in results)
    """
    if isinstance(lines_or_path, (str, bytes, os.PathLike)):
        return _parcrypt.check_sums(os.fsdecode(lines_or_path), None, format, leaf_size=leaf_size,
                                    threads=threads, strategy=strategy, ignore_missing=ignore_missing, zero=zero)
    lines = [line.encode("utf-8", "surrogateescape") if isinstance(line, str) else bytes(line)
             for line in lines_or_path]
    return _parcrypt.check_sums(None, lines, format, leaf_size=leaf_size, threads=threads, strategy=strategy,
                                ignore_missing=ignore_missing, zero=zero)


def hash_tree(directory: Union[str, "os.PathLike[str]"], format: str = "sha256", *, leaf_size: int = 4096,
              threads: Optional[int] = None, strategy: str = "steal",
              follow_symlinks: bool = False) -> List[Tuple[str, Union[bytes, None, Exception]]]:
    """What ``parcrypt hash -r DIRECTORY`` lists: ``(path, digest)`` for every
    regular file under ``directory``, in byte order of the paths (as
    ``find DIRECTORY -type f | LC_ALL=C sort``), paths starting with
    ``directory`` as given; files hashed on all cores. The digest is None for
    an empty file in "bittorrent-v2", or the exception the file raised; a
    directory that cannot be read appears with its ``OSError``. FIFOs,
    sockets and devices are left out; symbolic links inside are followed only
    with ``follow_symlinks`` (loops left out).

    A manifest ``sha256sum -c`` and :func:`check` read::

        for path, digest in merkle.hash_tree("dir"):
            out.write(f"{digest.hex()}  {path}\\n")   # names without a backslash, newline or CR
    """
    return [(os.fspath(p), d) for p, d in
            _parcrypt.hash_tree(os.fspath(directory), format, leaf_size=leaf_size, threads=threads,
                                strategy=strategy, follow_symlinks=follow_symlinks)]
