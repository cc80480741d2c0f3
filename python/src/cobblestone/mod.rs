//! `parcrypt.cobblestone`: C2SP chunked-encryption and its named
//! Cobblestone-128/-256, a drop-in for pyca/cryptography's
//! `cryptography.cobblestone` (same classes, arguments, output lengths and
//! errors; `AlreadyFinalized` and `InvalidTag` from `parcrypt.exceptions`),
//! with every full chunk of an update sealed or opened on all cores.
//!
//! Where pyca's behaviour is observable it is kept: a key of the wrong
//! length is `ValueError("key must be 16 bytes.")`, an output buffer too
//! small is `ValueError("buffer must be at least N bytes")` (nothing done),
//! every authentication failure (commitment, chunk, truncation) is
//! `InvalidTag`, and a decryptor that failed, or any finalized context,
//! raises `AlreadyFinalized`. `decrypt_range` follows pyca's pending
//! random-access PR (#15322): refused on a decryptor used for streaming and
//! the other way round, and `length == 0` is `b""`.

mod contexts;
mod range;

use parcrypt::cobblestone::{self, Error, Parts, Scheme};
use parcrypt::secret::SecretBytes;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyType};

use crate::buffer::{In, bytes_from};
use crate::stream::{End, Source, between};
use crate::{errors, par};
use contexts::{
    Cobblestone128Decryptor, Cobblestone128Encryptor, Cobblestone256Decryptor, Cobblestone256Encryptor,
};
use range::range;

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Cobblestone128Encryptor>()?;
    m.add_class::<Cobblestone128Decryptor>()?;
    m.add_class::<Cobblestone256Encryptor>()?;
    m.add_class::<Cobblestone256Decryptor>()?;
    m.add_class::<PyScheme>()?;
    m.add_class::<PyParts>()?;
    m.add_function(wrap_pyfunction!(cobblestone_encrypt_file, m)?)?;
    m.add_function(wrap_pyfunction!(cobblestone_decrypt_file, m)?)?;
    m.add_function(wrap_pyfunction!(cobblestone_sealed_len, m)?)?;
    m.add_function(wrap_pyfunction!(cobblestone_plain_len, m)?)?;
    Ok(())
}

/// The library's error as pyca raises it (see the module's doc).
fn err(py: Python<'_>, e: Error) -> PyErr {
    let msg = e.to_string();
    match e {
        Error::Io(io) => errors::io(io),
        Error::KeyLength { expected, .. } => PyValueError::new_err(format!("key must be {expected} bytes.")),
        Error::BufferTooSmall { needed, .. } => {
            PyValueError::new_err(format!("buffer must be at least {needed} bytes"))
        }
        Error::Failed => already_finalized(py),
        Error::TooLarge => {
            PyValueError::new_err("Message exceeds the maximum chunked encryption length (2**38 chunks).")
        }
        Error::Part(_) => PyValueError::new_err(msg),
        // Commitment, chunk authentication, truncation, too short, and a
        // range past the end (pyca: no authenticated bytes there).
        _ => errors::raise(py, "InvalidTag", msg),
    }
}

fn already_finalized(py: Python<'_>) -> PyErr {
    errors::raise(py, "AlreadyFinalized", "Context was already finalized.".into())
}

fn mixing() -> PyErr {
    PyValueError::new_err(
        "A Cobblestone decryptor cannot be used for both streaming (update/finalize) and random-access (decrypt_range) decryption.",
    )
}

fn key_bytes(key: &Bound<'_, PyAny>) -> PyResult<SecretBytes> {
    Ok(SecretBytes::from(In::get(key, "key")?.as_slice()))
}

/// `parcrypt.cobblestone.Scheme`: the generic C2SP chunked-encryption
/// scheme (a KDF hash and an AEAD), one-shot on all cores.
#[pyclass(name = "Scheme", module = "parcrypt.cobblestone", frozen, eq, hash)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PyScheme {
    scheme: Scheme,
}

impl PyScheme {
    fn check_key(&self, py: Python<'_>, key: &[u8]) -> PyResult<()> {
        let want = self.scheme.key_len();
        if key.len() == want {
            Ok(())
        } else {
            Err(err(
                py,
                Error::KeyLength {
                    expected: want,
                    got: key.len(),
                    aead: self.scheme.aead.name(),
                },
            ))
        }
    }
}

