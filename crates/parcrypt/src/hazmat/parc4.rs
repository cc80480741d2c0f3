//! PARC4: the PARC4 paper's block-parallel RC4, made well-defined.
//!
//! The paper encrypts each fixed-size block with RC4 under the *same* key,
//! which repeats the keystream in every block. PARC4 gives every block its own
//! key and drops RC4's weakest early output (the construction, as
//! src/hazmat/README.md publishes it with its vectors):
//!
//! ```text
//! K_b   = HKDF-SHA256(ikm = key, salt = nonce, info = "parcrypt parc4 v1" ‖ be64(b)), 32 bytes
//! C[b]  = P[b] ⊕ RC4(K_b)[3072 ..]          for block b = 0, 1, 2, … of `block_size` bytes
//! ```
//!
//! A test vector (from `tests/data/parc4_vectors.txt`): key `20 21 … 3f`
//! (32 bytes), nonce `f0e1d2c3b4a5968778695a4b3c2d1e0f`, 16-byte blocks,
//! plaintext `00 01 … 10` (17 bytes, two blocks):
//!
//! ```
//! use parcrypt::{hazmat::Parc4, par::Parallelism};
//! let key: Vec<u8> = (0x20..0x40).collect();
//! let nonce = [0xf0, 0xe1, 0xd2, 0xc3, 0xb4, 0xa5, 0x96, 0x87, 0x78, 0x69, 0x5a, 0x4b, 0x3c, 0x2d, 0x1e, 0x0f];
//! let mut data: Vec<u8> = (0..17).collect();
//! Parc4::new(&key, &nonce, 16)?.apply_keystream_in_place(0, &mut data, &Parallelism::default());
//! let expected = [
//!     0xcd, 0x60, 0x21, 0x58, 0x1a, 0x7c, 0x1d, 0x0c, 0xad, 0xe4, 0x1e, 0x99, 0x51, 0x0e, 0xd6, 0x09, 0xf4,
//! ];
//! assert_eq!(data, expected);
//! # Ok::<(), parcrypt::hazmat::Rc4Error>(())
//! ```
//!
//! Blocks are independent, so any cut on block boundaries parallelizes;
//! output does not depend on the thread count or strategy. It is still RC4:
//! unauthenticated and biased. Test vectors: `tests/data/parc4_vectors.txt`,
//! made by the independent Python reference `tests/rc4_parc4_reference.py`.

use std::fs::File;
use std::io::{Read, Write};

use aws_lc_rs::hkdf::{HKDF_SHA256, KeyType, Prk, Salt};

use super::Rc4Error;
use crate::ffi::Rc4State;
use crate::par::{Grain, Parallelism};
use crate::pipe::Transform;
use crate::secret::wipe;

/// The default block size: 64 KiB.
pub const PARC4_DEFAULT_BLOCK_SIZE: usize = 64 * 1024;
/// The largest block size: a stream is processed in whole blocks, a few
/// buffers of at least one block each, so this bounds memory (and larger
/// blocks buy nothing: a block's keystream is serial).
pub const PARC4_MAX_BLOCK_SIZE: usize = 16 << 20;
/// Keystream bytes dropped at the start of every block's RC4.
pub const PARC4_DROP: usize = 3072;
/// The HKDF `info` prefix; the big-endian 64-bit block index follows.
pub const PARC4_INFO: &[u8] = b"parcrypt parc4 v1";
/// Accepted key lengths (the HKDF input): 128 to 2048 bits.
pub const PARC4_KEY_LEN: std::ops::RangeInclusive<usize> = 16..=256;
/// Accepted nonce lengths (the HKDF salt).
pub const PARC4_NONCE_LEN: std::ops::RangeInclusive<usize> = 8..=64;

/// ☠ PARC4 (hazmat): block-parallel RC4 with a per-block key.
///
/// # Examples
/// ```
/// use parcrypt::{hazmat::Parc4, par::Parallelism};
/// let parc4 = Parc4::new(&[7; 32], &[1; 16], 4096)?;
/// let mut data = vec![0u8; 10_000];
/// parc4.apply_keystream_in_place(0, &mut data, &Parallelism::default());
/// parc4.apply_keystream_in_place(0, &mut data, &Parallelism::sequential());
/// assert!(data.iter().all(|&b| b == 0));
/// # Ok::<(), parcrypt::hazmat::Rc4Error>(())
/// ```
///
/// # Performance
/// Each block costs an HKDF expansion, an RC4 key schedule and 3072 dropped
/// bytes (a few µs) before its first byte: blocks of a few KiB and up amortize
/// that; the paper's 32-byte blocks spend almost all their time there.
pub struct Parc4 {
    prk: Prk,
    block_size: usize,
}

impl std::fmt::Debug for Parc4 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Parc4")
            .field("block_size", &self.block_size)
            .finish_non_exhaustive()
    }
}

/// The 32-byte length of each block key, as HKDF wants it.
struct BlockKeyLen;

impl KeyType for BlockKeyLen {
    fn len(&self) -> usize {
        32
    }
}

