//! `parcrypt.rsa`: keys (parallel generation), PEM/DER both ways, PSS and
//! PKCS#1 v1.5 signatures, RSAES-OAEP — interoperable with `cryptography`
//! and OpenSSL.

use parcrypt::digest::Algorithm;
use parcrypt::par::Parallelism;
use parcrypt::rsa::{self, PrivateKey, PublicKey, Scheme};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::buffer::{In, detach_from};
use crate::serialization::{self, load_password};
use crate::{errors, par};
use parcrypt::keys::{SigningKey as _, VerifyingKey as _};

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<RsaPrivateKey>()?;
    m.add_class::<RsaPublicKey>()?;
    m.add_function(wrap_pyfunction!(rsa_generate_private_key, m)?)?;
    m.add_function(wrap_pyfunction!(rsa_load_private_key, m)?)?;
    m.add_function(wrap_pyfunction!(rsa_load_public_key, m)?)?;
    Ok(())
}

fn err(py: Python<'_>, e: rsa::Error) -> PyErr {
    errors::signature(py, matches!(e, rsa::Error::BadSignature), e)
}

fn hash_of(name: &str) -> PyResult<Algorithm> {
    name.parse()
        .map_err(|e: parcrypt::UnknownName| PyValueError::new_err(e.to_string()))
}

fn scheme_of(name: &str) -> PyResult<Scheme> {
    name.parse()
        .map_err(|e: parcrypt::UnknownName| PyValueError::new_err(e.to_string()))
}

/// A signing call's scheme, hash and threads, read in that order.
fn sign_args(
    scheme: &str,
    hash: &str,
    threads: Option<i64>,
    strategy: &str,
) -> PyResult<(Scheme, Algorithm, Parallelism)> {
    Ok((
        scheme_of(scheme)?,
        hash_of(hash)?,
        par::parallelism(threads, strategy)?,
    ))
}

/// An RSA private key (its `repr` shows the size only).
#[pyclass(name = "RSAPrivateKey", module = "parcrypt.rsa", frozen)]
#[derive(Debug)]
pub struct RsaPrivateKey {
    pub(crate) key: PrivateKey,
}

/// An RSA public key.
#[pyclass(name = "RSAPublicKey", module = "parcrypt.rsa", frozen)]
#[derive(Debug)]
pub struct RsaPublicKey {
    pub(crate) key: PublicKey,
}

/// A new key of `key_size` bits (e = 65537); with several threads, all of
/// them race candidates for each prime.
#[pyfunction]
#[pyo3(signature = (key_size, *, threads = None, strategy = "steal"))]
fn rsa_generate_private_key(
    py: Python<'_>,
    key_size: usize,
    threads: Option<i64>,
    strategy: &str,
) -> PyResult<RsaPrivateKey> {
    let par = par::parallelism(threads, strategy)?;
    let key = py
        .detach(|| PrivateKey::generate(key_size, &par))
        .map_err(|e| err(py, e))?;
    Ok(RsaPrivateKey { key })
}

/// A private key from PEM (`PRIVATE KEY`, `RSA PRIVATE KEY`, `ENCRYPTED
/// PRIVATE KEY`) or DER (PKCS#8, PKCS#1, encrypted PKCS#8), decrypted with
/// `password` as `cryptography`'s loaders do. The password's key
/// derivation may cost at most `pkcs8::KdfLimits::DEFAULT` (about a second
/// of one core and 32 MiB), or `COSTLY` with `allow_costly_kdf`.
#[pyfunction]
#[pyo3(signature = (data, password = None, *, allow_costly_kdf = false))]
fn rsa_load_private_key(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    password: Option<&Bound<'_, PyAny>>,
    allow_costly_kdf: bool,
) -> PyResult<RsaPrivateKey> {
    let data = In::get(data, "data")?;
    // An RSA key is only parsed: no threads to give.
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
    Ok(RsaPrivateKey { key })
}