#[pymethods]
impl PyScheme {
    #[new]
    #[pyo3(signature = (kdf_hash = "sha256", aead = "AEAD_AES_128_GCM"))]
    fn new(kdf_hash: &str, aead: &str) -> PyResult<Self> {
        let bad = |e: parcrypt::UnknownName| PyValueError::new_err(e.to_string());
        Ok(PyScheme {
            scheme: Scheme::new(kdf_hash.parse().map_err(bad)?, aead.parse().map_err(bad)?),
        })
    }

    /// `"sha256"` or `"sha512"`.
    #[getter]
    fn kdf_hash(&self) -> &'static str {
        self.scheme.kdf_hash.name()
    }

    /// The AEAD's IANA name.
    #[getter]
    fn aead(&self) -> &'static str {
        self.scheme.aead.name()
    }

    /// The input key's length in bytes.
    #[getter]
    fn key_size(&self) -> usize {
        self.scheme.key_len()
    }

    /// A new random key of `key_size` bytes.
    fn generate_key<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, self.scheme.generate_key().expose())
    }

    /// One message: `data` sealed under a fresh random salt, on all cores.
    #[pyo3(signature = (key, data, context, *, threads = Some(0), strategy = "steal"),
           text_signature = "($self, key, data, context, *, threads=0, strategy='steal')")]
    fn encrypt<'py>(
        &self,
        py: Python<'py>,
        key: &Bound<'py, PyAny>,
        data: &Bound<'py, PyAny>,
        context: &Bound<'py, PyAny>,
        threads: Option<i64>,
        strategy: &str,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let par = par::parallelism(threads, strategy)?;
        let (key, data, context) = (
            In::get(key, "key")?,
            In::get(data, "data")?,
            In::get(context, "context")?,
        );
        let sealer = self
            .scheme
            .sealer(key.as_slice(), context.as_slice())
            .map_err(|e| err(py, e))?;
        let src = data.as_slice();
        let len = cobblestone::sealed_len(src.len() as u64)
            .and_then(|n| usize::try_from(n).ok())
            .ok_or_else(|| err(py, Error::TooLarge))?;
        bytes_from(py, &[], len, &par, |out| {
            sealer
                .encrypt_into(src, out, &par)
                .map(|_| ())
                .map_err(|e| Python::attach(|py| err(py, e)))
        })
    }

    /// The plaintext of the message `ciphertext`: all or nothing.
    #[pyo3(signature = (key, ciphertext, context, *, threads = Some(0), strategy = "steal"),
           text_signature = "($self, key, ciphertext, context, *, threads=0, strategy='steal')")]
    fn decrypt<'py>(
        &self,
        py: Python<'py>,
        key: &Bound<'py, PyAny>,
        ciphertext: &Bound<'py, PyAny>,
        context: &Bound<'py, PyAny>,
        threads: Option<i64>,
        strategy: &str,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let par = par::parallelism(threads, strategy)?;
        let (key, sealed, context) = (
            In::get(key, "key")?,
            In::get(ciphertext, "ciphertext")?,
            In::get(context, "context")?,
        );
        let (key, sealed, context) = (key.as_slice(), sealed.input(), context.as_slice());
        self.check_key(py, key)?;
        let len = cobblestone::plain_len(sealed.len() as u64)
            .and_then(|n| usize::try_from(n).map_err(|_| Error::TooLarge))
            .map_err(|e| err(py, e))?;
        let scheme = self.scheme;
        // A fresh bytes object nobody sees unless every chunk verified (the
        // library wipes it on a failure, and it is dropped). A buffer others
        // may write is read once (`In::input`).
        bytes_from(py, &[], len, &par, |out| {
            scheme
                .decrypt_into(key, context, sealed, out, &par)
                .map(|_| ())
                .map_err(|e| Python::attach(|py| err(py, e)))
        })
    }

    /// Plaintext bytes `offset .. offset + length` of the message in
    /// `source` (bytes-like or a binary file object), opening only the
    /// chunks that hold them and the final chunk (which proves the
    /// message's length).
    #[pyo3(signature = (key, source, offset, length, context, *, threads = Some(0), strategy = "steal"),
           text_signature = "($self, key, source, offset, length, context, *, threads=0, strategy='steal')")]
    #[allow(clippy::too_many_arguments)]
    fn decrypt_range<'py>(
        &self,
        py: Python<'py>,
        key: &Bound<'py, PyAny>,
        source: &Bound<'py, PyAny>,
        offset: u64,
        length: u64,
        context: &Bound<'py, PyAny>,
        threads: Option<i64>,
        strategy: &str,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let par = par::parallelism(threads, strategy)?;
        let key = key_bytes(key)?;
        self.check_key(py, key.expose())?;
        let context = In::get(context, "context")?;
        range(
            py,
            self.scheme,
            (key.expose(), context.as_slice()),
            source,
            (offset, length),
            &par,
        )
    }

    /// The seal/open object for runs of one message's chunks (several
    /// processes or machines): a new message (fresh salt) without
    /// `header`, an existing one (its commitment checked) with it.
    #[pyo3(signature = (key, context, header = None))]
    fn parts(
        &self,
        py: Python<'_>,
        key: &Bound<'_, PyAny>,
        context: &Bound<'_, PyAny>,
        header: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyParts> {
        let (key, context) = (In::get(key, "key")?, In::get(context, "context")?);
        let inner = match header.filter(|h| !h.is_none()) {
            None => self.scheme.parts(key.as_slice(), context.as_slice()),
            Some(h) => {
                let h = In::get(h, "header")?;
                let Ok(h) = <&[u8; cobblestone::HEADER]>::try_from(h.as_slice()) else {
                    return Err(err(py, Error::TooShort { len: h.len() as u64 }));
                };
                self.scheme
                    .parts_from_header(key.as_slice(), context.as_slice(), h)
            }
        }
        .map_err(|e| err(py, e))?;
        Ok(PyParts { inner })
    }

    /// Pickled as its two names (Dask sends schemes to its workers).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> (Bound<'py, PyType>, (&'static str, &'static str)) {
        let s = slf.get();
        (slf.get_type(), (s.kdf_hash(), s.aead()))
    }

    fn __repr__(&self) -> String {
        format!(
            "Scheme(kdf_hash={:?}, aead={:?})",
            self.scheme.kdf_hash.name(),
            self.scheme.aead.name()
        )
    }
}

