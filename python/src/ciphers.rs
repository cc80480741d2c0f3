//! `parcrypt.ciphers`: AES-CTR, AES-CBC (PKCS#7) and AES-ECB (hazmat), one
//! shot or incremental, byte-identical to `cryptography`'s `Cipher` with
//! the same mode (plus its PKCS7 padder for CBC/ECB).

use parcrypt::aes::{BLOCK, Cbc, Crypter, Ctr};
use parcrypt::par::Parallelism;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::buffer::{In, Out, bytes_from, detach_from};
use crate::{errors, par};

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<CipherContext>()?;
    m.add_function(wrap_pyfunction!(cipher_context, m)?)?;
    m.add_function(wrap_pyfunction!(ctr_apply, m)?)?;
    m.add_function(wrap_pyfunction!(cbc_encrypt, m)?)?;
    m.add_function(wrap_pyfunction!(cbc_decrypt, m)?)?;
    Ok(())
}

fn iv_of(iv: &Bound<'_, PyAny>, what: &str) -> PyResult<[u8; BLOCK]> {
    let iv = In::get(iv, what)?;
    iv.as_slice()
        .try_into()
        .map_err(|_| PyValueError::new_err(format!("{what} must be 16 bytes, got {}", iv.len())))
}

/// A one-shot call's key (as the cipher `new` makes it), 16-byte IV or
/// counter block (`iv_name` in messages) and data, read in that order.
fn one_shot<C>(
    py: Python<'_>,
    (key, iv, data): (&Bound<'_, PyAny>, &Bound<'_, PyAny>, &Bound<'_, PyAny>),
    iv_name: &str,
    new: impl FnOnce(&[u8]) -> Result<C, parcrypt::aes::Error>,
) -> PyResult<(C, [u8; BLOCK], In)> {
    let cipher = new(In::get(key, "key")?.as_slice()).map_err(|e| errors::aes(py, e))?;
    Ok((cipher, iv_of(iv, iv_name)?, In::get(data, "data")?))
}

/// AES-CTR over `data` from the 16-byte initial counter block `nonce` (the
/// same for encryption and decryption).
#[pyfunction]
#[pyo3(signature = (key, nonce, data, *, threads = None, strategy = "steal"))]
fn ctr_apply<'py>(
    py: Python<'py>,
    key: &Bound<'py, PyAny>,
    nonce: &Bound<'py, PyAny>,
    data: &Bound<'py, PyAny>,
    threads: Option<i64>,
    strategy: &str,
) -> PyResult<Bound<'py, PyBytes>> {
    let par = par::parallelism(threads, strategy)?;
    let (ctr, counter, data) = one_shot(py, (key, nonce, data), "nonce", Ctr::new)?;
    bytes_from(py, data.as_slice(), 0, &par, |out| {
        ctr.apply_keystream_in_place(&counter, out, &par);
        Ok(())
    })
}

/// AES-CBC encryption with PKCS#7 padding (serial by nature: each block
/// needs the one before).
#[pyfunction]
fn cbc_encrypt<'py>(
    py: Python<'py>,
    key: &Bound<'py, PyAny>,
    iv: &Bound<'py, PyAny>,
    data: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyBytes>> {
    let (cbc, iv, data) = one_shot(py, (key, iv, data), "iv", Cbc::new)?;
    let src = data.as_slice();
    let sealed = detach_from(py, src.len(), || cbc.encrypt(&iv, src));
    Ok(PyBytes::new(py, &sealed))
}

/// AES-CBC decryption (parallel) and PKCS#7 unpadding; one opaque
/// `ValueError` for bad padding or a wrong key.
#[pyfunction]
#[pyo3(signature = (key, iv, data, *, threads = None, strategy = "steal"))]
fn cbc_decrypt<'py>(
    py: Python<'py>,
    key: &Bound<'py, PyAny>,
    iv: &Bound<'py, PyAny>,
    data: &Bound<'py, PyAny>,
    threads: Option<i64>,
    strategy: &str,
) -> PyResult<Bound<'py, PyBytes>> {
    let par = par::parallelism(threads, strategy)?;
    let (cbc, iv, data) = one_shot(py, (key, iv, data), "iv", Cbc::new)?;
    let src = data.as_slice();
    let opened =
        detach_from(py, src.len(), || cbc.decrypt(&iv, src, &par)).map_err(|e| errors::aes(py, e))?;
    // Wiped when dropped, once copied into the `bytes`.
    Ok(PyBytes::new(py, opened.expose()))
}

/// An incremental encryption or decryption: `update`, `update_into`,
/// `finalize`, as `cryptography`'s `CipherContext`.
#[derive(Debug)]
#[pyclass(module = "parcrypt.ciphers")]
pub struct CipherContext {
    crypter: Option<Crypter>,
    par: Parallelism,
}

