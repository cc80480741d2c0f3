"""parcrypt.dask on a LocalCluster (2 worker processes, and threads in one
process): the same bytes as the single-machine functions and the CLI."""

import hashlib
import os
import subprocess

import pytest

from conftest import pattern
from test_stream import cli

dask = pytest.importorskip("dask") if os.environ.get("PARCRYPT_REQUIRE_TOOLS") != "1" else __import__("dask")
distributed = __import__("distributed")
import dask.bag as db  # noqa: E402

from parcrypt import ecdsa, merkle, stream  # noqa: E402
from parcrypt import dask as pdask  # noqa: E402
from parcrypt.merkle import CompactRange  # noqa: E402

PART = 64 << 10  # small parts, so files split across tasks


@pytest.fixture(scope="module", params=["processes", "threads"])
def client(request):
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=request.param == "processes",
                                       dashboard_address=None)
    with cluster, distributed.Client(cluster) as c:
        yield c


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("files")
    sizes = [0, 1, 4095, 4096, 100_000, (1 << 20) + 7, (3 << 20) + 11]
    paths = []
    for i, n in enumerate(sizes):
        p = d / f"f{i} name"
        p.write_bytes(pattern(n)[::-1] if i % 2 else pattern(n))
        paths.append(str(p))
    return paths


def test_compact_ranges_merge_to_the_root_and_pickle():
    import pickle

    leaves = [os.urandom(i % 50) for i in range(1000)]
    a = CompactRange.from_leaves("rfc6962", 0, leaves[:333])
    b = pickle.loads(pickle.dumps(CompactRange.from_leaves("rfc6962", 333, leaves[333:])))
    assert a.merge(b).root() == merkle.root(leaves)
    assert len(b.to_bytes()) <= 22 + 32 * 128
    with pytest.raises(ValueError, match="adjacent"):
        b.merge(a)
    with pytest.raises(ValueError, match="leaf 0"):
        b.root()


@pytest.mark.parametrize("format", ["sha256", "rfc6962", "bittorrent-v2", "glacier"])
def test_hash_files_is_the_clis_manifest(client, files, format):
    paths = [p for p in files if not (format == "bittorrent-v2" and os.path.getsize(p) == 0)]
    manifest = pdask.hash_files(paths, format, part_size=PART, client=client)
    expected = subprocess.run([cli(), "hash", "--format", format, *paths], check=True,
                              capture_output=True, text=True).stdout
    assert manifest == expected
    if format == "sha256":
        assert manifest == "".join(f"{hashlib.sha256(open(p, 'rb').read()).hexdigest()}  {p}\n" for p in paths)


@pytest.mark.parametrize("format", ["sha256", "rfc6962", "glacier"])
def test_hash_files_many_small_files_with_large_ones_mixed_in(client, tmp_path, format):
    """Workers stat their own batch and send large files back for a second,
    split round: large files first, last, in the middle and side by side
    among many small ones (several batches) still give the CLI's manifest,
    lines in argument order."""
    paths = []
    for i in range(700):
        large = i in (0, 350, 351, 699)
        n = (3 * PART + 4097 if format != "glacier" else (2 << 20) + 5) if large else i % 97
        p = tmp_path / f"m{i:04}"
        p.write_bytes(pattern(n + i % 3))
        paths.append(str(p))
    manifest = pdask.hash_files(paths, format, part_size=PART, client=client)
    expected = subprocess.run([cli(), "hash", "--format", format, *paths], check=True,
                              capture_output=True, text=True).stdout
    assert manifest == expected
    assert len(pdask._batches(len(paths), 2)) > 1


def test_hash_files_batches_cover_every_file_once():
    for n in (0, 1, 255, 256, 257, 10_000, 100_000):
        for slots in (1, 2, 7):
            cuts = pdask._batches(n, slots)
            assert cuts[0][0] == 0 and cuts[-1][1] == n
            assert all(a1 == b0 for (_, a1), (b0, _) in zip(cuts, cuts[1:]))
            assert all(b - a <= pdask.MAX_BATCH_FILES for a, b in cuts)


