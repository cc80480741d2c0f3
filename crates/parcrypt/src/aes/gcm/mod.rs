//! Standard AES-GCM (96-bit nonce) of one message on several cores.
//!
//! GCM is CTR encryption plus GHASH, a polynomial in the hash key H over the
//! ciphertext blocks. Both split: CTR by seeking the counter, GHASH because
//! `GHASH(X ‖ Z) = GHASH(X)·H^m ⊕ GHASH(Z)` for a part Z of m blocks. Each
//! part is sealed by AWS-LC's own stitched AES-GCM code, which is what makes
//! this fast; two facts let a part start mid-message:
//!
//! - **The part's counter.** With a 16-byte nonce N, GCM starts from
//!   `J0 = GHASH(N ‖ len) = N·H² ⊕ Lₙ·H`. Solving for N gives the nonce whose
//!   J0 is the part's counter block: `N = (J0 ⊕ Lₙ·H)·H⁻²`.
//! - **The part's GHASH.** AWS-LC's tag for the part is
//!   `E(J0) ⊕ GHASH(C ‖ L) = E(J0) ⊕ G·H ⊕ L·H`, so the part's own GHASH is
//!   `G = (tag ⊕ E(J0))·H⁻¹ ⊕ L`.
//!
//! The parts' G values are then folded in order with the AAD's GHASH and the
//! final length block, giving exactly the one-shot tag. Field products (a few
//! dozen per part, a few hundred per message for H⁻¹) use RustCrypto's
//! constant-time `ghash`: the GHASH of one block X under key A is X·A.
//! Decryption ([`GcmOpen::OnePass`]) decrypts and hashes each part in one
//! pass with AWS-LC's internal decrypt-and-hash started at the part's nonce;
//! the context's hash accumulator is the part's GHASH, folded as above, and
//! the output is wiped (in place: the ciphertext restored) if the tag fails.
//! [`GcmOpen::VerifyThenDecrypt`] verifies first — GHASH of each ciphertext
//! part as AWS-LC AAD (`tag = E(J0') ⊕ GHASH(C ‖ L')` again) — and runs CTR
//! only once the tag matches; that CTR is AWS-LC's seal again, of the
//! ciphertext at each part's counter, its tag dropped (on CPUs where
//! AWS-LC's GCM has VAES/AVX-512; AWS-LC's CTR elsewhere). The E(J0) values come from AWS-LC too:
//! its tag over no AAD and no data is exactly E(J0). Messages of at most
//! 4 KiB ([`SMALL_OPEN`]) are opened by AWS-LC's own one-pass open into a
//! stack buffer instead, wiped afterwards: the caller's buffer still gets
//! plaintext only once the tag matched, and the part arithmetic (which
//! costs more than opening 1 KiB) is skipped.

mod field;
mod open;

use aws_lc_rs::cipher::EncryptingKey;
use ghash::GHash;
use ghash::universal_hash::{KeyInit, UniversalHash};

use super::{BLOCK, Error, GRAIN};
use crate::ffi::{self, AeadKey, Direction, GcmDecrypter, PartInput};
use crate::par::Parallelism;
use crate::secret::{SecretKey, wipe};
use field::{Block, inverse, lengths, mul, pow, xor};
use open::Scratch;
use std::mem::MaybeUninit;
use std::sync::OnceLock;

/// The tag length.
pub const TAG: usize = 16;

/// The nonce length (the standard 96 bits).
pub const NONCE: usize = 12;

/// Messages up to this length are opened in one AWS-LC pass into a wiped
/// stack buffer (see the module notes).
const SMALL_OPEN: usize = 4096;

