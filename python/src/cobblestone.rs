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

use std::fs::File;
use std::os::fd::BorrowedFd;

use parcrypt::cobblestone::{self, Decryptor, Encryptor, Error, Parts, Scheme, Source as Where};
use parcrypt::par::Parallelism;
use parcrypt::secret::{SecretBytes, wipe};
use pyo3::exceptions::{PyOverflowError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyType};

use crate::buffer::{In, Out, Sharing, bytes_from, detach_from, sharing};
use crate::stream::{End, Source, between};
use crate::{errors, par};

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

/// The input to `update_into`, as a slice the output does not overlap:
/// pyca accepts a `buf` that overlaps `data` (it works serially), so an
/// overlapping input is copied first rather than refused.
fn separate<'a>(data: &'a In, buf: &Out, copy: &'a mut Vec<u8>) -> &'a [u8] {
    match sharing(data, buf) {
        Sharing::Disjoint => data.as_slice(),
        Sharing::InPlace | Sharing::Overlapping => {
            copy.extend_from_slice(data.as_slice());
            copy
        }
    }
}

/// A push encryptor (shared by the two encryptor classes).
struct EncryptorState {
    /// `None` once finalized.
    inner: Option<Encryptor>,
    par: Parallelism,
}

impl EncryptorState {
    fn new(
        py: Python<'_>,
        scheme: Scheme,
        (key, context): (&Bound<'_, PyAny>, &Bound<'_, PyAny>),
        threads: Option<i64>,
        strategy: &str,
    ) -> PyResult<Self> {
        let par = par::parallelism(threads, strategy)?;
        let key = In::get(key, "key")?;
        let context = In::get(context, "context")?;
        let sealer = scheme
            .sealer(key.as_slice(), context.as_slice())
            .map_err(|e| err(py, e))?;
        Ok(EncryptorState {
            inner: Some(sealer.encryptor(&par)),
            par,
        })
    }

    fn active(&mut self, py: Python<'_>) -> PyResult<&mut Encryptor> {
        self.inner.as_mut().ok_or_else(|| already_finalized(py))
    }

    fn update<'py>(&mut self, py: Python<'py>, data: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyBytes>> {
        let data = In::get(data, "data")?;
        let par = self.par;
        let enc = self.active(py)?;
        let src = data.as_slice();
        let len = enc.update_len(src.len());
        bytes_from(py, &[], len, &par, |out| {
            enc.update_into(src, out)
                .map(|_| ())
                .map_err(|e| Python::attach(|py| err(py, e)))
        })
    }

    fn update_into(
        &mut self,
        py: Python<'_>,
        data: &Bound<'_, PyAny>,
        buf: &Bound<'_, PyAny>,
    ) -> PyResult<usize> {
        let data = In::get(data, "data")?;
        let mut buf = Out::get(buf, "buf")?;
        let enc = self.active(py)?;
        let mut copy = Vec::new();
        let src = separate(&data, &buf, &mut copy);
        let dst = buf.as_mut_slice();
        let needed = enc.update_len(src.len());
        if dst.len() < needed {
            return Err(err(
                py,
                Error::BufferTooSmall {
                    needed,
                    got: dst.len(),
                },
            ));
        }
        let written = detach_from(py, src.len(), || enc.update_into(src, dst));
        wipe(&mut copy);
        written.map_err(|e| err(py, e))
    }

    fn finalize<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let enc = self.inner.take().ok_or_else(|| already_finalized(py))?;
        let last = enc.finalize().map_err(|e| err(py, e))?;
        Ok(PyBytes::new(py, &last))
    }

    fn repr(&self, class: &str) -> String {
        let state = if self.inner.is_none() { ", finalized" } else { "" };
        format!("<parcrypt.cobblestone.{class} (key redacted){state}>")
    }
}

/// A push decryptor that can also decrypt ranges (shared by the two
/// decryptor classes).
struct DecryptorState {
    scheme: Scheme,
    /// Kept for `decrypt_range`, which reads the header from its source.
    key: SecretBytes,
    context: Vec<u8>,
    par: Parallelism,
    /// `None` once finalized or failed.
    inner: Option<Decryptor>,
    streaming: bool,
    seeking: bool,
}

