//! Key serialization choices shared by `parcrypt.rsa` and `parcrypt.ecdsa`
//! (the `encoding=` of `private_bytes` / `public_bytes`, named as
//! `cryptography`'s `serialization.Encoding` members are).

use parcrypt::pkcs8;
use parcrypt::secret::SecretBytes;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::buffer::In;

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

/// The password a loader was given (`password=`, any bytes-like object or
/// `None`), checked against the key as `cryptography` checks it: a
/// password for a key that is not encrypted, or none for one that is, is a
/// `TypeError`.
pub fn load_password(data: &[u8], password: Option<&Bound<'_, PyAny>>) -> PyResult<Option<SecretBytes>> {
    let password = match password {
        Some(p) if !p.is_none() => {
            let p = In::get(p, "password")?;
            Some(SecretBytes::from(p.as_slice()))
        }
        _ => None,
    };
    match (pkcs8::is_encrypted(data), &password) {
        (false, Some(_)) => Err(PyTypeError::new_err(
            "Password was given but private key is not encrypted.",
        )),
        (true, None) => Err(PyTypeError::new_err(
            "Password was not given but private key is encrypted",
        )),
        _ => Ok(password),
    }
}

/// The key-derivation limits a loader's `allow_costly_kdf` chooses.
pub fn kdf_limits(allow_costly_kdf: bool) -> pkcs8::KdfLimits {
    if allow_costly_kdf {
        pkcs8::KdfLimits::COSTLY
    } else {
        pkcs8::KdfLimits::DEFAULT
    }
}

/// The password of `private_bytes`'s `encryption_algorithm`: `None` or a
/// `NoEncryption` give none; an object with a `password` attribute
/// (`parcrypt.serialization.BestAvailableEncryption`, or
/// `cryptography`'s) gives its bytes, which may not be empty.
pub fn encryption_password(algorithm: Option<&Bound<'_, PyAny>>) -> PyResult<Option<SecretBytes>> {
    let Some(algorithm) = algorithm.filter(|a| !a.is_none()) else {
        return Ok(None);
    };
    if algorithm.hasattr("password")? {
        let password = algorithm.getattr("password")?;
        let password = In::get(&password, "password")?;
        if password.as_slice().is_empty() {
            return Err(PyValueError::new_err("Password must be 1 or more bytes"));
        }
        return Ok(Some(SecretBytes::from(password.as_slice())));
    }
    let name = algorithm.get_type().name()?;
    if name == "NoEncryption" {
        return Ok(None);
    }
    Err(PyTypeError::new_err(
        "Encryption algorithm must be NoEncryption() or BestAvailableEncryption(password)",
    ))
}

/// A private key's `private_bytes` with `encryption_algorithm`: encrypted
/// keys are PKCS#8 (`ENCRYPTED PRIVATE KEY`), PBES2 with
/// PBKDF2-HMAC-SHA256 and AES-256-CBC, what OpenSSL 3 writes.
pub fn encrypted_key_bytes<'py, E>(
    py: Python<'py>,
    (encoding, format): (&str, &str),
    password: &SecretBytes,
    encode: impl FnOnce(&[u8], &pkcs8::Options, bool) -> Result<Vec<u8>, E>,
    err: impl FnOnce(Python<'py>, E) -> PyErr,
) -> PyResult<Bound<'py, PyBytes>> {
    let pem = pem_wanted(encoding)?;
    if !format.eq_ignore_ascii_case("PKCS8") {
        return Err(PyValueError::new_err(format!(
            "an encrypted key is written as \"PKCS8\" only, not {format:?}"
        )));
    }
    let bytes = encode(password.expose(), &pkcs8::Options::default(), pem).map_err(|e| err(py, e))?;
    Ok(PyBytes::new(py, &bytes))
}
