//! `parcrypt.stream`: the `stream` file format (the CLI's `encrypt` /
//! `decrypt`): files and Python file objects, read and written by either.

use std::fs::File;
use std::io::{BufWriter, Read, Write};

use parcrypt::io::Input;
use parcrypt::par::Parallelism;
use parcrypt::secret::{SecretBytes, SecretKey};
use parcrypt::stream::{self, DecryptOptions, Identity, Options, Recipient};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes};

use crate::buffer::In;
use crate::rsa::{RsaPrivateKey, RsaPublicKey};
use crate::{errors, par};

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(stream_encrypt, m)?)?;
    m.add_function(wrap_pyfunction!(stream_decrypt, m)?)?;
    m.add_class::<PySegments>()?;
    Ok(())
}

fn err(py: Python<'_>, e: stream::Error) -> PyErr {
    use stream::Error as E;
    let msg = e.to_string();
    match e {
        E::Io(io) => PyErr::from(io),
        E::Truncated { .. } => errors::raise(py, "TruncatedError", msg),
        E::SegmentAuthentication { .. } | E::HeaderAuthentication => errors::raise(py, "InvalidTag", msg),
        E::NoMatchingIdentity => errors::raise(py, "NoIdentityError", msg),
        E::WrongFormat | E::UnsupportedVersion(_) | E::MalformedHeader(_) => {
            errors::raise(py, "StreamError", msg)
        }
        _ => PyValueError::new_err(msg),
    }
}

fn key32(key: &Bound<'_, PyAny>) -> PyResult<SecretKey<32>> {
    let key = In::get(key, "key")?;
    SecretKey::from_slice(key.as_slice())
        .ok_or_else(|| PyValueError::new_err(format!("key must be 32 bytes, got {}", key.len())))
}

/// The recipients a new stream is sealed to, from the `key=`,
/// `passphrase=` (stretched with scrypt at `log2_n`) and `recipients=`
/// arguments (`None` counts as not given); at least one is needed.
fn recipients_of<'a>(
    key: Option<&Bound<'_, PyAny>>,
    passphrase: Option<&Bound<'_, PyAny>>,
    rsa: &'a [Bound<'_, RsaPublicKey>],
    log2_n: u8,
) -> PyResult<Vec<Recipient<'a>>> {
    let mut list: Vec<Recipient<'a>> = Vec::new();
    if let Some(k) = key.filter(|k| !k.is_none()) {
        list.push(Recipient::Key(key32(k)?));
    }
    if let Some(p) = passphrase.filter(|p| !p.is_none()) {
        list.push(Recipient::Passphrase {
            passphrase: passphrase_of(p)?,
            log2_n,
        });
    }
    list.extend(rsa.iter().map(|r| Recipient::Rsa(&r.get().key)));
    if list.is_empty() {
        return Err(PyValueError::new_err("give key=, passphrase= or recipients="));
    }
    Ok(list)
}

/// The identity a stream is opened with: exactly one of the `key=`,
/// `passphrase=` and `identity=` arguments (`None` counts as not given).
fn identity_of<'a>(
    key: Option<&Bound<'_, PyAny>>,
    passphrase: Option<&Bound<'_, PyAny>>,
    rsa: Option<&'a Bound<'_, RsaPrivateKey>>,
) -> PyResult<Identity<'a>> {
    match (
        key.filter(|k| !k.is_none()),
        passphrase.filter(|p| !p.is_none()),
        rsa,
    ) {
        (Some(k), None, None) => Ok(Identity::Key(key32(k)?)),
        (None, Some(p), None) => Ok(Identity::Passphrase(passphrase_of(p)?)),
        (None, None, Some(i)) => Ok(Identity::Rsa(&i.get().key)),
        _ => Err(PyValueError::new_err(
            "give exactly one of key=, passphrase= or identity=",
        )),
    }
}

/// Where a stream (or an age file) comes from or goes to: a path, or a Python file object.
pub(crate) enum End {
    Path(std::path::PathBuf),
    Object(Py<PyAny>),
}

