//! Reading Python buffers in place, and releasing the GIL around real work.

use pyo3::buffer::PyUntypedBuffer;
use pyo3::exceptions::{PyBufferError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

/// Inputs from this many bytes on are processed with the GIL released (as
/// `hashlib` and `cryptography` do from 2 KiB).
pub const RELEASE_GIL_FROM: usize = 2048;

/// A read-only view of a C-contiguous buffer-protocol object, exported (so
/// its owner cannot resize or free it) until this value is dropped.
///
/// Like `hashlib` and `cryptography`, a call reads the caller's memory while
/// the GIL is released: another Python thread writing into the same
/// bytearray at that moment gets an unspecified (but memory-safe for Python)
/// result.
pub struct In {
    buf: PyUntypedBuffer,
}

impl In {
    /// Exports `obj`'s buffer; `what` names the argument in errors.
    pub fn get(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Self> {
        let buf = PyUntypedBuffer::get(obj).map_err(|_| {
            let kind = obj.get_type().name().map(|n| n.to_string()).unwrap_or_default();
            PyTypeError::new_err(format!(
                "{what} must be a bytes-like object (bytes, bytearray, memoryview, numpy array), not {kind}"
            ))
        })?;
        if !buf.is_c_contiguous() {
            return Err(PyBufferError::new_err(format!(
                "{what} must be C-contiguous: copy it first (bytes(view) or numpy.ascontiguousarray)"
            )));
        }
        Ok(In { buf })
    }

    /// The bytes.
    pub fn as_slice(&self) -> &[u8] {
        let len = self.buf.len_bytes();
        if len == 0 {
            return &[];
        }
        // SAFETY: the buffer is exported for as long as `self` lives (the
        // exporter may not free or resize it), C-contiguous (checked in
        // `get`), and `len_bytes` long starting at `buf_ptr`, which is
        // non-null for a non-empty buffer.
        unsafe { std::slice::from_raw_parts(self.buf.buf_ptr().cast::<u8>(), len) }
    }

    pub fn len(&self) -> usize {
        self.buf.len_bytes()
    }

    fn span(&self) -> std::ops::Range<usize> {
        let start = self.buf.buf_ptr() as usize;
        start..start + self.buf.len_bytes()
    }

    /// A copy of the last `N` bytes (the caller checked `len() >= N`), read
    /// without making a reference to the whole buffer.
    pub fn tail<const N: usize>(&self) -> [u8; N] {
        let len = self.len();
        assert!(len >= N, "tail of a short buffer");
        let mut t = [0u8; N];
        // SAFETY: the buffer is exported and `len` bytes long, so its last
        // `N` bytes are readable; `t` is a separate local.
        unsafe {
            std::ptr::copy_nonoverlapping(self.buf.buf_ptr().cast::<u8>().add(len - N), t.as_mut_ptr(), N)
        }
        t
    }
}

/// The bytes, so that a slice of buffers is the library's Merkle `Leaves`.
impl AsRef<[u8]> for In {
    fn as_ref(&self) -> &[u8] {
        self.as_slice()
    }
}

/// How an input and an output buffer share memory.
#[derive(Debug, PartialEq, Eq)]
pub enum Sharing {
    /// No byte in common.
    Disjoint,
    /// Both start at the same address: in-place processing.
    InPlace,
    /// Any other overlap, which no call accepts.
    Overlapping,
}

/// Whether `input` and `output` share memory, decided from addresses alone
/// (before any Rust reference to either exists).
pub fn sharing(input: &In, output: &Out) -> Sharing {
    let (a, b) = (input.span(), output.span());
    if a.is_empty() || b.is_empty() || a.end <= b.start || b.end <= a.start {
        Sharing::Disjoint
    } else if a.start == b.start {
        Sharing::InPlace
    } else {
        Sharing::Overlapping
    }
}

/// A writable view of a C-contiguous, writable buffer (`update_into`'s
/// output), exported until dropped.
pub struct Out {
    buf: PyUntypedBuffer,
}

impl Out {
    pub fn get(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Self> {
        let buf = PyUntypedBuffer::get(obj)
            .map_err(|_| PyTypeError::new_err(format!("{what} must be a writable bytes-like object")))?;
        if buf.readonly() {
            return Err(PyTypeError::new_err(format!(
                "{what} is read-only: pass a bytearray, a writable memoryview or numpy array"
            )));
        }
        if !buf.is_c_contiguous() {
            return Err(PyBufferError::new_err(format!("{what} must be C-contiguous")));
        }
        Ok(Out { buf })
    }

    pub fn as_mut_slice(&mut self) -> &mut [u8] {
        let len = self.buf.len_bytes();
        if len == 0 {
            return &mut [];
        }
        // SAFETY: as for `In::as_slice`, and the buffer is writable
        // (checked in `get`); `&mut self` makes this the only Rust view.
        unsafe { std::slice::from_raw_parts_mut(self.buf.buf_ptr().cast::<u8>(), len) }
    }

    fn span(&self) -> std::ops::Range<usize> {
        let start = self.buf.buf_ptr() as usize;
        start..start + self.buf.len_bytes()
    }
}

/// Runs `f` with the GIL released when `len` is at least [`RELEASE_GIL_FROM`].
pub fn detach_from<T, F>(py: Python<'_>, len: usize, f: F) -> T
where
    F: FnOnce() -> T + Send,
    T: Send,
{
    if len >= RELEASE_GIL_FROM {
        py.detach(f)
    } else {
        f()
    }
}

/// A new `bytes` holding `src` followed by `extra` zero bytes, then changed
/// in place by `fill` (with the GIL released for large outputs: the object is
/// not visible to any other thread yet). One copy, no zero-filling pass over
/// the data (`PyBytes::new_with` zero-fills first).
pub fn bytes_from<'py, F>(py: Python<'py>, src: &[u8], extra: usize, fill: F) -> PyResult<Bound<'py, PyBytes>>
where
    F: FnOnce(&mut [u8]) -> PyResult<()> + Send,
{
    let len = src.len().checked_add(extra).ok_or_else(too_long)?;
    let size = isize::try_from(len).map_err(|_| too_long())?;
    // SAFETY: a NULL source asks CPython for a new bytes object of `size`
    // uninitialised bytes; it returns a new reference, or NULL with an
    // exception set (which `from_owned_ptr_or_err` turns into the error).
    let object = unsafe {
        Bound::from_owned_ptr_or_err(py, pyo3::ffi::PyBytes_FromStringAndSize(std::ptr::null(), size))?
    };
    let bytes = object.cast_into::<PyBytes>()?;
    // SAFETY: `bytes` is a bytes object; its storage is `len` bytes (plus a
    // NUL) owned by it and reachable by no one else until we return it.
    let data = unsafe { pyo3::ffi::PyBytes_AsString(bytes.as_ptr()) }.cast::<u8>();
    // SAFETY: `data` has room for `len` = `src.len() + extra` bytes, and does
    // not overlap `src` (a fresh allocation). After these two writes all
    // `len` bytes are initialised, so the slice below is valid.
    let out = unsafe {
        std::ptr::copy_nonoverlapping(src.as_ptr(), data, src.len());
        std::ptr::write_bytes(data.add(src.len()), 0, extra);
        std::slice::from_raw_parts_mut(data, len)
    };
    detach_from(py, len, || fill(out))?;
    Ok(bytes)
}

fn too_long() -> PyErr {
    pyo3::exceptions::PyOverflowError::new_err("output too large")
}
