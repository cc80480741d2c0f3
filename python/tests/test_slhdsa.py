"""parcrypt.slhdsa: keys of every parameter set, raw and PKCS#8/SPKI (byte
for byte as OpenSSL 3.5 writes them), signatures equal to NIST's, hostile
input refused, and interop with the OpenSSL 3.5 inside Node.js
(``$PARCRYPT_NODE_OPENSSL35``, a Node.js whose OpenSSL signs SLH-DSA, as the
Node.js 26 binary from npm with OpenSSL 3.5.8; a skip without one, a failure
under PARCRYPT_REQUIRE_TOOLS=1).

Only the fast (``f``) sets and SHA2-128s are signed here: the other ``s``
sets take seconds each in a debug build; the library's tests cover them.
"""

import gzip
import hashlib
import json
import os
import subprocess
import sys
import threading

import pytest

from parcrypt import serialization, slhdsa
from parcrypt.exceptions import InvalidSignature
from parcrypt.slhdsa import ParameterSet, SLHDSAPrivateKey, SLHDSAPublicKey

from conftest import DATA

SLH = DATA / "slhdsa"
OPENSSL35 = SLH / "openssl35"
FAST = [s for s in ParameterSet if s.value.endswith("f")]


@pytest.fixture(scope="module")
def key128f() -> SLHDSAPrivateKey:
    return SLHDSAPrivateKey.generate(ParameterSet.SHA2_128F)


def test_parameter_sets_by_name_or_member_any_case():
    assert len(ParameterSet) == 12
    key = SLHDSAPrivateKey.generate("slh-dsa-shake-128f")
    assert key.parameter_set is ParameterSet.SHAKE_128F
    assert key.public_key().parameter_set == "SLH-DSA-SHAKE-128f"
    assert SLHDSAPrivateKey.generate(ParameterSet.SHA2_128F).parameter_set is ParameterSet.SHA2_128F
    with pytest.raises(ValueError, match="SLH-DSA parameter set"):
        SLHDSAPrivateKey.generate("SLH-DSA-SHA2-128x")
    assert "seeds redacted" in repr(key)
    assert key.private_bytes_raw().hex() not in repr(key)


@pytest.mark.parametrize("parameter_set", FAST + [ParameterSet.SHA2_128S])
def test_sign_verify_and_raw_round_trips(parameter_set):
    key = SLHDSAPrivateKey.generate(parameter_set, threads=2)
    n = {"128": 16, "192": 24, "256": 32}[parameter_set.value[-4:-1]]
    raw = key.private_bytes_raw()
    assert len(raw) == 4 * n
    again = SLHDSAPrivateKey.from_private_bytes(parameter_set, bytearray(raw))
    assert again.private_bytes_raw() == raw
    public = SLHDSAPublicKey.from_public_bytes(parameter_set.value.lower(), key.public_key().public_bytes_raw())
    assert public == key.public_key() and hash(public) == hash(key.public_key())
    assert public.public_bytes_raw() == raw[2 * n:]

    sig = key.sign(b"firmware", b"ctx")
    public.verify(sig, b"firmware", b"ctx")
    public.verify(sig, bytearray(b"firmware"), memoryview(b"ctx"))
    with pytest.raises(InvalidSignature):
        public.verify(sig, b"firmware")
    with pytest.raises(InvalidSignature):
        public.verify(sig, b"firmwarE", b"ctx")
    # Hedged: two signatures differ; deterministic: equal, and on any thread count.
    assert key.sign(b"firmware", b"ctx") != sig
    det = key.sign(b"firmware", deterministic=True)
    assert det == key.sign(b"firmware", deterministic=True, threads=1, strategy="seq")
    public.verify(det, b"firmware")
    pre = key.sign(b"firmware", b"ctx", prehash="sha512")
    public.verify(pre, b"firmware", b"ctx", prehash="sha512")
    with pytest.raises(InvalidSignature):
        public.verify(pre, b"firmware", b"ctx")
    with pytest.raises(InvalidSignature):
        public.verify(pre, b"firmware", b"ctx", prehash="sha256")


