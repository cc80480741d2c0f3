//! The research application's bulk RSA: a long message cut into chunks, each
//! chunk one RSAES-OAEP block, the blocks spread over threads.
//!
//! This is for study — it reproduces the paper's workload. Blocks are
//! independent: nothing binds them together, so an attacker can drop, reorder
//! or repeat whole blocks undetected, and every block costs a private-key
//! operation. Real data belongs in the `stream` format (a random key wrapped
//! once with RSA-OAEP, the data under AES-GCM).
//!
//! It lives in `hazmat`, above `rsa`, and uses only `rsa`'s public key
//! operations (one OAEP block each) and its capacity rule.
//!
//! Format: the message is cut into chunks of `k − 66` bytes (the OAEP-SHA-256
//! capacity of a `k`-byte modulus), the last one shorter; an empty message is
//! one empty chunk. The output is the concatenation of the `k`-byte blocks.
//! A decryptor rejects a non-final block holding fewer than `k − 66` bytes.

use zeroize::Zeroizing;

use crate::secret::SecretBytes;

use crate::digest::Algorithm;
use crate::par::{Grain, Parallelism};
use crate::rsa::{Error, PrivateKey, PublicKey, oaep_capacity};

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

/// ☠ The message bytes one bulk block of a `key_size`-byte key carries:
/// `key_size − 66` (the OAEP-SHA-256 capacity).
pub fn rsa_bulk_block_capacity(key_size: usize) -> usize {
    oaep_capacity(key_size, Algorithm::Sha256)
}

/// ☠ The number of blocks a `msg_len`-byte message takes (at least one).
pub fn rsa_bulk_blocks(msg_len: usize, key_size: usize) -> usize {
    msg_len.div_ceil(rsa_bulk_block_capacity(key_size).max(1)).max(1)
}

/// ☠ Encrypts a message of any length under `key` as consecutive,
/// independent OAEP blocks, blocks spread over the threads of `par` (the
/// research paper's method). Nothing binds the blocks together: whole
/// blocks can be dropped, reordered or repeated undetected. For real data
/// use the [`stream`](crate::stream) format.
///
/// # Examples
/// ```
/// use parcrypt::hazmat::{rsa_bulk_decrypt, rsa_bulk_encrypt};
/// use parcrypt::keys::SigningKey;
/// use parcrypt::{par::Parallelism, rsa::PrivateKey};
///
/// let par = Parallelism::default();
/// let key = PrivateKey::generate(2048, &par)?;
/// let msg = vec![7u8; 500]; // three 190-byte blocks
/// let ct = rsa_bulk_encrypt(key.public_key(), &msg, &par)?;
/// assert_eq!(ct.len(), 3 * key.size());
/// assert_eq!(rsa_bulk_decrypt(&key, &ct, &par)?.expose(), &msg[..]);
/// # Ok::<(), parcrypt::rsa::Error>(())
/// ```
///
/// # Errors
/// [`Error::Backend`] only.
///
/// # Performance
/// Messages of one block (≤ `size() − 66` bytes) run on the calling thread.
pub fn rsa_bulk_encrypt(key: &PublicKey, msg: &[u8], par: &Parallelism) -> Result<Vec<u8>, Error> {
    let cap = rsa_bulk_block_capacity(key.size());
    let blocks = rsa_bulk_blocks(msg.len(), key.size());
    let parts = par.map_range(blocks, &ENCRYPT_GRAIN, |ids| {
        let mut out = Vec::with_capacity(ids.len() * key.size());
        for i in ids {
            let chunk = &msg[(i * cap).min(msg.len())..((i + 1) * cap).min(msg.len())];
            out.extend_from_slice(&key.encrypt(chunk)?);
        }
        Ok::<_, Error>(out)
    });
    let mut out = Vec::with_capacity(blocks * key.size());
    for part in parts {
        out.extend_from_slice(&part?);
    }
    Ok(out)
}

/// ☠ Decrypts [`rsa_bulk_encrypt`] output. Several blocks are spread over
/// the threads of `par`, each block's private operation on one thread; a
/// single block uses the threads for its two CRT halves instead.
///
/// # Errors
/// [`Error::Decryption`] if the length is not a positive multiple of
/// `size()`, or any block fails to decrypt or is short before the end.
pub fn rsa_bulk_decrypt(
    key: &PrivateKey,
    ciphertext: &[u8],
    par: &Parallelism,
) -> Result<SecretBytes, Error> {
    let k = key.size();
    if ciphertext.is_empty() || ciphertext.len() % k != 0 {
        return Err(Error::Decryption);
    }
    let n = ciphertext.len() / k;
    if n == 1 {
        return key.decrypt(ciphertext, par);
    }
    let cap = rsa_bulk_block_capacity(k);
    let sequential = Parallelism::sequential();
    let parts = par.map_range(n, &DECRYPT_GRAIN, |ids| {
        let mut out = Zeroizing::new(Vec::with_capacity(ids.len() * cap));
        for i in ids {
            let chunk = key.decrypt(&ciphertext[i * k..(i + 1) * k], &sequential)?;
            if i + 1 < n && chunk.len() != cap {
                return Err(Error::Decryption);
            }
            out.extend_from_slice(chunk.expose());
        }
        Ok(out)
    });
    // Room for every block's plaintext, shrunk in place to what the last
    // block held (no copy the wipe would miss).
    let mut out = SecretBytes::zeroed(n * cap);
    let mut len = 0;
    for part in parts {
        let part = part?;
        out.expose_mut()[len..len + part.len()].copy_from_slice(&part);
        len += part.len();
    }
    out.truncate(len);
    Ok(out)
}
