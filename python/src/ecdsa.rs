//! `parcrypt.ecdsa`: P-256 keys, signatures (DER or fixed r‖s) and batch
//! verification across cores.

use parcrypt::ecdsa::{self, BatchItem, PrivateKey, PublicKey, Signature};
use parcrypt::par::Parallelism;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::buffer::{In, detach_from};
use crate::serialization::{self, load_password};
use crate::{errors, par};
use parcrypt::keys::{SigningKey as _, VerifyingKey as _};

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<EcPrivateKey>()?;
    m.add_class::<EcPublicKey>()?;
    m.add_function(wrap_pyfunction!(ec_generate_private_key, m)?)?;
    m.add_function(wrap_pyfunction!(ec_load_private_key, m)?)?;
    m.add_function(wrap_pyfunction!(ec_load_public_key, m)?)?;
    m.add_function(wrap_pyfunction!(ec_verify_batch, m)?)?;
    m.add_function(wrap_pyfunction!(ec_verify_batch_digests, m)?)?;
    Ok(())
}

fn err(py: Python<'_>, e: ecdsa::Error) -> PyErr {
    errors::signature(py, matches!(e, ecdsa::Error::BadSignature), e)
}

/// Reads a signature in `encoding` "der" (what OpenSSL and `cryptography`
/// write) or "fixed" (r‖s, 64 bytes: IEEE P1363, JOSE).
fn signature_of(bytes: &[u8], encoding: &str) -> Result<Signature, PyErr> {
    let parsed = match encoding.to_ascii_lowercase().as_str() {
        "der" => Signature::from_der(bytes),
        "fixed" | "p1363" => Signature::from_fixed(bytes),
        _ => {
            return Err(PyValueError::new_err(format!(
                "unknown signature encoding {encoding:?}: expected \"der\" or \"fixed\""
            )));
        }
    };
    parsed.map_err(|e| PyValueError::new_err(e.to_string()))
}

/// A P-256 private key (its `repr` never shows the scalar).
#[pyclass(name = "ECPrivateKey", module = "parcrypt.ecdsa", frozen)]
#[derive(Debug)]
pub struct EcPrivateKey {
    pub(crate) key: PrivateKey,
}

/// A P-256 public key.
#[pyclass(name = "ECPublicKey", module = "parcrypt.ecdsa", frozen)]
#[derive(Debug)]
pub struct EcPublicKey {
    pub(crate) key: PublicKey,
}

#[pyfunction]
fn ec_generate_private_key(py: Python<'_>) -> PyResult<EcPrivateKey> {
    Ok(EcPrivateKey {
        key: PrivateKey::generate().map_err(|e| err(py, e))?,
    })
}

/// A private key from PEM (`PRIVATE KEY`, `EC PRIVATE KEY`, `ENCRYPTED
/// PRIVATE KEY`) or DER (PKCS#8, SEC1, encrypted PKCS#8), decrypted with
/// `password` as `cryptography`'s loaders do. The password's key
/// derivation may cost at most `pkcs8::KdfLimits::DEFAULT` (about a second
/// of one core and 32 MiB), or `COSTLY` with `allow_costly_kdf`.
#[pyfunction]
#[pyo3(signature = (data, password = None, *, allow_costly_kdf = false))]
fn ec_load_private_key(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    password: Option<&Bound<'_, PyAny>>,
    allow_costly_kdf: bool,
) -> PyResult<EcPrivateKey> {
    let data = In::get(data, "data")?;
    // An EC key is only parsed: no threads to give.
    let key = match load_password(data.as_slice(), password)? {
        Some(password) => PrivateKey::from_bytes_with_password_and_limits(
            data.as_slice(),
            password.expose(),
            &crate::serialization::kdf_limits(allow_costly_kdf),
            &Parallelism::sequential(),
        ),
        None => PrivateKey::from_bytes(data.as_slice(), &Parallelism::sequential()),
    }
    .map_err(|e| err(py, e))?;
    Ok(EcPrivateKey { key })
}

