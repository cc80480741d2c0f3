//! `parcrypt.slhdsa`: SLH-DSA (FIPS 205) keys of all twelve parameter sets,
//! raw and PKCS#8/SPKI (PEM or DER, byte for byte as OpenSSL 3.5 writes
//! them), pure and HashSLH-DSA signatures with a context, hedged or
//! deterministic, on every core, and `verify_batch`.
//!
//! Every key generation, key load (a private key's root is rebuilt and
//! checked), signature and verification runs with the GIL released: each
//! is milliseconds to seconds of hashing.

use parcrypt::secret::SecretBytes;
use parcrypt::slhdsa::{self, BatchItem, Message, ParameterSet, PreHash, PrivateKey, PublicKey};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::batch::{self, context_of};
use crate::buffer::In;
use crate::serialization::{self, load_password};
use crate::{errors, par};

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<SlhDsaPrivateKey>()?;
    m.add_class::<SlhDsaPublicKey>()?;
    m.add_function(wrap_pyfunction!(slhdsa_load_private_key, m)?)?;
    m.add_function(wrap_pyfunction!(slhdsa_load_public_key, m)?)?;
    m.add_function(wrap_pyfunction!(slhdsa_verify_batch, m)?)?;
    Ok(())
}

/// `InvalidSignature` for a signature that does not verify, or cannot (the
/// wrong length for the key's set), as `cryptography` raises for Ed25519;
/// `ValueError` for the rest.
fn err(py: Python<'_>, e: slhdsa::Error) -> PyErr {
    let invalid = matches!(
        e,
        slhdsa::Error::BadSignature | slhdsa::Error::SignatureLength { .. }
    );
    errors::signature(py, invalid, e)
}

/// A parameter set from its name (any case; `parcrypt.slhdsa.ParameterSet`
/// members are their names).
fn set_of(name: &str) -> PyResult<ParameterSet> {
    name.parse()
        .map_err(|e: parcrypt::UnknownName| PyValueError::new_err(e.to_string()))
}

/// The `parcrypt.slhdsa.ParameterSet` member of `set`.
fn set_member(py: Python<'_>, set: ParameterSet) -> PyResult<Bound<'_, PyAny>> {
    py.import("parcrypt.slhdsa")?
        .getattr("ParameterSet")?
        .call1((set.name(),))
}

/// What is signed or verified: `data` under `context`, pure or through
/// the `prehash` named (`"sha256"`, `"sha512"`, `"shake128"`, `"shake256"`,
/// …; the message is hashed here, once).
fn message<'a>(data: &'a [u8], context: &[u8], prehash: Option<&str>) -> Result<Message<'a>, PyErr> {
    let msg = match prehash {
        None => Message::pure(data, context),
        Some(name) => {
            let hash: PreHash = name
                .parse()
                .map_err(|e: parcrypt::UnknownName| PyValueError::new_err(e.to_string()))?;
            Message::prehashed(hash, data, context)
        }
    };
    msg.map_err(|e| PyValueError::new_err(e.to_string()))
}

/// An SLH-DSA private key (its `repr` shows the parameter set only).
#[pyclass(name = "SLHDSAPrivateKey", module = "parcrypt.slhdsa", frozen)]
#[derive(Debug)]
pub struct SlhDsaPrivateKey {
    pub(crate) key: PrivateKey,
}

/// An SLH-DSA public key.
#[pyclass(name = "SLHDSAPublicKey", module = "parcrypt.slhdsa", frozen)]
#[derive(Debug)]
pub struct SlhDsaPublicKey {
    pub(crate) key: PublicKey,
}

/// A private key from PEM (`PRIVATE KEY`, `ENCRYPTED PRIVATE KEY`) or DER
/// (PKCS#8, encrypted PKCS#8), decrypted with `password` as
/// `cryptography`'s loaders do; its root is rebuilt and checked on
/// `threads` (every core by default), without the GIL.
#[pyfunction]
#[pyo3(signature = (data, password = None, *, allow_costly_kdf = false, threads = None, strategy = "steal"))]
fn slhdsa_load_private_key(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    password: Option<&Bound<'_, PyAny>>,
    allow_costly_kdf: bool,
    threads: Option<i64>,
    strategy: &str,
) -> PyResult<SlhDsaPrivateKey> {
    let par = par::parallelism(threads, strategy)?;
    // Parsed from a wiped copy: the bytes are read by several parsers in
    // turn (PEM, DER, the key), which another thread must not change between.
    let data = SecretBytes::from(In::get(data, "data")?.as_slice());
    let password = load_password(data.expose(), password)?;
    let bytes = data.expose();
    let key = py
        .detach(|| match &password {
            Some(password) => PrivateKey::from_pkcs8_with_password_and_limits(
                bytes,
                password.expose(),
                &crate::serialization::kdf_limits(allow_costly_kdf),
                &par,
            ),
            None if bytes.trim_ascii_start().starts_with(b"-----BEGIN ") => {
                PrivateKey::from_pkcs8_pem(bytes, &par)
            }
            None => PrivateKey::from_pkcs8_der(bytes, &par),
        })
        .map_err(|e| err(py, e))?;
    Ok(SlhDsaPrivateKey { key })
}

