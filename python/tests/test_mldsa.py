"""parcrypt.mldsa against pyca/cryptography 50's mldsa, both ways: the
same seed gives the same keys and bytes, each verifies the other's
signatures (with and without a context, over external μ too), keys written
by one are read by the other, pyca's own usage runs with only the import
changed, hostile input raises what pyca raises; and the batches equal
one-by-one verification at every thread count, failing indexes included."""

import copy
import pickle

import pytest
from cryptography.hazmat.primitives import serialization as pyca_serialization
from cryptography.hazmat.primitives.asymmetric import mldsa as pyca_mldsa

from parcrypt import mldsa, serialization
from parcrypt.exceptions import InvalidSignature

from conftest import pattern

SETS = ["44", "65", "87"]
E, P, U = pyca_serialization.Encoding, pyca_serialization.PrivateFormat, pyca_serialization.PublicFormat
PLAIN = pyca_serialization.NoEncryption()


def classes(module, n):
    return getattr(module, f"MLDSA{n}PrivateKey"), getattr(module, f"MLDSA{n}PublicKey")


@pytest.mark.parametrize("n", SETS)
def test_the_same_seed_gives_the_same_keys_and_bytes(n):
    ours, theirs = classes(mldsa, n)[0], classes(pyca_mldsa, n)[0]
    for seed in (bytes(32), bytes(range(32)), pattern(32)[::-1]):
        a, b = ours.from_seed_bytes(seed), theirs.from_seed_bytes(seed)
        assert a.public_key().public_bytes_raw() == b.public_key().public_bytes_raw()
        assert a.private_bytes_raw() == b.private_bytes_raw() == seed
        for enc in (E.PEM, E.DER):
            assert a.private_bytes(enc, P.PKCS8, PLAIN) == b.private_bytes(enc, P.PKCS8, PLAIN)
            assert a.public_key().public_bytes(enc, U.SubjectPublicKeyInfo) == \
                b.public_key().public_bytes(enc, U.SubjectPublicKeyInfo)
        assert a.private_bytes(E.Raw, P.Raw, PLAIN) == b.private_bytes(E.Raw, P.Raw, PLAIN)
        assert a.public_key().public_bytes(E.Raw, U.Raw) == b.public_key().public_bytes(E.Raw, U.Raw)
    key = ours.generate()
    assert isinstance(key, ours) and isinstance(key.public_key(), classes(mldsa, n)[1])
    assert key.private_bytes_raw() != ours.generate().private_bytes_raw()


@pytest.mark.parametrize("n", SETS)
@pytest.mark.parametrize("context", [None, b"", b"my-app-v1", bytes(255)])
def test_each_verifies_the_others_signatures(n, context):
    seed = bytes(range(1, 33))
    a, b = classes(mldsa, n)[0].from_seed_bytes(seed), classes(pyca_mldsa, n)[0].from_seed_bytes(seed)
    message = pattern(1000)
    ours, theirs = a.sign(message, context), b.sign(message, context)
    assert len(ours) == len(theirs)
    b.public_key().verify(ours, message, context)
    a.public_key().verify(theirs, message, context)
    # A bytearray and a memoryview are read as bytes are.
    a.public_key().verify(bytearray(theirs), memoryview(message), context)
    b.public_key().verify(a.sign(bytearray(message), context), message, context)
    # Signing is hedged: two signatures of one message differ.
    assert a.sign(message, context) != ours
    # The context is bound: another one fails in both.
    other = b"other"
    for public, sig in ((a.public_key(), theirs), (b.public_key(), ours)):
        with pytest.raises(Exception) as e:
            public.verify(sig, message, other)
        assert type(e.value).__name__ == "InvalidSignature"


