"""Long calls release the GIL, so other Python threads run meanwhile.

Proved without timing: with forced thread switches turned off
(``sys.setswitchinterval``), a second Python thread that is ready to run
can only run while the main thread is inside a call if that call released
the GIL. The control shows the same probe stays still around a C call that
keeps the GIL.
"""

import os
import sys
import threading

import pytest

from parcrypt import age, ciphers, merkle
from parcrypt.aead import AESGCM

DATA = os.urandom(32 << 20)
KEY = AESGCM.generate_key(256)
AGE_KEY = age.Identity.generate()
AGE_FILE = age.encrypt(DATA, [AGE_KEY.to_public()])
CALLS = {
    "age-encrypt": lambda: age.encrypt(DATA, [AGE_KEY.to_public()], threads=1),
    "age-decrypt": lambda: age.decrypt(AGE_FILE, [AGE_KEY], threads=1),
    "gcm-encrypt": lambda: AESGCM(KEY, threads=1).encrypt(bytes(12), DATA, None),
    "ctr": lambda: ciphers.encrypt("ctr", KEY, bytes(16), DATA, threads=1),
    "cbc-decrypt": lambda: ciphers.decrypt("cbc", KEY, bytes(16), DATA[: 16 << 20], threads=1, padding=False),
    "merkle-root": lambda: merkle.root(DATA, leaf_size=4096, threads=1),
    "glacier": lambda: merkle.glacier(DATA, threads=1),
}


def ran_during(call, attempts: int = 20) -> bool:
    """Whether another Python thread ran while `call` was running, trying up
    to `attempts` calls (on a loaded machine the other thread may not be
    scheduled within one short call; with the GIL held it never runs)."""
    ready, go = threading.Event(), threading.Event()
    ran = []

    def other():
        ready.set()
        go.wait()
        ran.append(True)

    old = sys.getswitchinterval()
    sys.setswitchinterval(1000.0)
    try:
        t = threading.Thread(target=other)
        t.start()
        ready.wait()
        go.set()  # `other` now waits only for the GIL
        for _ in range(attempts):
            call()
            if ran:
                break
        seen = bool(ran)
        t.join()
    finally:
        sys.setswitchinterval(old)
    return seen


@pytest.mark.filterwarnings("ignore::parcrypt.exceptions.HazmatWarning")
@pytest.mark.parametrize("name", sorted(CALLS))
def test_the_gil_is_released_during_long_calls(name):
    assert ran_during(CALLS[name])


def test_the_measurement_tells_a_held_gil_from_a_released_one():
    """The control: a long C call that keeps the GIL (``bytes.count`` over
    32 MiB) lets the other thread not run, so the probe can fail."""
    assert not ran_during(lambda: DATA.count(b"\x00\x01\x02\x03"))


def test_threads_zero_is_every_core_and_a_bad_count_is_a_value_error():
    """``threads=0`` (or None) is every available core, as ``--threads 0``
    in the CLI; a negative or absurd count is a ValueError naming it."""
    from parcrypt import _parcrypt

    every = _parcrypt.available_threads()
    assert f"threads={every}," in repr(AESGCM(KEY, threads=0))
    assert f"threads={every}," in repr(AESGCM(KEY))
    data = DATA[: 1 << 20]
    one = merkle.root(data, leaf_size=4096, threads=1)
    assert merkle.root(data, leaf_size=4096, threads=0) == one
    for bad in (-1, -1024, 1025, 10**9):
        with pytest.raises(ValueError, match=f"threads={bad} is not a thread count"):
            merkle.root(data, leaf_size=4096, threads=bad)
        with pytest.raises(ValueError, match="threads="):
            AESGCM(KEY, threads=bad)
