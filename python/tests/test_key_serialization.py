"""Every key class writes itself as pyca's keys do, from pyca's own
``Encoding``/``PrivateFormat``/``PublicFormat`` and encryption objects (or
parcrypt.serialization's equal ones, or their names); the loaders return
whichever family the data holds, picked once by its algorithm OID, and a
wrong password is one clear error."""

import pytest
from cryptography.hazmat.primitives import serialization as pyca
from cryptography.hazmat.primitives.asymmetric import ec as pyca_ec
from cryptography.hazmat.primitives.asymmetric import rsa as pyca_rsa

from parcrypt import ecdsa, mldsa, mlkem, rsa, serialization, slhdsa


@pytest.fixture(scope="module")
def keys():
    """One private key of every family."""
    return {
        "RSA": rsa.generate_private_key(public_exponent=65537, key_size=2048),
        "EC": ecdsa.generate_private_key(),
        "SLH-DSA": slhdsa.SLHDSAPrivateKey.generate("SLH-DSA-SHA2-128f"),
        "ML-DSA": mldsa.MLDSA65PrivateKey.from_seed_bytes(bytes(32)),
        "ML-KEM": mlkem.MLKEM768PrivateKey.from_seed_bytes(bytes(64)),
    }


ENUMS = [pytest.param((pyca.Encoding, pyca.PrivateFormat, pyca.PublicFormat, pyca), id="pyca"),
         pytest.param((serialization.Encoding, serialization.PrivateFormat, serialization.PublicFormat,
                       serialization), id="parcrypt")]


@pytest.mark.parametrize("enums", ENUMS)
def test_every_key_takes_pycas_enums_and_encryption(keys, enums):
    E, P, U, module = enums
    for family, key in keys.items():
        pem = key.private_bytes(E.PEM, P.PKCS8, module.NoEncryption())
        assert pem == key.private_bytes("PEM", "PKCS8") == key.private_bytes()
        assert pem.startswith(b"-----BEGIN PRIVATE KEY-----"), family
        der = key.private_bytes(E.DER, P.PKCS8, module.NoEncryption())
        loaded = serialization.load_der_private_key(der)
        assert type(loaded) is type(key) and loaded.private_bytes(E.DER, P.PKCS8, module.NoEncryption()) == der
        encrypted = key.private_bytes(E.PEM, P.PKCS8, module.BestAvailableEncryption(b"pw"))
        assert encrypted.startswith(b"-----BEGIN ENCRYPTED PRIVATE KEY-----")
        assert type(serialization.load_pem_private_key(encrypted, b"pw")) is type(key)
        encrypted = key.private_bytes(E.DER, P.PKCS8, module.BestAvailableEncryption(b"pw"))
        assert type(serialization.load_der_private_key(encrypted, b"pw")) is type(key)
        spki = key.public_key().public_bytes(E.PEM, U.SubjectPublicKeyInfo)
        assert spki == key.public_key().public_bytes("PEM", "SPKI") == key.public_key().public_bytes()
        assert type(serialization.load_pem_public_key(spki)) is type(key.public_key())
        # An encrypted key is PKCS#8 only.
        with pytest.raises(ValueError):
            key.private_bytes(E.PEM, P.TraditionalOpenSSL, module.BestAvailableEncryption(b"pw"))


def test_classical_keys_cross_to_pyca_through_its_enums(keys):
    rsa_key, ec_key = keys["RSA"], keys["EC"]
    pem = rsa_key.private_bytes(pyca.Encoding.PEM, pyca.PrivateFormat.PKCS8, pyca.BestAvailableEncryption(b"pw"))
    theirs = pyca.load_pem_private_key(pem, b"pw")
    assert isinstance(theirs, pyca_rsa.RSAPrivateKey) and theirs.key_size == 2048
    pkcs1 = rsa_key.private_bytes(pyca.Encoding.PEM, pyca.PrivateFormat.TraditionalOpenSSL, pyca.NoEncryption())
    assert pkcs1.startswith(b"-----BEGIN RSA PRIVATE KEY-----")
    assert isinstance(pyca.load_pem_private_key(pkcs1, None), pyca_rsa.RSAPrivateKey)
    public_pkcs1 = rsa_key.public_key().public_bytes(pyca.Encoding.DER, pyca.PublicFormat.PKCS1)
    assert type(serialization.load_der_public_key(public_pkcs1)) is rsa.RSAPublicKey
    sec1 = ec_key.private_bytes(pyca.Encoding.DER, pyca.PrivateFormat.TraditionalOpenSSL, pyca.NoEncryption())
    assert isinstance(pyca.load_der_private_key(sec1, None), pyca_ec.EllipticCurvePrivateKey)
    point = ec_key.public_key().public_bytes(pyca.Encoding.X962, pyca.PublicFormat.UncompressedPoint)
    assert len(point) == 65 and point[0] == 4
    # And the other way: pyca's keys load as ours.
    theirs = pyca_ec.generate_private_key(pyca_ec.SECP256R1())
    for fmt in (pyca.PrivateFormat.PKCS8, pyca.PrivateFormat.TraditionalOpenSSL):
        for enc, load in ((pyca.Encoding.PEM, serialization.load_pem_private_key),
                          (pyca.Encoding.DER, serialization.load_der_private_key)):
            assert type(load(theirs.private_bytes(enc, fmt, pyca.NoEncryption()))) is ecdsa.ECPrivateKey