/// `mode` is "ctr", "cbc" or "ecb"; `padding` applies to CBC and ECB.
#[pyfunction]
#[pyo3(signature = (mode, key, iv, encrypt, *, padding = true, threads = None, strategy = "steal"))]
#[allow(clippy::too_many_arguments)]
fn cipher_context(
    py: Python<'_>,
    mode: &str,
    key: &Bound<'_, PyAny>,
    iv: Option<&Bound<'_, PyAny>>,
    encrypt: bool,
    padding: bool,
    threads: Option<i64>,
    strategy: &str,
) -> PyResult<CipherContext> {
    let par = par::parallelism(threads, strategy)?;
    let key = In::get(key, "key")?;
    let key = key.as_slice();
    let iv = iv
        .filter(|i| !i.is_none())
        .map(|i| iv_of(i, if mode == "ctr" { "nonce" } else { "iv" }))
        .transpose()?;
    let need_iv = || PyValueError::new_err(format!("mode {mode:?} needs a 16-byte iv/nonce"));
    let crypter = match mode {
        "ctr" => Crypter::ctr(key, &iv.ok_or_else(need_iv)?),
        "cbc" if padding && encrypt => Crypter::cbc_encrypt(key, &iv.ok_or_else(need_iv)?),
        "cbc" if padding => Crypter::cbc_decrypt(key, &iv.ok_or_else(need_iv)?),
        "cbc" if encrypt => parcrypt::hazmat::cbc_encrypter_no_padding(key, &iv.ok_or_else(need_iv)?),
        "cbc" => parcrypt::hazmat::cbc_decrypter_no_padding(key, &iv.ok_or_else(need_iv)?),
        "ecb" if iv.is_some() => return Err(PyValueError::new_err("ECB takes no iv")),
        "ecb" => match (encrypt, padding) {
            (true, true) => parcrypt::hazmat::ecb_encrypter(key),
            (false, true) => parcrypt::hazmat::ecb_decrypter(key),
            (true, false) => parcrypt::hazmat::ecb_encrypter_no_padding(key),
            (false, false) => parcrypt::hazmat::ecb_decrypter_no_padding(key),
        },
        other => {
            return Err(PyValueError::new_err(format!(
                "unknown mode {other:?}: expected \"ctr\", \"cbc\" or \"ecb\""
            )));
        }
    }
    .map_err(|e| errors::aes(py, e))?;
    Ok(CipherContext {
        crypter: Some(crypter),
        par,
    })
}

impl CipherContext {
    fn crypter(&mut self) -> PyResult<&mut Crypter> {
        self.crypter
            .as_mut()
            .ok_or_else(|| pyo3::exceptions::PyRuntimeError::new_err("the context was already finalized"))
    }
}

#[pymethods]
impl CipherContext {
    /// Processes `data`; returns the output ready so far (CBC/ECB hold back
    /// a partial block, and a padded decryption its last block, until more
    /// input or `finalize`).
    fn update<'py>(&mut self, py: Python<'py>, data: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyBytes>> {
        let data = In::get(data, "data")?;
        let par = self.par;
        let crypter = self.crypter()?;
        let src = data.as_slice();
        let ready = crypter.update_len(src.len());
        bytes_from(py, &[], ready, &par, |out| {
            crypter
                .update_into(src, out, &par)
                .map(|_| ())
                .map_err(|e| Python::attach(|py| errors::aes(py, e)))
        })
    }

    /// Like `update`, writing straight into `buf` (at least len(data) + 15
    /// bytes, as `cryptography` asks; it must not overlap `data`); returns
    /// the number of bytes written.
    fn update_into(
        &mut self,
        py: Python<'_>,
        data: &Bound<'_, PyAny>,
        buf: &Bound<'_, PyAny>,
    ) -> PyResult<usize> {
        let data = In::get(data, "data")?;
        let mut buf = Out::get(buf, "buf")?;
        if !matches!(
            crate::buffer::sharing(&data, &buf),
            crate::buffer::Sharing::Disjoint
        ) {
            return Err(PyValueError::new_err("buf must not overlap data"));
        }
        let dst = buf.as_mut_slice();
        let need = data.len() + BLOCK - 1;
        if dst.len() < need {
            return Err(PyValueError::new_err(format!(
                "buf must be at least {need} bytes (len(data) + 15), got {}",
                dst.len()
            )));
        }
        let par = self.par;
        let crypter = self.crypter()?;
        let src = data.as_slice();
        detach_from(py, src.len(), || crypter.update_into(src, dst, &par)).map_err(|e| errors::aes(py, e))
    }

    /// Ends the message: the last output (padding added, or checked and
    /// removed). The context cannot be used afterwards.
    fn finalize<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let crypter = self
            .crypter
            .take()
            .ok_or_else(|| pyo3::exceptions::PyRuntimeError::new_err("the context was already finalized"))?;
        let mut out = crypter.finish().map_err(|e| errors::aes(py, e))?;
        let bytes = PyBytes::new(py, &out);
        parcrypt::secret::wipe(&mut out);
        Ok(bytes)
    }

    fn __repr__(&self) -> String {
        format!(
            "<parcrypt.ciphers.CipherContext (key redacted){}>",
            if self.crypter.is_none() { ", finalized" } else { "" }
        )
    }
}
