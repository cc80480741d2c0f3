"""parcrypt.cobblestone against pyca/cryptography's cryptography.cobblestone
(both ways, same bytes, same errors), the C2SP vectors, hostile messages,
ranges, files, and thread counts.

pyca's Cobblestone (cryptography >= 50) is required under
PARCRYPT_REQUIRE_TOOLS=1 (CI) on CPython 3.10 and later; elsewhere its
tests skip without it."""

import base64
import hashlib
import io
import json
import os
import pickle
import sys
import zlib

import pytest

from conftest import DATA, pattern
from parcrypt import cobblestone
from parcrypt.cobblestone import (CHUNK, HEADER, SEALED_CHUNK, Cobblestone128Decryptor, Cobblestone128Encryptor,
                                  Cobblestone256Decryptor, Cobblestone256Encryptor, Scheme)
from parcrypt.exceptions import AlreadyFinalized, InvalidTag

SIZES = [0, 1, 16383, 16384, 16385, 32768]
# Update pieces: odd sizes that cut headers, tags and chunks anywhere.
SPLITS = [[1], [55, 1], [7, 16399, 3], [16384], [16401], [100_000]]
CLASSES = {16: (Cobblestone128Encryptor, Cobblestone128Decryptor),
           32: (Cobblestone256Encryptor, Cobblestone256Decryptor)}


def pyca():
    """``cryptography.cobblestone``: a skip without it, or a failure under
    PARCRYPT_REQUIRE_TOOLS=1 — except on CPython 3.9, where no
    cryptography with it exists (50 needs 3.10 or later)."""
    if sys.version_info < (3, 10):
        pytest.skip("cryptography.cobblestone needs cryptography 50, which needs Python 3.10 or later")
    try:
        from cryptography import cobblestone as module
        from cryptography import exceptions
    except ImportError:
        if os.environ.get("PARCRYPT_REQUIRE_TOOLS") == "1":
            pytest.fail("cryptography>=50 (cryptography.cobblestone) is required (PARCRYPT_REQUIRE_TOOLS=1)")
        pytest.skip("cryptography.cobblestone is missing (pip install 'cryptography==50.0.2')")
    return module, exceptions


def pyca_classes(module, key_len):
    n = 128 if key_len == 16 else 256
    return getattr(module, f"Cobblestone{n}Encryptor"), getattr(module, f"Cobblestone{n}Decryptor")


def pieces(data, split):
    """``data`` cut into pieces of the sizes in ``split``, cycled."""
    out, at, i = [], 0, 0
    while at < len(data):
        n = split[i % len(split)]
        out.append(data[at:at + n])
        at, i = at + n, i + 1
    return out


def push(ctx, parts, into=False):
    """Each update's output (update, or update_into a reused buffer), then finalize's."""
    outs = []
    buf = bytearray(max([len(p) for p in parts] + [0]) + 2 * SEALED_CHUNK + HEADER)
    for p in parts:
        if into:
            n = ctx.update_into(p, buf)
            outs.append(bytes(buf[:n]))
        else:
            outs.append(ctx.update(p))
    outs.append(ctx.finalize())
    return outs


# ---- pyca both ways -------------------------------------------------------

