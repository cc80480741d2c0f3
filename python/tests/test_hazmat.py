import hashlib

import pytest

from conftest import PARS, pattern
from parcrypt import hazmat
from parcrypt.exceptions import HazmatWarning

pytestmark = pytest.mark.filterwarnings("ignore::parcrypt.exceptions.HazmatWarning")


def records(path):
    """The repository's `KEY = value` vector files, one record per blank-line-separated block."""
    rec = {}
    for line in path.read_text().splitlines() + [""]:
        if line.startswith("#"):
            continue
        if not line.strip():
            if rec:
                yield rec
            rec = {}
            continue
        k, _, v = line.partition("=")
        rec[k.strip()] = v.strip()


def test_rc4_rfc6229(data_dir):
    checked = 0
    for rec in records(data_dir / "rfc6229.txt"):
        key = bytes.fromhex(rec.pop("KEY"))
        end = max(int(k) for k in rec) + 16
        stream = hazmat.rc4(key, bytes(end))
        for offset, hexed in rec.items():
            assert stream[int(offset) : int(offset) + 16].hex() == hexed
            checked += 1
    assert checked > 100


def test_parc4_vectors_at_every_thread_count(data_dir):
    checked = 0
    for rec in records(data_dir / "parc4_vectors.txt"):
        key, nonce = bytes.fromhex(rec["KEY"]), bytes.fromhex(rec["NONCE"])
        block, n = int(rec["BLOCK"]), int(rec["LEN"])
        data = pattern(n)
        for par in PARS:
            out = hazmat.parc4(key, nonce, data, block_size=block, **par)
            if "CIPHERTEXT" in rec:
                assert out.hex() == rec["CIPHERTEXT"]
            else:
                assert out[:64].hex() == rec["HEAD"]
                assert hashlib.sha256(out).hexdigest() == rec["SHA256"]
        # Seeking: the second half alone, from its offset.
        half = n // 2
        assert hazmat.parc4(key, nonce, data[half:], block_size=block, offset=half) == \
            hazmat.parc4(key, nonce, data, block_size=block)[half:]
        checked += 1
    assert checked >= 4


def test_warnings_and_errors():
    with pytest.warns(HazmatWarning):
        hazmat.rc4(bytes(16), b"x")
    with pytest.raises(ValueError, match="key"):
        hazmat.rc4(bytes(2), b"x")
    with pytest.raises(ValueError, match="nonce"):
        hazmat.parc4(bytes(16), bytes(2), b"x")
    with pytest.raises(ValueError, match="block size"):
        hazmat.parc4(bytes(16), bytes(8), b"x", block_size=0)
