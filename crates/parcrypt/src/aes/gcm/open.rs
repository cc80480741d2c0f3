//! Opening by parts and CTR at a part's counter: the small one-pass open
//! into a wiped stack buffer, the stitched one-pass open, verify-then-decrypt
//! and the parts' GHASH of a ciphertext.

use aws_lc_rs::cipher::EncryptionContext;

use super::field::{Block, lengths, mul};
use super::{Gcm, GcmOpen, NONCE, Part, SMALL_OPEN, TAG};
use crate::aes::{BLOCK, Error, GRAIN};
use crate::ffi::{GcmDecrypter, PartInput};
use crate::par::Parallelism;
use crate::secret::wipe;

impl Gcm {
    /// The GHASH of one ciphertext part, as the AAD of an empty AWS-LC seal
    /// under the all-zero 16-byte nonce (whose J0 is Lₙ·H).
    pub(super) fn ciphertext_part(&self, part: &[u8]) -> Part {
        let tag = self.aead.seal_in_place(&[0u8; 16], &mut [], part);
        Part {
            ghash: self.part_ghash(
                &tag,
                self.zero_nonce_mask.expose(),
                &lengths(part.len() as u64, 0),
            ),
            blocks: part.len().div_ceil(BLOCK) as u64,
        }
    }

