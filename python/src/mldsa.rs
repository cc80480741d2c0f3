//! `parcrypt.mldsa`: ML-DSA-44/65/87 (FIPS 204) keys in pyca 50's shape —
//! `MLDSA44PrivateKey`/`MLDSA65PrivateKey`/`MLDSA87PrivateKey` and their
//! public keys, `MLDSAMuHasher` — over [`parcrypt::mldsa`], plus
//! `sign_batch`/`verify_batch` on every core.
//!
//! A message is read once (into μ, as it streams), with the GIL released:
//! a caller's `bytearray` that another thread writes meanwhile gives a
//! signature over one state of it, never a mix of two reads.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use parcrypt::keys::{BatchItem, SigningKey, VerifyingKey};
use parcrypt::mldsa::{self, MuHasher, ParameterSet, PrivateKey, PublicKey, SignatureOptions};
use parcrypt::par::Parallelism;
use parcrypt::secret::SecretBytes;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::batch::{self, context_of};
use crate::buffer::In;
use crate::keyclass::key_classes;
use crate::{errors, par};

/// `InvalidSignature` for a signature that does not verify or cannot (the
/// wrong length), as pyca raises; `ValueError` for the rest (a context
/// over 255 bytes, a μ or seed of the wrong length, a malformed key).
fn err(py: Python<'_>, e: mldsa::Error) -> PyErr {
    let invalid = matches!(
        e,
        mldsa::Error::BadSignature | mldsa::Error::MalformedSignature { .. }
    );
    errors::signature(py, invalid, e)
}

fn generate(py: Python<'_>, set: ParameterSet) -> PyResult<Arc<PrivateKey>> {
    let key = py.detach(|| PrivateKey::generate(set)).map_err(|e| err(py, e))?;
    Ok(Arc::new(key))
}

fn from_seed(py: Python<'_>, set: ParameterSet, seed: &Bound<'_, PyAny>) -> PyResult<Arc<PrivateKey>> {
    let seed = SecretBytes::from(In::get(seed, "data")?.as_slice());
    let key = py
        .detach(|| PrivateKey::from_seed(set, seed.expose()))
        .map_err(|e| err(py, e))?;
    Ok(Arc::new(key))
}

fn from_raw(py: Python<'_>, set: ParameterSet, data: &Bound<'_, PyAny>) -> PyResult<PublicKey> {
    let raw = In::get(data, "data")?.as_slice().to_vec();
    PublicKey::from_raw(set, &raw).map_err(|e| err(py, e))
}

fn sign<'py>(
    py: Python<'py>,
    key: &PrivateKey,
    data: &Bound<'py, PyAny>,
    context: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyBytes>> {
    let options = SignatureOptions {
        context: context_of(context)?,
    };
    let data = In::get(data, "data")?;
    let message = data.as_slice();
    let sig = py
        .detach(|| key.sign_message(message, &options, &Parallelism::sequential()))
        .map_err(|e| err(py, e))?;
    Ok(PyBytes::new(py, &sig))
}

fn sign_mu<'py>(py: Python<'py>, key: &PrivateKey, mu: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyBytes>> {
    let mu = In::get(mu, "mu")?.as_slice().to_vec();
    let sig = py.detach(|| key.sign_mu(&mu)).map_err(|e| err(py, e))?;
    Ok(PyBytes::new(py, &sig))
}

fn verify(
    py: Python<'_>,
    key: &PublicKey,
    signature: &Bound<'_, PyAny>,
    data: &Bound<'_, PyAny>,
    context: Option<&Bound<'_, PyAny>>,
) -> PyResult<()> {
    let options = SignatureOptions {
        context: context_of(context)?,
    };
    let signature = In::get(signature, "signature")?.as_slice().to_vec();
    let data = In::get(data, "data")?;
    let message = data.as_slice();
    py.detach(|| key.verify_message(message, &signature, &options, &Parallelism::sequential()))
        .map_err(|e| err(py, e))
}

fn verify_mu(
    py: Python<'_>,
    key: &PublicKey,
    signature: &Bound<'_, PyAny>,
    mu: &Bound<'_, PyAny>,
) -> PyResult<()> {
    let signature = In::get(signature, "signature")?.as_slice().to_vec();
    let mu = In::get(mu, "mu")?.as_slice().to_vec();
    py.detach(|| key.verify_mu(&mu, &signature))
        .map_err(|e| err(py, e))
}

fn seed<'py>(py: Python<'py>, key: &PrivateKey) -> PyResult<Bound<'py, PyBytes>> {
    let seed = key.to_seed().map_err(|e| err(py, e))?;
    Ok(PyBytes::new(py, seed.expose()))
}

fn raw<'py>(py: Python<'py>, key: &PublicKey) -> PyResult<Bound<'py, PyBytes>> {
    Ok(PyBytes::new(py, key.to_raw()))
}

fn same(a: &PublicKey, b: &PublicKey) -> bool {
    a == b
}

fn set_of(key: &PrivateKey) -> ParameterSet {
    key.parameter_set()
}

