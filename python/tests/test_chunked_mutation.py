"""Every chunked format opened from a buffer that another thread keeps
changing during the call: Cobblestone (one-shot, ``Parts.open``, the push
decryptor's ``update``, ``decrypt_range``), the ``stream`` format's
``Segments.open`` and ``age.decrypt``.

As for AES-GCM (``test_gcm_mutation.py``), a call releases the GIL while
it reads the caller's buffer, so the only results allowed are the format's
authentication error or the right plaintext: AWS-LC reads a chunk twice
(once to authenticate it, once to decrypt it), and a plaintext decrypted
from one reading of a chunk whose tag matched another would be bytes that
were never authenticated. The library copies each chunk of a buffer others
may write into private memory once, then opens the copy.

The flipper is a Python thread flipping one byte of every chunk and back
for the whole run (`numpy.bitwise_xor.at` with each offset twice: the byte
is flipped only for an instant, so that most calls see the message as it
was sealed), on a ``bytearray`` and on an anonymous shared ``mmap``, both
handed over as ``memoryview``s. The byte is near a chunk's end: where
AWS-LC's AES-NI GCM (no VAES) leaves the last partial round of its stitched
loop to code that hashes and then decrypts in two passes. Each case runs in
a child process, as the CPU is and masked to x86-64-v3
(``PARCRYPT_CPU_MASK``, which also masks AWS-LC): on a CPU with VAES,
AWS-LC's GCM reads each byte once by itself and only the masked run shows
the double read. Before the library copied shared chunks, 16 and then 11
of the 18 masked cases returned wrong plaintexts (1 to 12 calls in 300),
every format among them.
"""

import json
import mmap
import os
import subprocess
import sys
import threading

import numpy as np

from parcrypt import age, cobblestone, stream
from parcrypt.cobblestone import CHUNK, HEADER, SEALED_CHUNK
from parcrypt.exceptions import AgeError, InvalidTag, TruncatedError

CALLS = 300
SIZE = (2 << 20) + 1000  # 128 full Cobblestone chunks and a final one
BACK = 30  # the flipped byte: this many bytes before a chunk's tag
STREAM_SEGMENT = 16 << 10
AGE_CHUNK = 64 << 10


class StridedFlipper:
    """Flips the byte at `first` of every chunk (`stride` apart) and back,
    from a Python thread, until stopped."""

    def __init__(self, buf, first, stride):
        self.array = np.frombuffer(buf, dtype=np.uint8)
        self.at = np.repeat(np.arange(first, len(buf), stride), 2)
        self.running = True
        self.flips = 0
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self):
        array, at = self.array, self.at
        while self.running:
            np.bitwise_xor.at(array, at, 1)
            self.flips += 1

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.running = False
        self.thread.join()
        del self.array  # the map can be closed once nothing exports it


def writable(kind, data):
    """A writable buffer holding `data`: a bytearray or an anonymous shared map."""
    if kind == "bytearray":
        return bytearray(data)
    m = mmap.mmap(-1, len(data))
    m[:] = data
    return m


PLAIN = os.urandom(SIZE)


def cobblestone_case(open_call):
    key = cobblestone.Cobblestone128Encryptor.generate_key()
    sealed = cobblestone.encrypt(key, PLAIN, b"ctx")
    return sealed, HEADER + CHUNK - BACK, SEALED_CHUNK, lambda view, threads: open_call(key, view, threads)


def cob_decrypt(key, view, threads):
    return cobblestone.decrypt(key, view, b"ctx", threads=threads)


def cob_update(key, view, threads):
    dec = cobblestone.Cobblestone128Decryptor(key, b"ctx", threads=threads)
    return dec.update(view) + dec.finalize()


def cob_range(key, view, threads):
    dec = cobblestone.Cobblestone128Decryptor(key, b"ctx", threads=threads)
    return dec.decrypt_range(view, 0, SIZE)