impl DecryptorState {
    fn new(
        py: Python<'_>,
        scheme: Scheme,
        (key, context): (&Bound<'_, PyAny>, &Bound<'_, PyAny>),
        threads: Option<i64>,
        strategy: &str,
    ) -> PyResult<Self> {
        let par = par::parallelism(threads, strategy)?;
        let key = key_bytes(key)?;
        let context = In::get(context, "context")?.as_slice().to_vec();
        let inner = scheme
            .decryptor(key.expose(), &context, &par)
            .map_err(|e| err(py, e))?;
        Ok(DecryptorState {
            scheme,
            key,
            context,
            par,
            inner: Some(inner),
            streaming: false,
            seeking: false,
        })
    }

    /// The decryptor for an `update`/`finalize` call.
    fn streaming(&mut self, py: Python<'_>) -> PyResult<&mut Decryptor> {
        if self.seeking {
            return Err(mixing());
        }
        self.streaming = true;
        self.inner.as_mut().ok_or_else(|| already_finalized(py))
    }

    fn update<'py>(&mut self, py: Python<'py>, data: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyBytes>> {
        let data = In::get(data, "data")?;
        let par = self.par;
        let dec = self.streaming(py)?;
        let src = data.as_slice();
        let len = dec.update_len(src.len());
        // The result is seen by no one unless every chunk in it verified
        // (and the library wipes it on a failure).
        let result = bytes_from(py, &[], len, &par, |out| {
            dec.update_into(src, out)
                .map(|_| ())
                .map_err(|e| Python::attach(|py| err(py, e)))
        });
        if result.is_err() {
            self.inner = None;
        }
        result
    }

    fn update_into(
        &mut self,
        py: Python<'_>,
        data: &Bound<'_, PyAny>,
        buf: &Bound<'_, PyAny>,
    ) -> PyResult<usize> {
        let data = In::get(data, "data")?;
        let mut buf = Out::get(buf, "buf")?;
        let dec = self.streaming(py)?;
        let mut copy = Vec::new();
        let src = separate(&data, &buf, &mut copy);
        let dst = buf.as_mut_slice();
        let needed = dec.update_len(src.len());
        if dst.len() < needed {
            // Nothing done: the decryptor goes on (as pyca's).
            return Err(err(
                py,
                Error::BufferTooSmall {
                    needed,
                    got: dst.len(),
                },
            ));
        }
        let written = detach_from(py, src.len(), || dec.update_into(src, dst));
        wipe(&mut copy);
        if written.is_err() {
            self.inner = None;
        }
        written.map_err(|e| err(py, e))
    }

    fn finalize<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        self.streaming(py)?;
        let dec = self.inner.take().ok_or_else(|| already_finalized(py))?;
        // Wiped when dropped, once copied into the `bytes`.
        let last = dec.finalize().map_err(|e| err(py, e))?;
        Ok(PyBytes::new(py, last.expose()))
    }

    fn decrypt_range<'py>(
        &mut self,
        py: Python<'py>,
        source: &Bound<'py, PyAny>,
        offset: u64,
        length: u64,
    ) -> PyResult<Bound<'py, PyBytes>> {
        if self.streaming {
            return Err(mixing());
        }
        self.seeking = true;
        if length == 0 {
            return Ok(PyBytes::new(py, &[]));
        }
        range(
            py,
            self.scheme,
            (self.key.expose(), &self.context),
            source,
            (offset, length),
            &self.par,
        )
    }

    fn repr(&self, class: &str) -> String {
        let state = if self.inner.is_none() { ", finalized" } else { "" };
        format!("<parcrypt.cobblestone.{class} (key redacted){state}>")
    }
}

/// Where a range is read from: a bytes-like object in place, a regular
/// file by its descriptor (positional reads: only the chunks needed),
/// or else the whole of a binary file object read into memory.
enum RangeSource {
    Bytes(In),
    File(File),
    Read(Vec<u8>),
}

