//! Direct `ByteBuffer`s, used in place: one input and one output, never
//! two references that alias ([`in_out`]).

use std::marker::PhantomData;
use std::ops::Range;

use jni::JNIEnv;
use jni::objects::JByteBuffer;
use jni::sys::jint;

use crate::*;

/// `len` bytes of a direct `ByteBuffer` from `pos`, held as an address and
/// a length: no Rust reference to them exists until one is asked for. Two
/// of them may cover the same memory (one buffer passed twice, or two views
/// of it), so a call with an input and an output decides how they share it
/// from the addresses alone ([`sharing`]) and makes its references through
/// [`in_out`], never two that alias: a call makes at most an input and an
/// output `Direct`, and uses [`Direct::bytes`] only where it has no output.
///
/// The caller (the Java side) keeps the buffer reachable for the call, and
/// must not let another thread write the same bytes meanwhile (as for any
/// Java array handed to a cipher).
#[derive(Debug)]
pub struct Direct<'b> {
    ptr: *mut u8,
    len: usize,
    /// Borrows the buffer's local reference, which keeps its memory alive.
    _buffer: PhantomData<&'b ()>,
}

impl<'b> Direct<'b> {
    /// Checks that `pos + len` lies within `buf`'s capacity
    /// (`IndexOutOfBoundsException` if not); makes no reference.
    pub fn new(env: &JNIEnv<'_>, buf: &'b JByteBuffer<'_>, pos: jint, len: jint) -> Res<Self> {
        let (pos, len) = (len_of(pos, "position")?, len_of(len, "length")?);
        let address = env.get_direct_buffer_address(buf)?;
        let capacity = env.get_direct_buffer_capacity(buf)?;
        if pos.checked_add(len).is_none_or(|end| end > capacity) {
            return fail(
                "java/lang/IndexOutOfBoundsException",
                format!("{pos} + {len} bytes past a direct buffer of {capacity}"),
            );
        }
        Ok(Direct {
            // In bounds (checked above): `address` is the start of `capacity` bytes.
            ptr: address.wrapping_add(pos),
            len,
            _buffer: PhantomData,
        })
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The addresses the bytes occupy.
    fn span(&self) -> Range<usize> {
        let start = self.ptr as usize;
        start..start + self.len
    }

    /// The bytes, read-only: for a buffer that is a call's only one (a
    /// Merkle tree's input). Where an output may share its memory, use
    /// [`in_out`].
    pub fn bytes(&self) -> &[u8] {
        // SAFETY: the JVM keeps the buffer's memory (non-null, checked by
        // jni-rs) for as long as its local reference lives, which `'b`
        // outlives this borrow; `new` checked the range lies within its
        // capacity. A call with an output makes its views through
        // `in_out` instead (see the type), so no mutable view of these
        // bytes exists.
        unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
    }
}

pub use parcrypt::io::Sharing;

/// Whether `input` and `output` share memory, decided from addresses alone
/// (before any Rust reference to either exists), by the library's rule
/// ([`parcrypt::io::sharing`], which the Python binding follows too).
pub fn sharing(input: &Direct<'_>, output: &Direct<'_>) -> Sharing {
    parcrypt::io::sharing(input.span(), output.span())
}

/// A call's input and output, as Rust references that never alias.
#[derive(Debug)]
pub enum InOut<'a> {
    /// The output starts where the input does: one view, the longer of the
    /// two ranges (the shorter is its front).
    InPlace(&'a mut [u8]),
    /// The input and the output, apart.
    Apart(&'a [u8], &'a mut [u8]),
}

/// The references to `input` and `output` that [`sharing`] allows: one for
/// in-place work, two disjoint ones otherwise; an
/// `IllegalArgumentException` for a partial overlap, before any reference
/// exists.
pub fn in_out<'a>(input: &'a mut Direct<'_>, output: &'a mut Direct<'_>) -> Res<InOut<'a>> {
    match sharing(input, output) {
        Sharing::InPlace => {
            let len = input.len.max(output.len);
            // SAFETY: the longer of two ranges that start at `output.ptr` is
            // live memory of its own buffer (see `Direct::bytes`) and covers
            // the shorter; it is the only reference made to either, and the
            // exclusive borrows of both `Direct`s keep it so.
            Ok(InOut::InPlace(unsafe {
                std::slice::from_raw_parts_mut(output.ptr, len)
            }))
        }
        // SAFETY: both ranges are live memory (see `Direct::bytes`) with no
        // byte in common (an empty one has none), so the shared view of the
        // input and the exclusive one of the output do not alias; the
        // exclusive borrows of both `Direct`s keep these the only views.
        Sharing::Disjoint => Ok(unsafe {
            InOut::Apart(
                std::slice::from_raw_parts(input.ptr, input.len),
                std::slice::from_raw_parts_mut(output.ptr, output.len),
            )
        }),
        Sharing::Overlapping => fail(
            ILLEGAL_ARG,
            "input and output buffers overlap without starting at the same byte: \
             use separate buffers, or the same bytes (in place)",
        ),
    }
}
