//! A caller's buffer as a call reads it: whether anyone else may write it
//! meanwhile ([`Input`]), and how an input and an output buffer share
//! memory ([`sharing`]). The one place these rules are decided: the Python
//! and Java bindings describe their buffers here, and every authenticated
//! decryption reads an [`Input::Shared`] once, through a private copy.

use std::ops::Range;
use std::slice::SliceIndex;

/// The bytes a call reads, and whether others may write them until it
/// returns.
///
/// An AEAD's open reads its input twice (AWS-LC: once to authenticate it,
/// once to decrypt it, unless its stitched code does both in one pass), so
/// opening bytes that change in between could return a plaintext other
/// than the one the tag authenticated. Every authenticated decryption in
/// the crate that takes an `Input` therefore copies a [`Input::Shared`]
/// one into private memory a piece at a time (AES-GCM: an L1-sized piece;
/// the chunked formats: a chunk) and opens the copy, so that what it
/// returns is the plaintext of exactly the bytes it authenticated, or an
/// error. A [`Input::Private`] one is read in place.
///
/// A `&[u8]` converts into `Private`: Rust's borrow promises that nobody
/// writes it while the call holds it. Memory that Rust does not own — a
/// Python `bytearray`, `memoryview` or map, a Java array or `ByteBuffer`,
/// a shared file mapping — must be handed over as `Shared` unless it is
/// immutable (Python's `bytes`) or a private copy (a JNI copy).
#[derive(Clone, Copy)]
pub enum Input<'a> {
    /// Nobody writes these bytes until the call returns: read in place.
    Private(&'a [u8]),
    /// Others may write these bytes during the call: read once, through a
    /// private copy.
    Shared(&'a [u8]),
}

impl<'a> Input<'a> {
    /// The bytes of a caller's buffer: [`Input::Private`] if `private`
    /// (immutable, or a copy of the call's own), else [`Input::Shared`].
    pub fn new(bytes: &'a [u8], private: bool) -> Input<'a> {
        if private {
            Input::Private(bytes)
        } else {
            Input::Shared(bytes)
        }
    }

    /// The bytes. A `Shared` input's may change while they are read: read
    /// them once, into memory of your own, before anything depends on them
    /// twice.
    pub fn bytes(self) -> &'a [u8] {
        match self {
            Input::Private(b) | Input::Shared(b) => b,
        }
    }

    /// Whether others may write the bytes during the call.
    pub fn is_shared(self) -> bool {
        matches!(self, Input::Shared(_))
    }

    /// How many bytes.
    pub fn len(self) -> usize {
        self.bytes().len()
    }

    /// Whether there are no bytes.
    pub fn is_empty(self) -> bool {
        self.bytes().is_empty()
    }

    /// The same kind of input over part of the bytes.
    ///
    /// # Panics
    /// If `range` is out of bounds.
    pub fn slice<R: SliceIndex<[u8], Output = [u8]>>(self, range: R) -> Input<'a> {
        match self {
            Input::Private(b) => Input::Private(&b[range]),
            Input::Shared(b) => Input::Shared(&b[range]),
        }
    }

    /// The first `N` bytes, copied (each read once), if there are as many.
    pub fn head<const N: usize>(self) -> Option<[u8; N]> {
        self.bytes().get(..N)?.try_into().ok()
    }
}

/// The kind and the length only: the bytes may be anything.
impl std::fmt::Debug for Input<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kind = if self.is_shared() { "Shared" } else { "Private" };
        write!(f, "Input::{kind}({} bytes)", self.len())
    }
}

impl<'a> From<&'a [u8]> for Input<'a> {
    fn from(bytes: &'a [u8]) -> Self {
        Input::Private(bytes)
    }
}

impl<'a> From<&'a Vec<u8>> for Input<'a> {
    fn from(bytes: &'a Vec<u8>) -> Self {
        Input::Private(bytes)
    }
}

impl<'a, const N: usize> From<&'a [u8; N]> for Input<'a> {
    fn from(bytes: &'a [u8; N]) -> Self {
        Input::Private(bytes)
    }
}

/// How an input and an output buffer share memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sharing {
    /// No byte in common (or one of them empty).
    Disjoint,
    /// Both start at the same address: in-place processing.
    InPlace,
    /// Any other overlap, which no call accepts as it is.
    Overlapping,
}

/// How the buffers at addresses `input` and `output` share memory, decided
/// from the addresses alone (before any Rust reference to either exists).
/// Also right for two ranges of indices into one array.
pub fn sharing(input: Range<usize>, output: Range<usize>) -> Sharing {
    let (a, b) = (input, output);
    if a.is_empty() || b.is_empty() || a.end <= b.start || b.end <= a.start {
        Sharing::Disjoint
    } else if a.start == b.start {
        Sharing::InPlace
    } else {
        Sharing::Overlapping
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sharing_is_decided_from_the_ranges() {
        assert_eq!(sharing(0..10, 10..20), Sharing::Disjoint);
        assert_eq!(sharing(10..20, 0..10), Sharing::Disjoint);
        assert_eq!(sharing(5..5, 0..10), Sharing::Disjoint);
        assert_eq!(sharing(0..10, 0..4), Sharing::InPlace);
        assert_eq!(sharing(0..10, 0..16), Sharing::InPlace);
        assert_eq!(sharing(0..10, 9..12), Sharing::Overlapping);
        assert_eq!(sharing(3..10, 0..4), Sharing::Overlapping);
    }

    #[test]
    fn an_input_keeps_its_kind_when_sliced() {
        let bytes = [1u8, 2, 3, 4];
        let shared = Input::new(&bytes, false);
        assert!(shared.is_shared() && shared.slice(1..).is_shared());
        assert_eq!(shared.slice(1..3).bytes(), &[2, 3]);
        assert!(!Input::from(&bytes).slice(..2).is_shared());
        assert_eq!(shared.head::<2>(), Some([1, 2]));
        assert_eq!(shared.head::<5>(), None);
        assert_eq!(format!("{shared:?}"), "Input::Shared(4 bytes)");
    }
}