/// An AES-GCM key (128 or 256 bits) for one-message parallel sealing and
/// opening. Output is byte-identical to any standard AES-GCM.
///
/// # Examples
/// ```
/// use parcrypt::aes::Gcm;
/// use parcrypt::par::Parallelism;
///
/// let gcm = Gcm::new(&[7; 32])?;
/// let nonce = [1; 12]; // never reuse a nonce with the same key
/// let mut data = b"attack at dawn".to_vec();
/// let tag = gcm.seal_in_place(&nonce, b"header", &mut data, &Parallelism::default());
/// gcm.open_in_place(&nonce, b"header", &mut data, &tag, &Parallelism::default())?;
/// assert_eq!(data, b"attack at dawn");
/// # Ok::<(), parcrypt::aes::Error>(())
/// ```
///
/// # Performance
/// Inputs under 2 MiB are sealed (or decrypted, once verified) by one AWS-LC
/// call on the calling thread.
///
/// `Debug` shows only the key size; the hash key H and the values derived
/// from H are wiped when the `Gcm` is dropped (AWS-LC wipes its key).
pub struct Gcm {
    key_bits: usize,
    aead: AeadKey,
    /// The hash key H = E_K(0¹²⁸): with it, tags can be forged.
    h: SecretKey<16>,
    h_inv: SecretKey<16>,
    h_inv2: SecretKey<16>,
    /// `Lₙ·H` for a 16-byte nonce: what its J0 adds to `N·H²`.
    nonce_len_h: SecretKey<16>,
    /// `E(Lₙ·H)`: the all-zero 16-byte nonce's encrypted J0, which opening
    /// strips from every part's hash.
    zero_nonce_mask: SecretKey<16>,
    /// AWS-LC's CTR under the same key, for decryption's CTR pass on CPUs
    /// where AWS-LC's GCM has no VAES/AVX-512 code (`None` where it has,
    /// and the pass runs through the GCM seal): see [`super::CtrKernel`].
    ctr: Option<EncryptingKey>,
    /// How messages over [`SMALL_OPEN`] are opened (never `Auto`).
    open: GcmOpen,
    /// The key again (zero-padded, wiped on drop), for `decrypter`.
    key: SecretKey<32>,
    /// AWS-LC's one-pass decrypt-and-hash under this key, built at the
    /// first one-pass open (`None` inside: AWS-LC has no CTR kernel here).
    decrypter: OnceLock<Option<GcmDecrypter>>,
}

/// How [`Gcm`] opens a message of more than 4 KiB; both give the same
/// plaintext and accept the same tags.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum GcmOpen {
    /// [`GcmOpen::OnePass`] (`aes/README.md` has the measurements behind it).
    #[default]
    Auto,
    /// Each part decrypted and hashed together by AWS-LC's
    /// decrypt-and-hash, the parts' hashes folded into the tag, the tag
    /// compared: one pass over the data. The output holds plaintext before
    /// the tag is known; on a wrong tag it is wiped (`open_into`) or turned back
    /// into the ciphertext (`open_in_place`) before the error returns.
    OnePass,
    /// The tag checked over the ciphertext first (one pass), then the data
    /// decrypted (a second): no plaintext exists before the tag matched.
    VerifyThenDecrypt,
}

impl std::fmt::Debug for Gcm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Gcm")
            .field("key_bits", &self.key_bits)
            .finish_non_exhaustive()
    }
}

/// One part's GHASH and block count.
struct Part {
    ghash: Block,
    blocks: u64,
}

impl Gcm {
    /// # Errors
    /// [`Error::KeyLength`] unless the key is 16 or 32 bytes.
    pub fn new(key: &[u8]) -> Result<Gcm, Error> {
        Gcm::with_open(key, GcmOpen::Auto)
    }

    /// [`Gcm::new`] opening messages as `open` says (to compare the two
    /// ways on one machine).
    ///
    /// # Errors
    /// [`Error::KeyLength`] unless the key is 16 or 32 bytes.
    pub fn with_open(key: &[u8], open: GcmOpen) -> Result<Gcm, Error> {
        let aead = AeadKey::new(key).ok_or(Error::KeyLength(key.len()))?;
        let mut h = [0u8; 16];
        ffi::aes_ecb_in_place(key, Direction::Encrypt, &mut h);
        // H ≠ 0 (AES is a permutation and E(0) = 0 has probability 2⁻¹²⁸,
        // in which case GCM itself is broken for that key).
        let mut h_inv = inverse(&h);
        let mut h_inv2 = mul(&h_inv, &h_inv);
        let mut nonce_len_h = mul(&lengths(0, 16), &h);
        let mut zero_nonce_mask = mask(&aead, &[0; 16]);
        let ctr = match super::CtrKernel::Auto.resolve() {
            super::CtrKernel::Gcm => None,
            _ => Some(EncryptingKey::ctr(super::unbound(key)?).map_err(|_| Error::KeyLength(key.len()))?),
        };
        let mut padded = [0u8; 32];
        padded[..key.len()].copy_from_slice(key);
        // `SecretKey::new` wipes these stack copies.
        Ok(Gcm {
            key: SecretKey::new(&mut padded),
            key_bits: key.len() * 8,
            aead,
            h: SecretKey::new(&mut h),
            h_inv: SecretKey::new(&mut h_inv),
            h_inv2: SecretKey::new(&mut h_inv2),
            nonce_len_h: SecretKey::new(&mut nonce_len_h),
            zero_nonce_mask: SecretKey::new(&mut zero_nonce_mask),
            ctr,
            open: match open {
                GcmOpen::Auto => GcmOpen::OnePass,
                other => other,
            },
            decrypter: OnceLock::new(),
        })
    }