@pytest.mark.parametrize("key_len", [16, 32])
@pytest.mark.parametrize("size", SIZES)
def test_pyca_reads_ours_and_we_read_pycas(key_len, size):
    module, exc = pyca()
    pe, pd = pyca_classes(module, key_len)
    ours_e, ours_d = CLASSES[key_len]
    key, ctx = os.urandom(key_len), b"ctx\x00with a NUL"
    data = pattern(size)
    for split in SPLITS:
        parts = pieces(data, split)
        # pyca encrypts in pieces; we decrypt in the same pieces of its
        # ciphertext: every call's output is pyca's, byte for byte.
        sealed = b"".join(push(pe(key, ctx), parts))
        for into in (False, True):
            for threads in (1, 0):
                ours = push(ours_d(key, ctx, threads=threads), pieces(sealed, split), into)
                theirs = push(pd(key, ctx), pieces(sealed, split), into)
                assert ours == theirs
                assert b"".join(ours) == data
        assert cobblestone.decrypt(key, sealed, ctx) == data
        # We encrypt in pieces: every call's output has pyca's length, and
        # pyca decrypts the whole.
        for into in (False, True):
            mine = push(ours_e(key, ctx), parts, into)
            theirs = push(pe(key, ctx), parts, into)
            assert [len(x) for x in mine] == [len(x) for x in theirs]
            dec = pd(key, ctx)
            assert dec.update(b"".join(mine)) + dec.finalize() == data
    for threads in (1, 2, 0):
        dec = pd(key, ctx)
        assert dec.update(cobblestone.encrypt(key, data, ctx, threads=threads)) + dec.finalize() == data


@pytest.mark.parametrize("key_len", [16, 32])
def test_larger_messages_both_ways_on_every_thread_count(key_len):
    module, _ = pyca()
    pe, pd = pyca_classes(module, key_len)
    ours_e, ours_d = CLASSES[key_len]
    key, ctx = os.urandom(key_len), b""
    data = os.urandom((5 << 20) + 3)  # past the library's 1 MiB batch on one thread
    enc = pe(key, ctx)
    sealed = enc.update(data) + enc.finalize()
    outs = []
    for threads in (1, 2, 3, 0):
        dec = ours_d(key, ctx, threads=threads)
        outs.append(dec.update(sealed[:3 << 20]) + dec.update(sealed[3 << 20:]) + dec.finalize())
        assert cobblestone.decrypt(key, sealed, ctx, threads=threads) == data
        enc = ours_e(key, ctx, threads=threads)
        mine = enc.update(data[:1 << 20]) + enc.update(data[1 << 20:]) + enc.finalize()
        dec = pd(key, ctx)
        assert dec.update(mine) + dec.finalize() == data
    assert all(o == data for o in outs)


def test_every_thread_count_seals_the_same_bytes_given_the_salt():
    key, ctx = os.urandom(16), b"c"
    header = cobblestone.COBBLESTONE_128.parts(key, ctx).header
    for size in SIZES + [(3 << 20) + 5]:
        data = pattern(size)
        runs = [cobblestone.COBBLESTONE_128.parts(key, ctx, header).seal(0, data, True, threads=t, strategy=s)
                for t, s in [(1, "seq"), (2, "static"), (3, "steal"), (0, "steal")]]
        assert all(r == runs[0] for r in runs)
        sealed = header + runs[0]
        assert cobblestone.decrypt(key, sealed, ctx, threads=1) == data


