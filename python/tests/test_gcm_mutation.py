"""AES-GCM opened from a buffer that another thread or process keeps
changing during the call.

A decryption releases the GIL, so nothing stops other code from writing the
ciphertext while the library reads it. The result is then allowed to be
`InvalidTag` or the right plaintext, and nothing else: a tag checked over
one reading of the ciphertext and a plaintext decrypted from another would
hand back bytes that were never authenticated. The library reads each input
byte once (the tag and the plaintext come from the same read), so the only
outcomes are those two.

A "flipper" flips one ciphertext byte and back in a tight loop for the whole
run: from a Python thread on a `bytearray` (it runs while the call has
released the GIL), and from a separate process on a shared memory map of a
file (no GIL between them at all).
"""

import mmap
import os
import subprocess
import sys
import threading
import time

import pytest

from parcrypt.aead import AESGCM
from parcrypt.exceptions import InvalidTag

SIZE = 8 << 20  # four 2 MiB parts: the parallel path for threads=2
CALLS = 60
AT = SIZE // 2 + 5  # the byte flipped: inside a part, not at its edge

# The other process's loop: flip the byte at AT and back until the parent
# writes the stop byte (the last byte of the map); `started` says it runs.
FLIPPER = r"""
import mmap, sys
path, at = sys.argv[1], int(sys.argv[2])
with open(path, "r+b") as f:
    m = mmap.mmap(f.fileno(), 0)
stop = len(m) - 1
m[stop - 1] = 1
while not m[stop]:
    m[at] ^= 1
    m[at] ^= 1
m.close()
"""


class ThreadFlipper:
    """Flips `buf[at]` and back from a Python thread until stopped."""

    def __init__(self, buf, at):
        self.buf, self.at, self.running = buf, at, True
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.flips = 0

    def run(self):
        buf, at = self.buf, self.at
        while self.running:
            buf[at] ^= 1
            buf[at] ^= 1
            self.flips += 1

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.running = False
        self.thread.join()


class ProcessFlipper:
    """Flips the byte at `at` of the file mapped as `m` from another process."""

    def __init__(self, path, m, at):
        self.path, self.m, self.at = path, m, at

    def __enter__(self):
        self.proc = subprocess.Popen([sys.executable, "-c", FLIPPER, str(self.path), str(self.at)])
        deadline = time.monotonic() + 30
        while not self.m[len(self.m) - 2]:
            assert self.proc.poll() is None, "the flipper process died"
            assert time.monotonic() < deadline, "the flipper process did not start"
            time.sleep(0.001)
        return self

    def __exit__(self, *exc):
        self.m[len(self.m) - 1] = 1
        assert self.proc.wait(timeout=30) == 0


@pytest.fixture(scope="module")
def sealed():
    key, nonce = AESGCM.generate_key(256), os.urandom(12)
    plain = os.urandom(SIZE)
    return key, nonce, plain, AESGCM(key).encrypt(nonce, plain, b"aad")


def shared(kind, tmp_path, sealed_bytes):
    """A memoryview of a writable buffer holding `sealed_bytes`, the buffer,
    its flipper and the map to close (None for a bytearray). The process
    flipper's file has two more bytes: started, stop."""
    if kind == "thread":
        buf = bytearray(sealed_bytes)
        return memoryview(buf), buf, ThreadFlipper(buf, AT), None
    path = tmp_path / "shared"
    path.write_bytes(sealed_bytes + b"\0\0")
    with open(path, "r+b") as f:
        m = mmap.mmap(f.fileno(), 0)
    view = memoryview(m)[: len(sealed_bytes)]
    return view, m, ProcessFlipper(path, m, AT), m


def check(outcomes, got_plain, plain, where):
    """One call's result: the right plaintext, or InvalidTag."""
    if got_plain is None:
        outcomes["InvalidTag"] += 1
        return
    if got_plain != plain:
        diff = [i for i in range(len(plain)) if got_plain[i] != plain[i]][:8]
        pytest.fail(f"{where}: a plaintext that is not the original passed the tag (differs at {diff})")
    outcomes["plaintext"] += 1


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("kind", ["thread", "process"])
@pytest.mark.parametrize("call", ["decrypt", "decrypt_into"])
def test_open_of_a_changing_buffer_is_the_plaintext_or_invalid_tag(sealed, tmp_path, call, kind, threads):
    key, nonce, plain, sealed_bytes = sealed
    aes = AESGCM(key, threads=threads)
    data, backing, flipper, m = shared(kind, tmp_path, sealed_bytes)
    out = bytearray(SIZE)
    outcomes = {"plaintext": 0, "InvalidTag": 0}
    try:
        with flipper:
            for n in range(CALLS):
                try:
                    if call == "decrypt":
                        got = aes.decrypt(nonce, data, b"aad")
                    else:
                        out[:] = b"\xaa" * SIZE
                        aes.decrypt_into(nonce, data, b"aad", out)
                        got = bytes(out)
                except InvalidTag:
                    got = None
                check(outcomes, got, plain, f"{call}, {kind} flipper, threads={threads}, call {n}")
        # The flipper flipped back each time: the buffer is the ciphertext again.
        assert bytes(backing[: len(sealed_bytes)]) == sealed_bytes
    finally:
        data.release()
        if m is not None:
            m.close()
    print(outcomes)


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("kind", ["thread", "process"])
def test_open_in_place_of_a_changing_buffer(sealed, tmp_path, kind, threads):
    """In place the flipped byte is also an output byte, which the flipper
    keeps writing after the library wrote its plaintext there; every other
    byte must be the plaintext (tag matched) or zero (InvalidTag)."""
    key, nonce, plain, sealed_bytes = sealed
    aes = AESGCM(key, threads=threads)
    data, backing, flipper, m = shared(kind, tmp_path, sealed_bytes)
    outcomes = {"plaintext": 0, "InvalidTag": 0}
    rest = slice(AT + 1, SIZE)
    try:
        with flipper:
            for n in range(CALLS):
                data[:SIZE] = sealed_bytes[:SIZE]
                where = f"in place, {kind} flipper, threads={threads}, call {n}"
                try:
                    aes.decrypt_into(nonce, data, b"aad", data[:SIZE])
                except InvalidTag:
                    got = bytes(data[:SIZE])
                    assert got[:AT] == bytes(AT) and got[rest] == bytes(SIZE - AT - 1), \
                        f"{where}: the output is not zeroed after InvalidTag"
                    outcomes["InvalidTag"] += 1
                else:
                    got = bytes(data[:SIZE])
                    assert got[:AT] == plain[:AT] and got[rest] == plain[rest], \
                        f"{where}: a plaintext that is not the original passed the tag"
                    outcomes["plaintext"] += 1
    finally:
        data.release()
        if m is not None:
            m.close()
    print(outcomes)