fn public_set_of(key: &PublicKey) -> ParameterSet {
    key.parameter_set()
}

key_classes! {
    module = "parcrypt.mldsa",
    types = (PrivateKey, PublicKey),
    sets = [
        ParameterSet::MlDsa44 => MlDsa44PrivateKey("MLDSA44PrivateKey"), MlDsa44PublicKey("MLDSA44PublicKey");
        ParameterSet::MlDsa65 => MlDsa65PrivateKey("MLDSA65PrivateKey"), MlDsa65PublicKey("MLDSA65PublicKey");
        ParameterSet::MlDsa87 => MlDsa87PrivateKey("MLDSA87PrivateKey"), MlDsa87PublicKey("MLDSA87PublicKey");
    ],
    private_methods = {
        /// A hedged signature of `data` under `context` (0–255 bytes).
        #[pyo3(signature = (data, context = None))]
        fn sign<'py>(
            &self,
            py: Python<'py>,
            data: &Bound<'py, PyAny>,
            context: Option<&Bound<'py, PyAny>>,
        ) -> PyResult<Bound<'py, PyBytes>> {
            sign(py, &self.key, data, context)
        }

        /// A hedged signature of an external μ (64 bytes, from `MLDSAMuHasher`).
        fn sign_mu<'py>(&self, py: Python<'py>, mu: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyBytes>> {
            sign_mu(py, &self.key, mu)
        }
    },
    public_methods = {
        /// Returns None if `signature` is valid for `data` under `context`;
        /// raises `InvalidSignature` otherwise.
        #[pyo3(signature = (signature, data, context = None))]
        fn verify(
            &self,
            py: Python<'_>,
            signature: &Bound<'_, PyAny>,
            data: &Bound<'_, PyAny>,
            context: Option<&Bound<'_, PyAny>>,
        ) -> PyResult<()> {
            verify(py, &self.key, signature, data, context)
        }

        /// As `verify`, over an external μ (64 bytes).
        fn verify_mu(&self, py: Python<'_>, signature: &Bound<'_, PyAny>, mu: &Bound<'_, PyAny>) -> PyResult<()> {
            verify_mu(py, &self.key, signature, mu)
        }
    },
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    register_classes(m)?;
    m.add_class::<MlDsaMuHasher>()?;
    m.add_function(wrap_pyfunction!(mldsa_sign_batch, m)?)?;
    m.add_function(wrap_pyfunction!(mldsa_verify_batch, m)?)?;
    Ok(())
}

/// The library key inside any of the private key classes.
fn private_of(obj: &Bound<'_, PyAny>) -> PyResult<Arc<PrivateKey>> {
    let key = if let Ok(k) = obj.cast::<MlDsa44PrivateKey>() {
        &k.get().key
    } else if let Ok(k) = obj.cast::<MlDsa65PrivateKey>() {
        &k.get().key
    } else if let Ok(k) = obj.cast::<MlDsa87PrivateKey>() {
        &k.get().key
    } else {
        return Err(PyTypeError::new_err(
            "private_key must be an ML-DSA private key (MLDSA44/65/87PrivateKey)",
        ));
    };
    Ok(Arc::clone(key))
}

/// The library key inside any of the public key classes.
fn public_of<'a>(obj: &'a Bound<'_, PyAny>, what: &str) -> PyResult<&'a PublicKey> {
    if let Ok(k) = obj.cast::<MlDsa44PublicKey>() {
        Ok(&k.get().key)
    } else if let Ok(k) = obj.cast::<MlDsa65PublicKey>() {
        Ok(&k.get().key)
    } else if let Ok(k) = obj.cast::<MlDsa87PublicKey>() {
        Ok(&k.get().key)
    } else {
        Err(PyTypeError::new_err(format!(
            "{what} must be an ML-DSA public key (MLDSA44/65/87PublicKey)"
        )))
    }
}

/// μ of a message given in pieces (pyca's `MLDSAMuHasher(public_key,
/// context=None)`): `update`, `copy`, `finalize` (then `AlreadyFinalized`).
#[pyclass(name = "MLDSAMuHasher", module = "parcrypt.mldsa", frozen)]
#[derive(Debug)]
pub struct MlDsaMuHasher {
    /// `None` once finalized; locked by each call (a hasher is not `Sync`).
    hasher: Mutex<Option<MuHasher>>,
}

impl MlDsaMuHasher {
    fn new_with(hasher: MuHasher) -> Self {
        MlDsaMuHasher {
            hasher: Mutex::new(Some(hasher)),
        }
    }

    /// Runs `f` on the live hasher (taking it out when `f` says so).
    fn with<T>(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&mut Option<MuHasher>) -> PyResult<T> + Send,
    ) -> PyResult<T>
    where
        T: Send,
    {
        // Released while waiting for (and holding) the lock: an update may
        // hash megabytes, and another thread may hold it.
        py.detach(|| {
            let mut guard = self
                .hasher
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            if guard.is_none() {
                return Err(Python::attach(|py| {
                    errors::raise(py, "AlreadyFinalized", "Context was already finalized.".into())
                }));
            }
            f(&mut guard)
        })
    }
}

