//! Reading Python buffers in place, and releasing the GIL around real work.

use pyo3::buffer::PyUntypedBuffer;
use pyo3::exceptions::{PyBufferError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use std::mem::MaybeUninit;

use parcrypt::io::Input;
use parcrypt::par::{Grain, Parallelism};

/// Inputs from this many bytes on are processed with the GIL released (as
/// `hashlib` and `cryptography` do from 2 KiB).
pub const RELEASE_GIL_FROM: usize = 2048;

/// A read-only view of a C-contiguous buffer-protocol object, exported (so
/// its owner cannot resize or free it) until this value is dropped.
///
/// Like `hashlib` and `cryptography`, a call reads the caller's memory while
/// the GIL is released: another Python thread writing into the same
/// bytearray at that moment gets an unspecified (but memory-safe for Python)
/// result, except that an authenticated decryption given [`In::input`]
/// returns only what it authenticated (or raises).
pub struct In {
    buf: PyUntypedBuffer,
    /// An exact `bytes` object: immutable, so nothing writes it while a
    /// call reads it (a `bytearray`, a memoryview or an array may change).
    immutable: bool,
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
        Ok(In {
            buf,
            immutable: obj.is_exact_instance_of::<PyBytes>(),
        })
    }

    /// The bytes as the library's [`Input`]: private for an exact `bytes`,
    /// shared for anything another thread or process may write during the
    /// call (a `bytearray`, a `memoryview`, a map, a numpy array), which
    /// every authenticated decryption then reads once, through a copy.
    pub fn input(&self) -> Input<'_> {
        Input::new(self.as_slice(), self.immutable)
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

pub use parcrypt::io::Sharing;

/// Whether `input` and `output` share memory, decided from addresses alone
/// (before any Rust reference to either exists), by the library's rule
/// ([`parcrypt::io::sharing`], which the Java binding follows too).
pub fn sharing(input: &In, output: &Out) -> Sharing {
    parcrypt::io::sharing(input.span(), output.span())
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
/// the data (`PyBytes::new_with` zero-fills first); the copy is made by the
/// call's own threads (`par`) from [`FRESH_OUTPUT_FROM`] on (see
/// [`bytes_uninit`]). A call that can write its whole output itself (AES-GCM
/// sealing) uses [`bytes_uninit`] instead and skips the copy.
pub fn bytes_from<'py, F>(
    py: Python<'py>,
    src: &[u8],
    extra: usize,
    par: &Parallelism,
    fill: F,
) -> PyResult<Bound<'py, PyBytes>>
where
    F: FnOnce(&mut [u8]) -> PyResult<()> + Send,
{
    let len = src.len().checked_add(extra).ok_or_else(too_long)?;
    // SAFETY: `fill_fresh` writes every byte of `fresh` before `fill` sees it.
    unsafe {
        bytes_uninit(py, len, |fresh| {
            let out = fill_fresh(fresh, src, par);
            fill(out)
        })
    }
}

/// A new `bytes` of `len` bytes written by `fill` (with the GIL released
/// for large outputs: the object is not visible to any other thread yet),
/// which is given the object's storage uninitialised: no zeroing or copying
/// pass comes before its own.
///
/// A fresh large allocation is untouched memory: its first write takes a
/// page fault per 4 KiB page, which costs as much as a copy. So from
/// [`FRESH_OUTPUT_FROM`] on, the output is advised `MADV_HUGEPAGE` (one
/// fault per 2 MiB where the kernel allows it), and `fill` should write it
/// on the call's threads, each faulting in its own part, rather than on
/// the calling thread alone.
///
/// # Safety
/// `fill`, when it returns `Ok`, must have written every byte of its
/// argument (the object is then handed to Python, which reads them all).
pub unsafe fn bytes_uninit<'py, F>(py: Python<'py>, len: usize, fill: F) -> PyResult<Bound<'py, PyBytes>>
where
    F: FnOnce(&mut [MaybeUninit<u8>]) -> PyResult<()> + Send,
{
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
    if len >= FRESH_OUTPUT_FROM {
        advise_huge_pages(data, len);
    }
    // SAFETY: `data` has room for `len` bytes, owned by `bytes` (alive until
    // we return) and reachable by no one else. They are not initialised yet,
    // so they are handed out as `MaybeUninit`; the caller's contract has
    // `fill` write them all before Python sees them.
    let fresh = unsafe { std::slice::from_raw_parts_mut(data.cast::<MaybeUninit<u8>>(), len) };
    detach_from(py, len, || fill(fresh))?;
    Ok(bytes)
}

/// Outputs from this size on are advised huge pages and first written by
/// the call's threads (see [`bytes_uninit`]).
pub const FRESH_OUTPUT_FROM: usize = 4 << 20;

/// How the first write of a large output is cut between threads: whole
/// huge pages, a few per task.
const FRESH_GRAIN: Grain = Grain {
    unit: 2 << 20,
    min_part: 2 << 20,
    task: 4 << 20,
};

/// Writes `src` and then zeros into `fresh` (parallel from
/// [`FRESH_OUTPUT_FROM`] on) and returns it, now initialised.
fn fill_fresh<'a>(fresh: &'a mut [MaybeUninit<u8>], src: &[u8], par: &Parallelism) -> &'a mut [u8] {
    let write = |offset: usize, part: &mut [MaybeUninit<u8>]| {
        // The part of `src` that lands in this part (none past its end).
        let from = src.get(offset..).unwrap_or_default();
        let from = &from[..from.len().min(part.len())];
        let (head, tail) = part.split_at_mut(from.len());
        // SAFETY: `head` is `from.len()` writable bytes; `from` is the
        // caller's input, which a fresh allocation cannot overlap.
        unsafe { std::ptr::copy_nonoverlapping(from.as_ptr(), head.as_mut_ptr().cast::<u8>(), from.len()) };
        tail.fill(MaybeUninit::new(0));
    };
    if fresh.len() >= FRESH_OUTPUT_FROM {
        par.for_each_mut(fresh, &FRESH_GRAIN, |_, offset, part| write(offset, part));
    } else {
        write(0, fresh);
    }
    // SAFETY: every byte of `fresh` was written above (the parts cover it).
    unsafe { &mut *(std::ptr::from_mut::<[MaybeUninit<u8>]>(fresh) as *mut [u8]) }
}

/// Asks the kernel to back the whole 2 MiB pages inside `[data, data + len)`
/// with huge pages. Advice only: where it is refused (no THP, or THP off),
/// the output is simply faulted in 4 KiB at a time.
#[cfg(target_os = "linux")]
fn advise_huge_pages(data: *mut u8, len: usize) {
    const HUGE: usize = 2 << 20;
    let start = (data as usize).next_multiple_of(HUGE);
    let end = (data as usize + len) / HUGE * HUGE;
    if end > start {
        // SAFETY: `[start, end)` lies inside the output allocation (mapped,
        // ours alone); madvise only changes how it is backed, never its
        // contents, and a refusal is harmless.
        unsafe {
            libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
        }
    }
}

/// Elsewhere (macOS, the BSDs: not built or tested) there is no such
/// advice: the output is faulted in page by page.
#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_data: *mut u8, _len: usize) {}

fn too_long() -> PyErr {
    pyo3::exceptions::PyOverflowError::new_err("output too large")
}