def test_data_of_every_buffer_kind(key128f):
    pub = key128f.public_key()
    for data in (b"m" * 100, bytearray(b"m" * 100), memoryview(b"m" * 100)):
        sig = key128f.sign(data, bytearray(b"c"))
        pub.verify(sig, b"m" * 100, b"c")
        pub.verify(bytearray(sig), memoryview(b"m" * 100), b"c")
    with pytest.raises(TypeError, match="data must be a bytes-like object"):
        key128f.sign("text")


def test_deterministic_signatures_equal_nists():
    """NIST ACVP FIPS 205 sigGen (SHA2-128f, external, deterministic): a pure
    case with a context and a HashSLH-DSA (SHA-512) case."""
    with gzip.open(SLH / "acvp.json.gz") as f:
        cases = json.load(f)["sigGen"]
    picked = [c for c in cases if c["parameterSet"] == "SLH-DSA-SHA2-128f" and c["signatureInterface"] == "external"
              and c["deterministic"] and (c["preHash"] == "pure" and c["context"]
                                          or c.get("hashAlg") == "SHA2-512")]
    assert {c["preHash"] for c in picked} == {"pure", "preHash"}
    for c in picked:
        key = SLHDSAPrivateKey.from_private_bytes(c["parameterSet"], bytes.fromhex(c["sk"]))
        prehash = "sha512" if c["preHash"] == "preHash" else None
        sig = key.sign(bytes.fromhex(c["message"]), bytes.fromhex(c["context"]), deterministic=True,
                       prehash=prehash)
        assert hashlib.sha256(sig).hexdigest() == c["signatureSha256"], (c["tgId"], c["tcId"])
        key.public_key().verify(sig, bytes.fromhex(c["message"]), bytes.fromhex(c["context"]), prehash=prehash)


def test_hostile_input_is_refused_clearly(key128f):
    pub = key128f.public_key()
    raw = key128f.private_bytes_raw()
    set_ = ParameterSet.SHA2_128F
    for bad in (raw[:-1], raw + b"\0", b""):
        with pytest.raises(ValueError, match="private key is 64 bytes"):
            SLHDSAPrivateKey.from_private_bytes(set_, bad)
    with pytest.raises(ValueError, match="public key is 32 bytes"):
        SLHDSAPublicKey.from_public_bytes(set_, pub.public_bytes_raw()[:-1])
    # Mismatched halves (PK.root changed), or a key of another set of the same size.
    with pytest.raises(ValueError, match="does not match"):
        SLHDSAPrivateKey.from_private_bytes(set_, raw[:-1] + bytes([raw[-1] ^ 1]))
    with pytest.raises(ValueError, match="does not match"):
        SLHDSAPrivateKey.from_private_bytes(ParameterSet.SHAKE_128F, raw)
    with pytest.raises(ValueError, match="at most 255"):
        key128f.sign(b"m", bytes(256))
    with pytest.raises(ValueError, match="at most 255"):
        pub.verify(bytes(17088), b"m", bytes(256))
    with pytest.raises(ValueError, match="prehash"):
        key128f.sign(b"m", prehash="md5")
    sig = key128f.sign(b"m")
    for bad in (sig[:-1], sig + b"\0", b"", sig[:100] + bytes([sig[100] ^ 1]) + sig[101:]):
        with pytest.raises(InvalidSignature):
            pub.verify(bad, b"m")
    other = SLHDSAPrivateKey.generate(ParameterSet.SHA2_192F)
    with pytest.raises(InvalidSignature):
        other.public_key().verify(sig, b"m")
    with pytest.raises(ValueError, match="threads"):
        key128f.sign(b"m", threads=-1)


def test_verify_batch(key128f):
    pub = key128f.public_key()
    other = SLHDSAPrivateKey.generate(ParameterSet.SHAKE_128F)
    s1 = key128f.sign(b"one")
    s2 = key128f.sign(b"two", b"ctx")
    s3 = other.sign(b"three")
    items = [(pub, b"one", s1), (pub, b"two", s2, b"ctx"), (other.public_key(), bytearray(b"three"), s3, None),
             (pub, b"two", s2), (pub, b"one", s1[:-1]), (other.public_key(), b"one", s1)]
    expected = [True, True, True, False, False, False]
    assert slhdsa.verify_batch(items) == expected
    assert slhdsa.verify_batch(iter(items), threads=1, strategy="seq") == expected
    assert slhdsa.verify_batch([]) == []
    with pytest.raises(TypeError, match=r"items\[0\]"):
        slhdsa.verify_batch([(pub, b"one")])
    with pytest.raises(TypeError, match=r"items\[0\]\[0\]"):
        slhdsa.verify_batch([(b"key", b"one", s1)])
    with pytest.raises(ValueError, match=r"items\[1\]\[3\]"):
        slhdsa.verify_batch([(pub, b"one", s1), (pub, b"one", s1, bytes(256))])