#[pymethods]
impl MlDsaMuHasher {
    #[new]
    #[pyo3(signature = (public_key, context = None))]
    fn new(
        py: Python<'_>,
        public_key: &Bound<'_, PyAny>,
        context: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let key = public_of(public_key, "public_key")?;
        let hasher = key.mu_hasher(&context_of(context)?).map_err(|e| err(py, e))?;
        Ok(Self::new_with(hasher))
    }

    /// Adds message bytes (read once, without the GIL).
    fn update(&self, py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<()> {
        let data = In::get(data, "data")?;
        let bytes = data.as_slice();
        self.with(py, |h| {
            if let Some(h) = h {
                h.update(bytes);
            }
            Ok(())
        })
    }

    /// An independent copy of the hasher as it is now.
    fn copy(&self, py: Python<'_>) -> PyResult<MlDsaMuHasher> {
        let copy = self.with(py, |h| {
            h.as_ref()
                .map(MuHasher::try_clone)
                .transpose()
                .map_err(|e| Python::attach(|py| err(py, e)))
        })?;
        copy.map(Self::new_with)
            .ok_or_else(|| PyValueError::new_err("Context was already finalized."))
    }

    /// μ (64 bytes); the hasher is spent.
    fn finalize<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let mu = self.with(py, |h| {
            h.take()
                .map(MuHasher::finish)
                .transpose()
                .map_err(|e| Python::attach(|py| err(py, e)))
        })?;
        let mu = mu.ok_or_else(|| PyValueError::new_err("Context was already finalized."))?;
        Ok(PyBytes::new(py, &mu))
    }
}

/// One context's items of a batch, by index.
type ByContext = BTreeMap<Vec<u8>, Vec<usize>>;

/// Signs every message with `private_key` under `context` across cores
/// (the library's `sign_batch`): one signature per message, in order.
#[pyfunction]
#[pyo3(signature = (private_key, messages, context = None, *, threads = None, strategy = "steal"))]
fn mldsa_sign_batch<'py>(
    py: Python<'py>,
    private_key: &Bound<'py, PyAny>,
    messages: &Bound<'py, PyAny>,
    context: Option<&Bound<'py, PyAny>>,
    threads: Option<i64>,
    strategy: &str,
) -> PyResult<Vec<Bound<'py, PyBytes>>> {
    let par = par::parallelism(threads, strategy)?;
    let key = private_of(private_key)?;
    let options = SignatureOptions {
        context: context_of(context)?,
    };
    if options.context.len() > batch::MAX_CONTEXT {
        return Err(err(py, mldsa::Error::ContextTooLong(options.context.len())));
    }
    let views = messages
        .try_iter()?
        .enumerate()
        .map(|(i, m)| In::get(&m?, &format!("messages[{i}]")))
        .collect::<PyResult<Vec<In>>>()?;
    let slices: Vec<&[u8]> = views.iter().map(In::as_slice).collect();
    let sigs = py.detach(|| key.sign_batch(&slices, &options, &par));
    sigs.into_iter()
        .map(|s| s.map(|s| PyBytes::new(py, &s)).map_err(|e| err(py, e)))
        .collect()
}

/// Verifies `(public_key, data, signature)` or `(public_key, data,
/// signature, context)` items across cores (the library's
/// `verify_batch`, once per distinct context): one bool per item, in
/// order. A signature of the wrong length is `False`; an item that is not
/// such a tuple a `TypeError`, a context over 255 bytes a `ValueError`,
/// each naming the item.
#[pyfunction]
#[pyo3(signature = (items, *, threads = None, strategy = "steal"))]
fn mldsa_verify_batch(
    py: Python<'_>,
    items: &Bound<'_, PyAny>,
    threads: Option<i64>,
    strategy: &str,
) -> PyResult<Vec<bool>> {
    let par = par::parallelism(threads, strategy)?;
    let items = batch::items(items)?;
    let mut keys = Vec::with_capacity(items.len());
    let mut groups = ByContext::new();
    for (i, item) in items.iter().enumerate() {
        keys.push(public_of(&item.key, &format!("items[{i}][0]"))?);
        groups.entry(item.context.clone()).or_default().push(i);
    }
    let parts: Vec<(&[u8], &[u8])> = items
        .iter()
        .map(|item| (item.data.as_slice(), item.signature.as_slice()))
        .collect();
    Ok(py.detach(|| {
        let mut valid = vec![false; keys.len()];
        for (context, indexes) in groups {
            let batch: Vec<BatchItem<'_, PublicKey>> = indexes
                .iter()
                .map(|&i| BatchItem {
                    key: keys[i],
                    message: parts[i].0,
                    signature: parts[i].1,
                })
                .collect();
            let results = PublicKey::verify_batch(&batch, &SignatureOptions { context }, &par);
            for (&i, result) in indexes.iter().zip(results) {
                valid[i] = result.is_ok();
            }
        }
        valid
    }))
}
