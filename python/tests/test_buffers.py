import os

import numpy as np
import pytest
from cryptography.hazmat.primitives.ciphers.aead import AESGCM as RefAESGCM

from conftest import pattern
from parcrypt import ciphers, merkle
from parcrypt.aead import AESGCM


def test_every_buffer_type_gives_the_same_result():
    key, nonce = os.urandom(32), os.urandom(12)
    data = pattern(100_003)
    ref = RefAESGCM(key).encrypt(nonce, data, None)
    aes = AESGCM(key)
    arr = np.frombuffer(data, dtype=np.uint8)
    forms = [data, bytearray(data), memoryview(data), memoryview(bytearray(data)), arr,
             np.frombuffer(data[:100_000], dtype=np.uint32)]
    for form in forms[:-1]:
        assert aes.encrypt(nonce, form, None) == ref, type(form)
        assert aes.encrypt(memoryview(nonce), form, bytearray()) == ref
    # Any item type: the bytes are what count.
    assert aes.encrypt(nonce, forms[-1], None) == RefAESGCM(key).encrypt(nonce, data[:100_000], None)
    # A slice of a memoryview is read in place.
    big = memoryview(b"xx" + data + b"yy")
    assert aes.encrypt(nonce, big[2:-2], None) == ref


def test_non_contiguous_buffers_are_refused_clearly():
    arr = np.arange(64, dtype=np.uint8).reshape(8, 8)
    with pytest.raises(BufferError, match="contiguous"):
        merkle.root(arr[:, ::2], leaf_size=4)
    with pytest.raises(BufferError, match="contiguous"):
        ciphers.encrypt("ctr", bytes(16), bytes(16), memoryview(bytes(64))[::2])
    with pytest.raises(TypeError, match="bytes-like"):
        merkle.root([b"a", "b"])
    with pytest.raises(TypeError, match="bytes-like"):
        ciphers.encrypt("ctr", bytes(16), bytes(16), 12)


def test_numpy_leaves_without_copy():
    leaves = np.frombuffer(pattern(64 * 1000), dtype=np.uint8).reshape(1000, 64)
    as_list = [bytes(row) for row in leaves]
    assert merkle.root(leaves, leaf_size=64) == merkle.root(as_list)
