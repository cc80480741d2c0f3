"""C2SP chunked-encryption (c2sp.org/chunked-encryption) and its named
Cobblestone-128 / Cobblestone-256: a drop-in for pyca/cryptography's
``cryptography.cobblestone``, with the chunks sealed and opened on every core.

    >>> from parcrypt import cobblestone        # instead of: from cryptography import cobblestone
    >>> key = cobblestone.Cobblestone128Encryptor.generate_key()
    >>> enc = cobblestone.Cobblestone128Encryptor(key, b"myapp backup")
    >>> sealed = enc.update(b"a secret message") + enc.finalize()
    >>> dec = cobblestone.Cobblestone128Decryptor(key, b"myapp backup")
    >>> dec.update(sealed) + dec.finalize()
    b'a secret message'

The four classes take the same arguments and write the same bytes as
pyca's (every ``update`` / ``update_into`` returns exactly what pyca's
returns for the same input), plus ``threads=0`` (0 or None: every core)
and ``strategy="steal"``. Errors are pyca's, from ``parcrypt.exceptions``:
``InvalidTag`` for any authentication failure (wrong key or context,
modified, reordered, truncated or extended message), ``AlreadyFinalized``
after ``finalize()`` or after a decryptor failed, ``ValueError`` for a key
of the wrong length or an ``update_into`` buffer too small (nothing done).
Each decryptor also has ``decrypt_range(source, offset, length)``, the
shape of pyca's pending random-access API.

One shot, on all cores (the key's length picks Cobblestone-128 or -256;
``scheme=`` any other)::

    sealed = cobblestone.encrypt(key, data, b"context")
    data = cobblestone.decrypt(key, sealed, b"context")
    cobblestone.encrypt_file(key, "big.iso", "big.iso.cob", b"context")
    cobblestone.decrypt_file(key, "big.iso.cob", "big.iso", b"context")   # no dst unless all verified

The generic scheme: ``Scheme(kdf_hash="sha256", aead="AEAD_CHACHA20_POLY1305")``
with ``encrypt``, ``decrypt``, ``decrypt_range`` and ``parts`` (runs of one
message's chunks, for several processes: ``parcrypt.dask.cobblestone_encrypt``).
"""

import os
from typing import TYPE_CHECKING, BinaryIO, Optional, Union

from parcrypt import _parcrypt
from parcrypt._parcrypt import (Cobblestone128Decryptor, Cobblestone128Encryptor, Cobblestone256Decryptor,
                                Cobblestone256Encryptor, Parts, Scheme)
from parcrypt.stream import _atomic

if TYPE_CHECKING:
    from typing_extensions import Buffer  # any bytes-like object (PEP 688)
else:
    Buffer = object

__all__ = ["Cobblestone128Encryptor", "Cobblestone128Decryptor", "Cobblestone256Encryptor",
           "Cobblestone256Decryptor", "Scheme", "Parts", "COBBLESTONE_128", "COBBLESTONE_256", "encrypt", "decrypt",
           "encrypt_file", "decrypt_file", "sealed_len", "plain_len", "CHUNK", "SEALED_CHUNK", "HEADER"]

#: SHA-512 and AES-128-GCM, 16-byte keys (``Cobblestone128…``).
COBBLESTONE_128 = Scheme("sha512", "AEAD_AES_128_GCM")
#: SHA-512 and AES-256-GCM, 32-byte keys (``Cobblestone256…``).
COBBLESTONE_256 = Scheme("sha512", "AEAD_AES_256_GCM")

#: Plaintext bytes of a full chunk.
CHUNK = 16 << 10
#: A sealed full chunk: the chunk and its 16-byte tag.
SEALED_CHUNK = CHUNK + 16
#: Salt (24 bytes) and key commitment (32): chunk k starts at HEADER + k * SEALED_CHUNK.
HEADER = 56

PathLike = Union[str, "os.PathLike[str]"]