    /// How this `Gcm` opens messages of more than 4 KiB (`Auto` resolved).
    pub fn open_kind(&self) -> GcmOpen {
        self.open
    }

    /// The counter block `nonce ‖ counter`.
    fn counter_block(nonce: &[u8; NONCE], counter: u32) -> Block {
        let mut b = [0u8; 16];
        b[..12].copy_from_slice(nonce);
        b[12..].copy_from_slice(&counter.to_be_bytes());
        b
    }

    /// The 16-byte nonce whose GCM J0 is `j0`.
    fn nonce_for(&self, j0: &Block) -> Block {
        mul(&xor(j0, self.nonce_len_h.expose()), self.h_inv2.expose())
    }

    /// The nonce AWS-LC is given for the part at byte `offset`: its J0 is
    /// the counter block before the part's first, `nonce ‖ 1 + offset/16`
    /// (the message's own 12-byte nonce for the first part).
    fn part_nonce(&self, nonce: &[u8; NONCE], offset: usize) -> Block {
        // A message has under 2³² blocks, so the offset fits the counter.
        self.nonce_for(&Self::counter_block(
            nonce,
            1u32.wrapping_add((offset / BLOCK) as u32),
        ))
    }

    /// The GHASH of a part, recovered from AWS-LC's tag over it (`mask` is
    /// the E(J0) of the nonce that tag was made with).
    fn part_ghash(&self, tag: &Block, mask: &Block, length_block: &Block) -> Block {
        xor(&mul(&xor(tag, mask), self.h_inv.expose()), length_block)
    }

    /// GHASH over AAD, the parts in order, and the length block: the tag's
    /// secret half.
    fn fold(&self, aad: &[u8], parts: &[Part], total: u64) -> Block {
        let h = self.h.expose();
        // Without AAD the hash starts at zero, and zero times H^m is zero:
        // the first part's GHASH is the running value as it is (the
        // powers cost more than sealing a small message).
        let mut acc: Option<Block> = (!aad.is_empty()).then(|| {
            let mut g = GHash::new(&(*h).into());
            g.update_padded(aad);
            g.finalize().into()
        });
        for part in parts {
            acc = Some(match acc {
                None => part.ghash,
                Some(a) => xor(&mul(&a, &pow(h, u128::from(part.blocks))), &part.ghash),
            });
        }
        mul(
            &xor(&acc.unwrap_or_default(), &lengths(aad.len() as u64, total)),
            h,
        )
    }

    fn tag(&self, nonce: &[u8; NONCE], aad: &[u8], parts: &[Part], total: u64) -> Block {
        // The message's E(J0): J0 of a 12-byte nonce is `nonce ‖ 1`.
        xor(&mask(&self.aead, nonce), &self.fold(aad, parts, total))
    }

    /// Encrypts `data` in place and returns the 16-byte tag; the ciphertext
    /// and tag are those of standard AES-GCM.
    ///
    /// # Panics
    /// If `data` is longer than GCM allows (2³⁶ − 32 bytes).
    pub fn seal_in_place(
        &self,
        nonce: &[u8; NONCE],
        aad: &[u8],
        data: &mut [u8],
        par: &Parallelism,
    ) -> [u8; TAG] {
        self.seal_parts(nonce, aad, data, par, |nonce, aad, _, part| {
            self.aead.seal_in_place(nonce, part, aad)
        })
    }

