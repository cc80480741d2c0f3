//! `threads=` and `strategy=` → the library's [`Parallelism`].

use parcrypt::par::{Parallelism, Strategy};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// The `Parallelism` a call asked for: `threads=None` is every core the
/// process may use; `strategy` is `"steal"` (default), `"static"` or `"seq"`.
pub fn parallelism(threads: Option<usize>, strategy: &str) -> PyResult<Parallelism> {
    let strategy: Strategy = strategy
        .parse()
        .map_err(|e: parcrypt::UnknownName| PyValueError::new_err(e.to_string()))?;
    let threads = match threads {
        None => parcrypt::par::available_threads(),
        Some(0) => {
            return Err(PyValueError::new_err(
                "threads must be at least 1 (or None for every core)",
            ));
        }
        Some(n) => n,
    };
    Ok(Parallelism::new(threads, strategy))
}

/// The number of threads `threads=None` uses: the cores this process may run on.
#[pyfunction]
pub fn available_threads() -> usize {
    parcrypt::par::available_threads()
}
