"""The exceptions parcrypt raises (besides ValueError, TypeError and OSError)."""


class InvalidTag(Exception):
    """An authentication tag did not match: wrong key, nonce or associated
    data, or the ciphertext or tag was modified. No plaintext was returned."""


class InvalidSignature(Exception):
    """A signature does not verify (or cannot be parsed)."""


class InvalidProof(Exception):
    """A Merkle inclusion or consistency proof does not lead to the given root."""


class HazmatWarning(UserWarning):
    """A primitive without integrity or with known weaknesses (ECB, unpadded
    CBC, RC4, PARC4) was used: for compatibility and study only."""


__all__ = ["InvalidTag", "InvalidSignature", "InvalidProof", "HazmatWarning"]
