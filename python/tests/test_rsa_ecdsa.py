import os

import pytest
from cryptography.exceptions import InvalidSignature as RefInvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec as ref_ec
from cryptography.hazmat.primitives.asymmetric import padding as ref_padding
from cryptography.hazmat.primitives.asymmetric import rsa as ref_rsa
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature, encode_dss_signature

from parcrypt import ecdsa, rsa
from parcrypt.exceptions import InvalidSignature

HASHES = {"sha256": hashes.SHA256(), "sha384": hashes.SHA384(), "sha512": hashes.SHA512()}
MSG = os.urandom(3000)


@pytest.fixture(scope="module")
def ours():
    return rsa.generate_private_key(2048, threads=2)


@pytest.fixture(scope="module")
def theirs():
    return ref_rsa.generate_private_key(65537, 2048)


def test_generated_keys_load_in_cryptography_and_back(ours, theirs):
    for fmt, ref_fmt in (("PKCS8", serialization.PrivateFormat.PKCS8),
                         ("PKCS1", serialization.PrivateFormat.TraditionalOpenSSL)):
        pem = ours.private_bytes("PEM", fmt)
        ref = serialization.load_pem_private_key(pem, None)
        assert ref.key_size == 2048 and ref.private_numbers().public_numbers.e == 65537
        der = ours.private_bytes("DER", fmt)
        assert serialization.load_der_private_key(der, None).private_numbers() == ref.private_numbers()
        back = theirs.private_bytes(serialization.Encoding.PEM, ref_fmt, serialization.NoEncryption())
        assert rsa.load_private_key(back).key_size == 2048
    pub = ours.public_key().public_bytes("PEM", "SPKI")
    assert serialization.load_pem_public_key(pub).public_numbers().e == 65537
    ref_pub = theirs.public_key().public_bytes(serialization.Encoding.DER, serialization.PublicFormat.PKCS1)
    assert rsa.load_public_key(ref_pub).key_size == 2048


@pytest.mark.parametrize("hash_name", sorted(HASHES))
def test_signatures_both_ways(ours, theirs, hash_name):
    h = HASHES[hash_name]
    ref_ours = serialization.load_pem_private_key(ours.private_bytes("PEM"), None)
    # parcrypt signs, cryptography verifies.
    sig = ours.sign(MSG, scheme="pss", hash=hash_name)
    ref_ours.public_key().verify(sig, MSG, ref_padding.PSS(ref_padding.MGF1(h), ref_padding.PSS.DIGEST_LENGTH), h)
    sig = ours.sign(MSG, scheme="pkcs1", hash=hash_name)
    ref_ours.public_key().verify(sig, MSG, ref_padding.PKCS1v15(), h)
    # cryptography signs, parcrypt verifies (any PSS salt length).
    their_pub = rsa.load_public_key(theirs.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo))
    for salt in (ref_padding.PSS.MAX_LENGTH, ref_padding.PSS.DIGEST_LENGTH, 0):
        sig = theirs.sign(MSG, ref_padding.PSS(ref_padding.MGF1(h), salt), h)
        their_pub.verify(sig, MSG, scheme="pss", hash=hash_name)
        with pytest.raises(InvalidSignature):
            their_pub.verify(sig, MSG + b"x", scheme="pss", hash=hash_name)
    sig = theirs.sign(MSG, ref_padding.PKCS1v15(), h)
    their_pub.verify(sig, MSG, scheme="pkcs1", hash=hash_name)
    with pytest.raises(InvalidSignature):
        their_pub.verify(sig, MSG, scheme="pss", hash=hash_name)


