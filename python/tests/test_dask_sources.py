"""parcrypt.dask.merkle_root and inclusion_proof over dask arrays, bags and
lists of entry files: the same root and audit paths as merkle.root and
merkle.inclusion_proof on one machine, with chunk and block boundaries at
every awkward place (0 and 1 leaf, one short of a power of two, ragged
chunks, chunks splitting a leaf)."""

import os
import subprocess

import pytest

from test_stream import cli

dask = pytest.importorskip("dask") if os.environ.get("PARCRYPT_REQUIRE_TOOLS") != "1" else __import__("dask")
distributed = __import__("distributed")
np = pytest.importorskip("numpy") if os.environ.get("PARCRYPT_REQUIRE_TOOLS") != "1" else __import__("numpy")
import dask.array as da  # noqa: E402
import dask.bag as db  # noqa: E402

from parcrypt import merkle  # noqa: E402
from parcrypt import dask as pdask  # noqa: E402

#: Leaf counts around powers of two and the (shrunk) proof block of 8.
COUNTS = [0, 1, 2, 7, 8, 9, 31, 33]


@pytest.fixture(scope="module", params=["processes", "threads"])
def client(request):
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=request.param == "processes",
                                       dashboard_address=None)
    with cluster, distributed.Client(cluster) as c:
        yield c


@pytest.fixture(autouse=True)
def small_blocks(monkeypatch):
    """Proof blocks of 8 leaves, so small trees have many blocks, a short
    last block, and chunks that straddle blocks (the driver reads it)."""
    monkeypatch.setattr(pdask._trees, "PROOF_BLOCK", 8)  # where inclusion_proof reads it


