"""ML-DSA (FIPS 204) signatures, a drop-in for pyca/cryptography 50's
``cryptography.hazmat.primitives.asymmetric.mldsa``: the same classes,
methods, bytes and exceptions, so changing the import is the only change.

    >>> from parcrypt import mldsa      # was: from cryptography.hazmat.primitives.asymmetric import mldsa
    >>> key = mldsa.MLDSA65PrivateKey.generate()
    >>> sig = key.sign(b"release manifest", b"my-app-v1")          # hedged; context optional
    >>> key.public_key().verify(sig, b"release manifest", b"my-app-v1")   # raises InvalidSignature if bad
    >>> mldsa.verify_batch([(key.public_key(), b"release manifest", sig, b"my-app-v1")] * 3)
    [True, True, True]

Beyond pyca: ``sign_batch`` and ``verify_batch`` spread many signatures over
every core (one signature is serial and fast, a few hundred µs), and
``parcrypt.serialization``'s loaders return these classes for ML-DSA keys.
Keys are written (``private_bytes(Encoding.PEM, PrivateFormat.PKCS8,
NoEncryption())``) byte for byte as pyca and OpenSSL 3.5 write them (the
seed form); keys in OpenSSL's expanded or both forms are read too.
Signing, verifying and hashing run without the GIL; a message is read
once.
"""

from typing import TYPE_CHECKING, Iterable, List, Optional, Tuple, Union

from parcrypt import _parcrypt
from parcrypt._parcrypt import (MLDSA44PrivateKey, MLDSA44PublicKey, MLDSA65PrivateKey, MLDSA65PublicKey,
                                MLDSA87PrivateKey, MLDSA87PublicKey, MLDSAMuHasher)

if TYPE_CHECKING:
    from typing_extensions import Buffer

__all__ = ["MLDSA44PrivateKey", "MLDSA44PublicKey", "MLDSA65PrivateKey", "MLDSA65PublicKey", "MLDSA87PrivateKey",
           "MLDSA87PublicKey", "MLDSAMuHasher", "sign_batch", "verify_batch"]

PrivateKey = Union[MLDSA44PrivateKey, MLDSA65PrivateKey, MLDSA87PrivateKey]
PublicKey = Union[MLDSA44PublicKey, MLDSA65PublicKey, MLDSA87PublicKey]


def sign_batch(private_key: PrivateKey, messages: Iterable["Buffer"], context: Optional["Buffer"] = None, *,
               threads: Optional[int] = None, strategy: str = "steal") -> List[bytes]:
    """Signs every message with ``private_key`` under ``context`` across
    ``threads`` cores (``None`` or 0: all); one signature per message, in
    order, each what ``private_key.sign(message, context)`` makes."""
    return _parcrypt.mldsa_sign_batch(private_key, messages, context, threads=threads, strategy=strategy)


def verify_batch(items: Iterable[Union[Tuple[PublicKey, "Buffer", "Buffer"],
                                       Tuple[PublicKey, "Buffer", "Buffer", Optional["Buffer"]]]], *,
                 threads: Optional[int] = None, strategy: str = "steal") -> List[bool]:
    """Verifies ``(public_key, data, signature)`` or ``(public_key, data,
    signature, context)`` items across ``threads`` cores; one bool per
    item, in order (a signature of the wrong length is False; a context
    over 255 bytes is a ValueError naming the item)."""
    return _parcrypt.mldsa_verify_batch(items, threads=threads, strategy=strategy)
