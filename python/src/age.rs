//! `parcrypt.age`: age files (age-encryption.org/v1), the same as the `age`
//! CLI, rage, pyrage and `parcrypt age` read and write: bytes in memory,
//! files and Python file objects, keys generated and parsed.

use std::sync::Arc;

use parcrypt::age::{
    self, DecryptOptions, Encryptor, Error, Identity, KeyKind, Options, Passphrase, PluginClient,
    PluginIdentity, PluginUi, Recipient,
};
use parcrypt::par::Parallelism;
use parcrypt::secret::SecretBytes;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

use crate::buffer::{In, bytes_from, detach_from};
use crate::stream::{End, Source, between};
use crate::{errors, par};

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // Named `Identity` and `Recipient` (in `parcrypt.age`); held under
    // these names here so that no other family's key class can clash.
    m.add("AgeIdentity", m.py().get_type::<AgeIdentity>())?;
    m.add("AgeRecipient", m.py().get_type::<AgeRecipient>())?;
    m.add_function(wrap_pyfunction!(age_encrypt, m)?)?;
    m.add_function(wrap_pyfunction!(age_decrypt, m)?)?;
    m.add_function(wrap_pyfunction!(age_encrypt_file, m)?)?;
    m.add_function(wrap_pyfunction!(age_decrypt_file, m)?)?;
    m.add_function(wrap_pyfunction!(age_parse_identities, m)?)?;
    m.add_function(wrap_pyfunction!(age_parse_recipients, m)?)?;
    Ok(())
}

/// The library's errors as Python exceptions: a file that does not open is
/// `AgeError` (`NoIdentityError` when no identity matches); bad keys and
/// arguments are `ValueError`; I/O is `OSError`.
fn err(py: Python<'_>, e: Error) -> PyErr {
    let msg = e.to_string();
    match e {
        Error::Io(io) => PyErr::from(io),
        Error::NoMatchingIdentity { .. } => errors::raise(py, "NoIdentityError", msg),
        Error::WrongFormat
        | Error::MalformedHeader(_)
        | Error::Armor(_)
        | Error::HeaderAuthentication
        | Error::Truncated { .. }
        | Error::ChunkAuthentication { .. }
        | Error::EmptyLastChunk { .. }
        | Error::TrailingData { .. }
        | Error::Plugin { .. }
        | Error::PluginNotFound { .. } => errors::raise(py, "AgeError", msg),
        _ => PyValueError::new_err(msg),
    }
}

/// An age identity (secret key): X25519 (`AGE-SECRET-KEY-1…`), the
/// post-quantum hybrid (`AGE-SECRET-KEY-PQ-1…`), or an SSH private key.
/// `repr()` never shows the secret; `str()` is the secret key line (as
/// pyrage's), for writing an identity file.
#[pyclass(name = "Identity", module = "parcrypt.age", frozen)]
#[derive(Debug)]
pub struct AgeIdentity {
    inner: Identity,
}

/// An age recipient (public key): `age1…`, `age1pq1…`, `ssh-ed25519 …`, `ssh-rsa …`.
#[pyclass(name = "Recipient", module = "parcrypt.age", frozen)]
#[derive(Debug)]
pub struct AgeRecipient {
    inner: Recipient,
}

fn kind_name(id: &Identity) -> &'static str {
    match id {
        Identity::X25519(_) => "x25519",
        Identity::Hybrid(_) => "mlkem768x25519",
        Identity::Ssh(_) | Identity::EncryptedSsh(_) => "ssh",
        Identity::Plugin(_) => "plugin",
        _ => "other",
    }
}

#[pymethods]
impl AgeIdentity {
    /// A new random key pair: X25519, or the post-quantum hybrid with `pq=True`.
    #[staticmethod]
    #[pyo3(signature = (*, pq = false))]
    fn generate(pq: bool) -> AgeIdentity {
        let kind = if pq { KeyKind::Hybrid } else { KeyKind::X25519 };
        AgeIdentity {
            inner: Identity::generate(kind),
        }
    }

