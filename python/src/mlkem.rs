//! `parcrypt.mlkem`: ML-KEM-512/768/1024 (FIPS 203) keys in pyca 50's
//! shape — `MLKEM768PrivateKey`/`MLKEM1024PrivateKey` (and
//! `MLKEM512PrivateKey`, which pyca lacks) and their public keys — over
//! [`parcrypt::mlkem`]. Encapsulation and decapsulation run without the
//! GIL; a ciphertext is copied before (read once).

use std::sync::Arc;

use parcrypt::mlkem::{self, Params, PrivateKey, PublicKey};
use parcrypt::secret::SecretBytes;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::buffer::In;
use crate::keyclass::key_classes;

/// Every ML-KEM error is a `ValueError` (a wrong length, a malformed key),
/// as pyca raises; a ciphertext not made for the key is no error at all
/// (implicit rejection: a pseudorandom secret).
fn err(e: mlkem::Error) -> PyErr {
    PyValueError::new_err(e.to_string())
}

fn generate(py: Python<'_>, params: Params) -> PyResult<Arc<PrivateKey>> {
    Ok(Arc::new(py.detach(|| PrivateKey::generate(params)).map_err(err)?))
}

fn from_seed(py: Python<'_>, params: Params, seed: &Bound<'_, PyAny>) -> PyResult<Arc<PrivateKey>> {
    let seed = SecretBytes::from(In::get(seed, "data")?.as_slice());
    let key = py
        .detach(|| PrivateKey::from_seed(params, seed.expose()))
        .map_err(err)?;
    Ok(Arc::new(key))
}

fn from_raw(_: Python<'_>, params: Params, data: &Bound<'_, PyAny>) -> PyResult<PublicKey> {
    let raw = In::get(data, "data")?.as_slice().to_vec();
    PublicKey::from_raw(params, &raw).map_err(err)
}

fn decapsulate<'py>(
    py: Python<'py>,
    key: &PrivateKey,
    ciphertext: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyBytes>> {
    let ciphertext = In::get(ciphertext, "ciphertext")?.as_slice().to_vec();
    let secret = py.detach(|| key.decapsulate(&ciphertext)).map_err(err)?;
    Ok(PyBytes::new(py, secret.expose()))
}

fn encapsulate<'py>(
    py: Python<'py>,
    key: &PublicKey,
) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyBytes>)> {
    let (secret, ciphertext) = py.detach(|| key.encapsulate()).map_err(err)?;
    Ok((PyBytes::new(py, secret.expose()), PyBytes::new(py, &ciphertext)))
}

fn seed<'py>(py: Python<'py>, key: &PrivateKey) -> PyResult<Bound<'py, PyBytes>> {
    let seed = key.seed().ok_or_else(|| {
        PyValueError::new_err("the key was read without its seed, which cannot be recovered")
    })?;
    Ok(PyBytes::new(py, seed.expose()))
}

fn raw<'py>(py: Python<'py>, key: &PublicKey) -> PyResult<Bound<'py, PyBytes>> {
    Ok(PyBytes::new(py, &key.to_raw().map_err(err)?))
}

/// Two encapsulation keys are equal when their encodings are.
fn same(a: &PublicKey, b: &PublicKey) -> bool {
    matches!((a.to_raw(), b.to_raw()), (Ok(a), Ok(b)) if a == b)
}

fn set_of(key: &PrivateKey) -> Params {
    key.params()
}

fn public_set_of(key: &PublicKey) -> Params {
    key.params()
}

key_classes! {
    module = "parcrypt.mlkem",
    types = (PrivateKey, PublicKey),
    sets = [
        Params::MlKem512 => MlKem512PrivateKey("MLKEM512PrivateKey"), MlKem512PublicKey("MLKEM512PublicKey");
        Params::MlKem768 => MlKem768PrivateKey("MLKEM768PrivateKey"), MlKem768PublicKey("MLKEM768PublicKey");
        Params::MlKem1024 => MlKem1024PrivateKey("MLKEM1024PrivateKey"), MlKem1024PublicKey("MLKEM1024PublicKey");
    ],
    private_methods = {
        /// The 32-byte shared secret of `ciphertext`.
        fn decapsulate<'py>(&self, py: Python<'py>, ciphertext: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyBytes>> {
            decapsulate(py, &self.key, ciphertext)
        }
    },
    public_methods = {
        /// `(shared_secret, ciphertext)`, in pyca's order.
        fn encapsulate<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyBytes>)> {
            encapsulate(py, &self.key)
        }
    },
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    register_classes(m)
}
