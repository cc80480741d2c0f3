"""Authenticated encryption: ``AESGCM``, as in
``cryptography.hazmat.primitives.ciphers.aead`` (same arguments, same
ciphertext ‖ tag output), with the message cut across cores.

    >>> from parcrypt.aead import AESGCM
    >>> key = AESGCM.generate_key(256)
    >>> aes = AESGCM(key)                      # threads=None: every core
    >>> nonce = bytes(12)
    >>> aes.decrypt(nonce, aes.encrypt(nonce, b"data", b"aad"), b"aad")
    b'data'

Differences from ``cryptography``: nonces are 12 bytes (GCM's standard
length) and keys 128 or 256 bits; ``threads=`` and ``strategy=`` are
accepted by the constructor (defaults) and by every call.
"""

from parcrypt._parcrypt import AESGCM

__all__ = ["AESGCM"]
