//! The research application's bulk RSA: a long message cut into chunks, each
//! chunk one RSAES-OAEP block, the blocks spread over threads.
//!
//! This is for study — it reproduces the paper's workload. Blocks are
//! independent: nothing binds them together, so an attacker can drop, reorder
//! or repeat whole blocks undetected, and every block costs a private-key
//! operation. Real data belongs in the `stream` format (a random key wrapped
//! once with RSA-OAEP, the data under AES-GCM).
//!
//! Format: the message is cut into chunks of `k − 66` bytes (the OAEP-SHA-256
//! capacity of a `k`-byte modulus), the last one shorter; an empty message is
//! one empty chunk. The output is the concatenation of the `k`-byte blocks.
//! A decryptor rejects a non-final block holding fewer than `k − 66` bytes.

use zeroize::Zeroizing;

use super::scheme::oaep_capacity;
use super::{Error, Hash, PrivateKey, PublicKey};
use crate::par::{Grain, Parallelism};

/// A public-key block costs ~15 µs (2048 bits): hand out at least two.
const ENCRYPT_GRAIN: Grain = Grain {
    unit: 1,
    min_part: 2,
    task: 4,
};

/// A private-key block costs ~0.7 ms (2048 bits): every block is worth a thread.
const DECRYPT_GRAIN: Grain = Grain {
    unit: 1,
    min_part: 1,
    task: 1,
};

/// The message bytes one bulk block of a `key_size`-byte key carries.
pub fn bulk_block_capacity(key_size: usize) -> usize {
    oaep_capacity(key_size, Hash::Sha256)
}

/// The number of blocks a `msg_len`-byte message takes (at least one).
pub fn bulk_blocks(msg_len: usize, key_size: usize) -> usize {
    msg_len.div_ceil(bulk_block_capacity(key_size).max(1)).max(1)
}

impl PublicKey {
    /// Encrypts a message of any length as consecutive OAEP blocks, blocks
    /// spread over the threads of `par` (the research paper's method; see
    /// the module notes before using it for real data).
    ///
    /// # Errors
    /// [`Error::Backend`] only.
    ///
    /// # Performance
    /// Messages of one block (≤ `size() − 66` bytes) run on the calling thread.
    pub fn encrypt_bulk(&self, msg: &[u8], par: &Parallelism) -> Result<Vec<u8>, Error> {
        let cap = bulk_block_capacity(self.size());
        let blocks = bulk_blocks(msg.len(), self.size());
        let parts = par.map_range(blocks, &ENCRYPT_GRAIN, |ids| {
            let mut out = Vec::with_capacity(ids.len() * self.size());
            for i in ids {
                let chunk = &msg[(i * cap).min(msg.len())..((i + 1) * cap).min(msg.len())];
                out.extend_from_slice(&self.encrypt(chunk)?);
            }
            Ok::<_, Error>(out)
        });
        let mut out = Vec::with_capacity(blocks * self.size());
        for part in parts {
            out.extend_from_slice(&part?);
        }
        Ok(out)
    }
}

impl PrivateKey {
    /// Decrypts [`PublicKey::encrypt_bulk`] output. Several blocks are spread
    /// over the threads of `par`, each block's private operation on one
    /// thread; a single block uses the threads for its two CRT halves instead.
    ///
    /// # Errors
    /// [`Error::Decryption`] if the length is not a positive multiple of
    /// `size()`, or any block fails to decrypt or is short before the end.
    pub fn decrypt_bulk(&self, ciphertext: &[u8], par: &Parallelism) -> Result<Zeroizing<Vec<u8>>, Error> {
        let k = self.size();
        if ciphertext.is_empty() || ciphertext.len() % k != 0 {
            return Err(Error::Decryption);
        }
        let n = ciphertext.len() / k;
        if n == 1 {
            return self.decrypt(ciphertext, par);
        }
        let cap = bulk_block_capacity(k);
        let sequential = Parallelism::sequential();
        let parts = par.map_range(n, &DECRYPT_GRAIN, |ids| {
            let mut out = Zeroizing::new(Vec::with_capacity(ids.len() * cap));
            for i in ids {
                let chunk = self.decrypt(&ciphertext[i * k..(i + 1) * k], &sequential)?;
                if i + 1 < n && chunk.len() != cap {
                    return Err(Error::Decryption);
                }
                out.extend_from_slice(&chunk);
            }
            Ok(out)
        });
        let mut out = Zeroizing::new(Vec::with_capacity(n * cap));
        for part in parts {
            out.extend_from_slice(&part?);
        }
        Ok(out)
    }
}
