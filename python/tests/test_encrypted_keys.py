"""Password-protected private keys against pyca/cryptography, both ways:
keys ``cryptography`` encrypts (PKCS#8 PBES2, and its legacy PEM) read by
parcrypt, keys parcrypt encrypts read by ``cryptography``; and the
exceptions raised as ``cryptography`` raises them."""

import base64
import hashlib
import os

import pytest
from cryptography.hazmat.primitives import serialization as ref
from cryptography.hazmat.primitives.asymmetric import ec as ref_ec
from cryptography.hazmat.primitives.asymmetric import rsa as ref_rsa

from parcrypt import ecdsa, rsa, serialization

PASSWORD = b"correct-horse"


def spki(key) -> bytes:
    return key.public_key().public_bytes("DER", "SPKI")


def ref_spki(key) -> bytes:
    return key.public_key().public_bytes(ref.Encoding.DER, ref.PublicFormat.SubjectPublicKeyInfo)


@pytest.fixture(scope="module")
def ref_keys():
    return [ref_ec.generate_private_key(ref_ec.SECP256R1()), ref_rsa.generate_private_key(65537, 2048)]


def test_keys_cryptography_encrypts_are_read(ref_keys):
    pkcs8 = ref.PrivateFormat.PKCS8
    for key in ref_keys:
        load = ecdsa.load_private_key if isinstance(key, ref_ec.EllipticCurvePrivateKey) else rsa.load_private_key
        for encoding in (ref.Encoding.PEM, ref.Encoding.DER):
            encrypted = key.private_bytes(encoding, pkcs8, ref.BestAvailableEncryption(PASSWORD))
            ours = load(encrypted, PASSWORD)
            assert spki(ours) == ref_spki(key)
            # Module-level loaders dispatch on the key type.
            loader = (serialization.load_pem_private_key if encoding == ref.Encoding.PEM
                      else serialization.load_der_private_key)
            assert spki(loader(encrypted, password=PASSWORD)) == ref_spki(key)
            with pytest.raises(ValueError):
                load(encrypted, b"wrong")
            with pytest.raises(TypeError):
                load(encrypted)
        # The legacy PEM (cryptography's TraditionalOpenSSL with a password).
        legacy = key.private_bytes(ref.Encoding.PEM, ref.PrivateFormat.TraditionalOpenSSL,
                                   ref.BestAvailableEncryption(PASSWORD))
        assert b"Proc-Type: 4,ENCRYPTED" in legacy
        assert spki(load(legacy, PASSWORD)) == ref_spki(key)


def test_keys_parcrypt_encrypts_are_read_by_cryptography():
    for key in (ecdsa.generate_private_key(), rsa.generate_private_key(2048)):
        for encoding in ("PEM", "DER"):
            for algorithm in (serialization.BestAvailableEncryption(PASSWORD), ref.BestAvailableEncryption(PASSWORD)):
                encrypted = key.private_bytes(encoding, "PKCS8", algorithm)
                if encoding == "PEM":
                    assert encrypted.startswith(b"-----BEGIN ENCRYPTED PRIVATE KEY-----\n")
                    theirs = ref.load_pem_private_key(encrypted, password=PASSWORD)
                else:
                    theirs = ref.load_der_private_key(encrypted, password=PASSWORD)
                assert ref_spki(theirs) == spki(key)
                with pytest.raises(ValueError):
                    ref.load_pem_private_key(encrypted, password=b"wrong") if encoding == "PEM" else \
                        ref.load_der_private_key(encrypted, password=b"wrong")
        # NoEncryption (ours or theirs) and None write the plain key.
        plain = key.private_bytes("PEM", "PKCS8")
        assert key.private_bytes("PEM", "PKCS8", serialization.NoEncryption()) == plain
        assert key.private_bytes("PEM", "PKCS8", ref.NoEncryption()) == plain


