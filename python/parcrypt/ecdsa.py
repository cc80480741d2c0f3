"""ECDSA over P-256 with SHA-256: keys, signatures in DER or fixed r‖s
form, and ``verify_batch`` across cores.

    >>> from parcrypt import ecdsa
    >>> key = ecdsa.generate_private_key()
    >>> sig = key.sign(b"message")                       # DER, as OpenSSL writes
    >>> key.public_key().verify(sig, b"message")         # raises InvalidSignature if bad
    >>> ecdsa.verify_batch([(key.public_key(), b"message", sig)] * 1000)   # list of 1000 bools
"""

from typing import TYPE_CHECKING, Iterable, List, Optional, Tuple

from parcrypt import _parcrypt
from parcrypt._parcrypt import ECPrivateKey, ECPublicKey

if TYPE_CHECKING:
    from typing_extensions import Buffer

__all__ = ["generate_private_key", "load_private_key", "load_public_key", "verify_batch",
           "verify_batch_digests", "ECPrivateKey", "ECPublicKey"]


def generate_private_key() -> ECPrivateKey:
    """A new P-256 key."""
    return _parcrypt.ec_generate_private_key()


def load_private_key(data, password: Optional[bytes] = None, *, allow_costly_kdf: bool = False) -> ECPrivateKey:
    """A private key from PEM (``PRIVATE KEY``, ``EC PRIVATE KEY``, ``ENCRYPTED
    PRIVATE KEY``) or DER (PKCS#8, SEC1, encrypted PKCS#8). An encrypted key
    needs its ``password``, as with ``cryptography``: a missing password, or
    one given for a key that is not encrypted, is a ``TypeError``; a wrong
    one a ``ValueError``, as is a key whose password derivation costs more
    than ``allow_costly_kdf`` allows (see ``parcrypt.serialization``)."""
    return _parcrypt.ec_load_private_key(data, password, allow_costly_kdf=allow_costly_kdf)


def load_public_key(data) -> ECPublicKey:
    """A public key from PEM/DER ``SubjectPublicKeyInfo``, a private key's
    PEM, or an X9.62/SEC1 point (65 bytes uncompressed or 33 compressed)."""
    return _parcrypt.ec_load_public_key(data)


def verify_batch(items: Iterable[Tuple[ECPublicKey, "Buffer", "Buffer"]], *, encoding: str = "der",
                 threads: Optional[int] = None, strategy: str = "steal") -> List[bool]:
    """Verifies ``(public_key, message, signature)`` items across cores;
    returns one bool per item, in order (a malformed signature is False)."""
    return _parcrypt.ec_verify_batch(items, encoding=encoding, threads=threads, strategy=strategy)


def verify_batch_digests(items: Iterable[Tuple[ECPublicKey, "Buffer", "Buffer"]], *, encoding: str = "der",
                         threads: Optional[int] = None, strategy: str = "steal") -> List[bool]:
    """``verify_batch`` over SHA-256 digests the caller computed (what
    ``cryptography`` calls ``Prehashed(SHA256())``): ``(public_key, digest,
    signature)`` items, one bool per item, in order; a digest that is not 32
    bytes raises ``ValueError``."""
    return _parcrypt.ec_verify_batch_digests(items, encoding=encoding, threads=threads, strategy=strategy)