    /// One `AGE-SECRET-KEY-1…`, `AGE-SECRET-KEY-PQ-1…` or plugin
    /// `AGE-PLUGIN-NAME-1…` line; a plugin's questions go to `callbacks`.
    #[staticmethod]
    #[pyo3(signature = (s, callbacks = None))]
    fn from_str(s: &str, callbacks: Option<Py<PyAny>>) -> PyResult<AgeIdentity> {
        Identity::parse(s.trim())
            .map(|inner| AgeIdentity {
                inner: inner.with_plugin_client(&plugin_client(callbacks)),
            })
            .map_err(|e| PyValueError::new_err(e.to_string()))
    }

    /// The default identity of the plugin `age-plugin-NAME` (as `age -j NAME`).
    #[staticmethod]
    #[pyo3(signature = (plugin, callbacks = None))]
    fn default_for_plugin(plugin: &str, callbacks: Option<Py<PyAny>>) -> PyResult<AgeIdentity> {
        PluginIdentity::default_for(plugin)
            .map(|i| AgeIdentity {
                inner: Identity::Plugin(i).with_plugin_client(&plugin_client(callbacks)),
            })
            .map_err(|e| PyValueError::new_err(e.to_string()))
    }

    /// The recipient (public key) this identity opens.
    fn to_public(&self) -> PyResult<AgeRecipient> {
        self.inner
            .to_recipient()
            .map(|inner| AgeRecipient { inner })
            .ok_or_else(|| PyValueError::new_err("this identity has no public key"))
    }

    /// The identity file `age-keygen` writes for this key (`# created:`,
    /// `# public key:`, the secret key), time in UTC.
    fn keygen_file(&self) -> PyResult<String> {
        let created = age::rfc3339_utc(std::time::SystemTime::now());
        let text = self
            .inner
            .keygen_file(&created)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(text.expose().to_owned())
    }

    /// `"x25519"`, `"mlkem768x25519"` or `"ssh"`.
    #[getter]
    fn kind(&self) -> &'static str {
        kind_name(&self.inner)
    }

    fn __str__(&self) -> PyResult<String> {
        self.inner
            .to_secret_string()
            .map(|s| s.expose().to_owned())
            .ok_or_else(|| PyValueError::new_err("an SSH or plugin identity has no age secret key string"))
    }

    fn __repr__(&self) -> String {
        let public = self
            .inner
            .to_recipient()
            .map(|r| short(&r.to_string()))
            .unwrap_or_default();
        format!(
            "<parcrypt.age.Identity {} {public} (secret redacted)>",
            kind_name(&self.inner)
        )
    }
}

/// A long key shown by its ends.
fn short(s: &str) -> String {
    if s.len() <= 72 {
        return s.to_owned();
    }
    format!("{}…{}", &s[..40], &s[s.len() - 16..])
}

#[pymethods]
impl AgeRecipient {
    /// A public key as the `age` CLI's `-r` takes it; a plugin recipient's
    /// (`age1NAME1…`) questions go to `callbacks`.
    #[staticmethod]
    #[pyo3(signature = (s, callbacks = None))]
    fn from_str(s: &str, callbacks: Option<Py<PyAny>>) -> PyResult<AgeRecipient> {
        Recipient::parse(s.trim())
            .map(|inner| AgeRecipient {
                inner: inner.with_plugin_client(&plugin_client(callbacks)),
            })
            .map_err(|e| PyValueError::new_err(e.to_string()))
    }

    fn __str__(&self) -> String {
        self.inner.to_string()
    }

    fn __repr__(&self) -> String {
        format!("<parcrypt.age.Recipient {}>", short(&self.inner.to_string()))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<AgeRecipient>()
            .is_ok_and(|o| o.get().inner.to_string() == self.inner.to_string())
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.inner.to_string().hash(&mut h);
        h.finish()
    }
}

