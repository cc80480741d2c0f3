//! Secret bytes: keys and buffers that are wiped when they are dropped and
//! never printed.
//!
//! Every type in parcrypt that holds key material (cipher keys, the GHASH
//! key, stream file keys and passphrases, private keys, the CLI's key
//! buffers) keeps it in a [`SecretKey`] or a [`SecretBytes`], or wipes it
//! with [`wipe`] and writes its own redacted `Debug`. `Debug` of either type
//! prints only the length: `SecretKey<32>(redacted)`, never a byte.
//!
//! # The wipe
//! [`wipe`] is the crate's one way to erase memory. It calls AWS-LC's
//! `OPENSSL_cleanse`: a `memset` followed by a compiler barrier (an empty
//! `asm volatile` with a "memory" clobber that takes the pointer), inside
//! the C library this crate links anyway, out of reach of Rust's optimiser,
//! so the store cannot be removed as dead. It is neither best-effort nor
//! slow — megabyte buffers are wiped at memory speed, where a volatile
//! byte-at-a-time loop (`zeroize`) costs about a cycle per byte. It was the
//! C library's `explicit_bzero(3)` before, which is the same thing but
//! exists only from glibc 2.25: the binaries and wheels `scripts/dist.py`
//! builds run on glibc 2.17 (docs/INSTALL.md).
//!
//! What no wipe can do: copies made before the wipe (a `Vec` that grew and
//! reallocated, registers, swap, core dumps) are out of its reach. The types
//! here never reallocate once built, and callers construct them in place
//! where they can.
//!
//! With `ffi/`, `io/pipe_size.rs`, `io/wait.rs` and `digest/many/`, one
//! of the places in the crate allowed
//! `unsafe` code (one call, below). It is also the one call into
//! `aws-lc-sys` outside `ffi/`: this module sits below `ffi` (which keeps its
//! own secrets here), so it cannot go through it.
#![allow(unsafe_code)]

use std::fmt;

/// Overwrites `bytes` with zeros in a way the compiler may not remove, even
/// when the memory is freed right after.
pub fn wipe(bytes: &mut [u8]) {
    if bytes.is_empty() {
        return;
    }
    // SAFETY: `bytes` is a valid, writable, exclusively borrowed region of
    // exactly `bytes.len()` bytes; OPENSSL_cleanse writes only inside it and
    // keeps no pointer after returning.
    unsafe { aws_lc_sys::OPENSSL_cleanse(bytes.as_mut_ptr().cast(), bytes.len()) };
}

/// Wipes every byte of `v`'s allocation that may have been written (its
/// length), then empties it. The capacity beyond the length was never
/// written through this `Vec`, so it holds nothing to wipe.
pub fn wipe_vec(v: &mut Vec<u8>) {
    wipe(v.as_mut_slice());
    v.clear();
}

/// A fixed-size secret key: wiped on drop, redacted in `Debug`, compared in
/// constant time.
///
/// # Examples
/// ```
/// use parcrypt::secret::SecretKey;
/// let key = SecretKey::<32>::from_slice(&[7u8; 32]).expect("32 bytes");
/// assert_eq!(format!("{key:?}"), "SecretKey<32>(redacted)");
/// assert_eq!(key.expose()[0], 7);
/// ```
#[derive(Clone)]
pub struct SecretKey<const N: usize>(Box<[u8; N]>);

impl<const N: usize> SecretKey<N> {
    /// Takes the bytes of `key`, then wipes `key` (the caller's copy).
    pub fn new(key: &mut [u8; N]) -> Self {
        let mut boxed = Box::new([0u8; N]);
        boxed.copy_from_slice(key);
        wipe(key);
        SecretKey(boxed)
    }

    /// A copy of `bytes` if it is exactly `N` bytes long. The caller still
    /// owns (and should wipe) `bytes`.
    pub fn from_slice(bytes: &[u8]) -> Option<Self> {
        if bytes.len() != N {
            return None;
        }
        let mut boxed = Box::new([0u8; N]);
        boxed.copy_from_slice(bytes);
        Some(SecretKey(boxed))
    }

    /// Fills a new key from `fill` (e.g. a KDF or the OS RNG) in place, so
    /// no copy of it exists outside the key.
    pub fn generate<E>(fill: impl FnOnce(&mut [u8; N]) -> Result<(), E>) -> Result<Self, E> {
        let mut key = SecretKey(Box::new([0u8; N]));
        fill(&mut key.0)?;
        Ok(key)
    }

