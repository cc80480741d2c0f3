use aws_lc_rs::cipher::{DecryptingKey, DecryptionContext, EncryptingKey, EncryptionContext};

use super::{BLOCK, Error, GRAIN, padding, unbound};
use crate::par::Parallelism;
use crate::secret::SecretBytes;

/// AES-CBC with PKCS#7 padding.
///
/// Decryption is parallel: plaintext block *i* = D(Cᵢ) ⊕ Cᵢ₋₁ needs only
/// ciphertext, so each part is decrypted with the ciphertext block before it
/// as its IV. Encryption is serial: Cᵢ = E(Pᵢ ⊕ Cᵢ₋₁) cannot start before
/// Cᵢ₋₁ exists. For parallel *encryption* use CTR, GCM or the stream format.
///
/// # Examples
/// ```
/// use parcrypt::{aes::Cbc, par::Parallelism};
/// let cbc = Cbc::new(&[1u8; 16])?;
/// let iv = [2u8; 16];
/// let ct = cbc.encrypt(&iv, b"sixteen byte msg");
/// assert_eq!(ct.len(), 32); // a whole padding block follows
/// assert_eq!(cbc.decrypt(&iv, &ct, &Parallelism::default())?.expose(), b"sixteen byte msg");
/// # Ok::<(), parcrypt::aes::Error>(())
/// ```
pub struct Cbc {
    enc: EncryptingKey,
    dec: DecryptingKey,
    key_bits: usize,
}

impl std::fmt::Debug for Cbc {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Cbc")
            .field("key_bits", &self.key_bits)
            .finish_non_exhaustive()
    }
}

impl Cbc {
    /// Expands `key` (16, 24 or 32 bytes) for both directions. Schedules are
    /// wiped on drop.
    ///
    /// # Errors
    /// [`Error::KeyLength`] for any other key length.
    pub fn new(key: &[u8]) -> Result<Self, Error> {
        let bad = |_| Error::KeyLength(key.len());
        Ok(Cbc {
            enc: EncryptingKey::cbc(unbound(key)?).map_err(bad)?,
            dec: DecryptingKey::cbc(unbound(key)?).map_err(bad)?,
            key_bits: key.len() * 8,
        })
    }

    /// Encrypts with PKCS#7 padding (serial by nature).
    pub fn encrypt(&self, iv: &[u8; BLOCK], plaintext: &[u8]) -> Vec<u8> {
        let mut data = padding::pad(plaintext);
        self.encrypt_blocks(&mut iv.clone(), &mut data);
        data
    }

    /// Decrypts and removes PKCS#7 padding, into a new buffer that is
    /// wiped when dropped (as the buffer of a failed call is).
    ///
    /// # Errors
    /// [`Error::NotBlockAligned`] if the ciphertext is not whole blocks;
    /// [`Error::Decrypt`] for an empty ciphertext or bad padding (one opaque error).
    ///
    /// # Performance
    /// Parallel from 2 MiB ([`super::GRAIN`]); below that it runs on the calling thread.
    pub fn decrypt(
        &self,
        iv: &[u8; BLOCK],
        ciphertext: &[u8],
        par: &Parallelism,
    ) -> Result<SecretBytes, Error> {
        let mut data = SecretBytes::from(ciphertext);
        let keep = self.decrypt_in_place(iv, data.expose_mut(), par)?.len();
        data.truncate(keep);
        Ok(data)
    }

    /// Decrypts `data` in place and returns the plaintext: `data` without its
    /// PKCS#7 padding. Allocates nothing.
    ///
    /// # Errors
    /// As [`Cbc::decrypt`]. On error `data` holds unchecked plaintext; do not
    /// use it.
    ///
    /// # Performance
    /// Parallel from 2 MiB ([`super::GRAIN`]); below that it runs on the calling thread.
    pub fn decrypt_in_place<'a>(
        &self,
        iv: &[u8; BLOCK],
        data: &'a mut [u8],
        par: &Parallelism,
    ) -> Result<&'a mut [u8], Error> {
        if data.len() % BLOCK != 0 {
            return Err(Error::NotBlockAligned);
        }
        self.decrypt_blocks(&mut iv.clone(), data, par);
        let keep = padding::unpadded_len(data).ok_or(Error::Decrypt)?;
        Ok(&mut data[..keep])
    }

    /// Encrypts whole blocks in place, chaining from `iv`, and leaves in `iv`
    /// the chaining value for the next call.
    pub(crate) fn encrypt_blocks(&self, iv: &mut [u8; BLOCK], data: &mut [u8]) {
        debug_assert!(data.len() % BLOCK == 0);
        if data.is_empty() {
            return;
        }
        let context = EncryptionContext::Iv128((*iv).into());
        self.enc
            .less_safe_encrypt(data, context)
            .expect("AES-CBC over whole blocks with a 16-byte IV");
        iv.copy_from_slice(&data[data.len() - BLOCK..]);
    }

    /// Decrypts whole blocks in place, in parallel, chaining from `iv`, and
    /// leaves in `iv` the chaining value for the next call.
    pub(crate) fn decrypt_blocks(&self, iv: &mut [u8; BLOCK], data: &mut [u8], par: &Parallelism) {
        debug_assert!(data.len() % BLOCK == 0);
        if data.is_empty() {
            return;
        }
        // Each part's IV is the ciphertext block just before it; collect them
        // all before any part is decrypted in place.
        let plan = par.plan(data.len(), &GRAIN);
        let ivs: Vec<[u8; BLOCK]> = plan
            .parts()
            .iter()
            .map(|r| match r.start {
                0 => *iv,
                s => block_at(data, s - BLOCK),
            })
            .collect();
        let next = block_at(data, data.len() - BLOCK);
        par.run_mut(&plan, data, |i, _, part| {
            let context = DecryptionContext::Iv128(ivs[i].into());
            self.dec
                .decrypt(part, context)
                .expect("AES-CBC over whole blocks with a 16-byte IV");
        });
        *iv = next;
    }
}

fn block_at(data: &[u8], at: usize) -> [u8; BLOCK] {
    let mut b = [0; BLOCK];
    b.copy_from_slice(&data[at..at + BLOCK]);
    b
}
