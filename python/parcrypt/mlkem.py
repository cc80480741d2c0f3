"""ML-KEM (FIPS 203) key encapsulation, a drop-in for pyca/cryptography
50's ``cryptography.hazmat.primitives.asymmetric.mlkem``: the same classes,
methods, bytes and exceptions, so changing the import is the only change
(``MLKEM512PrivateKey``/``MLKEM512PublicKey`` come in addition).

    >>> from parcrypt import mlkem      # was: from cryptography.hazmat.primitives.asymmetric import mlkem
    >>> key = mlkem.MLKEM768PrivateKey.generate()
    >>> shared_secret, ciphertext = key.public_key().encapsulate()
    >>> key.decapsulate(ciphertext) == shared_secret
    True

Keys are written (``private_bytes(Encoding.PEM, PrivateFormat.PKCS8,
NoEncryption())``) byte for byte as pyca and OpenSSL 3.5 write them (the
seed form). A ciphertext of the right length that was not made for the
key decapsulates to a pseudorandom secret (implicit rejection), not an
error; one of the wrong length is a ValueError.
"""

from parcrypt._parcrypt import (MLKEM512PrivateKey, MLKEM512PublicKey, MLKEM768PrivateKey, MLKEM768PublicKey,
                                MLKEM1024PrivateKey, MLKEM1024PublicKey)

__all__ = ["MLKEM512PrivateKey", "MLKEM512PublicKey", "MLKEM768PrivateKey", "MLKEM768PublicKey",
           "MLKEM1024PrivateKey", "MLKEM1024PublicKey"]
