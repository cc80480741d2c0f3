use aws_lc_rs::cipher::{EncryptingKey, EncryptionContext};

use super::{BLOCK, Error, GRAIN, unbound};
use crate::par::Parallelism;

/// AES-CTR with a 128-bit big-endian counter, as NIST SP 800-38A and OpenSSL
/// define it: the whole 16-byte block is the counter and wraps modulo 2¹²⁸.
///
/// # Examples
/// ```
/// use parcrypt::{aes::Ctr, par::Parallelism};
/// let ctr = Ctr::new(&[7u8; 32])?;
/// let mut data = b"attack at dawn".to_vec();
/// ctr.apply_keystream(&[0u8; 16], &mut data, &Parallelism::default());
/// ctr.apply_keystream(&[0u8; 16], &mut data, &Parallelism::sequential());
/// assert_eq!(data, b"attack at dawn");
/// # Ok::<(), parcrypt::aes::Error>(())
/// ```
pub struct Ctr {
    key: EncryptingKey,
    key_bits: usize,
}

impl std::fmt::Debug for Ctr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ctr")
            .field("key_bits", &self.key_bits)
            .finish_non_exhaustive()
    }
}

impl Ctr {
    /// Expands `key` (16, 24 or 32 bytes). The schedule is wiped on drop.
    ///
    /// # Errors
    /// [`Error::KeyLength`] for any other key length.
    pub fn new(key: &[u8]) -> Result<Self, Error> {
        let key_bits = key.len() * 8;
        let key = EncryptingKey::ctr(unbound(key)?).map_err(|_| Error::KeyLength(key.len()))?;
        Ok(Ctr { key, key_bits })
    }

    /// XORs the keystream that starts at counter block `counter` into `data`
    /// (encryption and decryption are the same operation).
    ///
    /// # Performance
    /// Parallel from 2 MiB ([`super::GRAIN`]); below that it runs on the calling thread.
    pub fn apply_keystream(&self, counter: &[u8; BLOCK], data: &mut [u8], par: &Parallelism) {
        self.apply_keystream_filled(counter, data, par, |_, _| {});
    }

    /// [`Ctr::apply_keystream`] after `fill(offset, part)` has written each
    /// part's input, on the thread that then encrypts the part (a copy
    /// from the caller's input runs on every thread, and the part is still
    /// in cache when it is encrypted).
    pub(crate) fn apply_keystream_filled(
        &self,
        counter: &[u8; BLOCK],
        data: &mut [u8],
        par: &Parallelism,
        fill: impl Fn(usize, &mut [u8]) + Sync,
    ) {
        par.for_each_mut(data, &GRAIN, |_, offset, part| {
            fill(offset, part);
            self.apply_at(&add_blocks(counter, (offset / BLOCK) as u128), part);
        });
    }

    fn apply_at(&self, counter: &[u8; BLOCK], part: &mut [u8]) {
        let context = EncryptionContext::Iv128((*counter).into());
        // Fails only for a context of the wrong kind, which cannot happen here.
        self.key
            .less_safe_encrypt(part, context)
            .expect("AES-CTR with a 16-byte counter block");
    }
}

/// `counter + blocks` modulo 2¹²⁸, big-endian.
pub(crate) fn add_blocks(counter: &[u8; BLOCK], blocks: u128) -> [u8; BLOCK] {
    u128::from_be_bytes(*counter).wrapping_add(blocks).to_be_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counter_wraps_modulo_2_128() {
        assert_eq!(add_blocks(&[0xff; 16], 1), [0; 16]);
        assert_eq!(add_blocks(&[0xff; 16], 3), {
            let mut b = [0; 16];
            b[15] = 2;
            b
        });
    }
}
