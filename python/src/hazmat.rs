//! `parcrypt.hazmat`: RC4 (serial) and PARC4 (block-parallel RC4 with a key
//! per block) — for compatibility and study only.

use parcrypt::hazmat::{PARC4_DEFAULT_BLOCK_SIZE, Parc4, Rc4};
use parcrypt::par::Parallelism;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::buffer::{In, bytes_from};
use crate::par;

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(rc4_apply, m)?)?;
    m.add_function(wrap_pyfunction!(parc4_apply, m)?)?;
    Ok(())
}

fn err(e: parcrypt::hazmat::Rc4Error) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// RC4's keystream XORed over `data` (= `openssl enc -rc4 -nosalt`).
#[pyfunction]
fn rc4_apply<'py>(
    py: Python<'py>,
    key: &Bound<'py, PyAny>,
    data: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyBytes>> {
    let mut rc4 = Rc4::new(In::get(key, "key")?.as_slice()).map_err(err)?;
    let data = In::get(data, "data")?;
    bytes_from(py, data.as_slice(), 0, &Parallelism::sequential(), |out| {
        rc4.apply_keystream_in_place(out);
        Ok(())
    })
}

/// PARC4's keystream from byte `offset` XORed over `data`.
#[pyfunction]
#[pyo3(signature = (key, nonce, data, *, block_size = PARC4_DEFAULT_BLOCK_SIZE, offset = 0, threads = None, strategy = "steal"))]
#[allow(clippy::too_many_arguments)]
fn parc4_apply<'py>(
    py: Python<'py>,
    key: &Bound<'py, PyAny>,
    nonce: &Bound<'py, PyAny>,
    data: &Bound<'py, PyAny>,
    block_size: usize,
    offset: u64,
    threads: Option<i64>,
    strategy: &str,
) -> PyResult<Bound<'py, PyBytes>> {
    let par = par::parallelism(threads, strategy)?;
    let parc4 = Parc4::new(
        In::get(key, "key")?.as_slice(),
        In::get(nonce, "nonce")?.as_slice(),
        block_size,
    )
    .map_err(err)?;
    let data = In::get(data, "data")?;
    bytes_from(py, data.as_slice(), 0, &par, |out| {
        parc4.apply_keystream_in_place(offset, out, &par);
        Ok(())
    })
}