@pytest.mark.parametrize("format", ["sha256", "rfc6962"])
def test_a_missing_file_among_many_fails_the_whole_manifest(client, tmp_path, format):
    paths = []
    for i in range(600):
        p = tmp_path / f"s{i:04}"
        p.write_bytes(b"x" * i)
        paths.append(str(p))
    paths.insert(437, str(tmp_path / "missing"))
    with pytest.raises(FileNotFoundError, match="missing"):
        pdask.hash_files(paths, format, part_size=PART, client=client)
    with pytest.raises(ValueError, match="NUL"):
        pdask.hash_files([paths[0], "a\0b"], format, client=client)


@pytest.mark.parametrize("format", ["rfc6962", "bittorrent-v2", "glacier"])
def test_merkle_root_of_one_big_file(client, files, format):
    for path in files[1:]:
        for part in (PART, 1 << 20):
            assert pdask.merkle_root(path, format, part_size=part, client=client) == merkle.hash_file(path, format)


def test_merkle_root_of_a_bag_of_leaves(client):
    leaves = [os.urandom(i % 90) for i in range(5000)]
    bag = db.from_sequence(leaves, npartitions=7)
    assert pdask.merkle_root(bag, client=client) == merkle.root(leaves)


def test_inclusion_proof_across_parts(client, files):
    path = files[-1]
    data = open(path, "rb").read()
    leaves = -(-len(data) // 4096)
    for index in (0, 1, 15, 16, 17, leaves // 2, leaves - 1):
        proof, root = pdask.inclusion_proof(path, index, part_size=PART, client=client)
        assert root == merkle.root(data, leaf_size=4096)
        assert proof == merkle.inclusion_proof(data, index, leaf_size=4096)
        merkle.verify_inclusion(merkle.leaf_hash(data[index * 4096:(index + 1) * 4096]), index, leaves, proof, root)
    with pytest.raises(ValueError, match="outside"):
        pdask.inclusion_proof(path, leaves, client=client)


def test_verify_batch_bag_dataframe_and_list(client):
    import dask.dataframe as dd
    import pandas as pd

    keys = [ecdsa.generate_private_key() for _ in range(3)]
    rows, expected = [], []
    for i in range(600):
        k = keys[i % 3]
        msg = b"m%d" % i
        sig = k.sign(msg)
        if i % 9 == 4:
            msg += b"!"
        if i % 50 == 7:
            sig = b"junk"
        rows.append((k.public_key().public_bytes("DER"), msg, sig))
        expected.append(not (i % 9 == 4 or i % 50 == 7))
    failed = [i for i, ok in enumerate(expected) if not ok]
    # Bytes columns stay bytes (dask would convert object columns to strings).
    with dask.config.set({"dataframe.convert-string": False}):
        frame = dd.from_pandas(pd.DataFrame(rows, columns=["public_key", "message", "signature"], dtype=object),
                               npartitions=4)
        for source in (rows, db.from_sequence(rows, npartitions=5), frame):
            results, count, indices = pdask.verify_batch(source, client=client)
            assert results == expected and count == len(failed) and indices == failed


def test_encrypted_files_and_one_large_file_read_by_the_cli(client, files, tmp_path):
    key = os.urandom(32)
    out = tmp_path / "enc"
    out.mkdir()
    sealed = pdask.encrypt_files(files, out, key=key, client=client)
    back = tmp_path / "dec"
    back.mkdir()
    plain = pdask.decrypt_files(sealed, back, key=key, client=client)
    for src, dst in zip(files, plain):
        assert open(src, "rb").read() == open(dst, "rb").read()
    keyfile = tmp_path / "key"
    keyfile.write_bytes(key)
    for src in files:
        for seg in (4096, 1 << 16):
            dst = tmp_path / "large.pc"
            assert pdask.encrypt_large(src, dst, key=key, segment_size=seg, part_size=3 * seg + 5,
                                       overwrite=True, client=client) == os.path.getsize(src)
            got = subprocess.run([cli(), "decrypt", "--key-file", str(keyfile), "-i", str(dst)],
                                 check=True, capture_output=True).stdout
            assert got == open(src, "rb").read(), (src, seg)
    with pytest.raises(FileExistsError):
        pdask.encrypt_large(files[1], tmp_path / "large.pc", key=key, client=client)
    assert not [p for p in os.listdir(tmp_path) if p.endswith(".parcrypt-tmp")]


def test_the_default_client_is_a_local_cluster(files):
    assert pdask.hash_files(files[:2]) == "".join(
        f"{hashlib.sha256(open(p, 'rb').read()).hexdigest()}  {p}\n" for p in files[:2])


def test_segments_hold_a_key_so_they_do_not_pickle_and_do_not_print_it():
    import pickle

    header, seg = stream.Segments.create(key=bytes(range(32)), segment_size=4096)
    with pytest.raises(TypeError, match="pickle"):
        pickle.dumps(seg)
    assert seg.payload_key.hex() not in repr(seg)
    worker = stream.Segments.from_payload_key(seg.payload_key, 4096, seg.header_len)
    data = pattern(10_000)
    blob = header + worker.seal(0, data[:8192], False) + worker.seal(2, data[8192:], True)
    out = stream.Segments.from_header(blob, key=bytes(range(32)))
    assert out.open(0, blob[seg.offset(0):], True) == data


def test_decrypt_files_reads_cli_streams_and_a_wrong_key_leaves_nothing(client, files, tmp_path):
    key = os.urandom(32)
    keyfile = tmp_path / "key"
    keyfile.write_bytes(key)
    sealed_dir, out_dir = tmp_path / "sealed", tmp_path / "out"
    sealed_dir.mkdir()
    out_dir.mkdir()
    sealed = []
    for p in files:
        dst = sealed_dir / (os.path.basename(p) + ".pc")
        subprocess.run([cli(), "encrypt", "--key-file", str(keyfile), "-i", p, "-o", str(dst)], check=True)
        sealed.append(str(dst))
    for src, dst in zip(files, pdask.decrypt_files(sealed, out_dir, key=key, client=client)):
        assert open(src, "rb").read() == open(dst, "rb").read()
    wrong = tmp_path / "wrong"
    wrong.mkdir()
    from parcrypt.exceptions import NoIdentityError

    with pytest.raises(NoIdentityError):
        pdask.decrypt_files(sealed, wrong, key=os.urandom(32), client=client)
    assert os.listdir(wrong) == []


def test_missing_inputs_fail_clearly_with_no_output(client, files, tmp_path):
    with pytest.raises(FileNotFoundError):
        pdask.hash_files([files[1], str(tmp_path / "missing")], client=client)
    with pytest.raises(FileNotFoundError):
        pdask.merkle_root(str(tmp_path / "missing"), client=client)
    with pytest.raises(FileNotFoundError):
        pdask.encrypt_large(str(tmp_path / "missing"), tmp_path / "out.pc", key=os.urandom(32), client=client)
    assert not (tmp_path / "out.pc").exists()


def test_a_worker_killed_mid_job_still_gives_the_right_root(tmp_path):
    """Dask reschedules the lost worker's tasks; the compact ranges are
    recomputed and the root is the same."""
    import threading
    import time

    path = tmp_path / "big"
    path.write_bytes(os.urandom(48 << 20))
    expected = merkle.hash_file(path, "rfc6962")
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    with cluster, distributed.Client(cluster) as c:
        before = set(c.scheduler_info()["workers"])
        result = {}
        job = threading.Thread(target=lambda: result.update(root=pdask.merkle_root(path, part_size=16 << 10, client=c)))
        job.start()
        # Once tasks are running, kill one worker process outright.
        for _ in range(200):
            if any(c.processing().values()):
                break
            time.sleep(0.01)
        victim = c.run(os.getpid, workers=[sorted(before)[0]])
        os.kill(next(iter(victim.values())), 9)
        job.join(timeout=300)
        assert not job.is_alive()
        assert result["root"] == expected
        c.wait_for_workers(2, timeout=60)
        assert set(c.scheduler_info()["workers"]) != before, "the killed worker was replaced"
