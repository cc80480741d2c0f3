//! The library's errors as Python exceptions.
//!
//! The exception classes are defined in Python (`parcrypt/exceptions.py`) so
//! that they have a normal module, docstrings and pickling; this module
//! raises them by name.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyType;

/// Registers nothing yet: kept so that `lib.rs` reads the same for every
/// part. The classes live in `parcrypt.exceptions`.
pub fn register(_m: &Bound<'_, PyModule>) -> PyResult<()> {
    Ok(())
}

/// An exception of the class `name` in `parcrypt.exceptions`, carrying `msg`.
pub fn raise(py: Python<'_>, name: &str, msg: String) -> PyErr {
    let class = py
        .import("parcrypt.exceptions")
        .and_then(|m| m.getattr(name))
        .and_then(|c| c.cast_into::<PyType>().map_err(PyErr::from));
    match class {
        Ok(class) => PyErr::from_type(class, msg),
        Err(e) => e,
    }
}

/// An I/O error, as `OSError` with its errno (so `FileNotFoundError` etc.).
pub fn io(e: std::io::Error) -> PyErr {
    PyErr::from(e)
}

/// A signature family's error (RSA, ECDSA): `InvalidSignature` for a
/// signature that does not verify (`invalid`), `ValueError` for the rest.
pub fn signature(py: Python<'_>, invalid: bool, e: impl std::fmt::Display) -> PyErr {
    if invalid {
        raise(py, "InvalidSignature", e.to_string())
    } else {
        PyValueError::new_err(e.to_string())
    }
}

pub fn aes(py: Python<'_>, e: parcrypt::aes::Error) -> PyErr {
    use parcrypt::aes::Error;
    match e {
        Error::Authentication => raise(py, "InvalidTag", e.to_string()),
        Error::Io(io_error) => io(io_error),
        other => PyValueError::new_err(other.to_string()),
    }
}

pub fn merkle(py: Python<'_>, e: parcrypt::merkle::Error) -> PyErr {
    use parcrypt::merkle::Error;
    match e {
        Error::RootMismatch | Error::ProofLength => raise(py, "InvalidProof", e.to_string()),
        Error::Io(io_error) => io(io_error),
        other => PyValueError::new_err(other.to_string()),
    }
}
