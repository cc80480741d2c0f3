"""parcrypt.mlkem against pyca/cryptography 50's mlkem, both ways: the same
seed gives the same keys and bytes, what one encapsulates the other
decapsulates (and both reject a forged ciphertext to the same secret),
keys written by one are read by the other, pyca's own usage runs with only
the import changed, and hostile input raises what pyca raises."""

import copy

import pytest
from cryptography.hazmat.primitives import serialization as pyca_serialization
from cryptography.hazmat.primitives.asymmetric import mlkem as pyca_mlkem

from parcrypt import mlkem, serialization

from conftest import pattern

SETS = ["768", "1024"]  # pyca 50 has no ML-KEM-512
E, P, U = pyca_serialization.Encoding, pyca_serialization.PrivateFormat, pyca_serialization.PublicFormat
PLAIN = pyca_serialization.NoEncryption()


def classes(module, n):
    return getattr(module, f"MLKEM{n}PrivateKey"), getattr(module, f"MLKEM{n}PublicKey")


@pytest.mark.parametrize("n", SETS)
def test_the_same_seed_gives_the_same_keys_and_bytes(n):
    ours, theirs = classes(mlkem, n)[0], classes(pyca_mlkem, n)[0]
    for seed in (bytes(64), pattern(64), bytes(range(64, 128))):
        a, b = ours.from_seed_bytes(seed), theirs.from_seed_bytes(seed)
        assert a.public_key().public_bytes_raw() == b.public_key().public_bytes_raw()
        assert a.private_bytes_raw() == b.private_bytes_raw() == seed
        for enc in (E.PEM, E.DER):
            assert a.private_bytes(enc, P.PKCS8, PLAIN) == b.private_bytes(enc, P.PKCS8, PLAIN)
            assert a.public_key().public_bytes(enc, U.SubjectPublicKeyInfo) == \
                b.public_key().public_bytes(enc, U.SubjectPublicKeyInfo)
        assert a.private_bytes(E.Raw, P.Raw, PLAIN) == seed
        assert a.public_key().public_bytes(E.Raw, U.Raw) == b.public_key().public_bytes(E.Raw, U.Raw)


@pytest.mark.parametrize("n", SETS)
def test_what_one_encapsulates_the_other_decapsulates(n):
    seed = pattern(64)
    a, b = classes(mlkem, n)[0].from_seed_bytes(seed), classes(pyca_mlkem, n)[0].from_seed_bytes(seed)
    for _ in range(3):
        secret, ciphertext = a.public_key().encapsulate()
        assert len(secret) == 32 and b.decapsulate(ciphertext) == secret == a.decapsulate(bytearray(ciphertext))
        secret, ciphertext = b.public_key().encapsulate()
        assert a.decapsulate(memoryview(ciphertext)) == secret
        # A forged ciphertext of the right length: implicit rejection, the same
        # pseudorandom secret from both (FIPS 203 fixes it), not the real one.
        forged = bytes([ciphertext[0] ^ 1]) + ciphertext[1:]
        assert a.decapsulate(forged) == b.decapsulate(forged) != secret
    # A public key read from raw bytes encapsulates for the private key.
    public = classes(mlkem, n)[1].from_public_bytes(b.public_key().public_bytes_raw())
    assert public == a.public_key()
    secret, ciphertext = public.encapsulate()
    assert b.decapsulate(ciphertext) == secret


def test_ml_kem_512_round_trips_and_loads():
    key = mlkem.MLKEM512PrivateKey.from_seed_bytes(bytes(64))
    secret, ciphertext = key.public_key().encapsulate()
    assert len(ciphertext) == 768 and key.decapsulate(ciphertext) == secret
    loaded = serialization.load_pem_private_key(key.private_bytes(E.PEM, P.PKCS8, PLAIN))
    assert type(loaded) is mlkem.MLKEM512PrivateKey and loaded.private_bytes_raw() == bytes(64)
    public = serialization.load_der_public_key(key.public_key().public_bytes(E.DER, U.SubjectPublicKeyInfo))
    assert type(public) is mlkem.MLKEM512PublicKey and public == key.public_key()


@pytest.mark.parametrize("n", SETS)
def test_keys_written_by_one_are_read_by_the_other(n):
    password = pyca_serialization.BestAvailableEncryption(b"hunter2")
    a = classes(mlkem, n)[0].generate()
    for enc, load, load_public in ((E.PEM, pyca_serialization.load_pem_private_key,
                                    pyca_serialization.load_pem_public_key),
                                   (E.DER, pyca_serialization.load_der_private_key,
                                    pyca_serialization.load_der_public_key)):
        assert load(a.private_bytes(enc, P.PKCS8, PLAIN), None).private_bytes_raw() == a.private_bytes_raw()
        theirs = load(a.private_bytes(enc, P.PKCS8, password), b"hunter2")
        secret, ciphertext = load_public(a.public_key().public_bytes(enc, U.SubjectPublicKeyInfo)).encapsulate()
        assert theirs.decapsulate(ciphertext) == secret == a.decapsulate(ciphertext)
    b = classes(pyca_mlkem, n)[0].generate()
    for enc, load, load_public in ((E.PEM, serialization.load_pem_private_key, serialization.load_pem_public_key),
                                   (E.DER, serialization.load_der_private_key, serialization.load_der_public_key)):
        ours = load(b.private_bytes(enc, P.PKCS8, password), b"hunter2")
        assert type(ours) is classes(mlkem, n)[0] and ours.private_bytes_raw() == b.private_bytes_raw()
        public = load_public(b.public_key().public_bytes(enc, U.SubjectPublicKeyInfo))
        assert type(public) is classes(mlkem, n)[1] and public == ours.public_key()