/// A public key from PEM `PUBLIC KEY` or DER `SubjectPublicKeyInfo`.
#[pyfunction]
fn slhdsa_load_public_key(py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<SlhDsaPublicKey> {
    let data = In::get(data, "data")?.as_slice().to_vec();
    let key = if data.trim_ascii_start().starts_with(b"-----BEGIN ") {
        PublicKey::from_spki_pem(&data)
    } else {
        PublicKey::from_spki_der(&data)
    };
    Ok(SlhDsaPublicKey {
        key: key.map_err(|e| err(py, e))?,
    })
}

/// Verifies `(public_key, data, signature)` or `(public_key, data,
/// signature, context)` items (pure SLH-DSA) across cores; one bool per
/// item, in order. A signature of the wrong length is simply `False`; a
/// context over 255 bytes is a `ValueError` naming the item.
#[pyfunction]
#[pyo3(signature = (items, *, threads = None, strategy = "steal"))]
fn slhdsa_verify_batch(
    py: Python<'_>,
    items: &Bound<'_, PyAny>,
    threads: Option<i64>,
    strategy: &str,
) -> PyResult<Vec<bool>> {
    let par = par::parallelism(threads, strategy)?;
    let items = batch::items(items)?;
    let mut keys: Vec<&SlhDsaPublicKey> = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let key = item.key.cast::<SlhDsaPublicKey>().map_err(|_| {
            PyTypeError::new_err(format!("items[{i}][0] must be a parcrypt.slhdsa.SLHDSAPublicKey"))
        })?;
        keys.push(key.get());
    }
    let messages: Vec<Message<'_>> = items
        .iter()
        .map(|item| Message::pure(item.data.as_slice(), &item.context))
        .collect::<Result<_, _>>()
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let batch: Vec<BatchItem<'_>> = keys
        .iter()
        .zip(&items)
        .zip(&messages)
        .map(|((key, item), message)| BatchItem {
            key: &key.key,
            message,
            signature: item.signature.as_slice(),
        })
        .collect();
    Ok(py.detach(|| slhdsa::verify_batch(&batch, &par)))
}

#[pymethods]
impl SlhDsaPrivateKey {
    /// A new key of `parameter_set` (a `ParameterSet` or its name, any
    /// case), its top tree built on every core.
    #[staticmethod]
    #[pyo3(signature = (parameter_set, *, threads = None, strategy = "steal"))]
    fn generate(py: Python<'_>, parameter_set: &str, threads: Option<i64>, strategy: &str) -> PyResult<Self> {
        let set = set_of(parameter_set)?;
        let par = par::parallelism(threads, strategy)?;
        let key = py
            .detach(|| PrivateKey::generate(set, &par))
            .map_err(|e| err(py, e))?;
        Ok(SlhDsaPrivateKey { key })
    }

    /// A key from its raw FIPS 205 encoding, `SK.seed ‖ SK.prf ‖ PK.seed ‖
    /// PK.root` (4n bytes); the root is rebuilt from the seeds and checked.
    #[staticmethod]
    #[pyo3(signature = (parameter_set, data, *, threads = None, strategy = "steal"))]
    fn from_private_bytes(
        py: Python<'_>,
        parameter_set: &str,
        data: &Bound<'_, PyAny>,
        threads: Option<i64>,
        strategy: &str,
    ) -> PyResult<Self> {
        let set = set_of(parameter_set)?;
        let par = par::parallelism(threads, strategy)?;
        // A wiped copy: the key is read twice (seeds, then PK.root).
        let raw = SecretBytes::from(In::get(data, "data")?.as_slice());
        let key = py
            .detach(|| PrivateKey::from_bytes(set, raw.expose(), &par))
            .map_err(|e| err(py, e))?;
        Ok(SlhDsaPrivateKey { key })
    }