/// A public key from PEM/DER `SubjectPublicKeyInfo`, a private key's PEM,
/// or a SEC1 point (65 bytes `04‖x‖y`, or 33 compressed).
#[pyfunction]
fn ec_load_public_key(py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<EcPublicKey> {
    let data = In::get(data, "data")?;
    let bytes = data.as_slice();
    let key = if matches!(bytes.first(), Some(2..=4)) && matches!(bytes.len(), 33 | 65) {
        PublicKey::from_sec1_point(bytes)
    } else {
        PublicKey::from_bytes(bytes, &Parallelism::sequential())
    };
    Ok(EcPublicKey {
        key: key.map_err(|e| err(py, e))?,
    })
}

/// Verifies many signatures across cores: `items` is an iterable of
/// `(public_key, message, signature)`; one bool per item, in order.
#[pyfunction]
#[pyo3(signature = (items, *, encoding = "der", threads = None, strategy = "steal"))]
fn ec_verify_batch(
    items: &Bound<'_, PyAny>,
    encoding: &str,
    threads: Option<i64>,
    strategy: &str,
    py: Python<'_>,
) -> PyResult<Vec<bool>> {
    let par = par::parallelism(threads, strategy)?;
    let batch = Batch::read(items, encoding, "message", |_, _| Ok(()))?;
    Ok(batch.verify(
        py,
        |(key, message, signature)| BatchItem {
            key,
            message,
            signature,
        },
        |items| ecdsa::verify_batch_vartime(items, &par),
    ))
}

/// The items of a batch verification as Python gave them: keys, messages
/// (or digests) and signatures, of which some did not even parse (those
/// are simply not valid).
struct Batch {
    keys: Vec<Py<EcPublicKey>>,
    data: Vec<In>,
    signatures: Vec<Option<Signature>>,
}

impl Batch {
    /// Reads `(public_key, <what>, signature)` tuples from `items`;
    /// `check(i, data)` may refuse an item's data.
    fn read(
        items: &Bound<'_, PyAny>,
        encoding: &str,
        what: &str,
        check: impl Fn(usize, &In) -> PyResult<()>,
    ) -> PyResult<Batch> {
        let mut batch = Batch {
            keys: Vec::new(),
            data: Vec::new(),
            signatures: Vec::new(),
        };
        for (i, item) in items.try_iter()?.enumerate() {
            let (key, data, signature): (Bound<'_, PyAny>, Bound<'_, PyAny>, Bound<'_, PyAny>) =
                item?.extract().map_err(|_| {
                    PyTypeError::new_err(format!(
                        "items[{i}] must be a (public_key, {what}, signature) tuple"
                    ))
                })?;
            let key = key.cast_into::<EcPublicKey>().map_err(|_| {
                PyTypeError::new_err(format!("items[{i}][0] must be a parcrypt.ecdsa.ECPublicKey"))
            })?;
            let data = In::get(&data, &format!("items[{i}][1]"))?;
            check(i, &data)?;
            batch.keys.push(key.unbind());
            batch.data.push(data);
            let sig = In::get(&signature, &format!("items[{i}][2]"))?;
            batch.signatures.push(signature_of(sig.as_slice(), encoding).ok());
        }
        Ok(batch)
    }

    /// The items whose signature parsed: key, data, signature.
    fn parsed(&self) -> impl Iterator<Item = (&PublicKey, &[u8], &Signature)> {
        self.keys
            .iter()
            .zip(&self.data)
            .zip(&self.signatures)
            .filter_map(|((k, d), s)| s.as_ref().map(|s| (&k.get().key, d.as_slice(), s)))
    }

    /// Verifies the items whose signature parsed (`item` makes the
    /// library's batch item of each, `verify` checks them all): one bool per
    /// item, in order.
    fn verify<'b, T: Sync>(
        &'b self,
        py: Python<'_>,
        item: impl Fn((&'b PublicKey, &'b [u8], &'b Signature)) -> T,
        verify: impl FnOnce(&[T]) -> Vec<bool> + Send,
    ) -> Vec<bool> {
        let items: Vec<T> = self.parsed().map(item).collect();
        // Each verification is ~50 µs: any non-empty batch runs without the GIL.
        let results = detach_from(py, items.len().saturating_mul(4096), || verify(&items));
        self.spread(results)
    }

    /// One bool per item, in order, from the results of the parsed ones.
    fn spread(&self, results: Vec<bool>) -> Vec<bool> {
        let mut results = results.into_iter();
        self.signatures
            .iter()
            .map(|s| s.is_some() && results.next().unwrap_or(false))
            .collect()
    }
}

#[pymethods]
impl EcPrivateKey {
    #[getter]
    fn curve(&self) -> &'static str {
        "secp256r1"
    }

    fn public_key(&self, py: Python<'_>) -> PyResult<EcPublicKey> {
        let der = self.key.public_key().to_spki_der().map_err(|e| err(py, e))?;
        Ok(EcPublicKey {
            key: PublicKey::from_spki_der(&der).map_err(|e| err(py, e))?,
        })
    }

    /// The key as `cryptography` writes it: `encoding` and `format`
    /// `Encoding`/`PrivateFormat` members (or their names):
    /// PKCS8 (default) or TraditionalOpenSSL (SEC1);
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

    /// An ECDSA signature over SHA-256(`data`), `encoding` "der" or "fixed".
    #[pyo3(signature = (data, *, encoding = "der"))]
    fn sign<'py>(
        &self,
        py: Python<'py>,
        data: &Bound<'py, PyAny>,
        encoding: &str,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let data = In::get(data, "data")?;
        let msg = data.as_slice();
        let sig = detach_from(py, msg.len(), || self.key.sign(msg)).map_err(|e| err(py, e))?;
        encode(py, &sig, encoding)
    }

    /// As `sign`, over a SHA-256 digest computed by the caller.
    #[pyo3(signature = (digest, *, encoding = "der"))]
    fn sign_digest<'py>(
        &self,
        py: Python<'py>,
        digest: &Bound<'py, PyAny>,
        encoding: &str,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let digest = In::get(digest, "digest")?;
        let sig = self.key.sign_digest(digest.as_slice()).map_err(|e| err(py, e))?;
        encode(py, &sig, encoding)
    }

    fn __repr__(&self) -> &'static str {
        "<parcrypt.ecdsa.ECPrivateKey secp256r1 (scalar redacted)>"
    }
}