def test_openssl_files_read_and_written_back_byte_for_byte():
    for set_ in ParameterSet:
        text = (OPENSSL35 / f"{set_.value}.pem").read_bytes()
        at = text.index(b"-----BEGIN PUBLIC KEY-----")
        private_pem, public_pem = text[:at], text[at:]
        if set_.value.startswith("SLH-DSA-SHAKE") and set_.value.endswith("s"):
            # Loading a private key rebuilds its top tree: seconds for a
            # SHAKE `s` set in a debug build. Their public keys still cross.
            public = serialization.load_pem_public_key(public_pem)
            assert isinstance(public, SLHDSAPublicKey) and public.parameter_set is set_
            assert public.public_bytes("PEM", "SubjectPublicKeyInfo") == public_pem
            continue
        key = serialization.load_pem_private_key(private_pem, password=None)
        assert isinstance(key, SLHDSAPrivateKey) and key.parameter_set is set_
        assert key.private_bytes("PEM", "PKCS8") == private_pem
        assert key.public_key().public_bytes("PEM", "SPKI") == public_pem
        der = key.private_bytes("DER", "PKCS8")
        assert serialization.load_der_private_key(der).private_bytes_raw() == key.private_bytes_raw()
        assert slhdsa.load_private_key(der).private_bytes_raw() == key.private_bytes_raw()
        spki = key.public_key().public_bytes("DER")
        assert serialization.load_der_public_key(spki) == key.public_key()
        assert slhdsa.load_public_key(bytearray(spki)) == key.public_key()
    # OpenSSL's signature (with a context) verifies.
    public = slhdsa.load_public_key((OPENSSL35 / "SLH-DSA-SHA2-128s.pem").read_bytes().split(b"-----END PRIVATE KEY-----\n")[1])
    public.verify((OPENSSL35 / "SLH-DSA-SHA2-128s.sig").read_bytes(), b"signed by OpenSSL 3.5.8", b"parcrypt")


def test_password_protected_keys(key128f):
    openssl = (OPENSSL35 / "SLH-DSA-SHA2-128f.encrypted.pem").read_bytes()
    plain = (OPENSSL35 / "SLH-DSA-SHA2-128f.pem").read_bytes()
    key = serialization.load_pem_private_key(openssl, password=b"correct horse")
    assert key.private_bytes("PEM", "PKCS8") == plain[:plain.index(b"-----BEGIN PUBLIC KEY-----")]
    with pytest.raises(ValueError, match="bad decrypt"):
        serialization.load_pem_private_key(openssl, password=b"wrong")
    with pytest.raises(TypeError, match="Password was not given"):
        serialization.load_pem_private_key(openssl, password=None)
    with pytest.raises(TypeError, match="Password was given"):
        slhdsa.load_private_key(plain, password=b"pw")
    for encoding in ("PEM", "DER"):
        enc = key128f.private_bytes(encoding, "PKCS8", serialization.BestAvailableEncryption(b"pw"))
        loader = serialization.load_pem_private_key if encoding == "PEM" else serialization.load_der_private_key
        assert loader(enc, password=b"pw").private_bytes_raw() == key128f.private_bytes_raw()
        assert slhdsa.load_private_key(enc, b"pw").private_bytes_raw() == key128f.private_bytes_raw()
    # As pyca words it: PEM is not Raw, and SLH-DSA has no traditional form.
    with pytest.raises(ValueError, match="format is invalid with this key"):
        key128f.private_bytes("PEM", "Raw", serialization.BestAvailableEncryption(b"pw"))
    with pytest.raises(ValueError, match="format is invalid with this key"):
        key128f.private_bytes("PEM", "SEC1")
    assert key128f.private_bytes("Raw", "Raw") == key128f.private_bytes_raw()