def test_pycas_errors_and_edges_are_ours():
    """Where pyca's behaviour shows, ours is the same (exception types,
    buffer sizes, finalization, overlap)."""
    module, exc = pyca()
    key, ctx = os.urandom(16), b"x"
    for ours, theirs in [(Cobblestone128Encryptor, module.Cobblestone128Encryptor),
                         (Cobblestone128Decryptor, module.Cobblestone128Decryptor)]:
        for bad in (b"k" * 15, b"k" * 32):
            with pytest.raises(ValueError, match="key must be 16 bytes."):
                ours(bad, ctx)
            with pytest.raises(ValueError):
                theirs(bad, ctx)
        for arg in ("text", None, 5):
            with pytest.raises(TypeError):
                ours(key, arg)
            with pytest.raises(TypeError):
                theirs(key, arg)
        with pytest.raises(TypeError):
            ours(key)
        assert "redacted" in repr(ours(key, ctx)) and key.hex() not in repr(ours(key, ctx))
        with pytest.raises(TypeError):
            pickle.dumps(ours(key, ctx))
    with pytest.raises(ValueError, match="key must be 32 bytes."):
        Cobblestone256Decryptor(key, ctx)
    assert len(Cobblestone128Encryptor.generate_key()) == 16
    assert len(Cobblestone256Encryptor.generate_key()) == 32
    assert not hasattr(Cobblestone128Decryptor, "generate_key")

    # update_into: a buffer one byte short is refused with pyca's message,
    # and nothing happens (the context goes on).
    for cls in (Cobblestone128Encryptor, module.Cobblestone128Encryptor):
        enc = cls(key, ctx)
        with pytest.raises(ValueError, match="buffer must be at least 56 bytes"):
            enc.update_into(b"", bytearray(55))
        with pytest.raises(ValueError, match="buffer must be at least 16456 bytes"):
            enc.update_into(b"a" * 16384, bytearray(16455))
        with pytest.raises(TypeError):
            enc.update_into(b"a", b"\0" * 100)  # read-only
        assert enc.update_into(b"a" * 16384, bytearray(16456)) == 16456
        assert len(enc.finalize()) == 16
        for call in (lambda: enc.update(b""), lambda: enc.update_into(b"", bytearray(9)), enc.finalize):
            with pytest.raises((AlreadyFinalized, exc.AlreadyFinalized)):
                call()
    enc = module.Cobblestone128Encryptor(key, ctx)
    sealed = enc.update(pattern(40_000)) + enc.finalize()
    for cls, finalized in [(Cobblestone128Decryptor, AlreadyFinalized),
                           (module.Cobblestone128Decryptor, exc.AlreadyFinalized)]:
        dec = cls(key, ctx)
        with pytest.raises(ValueError, match="buffer must be at least 16384 bytes"):
            dec.update_into(sealed[:HEADER + SEALED_CHUNK], bytearray(16383))
        # In place, overlapping its own input, as pyca allows.
        buf = bytearray(sealed)
        n = dec.update_into(memoryview(buf)[:HEADER + 2 * SEALED_CHUNK], buf)
        assert bytes(buf[:n]) == pattern(40_000)[:n]
        assert dec.update(sealed[HEADER + 2 * SEALED_CHUNK:]) == b""
        assert dec.finalize() == pattern(40_000)[n:]
        with pytest.raises(finalized):
            dec.update(b"")
        # A failure ends the decryptor: AlreadyFinalized after InvalidTag.
        dec = cls(key, b"other")
        assert dec.update(sealed[:10]) == b""
        with pytest.raises((InvalidTag, exc.InvalidTag)):
            dec.update(sealed[10:])
        for call in (lambda: dec.update(b""), dec.finalize):
            with pytest.raises(finalized):
                call()


# ---- the C2SP vectors -----------------------------------------------------

def vectors():
    doc = json.loads((DATA / "chunked-encryption" / "vectors.json").read_text())
    for v in doc["vectors"]:
        raw = base64.b64decode(v["ciphertext"] or "")
        if v.get("compressed"):
            raw = zlib.decompress(raw)
        yield v, raw


def test_c2sp_vectors():
    count = 0
    for v, sealed in vectors():
        count += 1
        scheme = Scheme("sha256", v["aead"])
        key, ctx = bytes.fromhex(v["key"]), v["context"].encode()
        if v["expect"] == "success":
            plain = scheme.decrypt(key, sealed, ctx, threads=1)
            assert len(plain) == v["payload_length"], v["name"]
            assert hashlib.sha256(plain).hexdigest() == v["payload_sha256"], v["name"]
            assert scheme.decrypt(key, sealed, ctx) == plain
            assert scheme.decrypt_range(key, sealed, 0, len(plain), ctx) == plain
            if len(plain) > 2:
                assert scheme.decrypt_range(key, io.BytesIO(sealed), 1, len(plain) - 2, ctx) == plain[1:-1]
        else:
            with pytest.raises((InvalidTag, ValueError)):
                scheme.decrypt(key, sealed, ctx)
            with pytest.raises((InvalidTag, ValueError)):
                plain_len = max(0, len(sealed) - HEADER - 16)
                scheme.decrypt_range(key, sealed, 0, max(1, plain_len), ctx)
    assert count == 102


