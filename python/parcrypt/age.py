"""age files (age-encryption.org/v1) on every core: the same files as the
``age`` CLI, rage, pyrage and ``parcrypt age``, in both directions.

    >>> from parcrypt import age
    >>> me = age.Identity.generate()                     # or generate(pq=True): post-quantum hybrid
    >>> sealed = age.encrypt(b"hello", [me.to_public()])  # or ["age1…", "ssh-ed25519 AAAA…"]
    >>> age.decrypt(sealed, [me])
    b'hello'
    >>> age.decrypt(age.encrypt(b"hi", passphrase="pw", armor=True), passphrase="pw")
    b'hi'

Recipients are ``Recipient`` objects or public-key strings (``age1…``,
``age1pq1…``, ``ssh-ed25519 …``, ``ssh-rsa …``, tagged ``age1tag1…``,
plugin ``age1NAME1…``); identities are ``Identity`` objects or secret-key
strings (``AGE-SECRET-KEY-1…``, ``AGE-SECRET-KEY-PQ-1…``, plugin
``AGE-PLUGIN-NAME-1…``, or ``Identity.default_for_plugin("NAME")`` as
``age -j NAME``); ``parse_identities`` reads a whole identity file
(comments, several keys, or an OpenSSH private key), ``parse_recipients`` a
recipients file. A passphrase (``passphrase=``, str or bytes) is a file's
only recipient (scrypt, N = 2^work_factor). Post-quantum and classic
recipients are not mixed in one file, as age refuses to.

``encrypt`` / ``decrypt`` work on bytes-like objects, with the GIL released;
``decrypt`` returns plaintext only when all of it verified.
``encrypt_file`` / ``decrypt_file`` stream from a path or binary file
object to a path or binary file object, in bounded memory. A ``dst`` path is
written safely, as in ``parcrypt.stream``: into a temporary file beside it,
synced, renamed over it only on success (a wrong key, a tampered or
truncated file leaves no ``dst``); an existing ``dst`` is refused unless
``overwrite=True``. A file object receives each batch of chunks once it
verified. ``decrypt_file(..., range=(start, length))`` decrypts only those
bytes of a binary age file, reading only their 64 KiB chunks.

Plugins: ``age-plugin-NAME`` is run from ``PATH`` for the file key only (the
payload still seals and opens on every core). Its questions go to the
``callbacks`` given to ``Recipient.from_str``, ``Identity.from_str``,
``Identity.default_for_plugin``, ``parse_identities`` or ``parse_recipients``
(pyrage's ``plugin.Callbacks`` shape: ``display_message(message)``,
``confirm(message, yes, no) -> Optional[bool]``,
``request_public_string(description)``, ``request_passphrase(description)``,
each returning ``None`` or raising to refuse); without callbacks each is
refused and the plugin decides.

Errors: ``NoIdentityError`` (no identity opens the file), ``AgeError`` (not
age, malformed header or armor, modified or truncated, a plugin's failure
or one not found), ``ValueError`` (bad
keys or arguments, a passphrase costlier than ``max_work_factor``),
``OSError``.
"""

from typing import TYPE_CHECKING, BinaryIO, Iterable, List, Optional, Tuple, Union

from parcrypt import _parcrypt
from parcrypt._parcrypt import AgeIdentity as Identity
from parcrypt._parcrypt import AgeRecipient as Recipient
from parcrypt.stream import PathLike, _to_dst

__all__ = ["Identity", "Recipient", "encrypt", "decrypt", "encrypt_file", "decrypt_file", "parse_identities",
           "parse_recipients", "DEFAULT_WORK_FACTOR", "DEFAULT_MAX_WORK_FACTOR"]

#: scrypt's work factor (log2 N) for passphrases, as age writes it.
DEFAULT_WORK_FACTOR = 18
#: The most scrypt work a passphrase file may ask of ``decrypt`` unless raised.
DEFAULT_MAX_WORK_FACTOR = 20

