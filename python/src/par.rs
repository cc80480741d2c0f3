//! `threads=` and `strategy=` → the library's [`Parallelism`].

use parcrypt::par::{Parallelism, Strategy};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// The most threads a call may ask for, as the CLI's `--threads`.
pub const MAX_THREADS: i64 = 1024;

/// The `Parallelism` a call asked for: `threads=None` or `0` is every core
/// the process may use (0 means that in the CLI, the Java provider and the
/// library too); `strategy` is `"steal"` (default), `"static"` or `"seq"`.
/// A negative count, or one above [`MAX_THREADS`], is a `ValueError`
/// naming `threads` (not an `OverflowError` from the conversion, nor a
/// million threads asked of the OS).
pub fn parallelism(threads: Option<i64>, strategy: &str) -> PyResult<Parallelism> {
    let threads = match threads.unwrap_or(0) {
        n @ 0..=MAX_THREADS => n as usize,
        n => {
            return Err(PyValueError::new_err(format!(
                "threads={n} is not a thread count: give 1 to {MAX_THREADS}, or 0 (or None) for every available core"
            )));
        }
    };
    let strategy: Strategy = strategy
        .parse()
        .map_err(|e: parcrypt::UnknownName| PyValueError::new_err(e.to_string()))?;
    Ok(Parallelism::new(threads, strategy))
}

/// The number of threads `threads=None` uses: the cores this process may run on.
#[pyfunction]
pub fn available_threads() -> usize {
    parcrypt::par::available_threads()
}
