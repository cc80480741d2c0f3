"""SLH-DSA (FIPS 205, stateless hash-based signatures) on every core: all
twelve parameter sets, keys byte for byte as OpenSSL 3.5 writes them.

    >>> from parcrypt import slhdsa
    >>> key = slhdsa.SLHDSAPrivateKey.generate("SLH-DSA-SHA2-128f")
    >>> sig = key.sign(b"release manifest", b"my-app-v1")      # hedged; context optional
    >>> key.public_key().verify(sig, b"release manifest", b"my-app-v1")   # raises InvalidSignature if bad
    >>> pem = key.private_bytes("PEM", "PKCS8")                # openssl pkey reads it
    >>> slhdsa.verify_batch([(key.public_key(), b"release manifest", sig, b"my-app-v1")])
    [True]

Parameter sets are named as the standard names them (``"SLH-DSA-SHA2-128s"``,
any case) or by ``ParameterSet`` members. ``s`` sets make small signatures
slowly, ``f`` sets large ones fast; SHA2 and SHAKE are the two hash families.

Signatures are hedged by default (a fresh random ``opt_rand``), deterministic
with ``deterministic=True``; ``prehash="sha256"`` (``"sha512"``,
``"shake128"``, ``"shake256"``, …) signs HashSLH-DSA. Key generation, key
loading (a private key's root is rebuilt and checked), signing and
verification release the GIL and use ``threads`` cores (``None``: all).
"""

import enum
from typing import TYPE_CHECKING, Iterable, List, Optional, Tuple, Union

from parcrypt import _parcrypt
from parcrypt._parcrypt import SLHDSAPrivateKey, SLHDSAPublicKey

if TYPE_CHECKING:
    from typing_extensions import Buffer

__all__ = ["ParameterSet", "SLHDSAPrivateKey", "SLHDSAPublicKey", "load_private_key", "load_public_key",
           "verify_batch"]


class ParameterSet(str, enum.Enum):
    """The twelve parameter sets of FIPS 205, valued by their names (so a
    member is accepted wherever a name is)."""

    SHA2_128S = "SLH-DSA-SHA2-128s"
    SHAKE_128S = "SLH-DSA-SHAKE-128s"
    SHA2_128F = "SLH-DSA-SHA2-128f"
    SHAKE_128F = "SLH-DSA-SHAKE-128f"
    SHA2_192S = "SLH-DSA-SHA2-192s"
    SHAKE_192S = "SLH-DSA-SHAKE-192s"
    SHA2_192F = "SLH-DSA-SHA2-192f"
    SHAKE_192F = "SLH-DSA-SHAKE-192f"
    SHA2_256S = "SLH-DSA-SHA2-256s"
    SHAKE_256S = "SLH-DSA-SHAKE-256s"
    SHA2_256F = "SLH-DSA-SHA2-256f"
    SHAKE_256F = "SLH-DSA-SHAKE-256f"

    def __str__(self) -> str:
        return self.value


def load_private_key(
    data: "Buffer",
    password: Optional["Buffer"] = None,
    *,
    threads: Optional[int] = None,
    strategy: str = "steal",
) -> SLHDSAPrivateKey:
    """A private key from PEM (``PRIVATE KEY``, ``ENCRYPTED PRIVATE KEY``) or
    DER (PKCS#8, encrypted or not), as OpenSSL 3.5 writes them. An encrypted
    key needs its ``password``, as with ``cryptography``: a missing
    password, or one given for a key that is not encrypted, is a
    ``TypeError``; a wrong one a ``ValueError``. The key's top tree is
    rebuilt and checked (the cost of a key generation) on ``threads``
    (``None`` or 0: every core)."""
    return _parcrypt.slhdsa_load_private_key(data, password, threads=threads, strategy=strategy)


def load_public_key(data: "Buffer") -> SLHDSAPublicKey:
    """A public key from PEM ``PUBLIC KEY`` or DER ``SubjectPublicKeyInfo``."""
    return _parcrypt.slhdsa_load_public_key(data)


def verify_batch(items: Iterable[Union[Tuple[SLHDSAPublicKey, "Buffer", "Buffer"],
                                       Tuple[SLHDSAPublicKey, "Buffer", "Buffer", Optional["Buffer"]]]], *,
                 threads: Optional[int] = None, strategy: str = "steal") -> List[bool]:
    """Verifies ``(public_key, data, signature)`` or ``(public_key, data,
    signature, context)`` items (pure SLH-DSA) across cores; returns one
    bool per item, in order (a signature of the wrong length is False)."""
    return _parcrypt.slhdsa_verify_batch(items, threads=threads, strategy=strategy)
