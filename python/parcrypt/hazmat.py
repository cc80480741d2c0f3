"""RC4 and PARC4: no integrity, known biases — compatibility and study only.
Every call emits ``parcrypt.exceptions.HazmatWarning``.

- ``rc4(key, data)``: RC4 keystream XOR (``openssl enc -rc4 -nosalt``, RFC 6229); serial by nature.
- ``parc4(key, nonce, data, block_size=65536, offset=0)``: the PARC4 paper's
  block-parallel RC4 made well-defined: each block gets its own key (HKDF
  from key, nonce and block index) and drops 3072 bytes, so blocks never
  share keystream (the paper's one-key-for-all-blocks did). Same function
  both ways.
"""

import warnings
from typing import Optional

from parcrypt import _parcrypt
from parcrypt.exceptions import HazmatWarning

__all__ = ["rc4", "parc4"]


def rc4(key, data) -> bytes:
    warnings.warn("RC4 is broken (biased keystream, no integrity): compatibility only", HazmatWarning, stacklevel=2)
    return _parcrypt.rc4_apply(key, data)


def parc4(key, nonce, data, *, block_size: int = 65536, offset: int = 0, threads: Optional[int] = None,
          strategy: str = "steal") -> bytes:
    warnings.warn("PARC4 is RC4 (no integrity): study only", HazmatWarning, stacklevel=2)
    return _parcrypt.parc4_apply(key, nonce, data, block_size=block_size, offset=offset, threads=threads,
                                 strategy=strategy)
