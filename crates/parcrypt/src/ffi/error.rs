//! How AWS-LC failures reach Rust: one opaque [`BackendError`], and the
//! two checks that turn C return values into it (clearing AWS-LC's
//! thread-local error queue, so a failure never leaks into a later call).
#![allow(unsafe_code)]

use std::os::raw::c_int;
use std::ptr::NonNull;

use aws_lc_sys as sys;

/// An AWS-LC operation failed (out of memory, or an input outside what the
/// function accepts — callers check their inputs, so this is not expected).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct BackendError;

pub(crate) type Result<T> = std::result::Result<T, BackendError>;

pub(super) fn check(ok: c_int) -> Result<()> {
    if ok == 1 {
        Ok(())
    } else {
        // SAFETY: clears this thread's error queue; no preconditions.
        unsafe { sys::ERR_clear_error() };
        Err(BackendError)
    }
}

pub(super) fn non_null<T>(p: *mut T) -> Result<NonNull<T>> {
    NonNull::new(p).ok_or_else(|| {
        // SAFETY: as in `check`.
        unsafe { sys::ERR_clear_error() };
        BackendError
    })
}