@pytest.mark.parametrize("n", SETS)
def test_external_mu_matches_pycas_both_ways(n):
    seed = bytes(32)
    a, b = classes(mldsa, n)[0].from_seed_bytes(seed), classes(pyca_mldsa, n)[0].from_seed_bytes(seed)
    ours, theirs = mldsa.MLDSAMuHasher(a.public_key(), b"ctx"), pyca_mldsa.MLDSAMuHasher(b.public_key(), b"ctx")
    for piece in (b"", b"release ", bytearray(b"manifest"), memoryview(pattern(5000))):
        ours.update(piece)
        theirs.update(piece)
    ours_copy, theirs_copy = ours.copy(), theirs.copy()
    ours_copy.update(b"more")
    theirs_copy.update(b"more")
    mu = ours.finalize()
    assert mu == theirs.finalize() and len(mu) == 64
    assert ours_copy.finalize() == theirs_copy.finalize() != mu
    b.public_key().verify_mu(a.sign_mu(mu), mu)
    a.public_key().verify_mu(b.sign_mu(mu), mu)
    # μ-signatures are signatures of the message under the context.
    message = b"release manifest" + pattern(5000)
    a.public_key().verify(b.sign_mu(mu), message, b"ctx")
    b.public_key().verify(a.sign_mu(mu), message, b"ctx")
    with pytest.raises(Exception) as e:
        ours.update(b"x")
    assert type(e.value).__name__ == "AlreadyFinalized"


@pytest.mark.parametrize("n", SETS)
def test_keys_written_by_one_are_read_by_the_other(n):
    ours_class = classes(mldsa, n)[0]
    a = ours_class.generate()
    password = pyca_serialization.BestAvailableEncryption(b"hunter2")
    for enc, load, load_public in ((E.PEM, pyca_serialization.load_pem_private_key,
                                    pyca_serialization.load_pem_public_key),
                                   (E.DER, pyca_serialization.load_der_private_key,
                                    pyca_serialization.load_der_public_key)):
        theirs = load(a.private_bytes(enc, P.PKCS8, PLAIN), None)
        assert theirs.private_bytes_raw() == a.private_bytes_raw()
        theirs = load(a.private_bytes(enc, P.PKCS8, password), b"hunter2")
        assert theirs.private_bytes_raw() == a.private_bytes_raw()
        public = load_public(a.public_key().public_bytes(enc, U.SubjectPublicKeyInfo))
        public.verify(a.sign(b"m"), b"m")
    b = classes(pyca_mldsa, n)[0].generate()
    for enc, load, load_public in ((E.PEM, serialization.load_pem_private_key, serialization.load_pem_public_key),
                                   (E.DER, serialization.load_der_private_key, serialization.load_der_public_key)):
        ours = load(b.private_bytes(enc, P.PKCS8, password), b"hunter2")
        assert type(ours) is ours_class and ours.private_bytes_raw() == b.private_bytes_raw()
        public = load_public(b.public_key().public_bytes(enc, U.SubjectPublicKeyInfo))
        assert type(public) is classes(mldsa, n)[1]
        assert public == ours.public_key()
        public.verify(b.sign(b"m"), b"m")


PYCA_USAGE = '''
from cryptography.hazmat.primitives.asymmetric import mldsa
from cryptography.hazmat.primitives import serialization

private_key = mldsa.MLDSA65PrivateKey.generate()
signature = private_key.sign(b"my authenticated message")
public_key = private_key.public_key()
public_key.verify(signature, b"my authenticated message")

ctx_signature = private_key.sign(b"my authenticated message", context=b"context")
public_key.verify(ctx_signature, b"my authenticated message", context=b"context")

hasher = mldsa.MLDSAMuHasher(public_key, context=b"context")
hasher.update(b"my authenticated ")
hasher.update(b"message")
mu = hasher.finalize()
mu_signature = private_key.sign_mu(mu)
public_key.verify_mu(mu_signature, mu)
public_key.verify(mu_signature, b"my authenticated message", context=b"context")

pem = private_key.private_bytes(
    encoding=serialization.Encoding.PEM,
    format=serialization.PrivateFormat.PKCS8,
    encryption_algorithm=serialization.NoEncryption(),
)
seed = private_key.private_bytes_raw()
same_key = mldsa.MLDSA65PrivateKey.from_seed_bytes(seed)
public_bytes = public_key.public_bytes_raw()
loaded_public_key = mldsa.MLDSA65PublicKey.from_public_bytes(public_bytes)
assert loaded_public_key == same_key.public_key() == public_key
spki = public_key.public_bytes(
    encoding=serialization.Encoding.PEM,
    format=serialization.PublicFormat.SubjectPublicKeyInfo,
)
'''


