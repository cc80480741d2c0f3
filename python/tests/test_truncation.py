"""A file truncated while it is hashed gives OSError, never a dead process.

Another thread cuts a large file to a few bytes after a short random delay
while `merkle.hash_file` / `merkle.hash_files` / `CompactRange.from_file`
(a Dask worker's part of a file) reads it. The library reads
files with `pread`, so a file that shrinks under it is a short read and an
`OSError` (or the digest, when the hash finished first). A hasher reading
through a memory map instead dies of SIGBUS at the first page past the new
end, taking the interpreter with it, so each race runs in its own child
process and the test looks at how the child ended.

The file is sparse (`truncate` to its size): no disk writes, and reading
its holes costs about what reading cached data does.
"""

import os
import random
import subprocess
import sys

import pytest

SIZE = 256 << 20
RACES = 12
# The races' delays run from 0 to about the time one hash of SIZE takes on
# two threads here, so most truncations land while the file is read.
MAX_DELAY_S = 0.2

CHILD = r"""
import os, sys, threading, time
from parcrypt import merkle

path, small, call, format, delay = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], float(sys.argv[5])


def cut():
    time.sleep(delay)
    os.truncate(path, 3)


size = os.path.getsize(path)  # before any cut: the length a caller would ask for
cutter = threading.Thread(target=cut)
cutter.start()
try:
    if call == "hash_file":
        merkle.hash_file(path, format, threads=2)
    elif call == "from_file":
        # A Dask worker's part: a byte range, read through the pipeline.
        merkle.CompactRange.from_file(format, path, 1 << 20, size - (1 << 20), leaf_size=4096, threads=1)
    else:
        big, other = merkle.hash_files([path, small], format, threads=2)
        # The other file is hashed whatever happened to the first.
        assert other == merkle.hash_file(small, format), other
        if isinstance(big, Exception):
            raise big
    print("hash")
except OSError:
    print("oserror")
cutter.join()
"""


FORMATS = ["sha256", "rfc6962", "bittorrent-v2", "glacier"]


@pytest.mark.parametrize("call,format", [(c, f) for c in ("hash_file", "hash_files") for f in FORMATS]
                         + [("from_file", f) for f in FORMATS[1:]])
def test_a_file_truncated_while_hashed_raises_oserror(tmp_path, call, format):
    path, small = tmp_path / "big", tmp_path / "small"
    small.write_bytes(b"a small file")
    rng = random.Random(f"{call} {format}")
    outcomes = []
    for race in range(RACES):
        with open(path, "wb") as f:
            f.truncate(SIZE)
        delay = rng.uniform(0, MAX_DELAY_S)
        child = subprocess.run([sys.executable, "-c", CHILD, str(path), str(small), call, format, f"{delay:.4f}"],
                               capture_output=True, text=True, timeout=120)
        where = f"{call} {format}, race {race} (truncated after {delay * 1000:.0f} ms)"
        code = child.returncode
        assert code >= 0, f"{where}: the child died of signal {-code}"
        assert code == 0, f"{where}: the child failed: {child.stderr[-2000:]}"
        outcomes.append(child.stdout.strip())
        assert outcomes[-1] in ("hash", "oserror"), f"{where}: {child.stdout!r}"
    # At least one truncation landed while the file was read: the test raced.
    assert "oserror" in outcomes, outcomes