/// `parcrypt.cobblestone.Parts`: seals or opens runs of one message's
/// chunks; chunk `k` is at byte `HEADER + k * SEALED_CHUNK`. Holds the
/// message's keys: not picklable (workers make their own from the key, the
/// context and the header).
#[pyclass(name = "Parts", module = "parcrypt.cobblestone", frozen)]
#[derive(Debug)]
pub struct PyParts {
    inner: Parts,
}

#[pymethods]
impl PyParts {
    /// The message's first 56 bytes: salt ‖ commitment.
    #[getter]
    fn header<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, self.inner.header())
    }

    /// Where chunk `index` starts in the message.
    #[staticmethod]
    fn offset(index: u64) -> u64 {
        Parts::offset(index)
    }

    /// Sealed bytes of a run of `plain` bytes (`last`: it ends the message).
    #[staticmethod]
    fn sealed_len(plain: usize, last: bool) -> usize {
        Parts::sealed_len(plain, last)
    }

    /// Seals `data` as chunks `first ..` (whole chunks unless `last`).
    #[pyo3(signature = (first, data, last, *, threads = Some(0), strategy = "steal"),
           text_signature = "($self, first, data, last, *, threads=0, strategy='steal')")]
    fn seal<'py>(
        &self,
        py: Python<'py>,
        first: u64,
        data: &Bound<'py, PyAny>,
        last: bool,
        threads: Option<i64>,
        strategy: &str,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let par = par::parallelism(threads, strategy)?;
        let data = In::get(data, "data")?;
        let src = data.as_slice();
        let inner = &self.inner;
        bytes_from(py, &[], Parts::sealed_len(src.len(), last), &par, |out| {
            inner
                .seal_into(first, src, last, out, &par)
                .map(|_| ())
                .map_err(|e| Python::attach(|py| err(py, e)))
        })
    }

    /// Opens sealed chunks `first ..` (`last` if they end the message):
    /// their plaintext, only if every one verified.
    #[pyo3(signature = (first, sealed, last, *, threads = Some(0), strategy = "steal"),
           text_signature = "($self, first, sealed, last, *, threads=0, strategy='steal')")]
    fn open<'py>(
        &self,
        py: Python<'py>,
        first: u64,
        sealed: &Bound<'py, PyAny>,
        last: bool,
        threads: Option<i64>,
        strategy: &str,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let par = par::parallelism(threads, strategy)?;
        let sealed = In::get(sealed, "sealed")?;
        let src = sealed.input();
        let len = Parts::plain_len(first, src.len(), last).map_err(|e| err(py, e))?;
        let inner = &self.inner;
        bytes_from(py, &[], len, &par, |out| {
            inner
                .open_into(first, src, last, out, &par)
                .map(|_| ())
                .map_err(|e| Python::attach(|py| err(py, e)))
        })
    }

    fn __repr__(&self) -> String {
        "<parcrypt.cobblestone.Parts (keys redacted)>".into()
    }
}