def _scheme(key: Buffer, scheme: Optional[Scheme]) -> Scheme:
    """``scheme``, or Cobblestone-128 / -256 by the key's length."""
    if scheme is not None:
        return scheme
    n = memoryview(key).nbytes
    if n == 16:
        return COBBLESTONE_128
    if n == 32:
        return COBBLESTONE_256
    raise ValueError(f"key must be 16 bytes (Cobblestone-128) or 32 bytes (Cobblestone-256), not {n}; "
                     "pass scheme= for another scheme")


def sealed_len(plain: int) -> int:
    """Bytes of the message sealing ``plain`` bytes."""
    return _parcrypt.cobblestone_sealed_len(plain)


def plain_len(sealed: int) -> int:
    """Plaintext bytes of a message of ``sealed`` bytes (``InvalidTag`` if
    no message has that length)."""
    return _parcrypt.cobblestone_plain_len(sealed)


def encrypt(key: Buffer, data: Buffer, context: Buffer, *, threads: Optional[int] = 0, strategy: str = "steal",
            scheme: Optional[Scheme] = None) -> bytes:
    """One message sealing ``data`` under a fresh random salt, its chunks
    sealed on ``threads`` cores (0: all). A 16-byte key is Cobblestone-128,
    a 32-byte one Cobblestone-256, unless ``scheme`` says otherwise.
    pyca's decryptors read it."""
    return _scheme(key, scheme).encrypt(key, data, context, threads=threads, strategy=strategy)


def decrypt(key: Buffer, ciphertext: Buffer, context: Buffer, *, threads: Optional[int] = 0, strategy: str = "steal",
            scheme: Optional[Scheme] = None) -> bytes:
    """The plaintext of ``ciphertext`` (all or nothing: ``InvalidTag`` and
    no plaintext if anything does not verify)."""
    return _scheme(key, scheme).decrypt(key, ciphertext, context, threads=threads, strategy=strategy)


def encrypt_file(key: Buffer, src: Union[BinaryIO, PathLike], dst: Union[BinaryIO, PathLike], context: Buffer, *,
                 threads: Optional[int] = 0, strategy: str = "steal", scheme: Optional[Scheme] = None,
                 overwrite: bool = False) -> int:
    """Encrypts ``src`` (a path, whose chunks every worker reads with
    positional reads, or a binary file object) into ``dst``; returns the
    plaintext length. A path ``dst`` is written into a temporary file
    beside it and renamed only once complete; an existing one is refused
    unless ``overwrite=True``."""
    s = _scheme(key, scheme)
    if hasattr(dst, "write"):
        return _parcrypt.cobblestone_encrypt_file(s, key, src, dst, context, threads=threads, strategy=strategy)
    return _atomic(dst, overwrite, src, lambda tmp: _parcrypt.cobblestone_encrypt_file(
        s, key, src, tmp, context, threads=threads, strategy=strategy))


def decrypt_file(key: Buffer, src: Union[BinaryIO, PathLike], dst: Union[BinaryIO, PathLike], context: Buffer, *,
                 threads: Optional[int] = 0, strategy: str = "steal", scheme: Optional[Scheme] = None,
                 overwrite: bool = False) -> int:
    """Decrypts ``src`` into ``dst``; returns the plaintext length. A path
    ``dst`` appears only once every chunk verified (a wrong key, a modified
    or truncated message leaves no ``dst``); a file object receives each
    batch of chunks once all of it verified (on an error, perhaps the
    verified part before it, never an unverified byte)."""
    s = _scheme(key, scheme)
    if hasattr(dst, "write"):
        return _parcrypt.cobblestone_decrypt_file(s, key, src, dst, context, threads=threads, strategy=strategy)
    return _atomic(dst, overwrite, src, lambda tmp: _parcrypt.cobblestone_decrypt_file(
        s, key, src, tmp, context, threads=threads, strategy=strategy))