def test_foreign_and_broken_files_are_refused(key128f):
    from parcrypt import ecdsa
    ec = ecdsa.generate_private_key()
    with pytest.raises(ValueError, match="holds an EC key"):
        slhdsa.load_private_key(ec.private_bytes("PEM", "PKCS8"))
    with pytest.raises(ValueError, match="holds an EC key"):
        slhdsa.load_public_key(ec.public_key().public_bytes("DER"))
    with pytest.raises(ValueError, match="PUBLIC KEY"):
        slhdsa.load_private_key(key128f.public_key().public_bytes("PEM"))
    der = key128f.private_bytes("DER", "PKCS8")
    for cut in (0, 1, 10, len(der) - 1):
        with pytest.raises(ValueError):
            slhdsa.load_private_key(der[:cut])
    with pytest.raises(ValueError, match="trailing"):
        slhdsa.load_private_key(der + b"\0")
    # The shared loaders still return RSA and EC keys, and refuse garbage as before.
    assert serialization.load_pem_private_key(ec.private_bytes("PEM", "PKCS8")).curve == "secp256r1"
    assert serialization.load_der_private_key(ec.private_bytes("DER", "PKCS8")).curve == "secp256r1"
    assert serialization.load_pem_public_key(ec.public_key().public_bytes("PEM")).curve == "secp256r1"
    with pytest.raises(ValueError):
        serialization.load_der_private_key(b"\x30\x03\x02\x01\x00")
    with pytest.raises(ValueError, match="no PEM block"):
        serialization.load_pem_public_key(b"garbage")


def test_signing_releases_the_gil():
    """As test_threads: with thread switches off, another Python thread runs
    during the call only if the call released the GIL."""
    key = SLHDSAPrivateKey.generate(ParameterSet.SHA2_128S)
    ready, go = threading.Event(), threading.Event()
    ran = []

    def other():
        ready.set()
        go.wait()
        ran.append(True)

    old = sys.getswitchinterval()
    sys.setswitchinterval(1000.0)
    try:
        t = threading.Thread(target=other)
        t.start()
        ready.wait()
        go.set()
        for _ in range(20):  # as test_threads: the other thread may not be scheduled in one call
            key.sign(b"m", threads=1)
            if ran:
                break
        t.join()
    finally:
        sys.setswitchinterval(old)
    assert ran


def _node():
    node = os.environ.get("PARCRYPT_NODE_OPENSSL35")
    probe = "require('crypto').generateKeyPairSync('slh-dsa-sha2-128f')"
    if node and subprocess.run([node, "-e", probe], capture_output=True).returncode == 0:
        return node
    if os.environ.get("PARCRYPT_REQUIRE_TOOLS", "0") not in ("", "0"):
        pytest.fail("a node with OpenSSL >= 3.5 is required (PARCRYPT_NODE_OPENSSL35; PARCRYPT_REQUIRE_TOOLS=1)")
    pytest.skip("no node with OpenSSL >= 3.5 (set PARCRYPT_NODE_OPENSSL35)")


NODE_SCRIPT = r"""
const c = require("crypto"), fs = require("fs");
const [dir] = process.argv.slice(2);
const job = JSON.parse(fs.readFileSync(dir + "/job.json", "utf8"));
const msg = Buffer.from(job.message, "hex"), ctx = Buffer.from(job.context, "hex");
const out = {};
for (const set of job.sets) {
  // Ours: written back byte for byte, our signature verifies, theirs with our key.
  const key = c.createPrivateKey(fs.readFileSync(`${dir}/${set}.ours.pem`, "utf8"));
  const pub = c.createPublicKey(key);
  const ours = fs.readFileSync(`${dir}/${set}.ours.sig`);
  // Theirs: a fresh key and a signature.
  const theirs = c.generateKeyPairSync(set.toLowerCase());
  out[set] = {
    key_same: key.export({ type: "pkcs8", format: "pem" }) === fs.readFileSync(`${dir}/${set}.ours.pem`, "utf8"),
    verified: c.verify(null, msg, { key: pub, context: ctx }, ours),
    wrong_context: c.verify(null, msg, { key: pub }, ours),
    sig_with_ours: c.sign(null, msg, { key, context: ctx }).toString("hex"),
    their_key: theirs.privateKey.export({ type: "pkcs8", format: "pem" }),
    their_pub: theirs.publicKey.export({ type: "spki", format: "der" }).toString("hex"),
    their_sig: c.sign(null, msg, { key: theirs.privateKey }).toString("hex"),
  };
}
console.log(JSON.stringify(out));
"""


