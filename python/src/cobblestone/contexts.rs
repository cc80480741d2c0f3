//! The pyca-compatible push contexts: `Cobblestone128Encryptor`,
//! `Cobblestone256Encryptor`, `Cobblestone128Decryptor` and
//! `Cobblestone256Decryptor`, over one encryptor and one decryptor state.

use parcrypt::cobblestone::{Decryptor, Encryptor, Error, Scheme};
use parcrypt::io::Input;
use parcrypt::par::Parallelism;
use parcrypt::secret::{SecretBytes, wipe};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use super::range::range;
use super::{already_finalized, err, key_bytes, mixing};
use crate::buffer::{In, Out, Sharing, bytes_from, detach_from, sharing};
use crate::par;

/// The input to `update_into`, as one the output does not overlap: pyca
/// accepts a `buf` that overlaps `data` (it works serially), so an
/// overlapping input is copied first rather than refused (the copy is
/// private).
fn separate<'a>(data: &'a In, buf: &Out, copy: &'a mut Vec<u8>) -> Input<'a> {
    match sharing(data, buf) {
        Sharing::Disjoint => data.input(),
        Sharing::InPlace | Sharing::Overlapping => {
            copy.extend_from_slice(data.as_slice());
            Input::Private(copy)
        }
    }
}

/// The two directions of a push context, so that `update` and
/// `update_into` are written once: the encryptor seals what it is given,
/// the decryptor opens it.
trait Push: Send {
    /// Whether a failed update ends the context: a decryptor that met a
    /// forgery refuses everything after.
    const FAILURE_ENDS: bool;
    fn update_len(&self, len: usize) -> usize;
    fn update_into(&mut self, src: Input<'_>, dst: &mut [u8]) -> Result<usize, Error>;
}

impl Push for Encryptor {
    const FAILURE_ENDS: bool = false;

    fn update_len(&self, len: usize) -> usize {
        Encryptor::update_len(self, len)
    }

    fn update_into(&mut self, src: Input<'_>, dst: &mut [u8]) -> Result<usize, Error> {
        Encryptor::update_into(self, src.bytes(), dst)
    }
}

impl Push for Decryptor {
    const FAILURE_ENDS: bool = true;

    fn update_len(&self, len: usize) -> usize {
        Decryptor::update_len(self, len)
    }

    fn update_into(&mut self, src: Input<'_>, dst: &mut [u8]) -> Result<usize, Error> {
        Decryptor::update_into(self, src, dst)
    }
}

/// `update` of either direction: a new `bytes` of what `data` seals or
/// opens to, on `par`. A decryption's is seen by no one unless every chunk
/// in it verified (and the library wipes it on a failure).
fn update<'py, P: Push>(
    py: Python<'py>,
    slot: &mut Option<P>,
    data: &In,
    par: &Parallelism,
) -> PyResult<Bound<'py, PyBytes>> {
    let push = slot.as_mut().ok_or_else(|| already_finalized(py))?;
    let src = data.input();
    let len = push.update_len(src.len());
    let result = bytes_from(py, &[], len, par, |out| {
        push.update_into(src, out)
            .map(|_| ())
            .map_err(|e| Python::attach(|py| err(py, e)))
    });
    if result.is_err() && P::FAILURE_ENDS {
        *slot = None;
    }
    result
}

/// `update_into` of either direction: what `data` seals or opens to,
/// written into `buf`; returns the count.
fn update_into<P: Push>(py: Python<'_>, slot: &mut Option<P>, data: &In, buf: &mut Out) -> PyResult<usize> {
    let push = slot.as_mut().ok_or_else(|| already_finalized(py))?;
    let mut copy = Vec::new();
    let src = separate(data, buf, &mut copy);
    let dst = buf.as_mut_slice();
    let needed = push.update_len(src.len());
    if dst.len() < needed {
        // Nothing done: the context goes on (as pyca's).
        return Err(err(
            py,
            Error::BufferTooSmall {
                needed,
                got: dst.len(),
            },
        ));
    }
    let written = detach_from(py, src.len(), || push.update_into(src, dst));
    wipe(&mut copy);
    if written.is_err() && P::FAILURE_ENDS {
        *slot = None;
    }
    written.map_err(|e| err(py, e))
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

    fn update<'py>(&mut self, py: Python<'py>, data: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyBytes>> {
        let data = In::get(data, "data")?;
        update(py, &mut self.inner, &data, &self.par)
    }

    fn update_into(
        &mut self,
        py: Python<'_>,
        data: &Bound<'_, PyAny>,
        buf: &Bound<'_, PyAny>,
    ) -> PyResult<usize> {
        let data = In::get(data, "data")?;
        let mut buf = Out::get(buf, "buf")?;
        update_into(py, &mut self.inner, &data, &mut buf)
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

    /// Marks the decryptor as used by `update`/`finalize` (refused after
    /// a `decrypt_range`).
    fn streaming(&mut self) -> PyResult<()> {
        if self.seeking {
            return Err(mixing());
        }
        self.streaming = true;
        Ok(())
    }

    fn update<'py>(&mut self, py: Python<'py>, data: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyBytes>> {
        let data = In::get(data, "data")?;
        self.streaming()?;
        update(py, &mut self.inner, &data, &self.par)
    }

    fn update_into(
        &mut self,
        py: Python<'_>,
        data: &Bound<'_, PyAny>,
        buf: &Bound<'_, PyAny>,
    ) -> PyResult<usize> {
        let data = In::get(data, "data")?;
        let mut buf = Out::get(buf, "buf")?;
        self.streaming()?;
        update_into(py, &mut self.inner, &data, &mut buf)
    }

    fn finalize<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        self.streaming()?;
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

/// Declares a pyca-compatible push class over `$state` for `$scheme`:
/// the methods both directions have, and `$extra`.
macro_rules! push_class {
    ($(#[$doc:meta])* $class:ident($state:ident, $scheme:expr) { $($extra:tt)* }) => {
        $(#[$doc])*
        #[pyclass(module = "parcrypt.cobblestone")]
        pub struct $class($state);

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
                $state::new(py, $scheme, (key, context), threads, strategy).map($class)
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

            $($extra)*
        }
    };
}

/// Declares a pyca-compatible encryptor class for `scheme`.
macro_rules! encryptor_class {
    ($class:ident, $scheme:expr) => {
        push_class! {
            /// Encrypts one message: `update` as data arrives, then `finalize`,
            /// as `cryptography.cobblestone`'s class of the same name; every
            /// full chunk of an update is sealed on `threads` cores.
            $class(EncryptorState, $scheme) {
                /// A new random key (16 or 32 bytes) from the operating system.
                #[staticmethod]
                fn generate_key(py: Python<'_>) -> Bound<'_, PyBytes> {
                    PyBytes::new(py, $scheme.generate_key().expose())
                }
            }
        }
    };
}

/// Declares a pyca-compatible decryptor class for `scheme`.
macro_rules! decryptor_class {
    ($class:ident, $scheme:expr) => {
        push_class! {
            /// Decrypts one message: `update` as data arrives (each full chunk
            /// released once it verified, on `threads` cores), then `finalize`;
            /// or `decrypt_range` of a whole message.
            $class(DecryptorState, $scheme) {
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
            }
        }
    };
}

encryptor_class!(Cobblestone128Encryptor, Scheme::COBBLESTONE_128);
encryptor_class!(Cobblestone256Encryptor, Scheme::COBBLESTONE_256);
decryptor_class!(Cobblestone128Decryptor, Scheme::COBBLESTONE_128);
decryptor_class!(Cobblestone256Decryptor, Scheme::COBBLESTONE_256);