/// Sealed bytes of a message of `plain` bytes.
#[pyfunction]
fn cobblestone_sealed_len(py: Python<'_>, plain: u64) -> PyResult<u64> {
    cobblestone::sealed_len(plain).ok_or_else(|| err(py, Error::TooLarge))
}

/// Plaintext bytes of a message of `sealed` bytes (`InvalidTag` if no
/// message has that length).
#[pyfunction]
fn cobblestone_plain_len(py: Python<'_>, sealed: u64) -> PyResult<u64> {
    cobblestone::plain_len(sealed).map_err(|e| err(py, e))
}

/// Encrypts `src` (a path or a binary file object) into `dst` (a path to
/// create, or a binary file object); returns the plaintext length.
#[pyfunction]
#[pyo3(signature = (scheme, key, src, dst, context, *, threads = Some(0), strategy = "steal"),
       text_signature = "(scheme, key, src, dst, context, *, threads=0, strategy='steal')")]
#[allow(clippy::too_many_arguments)]
fn cobblestone_encrypt_file(
    py: Python<'_>,
    scheme: &Bound<'_, PyScheme>,
    key: &Bound<'_, PyAny>,
    src: &Bound<'_, PyAny>,
    dst: &Bound<'_, PyAny>,
    context: &Bound<'_, PyAny>,
    threads: Option<i64>,
    strategy: &str,
) -> PyResult<u64> {
    let par = par::parallelism(threads, strategy)?;
    let (key, context) = (In::get(key, "key")?, In::get(context, "context")?);
    let sealer = scheme
        .get()
        .scheme
        .sealer(key.as_slice(), context.as_slice())
        .map_err(|e| err(py, e))?;
    let (src, dst) = (End::get(src, "src")?, End::get(dst, "dst")?);
    let written = between(py, &src, &dst, |input, out| match input {
        Source::File(f) => sealer.encrypt_file(&f, out, &par, |_| {}),
        Source::Reader(r) => sealer.encrypt_stream(r, out, &par, |_| {}),
    });
    written.map_err(|e| err(py, e))
}

/// Decrypts `src` into `dst`; returns the plaintext length. A batch of
/// chunks is written only once all its chunks verified.
#[pyfunction]
#[pyo3(signature = (scheme, key, src, dst, context, *, threads = Some(0), strategy = "steal"),
       text_signature = "(scheme, key, src, dst, context, *, threads=0, strategy='steal')")]
#[allow(clippy::too_many_arguments)]
fn cobblestone_decrypt_file(
    py: Python<'_>,
    scheme: &Bound<'_, PyScheme>,
    key: &Bound<'_, PyAny>,
    src: &Bound<'_, PyAny>,
    dst: &Bound<'_, PyAny>,
    context: &Bound<'_, PyAny>,
    threads: Option<i64>,
    strategy: &str,
) -> PyResult<u64> {
    let par = par::parallelism(threads, strategy)?;
    let key = key_bytes(key)?;
    scheme.get().check_key(py, key.expose())?;
    let context = In::get(context, "context")?;
    let (key, context, scheme) = (key.expose(), context.as_slice(), scheme.get().scheme);
    let (src, dst) = (End::get(src, "src")?, End::get(dst, "dst")?);
    let written = between(py, &src, &dst, |input, out| match input {
        Source::File(f) => scheme.decrypt_file(key, context, &f, out, &par, |_| {}),
        Source::Reader(r) => scheme.decrypt_stream(key, context, r, out, &par, |_| {}),
    });
    written.map_err(|e| err(py, e))
}
