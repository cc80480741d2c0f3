"""parcrypt.dask.verify_batch over messages and over SHA-256 digests
(prehashed), for plain sequences (sent as flat buffers), bags and
DataFrames: exactly the bad rows are flagged, in input order."""

import hashlib
import os

import pytest

dask = pytest.importorskip("dask") if os.environ.get("PARCRYPT_REQUIRE_TOOLS") != "1" else __import__("dask")
distributed = __import__("distributed")
import dask.bag as db  # noqa: E402

from parcrypt import ecdsa  # noqa: E402
from parcrypt import dask as pdask  # noqa: E402


@pytest.fixture(scope="module", params=["processes", "threads"])
def client(request):
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=request.param == "processes",
                                       dashboard_address=None)
    with cluster, distributed.Client(cluster) as c:
        yield c


def rows_and_expected(n, prehashed):
    keys = [ecdsa.generate_private_key() for _ in range(3)]
    rows, expected = [], []
    for i in range(n):
        k = keys[i % 3]
        msg = b"m%d" % i
        sig = k.sign(msg)
        bad = i % 9 == 4 or i % 50 == 7 or i % 61 == 5
        if i % 9 == 4:
            msg += b"!"
        if i % 50 == 7:
            sig = b"junk"
        key = k.public_key().public_bytes("DER")
        if i % 2:
            key = k.public_key().public_bytes("DER", "X962")  # keys in either form, parsed once each
        if i % 61 == 5:
            key = b"not a key"
        rows.append((key, hashlib.sha256(msg).digest() if prehashed else msg, sig))
        expected.append(not bad)
    return rows, expected


@pytest.mark.parametrize("prehashed", [False, True])
@pytest.mark.parametrize("n", [0, 1, 255, 1031])
def test_exactly_the_bad_rows_fail(client, prehashed, n):
    import dask.dataframe as dd
    import pandas as pd

    rows, expected = rows_and_expected(n, prehashed)
    failed = [i for i, ok in enumerate(expected) if not ok]
    sources = [rows, iter(rows), tuple(rows)]
    if n:
        sources.append(db.from_sequence(rows, npartitions=5))
        with dask.config.set({"dataframe.convert-string": False}):
            sources.append(dd.from_pandas(pd.DataFrame(rows, columns=["public_key", "message", "signature"],
                                                       dtype=object), npartitions=3))
    for source in sources:
        results, count, indices = pdask.verify_batch(source, prehashed=prehashed, client=client)
        assert results == expected and count == len(failed) and indices == failed, type(source)


def test_a_digest_that_is_not_32_bytes_is_refused(client):
    rows, _ = rows_and_expected(300, True)
    rows[200] = (rows[200][0], rows[200][1][:20], rows[200][2])
    for source in (rows, db.from_sequence(rows, npartitions=2)):
        with pytest.raises(ValueError, match="digest of 20 bytes"):
            pdask.verify_batch(source, prehashed=True, client=client)
    # Over messages, the short "digest" is just a message its signature does not cover.
    assert 200 in pdask.verify_batch(rows, client=client)[2]
