//! Key serialization choices shared by `parcrypt.rsa` and `parcrypt.ecdsa`
//! (the `encoding=` of `private_bytes` / `public_bytes`, named as
//! `cryptography`'s `serialization.Encoding` members are).

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

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

/// A key's `private_bytes` / `public_bytes(encoding, format)`: `format`
/// (any case) is one of the two `formats` the key offers, and `encode(i,
/// pem)` writes the key in `formats[i]`, PEM or DER. A private key's native
/// copy (`secret`) is wiped once Python has its bytes.
pub fn key_bytes<'py, E>(
    py: Python<'py>,
    (encoding, format): (&str, &str),
    formats: [&str; 2],
    secret: bool,
    encode: impl FnOnce(usize, bool) -> Result<Vec<u8>, E>,
    err: impl FnOnce(Python<'py>, E) -> PyErr,
) -> PyResult<Bound<'py, PyBytes>> {
    let pem = pem_wanted(encoding)?;
    let upper = format.to_ascii_uppercase();
    let Some(which) = formats.iter().position(|f| *f == upper) else {
        return Err(PyValueError::new_err(format!(
            "unknown format {format:?}: expected \"{}\" or \"{}\"",
            formats[0], formats[1]
        )));
    };
    let mut bytes = encode(which, pem).map_err(|e| err(py, e))?;
    let out = PyBytes::new(py, &bytes);
    if secret {
        parcrypt::secret::wipe(&mut bytes);
    }
    Ok(out)
}