def test_oaep_both_ways(ours, theirs):
    ref_ours = serialization.load_pem_private_key(ours.private_bytes("PEM"), None)
    oaep = ref_padding.OAEP(ref_padding.MGF1(hashes.SHA256()), hashes.SHA256(), None)
    msg = os.urandom(190)
    assert ref_ours.decrypt(ours.public_key().encrypt(msg), oaep) == msg
    assert ours.decrypt(ref_ours.public_key().encrypt(msg, oaep)) == msg
    # Other hash and a label, as cryptography allows.
    oaep384 = ref_padding.OAEP(ref_padding.MGF1(hashes.SHA1()), hashes.SHA384(), b"label")
    ct = ref_ours.public_key().encrypt(b"hi", oaep384)
    assert ours.decrypt(ct, hash="sha384", mgf1_hash="sha1", label=b"label") == b"hi"
    with pytest.raises(ValueError, match="decryption failed"):
        ours.decrypt(ct)
    with pytest.raises(ValueError, match="too long"):
        ours.public_key().encrypt(bytes(191))


def test_rsa_bad_input():
    with pytest.raises(ValueError, match="malformed"):
        rsa.load_private_key(b"-----BEGIN PRIVATE KEY-----\nnot base64!\n-----END PRIVATE KEY-----\n")
    with pytest.raises(ValueError):
        rsa.load_private_key(os.urandom(300))
    with pytest.raises(ValueError, match="cannot generate"):
        rsa.generate_private_key(1000)
    ec_pem = ref_ec.generate_private_key(ref_ec.SECP256R1()).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    with pytest.raises(ValueError, match="not an RSA key"):
        rsa.load_private_key(ec_pem)
    with pytest.raises(ValueError, match="hash"):
        rsa.generate_private_key(1024).sign(b"x", hash="md5")


def test_repr_hides_private_values(ours):
    text = repr(ours)
    assert "redacted" in text and "2048" in text
    ref = serialization.load_pem_private_key(ours.private_bytes("PEM"), None).private_numbers()
    assert format(ref.d, "x")[:16] not in text


def test_ecdsa_both_ways():
    key = ecdsa.generate_private_key()
    ref_key = serialization.load_pem_private_key(key.private_bytes("PEM"), None)
    der = key.sign(MSG)
    ref_key.public_key().verify(der, MSG, ref_ec.ECDSA(hashes.SHA256()))
    fixed = key.sign(MSG, encoding="fixed")
    r, s = int.from_bytes(fixed[:32], "big"), int.from_bytes(fixed[32:], "big")
    ref_key.public_key().verify(encode_dss_signature(r, s), MSG, ref_ec.ECDSA(hashes.SHA256()))
    theirs = ref_ec.generate_private_key(ref_ec.SECP256R1())
    their_sig = theirs.sign(MSG, ref_ec.ECDSA(hashes.SHA256()))
    pub = ecdsa.load_public_key(theirs.public_key().public_bytes(
        serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo))
    pub.verify(their_sig, MSG)
    r, s = decode_dss_signature(their_sig)
    pub.verify(r.to_bytes(32, "big") + s.to_bytes(32, "big"), MSG, encoding="fixed")
    point = theirs.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    assert ecdsa.load_public_key(point).public_bytes(format="X962") == point
    with pytest.raises(InvalidSignature):
        pub.verify(their_sig, MSG + b"!")
    with pytest.raises(InvalidSignature):
        pub.verify(b"\x30\x00", MSG)
    sec1 = theirs.private_bytes(serialization.Encoding.DER, serialization.PrivateFormat.TraditionalOpenSSL,
                                serialization.NoEncryption())
    assert ecdsa.load_private_key(sec1).public_key().public_bytes(format="X962") == point
    assert "redacted" in repr(key)


@pytest.mark.parametrize("par", [dict(threads=1), dict(threads=2, strategy="static"), dict(threads=5), dict()])
def test_verify_batch_reports_each_item(par):
    keys = [ecdsa.generate_private_key() for _ in range(4)]
    items, expected = [], []
    for i in range(300):
        k = keys[i % 4]
        msg = b"message %d" % i
        sig = k.sign(msg)
        if i % 7 == 3:
            msg += b"tampered"
        if i % 11 == 5:
            sig = b"not DER"
        items.append((k.public_key(), msg, sig))
        expected.append(not (i % 7 == 3 or i % 11 == 5))
    assert ecdsa.verify_batch(items, **par) == expected
    assert ecdsa.verify_batch([]) == []
    with pytest.raises(TypeError, match="ECPublicKey"):
        ecdsa.verify_batch([(b"key", b"m", b"s")])
