"""RSA: parallel key generation, PEM/DER keys, PSS and PKCS#1 v1.5
signatures, RSAES-OAEP — interoperable with ``cryptography`` and OpenSSL.

    >>> from parcrypt import rsa
    >>> key = rsa.generate_private_key(2048)          # all cores race for the primes
    >>> sig = key.sign(b"message")                     # PSS, SHA-256
    >>> key.public_key().verify(sig, b"message")       # raises InvalidSignature if bad
    >>> pem = key.private_bytes("PEM", "PKCS8")        # cryptography's load_pem_private_key reads it
    >>> key = rsa.generate_private_key(public_exponent=65537, key_size=2048)   # cryptography's call

Private operations are blinded and checked with the public key before any
result is released. Keys are 1024 to 16384 bits (multiples of 128) for
generation; any size parcrypt supports can be loaded.
"""

from typing import Optional

from parcrypt import _parcrypt
from parcrypt._parcrypt import RSAPrivateKey, RSAPublicKey

__all__ = ["generate_private_key", "load_private_key", "load_public_key", "RSAPrivateKey", "RSAPublicKey"]


def generate_private_key(key_size: Optional[int] = None, *args: object, public_exponent: int = 65537,
                         backend: object = None, threads: Optional[int] = None,
                         strategy: str = "steal") -> RSAPrivateKey:
    """A new key (e = 65537), of ``key_size`` bits (default 3072).
    ``strategy="steal"`` races every thread for each prime; ``"static"``
    searches p and q side by side (the JCE paper).

    ``cryptography``'s call works too: ``generate_private_key(65537, 2048)``
    or ``generate_private_key(public_exponent=65537, key_size=2048)``
    (``backend`` is ignored, as there); a public exponent other than 65537
    is a ValueError."""
    if args:
        # cryptography's positional order: (public_exponent, key_size[, backend]).
        if key_size is None or not isinstance(args[0], int) or len(args) > 2:
            raise TypeError("generate_private_key(key_size) or generate_private_key(public_exponent, key_size)")
        public_exponent, key_size = key_size, args[0]
    if public_exponent != 65537:
        raise ValueError("public_exponent must be 65537 (the only exponent parcrypt generates)")
    return _parcrypt.rsa_generate_private_key(3072 if key_size is None else key_size, threads=threads,
                                              strategy=strategy)


def load_private_key(data, password: Optional[bytes] = None, *, allow_costly_kdf: bool = False) -> RSAPrivateKey:
    """A private key from PEM (``PRIVATE KEY``, ``RSA PRIVATE KEY`` or
    ``ENCRYPTED PRIVATE KEY``) or DER (PKCS#8, PKCS#1 or encrypted PKCS#8).
    An encrypted key needs its ``password``, as with ``cryptography``: a
    missing password, or one given for a key that is not encrypted, is a
    ``TypeError``; a wrong one a ``ValueError``, as is a key whose password
    derivation costs more than ``allow_costly_kdf`` allows (see
    ``parcrypt.serialization``)."""
    return _parcrypt.rsa_load_private_key(data, password, allow_costly_kdf=allow_costly_kdf)


def load_public_key(data) -> RSAPublicKey:
    """A public key from PEM (``PUBLIC KEY`` or ``RSA PUBLIC KEY``) or DER
    (SPKI or PKCS#1); a private key's encoding gives its public half."""
    return _parcrypt.rsa_load_public_key(data)