impl End {
    pub(crate) fn get(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<End> {
        if let Ok(path) = obj.extract::<std::path::PathBuf>() {
            return Ok(End::Path(path));
        }
        let has = |m| obj.hasattr(m).unwrap_or(false);
        if has("read") || has("write") {
            return Ok(End::Object(obj.clone().unbind()));
        }
        Err(PyTypeError::new_err(format!(
            "{what} must be a path or a binary file object"
        )))
    }

    /// Creates the file at a path, or writes to the file object.
    pub(crate) fn writer(&self) -> std::io::Result<Box<dyn Write + Send>> {
        Ok(match self {
            End::Path(p) => Box::new(BufWriter::with_capacity(1 << 20, File::create(p)?)),
            End::Object(o) => Box::new(PyWriter(Python::attach(|py| o.clone_ref(py)))),
        })
    }

    /// Flushes `out` (from [`End::writer`]) and, for a path, syncs the file.
    pub(crate) fn finish(&self, mut out: Box<dyn Write + Send>) -> std::io::Result<()> {
        out.flush()?;
        drop(out);
        if let End::Path(p) = self {
            File::open(p)?.sync_all()?;
        }
        Ok(())
    }
}

/// The input of a job between [`End`]s: the file at a path (which may be
/// read from any offset) or a Python file object.
pub(crate) enum Source {
    File(File),
    Reader(PyReader),
}

/// Runs `job` from `src` into `dst` without the GIL: `dst` is created (a
/// path) or written (a file object) before `src` is opened, and flushed,
/// and for a path synced, once `job` succeeds; its count.
pub(crate) fn between<E>(
    py: Python<'_>,
    src: &End,
    dst: &End,
    job: impl FnOnce(Source, &mut Box<dyn Write + Send>) -> Result<u64, E> + Send,
) -> Result<u64, E>
where
    E: From<std::io::Error> + Send,
{
    py.detach(|| {
        let mut out = dst.writer()?;
        let input = match src {
            End::Path(p) => Source::File(File::open(p)?),
            End::Object(o) => Source::Reader(PyReader(Python::attach(|py| o.clone_ref(py)))),
        };
        let n = job(input, &mut out)?;
        dst.finish(out)?;
        Ok(n)
    })
}

/// A Python binary file object as `Read` (called with the GIL, from
/// whichever thread reads).
pub(crate) struct PyReader(pub(crate) Py<PyAny>);

impl Read for PyReader {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        Python::attach(|py| {
            let data = self
                .0
                .bind(py)
                .call_method1("read", (buf.len(),))
                .map_err(to_io)?;
            let bytes: &[u8] = if let Ok(b) = data.cast::<PyBytes>() {
                b.as_bytes()
            } else if data.is_none() {
                // A non-blocking stream with nothing yet: treat as an error, not EOF.
                return Err(std::io::Error::new(
                    std::io::ErrorKind::WouldBlock,
                    "read() returned None",
                ));
            } else if let Ok(b) = data.cast::<PyByteArray>() {
                let v = b.to_vec();
                let n = v.len().min(buf.len());
                buf[..n].copy_from_slice(&v[..n]);
                return Ok(n);
            } else {
                return Err(std::io::Error::other("read() must return bytes"));
            };
            if bytes.len() > buf.len() {
                return Err(std::io::Error::other("read(n) returned more than n bytes"));
            }
            buf[..bytes.len()].copy_from_slice(bytes);
            Ok(bytes.len())
        })
    }
}

/// A Python binary file object as `Write`.
pub(crate) struct PyWriter(pub(crate) Py<PyAny>);

impl Write for PyWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        Python::attach(|py| {
            let n = self
                .0
                .bind(py)
                .call_method1("write", (PyBytes::new(py, buf),))
                .map_err(to_io)?;
            // Raw files may write less; buffered ones return the length (or None).
            Ok(if n.is_none() {
                buf.len()
            } else {
                n.extract::<usize>().map_err(to_io)?.min(buf.len())
            })
        })
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Python::attach(|py| self.0.bind(py).call_method0("flush").map(|_| ()).map_err(to_io))
    }
}

/// A Python exception travelling through Rust I/O as an `io::Error`; the
/// message keeps the exception's text.
fn to_io(e: PyErr) -> std::io::Error {
    std::io::Error::other(Python::attach(|py| {
        let kind = e.get_type(py).name().map(|n| n.to_string()).unwrap_or_default();
        format!("{kind}: {}", e.value(py))
    }))
}

/// Encrypts `src` (path or file object) into `dst` (path of a file to
/// create and fill, or file object); returns the plaintext length.
#[pyfunction]
#[pyo3(signature = (src, dst, *, key = None, passphrase = None, recipients = None, segment_size = stream::DEFAULT_SEGMENT, scrypt_log2_n = stream::DEFAULT_SCRYPT_LOG2_N, threads = None, strategy = "steal"))]
#[allow(clippy::too_many_arguments)]
fn stream_encrypt(
    py: Python<'_>,
    src: &Bound<'_, PyAny>,
    dst: &Bound<'_, PyAny>,
    key: Option<&Bound<'_, PyAny>>,
    passphrase: Option<&Bound<'_, PyAny>>,
    recipients: Option<Vec<Bound<'_, RsaPublicKey>>>,
    segment_size: usize,
    scrypt_log2_n: u8,
    threads: Option<i64>,
    strategy: &str,
) -> PyResult<u64> {
    let par = par::parallelism(threads, strategy)?;
    let recipients = recipients.unwrap_or_default();
    let list = recipients_of(key, passphrase, &recipients, scrypt_log2_n)?;
    let opts = Options { segment_size };
    let (src, dst) = (End::get(src, "src")?, End::get(dst, "dst")?);
    let written = between(py, &src, &dst, |input, out| match input {
        Source::File(f) => stream::encrypt_file(&list, &f, out, &opts, &par, |_| {}),
        Source::Reader(r) => stream::encrypt_stream(&list, r, out, &opts, &par, |_| {}),
    });
    written.map_err(|e| err(py, e))
}

