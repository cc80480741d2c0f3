//! Private hooks for the package's own tests; not part of the API.
//!
//! A Rust panic must reach Python as an exception (PyO3's
//! `pyo3_runtime.PanicException`, a `BaseException` subclass), never abort
//! the interpreter, whether it happens on the calling thread or on one of
//! the library's pool workers. No public call panics on any input (that is
//! the library's guarantee), so the tests need a call that does on purpose.

use parcrypt::par::{Grain, Parallelism, Strategy};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(_panic_for_tests, m)?)?;
    Ok(())
}

/// Panics on purpose, for tests: `on="caller"` on the calling thread (with
/// the GIL released, as real work runs), `on="worker"` inside a parallel
/// call of the library, on a pool worker (the message names the thread).
/// Private: never call it outside the tests.
#[pyfunction]
#[pyo3(signature = (on = "caller"))]
fn _panic_for_tests(py: Python<'_>, on: &str) -> PyResult<()> {
    match on {
        "caller" => py.detach(|| -> PyResult<()> { panic!("parcrypt test panic on the calling thread") }),
        "worker" => py.detach(|| {
            // Two parts of one item each: `Static` gives part 0 to the
            // calling thread and part 1 to pool worker 0.
            const ONE: Grain = Grain {
                unit: 1,
                min_part: 1,
                task: 1,
            };
            let caller = std::thread::current().id();
            Parallelism::new(2, Strategy::Static).map_range(2, &ONE, |_| {
                let here = std::thread::current();
                if here.id() != caller {
                    panic!(
                        "parcrypt test panic on worker thread {}",
                        here.name().unwrap_or("unnamed")
                    );
                }
            });
            Ok(())
        }),
        other => Err(PyValueError::new_err(format!(
            "on must be \"caller\" or \"worker\", not {other:?}"
        ))),
    }
}
