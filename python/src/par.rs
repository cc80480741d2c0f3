//! `threads=` and `strategy=` → the library's [`Parallelism`].

use parcrypt::par::{Parallelism, Strategy};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// The `Parallelism` a call asked for: `threads=None` or `0` is every core
/// the process may use (0 means that in the CLI, the Java provider and the
/// library too); `strategy` is `"steal"` (default), `"static"` or `"seq"`.
pub fn parallelism(threads: Option<usize>, strategy: &str) -> PyResult<Parallelism> {
    let strategy: Strategy = strategy
        .parse()
        .map_err(|e: parcrypt::UnknownName| PyValueError::new_err(e.to_string()))?;
    Ok(Parallelism::new(threads.unwrap_or(0), strategy))
}

/// The number of threads `threads=None` uses: the cores this process may run on.
#[pyfunction]
pub fn available_threads() -> usize {
    parcrypt::par::available_threads()
}