impl Parc4 {
    /// Derives the message's HKDF PRK from `key` and `nonce`.
    ///
    /// # Errors
    /// [`Rc4Error::KeyLength`] (16–256 bytes), [`Rc4Error::NonceLength`]
    /// (8–64 bytes), [`Rc4Error::BlockSize`] for a block size of 0 or over
    /// [`PARC4_MAX_BLOCK_SIZE`].
    pub fn new(key: &[u8], nonce: &[u8], block_size: usize) -> Result<Self, Rc4Error> {
        if !PARC4_KEY_LEN.contains(&key.len()) {
            return Err(Rc4Error::KeyLength(key.len()));
        }
        if !PARC4_NONCE_LEN.contains(&nonce.len()) {
            return Err(Rc4Error::NonceLength(nonce.len()));
        }
        if !(1..=PARC4_MAX_BLOCK_SIZE).contains(&block_size) {
            return Err(Rc4Error::BlockSize);
        }
        Ok(Parc4 {
            prk: Salt::new(HKDF_SHA256, nonce).extract(key),
            block_size,
        })
    }

    /// The block size in bytes.
    pub fn block_size(&self) -> usize {
        self.block_size
    }

    /// XORs the keystream for message bytes `offset ..` into `data`, in
    /// place: any offset (0 for the start of the message), so a stream can
    /// be processed in pieces — the offset plays the part of
    /// [`Ctr::apply_keystream_in_place`](crate::aes::Ctr::apply_keystream_in_place)'s
    /// counter block.
    pub fn apply_keystream_in_place(&self, offset: u64, data: &mut [u8], par: &Parallelism) {
        let bs = self.block_size as u64;
        // Up to the next block boundary on the calling thread; whole blocks in parallel.
        let head = (((bs - offset % bs) % bs) as usize).min(data.len());
        let (first, rest) = data.split_at_mut(head);
        if !first.is_empty() {
            self.apply_block(offset / bs, (offset % bs) as usize, first);
        }
        let first_block = (offset + head as u64) / bs;
        let grain = Grain {
            unit: self.block_size,
            min_part: 64 * 1024,
            task: 256 * 1024,
        };
        let bs = self.block_size;
        par.for_each_mut(rest, &grain, |_, at, part| {
            for (i, block) in part.chunks_mut(bs).enumerate() {
                self.apply_block(first_block + (at / bs + i) as u64, 0, block);
            }
        });
    }

    /// One block (or its tail from `skip` on): derive K_b, run RC4, drop
    /// 3072 + `skip` bytes, XOR.
    fn apply_block(&self, b: u64, skip: usize, data: &mut [u8]) {
        // K_b and the dropped keystream live on the stack (no allocation per
        // block) and are wiped as soon as they are used; the RC4 state wipes
        // itself on drop.
        let mut key = [0u8; 32];
        let index = b.to_be_bytes();
        let info: [&[u8]; 2] = [PARC4_INFO, &index];
        self.prk
            .expand(&info, BlockKeyLen)
            .and_then(|okm| okm.fill(&mut key))
            .expect("HKDF-SHA256 expanding to 32 bytes");
        let mut rc4 = Rc4State::new(&key);
        wipe(&mut key);
        let mut scratch = [0u8; 1024];
        let mut discard = PARC4_DROP + skip;
        while discard > 0 {
            let n = discard.min(scratch.len());
            rc4.apply(&mut scratch[..n]);
            discard -= n;
        }
        wipe(&mut scratch);
        rc4.apply(data);
    }

    /// Streams `input` to `output` from the start of the message, blocks in
    /// parallel, reading and writing overlapped. Returns the bytes written.
    ///
    /// # Errors
    /// [`Rc4Error::Io`].
    pub fn process(
        &self,
        input: impl Read + Send,
        output: impl Write + Send,
        par: &Parallelism,
    ) -> Result<u64, Rc4Error> {
        self.process_with(input, output, crate::aes::buffer_for(par), par, |_| {})
    }

    /// [`Parc4::process`] with a buffer size (rounded up to whole blocks) and
    /// a progress callback.
    ///
    /// # Errors
    /// [`Rc4Error::Io`].
    pub fn process_with(
        &self,
        input: impl Read + Send,
        output: impl Write + Send,
        buffer: usize,
        par: &Parallelism,
        progress: impl FnMut(u64),
    ) -> Result<u64, Rc4Error> {
        crate::pipe::run(self.start(), input, output, buffer, par, progress)
    }

    /// [`Parc4::process_with`] for an open file: a regular file is read
    /// whole from its start, each buffer by all threads with positional
    /// reads, as
    /// [`Crypter::process_file_with`](crate::aes::Crypter::process_file_with)
    /// reads it.
    ///
    /// # Errors
    /// [`Rc4Error::Io`].
    pub fn process_file_with(
        &self,
        file: &File,
        output: impl Write + Send,
        buffer: usize,
        par: &Parallelism,
        progress: impl FnMut(u64),
    ) -> Result<u64, Rc4Error> {
        crate::pipe::run_file(self.start(), &[], file, output, buffer, par, progress)
    }

    /// The message from its first byte, for the pipeline.
    fn start(&self) -> Parc4Stream<'_> {
        Parc4Stream {
            cipher: self,
            offset: 0,
        }
    }
}

/// A position in a PARC4 message.
struct Parc4Stream<'a> {
    cipher: &'a Parc4,
    offset: u64,
}

impl Transform for Parc4Stream<'_> {
    type Error = Rc4Error;

    fn unit(&self) -> usize {
        self.cipher.block_size
    }

    fn hold_back(&self, _len: usize) -> usize {
        0
    }

    fn apply(&mut self, data: &mut [u8], par: &Parallelism) {
        self.cipher.apply_keystream_in_place(self.offset, data, par);
        self.offset += data.len() as u64;
    }

    fn finish(self, _tail: &[u8]) -> Result<Vec<u8>, Rc4Error> {
        Ok(Vec::new())
    }
}
