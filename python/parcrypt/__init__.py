"""parcrypt: multi-core cryptography over AWS-LC.

Modules, named like pyca/cryptography's:

- ``parcrypt.aead``: ``AESGCM`` (standard AES-GCM, one message across cores)
- ``parcrypt.ciphers``: AES-CTR, AES-CBC (PKCS#7), AES-ECB (hazmat, warns); one shot or incremental
- ``parcrypt.cobblestone``: a drop-in for ``cryptography.cobblestone`` (C2SP chunked-encryption) on all cores
- ``parcrypt.merkle``: RFC 6962 roots and proofs, BitTorrent v2, Glacier, file hashing
- ``parcrypt.slhdsa``: SLH-DSA (FIPS 205) keys and signatures, all 12 parameter sets, on every core
- ``parcrypt.mldsa``, ``parcrypt.mlkem``: drop-ins for pyca's ML-DSA (FIPS 204) and ML-KEM (FIPS 203), with batches on every core
- ``parcrypt.serialization``: PEM/DER key loaders (RSA, P-256, SLH-DSA, ML-DSA, ML-KEM), password-protected PKCS#8, pyca's ``Encoding``/``PrivateFormat``/``PublicFormat``
- ``parcrypt.exceptions``: ``InvalidTag``, ``AlreadyFinalized``, ``InvalidProof``, ``HazmatWarning``

Every call that can use several cores takes ``threads=None`` (all cores)
and ``strategy="steal"`` (or ``"static"``, ``"seq"``). Data arguments accept
any C-contiguous bytes-like object (bytes, bytearray, memoryview, numpy
array) without copying; work on 2 KiB or more releases the GIL.
"""

from parcrypt._parcrypt import __version__, available_threads

__all__ = ["__version__", "available_threads"]