def chunkings(n):
    """One chunk, ragged chunks of 3 (never aligned to a power of two), and
    uneven ones (5, 1, 11, ...)."""
    out = [(n,) if n else (0,)]
    if n > 1:
        out.append(tuple([3] * (n // 3) + ([n % 3] if n % 3 else [])))
        uneven, left, k = [], n, 0
        while left:
            step = min(left, (5, 1, 11, 2)[k % 4])
            uneven.append(step)
            left -= step
            k += 1
        out.append(tuple(uneven))
    return out


def assert_proofs(source, leaves, client, **kw):
    root = merkle.root(leaves)
    assert pdask.merkle_root(source, client=client, **kw) == root
    for i in sorted({0, 1, 6, 7, 8, 9, len(leaves) // 2, len(leaves) - 2, len(leaves) - 1}):
        if 0 <= i < len(leaves):
            proof, got_root = pdask.inclusion_proof(source, i, client=client, **kw)
            assert got_root == root
            assert proof == merkle.inclusion_proof(leaves, i), i
            merkle.verify_inclusion(merkle.leaf_hash(leaves[i]), i, len(leaves), proof, root)
    with pytest.raises(ValueError, match="outside"):
        pdask.inclusion_proof(source, len(leaves), client=client, **kw)


@pytest.mark.parametrize("n", COUNTS)
def test_rows_of_a_2d_array_are_leaves(client, n):
    rows = np.frombuffer(os.urandom(n * 5), dtype=np.uint8).reshape(n, 5)
    leaves = [bytes(r) for r in rows]
    for chunks in chunkings(n):
        assert_proofs(da.from_array(rows, chunks=(chunks, 5)), leaves, client)
    if n:
        # Rows split across chunks are joined back (each task needs whole rows).
        assert_proofs(da.from_array(rows, chunks=(chunkings(n)[-1], 2)), leaves, client)


def test_rows_of_width_zero_are_empty_leaves(client):
    rows = np.zeros((9, 0), dtype=np.uint8)
    assert_proofs(da.from_array(rows, chunks=((4, 5), 0)), [b""] * 9, client)


@pytest.mark.parametrize("n", [0, 1, 3, 4, 5, 29, 32, 33, 100])
def test_a_1d_array_is_bytes_cut_into_leaves_and_unaligned_chunks_are_realigned(client, n):
    data = os.urandom(n)
    leaves = [data[i:i + 4] for i in range(0, n, 4)]
    for chunks in chunkings(n):
        arr = da.from_array(np.frombuffer(data, dtype=np.uint8), chunks=(chunks,))
        assert pdask.merkle_root(arr, leaf_size=4, client=client) == merkle.root(data, leaf_size=4)
        assert_proofs(arr, leaves, client, leaf_size=4)


@pytest.mark.parametrize("format", ["bittorrent-v2", "glacier"])
def test_a_1d_array_in_the_fixed_leaf_formats(client, format):
    leaf = 16 << 10 if format == "bittorrent-v2" else 1 << 20
    for size in (1, leaf - 1, leaf, 3 * leaf + 5, 8 * leaf):
        data = os.urandom(size)
        expected = merkle.bittorrent_v2(data)[0] if format == "bittorrent-v2" else merkle.glacier(data)
        for chunks in ((size,), ((leaf // 3 + 1,) * (size // (leaf // 3 + 1)) + (size % (leaf // 3 + 1),))):
            chunks = tuple(c for c in chunks if c)
            arr = da.from_array(np.frombuffer(data, dtype=np.uint8), chunks=(chunks,))
            assert pdask.merkle_root(arr, format, client=client) == expected, (size, chunks)


@pytest.mark.parametrize("n", COUNTS)
def test_a_bag_of_leaves(client, n):
    leaves = [os.urandom(i % 40) for i in range(n)]
    for parts in (1, 7):
        assert_proofs(db.from_sequence(leaves, npartitions=parts), leaves, client)


@pytest.mark.parametrize("n", [0, 1, 7, 8, 9, 33])
def test_entry_files_one_leaf_each_as_the_cli(client, tmp_path, n):
    paths, leaves = [], []
    for i in range(n):
        leaf = os.urandom(i * 7 % 50)
        p = tmp_path / f"e{i:03}"
        p.write_bytes(leaf)
        paths.append(str(p))
        leaves.append(leaf)
    # part_size=64: batches of a few files, so a tree spans many tasks.
    for part_size in (64, pdask.DEFAULT_PART):
        assert_proofs(paths, leaves, client, part_size=part_size)
    if n:
        out = subprocess.run([cli(), "merkle", "root", "--format", "rfc6962", "--leaves", *paths],
                             check=True, capture_output=True, text=True).stdout
        assert merkle.root(leaves).hex() in out


def bundle(entries):
    return b"".join(len(e).to_bytes(2, "big") + e for e in entries)


@pytest.mark.parametrize("sizes", [[], [0], [1], [7], [3, 0, 5], [8, 8, 1], [256, 256, 17], [1, 2, 3, 4, 5, 6, 7]])
def test_entry_bundles_are_length_prefixed_entries(client, tmp_path, sizes):
    paths, leaves = [], []
    for i, count in enumerate(sizes):
        entries = [os.urandom((i + j) % 70) for j in range(count)]
        if count and i == 0:
            entries[0] = os.urandom(65535)  # the largest entry a u16 length allows
        p = tmp_path / f"bundle{i}"
        p.write_bytes(bundle(entries))
        paths.append(str(p))
        leaves.extend(entries)
    for part_size in (64, pdask.DEFAULT_PART):
        assert_proofs(paths, leaves, client, entries="bundle", part_size=part_size)


def test_malformed_sources_are_refused_clearly(client, tmp_path):
    cut = tmp_path / "cut"
    cut.write_bytes(bundle([b"abc", b"defg"])[:-1])
    with pytest.raises(ValueError, match="claims 4 bytes, only 3 remain"):
        pdask.merkle_root([str(cut)], entries="bundle", client=client)
    odd = tmp_path / "odd"
    odd.write_bytes(b"\x00")
    with pytest.raises(ValueError, match="truncated entry length"):
        pdask.merkle_root([str(odd)], entries="bundle", client=client)
    with pytest.raises(FileNotFoundError):
        pdask.merkle_root([str(odd), str(tmp_path / "missing")], client=client)
    with pytest.raises(ValueError, match="entries"):
        pdask.merkle_root([str(odd)], entries="lines", client=client)
    with pytest.raises(ValueError, match="uint8"):
        pdask.merkle_root(da.zeros((4, 4), dtype=np.uint32), client=client)
    with pytest.raises(ValueError, match="1-D .* or 2-D"):
        pdask.merkle_root(da.zeros((2, 2, 2), dtype=np.uint8), client=client)
    with pytest.raises(ValueError, match="rfc6962"):
        pdask.merkle_root(da.zeros((4, 4), dtype=np.uint8), "glacier", client=client)
    with pytest.raises(TypeError, match="source must be"):
        pdask.merkle_root(42, client=client)


@pytest.mark.parametrize("size", [1, 4095, 4096, 4097, 10 * 4096 + 3, 1 << 20, (64 << 20) + 1])
@pytest.mark.parametrize("slots", [1, 2, 3, 16])
def test_a_file_is_cut_into_equal_leaf_aligned_parts_a_multiple_of_the_threads(size, slots):
    leaf = 4096
    for part_size in (leaf, 3 * leaf + 1, 1 << 20, 256 << 20):
        parts = pdask._cut(size, leaf, part_size, slots)
        leaves = -(-size // leaf)
        assert [o for o, _ in parts] == sorted({o for o, _ in parts}) and parts[0][0] == 0
        assert sum(n for _, n in parts) == size and all(o % leaf == 0 for o, _ in parts)
        assert all(a + n == b for (a, n), (b, _) in zip(parts, parts[1:]))
        assert len(parts) == leaves or len(parts) % slots == 0
        assert max(n for _, n in parts[:-1] or parts) - min(n for _, n in parts[:-1] or parts) <= leaf
        assert len(parts) >= min(leaves, -(-size // part_size))


def test_a_worker_reads_its_part_with_positional_reads_and_a_short_file_is_an_oserror(tmp_path):
    # Parts were memory-mapped: a file truncated while a worker hashed it
    # killed that worker with SIGBUS. Now a part is read exactly or the
    # task raises OSError saying where the file ended.
    path = tmp_path / "part.bin"
    path.write_bytes(bytes(range(256)) * 64)
    with pdask._view(str(path), 4096, 8192) as data:
        assert bytes(data) == (bytes(range(256)) * 64)[4096:4096 + 8192]
    with pytest.raises(OSError, match="truncated"):
        with pdask._view(str(path), 8192, 16384):
            pass