def test_pycas_usage_runs_with_only_the_import_changed():
    swapped = PYCA_USAGE.replace("from cryptography.hazmat.primitives.asymmetric import mldsa",
                                 "from parcrypt import mldsa")
    assert swapped != PYCA_USAGE
    ours, theirs = {}, {}
    exec(swapped, ours)
    exec(PYCA_USAGE, theirs)
    assert ours["mldsa"] is mldsa
    # Same shapes and lengths; the keys are random, so the bytes differ.
    for name in ("signature", "ctx_signature", "mu", "pem", "seed", "public_bytes", "spki"):
        assert type(ours[name]) is type(theirs[name]) is bytes
        assert len(ours[name]) == len(theirs[name]), name
    # And each result crosses over.
    pyca_mldsa.MLDSA65PublicKey.from_public_bytes(ours["public_bytes"]).verify(
        ours["signature"], b"my authenticated message")
    pyca_serialization.load_pem_private_key(ours["pem"], None)


def test_pycas_except_clauses_catch_parcrypts_exceptions():
    # Code ported by changing only the import still catches what it caught.
    from cryptography import exceptions as pyca_exceptions
    from parcrypt import exceptions

    key = mldsa.MLDSA65PrivateKey.generate()
    with pytest.raises(pyca_exceptions.InvalidSignature):
        key.public_key().verify(b"\0" * 3309, b"message")
    assert issubclass(exceptions.InvalidTag, pyca_exceptions.InvalidTag)
    assert issubclass(exceptions.AlreadyFinalized, pyca_exceptions.AlreadyFinalized)


def test_copies_equality_and_pickling_behave_as_pycas():
    a = mldsa.MLDSA44PrivateKey.from_seed_bytes(bytes(32))
    b = pyca_mldsa.MLDSA44PrivateKey.from_seed_bytes(bytes(32))
    for key in (a, b):
        assert copy.copy(key) is key or copy.copy(key).private_bytes_raw() == key.private_bytes_raw()
        assert copy.deepcopy(key).private_bytes_raw() == key.private_bytes_raw()
        public = key.public_key()
        assert public == key.public_key() and public != mldsa.MLDSA44PrivateKey.generate().public_key()
        assert copy.copy(public) == public
        with pytest.raises(TypeError):
            hash(public)
        for obj in (key, public):
            with pytest.raises(TypeError):
                pickle.dumps(obj)
    assert a.public_key() != mldsa.MLDSA65PrivateKey.from_seed_bytes(bytes(32)).public_key()
    assert "redacted" in repr(a) and a.private_bytes_raw().hex() not in repr(a)


