import hashlib
import os

import pytest

from conftest import PARS, pattern
from parcrypt import merkle
from parcrypt.exceptions import InvalidProof


def ref_root(leaves):
    """RFC 6962 §2.1, straight from the definition (hashlib)."""
    if not leaves:
        return hashlib.sha256(b"").digest()
    if len(leaves) == 1:
        return hashlib.sha256(b"\x00" + leaves[0]).digest()
    k = 1
    while k * 2 < len(leaves):
        k *= 2
    return hashlib.sha256(b"\x01" + ref_root(leaves[:k]) + ref_root(leaves[k:])).digest()


def test_transparency_dev_vectors(data_dir):
    leaves, roots = {}, {}
    for line in (data_dir / "transparency-dev" / "leaves_roots.txt").read_text().splitlines():
        if line.startswith("leaf "):
            _, i, h = line.split()
            leaves[int(i)] = b"" if h == "-" else bytes.fromhex(h)
        elif line.startswith("root "):
            _, n, h = line.split()
            roots[int(n)] = bytes.fromhex(h)
    ordered = [leaves[i] for i in range(len(leaves))]
    for n, expected in roots.items():
        for par in PARS:
            assert merkle.root(ordered[:n], **par) == expected


def test_repository_vectors_for_every_format(data_dir):
    cache = {}
    checked = 0
    for line in (data_dir / "merkle_vectors.txt").read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        fmt, size, param, root, layer = line.split()
        size = int(size)
        if size > (8 << 20):
            continue
        data = cache.setdefault(size, pattern(size))
        if fmt == "rfc6962":
            assert merkle.root(data, leaf_size=int(param)).hex() == root
        elif fmt == "glacier":
            assert merkle.glacier(data).hex() == root
        elif fmt == "bittorrent-v2":
            got_root, got_layer = merkle.bittorrent_v2(data, piece_length=int(param))
            assert (got_root.hex() if got_root else "none") == root
            assert (",".join(h.hex() for h in got_layer) or "-") == layer
        checked += 1
    assert checked > 50