    /// The key's `ParameterSet`.
    #[getter]
    fn parameter_set<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        set_member(py, self.key.parameter_set())
    }

    /// The raw key, `SK.seed ‖ SK.prf ‖ PK.seed ‖ PK.root` (4n bytes).
    fn private_bytes_raw<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, self.key.to_bytes().expose())
    }

    fn public_key(&self) -> SlhDsaPublicKey {
        SlhDsaPublicKey {
            key: self.key.public_key().clone(),
        }
    }

    /// The key as `cryptography` writes it: `encoding` and `format`
    /// `Encoding`/`PrivateFormat` members (or their names):
    /// PKCS8 (default, what OpenSSL 3.5 writes) or Raw;
    /// encrypted PKCS#8 with `BestAvailableEncryption(password)`.
    #[pyo3(signature = (encoding = None, format = None, encryption_algorithm = None))]
    fn private_bytes<'py>(
        &self,
        py: Python<'py>,
        encoding: Option<&Bound<'py, PyAny>>,
        format: Option<&Bound<'py, PyAny>>,
        encryption_algorithm: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        serialization::private_bytes(py, &self.key, encoding, format, encryption_algorithm)
    }

    /// A signature of `data` under `context` (at most 255 bytes), pure or
    /// HashSLH-DSA with `prehash` ("sha256", "sha512", "shake128",
    /// "shake256", …). Hedged (a fresh random `opt_rand`) unless
    /// `deterministic=True`. The trees are built on every core.
    #[pyo3(signature = (data, context = None, *, deterministic = false, prehash = None, threads = None, strategy = "steal"))]
    #[allow(clippy::too_many_arguments)]
    fn sign<'py>(
        &self,
        py: Python<'py>,
        data: &Bound<'py, PyAny>,
        context: Option<&Bound<'py, PyAny>>,
        deterministic: bool,
        prehash: Option<&str>,
        threads: Option<i64>,
        strategy: &str,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let par = par::parallelism(threads, strategy)?;
        let context = context_of(context)?;
        // Pure signing reads the message twice (PRF_msg, then H_msg): a
        // buffer another thread may write (anything but an exact `bytes`)
        // is copied first, so both read the same message.
        let immutable = data.is_exact_instance_of::<PyBytes>();
        let view = In::get(data, "data")?;
        let copy;
        let bytes = if immutable || prehash.is_some() {
            view.as_slice()
        } else {
            copy = view.as_slice().to_vec();
            &copy[..]
        };
        let key = &self.key;
        let sig = py.detach(|| {
            let msg = message(bytes, &context, prehash)?;
            if deterministic {
                Ok(key.sign_deterministic(&msg, &par))
            } else {
                key.sign(&msg, &par).map_err(|e| Python::attach(|py| err(py, e)))
            }
        })?;
        Ok(PyBytes::new(py, &sig))
    }

    fn __repr__(&self) -> String {
        format!(
            "<parcrypt.slhdsa.SLHDSAPrivateKey {} (seeds redacted)>",
            self.key.parameter_set()
        )
    }
}

#[pymethods]
impl SlhDsaPublicKey {
    /// A key from its raw FIPS 205 encoding, `PK.seed ‖ PK.root` (2n bytes).
    #[staticmethod]
    fn from_public_bytes(py: Python<'_>, parameter_set: &str, data: &Bound<'_, PyAny>) -> PyResult<Self> {
        let set = set_of(parameter_set)?;
        let key = PublicKey::from_bytes(set, In::get(data, "data")?.as_slice()).map_err(|e| err(py, e))?;
        Ok(SlhDsaPublicKey { key })
    }

    /// The key's `ParameterSet`.
    #[getter]
    fn parameter_set<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        set_member(py, self.key.parameter_set())
    }

    /// The raw key, `PK.seed ‖ PK.root` (2n bytes).
    fn public_bytes_raw<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, self.key.as_bytes())
    }

    /// The key as `cryptography` writes it: `encoding` and `format`
    /// `Encoding`/`PublicFormat` members (or their names):
    /// SubjectPublicKeyInfo (default) or Raw.
    #[pyo3(signature = (encoding = None, format = None))]
    fn public_bytes<'py>(
        &self,
        py: Python<'py>,
        encoding: Option<&Bound<'py, PyAny>>,
        format: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        serialization::public_bytes(py, &self.key, encoding, format)
    }

    /// Returns None if `signature` is valid for `data` under `context`
    /// (pure, or HashSLH-DSA with `prehash`); raises `InvalidSignature`
    /// otherwise (a signature of the wrong length too).
    #[pyo3(signature = (signature, data, context = None, *, prehash = None))]
    fn verify(
        &self,
        py: Python<'_>,
        signature: &Bound<'_, PyAny>,
        data: &Bound<'_, PyAny>,
        context: Option<&Bound<'_, PyAny>>,
        prehash: Option<&str>,
    ) -> PyResult<()> {
        let context = context_of(context)?;
        let sig = In::get(signature, "signature")?;
        let data = In::get(data, "data")?;
        // Pure verification reads the message once (H_msg), as a prehash does.
        let (bytes, sig) = (data.as_slice(), sig.as_slice());
        let key = &self.key;
        py.detach(|| {
            let msg = message(bytes, &context, prehash)?;
            key.verify(&msg, sig).map_err(|e| Python::attach(|py| err(py, e)))
        })
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<SlhDsaPublicKey>()
            .is_ok_and(|o| o.get().key == self.key)
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.key.as_bytes().hash(&mut h);
        h.finish()
    }

    fn __repr__(&self) -> String {
        format!("<parcrypt.slhdsa.SLHDSAPublicKey {}>", self.key.parameter_set())
    }
}
