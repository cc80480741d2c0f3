"""The stream format from Python, and interop with the CLI both ways."""

import io
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import PARS, pattern
from parcrypt import _parcrypt, age, rsa, stream
from parcrypt.exceptions import AgeError, InvalidTag, NoIdentityError, StreamError, TruncatedError, WrongKeyError

ROOT = Path(__file__).resolve().parents[2]


def cli():
    """The parcrypt CLI: $PARCRYPT_CLI, else a built one in target/. With
    PARCRYPT_REQUIRE_TOOLS=1 (CI) a missing CLI fails the test."""
    for c in (os.environ.get("PARCRYPT_CLI"), ROOT / "target" / "release" / "parcrypt",
              ROOT / "target" / "debug" / "parcrypt"):
        if c and Path(c).is_file():
            return str(c)
    if os.environ.get("PARCRYPT_REQUIRE_TOOLS") == "1":
        pytest.fail("the parcrypt CLI is required (PARCRYPT_REQUIRE_TOOLS=1): set PARCRYPT_CLI or build it")
    pytest.skip("no parcrypt CLI built (set PARCRYPT_CLI)")


@pytest.mark.parametrize("size", [0, 1, 4096, (1 << 20) - 1, 1 << 20, (3 << 20) + 5])
def test_round_trip_files(tmp_path, size):
    src, enc, dec = tmp_path / "plain", tmp_path / "plain.pc", tmp_path / "back"
    src.write_bytes(pattern(size))
    key = os.urandom(32)
    for i, par in enumerate(PARS):
        e, d = enc.with_suffix(f".{i}"), dec.with_suffix(f".{i}")
        assert stream.encrypt_file(src, e, key=key, segment_size=1 << 16, **par) == size
        assert stream.decrypt_file(e, d, key=key, **par) == size
        assert d.read_bytes() == src.read_bytes()


def test_cli_reads_python_files_and_python_reads_cli_files(tmp_path):
    parcrypt = cli()
    data = pattern((5 << 20) + 77)
    (tmp_path / "plain").write_bytes(data)
    key = os.urandom(32)
    (tmp_path / "key").write_bytes(key)
    stream.encrypt_file(tmp_path / "plain", tmp_path / "py.pc", key=key)
    subprocess.run([parcrypt, "decrypt", "--key-file", str(tmp_path / "key"), "-i", str(tmp_path / "py.pc"),
                    "-o", str(tmp_path / "cli.out")], check=True)
    assert (tmp_path / "cli.out").read_bytes() == data
    subprocess.run([parcrypt, "encrypt", "--key-file", str(tmp_path / "key"), "-i", str(tmp_path / "plain"),
                    "-o", str(tmp_path / "cli.pc")], check=True)
    stream.decrypt_file(tmp_path / "cli.pc", tmp_path / "py.out", key=key)
    assert (tmp_path / "py.out").read_bytes() == data
    # RSA recipients and a range, both ways.
    priv = rsa.generate_private_key(2048)
    (tmp_path / "id.pem").write_bytes(priv.private_bytes())
    (tmp_path / "id.pub").write_bytes(priv.public_key().public_bytes())
    stream.encrypt_file(tmp_path / "plain", tmp_path / "rsa.pc", recipients=[priv.public_key()])
    out = subprocess.run([parcrypt, "decrypt", "--identity", str(tmp_path / "id.pem"), "--range", "1048570:100",
                          "-i", str(tmp_path / "rsa.pc")], check=True, capture_output=True).stdout
    assert out == data[1048570:1048670]
    subprocess.run([parcrypt, "encrypt", "--recipient", str(tmp_path / "id.pub"), "-i", str(tmp_path / "plain"),
                    "-o", str(tmp_path / "cli-rsa.pc")], check=True)
    stream.decrypt_file(tmp_path / "cli-rsa.pc", tmp_path / "r.out", identity=priv, range=(3, 2 << 20))
    assert (tmp_path / "r.out").read_bytes() == data[3 : 3 + (2 << 20)]


def test_passphrase_and_file_objects():
    data = pattern(300_000)
    sealed = io.BytesIO()
    assert stream.encrypt(io.BytesIO(data), sealed, passphrase="correct horse", scrypt_log2_n=10) == len(data)
    out = io.BytesIO()
    stream.decrypt(io.BytesIO(sealed.getvalue()), out, passphrase=b"correct horse")
    assert out.getvalue() == data
    with pytest.raises(WrongKeyError):
        stream.decrypt(io.BytesIO(sealed.getvalue()), io.BytesIO(), passphrase="wrong")
    with pytest.raises(ValueError, match="work factor"):
        stream.decrypt(io.BytesIO(sealed.getvalue()), io.BytesIO(), passphrase="x", max_work_factor=9)


