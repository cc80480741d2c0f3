"""AES-CTR, AES-CBC and AES-ECB, byte-identical to ``cryptography``'s
``Cipher(algorithms.AES(key), modes.CTR/CBC/ECB(...))`` (plus its PKCS7
padder for CBC and ECB), parallel where the mode allows: CTR both ways, CBC
decryption, ECB both ways. CBC encryption is serial by nature.

These modes do not authenticate: prefer ``parcrypt.aead.AESGCM`` or the
``parcrypt`` stream format. ECB, and CBC/ECB without padding, emit
``parcrypt.exceptions.HazmatWarning``.

One shot::

    ct = ciphers.encrypt("ctr", key, nonce16, data)
    pt = ciphers.decrypt("cbc", key, iv, ct, threads=4)

Incremental (``update`` / ``update_into`` / ``finalize``)::

    enc = ciphers.encryptor("cbc", key, iv)
    out = enc.update(part1) + enc.update(part2) + enc.finalize()
"""

import warnings
from typing import TYPE_CHECKING, Optional

from parcrypt import _parcrypt

if TYPE_CHECKING:
    from typing_extensions import Buffer  # any bytes-like object (PEP 688)
else:
    Buffer = object
from parcrypt._parcrypt import CipherContext
from parcrypt.exceptions import HazmatWarning

__all__ = ["encrypt", "decrypt", "encryptor", "decryptor", "CipherContext", "MODES"]

MODES = ("ctr", "cbc", "ecb")



def _warn(mode: str, padding: bool) -> None:
    if mode == "ecb":
        warnings.warn("AES-ECB leaks patterns and has no integrity (hazmat)", HazmatWarning, stacklevel=3)
    elif mode == "cbc" and not padding:
        warnings.warn("AES-CBC without padding has no integrity and needs whole blocks (hazmat)",
                      HazmatWarning, stacklevel=3)


def encryptor(mode: str, key: Buffer, iv: Optional[Buffer] = None, *, padding: bool = True,
              threads: Optional[int] = None, strategy: str = "steal") -> CipherContext:
    """An incremental encryption in ``mode`` ("ctr", "cbc" or "ecb"); ``iv``
    is the 16-byte IV (CBC) or initial counter block (CTR), None for ECB;
    ``padding`` (PKCS#7) applies to CBC and ECB."""
    _warn(mode, padding)
    return _parcrypt.cipher_context(mode, key, iv, True, padding=padding, threads=threads, strategy=strategy)


def decryptor(mode: str, key: Buffer, iv: Optional[Buffer] = None, *, padding: bool = True,
              threads: Optional[int] = None, strategy: str = "steal") -> CipherContext:
    """An incremental decryption; see :func:`encryptor`."""
    _warn(mode, padding)
    return _parcrypt.cipher_context(mode, key, iv, False, padding=padding, threads=threads, strategy=strategy)


def _need_iv(mode: str, iv: Optional[Buffer]) -> Buffer:
    if iv is None:
        raise ValueError(f"mode {mode!r} needs a 16-byte iv/nonce")
    return iv


def encrypt(mode: str, key: Buffer, iv: Optional[Buffer], data: Buffer, *, padding: bool = True,
            threads: Optional[int] = None, strategy: str = "steal") -> bytes:
    """``data`` encrypted in one call."""
    if mode == "ctr":
        return _parcrypt.ctr_apply(key, _need_iv(mode, iv), data, threads=threads, strategy=strategy)
    if mode == "cbc" and padding:
        return _parcrypt.cbc_encrypt(key, _need_iv(mode, iv), data)
    _warn(mode, padding)
    ctx = _parcrypt.cipher_context(mode, key, iv, True, padding=padding, threads=threads, strategy=strategy)
    return ctx.update(data) + ctx.finalize()


def decrypt(mode: str, key: Buffer, iv: Optional[Buffer], data: Buffer, *, padding: bool = True,
            threads: Optional[int] = None, strategy: str = "steal") -> bytes:
    """``data`` decrypted in one call; a wrong key or bad padding raises one
    opaque ``ValueError`` (no padding oracle detail)."""
    if mode == "ctr":
        return _parcrypt.ctr_apply(key, _need_iv(mode, iv), data, threads=threads, strategy=strategy)
    if mode == "cbc" and padding:
        return _parcrypt.cbc_decrypt(key, _need_iv(mode, iv), data, threads=threads, strategy=strategy)
    _warn(mode, padding)
    ctx = _parcrypt.cipher_context(mode, key, iv, False, padding=padding, threads=threads, strategy=strategy)
    return ctx.update(data) + ctx.finalize()
