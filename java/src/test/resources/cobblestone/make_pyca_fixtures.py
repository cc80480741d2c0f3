#!/usr/bin/env python3
"""Writes the pyca/cryptography Cobblestone fixtures CobblestoneTest reads.

Run with pyca/cryptography 50.0.2 (the files checked in were made with it):

    python3 -m venv V && V/bin/pip install 'cryptography==50.0.2'
    V/bin/python make_pyca_fixtures.py        # from this folder

For each scheme (128, 256) and each size in SIZES it writes
pyca-<scheme>-<size>.cob: the plaintext `i % 251` for i < size, encrypted by
pyca's push API (fed in uneven pieces) under KEY<scheme> and CONTEXT. The
salt is pyca's own random one, so running this again makes different
(equally valid) files. Each file is decrypted again by pyca before it is
written.
"""

import os

import cryptography
from cryptography import cobblestone as c

# Fixed, public test keys: the first 16 / 32 bytes of 0x00, 0x01, ... .
KEY128 = bytes(range(16))
KEY256 = bytes(range(32))
# A context with a NUL byte in it (any bytes are allowed).
CONTEXT = b"parcrypt java fixtures\x00v1"
SIZES = [0, 1, 16383, 16384, 16385, 40000]
SCHEMES = {
    128: (KEY128, c.Cobblestone128Encryptor, c.Cobblestone128Decryptor),
    256: (KEY256, c.Cobblestone256Encryptor, c.Cobblestone256Decryptor),
}


def pattern(n):
    return bytes(i % 251 for i in range(n))


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    for bits, (key, enc_cls, dec_cls) in SCHEMES.items():
        for size in SIZES:
            plain = pattern(size)
            enc = enc_cls(key, CONTEXT)
            sealed = b""
            # Uneven pieces: 1, 7000, then the rest.
            for piece in (plain[:1], plain[1:7001], plain[7001:]):
                sealed += enc.update(piece)
            sealed += enc.finalize()
            dec = dec_cls(key, CONTEXT)
            assert dec.update(sealed) + dec.finalize() == plain
            name = f"pyca-{bits}-{size}.cob"
            with open(os.path.join(here, name), "wb") as f:
                f.write(sealed)
            print(name, len(sealed))
    print("cryptography", cryptography.__version__)


if __name__ == "__main__":
    main()