def test_one_exception_when_no_identity_matches_in_stream_and_age():
    # The same class from both formats, under its old stream name too.
    assert WrongKeyError is NoIdentityError
    assert issubclass(NoIdentityError, StreamError) and issubclass(NoIdentityError, AgeError)
    sealed = io.BytesIO()
    stream.encrypt(io.BytesIO(b"x"), sealed, key=os.urandom(32))
    with pytest.raises(NoIdentityError):
        stream.decrypt(io.BytesIO(sealed.getvalue()), io.BytesIO(), key=os.urandom(32))
    me, other = age.Identity.generate(), age.Identity.generate()
    with pytest.raises(NoIdentityError):
        age.decrypt(age.encrypt(b"x", [me.to_public()]), [other])


def test_hostile_streams_leave_no_output(tmp_path):
    key = os.urandom(32)
    src = tmp_path / "plain"
    src.write_bytes(pattern(3 << 20))
    stream.encrypt_file(src, tmp_path / "s.pc", key=key, segment_size=1 << 16)
    sealed = (tmp_path / "s.pc").read_bytes()
    cases = {
        "wrong-key": (sealed, dict(key=os.urandom(32)), WrongKeyError),
        "flipped": (sealed[:5000] + bytes([sealed[5000] ^ 1]) + sealed[5001:], dict(key=key), InvalidTag),
        "truncated": (sealed[: -(1 << 16) - 16], dict(key=key), TruncatedError),
        "not-a-stream": (b"hello world" * 10, dict(key=key), StreamError),
    }
    for name, (blob, kw, exc) in cases.items():
        (tmp_path / name).write_bytes(blob)
        with pytest.raises(exc):
            stream.decrypt_file(tmp_path / name, tmp_path / f"{name}.out", **kw)
        assert not (tmp_path / f"{name}.out").exists(), name
    leftovers = [p.name for p in tmp_path.iterdir() if p.name.endswith(".parcrypt-tmp")]
    assert leftovers == []


def test_arguments_are_checked(tmp_path):
    src = tmp_path / "plain"
    src.write_bytes(b"x")
    (tmp_path / "exists").write_bytes(b"keep me")
    with pytest.raises(FileExistsError):
        stream.encrypt_file(src, tmp_path / "exists", key=os.urandom(32))
    assert (tmp_path / "exists").read_bytes() == b"keep me"
    stream.encrypt_file(src, tmp_path / "exists", key=os.urandom(32), overwrite=True)
    with pytest.raises(ValueError, match="key="):
        stream.encrypt_file(src, tmp_path / "a", overwrite=True)
    with pytest.raises(ValueError, match="32 bytes"):
        stream.encrypt_file(src, tmp_path / "a", key=b"short")
    with pytest.raises(ValueError, match="exactly one"):
        stream.decrypt_file(tmp_path / "exists", tmp_path / "b", key=os.urandom(32), passphrase="p")
    with pytest.raises(ValueError, match="segment"):
        stream.encrypt_file(src, tmp_path / "c", key=os.urandom(32), segment_size=1000)
    with pytest.raises(FileNotFoundError):
        stream.encrypt_file(tmp_path / "missing", tmp_path / "d", key=os.urandom(32))
    assert not (tmp_path / "d").exists()
    with pytest.raises(ValueError, match="range"):
        _parcrypt.stream_decrypt(io.BytesIO(b""), io.BytesIO(), key=os.urandom(32), range=(0, 1))


def test_segments_take_the_same_recipients_and_identities_as_files(tmp_path):
    """`Segments.create` / `from_header` and `encrypt_file` / `decrypt_file`
    read key=, passphrase=, recipients= and identity= the same way."""
    priv = rsa.generate_private_key(2048)
    k = os.urandom(32)
    data = pattern((1 << 16) * 2 + 5)
    # A passphrase is only ever the one recipient (the library's rule).
    for made, readers in (
        (dict(key=k, recipients=[priv.public_key()]), (dict(key=k), dict(identity=priv))),
        (dict(passphrase="pw", scrypt_log2_n=10), (dict(passphrase="pw"),)),
    ):
        header, seg = stream.Segments.create(segment_size=1 << 16, **made)
        (tmp_path / "s.pc").write_bytes(header + seg.seal(0, data, True))
        for who in readers:
            opened = stream.Segments.from_header(tmp_path / "s.pc", **who)
            assert opened.payload_key == seg.payload_key
            stream.decrypt_file(tmp_path / "s.pc", tmp_path / "out", overwrite=True, **who)
            assert (tmp_path / "out").read_bytes() == data
    with pytest.raises(ValueError, match="key=, passphrase= or recipients="):
        stream.Segments.create()
    with pytest.raises(ValueError, match="key=, passphrase= or recipients="):
        stream.Segments.create(key=None, passphrase=None, recipients=[])
    for two in (dict(key=k, passphrase="pw"), dict(key=k, identity=priv), dict()):
        with pytest.raises(ValueError, match="exactly one"):
            stream.Segments.from_header(header, **two)
        with pytest.raises(ValueError, match="exactly one"):
            stream.decrypt_file(tmp_path / "s.pc", tmp_path / "x", **two)
    with pytest.raises(ValueError, match="32 bytes"):
        stream.Segments.create(key=b"short")