    /// Encrypts `input` into `output` (of the same length) and returns the
    /// 16-byte tag: [`Gcm::seal_in_place`] on a copy, without the copy.
    /// AWS-LC reads each part of `input` and writes its ciphertext to
    /// `output` in one pass, so memory is crossed once, as in place.
    ///
    /// # Panics
    /// If `output.len() != input.len()`, or the message is longer than GCM
    /// allows (2³⁶ − 32 bytes).
    pub fn seal_into(
        &self,
        nonce: &[u8; NONCE],
        aad: &[u8],
        input: &[u8],
        output: &mut [u8],
        par: &Parallelism,
    ) -> [u8; TAG] {
        same_length(input, output);
        self.seal_parts(nonce, aad, output, par, |nonce, aad, offset, part| {
            self.aead
                .seal_into(nonce, &input[offset..offset + part.len()], part, aad)
        })
    }

    /// [`Gcm::seal_into`] into memory that need not be initialised, such as
    /// a fresh allocation a binding returns: every byte of `output` is
    /// written (never read), by the threads that seal its parts, so a fresh
    /// allocation's first-touch page faults are taken in parallel, in the
    /// same pass, and no zeroing or copying pass comes first. `output` is
    /// initialised when this returns.
    ///
    /// # Panics
    /// As [`Gcm::seal_into`].
    pub fn seal_uninit_into(
        &self,
        nonce: &[u8; NONCE],
        aad: &[u8],
        input: &[u8],
        output: &mut [MaybeUninit<u8>],
        par: &Parallelism,
    ) -> [u8; TAG] {
        same_length(input, output);
        self.seal_parts(nonce, aad, output, par, |nonce, aad, offset, part| {
            self.aead
                .seal_to(nonce, &input[offset..offset + part.len()], part, aad)
        })
    }

    /// Seals `data` in parts: `seal_part(nonce, aad, offset, part)` is
    /// AWS-LC's seal of the part at `offset`, leaving its ciphertext in
    /// `part`, and returns AWS-LC's tag. `T` is `u8`, or `MaybeUninit<u8>`
    /// for an output not yet written.
    fn seal_parts<T: Send>(
        &self,
        nonce: &[u8; NONCE],
        aad: &[u8],
        data: &mut [T],
        par: &Parallelism,
        seal_part: impl Fn(&[u8], &[u8], usize, &mut [T]) -> [u8; TAG] + Sync,
    ) -> [u8; TAG] {
        assert!((data.len() as u64) <= (1 << 36) - 32, "GCM message too long");
        if par.runs_inline(data.len(), &GRAIN) {
            // One part: AWS-LC seals the message itself, nonce and AAD
            // included. The part arithmetic below (a dozen field products
            // and two more AWS-LC calls) costs more than sealing 1 KiB.
            return seal_part(nonce, aad, 0, data);
        }
        let total = data.len() as u64;
        let parts = par.map_mut(data, &GRAIN, |_, offset, part| {
            let part_nonce = self.part_nonce(nonce, offset);
            let tag = seal_part(&part_nonce, &[], offset, part);
            Part {
                ghash: self.part_ghash(
                    &tag,
                    &mask(&self.aead, &part_nonce),
                    &lengths(0, part.len() as u64),
                ),
                blocks: part.len().div_ceil(BLOCK) as u64,
            }
        });
        self.tag(nonce, aad, &parts, total)
    }

    /// Verifies `tag` over `aad` and the ciphertext in `data`, and decrypts
    /// `data` in place: the plaintext is returned only if the tag matches
    /// the very bytes decrypted.
    ///
    /// # Errors
    /// [`Error::Authentication`] if the tag does not match (wrong key, nonce,
    /// AAD, or modified data); `data` is then ciphertext again (the bytes
    /// read, turned back by the same keystream).
    pub fn open_in_place(
        &self,
        nonce: &[u8; NONCE],
        aad: &[u8],
        data: &mut [u8],
        tag: &[u8],
        par: &Parallelism,
    ) -> Result<(), Error> {
        if data.len() <= SMALL_OPEN {
            let mut scratch = Scratch::new();
            data.copy_from_slice(self.open_small(nonce, aad, data, tag, &mut scratch)?);
            return Ok(());
        }
        if let Some(decrypter) = self.one_pass() {
            return self.open_one_pass(decrypter, nonce, aad, PartInput::InPlace, data, tag, par);
        }
        self.open_two_pass_in_place(nonce, aad, data, tag, par)
    }

