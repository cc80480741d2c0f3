"""The exceptions parcrypt raises (besides ValueError, TypeError and OSError)."""


class InvalidTag(Exception):
    """An authentication tag did not match: wrong key, nonce or associated
    data, or the ciphertext or tag was modified. No plaintext was returned
    (an output buffer given to ``decrypt_into`` is zeroed)."""


class AlreadyFinalized(Exception):
    """A context was used after ``finalize()``, or a Cobblestone decryptor
    after it failed (as ``cryptography.exceptions.AlreadyFinalized``)."""


class InvalidSignature(Exception):
    """A signature does not verify (or cannot be parsed)."""


class InvalidProof(Exception):
    """A Merkle inclusion or consistency proof does not lead to the given root."""


class StreamError(Exception):
    """Not a parcrypt stream, an unsupported version, or a malformed header."""


class TruncatedError(StreamError):
    """The stream ends early: its last segment was not sealed as the last."""


class AgeError(Exception):
    """An age file that does not open: not an age file, a malformed header
    or armor, a modified header, or a payload cut short or modified. No
    plaintext was returned."""


class NoIdentityError(StreamError, AgeError):
    """No identity given (key, passphrase, RSA or SSH key) opens any
    recipient stanza of the file's header: the one exception for it in
    ``parcrypt.stream`` and ``parcrypt.age`` alike (so it is both a
    ``StreamError`` and an ``AgeError``)."""


WrongKeyError = NoIdentityError
"""The name ``parcrypt.stream`` raised it under before: an alias of
:class:`NoIdentityError`, kept so that ``except WrongKeyError`` still
catches it."""


class HazmatWarning(UserWarning):
    """A primitive without integrity or with known weaknesses (ECB, unpadded
    CBC, RC4, PARC4) was used: for compatibility and study only."""


__all__ = ["InvalidTag", "AlreadyFinalized", "InvalidSignature", "InvalidProof", "StreamError", "TruncatedError", "WrongKeyError",
           "AgeError", "NoIdentityError", "HazmatWarning"]