# ---- hostile messages -----------------------------------------------------

def sealed_message(size=3 * CHUNK + 100):
    key, ctx = os.urandom(16), b"ctx"
    data = pattern(size)
    return key, ctx, data, cobblestone.encrypt(key, data, ctx)


def chunk(sealed, k):
    return sealed[HEADER + k * SEALED_CHUNK:HEADER + (k + 1) * SEALED_CHUNK]


def hostile(key, ctx, sealed):
    """(name, message, key, context) that must all be refused."""
    n = len(sealed)
    out = []
    for cut in [0, 1, HEADER - 1, HEADER, HEADER + 1, HEADER + SEALED_CHUNK, HEADER + SEALED_CHUNK + 15,
                HEADER + 2 * SEALED_CHUNK, n - 17, n - 1]:
        out.append((f"cut at {cut}", sealed[:cut], key, ctx))
    out.append(("one byte more", sealed + b"\0", key, ctx))
    out.append(("a chunk more", sealed + chunk(sealed, 0), key, ctx))
    body = [chunk(sealed, k) for k in range(3)]
    final = sealed[HEADER + 3 * SEALED_CHUNK:]
    h = sealed[:HEADER]
    out.append(("chunks 0 and 1 swapped", h + body[1] + body[0] + body[2] + final, key, ctx))
    out.append(("chunk 1 twice", h + body[0] + body[1] + body[1] + body[2] + final, key, ctx))
    out.append(("chunk 1 dropped", h + body[0] + body[2] + final, key, ctx))
    out.append(("final chunk moved", h + body[0] + final, key, ctx))
    for at in [0, 30, HEADER + 5, HEADER + SEALED_CHUNK - 1, n - 1]:
        flipped = bytearray(sealed)
        flipped[at] ^= 0x40
        out.append((f"bit flipped at {at}", bytes(flipped), key, ctx))
    out.append(("wrong key", sealed, os.urandom(16), ctx))
    out.append(("wrong context", sealed, key, b"ctx\x00"))
    out.append(("empty context", sealed, key, b""))
    return out


def test_hostile_messages_are_refused_by_every_path(tmp_path):
    key, ctx, data, sealed = sealed_message()
    src, dst = tmp_path / "m.cob", tmp_path / "out"
    for name, bad, k, c in hostile(key, ctx, sealed):
        with pytest.raises(InvalidTag):
            cobblestone.decrypt(k, bad, c)
        for threads in (1, 0):
            dec = Cobblestone128Decryptor(k, c, threads=threads)
            with pytest.raises(InvalidTag):
                for p in pieces(bad, [5000, 20000]):
                    dec.update(p)
                dec.finalize()
        src.write_bytes(bad)
        with pytest.raises(InvalidTag):
            cobblestone.decrypt_file(k, src, dst, c)
        assert not dst.exists(), name
        assert os.listdir(tmp_path) == ["m.cob"], name  # no temporary file left either
        with open(src, "rb") as f, pytest.raises(InvalidTag):
            cobblestone.decrypt_file(k, f, io.BytesIO(), c)
        # Ranges: a truncated, extended or wrongly keyed message is refused
        # whatever the range: the final chunk, which proves the length, is
        # opened every time, and the commitment is checked first.
        whole = name.startswith(("cut", "one byte", "a chunk", "chunk 1 dropped", "final", "wrong", "empty",
                                 f"bit flipped at {len(bad) - 1}", "bit flipped at 0", "bit flipped at 30"))
        for start, length in [(0, len(data)), (0, 1), (CHUNK + 3, 10)]:
            dec = Cobblestone128Decryptor(k, c)
            try:
                got = dec.decrypt_range(bad, start, length)
            except InvalidTag:
                continue
            # A range may open only if the message is whole and its own
            # chunks are intact (damage elsewhere is not read).
            assert not whole, name
            assert got == data[start:start + length], name
    module, exc = pyca()
    for name, bad, k, c in hostile(key, ctx, sealed):
        dec = module.Cobblestone128Decryptor(k, c)
        with pytest.raises(exc.InvalidTag):
            dec.update(bad)
            dec.finalize()