def test_exceptions_as_cryptography_raises_them():
    key = ecdsa.generate_private_key()
    plain = key.private_bytes("PEM", "PKCS8")
    encrypted = key.private_bytes("PEM", "PKCS8", serialization.BestAvailableEncryption(PASSWORD))
    # A password for a key that is not encrypted: TypeError, as cryptography.
    with pytest.raises(TypeError):
        ref.load_pem_private_key(plain, password=PASSWORD)
    with pytest.raises(TypeError):
        serialization.load_pem_private_key(plain, password=PASSWORD)
    with pytest.raises(TypeError):
        ecdsa.load_private_key(plain, PASSWORD)
    # No password for an encrypted key: TypeError.
    with pytest.raises(TypeError):
        ref.load_pem_private_key(encrypted, password=None)
    with pytest.raises(TypeError):
        serialization.load_pem_private_key(encrypted)
    # A wrong one: ValueError.
    with pytest.raises(ValueError):
        ref.load_pem_private_key(encrypted, password=b"nope")
    with pytest.raises(ValueError, match="bad decrypt"):
        serialization.load_pem_private_key(encrypted, password=b"nope")
    # Garbage and truncation: ValueError, never a crash.
    der = key.private_bytes("DER", "PKCS8", serialization.BestAvailableEncryption(PASSWORD))
    for cut in (0, 1, 10, len(der) // 2, len(der) - 1):
        with pytest.raises((ValueError, TypeError)):
            serialization.load_der_private_key(der[:cut], password=PASSWORD)
    with pytest.raises(ValueError):
        serialization.BestAvailableEncryption(b"")
    with pytest.raises(ValueError):
        key.private_bytes("PEM", "PKCS8", ref.BestAvailableEncryption(b""))
    # Encrypted keys are PKCS#8 only; an unknown encryption object is a TypeError.
    with pytest.raises(ValueError, match="PKCS8"):
        key.private_bytes("PEM", "SEC1", serialization.BestAvailableEncryption(PASSWORD))
    with pytest.raises(TypeError):
        key.private_bytes("PEM", "PKCS8", object())
    assert "correct" not in repr(serialization.BestAvailableEncryption(PASSWORD))


def test_openssl_vectors(data_dir):
    d = data_dir / "pkcs8"
    want = spki(ecdsa.load_private_key((d / "ec-plain.pem").read_bytes()))
    for name in ("ec-pbkdf2-sha256-aes256.pem", "ec-pbkdf2-sha1-aes128.der", "ec-pbkdf2-sha512-aes192.pem",
                 "ec-scrypt-aes256.pem", "ec-legacy-aes128.pem"):
        assert spki(ecdsa.load_private_key((d / name).read_bytes(), PASSWORD)) == want, name
    want = spki(rsa.load_private_key((d / "rsa-plain.pem").read_bytes()))
    assert spki(serialization.load_der_private_key((d / "rsa-scrypt-aes256.der").read_bytes(), PASSWORD)) == want


def _pbes2(pkcs8_der: bytes, password: bytes, iterations: int) -> bytes:
    """An EncryptedPrivateKeyInfo (DER) as OpenSSL 3 writes it, with any
    PBKDF2 count: PBKDF2-HMAC-SHA256 (hashlib) and AES-256-CBC (cryptography)."""
    from cryptography.hazmat.primitives import padding
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

    def tlv(tag: int, body: bytes) -> bytes:
        n = len(body)
        if n < 0x80:
            return bytes([tag, n]) + body
        size = n.to_bytes((n.bit_length() + 7) // 8, "big")
        return bytes([tag, 0x80 | len(size)]) + size + body

    def oid(hexed: str) -> bytes:
        return tlv(0x06, bytes.fromhex(hexed))

    def uint(v: int) -> bytes:
        return tlv(0x02, v.to_bytes(v.bit_length() // 8 + 1, "big"))

    salt, iv = os.urandom(8), os.urandom(16)
    kek = hashlib.pbkdf2_hmac("sha256", password, salt, iterations, 32)
    padder = padding.PKCS7(128).padder()
    encryptor = Cipher(algorithms.AES(kek), modes.CBC(iv)).encryptor()
    ct = encryptor.update(padder.update(pkcs8_der) + padder.finalize()) + encryptor.finalize()
    prf = tlv(0x30, oid("2a864886f70d0209") + b"\x05\x00")
    kdf = tlv(0x30, oid("2a864886f70d01050c") + tlv(0x30, tlv(0x04, salt) + uint(iterations) + prf))
    enc = tlv(0x30, oid("60864801650304012a") + tlv(0x04, iv))
    alg = tlv(0x30, oid("2a864886f70d01050d") + tlv(0x30, kdf + enc))
    return tlv(0x30, alg + tlv(0x04, ct))


def test_a_costly_password_derivation_is_refused_unless_allowed():
    """Issue #48: a key whose PBKDF2 count is above 2 000 000 (about a
    second of one core) is refused before any work; allow_costly_kdf reads
    it (up to 10 000 000)."""
    key = ref_ec.generate_private_key(ref_ec.SECP256R1())
    plain = key.private_bytes(ref.Encoding.DER, ref.PrivateFormat.PKCS8, ref.NoEncryption())
    der = _pbes2(plain, PASSWORD, 2_000_001)
    body = base64.encodebytes(der).decode().replace("\n", "")
    lines = "\n".join(body[i : i + 64] for i in range(0, len(body), 64))
    pem = f"-----BEGIN ENCRYPTED PRIVATE KEY-----\n{lines}\n-----END ENCRYPTED PRIVATE KEY-----\n".encode()
    for load, data in (
        (serialization.load_pem_private_key, pem),
        (serialization.load_der_private_key, der),
        (ecdsa.load_private_key, pem),
    ):
        with pytest.raises(ValueError, match="2000001 PBKDF2 iterations"):
            load(data, PASSWORD)
        assert spki(load(data, PASSWORD, allow_costly_kdf=True)) == ref_spki(key)
    rkey = ref_rsa.generate_private_key(65537, 2048)
    rder = _pbes2(rkey.private_bytes(ref.Encoding.DER, ref.PrivateFormat.PKCS8, ref.NoEncryption()), PASSWORD, 2_000_001)
    with pytest.raises(ValueError, match="2000001 PBKDF2 iterations"):
        rsa.load_private_key(rder, PASSWORD)
    assert spki(rsa.load_private_key(rder, PASSWORD, allow_costly_kdf=True)) == ref_spki(rkey)