Recipients = Iterable[Union[Recipient, str]]
Identities = Iterable[Union[Identity, str]]
Passphrase = Union[str, bytes, None]
if TYPE_CHECKING:
    from typing_extensions import Buffer  # any bytes-like object (PEP 688)
else:
    Buffer = object


def encrypt(data: Buffer, recipients: Optional[Recipients] = None, *, passphrase: Passphrase = None,
            armor: bool = False, work_factor: int = DEFAULT_WORK_FACTOR, threads: Optional[int] = None,
            strategy: str = "steal") -> bytes:
    """Encrypts ``data`` to ``recipients`` (or a ``passphrase``); returns the
    age file, ASCII-armored with ``armor=True``."""
    return _parcrypt.age_encrypt(data, _listed(recipients), passphrase=passphrase, armor=armor,
                                 work_factor=work_factor, threads=threads, strategy=strategy)


def decrypt(data: Buffer, identities: Optional[Identities] = None, *, passphrase: Passphrase = None,
            max_work_factor: int = DEFAULT_MAX_WORK_FACTOR, threads: Optional[int] = None,
            strategy: str = "steal") -> bytes:
    """Decrypts the age file ``data`` (binary or armored) with
    ``identities`` and/or a ``passphrase``; returns the plaintext."""
    return _parcrypt.age_decrypt(data, _listed(identities), passphrase=passphrase,
                                 max_work_factor=max_work_factor, threads=threads, strategy=strategy)


def encrypt_file(src: Union[BinaryIO, PathLike], dst: Union[BinaryIO, PathLike],
                 recipients: Optional[Recipients] = None, *, passphrase: Passphrase = None, armor: bool = False,
                 work_factor: int = DEFAULT_WORK_FACTOR, overwrite: bool = False, threads: Optional[int] = None,
                 strategy: str = "steal") -> int:
    """Encrypts ``src`` into ``dst`` (a path, written safely; or a binary
    file object); returns the plaintext length."""
    listed = _listed(recipients)

    def run(out: object) -> int:
        return _parcrypt.age_encrypt_file(src, out, listed, passphrase=passphrase, armor=armor,
                                          work_factor=work_factor, threads=threads, strategy=strategy)

    return _to_dst(dst, overwrite, src, run)


def decrypt_file(src: Union[BinaryIO, PathLike], dst: Union[BinaryIO, PathLike],
                 identities: Optional[Identities] = None, *, passphrase: Passphrase = None,
                 range: Optional[Tuple[int, int]] = None, max_work_factor: int = DEFAULT_MAX_WORK_FACTOR,
                 overwrite: bool = False, threads: Optional[int] = None, strategy: str = "steal") -> int:
    """Decrypts the age file ``src`` into ``dst`` (a path, which appears only
    once everything verified; or a binary file object); returns the bytes
    written. ``range=(start, length)`` decrypts only those plaintext bytes."""
    listed = _listed(identities)

    def run(out: object) -> int:
        return _parcrypt.age_decrypt_file(src, out, listed, passphrase=passphrase, range=range,
                                          max_work_factor=max_work_factor, threads=threads, strategy=strategy)

    return _to_dst(dst, overwrite, src, run)


def parse_identities(text: Union[str, Buffer], callbacks: Optional[object] = None) -> List[Identity]:
    """The identities of an identity file: age-keygen's format (``#``
    comments, blank lines, several keys, plugin identities) or an unencrypted
    OpenSSH private key. Plugins' questions go to ``callbacks``."""
    return _parcrypt.age_parse_identities(text, callbacks)


def parse_recipients(text: Union[str, Buffer], callbacks: Optional[object] = None) -> List[Recipient]:
    """The recipients of a recipients file: one per line, ``#`` comments
    (SSH keys of types age does not encrypt to are skipped, as age does).
    Plugins' questions go to ``callbacks``."""
    return _parcrypt.age_parse_recipients(text, callbacks)


def _listed(keys: Optional[Iterable[object]]) -> Optional[List[object]]:
    if keys is None:
        return None
    if isinstance(keys, (str, bytes, Identity, Recipient)):
        raise TypeError("give a list of keys, not a single one")
    return list(keys)