def test_a_failed_update_releases_nothing_of_its_chunks():
    key, ctx, data, sealed = sealed_message(4 * CHUNK + 9)
    bad = bytearray(sealed)
    bad[HEADER + 3 * SEALED_CHUNK + 2] ^= 1
    buf = bytearray(b"\xaa" * (4 * CHUNK))
    dec = Cobblestone128Decryptor(key, ctx)
    with pytest.raises(InvalidTag):
        dec.update_into(bad, buf)
    assert bytes(buf) == bytes(4 * CHUNK)  # the call's output is wiped


# ---- ranges ---------------------------------------------------------------

def test_ranges_from_every_kind_of_source(tmp_path):
    key, ctx, data, sealed = sealed_message(5 * CHUNK + 123)
    path = tmp_path / "m.cob"
    path.write_bytes(sealed)
    cases = [(0, 1), (0, len(data)), (CHUNK - 1, 2), (CHUNK, CHUNK), (3 * CHUNK + 5, 2 * CHUNK + 118),
             (len(data) - 1, 1)]
    for start, length in cases:
        want = data[start:start + length]
        with open(path, "rb") as f, open(path, "rb", buffering=0) as raw:
            sources = [sealed, bytearray(sealed), memoryview(sealed), f, raw, io.BytesIO(sealed)]
            for source in sources:
                assert Cobblestone128Decryptor(key, ctx).decrypt_range(source, start, length) == want
                assert cobblestone.COBBLESTONE_128.decrypt_range(key, source, start, length, ctx) == want
    dec = Cobblestone128Decryptor(key, ctx)
    assert dec.decrypt_range(sealed, 10, 0) == b""
    assert dec.decrypt_range(b"not even a header", 10, 0) == b""  # as pyca's: nothing to authenticate
    assert dec.decrypt_range(sealed, 7, 3) == data[7:10]  # many ranges on one decryptor
    with pytest.raises(ValueError, match="both streaming"):
        dec.update(sealed)
    with pytest.raises(InvalidTag):
        Cobblestone128Decryptor(key, ctx).decrypt_range(sealed, len(data) - 1, 2)  # past the end
    with pytest.raises(InvalidTag):
        Cobblestone128Decryptor(key, b"other").decrypt_range(sealed, 0, 1)
    dec = Cobblestone128Decryptor(key, ctx)
    dec.update(sealed[:100])
    with pytest.raises(ValueError, match="both streaming"):
        dec.decrypt_range(sealed, 0, 1)


# ---- one shot, files, the generic scheme -----------------------------------

def test_files_round_trip_and_pyca_reads_them(tmp_path):
    module, _ = pyca()
    for key_len in (16, 32):
        key = os.urandom(key_len)
        data = os.urandom((2 << 20) + 77)
        src, enc, out = tmp_path / "a", tmp_path / "a.cob", tmp_path / "a.out"
        src.write_bytes(data)
        assert cobblestone.encrypt_file(key, src, enc, b"ctx") == len(data)
        dec = pyca_classes(module, key_len)[1](key, b"ctx")
        assert dec.update(enc.read_bytes()) + dec.finalize() == data
        assert cobblestone.decrypt_file(key, enc, out, b"ctx") == len(data)
        assert out.read_bytes() == data
        with pytest.raises(FileExistsError):
            cobblestone.decrypt_file(key, enc, out, b"ctx")
        assert cobblestone.decrypt_file(key, enc, out, b"ctx", overwrite=True, threads=1) == len(data)
        # File objects both ways.
        sink = io.BytesIO()
        with open(src, "rb") as f:
            cobblestone.encrypt_file(key, f, sink, b"ctx")
        back = io.BytesIO()
        cobblestone.decrypt_file(key, io.BytesIO(sink.getvalue()), back, b"ctx")
        assert back.getvalue() == data
        for p in (enc, out):
            p.unlink()


