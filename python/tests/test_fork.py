"""Parallel calls work in a child made by fork() after the parent used them.

A thread pool does not survive fork(): the child has the pool's bookkeeping
but none of its worker threads, so work handed to them would wait forever.
The library notices that it runs in a new process and builds new pools
there. Every child here runs under a timeout, so a hang fails the test
instead of hanging the suite.
"""

import multiprocessing
import os
import signal
import time

import pytest

from parcrypt import ciphers, merkle, rsa

KEY, IV = bytes(range(32)), bytes(16)
DATA = bytes(i % 251 for i in range(251)) * ((6 << 20) // 251)
TIMEOUT_S = 120

# Python 3.12+ warns that fork() in a process with threads (the pools' workers)
# may deadlock the child: that is what these tests check does not happen.
pytestmark = pytest.mark.filterwarnings("ignore:.*fork.*:DeprecationWarning")


def parallel_work(tmp: str) -> dict:
    """One of each kind of parallel call: slices on a team (static) and on
    the pool (steal), racing threads (RSA key generation), and ordered
    results per item (many files)."""
    paths = []
    for i in range(3):
        p = os.path.join(tmp, f"f{i}")
        if not os.path.exists(p):
            with open(p, "wb") as f:
                f.write(DATA[: (i + 1) << 20])
        paths.append(p)
    key = rsa.generate_private_key(1024, threads=2)
    sig = key.sign(b"forked")
    key.public_key().verify(sig, b"forked")
    return {
        "ctr-static": ciphers.encrypt("ctr", KEY, IV, DATA, threads=2, strategy="static"),
        "ctr-steal": ciphers.encrypt("ctr", KEY, IV, DATA, threads=2, strategy="steal"),
        "root-static": merkle.root(DATA, leaf_size=4096, threads=3, strategy="static"),
        "root-steal": merkle.root(DATA, leaf_size=4096, threads=3, strategy="steal"),
        "files": merkle.hash_files(paths, "rfc6962", threads=2),
    }


def wait_or_kill(pid: int, timeout: float) -> int:
    """The child's exit code, or -1 after killing it if it ran past `timeout`."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status)
        time.sleep(0.02)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    return -1


def test_a_forked_child_runs_parallel_calls(tmp_path):
    want = parallel_work(str(tmp_path))  # the parent builds and uses its pools
    assert want["ctr-static"] == want["ctr-steal"] == ciphers.encrypt("ctr", KEY, IV, DATA, threads=1)
    pid = os.fork()
    if pid == 0:  # the child: never return into pytest
        code = 3
        try:
            code = 0 if parallel_work(str(tmp_path)) == want else 1
        finally:
            os._exit(code)
    code = wait_or_kill(pid, TIMEOUT_S)
    assert code != -1, f"the forked child hung in a parallel call (killed after {TIMEOUT_S} s)"
    assert code == 0, "the forked child's parallel results differ" if code == 1 else f"child failed ({code})"
    # The parent's pools are untouched by the child.
    assert parallel_work(str(tmp_path)) == want


def test_a_child_of_a_child_too(tmp_path):
    want = parallel_work(str(tmp_path))
    pid = os.fork()
    if pid == 0:
        code = 3
        try:
            ok = parallel_work(str(tmp_path)) == want
            grandchild = os.fork()
            if grandchild == 0:
                try:
                    os._exit(0 if parallel_work(str(tmp_path)) == want else 1)
                finally:
                    os._exit(3)
            code = wait_or_kill(grandchild, TIMEOUT_S)
            code = code if ok else 1
        finally:
            os._exit(code if code >= 0 else 4)
    code = wait_or_kill(pid, 2 * TIMEOUT_S)
    assert code == 0, {-1: "hung", 1: "wrong results", 4: "the grandchild hung"}.get(code, f"failed ({code})")


def _pool_task(tmp: str) -> dict:
    return parallel_work(tmp)


def test_a_fork_start_multiprocessing_pool(tmp_path):
    want = parallel_work(str(tmp_path))
    with multiprocessing.get_context("fork").Pool(2) as pool:
        got = pool.map_async(_pool_task, [str(tmp_path)] * 2)
        try:
            results = got.get(timeout=TIMEOUT_S)
        except multiprocessing.TimeoutError:
            pytest.fail(f"the pool's forked workers hung in a parallel call ({TIMEOUT_S} s)")
    assert results == [want, want]