impl RangeSource {
    fn get(source: &Bound<'_, PyAny>) -> PyResult<RangeSource> {
        if let Ok(bytes) = In::get(source, "source") {
            return Ok(RangeSource::Bytes(bytes));
        }
        if let Some(file) = regular_file(source)? {
            return Ok(RangeSource::File(file));
        }
        if source.hasattr("read")? {
            if source.hasattr("seek")? {
                source.call_method1("seek", (0,))?;
            }
            let all = source.call_method0("read")?;
            return Ok(RangeSource::Read(
                In::get(&all, "source.read()")?.as_slice().to_vec(),
            ));
        }
        Err(pyo3::exceptions::PyTypeError::new_err(
            "source must be a bytes-like object or a binary file object",
        ))
    }

    fn source(&self) -> Where<'_> {
        match self {
            RangeSource::Bytes(b) => Where::Bytes(b.as_slice()),
            RangeSource::File(f) => Where::File(f),
            RangeSource::Read(v) => Where::Bytes(v),
        }
    }
}

/// The regular file behind a Python file object (flushed first), as a
/// descriptor of our own; `None` if it has none or it is not a regular
/// file (a pipe, a socket, `io.BytesIO`).
fn regular_file(obj: &Bound<'_, PyAny>) -> PyResult<Option<File>> {
    if !obj.hasattr("fileno")? {
        return Ok(None);
    }
    let Ok(fd) = obj.call_method0("fileno").and_then(|f| f.extract::<i32>()) else {
        return Ok(None);
    };
    if fd < 0 {
        return Ok(None);
    }
    if obj.hasattr("flush")? {
        obj.call_method0("flush")?;
    }
    // SAFETY: `fileno()` just returned `fd`, open, and it is borrowed only
    // for the `dup` on the next line (the duplicate is ours to close). With
    // the GIL held no Python code closes it in between; on a free-threaded
    // CPython a close racing in another thread makes `dup` fail (EBADF) or
    // duplicate whatever took the number, which is then only read, and
    // whose bytes fail authentication like any other wrong input.
    let file = File::from(unsafe { BorrowedFd::borrow_raw(fd) }.try_clone_to_owned()?);
    Ok(file.metadata()?.is_file().then_some(file))
}

/// Plaintext bytes `offset .. offset + length` of the message in `source`.
fn range<'py>(
    py: Python<'py>,
    scheme: Scheme,
    (key, context): (&[u8], &[u8]),
    source: &Bound<'py, PyAny>,
    (offset, length): (u64, u64),
    par: &Parallelism,
) -> PyResult<Bound<'py, PyBytes>> {
    let cap = usize::try_from(length).map_err(|_| PyOverflowError::new_err("length too large"))?;
    let from = RangeSource::get(source)?;
    // Room for the whole range up front, so the plaintext is never copied
    // by a reallocation (which would leave an unwiped copy behind); no more
    // than the message can hold, whatever `length` says.
    let sealed = match &from {
        RangeSource::Bytes(b) => b.len() as u64,
        RangeSource::File(f) => f.metadata()?.len(),
        RangeSource::Read(v) => v.len() as u64,
    };
    let most = cobblestone::plain_len(sealed).unwrap_or(0);
    let mut plain = Vec::with_capacity(cap.min(usize::try_from(most).unwrap_or(usize::MAX)));
    let result =
        py.detach(|| scheme.decrypt_range(key, context, from.source(), offset, length, &mut plain, par));
    let result = result.map(|_| PyBytes::new(py, &plain));
    parcrypt::secret::wipe_vec(&mut plain);
    result.map_err(|e| err(py, e))
}

