//! `parcrypt.aead.AESGCM`: standard AES-GCM (ciphertext ‖ 16-byte tag), the
//! message cut across cores ([`parcrypt::aes::Gcm`]).

use parcrypt::aes::{GCM_NONCE, GCM_TAG, Gcm};
use parcrypt::io::Input;
use parcrypt::par::Parallelism;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::buffer::{In, Out, Sharing, bytes_from, bytes_uninit, detach_from, sharing};
use crate::{errors, par};

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<AesGcm>()
}

/// AES-GCM with a 128- or 256-bit key, as `cryptography.hazmat.primitives.ciphers.aead.AESGCM`.
#[derive(Debug)]
#[pyclass(name = "AESGCM", module = "parcrypt.aead", frozen)]
pub struct AesGcm {
    gcm: Gcm,
    par: Parallelism,
}

fn nonce_of(nonce: &In) -> PyResult<&[u8; GCM_NONCE]> {
    nonce.as_slice().try_into().map_err(|_| {
        PyValueError::new_err(format!(
            "nonce must be {GCM_NONCE} bytes (96 bits, the length GCM is defined for without hashing), got {}",
            nonce.len()
        ))
    })
}

fn aad_of(aad: Option<&Bound<'_, PyAny>>) -> PyResult<Option<In>> {
    aad.filter(|a| !a.is_none())
        .map(|a| In::get(a, "associated_data"))
        .transpose()
}

/// What every `AESGCM` call reads first: the threads, the nonce, the data
/// and the associated data (None: none).
struct Args {
    par: Parallelism,
    nonce: [u8; GCM_NONCE],
    /// The nonce's buffer, which an `_into` call checks against its output.
    nonce_in: In,
    data: In,
    aad_in: Option<In>,
}

impl Args {
    fn aad(&self) -> &[u8] {
        self.aad_in.as_ref().map_or(&[][..], In::as_slice)
    }

    /// The output buffer of an `_into` call, and whether the call is in
    /// place; refused if it overlaps the data otherwise, or the nonce or
    /// the associated data at all.
    fn output(&self, buf: &Bound<'_, PyAny>) -> PyResult<(Out, bool)> {
        let out = Out::get(buf, "buf")?;
        let in_place = in_place(&self.data, &out)?;
        separate(self.aad_in.as_ref(), &out, "associated_data")?;
        separate(Some(&self.nonce_in), &out, "nonce")?;
        Ok((out, in_place))
    }
}

impl AesGcm {
    fn args(
        &self,
        nonce: &Bound<'_, PyAny>,
        data: &Bound<'_, PyAny>,
        associated_data: Option<&Bound<'_, PyAny>>,
        threads: Option<i64>,
        strategy: Option<&str>,
    ) -> PyResult<Args> {
        let par = self.par_for(threads, strategy)?;
        let nonce_in = In::get(nonce, "nonce")?;
        let nonce = *nonce_of(&nonce_in)?;
        let data = In::get(data, "data")?;
        let aad_in = aad_of(associated_data)?;
        Ok(Args {
            par,
            nonce,
            nonce_in,
            data,
            aad_in,
        })
    }

    /// Opens `input` into `out`: read directly when private (an exact
    /// `bytes`, which nothing writes meanwhile), else read once through
    /// the library's copy (another thread may write a bytearray).
    fn open(
        &self,
        nonce: &[u8; GCM_NONCE],
        aad: &[u8],
        input: Input<'_>,
        tag: &[u8],
        out: &mut [u8],
        par: &Parallelism,
    ) -> Result<(), parcrypt::aes::Error> {
        match input {
            Input::Private(b) => self.gcm.open_private_into(nonce, aad, b, tag, out, par),
            Input::Shared(b) => self.gcm.open_into(nonce, aad, b, tag, out, par),
        }
    }

    fn par_for(&self, threads: Option<i64>, strategy: Option<&str>) -> PyResult<Parallelism> {
        match (threads, strategy) {
            (None, None) => Ok(self.par),
            (t, s) => par::parallelism(
                t.or(Some(self.par.threads().get() as i64)),
                s.unwrap_or(self.par.strategy().name()),
            ),
        }
    }
}

#[pymethods]
impl AesGcm {
    /// `AESGCM(key, *, threads=None, strategy="steal")`: the defaults for
    /// every call on this object (each call may override them).
    #[new]
    #[pyo3(signature = (key, *, threads = None, strategy = "steal"))]
    fn new(key: &Bound<'_, PyAny>, threads: Option<i64>, strategy: &str) -> PyResult<Self> {
        let key = In::get(key, "key")?;
        let gcm = Gcm::new(key.as_slice()).map_err(|e| match e {
            parcrypt::aes::Error::KeyLength(n) => PyValueError::new_err(format!(
                "AESGCM key must be 128 or 256 bits (16 or 32 bytes), got {n} bytes"
            )),
            other => PyValueError::new_err(other.to_string()),
        })?;
        Ok(AesGcm {
            gcm,
            par: par::parallelism(threads, strategy)?,
        })
    }

