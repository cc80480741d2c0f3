"""The exceptions parcrypt raises (besides ValueError, TypeError and OSError).

Where pyca/cryptography is installed, ``InvalidTag``, ``AlreadyFinalized``
and ``InvalidSignature`` are subclasses of its exceptions of the same names,
so code written for pyca (``except cryptography.exceptions.InvalidSignature``)
catches parcrypt's too when only its import changed to a parcrypt drop-in."""

try:  # pyca's classes as bases when present: the drop-ins raise what pyca code catches
    from cryptography.exceptions import AlreadyFinalized as _FinalizedBase
    from cryptography.exceptions import InvalidSignature as _SignatureBase
    from cryptography.exceptions import InvalidTag as _TagBase
except ImportError:  # pragma: no cover - exercised where cryptography is absent
    _TagBase = _FinalizedBase = _SignatureBase = Exception  # type: ignore[misc,assignment]


class InvalidTag(_TagBase):
    """An authentication tag did not match: wrong key, nonce or associated
    data, or the ciphertext or tag was modified. No plaintext was returned
    (an output buffer given to ``decrypt_into`` is zeroed)."""


class AlreadyFinalized(_FinalizedBase):
    """A context was used after ``finalize()``, or a Cobblestone decryptor
    after it failed (as ``cryptography.exceptions.AlreadyFinalized``)."""


class InvalidSignature(_SignatureBase):
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