/// Decrypts `src` into `dst`; returns the plaintext length written. With
/// `range=(start, length)` and a path `src`, reads only the segments needed.
#[pyfunction]
#[pyo3(signature = (src, dst, *, key = None, passphrase = None, identity = None, range = None, max_work_factor = stream::DEFAULT_MAX_WORK_FACTOR, threads = None, strategy = "steal"))]
#[allow(clippy::too_many_arguments)]
fn stream_decrypt(
    py: Python<'_>,
    src: &Bound<'_, PyAny>,
    dst: &Bound<'_, PyAny>,
    key: Option<&Bound<'_, PyAny>>,
    passphrase: Option<&Bound<'_, PyAny>>,
    identity: Option<Bound<'_, RsaPrivateKey>>,
    range: Option<(u64, u64)>,
    max_work_factor: u8,
    threads: Option<i64>,
    strategy: &str,
) -> PyResult<u64> {
    let par: Parallelism = par::parallelism(threads, strategy)?;
    let who = identity_of(key, passphrase, identity.as_ref())?;
    let opts = DecryptOptions { max_work_factor };
    let (src, dst) = (End::get(src, "src")?, End::get(dst, "dst")?);
    if range.is_some() && !matches!(src, End::Path(_)) {
        return Err(PyValueError::new_err(
            "range= needs src to be a path (it reads only the segments needed)",
        ));
    }
    let written = between(py, &src, &dst, |input, out| match (input, range) {
        (Source::File(f), Some((start, len))) => {
            stream::decrypt_range(std::slice::from_ref(&who), &f, start, len, out, &opts, &par)
        }
        (Source::File(f), None) => {
            stream::decrypt_file(std::slice::from_ref(&who), &f, out, &opts, &par, |_| {})
        }
        (Source::Reader(r), _) => {
            stream::decrypt_stream(std::slice::from_ref(&who), r, out, &opts, &par, |_| {})
        }
    });
    written.map_err(|e| err(py, e))
}

fn passphrase_of(p: &Bound<'_, PyAny>) -> PyResult<SecretBytes> {
    if let Ok(s) = p.extract::<String>() {
        if s.is_empty() {
            return Err(PyValueError::new_err("the passphrase is empty"));
        }
        return Ok(SecretBytes::from(s.as_bytes()));
    }
    let b = In::get(p, "passphrase")?;
    if b.len() == 0 {
        return Err(PyValueError::new_err("the passphrase is empty"));
    }
    Ok(SecretBytes::from(b.as_slice()))
}

/// `parcrypt.stream.Segments`: seals or opens any run of one stream's
/// segments, so several processes or machines write (or read) parts of one
/// stream file. Holds the stream's payload key (it opens and forges this
/// stream's segments): it is not picklable; hand `payload_key` to workers
/// yourself, over an encrypted channel.
#[pyclass(name = "Segments", module = "parcrypt.stream", frozen)]
#[derive(Debug)]
pub struct PySegments {
    inner: stream::Segments,
}

