"""A Rust panic inside a call reaches Python as an exception, never an abort.

PyO3 turns a panic that unwinds to the module boundary into
``pyo3_runtime.PanicException``, a ``BaseException`` subclass (so a bare
``except Exception`` does not swallow it). The library's pool workers catch
a panic in their part of the work and hand it to the calling thread, which
re-raises it; the pool survives. No public call panics on any input, so
these tests use the private hook ``parcrypt._parcrypt._panic_for_tests``.
"""

import concurrent.futures
import os

import pytest

from parcrypt import _parcrypt, ciphers, merkle


def panic_exception_type() -> type:
    """`pyo3_runtime.PanicException`, taken from a caught instance (PyO3
    creates the class lazily, under a module that cannot be imported)."""
    try:
        _parcrypt._panic_for_tests("caller")
    except BaseException as e:  # noqa: BLE001 - the point is what arrives
        return type(e)
    raise AssertionError("the hook did not panic")


def still_works() -> None:
    """The interpreter and the library's pools still compute correct results."""
    data = os.urandom((4 << 20) + 17)
    key, iv = bytes(range(32)), bytes(16)
    for strategy in ("static", "steal"):
        ct = ciphers.encrypt("ctr", key, iv, data, threads=2, strategy=strategy)
        assert ct == ciphers.encrypt("ctr", key, iv, data, threads=1, strategy="seq")
        assert merkle.root(data, leaf_size=4096, threads=2, strategy=strategy) == merkle.root(
            data, leaf_size=4096, threads=1, strategy="seq")


def test_a_panic_is_a_base_exception_not_an_abort():
    cls = panic_exception_type()
    assert cls.__name__ == "PanicException"
    assert issubclass(cls, BaseException) and not issubclass(cls, Exception)
    with pytest.raises(cls, match="test panic on the calling thread"):
        _parcrypt._panic_for_tests("caller")
    still_works()


def test_a_panic_on_a_pool_worker_reaches_the_caller():
    cls = panic_exception_type()
    for _ in range(3):  # the same pool, again and again: it survives each panic
        with pytest.raises(cls, match=r"test panic on worker thread parcrypt-1-0"):
            _parcrypt._panic_for_tests("worker")
        still_works()


def test_a_panic_in_a_python_thread_pool_comes_back_through_the_future():
    cls = panic_exception_type()
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        futures = [pool.submit(_parcrypt._panic_for_tests, on) for on in ("caller", "worker") * 2]
        for f in futures:
            with pytest.raises(cls, match="test panic"):
                f.result(timeout=60)
        # The executor's threads keep working after their calls panicked.
        assert pool.submit(still_works).result(timeout=120) is None


def test_the_hook_refuses_unknown_places():
    with pytest.raises(ValueError, match="caller"):
        _parcrypt._panic_for_tests("nowhere")