/// Declares a pyca-compatible encryptor class for `scheme`.
macro_rules! encryptor_class {
    ($class:ident, $scheme:expr) => {
        /// Encrypts one message: `update` as data arrives, then `finalize`,
        /// as `cryptography.cobblestone`'s class of the same name; every
        /// full chunk of an update is sealed on `threads` cores.
        #[pyclass(module = "parcrypt.cobblestone")]
        pub struct $class(EncryptorState);

        impl std::fmt::Debug for $class {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(&self.0.repr(stringify!($class)))
            }
        }

        #[pymethods]
        impl $class {
            #[new]
            #[pyo3(signature = (key, context, *, threads = Some(0), strategy = "steal"))]
            #[pyo3(text_signature = "(key, context, *, threads=0, strategy='steal')")]
            fn new(
                py: Python<'_>,
                key: &Bound<'_, PyAny>,
                context: &Bound<'_, PyAny>,
                threads: Option<i64>,
                strategy: &str,
            ) -> PyResult<Self> {
                EncryptorState::new(py, $scheme, (key, context), threads, strategy).map($class)
            }

            /// A new random key (16 or 32 bytes) from the operating system.
            #[staticmethod]
            fn generate_key(py: Python<'_>) -> Bound<'_, PyBytes> {
                PyBytes::new(py, $scheme.generate_key().expose())
            }

            fn update<'py>(
                &mut self,
                py: Python<'py>,
                data: &Bound<'py, PyAny>,
            ) -> PyResult<Bound<'py, PyBytes>> {
                self.0.update(py, data)
            }

            fn update_into(
                &mut self,
                py: Python<'_>,
                data: &Bound<'_, PyAny>,
                buf: &Bound<'_, PyAny>,
            ) -> PyResult<usize> {
                self.0.update_into(py, data, buf)
            }

            fn finalize<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
                self.0.finalize(py)
            }

            fn __repr__(&self) -> String {
                self.0.repr(stringify!($class))
            }
        }
    };
}

/// Declares a pyca-compatible decryptor class for `scheme`.
macro_rules! decryptor_class {
    ($class:ident, $scheme:expr) => {
        /// Decrypts one message: `update` as data arrives (each full chunk
        /// released once it verified, on `threads` cores), then `finalize`;
        /// or `decrypt_range` of a whole message.
        #[pyclass(module = "parcrypt.cobblestone")]
        pub struct $class(DecryptorState);

        impl std::fmt::Debug for $class {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(&self.0.repr(stringify!($class)))
            }
        }

        #[pymethods]
        impl $class {
            #[new]
            #[pyo3(signature = (key, context, *, threads = Some(0), strategy = "steal"))]
            #[pyo3(text_signature = "(key, context, *, threads=0, strategy='steal')")]
            fn new(
                py: Python<'_>,
                key: &Bound<'_, PyAny>,
                context: &Bound<'_, PyAny>,
                threads: Option<i64>,
                strategy: &str,
            ) -> PyResult<Self> {
                DecryptorState::new(py, $scheme, (key, context), threads, strategy).map($class)
            }

            fn update<'py>(
                &mut self,
                py: Python<'py>,
                data: &Bound<'py, PyAny>,
            ) -> PyResult<Bound<'py, PyBytes>> {
                self.0.update(py, data)
            }

            fn update_into(
                &mut self,
                py: Python<'_>,
                data: &Bound<'_, PyAny>,
                buf: &Bound<'_, PyAny>,
            ) -> PyResult<usize> {
                self.0.update_into(py, data, buf)
            }

            fn finalize<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
                self.0.finalize(py)
            }

            /// Plaintext bytes `offset .. offset + length` of the whole
            /// message in `source` (bytes-like, or a binary file object),
            /// opening only the chunks that hold them and the final chunk.
            fn decrypt_range<'py>(
                &mut self,
                py: Python<'py>,
                source: &Bound<'py, PyAny>,
                offset: u64,
                length: u64,
            ) -> PyResult<Bound<'py, PyBytes>> {
                self.0.decrypt_range(py, source, offset, length)
            }

            fn __repr__(&self) -> String {
                self.0.repr(stringify!($class))
            }
        }
    };
}

encryptor_class!(Cobblestone128Encryptor, Scheme::COBBLESTONE_128);
encryptor_class!(Cobblestone256Encryptor, Scheme::COBBLESTONE_256);
decryptor_class!(Cobblestone128Decryptor, Scheme::COBBLESTONE_128);
decryptor_class!(Cobblestone256Decryptor, Scheme::COBBLESTONE_256);

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
        let (key, sealed, context) = (key.as_slice(), sealed.as_slice(), context.as_slice());
        self.check_key(py, key)?;
        let len = cobblestone::plain_len(sealed.len() as u64)
            .and_then(|n| usize::try_from(n).map_err(|_| Error::TooLarge))
            .map_err(|e| err(py, e))?;
        let scheme = self.scheme;
        // A fresh bytes object nobody sees unless every chunk verified (the
        // library wipes it on a failure, and it is dropped).
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
        let src = sealed.as_slice();
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