    /// Verifies `tag` over `aad` and the ciphertext `input`, and decrypts
    /// `input` into `output` (of the same length).
    ///
    /// Each byte of `input` is read exactly once (copied into `output` a
    /// cache-sized piece at a time and opened there), so the tag is checked
    /// over exactly the bytes decrypted, even if `input` changes during
    /// the call (a shared memory map another process writes).
    ///
    /// `output` is unspecified until this returns: it holds ciphertext or
    /// unverified plaintext while the call runs, so it must be a buffer
    /// nobody else reads meanwhile.
    ///
    /// # Errors
    /// [`Error::Authentication`] if the tag does not match (wrong key, nonce,
    /// AAD, or modified data); `output` is then all zero.
    ///
    /// # Panics
    /// If `output.len() != input.len()`.
    pub fn open_into(
        &self,
        nonce: &[u8; NONCE],
        aad: &[u8],
        input: &[u8],
        tag: &[u8],
        output: &mut [u8],
        par: &Parallelism,
    ) -> Result<(), Error> {
        self.open_from(nonce, aad, input, false, tag, output, par)
    }

    /// [`Gcm::open_into`] for an `input` nobody writes until this returns
    /// (a buffer your code owns, not a shared map; Python's immutable
    /// `bytes`): AWS-LC's one-pass open reads it directly, as the seal reads
    /// its plaintext, without `open_into`'s copy through the L1 cache, and
    /// may read a block of it twice. `output`, as for `open_into`, must be
    /// a buffer nobody reads meanwhile.
    ///
    /// # Errors
    /// [`Error::Authentication`] if the tag does not match; `output` is then
    /// all zero.
    ///
    /// # Panics
    /// If `output.len() != input.len()`.
    pub fn open_private_into(
        &self,
        nonce: &[u8; NONCE],
        aad: &[u8],
        input: &[u8],
        tag: &[u8],
        output: &mut [u8],
        par: &Parallelism,
    ) -> Result<(), Error> {
        self.open_from(nonce, aad, input, true, tag, output, par)
    }

    /// [`Gcm::open_into`] (`private` false) / [`Gcm::open_private_into`].
    #[allow(clippy::too_many_arguments)]
    fn open_from(
        &self,
        nonce: &[u8; NONCE],
        aad: &[u8],
        input: &[u8],
        private: bool,
        tag: &[u8],
        output: &mut [u8],
        par: &Parallelism,
    ) -> Result<(), Error> {
        assert_eq!(
            input.len(),
            output.len(),
            "GCM output must be as long as the input"
        );
        let opened = if input.len() <= SMALL_OPEN {
            let mut scratch = Scratch::new();
            self.open_small(nonce, aad, input, tag, &mut scratch)
                .map(|plain| output.copy_from_slice(plain))
        } else if let Some(decrypter) = self.one_pass() {
            let from = if private {
                PartInput::Private(input)
            } else {
                PartInput::Shared(input)
            };
            self.open_one_pass(decrypter, nonce, aad, from, output, tag, par)
        } else {
            self.open_two_pass_into(nonce, aad, input, tag, output, par)
        };
        if opened.is_err() {
            wipe(output);
        }
        opened
    }
}

/// `E(J0)` for `nonce` (12 or 16 bytes): AWS-LC's tag over no AAD and no
/// data, which is E(J0) ⊕ GHASH(the zero length block) = E(J0). One call
/// on the already expanded key; nothing is set up per block.
fn mask(aead: &AeadKey, nonce: &[u8]) -> Block {
    aead.seal_in_place(nonce, &mut [], &[])
}