    /// The key bytes, for handing to the backend. Keep the borrow short and
    /// never copy it into memory that is not wiped.
    pub fn expose(&self) -> &[u8; N] {
        &self.0
    }
}

impl<const N: usize> Drop for SecretKey<N> {
    fn drop(&mut self) {
        wipe(self.0.as_mut_slice());
    }
}

impl<const N: usize> fmt::Debug for SecretKey<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SecretKey<{N}>(redacted)")
    }
}

impl<const N: usize> PartialEq for SecretKey<N> {
    /// Constant time in the key bytes.
    fn eq(&self, other: &Self) -> bool {
        ct_eq(self.expose(), other.expose())
    }
}

impl<const N: usize> Eq for SecretKey<N> {}

/// Secret bytes of any length (passphrases, decoded key files, DER of private
/// keys, decrypted plaintext): wiped on drop, redacted in `Debug`.
///
/// There is no way to grow it, so the bytes are never copied by a
/// reallocation behind the wipe's back; [`SecretBytes::truncate`] shrinks
/// what it exposes without moving them (the whole allocation is wiped on
/// drop).
#[derive(Clone, Default)]
pub struct SecretBytes {
    bytes: Box<[u8]>,
    len: usize,
}

impl SecretBytes {
    /// Takes `bytes` without copying. Its spare capacity (never written
    /// through this `Vec`) is released; the written bytes are wiped on drop.
    pub fn new(bytes: Vec<u8>) -> Self {
        if bytes.len() == bytes.capacity() {
            let len = bytes.len();
            return SecretBytes {
                bytes: bytes.into_boxed_slice(),
                len,
            };
        }
        // `into_boxed_slice` would reallocate (a copy the wipe misses): copy
        // once ourselves and wipe the original.
        let copy = SecretBytes::from(bytes.as_slice());
        let mut bytes = bytes;
        wipe_vec(&mut bytes);
        copy
    }

    /// The bytes. Keep the borrow short.
    pub fn expose(&self) -> &[u8] {
        &self.bytes[..self.len]
    }

    /// The bytes, mutably (for decoding or filling in place).
    pub fn expose_mut(&mut self) -> &mut [u8] {
        &mut self.bytes[..self.len]
    }

    /// `len` zero bytes, to be filled in place with [`Self::expose_mut`].
    pub fn zeroed(len: usize) -> Self {
        SecretBytes {
            bytes: vec![0; len].into_boxed_slice(),
            len,
        }
    }

    /// Keeps the first `len` bytes (no effect if it holds no more): the
    /// rest is wiped now, in place, not copied.
    pub fn truncate(&mut self, len: usize) {
        if len < self.len {
            wipe(&mut self.bytes[len..self.len]);
            self.len = len;
        }
    }

    /// How many bytes it holds (not secret).
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether it holds no bytes.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl From<&[u8]> for SecretBytes {
    fn from(bytes: &[u8]) -> Self {
        SecretBytes {
            bytes: Box::from(bytes),
            len: bytes.len(),
        }
    }
}

impl Drop for SecretBytes {
    fn drop(&mut self) {
        wipe(&mut self.bytes);
    }
}

impl fmt::Debug for SecretBytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SecretBytes({} bytes, redacted)", self.len)
    }
}

impl PartialEq for SecretBytes {
    /// Constant time in the bytes (the lengths are not secret).
    fn eq(&self, other: &Self) -> bool {
        self.len == other.len && ct_eq(self.expose(), other.expose())
    }
}

impl Eq for SecretBytes {}

/// Secret text (a private key's PEM, an age identity or key file): UTF-8
/// [`SecretBytes`], wiped on drop, redacted in `Debug`.
///
/// [`SecretBytes`] and this are the crate's one wiping family for what it
/// returns: every public function that hands out private key bytes or
/// text, a file key or plaintext that a one-shot decryption produced
/// returns one of the two (never a bare `Vec`/`String`, never the zeroize
/// crate's `Zeroizing`, whose `Debug` prints what it holds).
///
/// # Examples
/// ```
/// use parcrypt::secret::SecretString;
/// let s = SecretString::new(String::from("AGE-SECRET-KEY-1…"));
/// assert_eq!(s.expose(), "AGE-SECRET-KEY-1…");
/// assert_eq!(format!("{s:?}"), "SecretString(19 bytes, redacted)");
/// ```
#[derive(Clone, Default, PartialEq, Eq)]
pub struct SecretString(SecretBytes);

