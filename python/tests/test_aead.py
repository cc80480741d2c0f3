import os

import pytest
from cryptography.hazmat.primitives.ciphers.aead import AESGCM as RefAESGCM

from conftest import PARS, SIZES, pattern
from parcrypt.aead import AESGCM
from parcrypt.exceptions import InvalidTag


@pytest.mark.parametrize("bits", [128, 256])
@pytest.mark.parametrize("size", SIZES)
def test_gcm_matches_cryptography_both_ways(bits, size):
    key = AESGCM.generate_key(bits)
    nonce, aad, data = os.urandom(12), os.urandom(size % 37), pattern(size)
    ref = RefAESGCM(key).encrypt(nonce, data, aad)
    for par in PARS:
        ours = AESGCM(key, **par)
        assert ours.encrypt(nonce, data, aad) == ref, par
        assert ours.decrypt(nonce, ref, aad) == data, par


def test_generate_key_and_bad_arguments():
    assert len(AESGCM.generate_key(128)) == 16 and len(AESGCM.generate_key(256)) == 32
    with pytest.raises(ValueError):
        AESGCM.generate_key(100)
    with pytest.raises(ValueError, match="128 or 256"):
        AESGCM(bytes(24))
    with pytest.raises(ValueError, match="128 or 256"):
        AESGCM(bytes(7))
    with pytest.raises(ValueError, match="12 bytes"):
        AESGCM(bytes(32)).encrypt(bytes(8), b"x", None)
    with pytest.raises(TypeError, match="bytes-like"):
        AESGCM(bytes(32)).encrypt(bytes(12), "text", None)
    with pytest.raises(ValueError, match="strategy"):
        AESGCM(bytes(32), strategy="fast")
    with pytest.raises(ValueError, match="threads=-1 is not a thread count"):
        AESGCM(bytes(32), threads=-1)


@pytest.mark.parametrize("size", [0, 100, 3 << 20])
def test_tampering_raises_invalid_tag(size):
    key, nonce = AESGCM.generate_key(256), os.urandom(12)
    aes = AESGCM(key)
    ct = bytearray(aes.encrypt(nonce, pattern(size), b"aad"))
    for i in {0, len(ct) // 2, len(ct) - 1}:
        bad = bytearray(ct)
        bad[i] ^= 1
        with pytest.raises(InvalidTag):
            aes.decrypt(nonce, bytes(bad), b"aad")
    with pytest.raises(InvalidTag):
        aes.decrypt(nonce, bytes(ct), b"other aad")
    with pytest.raises(InvalidTag):
        aes.decrypt(os.urandom(12), bytes(ct), b"aad")
    with pytest.raises(InvalidTag):
        AESGCM(AESGCM.generate_key(256)).decrypt(nonce, bytes(ct), b"aad")
    with pytest.raises(InvalidTag):
        aes.decrypt(nonce, bytes(ct[:15]), b"aad")


def test_into_variants_and_in_place():
    key, nonce, data = AESGCM.generate_key(256), os.urandom(12), pattern((3 << 20) + 5)
    aes = AESGCM(key)
    ref = RefAESGCM(key).encrypt(nonce, data, None)
    buf = bytearray(len(data) + 16)
    assert aes.encrypt_into(nonce, data, None, buf) == len(buf) and bytes(buf) == ref
    out = bytearray(len(data))
    assert aes.decrypt_into(nonce, buf, None, out) == len(data) and bytes(out) == data
    # In place: the plaintext at the start of the buffer, room for the tag after it.
    work = bytearray(data) + bytearray(16)
    view = memoryview(work)
    aes.encrypt_into(nonce, view[: len(data)], None, work)
    assert bytes(work) == ref
    aes.decrypt_into(nonce, work, None, view[: len(data)])
    assert bytes(work[: len(data)]) == data
    # Wrong tag: InvalidTag and no plaintext left in the output.
    bad = bytearray(ref)
    bad[-1] ^= 1
    out = bytearray(b"\xaa" * len(data))
    with pytest.raises(InvalidTag):
        aes.decrypt_into(nonce, bad, None, out)
    assert out == bytearray(len(data))
    with pytest.raises(ValueError, match="buf must be"):
        aes.encrypt_into(nonce, data, None, bytearray(len(data)))
    with pytest.raises(TypeError, match="read-only"):
        aes.encrypt_into(nonce, data, None, bytes(len(data) + 16))
    shifted = bytearray(len(data) + 32)
    with pytest.raises(ValueError, match="overlap"):
        aes.encrypt_into(nonce, memoryview(shifted)[8 : 8 + len(data)], None, memoryview(shifted)[: len(data) + 16])


def test_repr_hides_the_key():
    key = bytes(range(32))
    r = repr(AESGCM(key)) + str(AESGCM(key))
    assert key.hex() not in r and "redacted" in r


@pytest.mark.parametrize("size", SIZES)
def test_encrypt_into_a_separate_buffer_matches_cryptography_under_every_schedule(size):
    """encrypt_into from separate input copies each part on the thread that encrypts it."""
    key, nonce, data = AESGCM.generate_key(256), os.urandom(12), pattern(size)
    ref = RefAESGCM(key).encrypt(nonce, data, b"aad")
    for par in PARS:
        buf = bytearray(b"\xa5" * (size + 16))
        assert AESGCM(key).encrypt_into(nonce, data, b"aad", buf, **par) == size + 16
        assert bytes(buf) == ref, par


@pytest.mark.parametrize("size", SIZES)
def test_opening_from_immutable_bytes_and_from_a_bytearray_agree_under_every_schedule(size):
    """An exact `bytes` is opened straight from its memory (nothing can write
    it), a bytearray through the library's read-once copy: the same
    plaintext under every schedule, and a wrong tag zeroes the output of
    either."""
    key, nonce, data = AESGCM.generate_key(128), os.urandom(12), pattern(size)
    sealed = RefAESGCM(key).encrypt(nonce, data, b"aad")
    bad = bytearray(sealed)
    bad[-1] ^= 1
    for par in PARS:
        aes = AESGCM(key, **par)
        assert aes.decrypt(nonce, sealed, b"aad") == data, par
        assert aes.decrypt(nonce, bytearray(sealed), b"aad") == data, par
        for source in (sealed, bytearray(sealed), memoryview(sealed)):
            out = bytearray(b"\xa5" * size)
            assert aes.decrypt_into(nonce, source, b"aad", out) == size, (par, type(source))
            assert out == data, (par, type(source))
        for source in (bytes(bad), bad):
            out = bytearray(b"\xa5" * size)
            with pytest.raises(InvalidTag):
                aes.decrypt_into(nonce, source, b"aad", out)
            assert out == bytearray(size), (par, type(source))