def cob_parts(key, view, threads):
    parts = cobblestone.COBBLESTONE_128.parts(key, b"ctx", header=bytes(view[:HEADER]))
    return parts.open(0, view[HEADER:], True, threads=threads)


def stream_case():
    key = os.urandom(32)
    _, segments = stream.Segments.create(key=key, segment_size=STREAM_SEGMENT)
    sealed = segments.seal(0, PLAIN, True)
    return sealed, STREAM_SEGMENT - BACK, STREAM_SEGMENT + 16, \
        lambda view, threads: segments.open(0, view, True, threads=threads)


def age_case():
    me = age.Identity.generate()
    sealed = age.encrypt(PLAIN, [me.to_public()])
    payload = SIZE + 16 * -(-SIZE // AGE_CHUNK)
    start = len(sealed) - payload
    return sealed, start + AGE_CHUNK - BACK, AGE_CHUNK + 16, \
        lambda view, threads: age.decrypt(view, [me])


CASES = {
    "cobblestone.decrypt": (lambda: cobblestone_case(cob_decrypt), (InvalidTag,)),
    "Cobblestone128Decryptor.update": (lambda: cobblestone_case(cob_update), (InvalidTag,)),
    "Cobblestone128Decryptor.decrypt_range": (lambda: cobblestone_case(cob_range), (InvalidTag,)),
    "Parts.open": (lambda: cobblestone_case(cob_parts), (InvalidTag,)),
    "stream.Segments.open": (stream_case, (InvalidTag, TruncatedError)),
    "age.decrypt": (age_case, (AgeError,)),
}



def race(case, kind, threads):
    """CALLS calls of `case` on a changing buffer: the outcomes and the
    calls that returned a wrong plaintext."""
    make, errors = CASES[case]
    sealed, first, stride, call = make()
    buf = writable(kind, sealed)
    view = memoryview(buf)
    outcomes = {"plaintext": 0, "error": 0, "wrong": []}
    try:
        with StridedFlipper(buf, first, stride) as flipper:
            for n in range(CALLS):
                try:
                    got = call(view, threads)
                except errors:
                    outcomes["error"] += 1
                    continue
                if got == PLAIN:
                    outcomes["plaintext"] += 1
                else:
                    outcomes["wrong"].append(n)
        outcomes["flips"] = flipper.flips
        # The flipper flipped back each time: the buffer is the message again.
        outcomes["intact"] = bytes(buf) == sealed
    finally:
        view.release()
        if kind == "mmap":
            buf.close()
    return outcomes


if __name__ == "__main__":
    print(json.dumps(race(sys.argv[1], sys.argv[2], int(sys.argv[3]))))
else:
    import pytest

    @pytest.mark.parametrize("mask", ["", "x86-64-v3"], ids=["native", "x86-64-v3"])
    @pytest.mark.parametrize(("kind", "threads"), [("bytearray", 1), ("bytearray", 2), ("mmap", 2)])
    @pytest.mark.parametrize("case", sorted(CASES))
    def test_open_of_a_changing_buffer_is_the_plaintext_or_an_authentication_error(case, kind, threads, mask):
        env = dict(os.environ)
        env.pop("PARCRYPT_CPU_MASK", None)
        if mask:
            env["PARCRYPT_CPU_MASK"] = mask
        # The child imports the parcrypt this process imported.
        here = os.path.dirname(os.path.dirname(os.path.abspath(cobblestone.__file__)))
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [here, env.get("PYTHONPATH")]))
        run = subprocess.run([sys.executable, __file__, case, kind, str(threads)], env=env,
                             capture_output=True, text=True, timeout=600)
        assert run.returncode == 0, run.stderr
        outcomes = json.loads(run.stdout.splitlines()[-1])
        print(case, kind, threads, mask or "native", outcomes)
        assert outcomes["intact"]
        wrong = outcomes["wrong"]
        assert not wrong, (f"{case}, {kind}, threads={threads}, mask={mask or 'none'}: {len(wrong)} of {CALLS} calls "
                           f"returned a plaintext that is not the original (calls {wrong[:10]}); {outcomes}")