/// The recipients of a new file: `recipients` (each a `Recipient` or a
/// public-key string), or a `passphrase` (alone) with scrypt's `work_factor`.
fn recipients_of(
    recipients: Option<&Bound<'_, PyAny>>,
    passphrase: Option<&Bound<'_, PyAny>>,
    work_factor: u8,
) -> PyResult<Vec<Recipient>> {
    let mut list = Vec::new();
    if let Some(rs) = recipients.filter(|r| !r.is_none()) {
        if rs.is_instance_of::<PyString>() {
            return Err(PyTypeError::new_err(
                "recipients must be a list of recipients (a single string was given)",
            ));
        }
        for r in rs.try_iter()? {
            let r = r?;
            if let Ok(obj) = r.cast::<AgeRecipient>() {
                list.push(obj.get().inner.clone());
            } else if let Ok(s) = r.extract::<String>() {
                list.push(Recipient::parse(s.trim()).map_err(|e| PyValueError::new_err(e.to_string()))?);
            } else {
                return Err(PyTypeError::new_err(
                    "each recipient must be a Recipient or a str",
                ));
            }
        }
    }
    if let Some(p) = passphrase.filter(|p| !p.is_none()) {
        let p = Passphrase::with_work_factor(secret_of(p)?, work_factor)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        list.push(Recipient::Passphrase(p));
    }
    if list.is_empty() {
        return Err(PyValueError::new_err("give recipients= or passphrase="));
    }
    Ok(list)
}

/// The identities to open a file with: `identities` (each an `Identity`
/// or a secret-key string), and/or a `passphrase`.
fn identities_of(
    identities: Option<&Bound<'_, PyAny>>,
    passphrase: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<Identity>> {
    let mut list = Vec::new();
    if let Some(ids) = identities.filter(|i| !i.is_none()) {
        if ids.is_instance_of::<PyString>() {
            return Err(PyTypeError::new_err(
                "identities must be a list of identities (a single string was given)",
            ));
        }
        for i in ids.try_iter()? {
            let i = i?;
            if let Ok(obj) = i.cast::<AgeIdentity>() {
                list.push(obj.get().inner.clone());
            } else if let Ok(s) = i.extract::<String>() {
                list.push(Identity::parse(s.trim()).map_err(|e| PyValueError::new_err(e.to_string()))?);
            } else {
                return Err(PyTypeError::new_err("each identity must be an Identity or a str"));
            }
        }
    }
    if let Some(p) = passphrase.filter(|p| !p.is_none()) {
        list.push(Identity::Passphrase(secret_of(p)?));
    }
    if list.is_empty() {
        return Err(PyValueError::new_err("give identities= or passphrase="));
    }
    Ok(list)
}

fn secret_of(p: &Bound<'_, PyAny>) -> PyResult<SecretBytes> {
    let secret = if let Ok(s) = p.cast::<PyString>() {
        SecretBytes::from(s.to_str()?.as_bytes())
    } else {
        SecretBytes::from(In::get(p, "passphrase")?.as_slice())
    };
    if secret.is_empty() {
        return Err(PyValueError::new_err("the passphrase is empty"));
    }
    Ok(secret)
}

/// Encrypts `data` (any bytes-like object) to `recipients` or a
/// `passphrase`; returns the age file (armored with `armor=True`).
#[pyfunction]
#[pyo3(signature = (data, recipients = None, *, passphrase = None, armor = false, work_factor = age::DEFAULT_WORK_FACTOR, threads = None, strategy = "steal"))]
#[allow(clippy::too_many_arguments)]
fn age_encrypt<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
    recipients: Option<&Bound<'py, PyAny>>,
    passphrase: Option<&Bound<'py, PyAny>>,
    armor: bool,
    work_factor: u8,
    threads: Option<i64>,
    strategy: &str,
) -> PyResult<Bound<'py, PyBytes>> {
    let par = par::parallelism(threads, strategy)?;
    let list = recipients_of(recipients, passphrase, work_factor)?;
    let data = In::get(data, "data")?;
    let plain = data.as_slice();
    // scrypt runs here: with the GIL released whatever the size.
    let encryptor = py.detach(|| Encryptor::new(&list)).map_err(|e| err(py, e))?;
    let sealed = detach_from(py, plain.len(), || {
        encryptor.encrypt(plain, &Options { armor }, &par)
    });
    bytes_from(py, &sealed, 0, &par, |_| Ok(()))
}