fn encode<'py>(py: Python<'py>, sig: &Signature, encoding: &str) -> PyResult<Bound<'py, PyBytes>> {
    match encoding.to_ascii_lowercase().as_str() {
        "der" => Ok(PyBytes::new(py, &sig.to_der().map_err(|e| err(py, e))?)),
        "fixed" | "p1363" => {
            let fixed = sig
                .to_fixed()
                .ok_or_else(|| PyValueError::new_err("signature does not fit the fixed form"))?;
            Ok(PyBytes::new(py, &fixed))
        }
        _ => Err(PyValueError::new_err(format!(
            "unknown signature encoding {encoding:?}: expected \"der\" or \"fixed\""
        ))),
    }
}

#[pymethods]
impl EcPublicKey {
    #[getter]
    fn curve(&self) -> &'static str {
        "secp256r1"
    }

    /// The key as `cryptography` writes it: `encoding` and `format`
    /// `Encoding`/`PublicFormat` members (or their names):
    /// SubjectPublicKeyInfo (default), or X962 with UncompressedPoint.
    #[pyo3(signature = (encoding = None, format = None))]
    fn public_bytes<'py>(
        &self,
        py: Python<'py>,
        encoding: Option<&Bound<'py, PyAny>>,
        format: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        serialization::public_bytes(py, &self.key, encoding, format)
    }

    /// Returns None if `signature` (`encoding` "der" or "fixed") is valid for
    /// SHA-256(`data`); raises `InvalidSignature` otherwise (a malformed
    /// signature too).
    #[pyo3(signature = (signature, data, *, encoding = "der"))]
    fn verify(
        &self,
        py: Python<'_>,
        signature: &Bound<'_, PyAny>,
        data: &Bound<'_, PyAny>,
        encoding: &str,
    ) -> PyResult<()> {
        let sig = In::get(signature, "signature")?;
        let sig = signature_of(sig.as_slice(), encoding)
            .map_err(|_| errors::raise(py, "InvalidSignature", "malformed signature".into()))?;
        let data = In::get(data, "data")?;
        let msg = data.as_slice();
        detach_from(py, msg.len(), || self.key.verify_vartime(msg, &sig)).map_err(|e| err(py, e))
    }

    fn __repr__(&self) -> &'static str {
        "<parcrypt.ecdsa.ECPublicKey secp256r1>"
    }
}

/// `ec_verify_batch` over SHA-256 digests computed by the caller (what
/// `cryptography` calls `Prehashed(SHA256())`): `items` is an iterable of
/// `(public_key, digest, signature)`; one bool per item, in order. A
/// digest that is not 32 bytes raises `ValueError`.
#[pyfunction]
#[pyo3(signature = (items, *, encoding = "der", threads = None, strategy = "steal"))]
fn ec_verify_batch_digests(
    items: &Bound<'_, PyAny>,
    encoding: &str,
    threads: Option<i64>,
    strategy: &str,
    py: Python<'_>,
) -> PyResult<Vec<bool>> {
    let par = par::parallelism(threads, strategy)?;
    let batch = Batch::read(items, encoding, "digest", |i, digest| {
        if digest.len() == 32 {
            return Ok(());
        }
        Err(PyValueError::new_err(format!(
            "items[{i}][1] must be a 32-byte SHA-256 digest, got {} bytes",
            digest.len()
        )))
    })?;
    Ok(batch.verify(
        py,
        |(key, digest, signature)| ecdsa::DigestItem {
            key,
            digest,
            signature,
        },
        |items| ecdsa::verify_batch_digests_vartime(items, &par),
    ))
}