PYCA_USAGE = '''
from cryptography.hazmat.primitives.asymmetric import mlkem
from cryptography.hazmat.primitives import serialization

private_key = mlkem.MLKEM768PrivateKey.generate()
public_key = private_key.public_key()
shared_secret, ciphertext = public_key.encapsulate()
recovered = private_key.decapsulate(ciphertext)
assert recovered == shared_secret

seed = private_key.private_bytes_raw()
same_key = mlkem.MLKEM768PrivateKey.from_seed_bytes(seed)
public_bytes = public_key.public_bytes_raw()
loaded_public_key = mlkem.MLKEM768PublicKey.from_public_bytes(public_bytes)
assert loaded_public_key == same_key.public_key() == public_key
pem = private_key.private_bytes(
    encoding=serialization.Encoding.PEM,
    format=serialization.PrivateFormat.PKCS8,
    encryption_algorithm=serialization.NoEncryption(),
)
spki = public_key.public_bytes(
    encoding=serialization.Encoding.DER,
    format=serialization.PublicFormat.SubjectPublicKeyInfo,
)
'''


def test_pycas_usage_runs_with_only_the_import_changed():
    swapped = PYCA_USAGE.replace("from cryptography.hazmat.primitives.asymmetric import mlkem",
                                 "from parcrypt import mlkem")
    assert swapped != PYCA_USAGE
    ours, theirs = {}, {}
    exec(swapped, ours)
    exec(PYCA_USAGE, theirs)
    assert ours["mlkem"] is mlkem
    for name in ("shared_secret", "ciphertext", "seed", "public_bytes", "pem", "spki"):
        assert type(ours[name]) is type(theirs[name]) is bytes
        assert len(ours[name]) == len(theirs[name]), name
    pyca = pyca_serialization.load_pem_private_key(ours["pem"], None)
    assert pyca.decapsulate(ours["ciphertext"]) == ours["shared_secret"]


def test_copies_and_equality_behave_as_pycas():
    for module in (mlkem, pyca_mlkem):
        key = module.MLKEM768PrivateKey.from_seed_bytes(bytes(64))
        assert copy.deepcopy(key).private_bytes_raw() == key.private_bytes_raw()
        public = key.public_key()
        assert copy.copy(public) == public == key.public_key()
        assert public != module.MLKEM768PrivateKey.generate().public_key()
        with pytest.raises(TypeError):
            hash(public)
    key = mlkem.MLKEM768PrivateKey.from_seed_bytes(bytes(64))
    assert key.public_key() != mlkem.MLKEM1024PrivateKey.from_seed_bytes(bytes(64)).public_key()
    assert "redacted" in repr(key)


def hostile_cases(module):
    key = module.MLKEM768PrivateKey.from_seed_bytes(bytes(64))
    raw = key.public_key().public_bytes_raw()
    _, ciphertext = key.public_key().encapsulate()
    return [
        ("seed of 32 bytes", lambda: module.MLKEM768PrivateKey.from_seed_bytes(bytes(32))),
        ("seed of 65 bytes", lambda: module.MLKEM768PrivateKey.from_seed_bytes(bytes(65))),
        ("seed as str", lambda: module.MLKEM768PrivateKey.from_seed_bytes("x" * 64)),
        ("public key truncated", lambda: module.MLKEM768PublicKey.from_public_bytes(raw[:-1])),
        ("public key extended", lambda: module.MLKEM768PublicKey.from_public_bytes(raw + b"\0")),
        ("another set's public key", lambda: module.MLKEM1024PublicKey.from_public_bytes(raw)),
        ("public key out of range", lambda: module.MLKEM768PublicKey.from_public_bytes(b"\xff" * len(raw))),
        ("ciphertext truncated", lambda: key.decapsulate(ciphertext[:-1])),
        ("ciphertext extended", lambda: key.decapsulate(ciphertext + b"\0")),
        ("ciphertext empty", lambda: key.decapsulate(b"")),
        ("ciphertext as str", lambda: key.decapsulate("x")),
        ("private PEM + Raw", lambda: key.private_bytes(E.PEM, P.Raw, PLAIN)),
        ("private Raw + PKCS8", lambda: key.private_bytes(E.Raw, P.PKCS8, PLAIN)),
        ("private traditional", lambda: key.private_bytes(E.DER, P.TraditionalOpenSSL, PLAIN)),
        ("public PEM + Raw", lambda: key.public_key().public_bytes(E.PEM, U.Raw)),
        ("public PKCS1", lambda: key.public_key().public_bytes(E.DER, U.PKCS1)),
    ]


def test_hostile_input_raises_what_pyca_raises():
    for (name, call), (_, reference) in zip(hostile_cases(mlkem), hostile_cases(pyca_mlkem)):
        with pytest.raises(Exception) as expected:
            reference()
        with pytest.raises(Exception) as got:
            call()
        assert type(got.value) is type(expected.value), (name, got.value, expected.value)


def test_a_key_of_the_wrong_parameter_set_or_damaged_is_refused():
    key = mlkem.MLKEM768PrivateKey.from_seed_bytes(bytes(64))
    spki = key.public_key().public_bytes(E.DER, U.SubjectPublicKeyInfo)
    oid = bytes([0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x04, 0x02])
    assert spki.count(oid) == 1
    as1024 = spki.replace(oid, oid[:-1] + b"\x03")
    for load in (serialization.load_der_public_key, pyca_serialization.load_der_public_key):
        with pytest.raises(ValueError):
            load(as1024)
    der = key.private_bytes(E.DER, P.PKCS8, PLAIN)
    for cut in (1, 20, len(der) - 1):
        for load in (serialization.load_der_private_key, lambda d: pyca_serialization.load_der_private_key(d, None)):
            with pytest.raises(ValueError):
                load(der[:cut])