/// Decrypts the age file `data` (binary or armored) with `identities`
/// and/or a `passphrase`; returns the plaintext, all of it verified (or
/// raises, returning nothing).
#[pyfunction]
#[pyo3(signature = (data, identities = None, *, passphrase = None, max_work_factor = age::DEFAULT_MAX_WORK_FACTOR, threads = None, strategy = "steal"))]
fn age_decrypt<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
    identities: Option<&Bound<'py, PyAny>>,
    passphrase: Option<&Bound<'py, PyAny>>,
    max_work_factor: u8,
    threads: Option<i64>,
    strategy: &str,
) -> PyResult<Bound<'py, PyBytes>> {
    let par = par::parallelism(threads, strategy)?;
    let ids = identities_of(identities, passphrase)?;
    let data = In::get(data, "data")?;
    // Read once (each chunk copied before it is opened) unless immutable.
    let sealed = data.input();
    let opts = DecryptOptions {
        max_work_factor,
        ..DecryptOptions::default()
    };
    // A passphrase runs scrypt: the GIL is released whatever the size.
    // Wiped when dropped, once copied into the `bytes`.
    let plain = py
        .detach(|| age::decrypt(&ids, sealed, &opts, &par))
        .map_err(|e| err(py, e))?;
    bytes_from(py, plain.expose(), 0, &par, |_| Ok(()))
}

/// Encrypts `src` (path or binary file object) into `dst` (path of a file
/// to create, or binary file object); returns the plaintext length.
#[pyfunction]
#[pyo3(signature = (src, dst, recipients = None, *, passphrase = None, armor = false, work_factor = age::DEFAULT_WORK_FACTOR, threads = None, strategy = "steal"))]
#[allow(clippy::too_many_arguments)]
fn age_encrypt_file(
    py: Python<'_>,
    src: &Bound<'_, PyAny>,
    dst: &Bound<'_, PyAny>,
    recipients: Option<&Bound<'_, PyAny>>,
    passphrase: Option<&Bound<'_, PyAny>>,
    armor: bool,
    work_factor: u8,
    threads: Option<i64>,
    strategy: &str,
) -> PyResult<u64> {
    let par: Parallelism = par::parallelism(threads, strategy)?;
    let list = recipients_of(recipients, passphrase, work_factor)?;
    let (src, dst) = (End::get(src, "src")?, End::get(dst, "dst")?);
    let opts = Options { armor };
    // Before `dst` is created: a recipient list it refuses writes nothing.
    let encryptor = py.detach(|| Encryptor::new(&list)).map_err(|e| err(py, e))?;
    let written = between(py, &src, &dst, |input, out| match input {
        Source::File(f) => encryptor.encrypt_file(&f, out, &opts, &par, |_| {}),
        Source::Reader(r) => encryptor.encrypt_stream(r, out, &opts, &par, |_| {}),
    });
    written.map_err(|e| err(py, e))
}

/// Decrypts `src` into `dst`; returns the plaintext length written. With
/// `range=(start, length)` and a path `src`, reads only the chunks needed.
#[pyfunction]
#[pyo3(signature = (src, dst, identities = None, *, passphrase = None, range = None, max_work_factor = age::DEFAULT_MAX_WORK_FACTOR, threads = None, strategy = "steal"))]
#[allow(clippy::too_many_arguments)]
fn age_decrypt_file(
    py: Python<'_>,
    src: &Bound<'_, PyAny>,
    dst: &Bound<'_, PyAny>,
    identities: Option<&Bound<'_, PyAny>>,
    passphrase: Option<&Bound<'_, PyAny>>,
    range: Option<(u64, u64)>,
    max_work_factor: u8,
    threads: Option<i64>,
    strategy: &str,
) -> PyResult<u64> {
    let par: Parallelism = par::parallelism(threads, strategy)?;
    let ids = identities_of(identities, passphrase)?;
    let (src, dst) = (End::get(src, "src")?, End::get(dst, "dst")?);
    if range.is_some() && !matches!(src, End::Path(_)) {
        return Err(PyValueError::new_err(
            "range= needs src to be a path (it reads only the chunks needed)",
        ));
    }
    let opts = DecryptOptions {
        max_work_factor,
        ..DecryptOptions::default()
    };
    let written = between(py, &src, &dst, |input, out| match (input, range) {
        (Source::File(f), Some((start, len))) => age::decrypt_range(&ids, &f, start, len, out, &opts, &par),
        (Source::File(f), None) => age::decrypt_file(&ids, &f, out, &opts, &par, |_| {}),
        (Source::Reader(r), _) => age::decrypt_stream(&ids, r, out, &opts, &par, |_| {}),
    });
    written.map_err(|e| err(py, e))
}