/// A public key from PEM (`PUBLIC KEY`, `RSA PUBLIC KEY`) or DER (SPKI, PKCS#1).
#[pyfunction]
fn rsa_load_public_key(py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<RsaPublicKey> {
    let data = In::get(data, "data")?;
    let key = PublicKey::from_bytes(data.as_slice(), &Parallelism::sequential()).map_err(|e| err(py, e))?;
    Ok(RsaPublicKey { key })
}

#[pymethods]
impl RsaPrivateKey {
    #[getter]
    fn key_size(&self) -> usize {
        self.key.bits()
    }

    fn public_key(&self, py: Python<'_>) -> PyResult<RsaPublicKey> {
        let der = self.key.public_key().to_spki_der().map_err(|e| err(py, e))?;
        let key = PublicKey::from_spki_der(&der).map_err(|e| err(py, e))?;
        Ok(RsaPublicKey { key })
    }

    /// The key as `cryptography` writes it: `encoding` and `format`
    /// `Encoding`/`PrivateFormat` members (or their names):
    /// PKCS8 (default) or TraditionalOpenSSL (PKCS#1);
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

    /// A signature over `data` (hashed with `hash`): `scheme` "pss" (MGF1 of
    /// the same hash, salt as long as the digest) or "pkcs1".
    #[pyo3(signature = (data, *, scheme = "pss", hash = "sha256", threads = None, strategy = "steal"))]
    fn sign<'py>(
        &self,
        py: Python<'py>,
        data: &Bound<'py, PyAny>,
        scheme: &str,
        hash: &str,
        threads: Option<i64>,
        strategy: &str,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let (scheme, hash, par) = sign_args(scheme, hash, threads, strategy)?;
        let data = In::get(data, "data")?;
        let msg = data.as_slice();
        let sig =
            detach_from(py, msg.len(), || self.key.sign(scheme, hash, msg, &par)).map_err(|e| err(py, e))?;
        Ok(PyBytes::new(py, &sig))
    }

    /// A signature over a digest computed by the caller.
    #[pyo3(signature = (digest, *, scheme = "pss", hash = "sha256", threads = None, strategy = "steal"))]
    fn sign_digest<'py>(
        &self,
        py: Python<'py>,
        digest: &Bound<'py, PyAny>,
        scheme: &str,
        hash: &str,
        threads: Option<i64>,
        strategy: &str,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let (scheme, hash, par) = sign_args(scheme, hash, threads, strategy)?;
        let digest = In::get(digest, "digest")?;
        let sig = self
            .key
            .sign_digest(scheme, hash, digest.as_slice(), &par)
            .map_err(|e| err(py, e))?;
        Ok(PyBytes::new(py, &sig))
    }

    /// RSAES-OAEP decryption (default SHA-256 and MGF1-SHA-256, empty
    /// label); any failure is one opaque `ValueError("decryption failed")`.
    #[pyo3(signature = (ciphertext, *, hash = "sha256", mgf1_hash = None, label = None, threads = None, strategy = "steal"))]
    #[allow(clippy::too_many_arguments)]
    fn decrypt<'py>(
        &self,
        py: Python<'py>,
        ciphertext: &Bound<'py, PyAny>,
        hash: &str,
        mgf1_hash: Option<&str>,
        label: Option<&Bound<'py, PyAny>>,
        threads: Option<i64>,
        strategy: &str,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let hash = hash_of(hash)?;
        let mgf1 = mgf1_hash.map(hash_of).transpose()?.unwrap_or(hash);
        let par: Parallelism = par::parallelism(threads, strategy)?;
        let label = label
            .filter(|l| !l.is_none())
            .map(|l| In::get(l, "label"))
            .transpose()?;
        let ct = In::get(ciphertext, "ciphertext")?;
        let plain = self
            .key
            .decrypt_oaep(
                ct.as_slice(),
                hash,
                mgf1,
                label.as_ref().map_or(&[][..], In::as_slice),
                &par,
            )
            .map_err(|e| err(py, e))?;
        Ok(PyBytes::new(py, plain.expose()))
    }

    fn __repr__(&self) -> String {
        format!(
            "<parcrypt.rsa.RSAPrivateKey {} bits (private values redacted)>",
            self.key.bits()
        )
    }
}

#[pymethods]
impl RsaPublicKey {
    #[getter]
    fn key_size(&self) -> usize {
        self.key.bits()
    }

    /// The key as `cryptography` writes it: `encoding` and `format`
    /// `Encoding`/`PublicFormat` members (or their names):
    /// SubjectPublicKeyInfo (default) or PKCS1.
    #[pyo3(signature = (encoding = None, format = None))]
    fn public_bytes<'py>(
        &self,
        py: Python<'py>,
        encoding: Option<&Bound<'py, PyAny>>,
        format: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        serialization::public_bytes(py, &self.key, encoding, format)
    }

    /// Returns None if `signature` is valid for `data`; raises `InvalidSignature` otherwise.
    #[pyo3(signature = (signature, data, *, scheme = "pss", hash = "sha256"))]
    fn verify(
        &self,
        py: Python<'_>,
        signature: &Bound<'_, PyAny>,
        data: &Bound<'_, PyAny>,
        scheme: &str,
        hash: &str,
    ) -> PyResult<()> {
        let (scheme, hash) = (scheme_of(scheme)?, hash_of(hash)?);
        let (sig, data) = (In::get(signature, "signature")?, In::get(data, "data")?);
        let msg = data.as_slice();
        detach_from(py, msg.len(), || {
            self.key.verify(scheme, hash, msg, sig.as_slice())
        })
        .map_err(|e| err(py, e))
    }

    /// As `verify`, over a digest computed by the caller.
    #[pyo3(signature = (signature, digest, *, scheme = "pss", hash = "sha256"))]
    fn verify_digest(
        &self,
        py: Python<'_>,
        signature: &Bound<'_, PyAny>,
        digest: &Bound<'_, PyAny>,
        scheme: &str,
        hash: &str,
    ) -> PyResult<()> {
        let (scheme, hash) = (scheme_of(scheme)?, hash_of(hash)?);
        let (sig, digest) = (In::get(signature, "signature")?, In::get(digest, "digest")?);
        self.key
            .verify_digest(scheme, hash, digest.as_slice(), sig.as_slice())
            .map_err(|e| err(py, e))
    }

    /// RSAES-OAEP encryption (SHA-256, MGF1-SHA-256, empty label) of at most
    /// `key_size / 8 - 66` bytes.
    fn encrypt<'py>(&self, py: Python<'py>, plaintext: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyBytes>> {
        let pt = In::get(plaintext, "plaintext")?;
        let ct = self.key.encrypt(pt.as_slice()).map_err(|e| err(py, e))?;
        Ok(PyBytes::new(py, &ct))
    }

    fn __repr__(&self) -> String {
        format!("<parcrypt.rsa.RSAPublicKey {} bits>", self.key.bits())
    }
}
