//! `decrypt_range`'s source (a bytes-like object in place, a regular file
//! by its descriptor, or a file object read whole) and the range read.

use std::fs::File;
use std::os::fd::BorrowedFd;

use parcrypt::cobblestone::{self, Scheme, Source as Where};
use parcrypt::par::Parallelism;
use pyo3::exceptions::PyOverflowError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use super::err;
use crate::buffer::In;

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
            // Read once, chunk by chunk, unless nothing can write it.
            RangeSource::Bytes(b) => Where::from(b.input()),
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
pub(super) fn range<'py>(
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
