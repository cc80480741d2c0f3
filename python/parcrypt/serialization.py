"""Keys from PEM or DER, private ones with or without a password, in
``cryptography``'s shape: RSA, P-256, SLH-DSA, ML-DSA and ML-KEM (the
loaders return whichever the data holds, the family picked once by the
key's algorithm OID, an encrypted key decrypted once).

    >>> from parcrypt import ecdsa, serialization
    >>> from parcrypt.serialization import Encoding, PrivateFormat
    >>> key = ecdsa.generate_private_key()
    >>> pem = key.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, serialization.BestAvailableEncryption(b"hunter2"))
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
``private_bytes``/``public_bytes`` of every key take ``cryptography``'s
own ``Encoding``, ``PrivateFormat``, ``PublicFormat``,
``BestAvailableEncryption`` and ``NoEncryption`` as well as these (equal
members, for code without ``cryptography``), or the members' names as
strings (``"PEM"``, ``"PKCS8"``).
"""

import enum
from typing import TYPE_CHECKING, Optional, Union

from parcrypt import _parcrypt
from parcrypt._parcrypt import (ECPrivateKey, ECPublicKey, MLDSA44PrivateKey, MLDSA44PublicKey, MLDSA65PrivateKey,
                                MLDSA65PublicKey, MLDSA87PrivateKey, MLDSA87PublicKey, MLKEM512PrivateKey,
                                MLKEM512PublicKey, MLKEM768PrivateKey, MLKEM768PublicKey, MLKEM1024PrivateKey,
                                MLKEM1024PublicKey, RSAPrivateKey, RSAPublicKey, SLHDSAPrivateKey, SLHDSAPublicKey)

if TYPE_CHECKING:
    from typing_extensions import Buffer

__all__ = ["BestAvailableEncryption", "Encoding", "KeySerializationEncryption", "NoEncryption", "PrivateFormat",
           "PublicFormat", "load_der_private_key", "load_der_public_key", "load_pem_private_key",
           "load_pem_public_key"]

PrivateKey = Union[RSAPrivateKey, ECPrivateKey, SLHDSAPrivateKey, MLDSA44PrivateKey, MLDSA65PrivateKey,
                   MLDSA87PrivateKey, MLKEM512PrivateKey, MLKEM768PrivateKey, MLKEM1024PrivateKey]
PublicKey = Union[RSAPublicKey, ECPublicKey, SLHDSAPublicKey, MLDSA44PublicKey, MLDSA65PublicKey,
                  MLDSA87PublicKey, MLKEM512PublicKey, MLKEM768PublicKey, MLKEM1024PublicKey]


class Encoding(enum.Enum):
    """How a key is written (``cryptography``'s ``Encoding``, same members and values)."""

    PEM = "PEM"
    DER = "DER"
    OpenSSH = "OpenSSH"
    Raw = "Raw"
    X962 = "ANSI X9.62"
    SMIME = "S/MIME"


class PrivateFormat(enum.Enum):
    """Which encoding of a private key (``cryptography``'s ``PrivateFormat``)."""

    PKCS8 = "PKCS8"
    TraditionalOpenSSL = "TraditionalOpenSSL"
    Raw = "Raw"
    OpenSSH = "OpenSSH"
    PKCS12 = "PKCS12"


class PublicFormat(enum.Enum):
    """Which encoding of a public key (``cryptography``'s ``PublicFormat``)."""

    SubjectPublicKeyInfo = "X.509 subjectPublicKeyInfo with PKCS#1"
    PKCS1 = "Raw PKCS#1"
    OpenSSH = "OpenSSH"
    Raw = "Raw"
    CompressedPoint = "X9.62 Compressed Point"
    UncompressedPoint = "X9.62 Uncompressed Point"


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


def _pem(data: "Buffer") -> "Buffer":
    if b"-----BEGIN " not in bytes(data):
        raise ValueError("Could not deserialize key data: no PEM block")
    return data


def load_pem_private_key(
    data: "Buffer",
    password: Optional["Buffer"] = None,
    *,
    allow_costly_kdf: bool = False,
    threads: Optional[int] = None,
    strategy: str = "steal",
) -> PrivateKey:
    """A private key of any family from PEM: ``PRIVATE KEY``, ``ENCRYPTED
    PRIVATE KEY``, ``RSA PRIVATE KEY`` or ``EC PRIVATE KEY``. An SLH-DSA
    key's top tree is rebuilt (the cost of a key generation) on ``threads``
    (``None`` or 0: every core); other keys are only parsed."""
    return _parcrypt.load_private_key(
        _pem(data), password, allow_costly_kdf=allow_costly_kdf, threads=threads, strategy=strategy
    )


def load_der_private_key(
    data: "Buffer",
    password: Optional["Buffer"] = None,
    *,
    allow_costly_kdf: bool = False,
    threads: Optional[int] = None,
    strategy: str = "steal",
) -> PrivateKey:
    """A private key of any family from DER: PKCS#8 (encrypted or not),
    PKCS#1 or SEC1; ``threads`` as for :func:`load_pem_private_key`."""
    return _parcrypt.load_private_key(
        data, password, allow_costly_kdf=allow_costly_kdf, threads=threads, strategy=strategy
    )


def load_pem_public_key(data: "Buffer") -> PublicKey:
    """A public key of any family from PEM: ``PUBLIC KEY`` (or ``RSA PUBLIC KEY``)."""
    return _parcrypt.load_public_key(_pem(data))


def load_der_public_key(data: "Buffer") -> PublicKey:
    """A public key of any family from DER ``SubjectPublicKeyInfo`` (or PKCS#1 for RSA)."""
    return _parcrypt.load_public_key(data)