    /// AWS-LC's one-pass open of a message of at most [`SMALL_OPEN`] bytes
    /// in `scratch` (wiped when the caller drops it); the plaintext, once
    /// the tag matched. The input is copied into the scratch first and
    /// opened there, so each input byte is read once; decrypted and checked
    /// together, so the scratch holds plaintext before the tag is known —
    /// never the caller's buffer.
    pub(super) fn open_small<'s>(
        &self,
        nonce: &[u8; NONCE],
        aad: &[u8],
        input: &[u8],
        tag: &[u8],
        scratch: &'s mut Scratch,
    ) -> Result<&'s [u8], Error> {
        scratch.used = input.len();
        let plain = &mut scratch.buf[..input.len()];
        plain.copy_from_slice(input);
        if tag.len() == TAG && self.aead.open_in_place(nonce, plain, tag, aad) {
            Ok(plain)
        } else {
            Err(Error::Authentication)
        }
    }

    /// AWS-LC's decrypt-and-hash under this key, built at its first use
    /// (`None`: AWS-LC has no CTR kernel on this CPU).
    pub(super) fn decrypter(&self) -> Option<&GcmDecrypter> {
        let key = self.key.expose();
        self.decrypter
            .get_or_init(|| GcmDecrypter::new(&key[..self.key_bits / 8]))
            .as_ref()
    }

    /// The one-pass decrypter, if this `Gcm` opens in one pass and AWS-LC
    /// can here.
    pub(super) fn one_pass(&self) -> Option<&GcmDecrypter> {
        if self.open != GcmOpen::OnePass {
            return None;
        }
        self.decrypter()
    }

    /// [`GcmOpen::VerifyThenDecrypt`] of `input` into `output`: the input
    /// copied into `output` (each byte read once), the tag checked there,
    /// then `output` decrypted in place (the caller zeroes it on failure).
    pub(super) fn open_two_pass_into(
        &self,
        nonce: &[u8; NONCE],
        aad: &[u8],
        input: &[u8],
        tag: &[u8],
        output: &mut [u8],
        par: &Parallelism,
    ) -> Result<(), Error> {
        par.for_each_mut(output, &GRAIN, |_, offset, part| {
            part.copy_from_slice(&input[offset..offset + part.len()]);
        });
        self.open_two_pass_in_place(nonce, aad, output, tag, par)
    }

    /// [`GcmOpen::VerifyThenDecrypt`] in place: the tag checked over
    /// `data`, then `data` decrypted. Where AWS-LC can decrypt and hash in
    /// one go, the decryption hashes again what it decrypts and the tag is
    /// checked a second time, so plaintext is only returned for exactly
    /// the bytes verified even if others write `data` meanwhile; on that
    /// second mismatch `data` is turned back into ciphertext (of the bytes
    /// read) and the error returns.
    pub(super) fn open_two_pass_in_place(
        &self,
        nonce: &[u8; NONCE],
        aad: &[u8],
        data: &mut [u8],
        tag: &[u8],
        par: &Parallelism,
    ) -> Result<(), Error> {
        self.verify(nonce, aad, data, tag, par)?;
        match self.decrypter() {
            Some(decrypter) => self.open_one_pass(decrypter, nonce, aad, PartInput::InPlace, data, tag, par),
            None => {
                self.decrypt_parts(nonce, data, par);
                Ok(())
            }
        }
    }

    /// [`GcmOpen::OnePass`]: each part of `data` (read from `input`, or
    /// decrypted in place) decrypted and hashed by
    /// AWS-LC in one go from the part's counter; the parts' hashes folded
    /// into the tag; on a mismatch the output wiped, or in place turned
    /// back into the ciphertext, before the error returns.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn open_one_pass(
        &self,
        decrypter: &GcmDecrypter,
        nonce: &[u8; NONCE],
        aad: &[u8],
        input: PartInput<'_>,
        data: &mut [u8],
        tag: &[u8],
        par: &Parallelism,
    ) -> Result<(), Error> {
        if data.len() as u64 > (1 << 36) - 32 || tag.len() != TAG {
            return Err(Error::Authentication);
        }
        let h = self.h.expose();
        let parts = par.map_mut(data, &GRAIN, |_, offset, part| {
            let src = input.part(offset, part.len());
            // The message's own nonce for the first part (J0 = nonce ‖ 1).
            let hashed = if offset == 0 {
                decrypter.decrypt_part(nonce, src, part)
            } else {
                decrypter.decrypt_part(&self.part_nonce(nonce, offset), src, part)
            };
            Part {
                // A partial last block is added in but not yet multiplied.
                ghash: if hashed.pending {
                    mul(&hashed.xi, h)
                } else {
                    hashed.xi
                },
                blocks: part.len().div_ceil(BLOCK) as u64,
            }
        });
        let expected = self.tag(nonce, aad, &parts, data.len() as u64);
        if aws_lc_rs::constant_time::verify_slices_are_equal(&expected, tag).is_ok() {
            return Ok(());
        }
        match input {
            // CTR is its own inverse: the keystream again gives back the
            // ciphertext the caller handed over.
            PartInput::InPlace => self.decrypt_parts(nonce, data, par),
            PartInput::Shared(_) | PartInput::Private(_) => wipe(data),
        }
        Err(Error::Authentication)
    }

    /// Checks `tag` over `aad` and the ciphertext `data`; reads only.
    pub(super) fn verify(
        &self,
        nonce: &[u8; NONCE],
        aad: &[u8],
        data: &[u8],
        tag: &[u8],
        par: &Parallelism,
    ) -> Result<(), Error> {
        if data.len() as u64 > (1 << 36) - 32 || tag.len() != TAG {
            return Err(Error::Authentication);
        }
        let total = data.len() as u64;
        let parts = par.map(data, &GRAIN, |_, _, part| self.ciphertext_part(part));
        let expected = self.tag(nonce, aad, &parts, total);
        if aws_lc_rs::constant_time::verify_slices_are_equal(&expected, tag).is_err() {
            return Err(Error::Authentication);
        }
        Ok(())
    }

    /// AES-CTR with a 128-bit big-endian counter (SP 800-38A, as
    /// [`super::Ctr`]) from `counter` over `data`, in place, by AWS-LC's
    /// stitched GCM seal, whose AES runs on wider vectors than AWS-LC's CTR
    /// (see [`Gcm::ctr_pieces`]). The tags are dropped.
    pub(crate) fn ctr_in_place(&self, counter: &Block, data: &mut [u8]) {
        self.ctr_pieces(counter, data.len(), |nonce, piece| {
            self.aead.seal_in_place(nonce, &mut data[piece], &[]);
        });
    }

    /// [`Gcm::ctr_in_place`] from `input` into `output` (same length): one
    /// pass, no copy first.
    ///
    /// # Panics
    /// If the lengths differ.
    pub(crate) fn ctr_into(&self, counter: &Block, input: &[u8], output: &mut [u8]) {
        assert_eq!(input.len(), output.len());
        self.ctr_pieces(counter, input.len(), |nonce, piece| {
            self.aead
                .seal_into(nonce, &input[piece.clone()], &mut output[piece], &[]);
        });
    }

    /// Cuts `len` bytes of CTR from `counter` into pieces GCM can seal, and
    /// gives each to `seal` with its 16-byte nonce.
    ///
    /// GCM encrypts with the counter blocks after J0 under inc32, which
    /// equal CTR's as long as the low 32 bits do not wrap: pieces end where
    /// they do (and every 1 GiB, under GCM's per-message limit), and each
    /// piece's nonce is the one whose J0 is the counter block before the
    /// piece's first.
    pub(super) fn ctr_pieces(
        &self,
        counter: &Block,
        len: usize,
        mut seal: impl FnMut(&Block, std::ops::Range<usize>),
    ) {
        const MAX_PIECE: u64 = 1 << 30;
        let mut counter = *counter;
        let mut at = 0;
        while at < len {
            let low = u32::from_be_bytes([counter[12], counter[13], counter[14], counter[15]]);
            let before_wrap = ((1u64 << 32) - u64::from(low)) * BLOCK as u64;
            let rest = len - at;
            let n = usize::try_from(before_wrap.min(MAX_PIECE)).map_or(rest, |max| max.min(rest));
            let mut j0 = counter;
            j0[12..].copy_from_slice(&low.wrapping_sub(1).to_be_bytes());
            seal(&self.nonce_for(&j0), at..at + n);
            counter = crate::aes::ctr::add_blocks(&counter, (n / BLOCK) as u128);
            at += n;
        }
    }

    /// GCM's CTR from counter 2 over the parts of `data`, in place, after
    /// the tag has been checked.
    ///
    /// Where AWS-LC's GCM has its VAES/AVX-512 code, that is AWS-LC's seal
    /// of each ciphertext part, started at the part's counter like a sealed
    /// part (GCM encryption is that CTR; the tag, a hash of the plaintext,
    /// is dropped): its AES runs on 512-bit vectors where AWS-LC's plain CTR
    /// does not, so the pass costs less than the CTR one even with its
    /// GHASH. Elsewhere the seal is AWS-LC's AVX code at half the CTR's
    /// speed, and the pass is AWS-LC's CTR from the part's counter block
    /// (inc32 and a 128-bit counter agree: a message's counter starts at 2
    /// and has under 2³² blocks).
    pub(super) fn decrypt_parts(&self, nonce: &[u8; NONCE], data: &mut [u8], par: &Parallelism) {
        par.for_each_mut(data, &GRAIN, |_, offset, part| {
            if let Some(ctr) = &self.ctr {
                let counter = Self::counter_block(nonce, 2u32.wrapping_add((offset / BLOCK) as u32));
                // Fails only for a context of the wrong kind, which cannot happen here.
                ctr.less_safe_encrypt(part, EncryptionContext::Iv128(counter.into()))
                    .expect("AES-CTR with a 16-byte counter block");
                return;
            }
            // The message's own nonce for the first part: its J0 is `nonce ‖ 1`.
            let part_nonce;
            let gcm_nonce: &[u8] = if offset == 0 {
                nonce
            } else {
                part_nonce = self.part_nonce(nonce, offset);
                &part_nonce
            };
            self.aead.seal_in_place(gcm_nonce, part, &[]);
        });
    }
}

/// A small message's plaintext on the stack; the bytes used are wiped when
/// it is dropped (whether or not the tag matched).
pub(super) struct Scratch {
    buf: [u8; SMALL_OPEN],
    used: usize,
}

impl Scratch {
    pub(super) fn new() -> Self {
        Scratch {
            buf: [0; SMALL_OPEN],
            used: 0,
        }
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        wipe(&mut self.buf[..self.used]);
    }
}
