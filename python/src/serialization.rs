//! Key serialization choices shared by `parcrypt.rsa` and `parcrypt.ecdsa`
//! (the `encoding=` of `private_bytes` / `public_bytes`, named as
//! `cryptography`'s `serialization.Encoding` members are).

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// `encoding` "PEM" or "DER" (any case) → true for PEM.
pub fn pem_wanted(encoding: &str) -> PyResult<bool> {
    match encoding.to_ascii_uppercase().as_str() {
        "PEM" => Ok(true),
        "DER" => Ok(false),
        _ => Err(PyValueError::new_err(format!(
            "unknown encoding {encoding:?}: expected \"PEM\" or \"DER\""
        ))),
    }
}