@pytest.mark.parametrize("n", [1, 2, 3, 7, 8, 9, 255, 1000, 5000])
def test_roots_and_proofs_against_hashlib(n):
    leaves = [os.urandom(i % 70) for i in range(n)]
    expected = ref_root(leaves)
    for par in PARS:
        assert merkle.root(leaves, **par) == expected
    for index in {0, n // 2, n - 1}:
        proof = merkle.inclusion_proof(leaves, index)
        merkle.verify_inclusion(merkle.leaf_hash(leaves[index]), index, n, proof, expected)
        with pytest.raises(InvalidProof):
            merkle.verify_inclusion(merkle.leaf_hash(b"not a leaf"), index, n, proof, expected)
    for old in {1, n // 2 or 1, n}:
        proof = merkle.consistency_proof(leaves, old, n)
        merkle.verify_consistency(old, n, ref_root(leaves[:old]), expected, proof)
        if old < n:
            with pytest.raises(InvalidProof):
                merkle.verify_consistency(old, n, os.urandom(32), expected, proof)


def test_one_buffer_with_leaf_size_equals_the_list():
    data = pattern((3 << 20) + 11)
    leaves = [data[i : i + 4096] for i in range(0, len(data), 4096)]
    assert merkle.root(data, leaf_size=4096) == ref_root(leaves) == merkle.root(leaves)
    assert merkle.inclusion_proof(data, 5, leaf_size=4096) == merkle.inclusion_proof(leaves, 5)


def test_bad_arguments():
    with pytest.raises(ValueError, match="outside"):
        merkle.inclusion_proof([b"a"], 1)
    with pytest.raises(ValueError, match="leaf_size"):
        merkle.root(b"abc", leaf_size=0)
    with pytest.raises(TypeError, match="leaf_size"):
        merkle.root(b"abc")
    with pytest.raises(ValueError, match="32 bytes"):
        merkle.verify_inclusion(b"short", 0, 1, [], bytes(32))
    with pytest.raises(ValueError, match="piece length"):
        merkle.bittorrent_v2(b"x", piece_length=1000)
    with pytest.raises(ValueError, match="unknown hash format"):
        merkle.hash_file(__file__, "md5")
    with pytest.raises(FileNotFoundError):
        merkle.hash_file("/nonexistent/file")


def test_hash_file_matches_in_memory(tmp_path):
    data = pattern((2 << 20) + 5)
    path = tmp_path / "f.bin"
    path.write_bytes(data)
    assert merkle.hash_file(path) == hashlib.sha256(data).digest()
    assert merkle.hash_file(str(path), "rfc6962", leaf_size=1024) == merkle.root(data, leaf_size=1024)
    assert merkle.hash_file(path, "bittorrent-v2") == merkle.bittorrent_v2(data)[0]
    assert merkle.hash_file(path, "glacier") == merkle.glacier(data)
    empty = tmp_path / "empty"
    empty.write_bytes(b"")
    assert merkle.hash_file(empty, "bittorrent-v2") is None


def test_pymerkle_an_independent_rfc6962_tree_agrees():
    from pymerkle import InmemoryTree

    leaves = [os.urandom(i % 100) for i in range(1500)]
    tree = InmemoryTree(algorithm="sha256")
    for leaf in leaves:
        tree.append_entry(leaf)
    state = tree.get_root() if hasattr(tree, "get_root") else tree.get_state()
    assert merkle.root(leaves) == state
    for size in (1, 2, 3, 1024, 1025):
        sub = InmemoryTree(algorithm="sha256")
        for leaf in leaves[:size]:
            sub.append_entry(leaf)
        assert merkle.root(leaves[:size]) == (sub.get_root() if hasattr(sub, "get_root") else sub.get_state())


def test_hash_files_equals_hash_file_per_path_with_errors_in_place(tmp_path):
    paths = []
    for i, n in enumerate([0, 1, 5000, (2 << 20) + 3]):
        p = tmp_path / f"f{i}"
        p.write_bytes(pattern(n))
        paths.append(str(p))
    paths.insert(2, str(tmp_path / "missing"))
    for fmt in ("sha256", "rfc6962", "bittorrent-v2", "glacier"):
        got = merkle.hash_files(paths, fmt, threads=2)
        assert len(got) == len(paths)
        assert isinstance(got[2], FileNotFoundError)
        for p, g in zip(paths, got):
            if p.endswith("missing"):
                continue
            assert g == merkle.hash_file(p, fmt), (fmt, p)


# --- checksum lists: merkle.check and merkle.hash_tree -------------------------

def _sha(data):
    import hashlib
    return hashlib.sha256(data).hexdigest()


def test_check_reads_every_sha256sum_form_in_order(tmp_path):
    (tmp_path / "a").write_bytes(b"abc")
    (tmp_path / "b c").write_bytes(b"x")
    (tmp_path / "new\nline").write_bytes(b"nl")
    (tmp_path / "dir").mkdir()
    a, b, nl = (str(tmp_path / n) for n in ("a", "b c", "new\nline"))
    escaped = nl.replace("\\", "\\\\").replace("\n", "\\n")
    lines = [
        f"{_sha(b'abc')}  {a}",
        f"{_sha(b'x').upper()} *{b}\n",
        f"\\{_sha(b'nl')}  {escaped}",
        f"SHA256 ({a}) = {_sha(b'abc')}",
        "# comment",
        "",
        "not a checksum line",
        f"{'0' * 64}  {a}",
        f"{_sha(b'abc')}  {tmp_path / 'missing'}",
        f"{_sha(b'abc')}  {tmp_path / 'dir'}",
    ]
    for threads in (None, 1, 3):
        got = merkle.check(lines, threads=threads)
        assert got == [
            (a, "OK"), (b, "OK"), (nl, "OK"), (a, "OK"),
            ("not a checksum line", "improperly formatted"),
            (a, "FAILED"),
            (str(tmp_path / "missing"), "FAILED open or read"),
            (str(tmp_path / "dir"), "FAILED open or read"),
        ]
    assert (str(tmp_path / "missing"), "FAILED open or read") not in merkle.check(lines, ignore_missing=True)
    # The same list from a file (str, bytes or PathLike), and as bytes lines.
    listing = tmp_path / "SUMS"
    listing.write_text("\n".join(lines) + "\n")
    for path in (listing, str(listing), os.fsencode(listing)):
        assert merkle.check(path) == merkle.check(lines)
    assert merkle.check([l.encode() for l in lines]) == merkle.check(lines)
    with pytest.raises(OSError):
        merkle.check(tmp_path / "no-such-list")


def test_check_and_hash_tree_round_trip_in_every_format(tmp_path):
    root = tmp_path / "tree"
    (root / "a" / "b").mkdir(parents=True)
    (root / "a-b").mkdir()
    for i, name in enumerate(["a/x", "a/b/y", "a-b/z", "a.txt", "top"]):
        (root / name).write_bytes(bytes(range(1 + i * 50 % 250)) * 100)
    os.symlink("top", root / "link")
    os.mkfifo(root / "fifo")
    tree = merkle.hash_tree(root)
    names = [os.path.relpath(p, root) for p, _ in tree]
    # Byte order of the paths: "a-b/z" before "a/b/y"; no link, no FIFO.
    assert names == ["a-b/z", "a.txt", "a/b/y", "a/x", "top"]
    assert [d for _, d in tree] == merkle.hash_files([p for p, _ in tree])
    followed = [os.path.relpath(p, root) for p, _ in merkle.hash_tree(root, follow_symlinks=True)]
    assert followed == ["a-b/z", "a.txt", "a/b/y", "a/x", "link", "top"]
    for fmt in ("sha256", "rfc6962", "bittorrent-v2", "glacier"):
        lines = [f"{d.hex()}  {p}" for p, d in merkle.hash_tree(root, fmt, leaf_size=1024, threads=2)]
        assert merkle.check(lines, format=fmt, leaf_size=1024) == [(p, "OK") for p, _ in tree]
    zero = [f"{d.hex()}  {p}\0".encode() for p, d in tree]
    assert merkle.check(zero, zero=True) == [(p, "OK") for p, _ in tree]


def test_check_agrees_with_sha256sum(tmp_path):
    import shutil
    import subprocess
    if shutil.which("sha256sum") is None:
        if os.environ.get("PARCRYPT_REQUIRE_TOOLS", "0") not in ("", "0"):
            pytest.fail("sha256sum is missing and PARCRYPT_REQUIRE_TOOLS is set")
        pytest.skip("sha256sum is missing")
    for i in range(50):
        (tmp_path / f"f{i}").write_bytes(b"y" * i)
    listing = subprocess.run(["sha256sum"] + [f"f{i}" for i in range(50)], cwd=tmp_path,
                             capture_output=True, check=True).stdout.decode()
    listing = listing.replace(_sha(b"y" * 7), "0" * 64) + "junk\n" + f"{'1' * 64}  gone\n"
    (tmp_path / "SUMS").write_text(listing)
    theirs = subprocess.run(["sha256sum", "-c", "SUMS"], cwd=tmp_path, capture_output=True,
                            env={**os.environ, "LC_ALL": "C.UTF-8"}).stdout.decode().splitlines()
    cwd = os.getcwd()
    try:
        os.chdir(tmp_path)
        ours = [f"{n}: {s}" for n, s in merkle.check("SUMS") if s != "improperly formatted"]
    finally:
        os.chdir(cwd)
    assert ours == theirs


@pytest.mark.parametrize("format,leaf", [("rfc6962", 4096), ("rfc6962", 1000), ("bittorrent-v2", 16 << 10),
                                         ("glacier", 1 << 20)])
def test_compact_range_from_file_equals_from_leaves_of_the_bytes(tmp_path, format, leaf):
    """A byte range of a file, read by the library through its pipeline (the
    Dask workers' parts), is the range of the same bytes given in memory:
    across pipeline buffers (the file is past two 8 MiB buffers), at every
    thread count, starting at leaf 0 or not, ending at the file's end in a
    short leaf or inside it; adjacent parts merge to the file's root."""
    import random

    from parcrypt.merkle import CompactRange

    size = (19 << 20) + 12345
    data = random.Random(f"{format} {leaf}").randbytes(size)
    path = tmp_path / "f.bin"
    path.write_bytes(data)
    leaves = -(-size // leaf)
    cuts = [(0, size), (leaf, size - leaf), (3 * leaf, 9 * leaf + 17), (leaf * (leaves // 2), leaf * 5),
            (leaf * (leaves - 1), size - leaf * (leaves - 1)), (7 * leaf, 0)]
    for offset, length in cuts:
        want = CompactRange.from_leaves(format, offset // leaf, data[offset:offset + length], leaf_size=leaf)
        for par in PARS:
            got = CompactRange.from_file(format, path, offset, length, leaf_size=leaf, **par)
            assert got == want, (offset, length, par)
            assert (got.begin, got.end) == (offset // leaf, (offset + length + leaf - 1) // leaf)
    half = leaf * (leaves // 2)
    left = CompactRange.from_file(format, str(path), 0, half, leaf_size=leaf, threads=1)
    right = CompactRange.from_file(format, path, half, size - half, leaf_size=leaf, threads=1)
    assert left.merge(right).root() == merkle.hash_file(path, format, leaf_size=leaf)


def test_compact_range_from_file_refuses_bad_ranges(tmp_path):
    from parcrypt.merkle import CompactRange

    path = tmp_path / "f.bin"
    path.write_bytes(pattern(10_000))
    with pytest.raises(OSError, match="ends at byte 10000"):
        CompactRange.from_file("rfc6962", path, 4096, 8192, leaf_size=4096)
    with pytest.raises(OSError, match="ends at byte"):
        CompactRange.from_file("rfc6962", path, 20480, 1, leaf_size=4096)
    with pytest.raises(ValueError, match="not a multiple of the 4096-byte leaf"):
        CompactRange.from_file("rfc6962", path, 100, 1000, leaf_size=4096)
    with pytest.raises(ValueError, match="not a multiple of the 16384-byte leaf"):
        CompactRange.from_file("bittorrent-v2", path, 4096, 1000)
    with pytest.raises(ValueError, match="leaf_size"):
        CompactRange.from_file("rfc6962", path, 0, 1000)
    with pytest.raises(ValueError, match="leaf size 0"):
        CompactRange.from_file("rfc6962", path, 0, 1000, leaf_size=0)
    with pytest.raises(FileNotFoundError):
        CompactRange.from_file("rfc6962", tmp_path / "missing", 0, 1, leaf_size=4096)
    with pytest.raises(ValueError, match="unknown|format"):
        CompactRange.from_file("sha256", path, 0, 1, leaf_size=4096)
