"""parcrypt.dask.cobblestone_encrypt / cobblestone_decrypt on a 2-worker
LocalCluster: one message written and read by several workers at known
offsets, the same bytes as one process given the salt, read by pyca and
reading pyca's, nothing left behind on a failure."""

import os

import pytest

from conftest import pattern
from parcrypt import cobblestone
from parcrypt.cobblestone import CHUNK, HEADER, SEALED_CHUNK
from parcrypt.exceptions import InvalidTag
from test_cobblestone import pyca, pyca_classes

dask = pytest.importorskip("dask") if os.environ.get("PARCRYPT_REQUIRE_TOOLS") != "1" else __import__("dask")
distributed = __import__("distributed")

from parcrypt import dask as pdask  # noqa: E402

PART = 3 * CHUNK  # small runs, so every message splits across tasks and workers
SIZES = [0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 2 * CHUNK, 6 * CHUNK, 6 * CHUNK + 5, (1 << 20) + 7]


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    with cluster, distributed.Client(cluster) as c:
        yield c


def test_runs_cover_the_message_evenly():
    for chunks in [1, 2, 5, 64, 1000]:
        for slots in [1, 2, 3]:
            runs = pdask._cob_runs(chunks, PART, slots)
            assert runs[0][0] == 0 and sum(n for _, n in runs) == chunks
            assert all(a + n == b for (a, n), (b, _) in zip(runs, runs[1:]))
            assert max(n for _, n in runs) - min(n for _, n in runs) <= 1
            if chunks >= 2 * slots:
                assert len(runs) % slots == 0


@pytest.mark.parametrize("key_len", [16, 32])
def test_the_cluster_writes_what_one_process_writes_and_pyca_reads_it(client, tmp_path, key_len):
    module, _ = pyca()
    pe, pd = pyca_classes(module, key_len)
    key, ctx = os.urandom(key_len), b"dask\x00ctx"
    scheme = cobblestone.COBBLESTONE_128 if key_len == 16 else cobblestone.COBBLESTONE_256
    for size in SIZES:
        data = pattern(size)[::-1]
        src, enc, out = tmp_path / f"p{size}", tmp_path / f"p{size}.cob", tmp_path / f"p{size}.out"
        src.write_bytes(data)
        assert pdask.cobblestone_encrypt(src, enc, key, ctx, client=client, part_size=PART) == size
        sealed = enc.read_bytes()
        assert len(sealed) == cobblestone.sealed_len(size)
        # One process, given the cluster's salt: the same bytes.
        one = scheme.parts(key, ctx, sealed[:HEADER]).seal(0, data, True, threads=1)
        assert sealed == sealed[:HEADER] + one, size
        dec = pd(key, ctx)
        assert dec.update(sealed) + dec.finalize() == data
        # pyca's message, decrypted by the cluster.
        e = pe(key, ctx)
        (tmp_path / "pyca.cob").write_bytes(e.update(data) + e.finalize())
        assert pdask.cobblestone_decrypt(tmp_path / "pyca.cob", out, key, ctx, client=client, part_size=PART) == size
        assert out.read_bytes() == data
        for p in (src, enc, out, tmp_path / "pyca.cob"):
            p.unlink()


def test_a_hostile_message_leaves_no_output(client, tmp_path):
    key, ctx = os.urandom(16), b"c"
    data = pattern(7 * CHUNK + 11)
    sealed = cobblestone.encrypt(key, data, ctx)
    h = sealed[:HEADER]
    body = [sealed[HEADER + k * SEALED_CHUNK:HEADER + (k + 1) * SEALED_CHUNK] for k in range(7)]
    final = sealed[HEADER + 7 * SEALED_CHUNK:]
    flipped = bytearray(sealed)
    flipped[HEADER + 5 * SEALED_CHUNK + 9] ^= 1
    cases = {
        "truncated at a chunk": sealed[:HEADER + 7 * SEALED_CHUNK],
        "final chunk cut": sealed[:-1],
        "extended": sealed + body[0],
        "swapped": h + body[1] + body[0] + b"".join(body[2:]) + final,
        "flipped": bytes(flipped),
    }
    src, dst = tmp_path / "m.cob", tmp_path / "out"
    for name, bad in cases.items():
        src.write_bytes(bad)
        with pytest.raises(InvalidTag):
            pdask.cobblestone_decrypt(src, dst, key, ctx, client=client, part_size=PART)
        assert sorted(os.listdir(tmp_path)) == ["m.cob"], name
    src.write_bytes(sealed)
    for k, c in [(os.urandom(16), ctx), (key, b"other")]:
        with pytest.raises(InvalidTag):
            pdask.cobblestone_decrypt(src, dst, k, c, client=client, part_size=PART)
        assert sorted(os.listdir(tmp_path)) == ["m.cob"]
    assert pdask.cobblestone_decrypt(src, dst, key, ctx, client=client, part_size=PART) == len(data)
    assert dst.read_bytes() == data
    with pytest.raises(FileExistsError):
        pdask.cobblestone_decrypt(src, dst, key, ctx, client=client)


def test_without_a_client_a_local_cluster_runs_it(tmp_path):
    key = os.urandom(32)
    data = os.urandom(5 * CHUNK + 1)
    (tmp_path / "a").write_bytes(data)
    pdask.cobblestone_encrypt(tmp_path / "a", tmp_path / "a.cob", key, b"", part_size=2 * CHUNK)
    assert cobblestone.decrypt(key, (tmp_path / "a.cob").read_bytes(), b"") == data
    pdask.cobblestone_decrypt(tmp_path / "a.cob", tmp_path / "b", key, b"", part_size=2 * CHUNK)
    assert (tmp_path / "b").read_bytes() == data
