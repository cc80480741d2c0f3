"""Keys from PEM or DER, private ones with or without a password, in
``cryptography``'s shape: RSA, P-256 and SLH-DSA (the loaders return
whichever the data holds).

    >>> from parcrypt import ecdsa, serialization
    >>> key = ecdsa.generate_private_key()
    >>> pem = key.private_bytes("PEM", "PKCS8", serialization.BestAvailableEncryption(b"hunter2"))
    >>> pem.startswith(b"-----BEGIN ENCRYPTED PRIVATE KEY-----")
    True
    >>> serialization.load_pem_private_key(pem, password=b"hunter2").curve
    'secp256r1'

Encrypted keys are PKCS#8 ``EncryptedPrivateKeyInfo`` with PBES2: read with
PBKDF2 (HMAC-SHA1/224/256/384/512) or scrypt and AES-128/192/256-CBC, as
OpenSSL, ``cryptography`` and the JDK write them; written as OpenSSL 3
writes them (PBKDF2-HMAC-SHA256, 2048 iterations, AES-256-CBC). OpenSSL's
legacy ``Proc-Type: 4,ENCRYPTED`` PEM (AES-CBC) is read too.

The loaders raise as ``cryptography``'s do: ``TypeError`` for a password
given for a key that is not encrypted, or none for one that is;
``ValueError`` for a wrong password or a key that cannot be read, and for
a key whose password derivation costs more than OpenSSL 3 allows (scrypt
over 32 MiB, N·r·p over 2^21, PBKDF2 over 2 000 000 iterations: about a
second of one core at most, refused before any work) unless
``allow_costly_kdf=True`` (up to 1 GiB, 2^27, 10 000 000).
``private_bytes`` takes ``cryptography``'s own ``BestAvailableEncryption``
and ``NoEncryption`` as well as these.
"""

from typing import Optional, Union

from parcrypt import _parcrypt
from parcrypt._parcrypt import (ECPrivateKey, ECPublicKey, RSAPrivateKey, RSAPublicKey, SLHDSAPrivateKey,
                                SLHDSAPublicKey)

__all__ = ["BestAvailableEncryption", "KeySerializationEncryption", "NoEncryption",
           "load_der_private_key", "load_der_public_key", "load_pem_private_key", "load_pem_public_key"]

PrivateKey = Union[RSAPrivateKey, ECPrivateKey, SLHDSAPrivateKey]
PublicKey = Union[RSAPublicKey, ECPublicKey, SLHDSAPublicKey]

# How the SLH-DSA readers say "this is no SLH-DSA key" (another algorithm's
# OID, another PEM block, not PKCS#8/SPKI at all): the others are tried then.
_NOT_SLHDSA = ("not an SLH-DSA key", "malformed key")


class KeySerializationEncryption:
    """How ``private_bytes`` protects a key: ``NoEncryption()`` or
    ``BestAvailableEncryption(password)``."""


class NoEncryption(KeySerializationEncryption):
    """The key is written in the clear."""


class BestAvailableEncryption(KeySerializationEncryption):
    """The key is written as encrypted PKCS#8 under ``password`` (1 or more bytes)."""

    def __init__(self, password: bytes) -> None:
        if not isinstance(password, bytes) or len(password) == 0:
            raise ValueError("Password must be 1 or more bytes")
        self.password = password

    def __repr__(self) -> str:
        return "BestAvailableEncryption(<redacted>)"


def _load(data: bytes, password: Optional[bytes], allow_costly_kdf: bool) -> PrivateKey:
    # SLH-DSA first: AWS-LC, under the RSA and EC readers, cannot tell its
    # OIDs from garbage. A key that is not SLH-DSA falls through with the
    # errors the other readers always gave (an encrypted one is decrypted
    # again by them: one more key derivation).
    try:
        return _parcrypt.slhdsa_load_private_key(data, password, allow_costly_kdf=allow_costly_kdf)
    except ValueError as e:
        if not str(e).startswith(_NOT_SLHDSA):
            raise
    try:
        return _parcrypt.rsa_load_private_key(data, password, allow_costly_kdf=allow_costly_kdf)
    except ValueError as e:
        # Another kind of key: try P-256 (a wrong password fails the same for both).
        if not str(e).startswith("not an RSA key"):
            raise
    return _parcrypt.ec_load_private_key(data, password, allow_costly_kdf=allow_costly_kdf)


def _load_public(data: bytes) -> PublicKey:
    try:
        return _parcrypt.slhdsa_load_public_key(data)
    except ValueError as e:
        if not str(e).startswith(_NOT_SLHDSA):
            raise
    try:
        return _parcrypt.rsa_load_public_key(data)
    except ValueError as e:
        if not str(e).startswith("not an RSA key"):
            raise
    return _parcrypt.ec_load_public_key(data)


def load_pem_private_key(
    data: bytes, password: Optional[bytes] = None, *, allow_costly_kdf: bool = False
) -> PrivateKey:
    """An RSA, P-256 or SLH-DSA private key from PEM: ``PRIVATE KEY``,
    ``ENCRYPTED PRIVATE KEY``, ``RSA PRIVATE KEY`` or ``EC PRIVATE KEY``."""
    if b"-----BEGIN " not in bytes(data):
        raise ValueError("Could not deserialize key data: no PEM block")
    return _load(data, password, allow_costly_kdf)


def load_der_private_key(
    data: bytes, password: Optional[bytes] = None, *, allow_costly_kdf: bool = False
) -> PrivateKey:
    """An RSA, P-256 or SLH-DSA private key from DER: PKCS#8 (encrypted or
    not), PKCS#1 or SEC1."""
    return _load(data, password, allow_costly_kdf)


def load_pem_public_key(data: bytes) -> PublicKey:
    """An RSA, P-256 or SLH-DSA public key from PEM: ``PUBLIC KEY`` (or
    ``RSA PUBLIC KEY``)."""
    if b"-----BEGIN " not in bytes(data):
        raise ValueError("Could not deserialize key data: no PEM block")
    return _load_public(data)


def load_der_public_key(data: bytes) -> PublicKey:
    """An RSA, P-256 or SLH-DSA public key from DER ``SubjectPublicKeyInfo``
    (or PKCS#1 for RSA)."""
    return _load_public(data)