def test_one_shot_picks_the_scheme_by_key_length_and_checks_keys():
    data = pattern(40_000)
    for key_len, cls in [(16, Cobblestone128Decryptor), (32, Cobblestone256Decryptor)]:
        key = os.urandom(key_len)
        sealed = cobblestone.encrypt(key, data, b"")
        dec = cls(key, b"")
        assert dec.update(sealed) + dec.finalize() == data
        assert cobblestone.decrypt(key, memoryview(sealed), b"", threads=1) == data
    with pytest.raises(ValueError, match="16 bytes .* or 32"):
        cobblestone.encrypt(b"k" * 24, data, b"")
    chacha = Scheme("sha512", "AEAD_CHACHA20_POLY1305")
    key = chacha.generate_key()
    with pytest.raises(ValueError, match="key must be 32 bytes."):
        chacha.encrypt(key[:16], data, b"")
    with pytest.raises(ValueError, match="key must be 32 bytes."):
        chacha.decrypt(key[:16], b"x" * 100, b"")
    sealed = cobblestone.encrypt(key, data, b"", scheme=chacha)
    assert chacha.decrypt(key, sealed, b"") == data
    # The same key under another scheme: the commitment differs.
    with pytest.raises(InvalidTag):
        cobblestone.decrypt(key, sealed, b"")
    with pytest.raises(InvalidTag):
        Scheme("sha256", "AEAD_CHACHA20_POLY1305").decrypt(key, sealed, b"")


def test_schemes_name_compare_and_pickle():
    s = Scheme("sha512", "AEAD_AES_128_GCM")
    assert s == cobblestone.COBBLESTONE_128 and s != cobblestone.COBBLESTONE_256
    assert hash(s) == hash(cobblestone.COBBLESTONE_128)
    assert pickle.loads(pickle.dumps(s)) == s
    assert repr(s) == 'Scheme(kdf_hash="sha512", aead="AEAD_AES_128_GCM")'
    assert Scheme().kdf_hash == "sha256" and Scheme().aead == "AEAD_AES_128_GCM" and Scheme().key_size == 16
    assert Scheme("SHA-256", "chacha20-poly1305").aead == "AEAD_CHACHA20_POLY1305"
    for bad in [("md5", "AEAD_AES_128_GCM"), ("sha256", "AEAD_AES_192_GCM")]:
        with pytest.raises(ValueError):
            Scheme(*bad)
    key = os.urandom(16)
    parts = s.parts(key, b"c")
    assert key.hex() not in repr(parts) and len(parts.header) == HEADER
    with pytest.raises(TypeError):
        pickle.dumps(parts)
    with pytest.raises(InvalidTag):
        s.parts(key, b"d", parts.header)


def test_parts_concatenate_to_a_message_pyca_reads():
    module, _ = pyca()
    key, ctx = os.urandom(16), b"parts"
    data = pattern(5 * CHUNK + 3)
    parts = cobblestone.COBBLESTONE_128.parts(key, ctx)
    w = cobblestone.COBBLESTONE_128.parts(key, ctx, parts.header)
    sealed = parts.header + w.seal(0, data[:2 * CHUNK], False) + w.seal(2, data[2 * CHUNK:], True)
    assert cobblestone.Parts.offset(2) == HEADER + 2 * SEALED_CHUNK
    dec = module.Cobblestone128Decryptor(key, ctx)
    assert dec.update(sealed) + dec.finalize() == data
    assert w.open(2, sealed[cobblestone.Parts.offset(2):], True) == data[2 * CHUNK:]
    with pytest.raises(ValueError):
        w.seal(0, data[:CHUNK + 1], False)
    with pytest.raises(InvalidTag):
        w.open(3, sealed[cobblestone.Parts.offset(2):], True)
