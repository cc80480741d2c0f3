//! A cached SHA-256 state after whole blocks: where every message of a
//! batch starts when they share their first blocks (SLH-DSA-SHA2's
//! `PK.seed ‖ 0^(64−n)` block, the same for every hash of a key).

use sha2::digest::common::hazmat::SerializableState;

use super::driver::H0;

/// SHA-256's state after whole 64-byte blocks (e.g. SLH-DSA's
/// `PK.seed ‖ 0^(64−n)` block): hashing from it skips those blocks in
/// every message of a batch ([`sha256_many_from_into`](super::sha256_many_from_into)).
///
/// Not secret in SLH-DSA (`PK.seed` is public), so it derives `Debug`:
/// do not cache a block of secret bytes in it.
///
/// # Examples
/// ```
/// use parcrypt::digest::{self, Midstate};
///
/// let block = [7u8; 64];
/// let mid = Midstate::new(&block);
/// let messages: [&[u8]; 2] = [b"left", b"right"];
/// let mut out = [[0u8; 32]; 2];
/// digest::sha256_many_from_into(&mid, b"tag", &messages, &mut out);
/// assert_eq!(out[1], digest::sha256(&[&block[..], b"tag", b"right"].concat()));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Midstate {
    /// The chaining value after `blocks` blocks.
    pub(super) state: [u32; 8],
    /// How many blocks were absorbed (the padding's length field counts
    /// them).
    pub(super) blocks: u64,
}

impl Midstate {
    /// The state before any block: hashing from it is plain SHA-256.
    pub(super) const INITIAL: Midstate = Midstate { state: H0, blocks: 0 };

    /// The state after absorbing `blocks`, with RustCrypto `sha2`'s
    /// compression function (SHA-NI, the ARMv8 SHA instructions or portable
    /// code, as `sha2` detects; `PARCRYPT_CPU_MASK` does not reach it).
    ///
    /// # Panics
    /// If `blocks.len()` is not a multiple of 64.
    pub fn new(blocks: &[u8]) -> Self {
        assert!(
            blocks.len() % 64 == 0,
            "a SHA-256 midstate absorbs whole 64-byte blocks, not {} bytes",
            blocks.len()
        );
        let mut state = H0;
        for chunk in blocks.chunks_exact(64) {
            let mut block = [0u8; 64];
            block.copy_from_slice(chunk);
            sha2::block_api::compress256(&mut state, &[block]);
        }
        Midstate {
            state,
            blocks: (blocks.len() / 64) as u64,
        }
    }

    /// How many 64-byte blocks this state has absorbed.
    pub fn blocks(&self) -> u64 {
        self.blocks
    }

    /// A RustCrypto `sha2` hasher in this state: the `sha2` backend hashes
    /// from it, so `sha2` does the padding and the length field (the
    /// reference the kernels are compared with). Built through `sha2`'s
    /// serialized state (`SerializableState`: the eight state words and
    /// the block count, little-endian, then the empty buffer of a fresh
    /// hasher).
    pub(super) fn sha2_hasher(&self) -> sha2::Sha256 {
        let fresh = sha2::Sha256::default();
        let mut serialized = fresh.serialize();
        for (chunk, word) in serialized[..32].chunks_exact_mut(4).zip(self.state) {
            chunk.copy_from_slice(&word.to_le_bytes());
        }
        serialized[32..40].copy_from_slice(&self.blocks.to_le_bytes());
        // Never fails: the core's state is any 40 bytes, the buffer is the
        // fresh hasher's own.
        sha2::Sha256::deserialize(&serialized).unwrap_or(fresh)
    }
}

#[cfg(test)]
mod tests {
    use sha2::Digest as _;

    use super::*;

    #[test]
    fn sha2_hasher_continues_from_the_state() {
        let data: Vec<u8> = (0..300usize).map(|i| (i % 251) as u8).collect();
        for blocks in 0..=3 {
            let mid = Midstate::new(&data[..64 * blocks]);
            assert_eq!(mid.blocks(), blocks as u64);
            for len in [0, 1, 55, 56, 64, 100] {
                let mut h = mid.sha2_hasher();
                h.update(&data[64 * blocks..][..len]);
                let got: [u8; 32] = h.finalize().into();
                assert_eq!(
                    got,
                    crate::digest::sha256(&data[..64 * blocks + len]),
                    "{blocks} blocks, {len}"
                );
            }
        }
        assert_eq!(Midstate::new(&[]), Midstate::INITIAL);
    }

    #[test]
    #[should_panic(expected = "whole 64-byte blocks")]
    fn partial_blocks_are_refused() {
        let _ = Midstate::new(&[0; 65]);
    }
}