/// The check every seal into a separate output makes first.
///
/// # Panics
/// If `output` is not as long as `input`.
fn same_length<T>(input: &[u8], output: &[T]) {
    assert_eq!(
        input.len(),
        output.len(),
        "GCM output must be as long as the input"
    );
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::field::ONE;
    use super::*;
    use crate::par::Strategy;

    #[test]
    fn field_arithmetic_holds() {
        let h: Block = std::array::from_fn(|i| (i as u8).wrapping_mul(37).wrapping_add(1));
        assert_eq!(mul(&h, &ONE), h);
        assert_eq!(mul(&ONE, &h), h);
        let inv = pow(&h, u128::MAX - 1);
        assert_eq!(mul(&h, &inv), ONE);
        // The addition chain gives the same inverse, for H and a few others.
        for x in [h, ONE, mul(&h, &h), std::array::from_fn(|i| 0xff ^ i as u8)] {
            assert_eq!(inverse(&x), pow(&x, u128::MAX - 1));
            assert_eq!(mul(&x, &inverse(&x)), ONE);
        }
        assert_eq!(pow(&h, 5), mul(&mul(&mul(&h, &h), &mul(&h, &h)), &h));
    }

    fn one_shot(key: &[u8], nonce: &[u8; 12], aad: &[u8], pt: &[u8]) -> (Vec<u8>, Vec<u8>) {
        use aws_lc_rs::aead::{AES_128_GCM, AES_256_GCM, Aad, LessSafeKey, Nonce, UnboundKey};
        let alg = if key.len() == 16 {
            &AES_128_GCM
        } else {
            &AES_256_GCM
        };
        let k = LessSafeKey::new(UnboundKey::new(alg, key).unwrap());
        let mut ct = pt.to_vec();
        let tag = k
            .seal_in_place_separate_tag(Nonce::assume_unique_for_key(*nonce), Aad::from(aad), &mut ct)
            .unwrap();
        (ct, tag.as_ref().to_vec())
    }

    #[test]
    fn equals_the_backend_one_shot_at_part_boundaries() {
        let mib = 1 << 20;
        let mut schedules = vec![
            Parallelism::sequential(),
            Parallelism::new(2, Strategy::Static),
            Parallelism::new(3, Strategy::Static),
            Parallelism::new(2, Strategy::WorkStealing),
            Parallelism::new(4, Strategy::WorkStealing),
        ];
        if crate::emulated() {
            // Under qemu: one split of each kind, uneven (3 parts) and more
            // parts than threads (4 stealing): the aarch64 part arithmetic
            // at every boundary, at 40 % less emulated time.
            schedules.retain(|p| p.threads().get() != 2);
        }
        let keys = [&[0x11u8; 16][..], &[0x22u8; 32][..]];
        let kinds = [GcmOpen::OnePass, GcmOpen::VerifyThenDecrypt];
        let mut combos: Vec<(&[u8], GcmOpen)> =
            keys.iter().flat_map(|k| kinds.map(|kind| (*k, kind))).collect();
        if crate::emulated() {
            // ...and each key size with one open path, each open path with
            // one key size (128-bit one-pass, 256-bit verify-then-decrypt):
            // the key size changes only the backend's rounds, the open path
            // only which calls it gets. Half the emulated time again.
            combos = vec![(keys[0], kinds[0]), (keys[1], kinds[1])];
        }
        for (key, kind) in combos {
            let gcm = Gcm::with_open(key, kind).unwrap();
            for len in [
                0,
                1,
                15,
                16,
                17,
                4097,
                (1 << 20) + 15,
                2 * mib - 1,
                2 * mib,
                2 * mib + 1,
                3 * mib + 5,
                5 * mib - 16,
            ] {
                let pt: Vec<u8> = (0..len).map(|i| (i % 251) as u8).collect();
                let nonce = [len as u8; 12];
                let aad = &pt[..len.min(33)];
                let (want_ct, want_tag) = one_shot(key, &nonce, aad, &pt);
                for par in &schedules {
                    let mut copied = vec![0xA5; len];
                    let tag = gcm.seal_into(&nonce, aad, &pt, &mut copied, par);
                    assert!(copied == want_ct, "seal: {len} bytes, {par:?}");
                    assert_eq!(tag.to_vec(), want_tag, "seal: {len} bytes, {par:?}");
                    let mut data = pt.clone();
                    let tag = gcm.seal_in_place(&nonce, aad, &mut data, par);
                    assert!(data == want_ct, "{len} bytes, {par:?}");
                    assert_eq!(tag.to_vec(), want_tag, "{len} bytes, {par:?}");
                    gcm.open_in_place(&nonce, aad, &mut data, &tag, par).unwrap();
                    assert!(data == pt);
                }
            }
        }
    }

    #[test]
    fn open_into_equals_open_in_place_at_part_boundaries() {
        let mib = 1 << 20;
        let mut schedules = vec![
            Parallelism::sequential(),
            Parallelism::new(1, Strategy::WorkStealing),
            Parallelism::new(2, Strategy::Static),
            Parallelism::new(3, Strategy::Static),
            Parallelism::new(2, Strategy::WorkStealing),
            Parallelism::new(3, Strategy::WorkStealing),
        ];
        if crate::emulated() {
            // Under qemu, as above: uneven splits of each kind.
            schedules.retain(|p| p.threads().get() == 3 || !p.is_parallel());
        }
        let grain = GRAIN.min_part;
        let kinds = [GcmOpen::OnePass, GcmOpen::VerifyThenDecrypt];
        for (gcm, len) in kinds.iter().flat_map(|k| {
            let gcm = std::sync::Arc::new(Gcm::with_open(&[0x33; 32], *k).unwrap());
            [
                0,
                1,
                15,
                16,
                17,
                SMALL_OPEN - 1,
                SMALL_OPEN,
                SMALL_OPEN + 1,
                grain - 1,
                grain,
                grain + 1,
                2 * grain - 1,
                2 * grain,
                2 * grain + 1,
                3 * grain + 1,
                3 * mib + 5,
                5 * mib - 16,
            ]
            .map(move |len| (gcm.clone(), len))
        }) {
            if crate::emulated() && len > 4 * grain {
                // Under qemu the part boundaries up to four parts; the
                // multi-MiB messages' boundaries are the test above's.
                continue;
            }
            let pt: Vec<u8> = (0..len).map(|i| (i % 251) as u8).collect();
            let nonce = [len as u8 ^ 0x5a; 12];
            let aad = &pt[..len.min(20)];
            let (ct, tag) = one_shot(&[0x33; 32], &nonce, aad, &pt);
            for par in &schedules {
                let mut out = vec![0xA5; len];
                gcm.open_into(&nonce, aad, &ct, &tag, &mut out, par).unwrap();
                assert!(out == pt, "open: {len} bytes, {:?}, {par:?}", gcm.open_kind());
                let mut data = ct.clone();
                gcm.open_in_place(&nonce, aad, &mut data, &tag, par).unwrap();
                assert!(
                    data == out,
                    "open_in_place: {len} bytes, {:?}, {par:?}",
                    gcm.open_kind()
                );
            }
        }
    }

    #[test]
    fn open_private_into_equals_open_at_part_boundaries_and_wipes_on_a_bad_tag() {
        let schedules = [
            Parallelism::sequential(),
            Parallelism::new(2, Strategy::Static),
            Parallelism::new(3, Strategy::WorkStealing),
        ];
        let key = [0x4c; 32];
        let gcm = Gcm::new(&key).unwrap();
        let grain = GRAIN.min_part;
        for len in [
            0,
            1,
            17,
            SMALL_OPEN + 1,
            2 * grain - 1,
            2 * grain,
            2 * grain + 1,
            3 * grain + 17,
        ] {
            let pt: Vec<u8> = (0..len).map(|i| (i % 251) as u8).collect();
            let nonce = [len as u8 ^ 0x17; 12];
            let aad = &pt[..len.min(20)];
            let (ct, tag) = one_shot(&key, &nonce, aad, &pt);
            let mut bad_ct = ct.clone();
            if let Some(last) = bad_ct.last_mut() {
                *last ^= 1;
            }
            let mut bad_tag = tag.clone();
            bad_tag[0] ^= 0x80;
            for par in &schedules {
                let mut out = vec![0xA5; len];
                gcm.open_private_into(&nonce, aad, &ct, &tag, &mut out, par)
                    .unwrap();
                assert!(out == pt, "open_private_into: {len} bytes, {par:?}");
                let attempts: [(&[u8], &[u8], &[u8]); 4] = [
                    (&ct, &bad_tag, aad),
                    (&bad_ct, &tag, aad),
                    (&ct, &tag, b"other aad"),
                    (&ct, &tag[..8], aad),
                ];
                for (i, (input, t, a)) in attempts.into_iter().enumerate() {
                    if len == 0 && i == 1 {
                        continue; // no byte to damage
                    }
                    let mut out = vec![0xA5; len];
                    assert!(matches!(
                        gcm.open_private_into(&nonce, a, input, t, &mut out, par),
                        Err(Error::Authentication)
                    ));
                    assert!(
                        out.iter().all(|&b| b == 0),
                        "{len} bytes, {par:?}, attempt {i}: output not wiped"
                    );
                }
            }
        }
    }

    #[test]
    fn open_into_a_bad_tag_releases_no_plaintext() {
        for (gcm, len) in [GcmOpen::OnePass, GcmOpen::VerifyThenDecrypt]
            .iter()
            .flat_map(|k| {
                let gcm = std::sync::Arc::new(Gcm::with_open(&[6; 16], *k).unwrap());
                [1, 17, SMALL_OPEN, SMALL_OPEN + 1, (1 << 20) + 3, (2 << 20) + 7]
                    .map(move |len| (gcm.clone(), len))
            })
        {
            let pt: Vec<u8> = (0..len).map(|i| (i % 251) as u8).collect();
            let (ct, tag) = one_shot(&[6; 16], &[3; 12], b"aad", &pt);
            for par in [
                Parallelism::sequential(),
                Parallelism::new(2, Strategy::WorkStealing),
            ] {
                let mut bad_tag = tag.clone();
                bad_tag[15] ^= 0x80;
                let mut out = vec![0xC3; len];
                let bad_ct: Vec<u8> = ct
                    .iter()
                    .enumerate()
                    .map(|(i, b)| b ^ u8::from(i + 1 == len))
                    .collect();
                let attempts: [(&[u8], &[u8], &[u8]); 4] = [
                    (&ct, &bad_tag, b"aad"),
                    (&bad_ct, &tag, b"aad"),
                    (&ct, &tag, b"aaD"),
                    (&ct, &tag[..8], b"aad"),
                ];
                for (input, t, aad) in attempts {
                    assert!(matches!(
                        gcm.open_into(&[3; 12], aad, input, t, &mut out, &par),
                        Err(Error::Authentication)
                    ));
                    // Every way and size: the output is zeroed on failure
                    // (it may have held ciphertext or unverified plaintext
                    // meanwhile). Never plaintext.
                    assert!(
                        out.iter().all(|&b| b == 0),
                        "{len} bytes, {:?}: output not zeroed on failure",
                        gcm.open_kind(),
                    );
                    out.fill(0xC3);
                    // In place, the caller gets its ciphertext back.
                    let mut data = input.to_vec();
                    assert!(gcm.open_in_place(&[3; 12], aad, &mut data, t, &par).is_err());
                    assert!(
                        data == input,
                        "{len} bytes, {:?}: data changed on failure",
                        gcm.open_kind()
                    );
                }
            }
        }
    }

    #[test]
    #[should_panic(expected = "as long as the input")]
    fn open_into_wants_an_output_as_long_as_the_input() {
        let gcm = Gcm::new(&[5; 32]).unwrap();
        let _ = gcm.open_into(
            &[0; 12],
            b"",
            &[1; 17],
            &[0; 16],
            &mut [0; 16],
            &Parallelism::sequential(),
        );
    }

    #[test]
    #[should_panic(expected = "as long as the input")]
    fn seal_wants_an_output_as_long_as_the_input() {
        let gcm = Gcm::new(&[5; 32]).unwrap();
        gcm.seal_into(&[0; 12], b"", &[1; 17], &mut [0; 16], &Parallelism::sequential());
    }

    #[test]
    fn a_bad_tag_releases_nothing() {
        let gcm = Gcm::new(&[5; 32]).unwrap();
        let len = (3 << 20) + 7;
        let pt: Vec<u8> = (0..len).map(|i| (i % 251) as u8).collect();
        let par = Parallelism::new(2, Strategy::WorkStealing);
        let mut ct = pt.clone();
        let tag = gcm.seal_in_place(&[9; 12], b"", &mut ct, &par);
        for flip in [0, 1 << 20, len - 1] {
            let mut bad = ct.clone();
            bad[flip] ^= 1;
            let before = bad.clone();
            assert!(matches!(
                gcm.open_in_place(&[9; 12], b"", &mut bad, &tag, &par),
                Err(Error::Authentication)
            ));
            assert!(bad == before, "data changed on failure");
        }
        let mut bad_tag = tag;
        bad_tag[0] ^= 1;
        let mut data = ct.clone();
        assert!(
            gcm.open_in_place(&[9; 12], b"", &mut data, &bad_tag, &par)
                .is_err()
        );
        assert!(gcm.open_in_place(&[9; 12], b"x", &mut data, &tag, &par).is_err());
        assert!(gcm.open_in_place(&[8; 12], b"", &mut data, &tag, &par).is_err());
        assert!(
            gcm.open_in_place(&[9; 12], b"", &mut data, &tag[..15], &par)
                .is_err()
        );
        assert!(Gcm::new(&[0; 24]).is_err());
    }
}