def test_sec1_der_loads(keys):
    """The bug this replaced: load_der_private_key of SEC1 ("EC PRIVATE KEY") DER failed."""
    sec1 = keys["EC"].private_bytes("DER", "TraditionalOpenSSL")
    loaded = serialization.load_der_private_key(sec1)
    assert type(loaded) is ecdsa.ECPrivateKey
    assert loaded.private_bytes("DER", "PKCS8") == keys["EC"].private_bytes("DER", "PKCS8")


def test_a_wrong_password_is_one_clear_error_for_every_family(keys):
    for family, key in keys.items():
        for enc, load in (("PEM", serialization.load_pem_private_key), ("DER", serialization.load_der_private_key)):
            encrypted = key.private_bytes(enc, "PKCS8", serialization.BestAvailableEncryption(b"right"))
            with pytest.raises(ValueError, match="^Incorrect password") as e:
                load(encrypted, b"wrong")
            assert "RSA" not in str(e.value) and "EC" not in str(e.value), family
            with pytest.raises(TypeError, match="not given"):
                load(encrypted)
        with pytest.raises(TypeError, match="not encrypted"):
            serialization.load_pem_private_key(key.private_bytes(), b"pw")


def test_loaders_refuse_what_pyca_refuses(keys):
    key = keys["ML-DSA"]
    for ours, theirs, data in (
        (serialization.load_pem_public_key, pyca.load_pem_public_key, key.private_bytes()),
        (serialization.load_der_public_key, pyca.load_der_public_key, key.private_bytes("DER")),
        (serialization.load_pem_private_key, lambda d: pyca.load_pem_private_key(d, None),
         key.public_key().public_bytes()),
        (serialization.load_der_private_key, lambda d: pyca.load_der_private_key(d, None),
         key.public_key().public_bytes("DER")),
        (serialization.load_der_private_key, lambda d: pyca.load_der_private_key(d, None), b"\x30\x03\x02\x01\x00"),
        (serialization.load_pem_private_key, lambda d: pyca.load_pem_private_key(d, None), b"garbage"),
    ):
        with pytest.raises(ValueError):
            theirs(data)
        with pytest.raises(ValueError):
            ours(data)
    # A key of an algorithm parcrypt has not (Ed25519) is named by its OID.
    ed25519 = bytes.fromhex("302e020100300506032b657004220420") + bytes(32)
    with pytest.raises(ValueError, match="1.3.101.112"):
        serialization.load_der_private_key(ed25519)


def test_format_errors_are_pycas_types(keys):
    key = keys["RSA"]
    with pytest.raises(TypeError):
        key.private_bytes(object(), pyca.PrivateFormat.PKCS8, pyca.NoEncryption())
    with pytest.raises(TypeError):
        key.private_bytes(pyca.Encoding.PEM, pyca.PublicFormat.PKCS1, pyca.NoEncryption())
    with pytest.raises(TypeError):
        key.private_bytes(pyca.Encoding.PEM, pyca.PrivateFormat.PKCS8, object())
    with pytest.raises(ValueError):
        key.private_bytes(pyca.Encoding.PEM, pyca.PrivateFormat.Raw, pyca.NoEncryption())
    with pytest.raises(ValueError):
        key.public_key().public_bytes(pyca.Encoding.PEM, pyca.PublicFormat.Raw)
    with pytest.raises(ValueError):
        keys["EC"].public_key().public_bytes(pyca.Encoding.PEM, pyca.PublicFormat.PKCS1)


def test_rsa_generate_takes_pycas_call():
    for key in (rsa.generate_private_key(65537, 2048), rsa.generate_private_key(public_exponent=65537, key_size=2048),
                rsa.generate_private_key(2048), rsa.generate_private_key(key_size=2048, threads=1)):
        assert key.key_size == 2048
    with pytest.raises(ValueError, match="65537"):
        rsa.generate_private_key(public_exponent=3, key_size=2048)
    with pytest.raises(ValueError, match="65537"):
        rsa.generate_private_key(3, 2048)