impl SecretString {
    /// Takes `text` without copying (as [`SecretBytes::new`]).
    pub fn new(text: String) -> Self {
        SecretString(SecretBytes::new(text.into_bytes()))
    }

    /// The text. Keep the borrow short.
    pub fn expose(&self) -> &str {
        // The bytes came from a `String` and cannot be changed: UTF-8.
        std::str::from_utf8(self.0.expose()).unwrap_or_default()
    }

    /// The text's bytes (for writing them out).
    pub fn expose_bytes(&self) -> &[u8] {
        self.0.expose()
    }

    /// How many bytes it holds (not secret).
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether it holds no text.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl From<&str> for SecretString {
    fn from(text: &str) -> Self {
        SecretString(SecretBytes::from(text.as_bytes()))
    }
}

impl fmt::Debug for SecretString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SecretString({} bytes, redacted)", self.0.len())
    }
}

/// Equality in time independent of where the bytes differ.
fn ct_eq(a: &[u8], b: &[u8]) -> bool {
    aws_lc_rs::constant_time::verify_slices_are_equal(a, b).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wipe_zeroes_exactly_the_slice() {
        let mut v = [0xa5u8; 100];
        wipe(&mut v[10..90]);
        assert!(v[..10].iter().all(|&b| b == 0xa5));
        assert!(v[10..90].iter().all(|&b| b == 0));
        assert!(v[90..].iter().all(|&b| b == 0xa5));
        wipe(&mut []);
    }

    #[test]
    fn new_wipes_the_callers_copy() {
        let mut raw = [0x42u8; 32];
        let key = SecretKey::new(&mut raw);
        assert_eq!(raw, [0; 32]);
        assert_eq!(key.expose(), &[0x42; 32]);
    }

    #[test]
    fn debug_never_shows_a_byte() {
        let key = SecretKey::<16>::from_slice(&[0xab; 16]).expect("16 bytes");
        let bytes = SecretBytes::new(b"correct horse battery staple".to_vec());
        let string = SecretString::new(String::from("correct horse"));
        for text in [
            format!("{string:?}"),
            format!("{string:#?}"),
            format!("{key:?}"),
            format!("{key:#?}"),
            format!("{bytes:?}"),
            format!("{bytes:#?}"),
        ] {
            assert!(!text.contains("ab") && !text.contains("171"), "{text}");
            assert!(!text.contains("horse"), "{text}");
            assert!(text.contains("redacted"), "{text}");
        }
        assert_eq!(format!("{bytes:?}"), "SecretBytes(28 bytes, redacted)");
        assert_eq!(format!("{string:?}"), "SecretString(13 bytes, redacted)");
        assert_eq!(string.expose(), "correct horse");
    }

    #[test]
    fn lengths_and_equality() {
        assert!(SecretKey::<32>::from_slice(&[0; 31]).is_none());
        let a = SecretBytes::from(&b"abc"[..]);
        assert_eq!(a, SecretBytes::new(b"abc".to_vec()));
        assert_ne!(a, SecretBytes::from(&b"abd"[..]));
        assert_ne!(a, SecretBytes::from(&b"ab"[..]));
        let mut with_spare = Vec::with_capacity(64);
        with_spare.extend_from_slice(b"secret");
        let s = SecretBytes::new(with_spare);
        assert_eq!(s.expose(), b"secret");
        assert_eq!(s.len(), 6);
        let mut t = SecretBytes::from(&b"plaintext+pad"[..]);
        t.truncate(9);
        assert_eq!((t.expose(), t.len()), (&b"plaintext"[..], 9));
        assert_eq!(t, SecretBytes::from(&b"plaintext"[..]));
        assert!(t.bytes[9..].iter().all(|&b| b == 0), "the cut tail is wiped");
        t.truncate(20);
        assert_eq!(t.len(), 9);
        let g = SecretKey::<4>::generate(|k| {
            k.copy_from_slice(b"wxyz");
            Ok::<(), ()>(())
        })
        .expect("filled");
        assert_eq!(g.expose(), b"wxyz");
    }
}
