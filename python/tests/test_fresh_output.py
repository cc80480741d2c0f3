"""Outputs of 4 MiB and more are advised huge pages and first written by the
call's threads (buffer.rs, `bytes_uninit`; GCM sealing writes
its ciphertext there directly): at sizes around that threshold and
its 2 MiB parts, every function that returns a new bytes object gives the
same bytes as `cryptography` (or as the sequential call) for every thread
count and strategy."""

import os
import warnings

import pytest
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM as RefGCM

from conftest import PARS, pattern
from parcrypt import aead, ciphers, hazmat
from parcrypt.exceptions import HazmatWarning

MIB = 1 << 20
# Below, at and above the threshold; a tail shorter than one part; a length
# whose last part holds only the tag (GCM's 16 extra bytes).
FRESH_SIZES = [4 * MIB - 17, 4 * MIB - 16, 4 * MIB - 1, 4 * MIB, 4 * MIB + 1, 6 * MIB + 17, 8 * MIB - 16]


@pytest.mark.parametrize("size", FRESH_SIZES)
def test_gcm_round_trip_matches_cryptography(size):
    key, nonce, aad = os.urandom(32), os.urandom(12), b"header"
    data = pattern(size)
    sealed = RefGCM(key).encrypt(nonce, data, aad)
    ours = aead.AESGCM(key)
    for par in PARS:
        assert ours.encrypt(nonce, data, aad, **par) == sealed, par
        assert ours.decrypt(nonce, sealed, aad, **par) == data, par


@pytest.mark.parametrize("size", FRESH_SIZES)
def test_ctr_and_ecb_update_match_cryptography(size):
    key, iv = os.urandom(16), os.urandom(16)
    data = pattern(size - size % 16)
    ctr = Cipher(algorithms.AES(key), modes.CTR(iv)).encryptor()
    assert_all(lambda par: ciphers.encrypt("ctr", key, iv, data, **par), ctr.update(data) + ctr.finalize())
    ecb = Cipher(algorithms.AES(key), modes.ECB()).encryptor()
    expected = ecb.update(data) + ecb.finalize()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", HazmatWarning)
        assert_all(lambda par: ciphers.encrypt("ecb", key, None, data, padding=False, **par), expected)


@pytest.mark.parametrize("size", [4 * MIB - 1, 4 * MIB, 6 * MIB + 17])
def test_parc4_and_rc4_match_the_sequential_call(size):
    key, nonce, data = os.urandom(16), os.urandom(16), pattern(size)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", HazmatWarning)
        expected = hazmat.parc4(key, nonce, data, threads=1, strategy="seq")
        assert_all(lambda par: hazmat.parc4(key, nonce, data, **par), expected)
        # RC4 is its own inverse: the fresh output of one call decrypts by the next.
        assert hazmat.rc4(key, hazmat.rc4(key, data)) == data


def assert_all(call, expected):
    for par in PARS:
        assert call(par) == expected, par
