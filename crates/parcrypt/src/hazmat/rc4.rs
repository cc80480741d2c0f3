//! RC4, the standard keystream (RFC 6229 vectors). Broken: its keystream is
//! biased and related keys leak. For compatibility and study only.

use std::fs::File;
use std::io::{Read, Write};

use super::Rc4Error;
use crate::ffi::Rc4State;
use crate::par::Parallelism;
use crate::pipe::Transform;

/// Shortest and longest RC4 keys accepted: 40 to 2048 bits.
pub const RC4_KEY_LEN: std::ops::RangeInclusive<usize> = 5..=256;

/// ☠ RC4 (AWS-LC's implementation). Sequential by nature: the state after
/// byte *i* depends on every byte before it, so there is nothing to split.
/// See [`super::Parc4`] for a block-parallel construction.
///
/// # Examples
/// ```
/// use parcrypt::hazmat::Rc4;
/// let mut ks = [0u8; 16];
/// Rc4::new(&[1, 2, 3, 4, 5])?.apply_keystream_in_place(&mut ks);
/// assert_eq!(ks[..4], [0xb2, 0x39, 0x63, 0x05]); // RFC 6229, offset 0
/// # Ok::<(), parcrypt::hazmat::Rc4Error>(())
/// ```
pub struct Rc4 {
    state: Rc4State,
}

impl std::fmt::Debug for Rc4 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Rc4").finish_non_exhaustive()
    }
}

impl Rc4 {
    /// Runs the key schedule for a 5–256-byte key.
    ///
    /// # Errors
    /// [`Rc4Error::KeyLength`] for any other length.
    pub fn new(key: &[u8]) -> Result<Self, Rc4Error> {
        if !RC4_KEY_LEN.contains(&key.len()) {
            return Err(Rc4Error::KeyLength(key.len()));
        }
        Ok(Rc4 {
            state: Rc4State::new(key),
        })
    }

    /// XORs the next `data.len()` keystream bytes into `data`, in place.
    ///
    /// Where [`Parc4::apply_keystream_in_place`](super::Parc4::apply_keystream_in_place)
    /// takes an offset and a [`Parallelism`], this takes neither: RC4's
    /// position in its keystream is its state (`&mut self`), and each byte
    /// depends on every one before it, so there is nothing to seek or split.
    pub fn apply_keystream_in_place(&mut self, data: &mut [u8]) {
        self.state.apply(data);
    }

    /// Streams `input` to `output` (reading and writing overlap the cipher),
    /// continuing the keystream from where this `Rc4` stands. Returns the
    /// bytes written.
    ///
    /// Shaped as [`Parc4::process`](super::Parc4::process), with two
    /// differences RC4 imposes: `&mut self`, because the keystream position
    /// is the cipher's state, and no [`Parallelism`], because each byte
    /// depends on all earlier state (the reading and writing threads are
    /// the pipeline's own).
    ///
    /// # Errors
    /// [`Rc4Error::Io`].
    pub fn process(&mut self, input: impl Read + Send, output: impl Write + Send) -> Result<u64, Rc4Error> {
        self.process_with(input, output, crate::aes::DEFAULT_BUFFER, |_| {})
    }

    /// [`Rc4::process`] with a buffer size and a progress callback.
    ///
    /// # Errors
    /// [`Rc4Error::Io`].
    pub fn process_with(
        &mut self,
        input: impl Read + Send,
        output: impl Write + Send,
        buffer: usize,
        progress: impl FnMut(u64),
    ) -> Result<u64, Rc4Error> {
        crate::pipe::run(self, input, output, buffer, &Parallelism::sequential(), progress)
    }

    /// [`Rc4::process_with`] for an open file: a regular file is read
    /// whole from its start with positional reads, as
    /// [`Crypter::process_file_with`](crate::aes::Crypter::process_file_with)
    /// reads it on one thread (a reader thread reads ahead; RC4 itself is serial).
    ///
    /// # Errors
    /// [`Rc4Error::Io`].
    pub fn process_file_with(
        &mut self,
        file: &File,
        output: impl Write + Send,
        buffer: usize,
        progress: impl FnMut(u64),
    ) -> Result<u64, Rc4Error> {
        crate::pipe::run_file(
            self,
            &[],
            file,
            output,
            buffer,
            &Parallelism::sequential(),
            progress,
        )
    }
}

/// The pipeline drives a borrowed `Rc4`, which keeps its keystream position
/// afterwards.
impl Transform for &mut Rc4 {
    type Error = Rc4Error;

    fn unit(&self) -> usize {
        1
    }

    fn hold_back(&self, _len: usize) -> usize {
        0
    }

    fn apply(&mut self, data: &mut [u8], _par: &Parallelism) {
        self.apply_keystream_in_place(data);
    }

    fn finish(self, _tail: &[u8]) -> Result<Vec<u8>, Rc4Error> {
        Ok(Vec::new())
    }
}