def test_interop_with_openssl35_both_ways(tmp_path):
    node = _node()
    sets = [ParameterSet.SHA2_128F, ParameterSet.SHAKE_128F, ParameterSet.SHA2_256F]
    msg, ctx = b"parcrypt.slhdsa <-> OpenSSL 3.5", b"interop"
    keys = {}
    for set_ in sets:
        keys[set_] = SLHDSAPrivateKey.generate(set_)
        (tmp_path / f"{set_.value}.ours.pem").write_bytes(keys[set_].private_bytes("PEM", "PKCS8"))
        (tmp_path / f"{set_.value}.ours.sig").write_bytes(keys[set_].sign(msg, ctx))
    (tmp_path / "job.json").write_text(json.dumps({"sets": [s.value for s in sets], "message": msg.hex(),
                                                   "context": ctx.hex()}))
    (tmp_path / "interop.js").write_text(NODE_SCRIPT)
    run = subprocess.run([node, str(tmp_path / "interop.js"), str(tmp_path)], capture_output=True, check=True)
    out = json.loads(run.stdout)
    for set_ in sets:
        r = out[set_.value]
        assert r["key_same"] and r["verified"] and not r["wrong_context"], (set_, r)
        keys[set_].public_key().verify(bytes.fromhex(r["sig_with_ours"]), msg, ctx)
        theirs = serialization.load_pem_private_key(r["their_key"].encode())
        assert theirs.parameter_set is set_
        assert theirs.private_bytes("PEM", "PKCS8") == r["their_key"].encode()
        public = serialization.load_der_public_key(bytes.fromhex(r["their_pub"]))
        assert public == theirs.public_key()
        public.verify(bytes.fromhex(r["their_sig"]), msg)
        with pytest.raises(InvalidSignature):
            public.verify(bytes.fromhex(r["their_sig"]), msg, ctx)


# Run in a fresh interpreter, so that no earlier test's worker pool is seen:
# a key loaded with threads=1 starts no parcrypt worker (its top tree is
# rebuilt on the calling thread), and with threads=3 the pool of 2 helpers.
_THREADS_PROBE = r"""
import os, sys
from parcrypt import serialization, slhdsa
def workers():
    names = []
    for t in os.listdir("/proc/self/task"):
        with open(f"/proc/self/task/{t}/comm") as f:
            names.append(f.read().strip())
    return sorted(n for n in names if n.startswith("parcrypt-"))
pem, raw = open(sys.argv[1], "rb").read(), bytes.fromhex(sys.argv[2])
one = [
    serialization.load_pem_private_key(pem, None, threads=1),
    serialization.load_der_private_key(serialization.load_pem_private_key(pem, None, threads=1).private_bytes("DER", "PKCS8"), threads=1),
    slhdsa.load_private_key(pem, threads=1),
    slhdsa.SLHDSAPrivateKey.from_private_bytes("SLH-DSA-SHA2-128s", raw, threads=1),
]
assert workers() == [], workers()
three = serialization.load_pem_private_key(pem, None, threads=3)
assert workers() and all(w.startswith("parcrypt-2-") for w in workers()), workers()
assert all(k.private_bytes_raw() == three.private_bytes_raw() == raw for k in one)
print("ok")
"""


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="counts threads in /proc/self/task (Linux)")
def test_keys_are_loaded_on_the_threads_asked(tmp_path):
    text = (OPENSSL35 / "SLH-DSA-SHA2-128s.pem").read_bytes()
    private_pem = text[: text.index(b"-----BEGIN PUBLIC KEY-----")]
    raw = slhdsa.load_private_key(private_pem).private_bytes_raw()
    path = tmp_path / "key.pem"
    path.write_bytes(private_pem)
    out = subprocess.run(
        [sys.executable, "-c", _THREADS_PROBE, str(path), raw.hex()],
        capture_output=True, text=True, timeout=300,
    )
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr
    # And the keys agree whatever the threads, in this process too.
    for threads in (1, 2, 8, None):
        assert serialization.load_pem_private_key(private_pem, threads=threads).private_bytes_raw() == raw
    with pytest.raises(ValueError, match="threads"):
        serialization.load_pem_private_key(private_pem, threads=-1)