/// Text of a key file: `str`, or bytes-like.
fn text_of(text: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    if let Ok(s) = text.cast::<PyString>() {
        return Ok(s.to_str()?.as_bytes().to_vec());
    }
    Ok(In::get(text, "text")?.as_slice().to_vec())
}

/// The identities of an identity file's text (age-keygen's format with
/// comments, or an unencrypted OpenSSH private key).
#[pyfunction]
#[pyo3(signature = (text, callbacks = None))]
fn age_parse_identities(text: &Bound<'_, PyAny>, callbacks: Option<Py<PyAny>>) -> PyResult<Vec<AgeIdentity>> {
    let mut bytes = text_of(text)?;
    let parsed = age::parse_identities(&bytes);
    parcrypt::secret::wipe(&mut bytes);
    let ids = parsed.map_err(|e| PyValueError::new_err(e.to_string()))?;
    let client = plugin_client(callbacks);
    Ok(ids
        .into_iter()
        .map(|inner| AgeIdentity {
            inner: inner.with_plugin_client(&client),
        })
        .collect())
}

/// The recipients of a recipients file's text (one per line, `#` comments;
/// SSH keys of types age does not support are skipped, as age does).
#[pyfunction]
#[pyo3(signature = (text, callbacks = None))]
fn age_parse_recipients(
    text: &Bound<'_, PyAny>,
    callbacks: Option<Py<PyAny>>,
) -> PyResult<Vec<AgeRecipient>> {
    let file = age::parse_recipients(&text_of(text)?).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let client = plugin_client(callbacks);
    Ok(file
        .recipients
        .into_iter()
        .map(|inner| AgeRecipient {
            inner: inner.with_plugin_client(&client),
        })
        .collect())
}

/// How plugins run for keys made with `callbacks` (pyrage's `plugin.Callbacks`
/// shape: `display_message(message)`, `confirm(message, yes, no)`,
/// `request_public_string(description)`, `request_passphrase(description)`;
/// each may be missing, return `None` or raise: the plugin is told `fail`).
/// Without callbacks every question is refused.
fn plugin_client(callbacks: Option<Py<PyAny>>) -> PluginClient {
    let client = PluginClient::new();
    match callbacks {
        Some(callbacks) => client.with_ui(Arc::new(PyCallbacks(callbacks))),
        None => client,
    }
}

/// A Python callbacks object as a plugin UI (each call takes the GIL: the
/// plugin runs while `encrypt`/`decrypt` have released it).
struct PyCallbacks(Py<PyAny>);

impl PluginUi for PyCallbacks {
    fn display_message(&self, _plugin: &str, message: &str) -> bool {
        Python::attach(|py| {
            self.0
                .bind(py)
                .call_method1("display_message", (message,))
                .is_ok()
        })
    }

    fn request_value(&self, _plugin: &str, prompt: &str, secret: bool) -> Option<SecretBytes> {
        let method = if secret {
            "request_passphrase"
        } else {
            "request_public_string"
        };
        Python::attach(|py| {
            let value = self.0.bind(py).call_method1(method, (prompt,)).ok()?;
            let value: String = value.extract().ok()?;
            Some(SecretBytes::new(value.into_bytes()))
        })
    }

    fn confirm(&self, _plugin: &str, prompt: &str, yes: &str, no: Option<&str>) -> Option<bool> {
        Python::attach(|py| {
            let chose = self.0.bind(py).call_method1("confirm", (prompt, yes, no)).ok()?;
            chose.extract::<Option<bool>>().ok().flatten()
        })
    }
}