    /// A new random key of `bit_length` (128 or 256) bits, from `os.urandom`.
    #[staticmethod]
    fn generate_key<'py>(py: Python<'py>, bit_length: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let bits: usize = bit_length
            .extract()
            .map_err(|_| PyTypeError::new_err("bit_length must be an integer"))?;
        if bits != 128 && bits != 256 {
            return Err(PyValueError::new_err("bit_length must be 128 or 256"));
        }
        py.import("os")?.call_method1("urandom", (bits / 8,))
    }

    /// Encrypts and authenticates `data` (and `associated_data`, which may
    /// be None): returns ciphertext ‖ tag.
    #[pyo3(signature = (nonce, data, associated_data, *, threads = None, strategy = None))]
    fn encrypt<'py>(
        &self,
        py: Python<'py>,
        nonce: &Bound<'py, PyAny>,
        data: &Bound<'py, PyAny>,
        associated_data: Option<&Bound<'py, PyAny>>,
        threads: Option<i64>,
        strategy: Option<&str>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let args = self.args(nonce, data, associated_data, threads, strategy)?;
        let (par, nonce, aad, data) = (args.par, &args.nonce, args.aad(), &args.data);
        let len = data.len();
        check_length(len)?;
        // Sealed straight from `data` into the new object's storage, part by
        // part on the call's threads, which take its first-touch page faults
        // in parallel: one pass over memory, no copy into it first.
        // SAFETY: the closure writes every byte: `seal_uninit_into` the
        // ciphertext, then the tag.
        unsafe {
            bytes_uninit(py, len + GCM_TAG, |fresh| {
                let (body, slot) = fresh.split_at_mut(len);
                let tag = self.gcm.seal_uninit_into(nonce, aad, data.as_slice(), body, &par);
                for (b, t) in slot.iter_mut().zip(tag) {
                    b.write(t);
                }
                Ok(())
            })
        }
    }

    /// Checks the tag of ciphertext ‖ tag and returns the plaintext; raises
    /// `parcrypt.exceptions.InvalidTag` (and returns nothing) if it does not match.
    #[pyo3(signature = (nonce, data, associated_data, *, threads = None, strategy = None))]
    fn decrypt<'py>(
        &self,
        py: Python<'py>,
        nonce: &Bound<'py, PyAny>,
        data: &Bound<'py, PyAny>,
        associated_data: Option<&Bound<'py, PyAny>>,
        threads: Option<i64>,
        strategy: Option<&str>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let args = self.args(nonce, data, associated_data, threads, strategy)?;
        let (par, nonce, aad) = (args.par, &args.nonce, args.aad());
        let sealed = args.data.as_slice();
        if sealed.len() < GCM_TAG {
            return Err(errors::raise(
                py,
                "InvalidTag",
                "the data is shorter than a tag".into(),
            ));
        }
        let tag = &sealed[sealed.len() - GCM_TAG..];
        let body = args.data.input().slice(..sealed.len() - GCM_TAG);
        // The result is a new bytes object that nobody can see until it is
        // returned (and that is dropped on a wrong tag), so plaintext may be
        // written there before the tag is known. An immutable `bytes` input
        // is read directly; any other is read once through a copy.
        bytes_from(py, &[], body.len(), &par, |out| {
            self.open(nonce, aad, body, tag, out, &par)
                .map_err(|e| Python::attach(|py| errors::aes(py, e)))
        })
    }

    /// Like `encrypt`, writing ciphertext ‖ tag into `buf` (a writable
    /// buffer of exactly len(data) + 16 bytes, which may start where `data`
    /// starts: in place); returns the bytes written.
    #[pyo3(signature = (nonce, data, associated_data, buf, *, threads = None, strategy = None))]
    #[allow(clippy::too_many_arguments)]
    fn encrypt_into(
        &self,
        py: Python<'_>,
        nonce: &Bound<'_, PyAny>,
        data: &Bound<'_, PyAny>,
        associated_data: Option<&Bound<'_, PyAny>>,
        buf: &Bound<'_, PyAny>,
        threads: Option<i64>,
        strategy: Option<&str>,
    ) -> PyResult<usize> {
        let args = self.args(nonce, data, associated_data, threads, strategy)?;
        let (par, nonce, aad, data) = (args.par, &args.nonce, args.aad(), &args.data);
        let len = data.len();
        check_length(len)?;
        let (mut out, in_place) = args.output(buf)?;
        let out = out.as_mut_slice();
        let n = len + GCM_TAG;
        if out.len() != n {
            return Err(PyValueError::new_err(format!(
                "buf must be {n} bytes (len(data) + 16), got {}",
                out.len()
            )));
        }
        let src = if in_place { None } else { Some(data.as_slice()) };
        detach_from(py, n, || {
            let (body, tag) = out.split_at_mut(len);
            tag.copy_from_slice(&match src {
                // Copied part by part by the threads that encrypt it.
                Some(src) => self.gcm.seal_into(nonce, aad, src, body, &par),
                None => self.gcm.seal_in_place(nonce, aad, body, &par),
            });
        });
        Ok(n)
    }

    /// Like `decrypt`, writing the plaintext into `buf` (exactly
    /// len(data) − 16 bytes, which may start where `data` starts); returns
    /// the bytes written. `buf` is unspecified until the call succeeds (it
    /// holds ciphertext and unverified plaintext meanwhile: give a buffer
    /// nobody else reads during the call); on a wrong tag, raises InvalidTag
    /// and `buf` is zeroed. `data` is read once, so a call whose `data`
    /// another thread or process writes meanwhile raises InvalidTag or
    /// returns the plaintext of exactly the bytes authenticated (an
    /// immutable `bytes`, which nothing can write, is read directly,
    /// without that copy: the faster input).
    #[pyo3(signature = (nonce, data, associated_data, buf, *, threads = None, strategy = None))]
    #[allow(clippy::too_many_arguments)]
    fn decrypt_into(
        &self,
        py: Python<'_>,
        nonce: &Bound<'_, PyAny>,
        data: &Bound<'_, PyAny>,
        associated_data: Option<&Bound<'_, PyAny>>,
        buf: &Bound<'_, PyAny>,
        threads: Option<i64>,
        strategy: Option<&str>,
    ) -> PyResult<usize> {
        let args = self.args(nonce, data, associated_data, threads, strategy)?;
        let (par, nonce, aad, data) = (args.par, &args.nonce, args.aad(), &args.data);
        let Some(n) = data.len().checked_sub(GCM_TAG) else {
            return Err(errors::raise(
                py,
                "InvalidTag",
                "the data is shorter than a tag".into(),
            ));
        };
        let (mut out, in_place) = args.output(buf)?;
        // The tag lies past the end of an in-place `buf`: read it first.
        let tag = data.tail::<GCM_TAG>();
        let out = out.as_mut_slice();
        if out.len() != n {
            return Err(PyValueError::new_err(format!(
                "buf must be {n} bytes (len(data) - 16), got {}",
                out.len()
            )));
        }
        let src = if in_place {
            None
        } else {
            Some(data.input().slice(..n))
        };
        // `open_into` reads `src` once, piece by piece, on the threads that
        // decrypt it (no serial copy first), an immutable `bytes` is read
        // directly; both zero `out` on a wrong tag. In place, a wrong tag
        // leaves the ciphertext, zeroed here.
        let opened = detach_from(py, n, || match src {
            Some(src) => self.open(nonce, aad, src, &tag, out, &par),
            None => {
                let r = self.gcm.open_in_place(nonce, aad, out, &tag, &par);
                if r.is_err() {
                    out.fill(0);
                }
                r
            }
        });
        opened.map_err(|e| errors::aes(py, e))?;
        Ok(n)
    }

    fn __repr__(&self) -> String {
        format!(
            "<parcrypt.aead.AESGCM (key redacted), threads={}, strategy={:?}>",
            self.par.threads(),
            self.par.strategy().name()
        )
    }
}

/// GCM's limit on one message: 2³⁶ − 32 bytes.
fn check_length(len: usize) -> PyResult<()> {
    if len as u64 > (1 << 36) - 32 {
        return Err(PyValueError::new_err(
            "data is longer than GCM allows (2**36 - 32 bytes)",
        ));
    }
    Ok(())
}

/// Refuses an argument that shares memory with the output buffer.
fn separate(arg: Option<&In>, buf: &Out, what: &str) -> PyResult<()> {
    match arg.map(|a| sharing(a, buf)) {
        None | Some(Sharing::Disjoint) => Ok(()),
        Some(_) => Err(PyValueError::new_err(format!("{what} overlaps buf"))),
    }
}

/// True for in-place work (`buf` starts where `data` does), false for
/// separate buffers; any other overlap is refused.
pub fn in_place(data: &In, buf: &Out) -> PyResult<bool> {
    match sharing(data, buf) {
        Sharing::Disjoint => Ok(false),
        Sharing::InPlace => Ok(true),
        Sharing::Overlapping => Err(PyValueError::new_err(
            "buf overlaps data without starting where it starts: use separate buffers, or the same one (in place)",
        )),
    }
}