def hostile_cases(module):
    """Each: (name, callable) raising, for pyca and for us alike."""
    k44 = module.MLDSA44PrivateKey.from_seed_bytes(bytes(32))
    k65 = module.MLDSA65PrivateKey.from_seed_bytes(bytes(32))
    pub = k65.public_key()
    sig = k65.sign(b"m")
    mu = module.MLDSAMuHasher(pub).finalize() if hasattr(module, "MLDSAMuHasher") else bytes(64)
    spent = module.MLDSAMuHasher(pub)
    spent.finalize()
    return [
        ("seed of 31 bytes", lambda: module.MLDSA65PrivateKey.from_seed_bytes(bytes(31))),
        ("seed of 33 bytes", lambda: module.MLDSA65PrivateKey.from_seed_bytes(bytes(33))),
        ("seed as str", lambda: module.MLDSA65PrivateKey.from_seed_bytes("x" * 32)),
        ("public key truncated", lambda: module.MLDSA65PublicKey.from_public_bytes(pub.public_bytes_raw()[:-1])),
        ("public key extended", lambda: module.MLDSA65PublicKey.from_public_bytes(pub.public_bytes_raw() + b"\0")),
        ("another set's public key", lambda: module.MLDSA44PublicKey.from_public_bytes(pub.public_bytes_raw())),
        ("context of 256 bytes (sign)", lambda: k65.sign(b"m", bytes(256))),
        ("context of 256 bytes (verify)", lambda: pub.verify(sig, b"m", bytes(256))),
        ("context of 256 bytes (hasher)", lambda: module.MLDSAMuHasher(pub, bytes(256))),
        ("data as str", lambda: k65.sign("m")),
        ("signature truncated", lambda: pub.verify(sig[:-1], b"m")),
        ("signature extended", lambda: pub.verify(sig + b"\0", b"m")),
        ("signature empty", lambda: pub.verify(b"", b"m")),
        ("signature tampered", lambda: pub.verify(bytes([sig[0] ^ 1]) + sig[1:], b"m")),
        ("another message", lambda: pub.verify(sig, b"n")),
        ("another set's signature", lambda: pub.verify(k44.sign(b"m"), b"m")),
        ("mu of 63 bytes (sign)", lambda: k65.sign_mu(bytes(63))),
        ("mu of 65 bytes (verify)", lambda: pub.verify_mu(sig, bytes(65))),
        ("mu signature tampered", lambda: pub.verify_mu(sig, mu)),
        ("hasher updated after finalize", lambda: spent.update(b"x")),
        ("hasher finalized twice", lambda: spent.finalize()),
        ("private PEM + Raw", lambda: k65.private_bytes(E.PEM, P.Raw, PLAIN)),
        ("private Raw + PKCS8", lambda: k65.private_bytes(E.Raw, P.PKCS8, PLAIN)),
        ("private traditional", lambda: k65.private_bytes(E.PEM, P.TraditionalOpenSSL, PLAIN)),
        ("private Raw encrypted", lambda: k65.private_bytes(
            E.Raw, P.Raw, pyca_serialization.BestAvailableEncryption(b"pw"))),
        ("private OpenSSH encoding", lambda: k65.private_bytes(E.OpenSSH, P.PKCS8, PLAIN)),
        ("private encryption object", lambda: k65.private_bytes(E.PEM, P.PKCS8, object())),
        ("public PEM + Raw", lambda: pub.public_bytes(E.PEM, U.Raw)),
        ("public Raw + SPKI", lambda: pub.public_bytes(E.Raw, U.SubjectPublicKeyInfo)),
        ("public PKCS1", lambda: pub.public_bytes(E.PEM, U.PKCS1)),
        ("public format object", lambda: pub.public_bytes(E.PEM, object())),
    ]


def test_hostile_input_raises_what_pyca_raises():
    ours, theirs = hostile_cases(mldsa), hostile_cases(pyca_mldsa)
    for (name, call), (_, reference) in zip(ours, theirs):
        with pytest.raises(Exception) as expected:
            reference()
        with pytest.raises(Exception) as got:
            call()
        want = type(expected.value)
        # Our InvalidSignature and AlreadyFinalized are parcrypt.exceptions' (same names).
        if want.__module__.startswith("cryptography"):
            assert type(got.value).__name__ == want.__name__, name
        else:
            assert type(got.value) is want, (name, got.value, expected.value)


def test_a_pem_of_the_wrong_parameter_set_is_refused_as_pyca_refuses_it():
    der = mldsa.MLDSA44PrivateKey.from_seed_bytes(bytes(32)).private_bytes(E.DER, P.PKCS8, PLAIN)
    # The OID's last arc names the set (17, 18, 19). A seed-form private key holds only ξ, so
    # one relabelled 87 is an ML-DSA-87 key to both; a public key relabelled has the wrong
    # length for its set, and both refuse it.
    oid = bytes([0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, 0x11])
    assert der.count(oid) == 1
    as87 = der.replace(oid, oid[:-1] + b"\x13")
    assert type(serialization.load_der_private_key(as87)) is mldsa.MLDSA87PrivateKey
    assert isinstance(pyca_serialization.load_der_private_key(as87, None), pyca_mldsa.MLDSA87PrivateKey)
    spki = mldsa.MLDSA44PrivateKey.from_seed_bytes(bytes(32)).public_key().public_bytes(E.DER, U.SubjectPublicKeyInfo)
    wrong = spki.replace(oid, oid[:-1] + b"\x13")
    for load in (serialization.load_der_public_key, pyca_serialization.load_der_public_key):
        with pytest.raises(ValueError):
            load(wrong)
    for cut in (1, 10, len(der) - 1):
        for load in (serialization.load_der_private_key, lambda d: pyca_serialization.load_der_private_key(d, None)):
            with pytest.raises(ValueError):
                load(der[:cut])


