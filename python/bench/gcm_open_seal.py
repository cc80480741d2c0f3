#!/usr/bin/env python3
"""AES-GCM opening against sealing from Python, into reused buffers.

    python python/bench/gcm_open_seal.py [MiB] [repeats]

For each key size and 1 and 2 threads: `AESGCM.encrypt_into` and
`decrypt_into` of the same message into buffers allocated once, interleaved,
medians of `repeats` (7); the ratio is seal time / open time (1 = opening
as fast as sealing; docs/PERFORMANCE.md, issue #41 asks for >= 0.9).
`decrypt_into` runs twice: from the `bytearray` the seal wrote (another
thread could write it meanwhile, so it is read once through a copy) and
from an immutable `bytes` of it (read directly).
"""

import os
import statistics
import sys
import time

from parcrypt.aead import AESGCM


def main() -> None:
    mib = int(sys.argv[1]) if len(sys.argv) > 1 else 64
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 7
    n = mib << 20
    data = os.urandom(n)
    nonce = b"\x01" * 12
    for bits in (128, 256):
        key = bytes(range(bits // 8))
        for threads in (1, 2):
            gcm = AESGCM(key, threads=threads)
            sealed, plain = bytearray(n + 16), bytearray(n)
            gcm.encrypt_into(nonce, data, None, sealed)
            frozen = bytes(sealed)
            seal, open_, open_bytes = [], [], []
            for _ in range(repeats):
                t = time.perf_counter()
                gcm.encrypt_into(nonce, data, None, sealed)
                seal.append(time.perf_counter() - t)
                t = time.perf_counter()
                gcm.decrypt_into(nonce, sealed, None, plain)
                open_.append(time.perf_counter() - t)
                t = time.perf_counter()
                gcm.decrypt_into(nonce, frozen, None, plain)
                open_bytes.append(time.perf_counter() - t)
            assert plain == data
            s, o = statistics.median(seal), statistics.median(open_)
            ob = statistics.median(open_bytes)
            print(f"AES-{bits} threads={threads}: encrypt_into {n / s / 1e9:.2f} GB/s, "
                  f"decrypt_into from bytearray {n / o / 1e9:.2f} GB/s (open/seal {s / o:.2f}), "
                  f"from bytes {n / ob / 1e9:.2f} GB/s (open/seal {s / ob:.2f})")


if __name__ == "__main__":
    main()
