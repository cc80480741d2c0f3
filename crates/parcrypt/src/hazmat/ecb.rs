//! Raw AES-ECB: the block cipher applied to every block on its own.

use crate::aes::{BLOCK, BlockMode, Error, GRAIN, check_key, padding};
use crate::ffi::{self, Direction};
use crate::par::Parallelism;
use crate::secret::SecretBytes;

/// ☠ Raw AES-ECB: every block is encrypted on its own, so equal plaintext
/// blocks give equal ciphertext blocks and patterns show through. For
/// compatibility and study only.
///
/// Every block is independent, so any cut of the input parallelizes.
///
/// # Examples
/// ```
/// use parcrypt::{hazmat::Ecb, par::Parallelism};
/// let ecb = Ecb::new(&[0u8; 16])?;
/// let par = Parallelism::default();
/// let ct = ecb.encrypt(b"same block 16 B!same block 16 B!", &par);
/// assert_eq!(ct[..16], ct[16..32]); // the weakness, visible
/// # Ok::<(), parcrypt::aes::Error>(())
/// ```
pub struct Ecb {
    key: SecretBytes,
}

impl std::fmt::Debug for Ecb {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ecb")
            .field("key_bits", &(self.key.len() * 8))
            .finish_non_exhaustive()
    }
}

impl Ecb {
    /// Keeps `key` (16, 24 or 32 bytes); it is wiped on drop.
    ///
    /// # Errors
    /// [`Error::KeyLength`] for any other key length.
    pub fn new(key: &[u8]) -> Result<Self, Error> {
        check_key(key)?;
        Ok(Ecb {
            key: SecretBytes::from(key),
        })
    }

    /// Encrypts with PKCS#7 padding.
    pub fn encrypt(&self, plaintext: &[u8], par: &Parallelism) -> Vec<u8> {
        let mut data = padding::pad(plaintext);
        self.run(Direction::Encrypt, &mut data, par);
        data
    }

    /// Decrypts and removes PKCS#7 padding, into a new buffer that is
    /// wiped when dropped (as the buffer of a failed call is).
    ///
    /// # Errors
    /// [`Error::NotBlockAligned`] if the ciphertext is not whole blocks;
    /// [`Error::Decrypt`] for an empty ciphertext or bad padding.
    pub fn decrypt(&self, ciphertext: &[u8], par: &Parallelism) -> Result<SecretBytes, Error> {
        let mut data = SecretBytes::from(ciphertext);
        let keep = self.decrypt_in_place(data.expose_mut(), par)?.len();
        data.truncate(keep);
        Ok(data)
    }

    /// Decrypts `data` in place and returns the plaintext without its PKCS#7
    /// padding. Allocates nothing.
    ///
    /// # Errors
    /// As [`Ecb::decrypt`]. On error `data` holds unchecked plaintext.
    pub fn decrypt_in_place<'a>(&self, data: &'a mut [u8], par: &Parallelism) -> Result<&'a mut [u8], Error> {
        if data.len() % BLOCK != 0 {
            return Err(Error::NotBlockAligned);
        }
        self.run(Direction::Decrypt, data, par);
        let keep = padding::unpadded_len(data).ok_or(Error::Decrypt)?;
        Ok(&mut data[..keep])
    }

    /// Encrypts whole blocks in place, without padding.
    ///
    /// # Errors
    /// [`Error::NotBlockAligned`] if `data` is not whole blocks.
    pub fn encrypt_blocks_in_place(&self, data: &mut [u8], par: &Parallelism) -> Result<(), Error> {
        if data.len() % BLOCK != 0 {
            return Err(Error::NotBlockAligned);
        }
        self.run(Direction::Encrypt, data, par);
        Ok(())
    }

    /// Decrypts whole blocks in place, without padding.
    ///
    /// # Errors
    /// [`Error::NotBlockAligned`] if `data` is not whole blocks.
    pub fn decrypt_blocks_in_place(&self, data: &mut [u8], par: &Parallelism) -> Result<(), Error> {
        if data.len() % BLOCK != 0 {
            return Err(Error::NotBlockAligned);
        }
        self.run(Direction::Decrypt, data, par);
        Ok(())
    }

    fn run(&self, direction: Direction, data: &mut [u8], par: &Parallelism) {
        par.for_each_mut(data, &GRAIN, |_, _, part| {
            ffi::aes_ecb_in_place(self.key.expose(), direction, part);
        });
    }
}

/// The kernel [`Crypter`](crate::aes::Crypter) streams ECB through: `aes` knows nothing of
/// ECB, so hazmat hands it this (see [`crate::hazmat::ecb_encrypter`] and its
/// siblings).
impl BlockMode for Ecb {
    fn name(&self, encrypt: bool) -> &'static str {
        if encrypt { "ecb-encrypt" } else { "ecb-decrypt" }
    }

    fn encrypt_blocks(&self, data: &mut [u8], par: &Parallelism) {
        self.run(Direction::Encrypt, data, par);
    }

    fn decrypt_blocks(&self, data: &mut [u8], par: &Parallelism) {
        self.run(Direction::Decrypt, data, par);
    }
}