impl PySegments {
    /// Runs `f` (a seal or an open) on the segments over the bytes of
    /// `data` (named `what`: shared unless immutable, see `In::input`),
    /// without the GIL when they are many.
    fn run<T: Send>(
        &self,
        py: Python<'_>,
        (data, what): (&Bound<'_, PyAny>, &str),
        (threads, strategy): (Option<i64>, &str),
        f: impl FnOnce(&stream::Segments, Input<'_>, &Parallelism) -> Result<T, stream::Error> + Send,
    ) -> PyResult<T> {
        let par = par::parallelism(threads, strategy)?;
        let data = In::get(data, what)?;
        let src = data.input();
        crate::buffer::detach_from(py, src.len(), || f(&self.inner, src, &par)).map_err(|e| err(py, e))
    }
}

#[pymethods]
impl PySegments {
    /// A new stream: `(header, segments)`; write `header` first.
    #[staticmethod]
    #[pyo3(signature = (*, key = None, passphrase = None, recipients = None, segment_size = stream::DEFAULT_SEGMENT, scrypt_log2_n = stream::DEFAULT_SCRYPT_LOG2_N))]
    fn create<'py>(
        py: Python<'py>,
        key: Option<&Bound<'py, PyAny>>,
        passphrase: Option<&Bound<'py, PyAny>>,
        recipients: Option<Vec<Bound<'py, RsaPublicKey>>>,
        segment_size: usize,
        scrypt_log2_n: u8,
    ) -> PyResult<(Bound<'py, PyBytes>, PySegments)> {
        let recipients = recipients.unwrap_or_default();
        let list = recipients_of(key, passphrase, &recipients, scrypt_log2_n)?;
        let (header, inner) =
            stream::Segments::create(&list, &Options { segment_size }).map_err(|e| err(py, e))?;
        Ok((PyBytes::new(py, &header), PySegments { inner }))
    }

    /// The segments of an existing stream, from its header (a path, or
    /// bytes starting with the header), opened with one of key=,
    /// passphrase= or identity=.
    #[staticmethod]
    #[pyo3(signature = (src, *, key = None, passphrase = None, identity = None, max_work_factor = stream::DEFAULT_MAX_WORK_FACTOR))]
    fn from_header(
        py: Python<'_>,
        src: &Bound<'_, PyAny>,
        key: Option<&Bound<'_, PyAny>>,
        passphrase: Option<&Bound<'_, PyAny>>,
        identity: Option<Bound<'_, RsaPrivateKey>>,
        max_work_factor: u8,
    ) -> PyResult<PySegments> {
        let who = identity_of(key, passphrase, identity.as_ref())?;
        let opts = DecryptOptions { max_work_factor };
        let par = Parallelism::default();
        let inner = if let Ok(path) = src.extract::<std::path::PathBuf>() {
            let mut file = std::io::BufReader::new(File::open(path).map_err(PyErr::from)?);
            stream::Segments::from_header(&mut file, std::slice::from_ref(&who), &opts, &par)
        } else {
            let data = In::get(src, "src")?;
            stream::Segments::from_header(&mut data.as_slice(), std::slice::from_ref(&who), &opts, &par)
        }
        .map_err(|e| err(py, e))?;
        Ok(PySegments { inner })
    }

    /// A worker's segments: the stream's `payload_key`, `segment_size` and `header_len`.
    #[staticmethod]
    fn from_payload_key(
        py: Python<'_>,
        payload_key: &Bound<'_, PyAny>,
        segment_size: usize,
        header_len: u64,
    ) -> PyResult<PySegments> {
        let key = key32(payload_key)?;
        let inner =
            stream::Segments::from_payload_key(&key, segment_size, header_len).map_err(|e| err(py, e))?;
        Ok(PySegments { inner })
    }

    /// The stream's payload key (32 bytes): give it only to your own workers.
    #[getter]
    fn payload_key<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, self.inner.payload_key().expose())
    }

    #[getter]
    fn segment_size(&self) -> usize {
        self.inner.segment_size()
    }

    #[getter]
    fn header_len(&self) -> u64 {
        self.inner.header_len()
    }

    /// Where segment `index` starts in the stream file.
    fn offset(&self, index: u64) -> u64 {
        self.inner.offset(index)
    }

    /// Seals `data` as segments `first ..` (whole segments unless `last`).
    #[pyo3(signature = (first, data, last, *, threads = None, strategy = "steal"))]
    fn seal<'py>(
        &self,
        py: Python<'py>,
        first: u64,
        data: &Bound<'py, PyAny>,
        last: bool,
        threads: Option<i64>,
        strategy: &str,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let sealed = self.run(py, (data, "data"), (threads, strategy), |s, src, par| {
            s.seal(first, src.bytes(), last, par)
        })?;
        Ok(PyBytes::new(py, &sealed))
    }

    /// Opens sealed segments `first ..` (`last` if they end the stream).
    #[pyo3(signature = (first, sealed, last, *, threads = None, strategy = "steal"))]
    fn open<'py>(
        &self,
        py: Python<'py>,
        first: u64,
        sealed: &Bound<'py, PyAny>,
        last: bool,
        threads: Option<i64>,
        strategy: &str,
    ) -> PyResult<Bound<'py, PyBytes>> {
        // Wiped when dropped, once copied into the `bytes`.
        let plain = self.run(py, (sealed, "sealed"), (threads, strategy), |s, src, par| {
            s.open(first, src, last, par)
        })?;
        Ok(PyBytes::new(py, plain.expose()))
    }

    fn __repr__(&self) -> String {
        format!(
            "<parcrypt.stream.Segments segment_size={} header_len={} (key redacted)>",
            self.inner.segment_size(),
            self.inner.header_len()
        )
    }
}
