"""ECDSA batch verification over SHA-256 digests (the binding's
ec_verify_batch_digests) against `cryptography`'s Prehashed(SHA256())."""

import hashlib
import os

import pytest
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec as ref_ec
from cryptography.hazmat.primitives.asymmetric.utils import Prehashed, decode_dss_signature

from parcrypt import _parcrypt, ecdsa

PREHASHED = ref_ec.ECDSA(Prehashed(hashes.SHA256()))


@pytest.mark.parametrize("threads", [1, 2, None])
def test_digest_batches_agree_with_cryptography_both_ways(threads):
    theirs = ref_ec.generate_private_key(ref_ec.SECP256R1())
    their_pub = ecdsa.load_public_key(theirs.public_key().public_bytes(
        serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo))
    ours = ecdsa.generate_private_key()
    our_pub_for_them = serialization.load_der_public_key(ours.public_key().public_bytes("DER"))
    items, expected = [], []
    for i in range(40):
        digest = hashlib.sha256(b"message %d" % i).digest()
        if i % 2:
            sig = theirs.sign(digest, PREHASHED)  # cryptography signs the digest as given
            key = their_pub
        else:
            sig = ours.sign_digest(digest)
            our_pub_for_them.verify(sig, digest, PREHASHED)  # and accepts ours
            key = ours.public_key()
        if i % 5 == 3:
            digest = bytes([digest[0] ^ 1]) + digest[1:]  # another message's digest
        if i % 7 == 6:
            sig = b"\x30\x00"  # malformed: simply not valid
        items.append((key, digest, sig))
        expected.append(not (i % 5 == 3 or i % 7 == 6))
    assert _parcrypt.ec_verify_batch_digests(items, threads=threads) == expected
    assert ecdsa.verify_batch_digests(items, threads=threads) == expected  # the public name
    # Over the same messages, the message form agrees (the digest is SHA-256).
    messages = [(k, b"message %d" % i, s) for i, (k, _, s) in enumerate(items)]
    assert ecdsa.verify_batch(messages, threads=threads) == [
        ok or i % 5 == 3 and i % 7 != 6 for i, ok in enumerate(expected)]


def test_fixed_encoding_and_refusals():
    key = ecdsa.generate_private_key()
    digest = os.urandom(32)
    fixed = key.sign_digest(digest, encoding="fixed")
    r, s = decode_dss_signature(key.sign_digest(digest))
    assert len(fixed) == 64 and r and s
    assert _parcrypt.ec_verify_batch_digests([(key.public_key(), digest, fixed)], encoding="fixed") == [True]
    assert _parcrypt.ec_verify_batch_digests([]) == []
    with pytest.raises(ValueError, match="32-byte SHA-256 digest, got 31"):
        _parcrypt.ec_verify_batch_digests([(key.public_key(), digest[:31], fixed)], encoding="fixed")
    with pytest.raises(TypeError, match="items\\[0\\]\\[0\\]"):
        _parcrypt.ec_verify_batch_digests([(b"key", digest, fixed)])
