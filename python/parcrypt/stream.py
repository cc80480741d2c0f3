"""The ``stream`` file format: authenticated (AES-256-GCM segments),
seekable, sealed and opened on every core — the same files as the CLI's
``parcrypt encrypt`` / ``decrypt`` (docs/FORMAT.md), in both directions.

    >>> from parcrypt import stream
    >>> stream.encrypt_file("big.iso", "big.iso.pc", key=key32)        # or passphrase="…", recipients=[rsa_pub]
    >>> stream.decrypt_file("big.iso.pc", "big.iso", key=key32)
    >>> stream.decrypt_file("big.iso.pc", "part.bin", key=key32, range=(1 << 20, 4096))  # reads 1-2 segments

Files are written safely: into a temporary file beside ``dst``, synced,
then renamed over it only on success — a wrong key, a tampered or
truncated stream leaves no ``dst`` at all. An existing ``dst`` is refused
unless ``overwrite=True``.

``encrypt`` / ``decrypt`` take binary file objects (or paths) instead, for
pipes and sockets: ``decrypt`` writes each batch of segments once it has
verified, so on an error the object may have received the verified part
before it (never unverified bytes).

Errors: ``NoIdentityError`` (no recipient matches; also an ``AgeError``,
and still caught as ``WrongKeyError``, its old name), ``InvalidTag`` (a segment
or the header was modified), ``TruncatedError``, ``StreamError`` (not a
stream, malformed header), ``ValueError`` (bad arguments, a passphrase
stanza costlier than ``max_work_factor``), ``OSError``.
"""

import os
import tempfile
from pathlib import Path
from typing import BinaryIO, Callable, Optional, Sequence, Tuple, Union

from parcrypt import _parcrypt
from parcrypt._parcrypt import Segments
from parcrypt.rsa import RSAPrivateKey, RSAPublicKey

__all__ = ["encrypt_file", "decrypt_file", "encrypt", "decrypt", "Segments", "DEFAULT_SEGMENT"]

DEFAULT_SEGMENT = 1 << 20
PathLike = Union[str, "os.PathLike[str]"]


def _atomic(dst: PathLike, overwrite: bool, src: object, write: Callable[[str], int]) -> int:
    dst = Path(dst)
    if not overwrite and os.path.lexists(dst):
        raise FileExistsError(f"{dst} exists: pass overwrite=True to replace it")
    if isinstance(src, (str, os.PathLike)) and os.path.exists(dst) and os.path.samefile(src, dst):
        raise ValueError("src and dst are the same file")
    fd, tmp = tempfile.mkstemp(dir=dst.parent, prefix=f".{dst.name}.", suffix=".parcrypt-tmp")
    os.close(fd)
    try:
        n = write(tmp)
        os.replace(tmp, dst)
        return n
    except BaseException:
        os.unlink(tmp)
        raise


def _to_dst(dst: Union[BinaryIO, PathLike], overwrite: bool, src: object, write: Callable[[object], int]) -> int:
    """Runs ``write`` on ``dst`` itself when it is a binary file object, else
    on a temporary file that replaces the path ``dst`` once ``write`` returns
    (:func:`_atomic`)."""
    if hasattr(dst, "write"):
        return write(dst)
    return _atomic(dst, overwrite, src, write)  # type: ignore[arg-type]


def encrypt_file(src: PathLike, dst: PathLike, *, key: Optional[bytes] = None, passphrase: Union[str, bytes, None] = None,
                 recipients: Optional[Sequence[RSAPublicKey]] = None, segment_size: int = DEFAULT_SEGMENT,
                 scrypt_log2_n: int = 18, overwrite: bool = False, threads: Optional[int] = None,
                 strategy: str = "steal") -> int:
    """Encrypts the file ``src`` into a new file ``dst`` for a 32-byte
    ``key``, a ``passphrase`` (alone: scrypt N = 2^scrypt_log2_n), and/or RSA
    ``recipients``; returns the plaintext length."""
    return _atomic(dst, overwrite, src, lambda tmp: _parcrypt.stream_encrypt(
        src, tmp, key=key, passphrase=passphrase, recipients=recipients, segment_size=segment_size,
        scrypt_log2_n=scrypt_log2_n, threads=threads, strategy=strategy))


def decrypt_file(src: PathLike, dst: PathLike, *, key: Optional[bytes] = None, passphrase: Union[str, bytes, None] = None,
                 identity: Optional[RSAPrivateKey] = None, range: Optional[Tuple[int, int]] = None,
                 max_work_factor: int = 20, overwrite: bool = False, threads: Optional[int] = None,
                 strategy: str = "steal") -> int:
    """Decrypts the stream file ``src`` into a new file ``dst`` with exactly
    one of ``key``, ``passphrase`` or ``identity``; ``range=(start, length)``
    decrypts only those plaintext bytes. Returns the bytes written. ``dst``
    appears only once everything written verified."""
    return _atomic(dst, overwrite, src, lambda tmp: _parcrypt.stream_decrypt(
        src, tmp, key=key, passphrase=passphrase, identity=identity, range=range,
        max_work_factor=max_work_factor, threads=threads, strategy=strategy))


def encrypt(src: Union[BinaryIO, PathLike], dst: BinaryIO, *, key: Optional[bytes] = None,
            passphrase: Union[str, bytes, None] = None, recipients: Optional[Sequence[RSAPublicKey]] = None,
            segment_size: int = DEFAULT_SEGMENT, scrypt_log2_n: int = 18, threads: Optional[int] = None,
            strategy: str = "steal") -> int:
    """Encrypts from a binary file object (or path) into a binary file object."""
    return _parcrypt.stream_encrypt(src, dst, key=key, passphrase=passphrase, recipients=recipients,
                                    segment_size=segment_size, scrypt_log2_n=scrypt_log2_n, threads=threads,
                                    strategy=strategy)


def decrypt(src: Union[BinaryIO, PathLike], dst: BinaryIO, *, key: Optional[bytes] = None,
            passphrase: Union[str, bytes, None] = None, identity: Optional[RSAPrivateKey] = None,
            max_work_factor: int = 20, threads: Optional[int] = None, strategy: str = "steal") -> int:
    """Decrypts from a binary file object (or path) into a binary file object."""
    return _parcrypt.stream_decrypt(src, dst, key=key, passphrase=passphrase, identity=identity,
                                    max_work_factor=max_work_factor, threads=threads, strategy=strategy)