@pytest.mark.parametrize("threads", [1, 2, 3, 4])
def test_batches_equal_one_by_one_with_the_failing_indexes(threads):
    keys = [mldsa.MLDSA44PrivateKey.from_seed_bytes(bytes([1]) * 32),
            mldsa.MLDSA65PrivateKey.from_seed_bytes(bytes([2]) * 32),
            pyca_mldsa.MLDSA87PrivateKey.from_seed_bytes(bytes([3]) * 32)]
    ours = {k.private_bytes_raw(): mldsa.MLDSA87PrivateKey.from_seed_bytes(k.private_bytes_raw())
            for k in keys[2:]}
    keys[2] = ours[keys[2].private_bytes_raw()]
    items = []
    for i in range(23):
        key = keys[i % 3]
        message = pattern(i * 37)
        context = [None, b"ctx", bytes(255)][i % 3] if i % 4 else None
        sig = key.sign(message, context)
        if i % 5 == 1:
            sig = sig[:-1]  # wrong length
        elif i % 5 == 2:
            sig = bytes([sig[0] ^ 0x80]) + sig[1:]  # tampered
        elif i % 7 == 3:
            message = message + b"!"  # another message
        item = (key.public_key(), message, sig) if context is None else (key.public_key(), message, sig, context)
        items.append(item)
    one_by_one = []
    for public, message, sig, *context in items:
        try:
            public.verify(sig, message, *context)
            one_by_one.append(True)
        except InvalidSignature:
            one_by_one.append(False)
    assert True in one_by_one and False in one_by_one
    for strategy in ("seq", "static", "steal"):
        assert mldsa.verify_batch(items, threads=threads, strategy=strategy) == one_by_one
    assert mldsa.verify_batch([]) == []

    key = keys[1]
    messages = [pattern(i * 101) for i in range(9)] + [bytearray(b"mutable"), memoryview(b"view")]
    sigs = mldsa.sign_batch(key, messages, b"release", threads=threads)
    assert len(sigs) == len(messages)
    pyca_public = pyca_mldsa.MLDSA65PublicKey.from_public_bytes(key.public_key().public_bytes_raw())
    for message, sig in zip(messages, sigs):
        pyca_public.verify(sig, bytes(message), b"release")
    assert mldsa.verify_batch([(key.public_key(), m, s, b"release") for m, s in zip(messages, sigs)],
                              threads=threads) == [True] * len(messages)


def test_batch_misuse_is_a_clear_error():
    key = mldsa.MLDSA44PrivateKey.generate()
    sig = key.sign(b"m")
    with pytest.raises(TypeError, match=r"items\[1\]"):
        mldsa.verify_batch([(key.public_key(), b"m", sig), (key.public_key(), b"m")])
    with pytest.raises(TypeError, match=r"items\[0\]\[0\]"):
        mldsa.verify_batch([(key, b"m", sig)])
    with pytest.raises(ValueError, match=r"items\[0\]\[3\]"):
        mldsa.verify_batch([(key.public_key(), b"m", sig, bytes(256))])
    with pytest.raises(ValueError):
        mldsa.sign_batch(key, [b"m"], bytes(256))
    with pytest.raises(TypeError):
        mldsa.sign_batch(key.public_key(), [b"m"])
    with pytest.raises(TypeError, match=r"messages\[1\]"):
        mldsa.sign_batch(key, [b"m", "text"])
    with pytest.raises(ValueError, match="threads"):
        mldsa.verify_batch([], threads=-1)
