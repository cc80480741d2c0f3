//! Symmetric ciphers through AWS-LC's C interface: bulk AES-ECB through EVP
//! (the safe API makes one C call per block), the RC4 key schedule and
//! keystream, and AES-GCM (nonces of any length) and ChaCha20-Poly1305
//! through the AEAD interface.
#![allow(unsafe_code)]

use aws_lc_sys as sys;
use std::mem::MaybeUninit;

/// Which way a block cipher runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Direction {
    Encrypt,
    Decrypt,
}

/// An owned `EVP_CIPHER_CTX`, freed (and so wiped: `EVP_CIPHER_CTX_free`
/// cleanses the key schedule) on drop.
struct CipherCtx(*mut sys::EVP_CIPHER_CTX);

impl CipherCtx {
    fn new() -> Self {
        super::owned::backend_ready();
        // SAFETY: EVP_CIPHER_CTX_new has no preconditions.
        let ctx = unsafe { sys::EVP_CIPHER_CTX_new() };
        // Allocation failure of a few hundred bytes: nothing sensible to do.
        assert!(!ctx.is_null(), "EVP_CIPHER_CTX_new: out of memory");
        CipherCtx(ctx)
    }
}

impl Drop for CipherCtx {
    fn drop(&mut self) {
        // SAFETY: self.0 came from EVP_CIPHER_CTX_new and is freed only here.
        unsafe { sys::EVP_CIPHER_CTX_free(self.0) }
    }
}

/// The largest length handed to one `EVP_CipherUpdate` call (its length is a C `int`).
const MAX_UPDATE: usize = 1 << 30;

/// AES-ECB over `data` in place, without padding.
///
/// # Panics
/// If `key` is not 16, 24 or 32 bytes or `data` is not a multiple of 16 bytes
/// (callers check both), or if AWS-LC reports an internal failure.
pub(crate) fn aes_ecb_in_place(key: &[u8], direction: Direction, data: &mut [u8]) {
    assert!(data.len() % 16 == 0, "ECB input must be whole blocks");
    // SAFETY: the EVP_aes_*_ecb functions return pointers to static tables.
    let cipher = unsafe {
        match key.len() {
            16 => sys::EVP_aes_128_ecb(),
            24 => sys::EVP_aes_192_ecb(),
            32 => sys::EVP_aes_256_ecb(),
            n => panic!("AES key of {n} bytes"),
        }
    };
    let ctx = CipherCtx::new();
    let enc = match direction {
        Direction::Encrypt => 1,
        Direction::Decrypt => 0,
    };
    // SAFETY: ctx is a live context; cipher is static; key points to
    // key.len() bytes, which is the cipher's key length (matched above); ECB
    // takes no IV, so a null IV is allowed.
    let ok = unsafe {
        sys::EVP_CipherInit_ex(
            ctx.0,
            cipher,
            std::ptr::null_mut(),
            key.as_ptr(),
            std::ptr::null(),
            enc,
        )
    };
    assert_eq!(ok, 1, "EVP_CipherInit_ex failed");
    // SAFETY: ctx was initialised above.
    let ok = unsafe { sys::EVP_CIPHER_CTX_set_padding(ctx.0, 0) };
    assert_eq!(ok, 1, "EVP_CIPHER_CTX_set_padding failed");
    for chunk in data.chunks_mut(MAX_UPDATE) {
        let len = i32::try_from(chunk.len()).unwrap_or(i32::MAX);
        let mut out_len: i32 = 0;
        // SAFETY: in and out are the same buffer of `len` bytes; EVP allows
        // exactly-overlapping in-place operation. Without padding and with whole
        // blocks, EVP writes exactly `len` bytes and keeps no partial block.
        let ok =
            unsafe { sys::EVP_CipherUpdate(ctx.0, chunk.as_mut_ptr(), &mut out_len, chunk.as_ptr(), len) };
        assert!(ok == 1 && out_len == len, "EVP_CipherUpdate failed");
    }
}

/// AWS-LC's RC4 state (`RC4_KEY`): the 256-entry permutation and two indices.
/// Made in place on the heap (a state built on the stack and moved would
/// leave a copy of the permutation behind) and wiped on drop.
pub(crate) struct Rc4State(Box<sys::RC4_KEY>);

impl Rc4State {
    /// Runs the RC4 key schedule.
    ///
    /// # Panics
    /// If `key` is longer than `u32::MAX` bytes (callers allow at most 256).
    pub(crate) fn new(key: &[u8]) -> Self {
        // The zeroed state is built on the stack and moved into the box
        // before the key schedule writes anything secret into it.
        let mut state = Box::new(sys::RC4_KEY {
            x: 0,
            y: 0,
            data: [0; 256],
        });
        let len = u32::try_from(key.len()).expect("RC4 key length");
        // SAFETY: state is a valid RC4_KEY to write; key points to len bytes.
        unsafe { sys::RC4_set_key(&mut *state, len, key.as_ptr()) };
        Rc4State(state)
    }

    /// XORs the next `data.len()` keystream bytes into `data`.
    pub(crate) fn apply(&mut self, data: &mut [u8]) {
        // SAFETY: in and out are the same `data.len()` bytes; RC4 processes
        // byte by byte, reading each input byte before writing it, so exact
        // in-place operation is allowed (as in OpenSSL).
        unsafe { sys::RC4(&mut *self.0, data.len(), data.as_ptr(), data.as_mut_ptr()) };
    }
}

impl Drop for Rc4State {
    fn drop(&mut self) {
        use zeroize::Zeroize;
        self.0.data.zeroize();
        self.0.x.zeroize();
        self.0.y.zeroize();
    }
}

/// A key in AWS-LC's AEAD interface (`EVP_AEAD_CTX`): AES-GCM, which —
/// unlike `aws-lc-rs` — accepts nonces of any length (parcrypt's parallel
/// GCM uses 16-byte nonces chosen so that AWS-LC's own stitched AES-NI +
/// carry-less multiply code starts each chunk at the chunk's counter value,
/// see `aes/gcm/mod.rs`), or ChaCha20-Poly1305 (age's payload and stanzas).
/// Sealing and opening run out of place in one pass where `aws-lc-rs` would
/// copy first.
pub(crate) struct AeadKey(std::ptr::NonNull<sys::EVP_AEAD_CTX>);

// SAFETY: the EVP_AEAD_CTX is not modified after EVP_AEAD_CTX_new; sealing
// takes it as `const EVP_AEAD_CTX *` and keeps per-call state on the stack.
unsafe impl Send for AeadKey {}
// SAFETY: as above.
unsafe impl Sync for AeadKey {}

impl std::fmt::Debug for AeadKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("AeadKey(redacted)")
    }
}

impl Drop for AeadKey {
    fn drop(&mut self) {
        // SAFETY: from EVP_AEAD_CTX_new, freed only here (which wipes the key).
        unsafe { sys::EVP_AEAD_CTX_free(self.0.as_ptr()) }
    }
}

impl AeadKey {
    /// An AES-GCM key; `None` unless `key` is 16 or 32 bytes.
    pub(crate) fn new(key: &[u8]) -> Option<AeadKey> {
        super::owned::backend_ready();
        // SAFETY: the EVP_aead_* functions return pointers to static tables.
        let aead = unsafe {
            match key.len() {
                16 => sys::EVP_aead_aes_128_gcm(),
                32 => sys::EVP_aead_aes_256_gcm(),
                _ => return None,
            }
        };
        Self::with(aead, key)
    }

    /// A ChaCha20-Poly1305 (RFC 8439) key; 12-byte nonces.
    ///
    /// # Panics
    /// If AWS-LC cannot allocate the context (a few hundred bytes).
    pub(crate) fn chacha20_poly1305(key: &[u8; 32]) -> AeadKey {
        super::owned::backend_ready();
        // SAFETY: EVP_aead_chacha20_poly1305 returns a pointer to a static table.
        let aead = unsafe { sys::EVP_aead_chacha20_poly1305() };
        Self::with(aead, key).expect("EVP_AEAD_CTX_new: out of memory")
    }

    fn with(aead: *const sys::EVP_AEAD, key: &[u8]) -> Option<AeadKey> {
        // SAFETY: aead is a static table; key is key.len() bytes, the
        // AEAD's key length (the callers match it); 16-byte tags.
        let ctx = unsafe { sys::EVP_AEAD_CTX_new(aead, key.as_ptr(), key.len(), 16) };
        std::ptr::NonNull::new(ctx).map(AeadKey)
    }

    /// Seal of `data` in place with `nonce` (AES-GCM: 12 bytes as the
    /// standard's nonce, or 16: hashed into J0 as GCM defines; ChaCha20-Poly1305:
    /// 12) and `aad`; returns the tag.
    ///
    /// # Panics
    /// If AWS-LC reports a failure (it fails only for inputs over 2^36 bytes,
    /// which callers never pass).
    pub(crate) fn seal_in_place(&self, nonce: &[u8], data: &mut [u8], aad: &[u8]) -> [u8; 16] {
        let mut tag = [0u8; 16];
        let mut tag_len = 0usize;
        // SAFETY: ctx is live; data is both input and output (AWS-LC allows
        // exact aliasing); nonce, aad and tag are valid for their lengths.
        let ok = unsafe {
            sys::EVP_AEAD_CTX_seal_scatter(
                self.0.as_ptr(),
                data.as_mut_ptr(),
                tag.as_mut_ptr(),
                &mut tag_len,
                tag.len(),
                nonce.as_ptr(),
                nonce.len(),
                data.as_ptr(),
                data.len(),
                std::ptr::null(),
                0,
                aad.as_ptr(),
                aad.len(),
            )
        };
        assert!(ok == 1 && tag_len == 16, "EVP_AEAD_CTX_seal_scatter failed");
        tag
    }

    /// Seal of `input` into `output` (same length, no aliasing)
    /// with `nonce` (as in [`AeadKey::seal_in_place`]) and
    /// `aad`: one pass over the data, no copy first.
    ///
    /// # Panics
    /// If the lengths differ, or AWS-LC fails (inputs over 2^36 bytes).
    pub(crate) fn seal_into(&self, nonce: &[u8], input: &[u8], output: &mut [u8], aad: &[u8]) -> [u8; 16] {
        // SAFETY: `[u8]` and `[MaybeUninit<u8>]` have the same layout, and
        // `seal_to` writes only initialised bytes, so `output` stays
        // initialised.
        let output = unsafe { &mut *(std::ptr::from_mut::<[u8]>(output) as *mut [MaybeUninit<u8>]) };
        self.seal_to(nonce, input, output, aad)
    }

    /// [`AeadKey::seal_into`] into memory that need not be initialised (a
    /// fresh allocation): AWS-LC writes every byte of `output` and reads
    /// none of it, so it is initialised when this returns.
    ///
    /// # Panics
    /// If the lengths differ, or AWS-LC fails (inputs over 2^36 bytes).
    pub(crate) fn seal_to(
        &self,
        nonce: &[u8],
        input: &[u8],
        output: &mut [MaybeUninit<u8>],
        aad: &[u8],
    ) -> [u8; 16] {
        assert_eq!(input.len(), output.len());
        let mut tag = [0u8; 16];
        let mut tag_len = 0usize;
        // SAFETY: ctx live; input/output valid, equal length, distinct
        // (a & and a &mut cannot alias); AWS-LC only writes `output`;
        // nonce, aad and tag valid for their lengths.
        let ok = unsafe {
            sys::EVP_AEAD_CTX_seal_scatter(
                self.0.as_ptr(),
                output.as_mut_ptr().cast::<u8>(),
                tag.as_mut_ptr(),
                &mut tag_len,
                tag.len(),
                nonce.as_ptr(),
                nonce.len(),
                input.as_ptr(),
                input.len(),
                std::ptr::null(),
                0,
                aad.as_ptr(),
                aad.len(),
            )
        };
        assert!(ok == 1 && tag_len == 16, "EVP_AEAD_CTX_seal_scatter failed");
        tag
    }

    /// Open of `data` in place with `tag`, a 12-byte nonce and `aad`; false
    /// (and `data` wiped) if the tag fails.
    pub(crate) fn open_in_place(&self, nonce: &[u8; 12], data: &mut [u8], tag: &[u8], aad: &[u8]) -> bool {
        self.open(nonce, None, data, tag, aad)
    }

    /// Open of `input` with `tag` into `output` (same length) with a
    /// 12-byte nonce and `aad`; false (and `output` wiped) if the tag fails.
    pub(crate) fn open_into(
        &self,
        nonce: &[u8; 12],
        input: &[u8],
        tag: &[u8],
        output: &mut [u8],
        aad: &[u8],
    ) -> bool {
        input.len() == output.len() && self.open(nonce, Some(input), output, tag, aad)
    }

    /// The one AWS-LC open: from `input` (of `output`'s length), or
    /// `output` in place when `None`, into `output`; false (and `output`
    /// wiped) if the tag fails.
    fn open(
        &self,
        nonce: &[u8; 12],
        input: Option<&[u8]>,
        output: &mut [u8],
        tag: &[u8],
        aad: &[u8],
    ) -> bool {
        let out = output.as_mut_ptr();
        let src = input.map_or(out.cast_const(), <[u8]>::as_ptr);
        // SAFETY: ctx live; `src` is `output.len()` readable bytes, either
        // `output` itself (AWS-LC's open allows exact aliasing) or a slice
        // a `&mut` cannot overlap (callers check the lengths); nonce, tag
        // and aad valid for their lengths.
        let ok = unsafe {
            sys::EVP_AEAD_CTX_open_gather(
                self.0.as_ptr(),
                out,
                nonce.as_ptr(),
                nonce.len(),
                src,
                output.len(),
                tag.as_ptr(),
                tag.len(),
                aad.as_ptr(),
                aad.len(),
            )
        } == 1;
        if !ok {
            output.fill(0);
            // SAFETY: clears this thread's error queue.
            unsafe { sys::ERR_clear_error() };
        }
        ok
    }
}

/// AES-GCM decryption of a message's parts in one pass each: AWS-LC's
/// `CRYPTO_gcm128_decrypt_ctr32` decrypts a part and hashes its ciphertext
/// together (its VAES/AVX-512 code, else AES-NI + PCLMULQDQ "aesni_gcm",
/// else CTR and GHASH block by block), from any starting nonce. AWS-LC
/// offers this only internally (its own `EVP_AEAD` open is one-shot over a
/// whole message); `internal.rs` links it, with the context layout of the
/// pinned version.
pub(crate) struct GcmDecrypter {
    aes: Box<AlignedAesKey>,
    gcm: Box<super::internal::Gcm128Key>,
    ctr: super::internal::Ctr128,
}

// SAFETY: both keys are written once, in `new`, and only read afterwards
// (`decrypt_part` copies the GCM key into a context of its own).
unsafe impl Send for GcmDecrypter {}
// SAFETY: as above.
unsafe impl Sync for GcmDecrypter {}

impl std::fmt::Debug for GcmDecrypter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("GcmDecrypter")
    }
}

impl Drop for GcmDecrypter {
    fn drop(&mut self) {
        use zeroize::Zeroize;
        self.aes.0.rd_key.zeroize();
        self.gcm.0.zeroize();
    }
}

/// An `AES_KEY` aligned as AWS-LC aligns the key schedules it embeds
/// (16 bytes, the vector loads of its AES-NI code): bindgen's
/// `sys::AES_KEY` only has `u32` alignment.
#[repr(C, align(16))]
struct AlignedAesKey(sys::AES_KEY);

/// Where a part's ciphertext comes from (see [`GcmDecrypter::decrypt_part`]).
#[derive(Clone, Copy, Debug)]
pub(crate) enum PartInput<'a> {
    /// The output itself, decrypted in place.
    InPlace,
    /// A buffer others may write meanwhile (a shared map, a caller's array):
    /// each byte is read once, through a copy in the L1 cache.
    Shared(&'a [u8]),
    /// A buffer nobody writes until the call returns (Rust-owned, an
    /// immutable Python `bytes`): AWS-LC reads it directly, as the seal
    /// reads its plaintext.
    Private(&'a [u8]),
}

impl<'a> PartInput<'a> {
    /// The same kind of input for the part `offset .. offset + len` of
    /// the message.
    pub(crate) fn part(self, offset: usize, len: usize) -> PartInput<'a> {
        match self {
            PartInput::InPlace => PartInput::InPlace,
            PartInput::Shared(all) => PartInput::Shared(&all[offset..offset + len]),
            PartInput::Private(all) => PartInput::Private(&all[offset..offset + len]),
        }
    }
}

/// What one part's pass leaves: GHASH over its ciphertext blocks (no
/// length block), except that a partial last block has been added in but
/// not yet multiplied by H (`pending`), as AWS-LC leaves it.
pub(crate) struct PartHash {
    pub(crate) xi: [u8; 16],
    pub(crate) pending: bool,
}

impl GcmDecrypter {
    /// `None` for a key that is not 16, 24 or 32 bytes, or where AWS-LC
    /// has no CTR kernel (a CPU without hardware AES or vector permutes).
    pub(crate) fn new(key: &[u8]) -> Option<GcmDecrypter> {
        super::owned::backend_ready();
        if !matches!(key.len(), 16 | 24 | 32) {
            return None;
        }
        let mut aes = Box::new(AlignedAesKey(sys::AES_KEY {
            rd_key: [0; 60],
            rounds: 0,
        }));
        let mut gcm = Box::new(super::internal::Gcm128Key([0; 288]));
        let mut block = None;
        // SAFETY: `aes` and `gcm` are valid for writes of their types (the
        // GCM key's size is the pinned version's, see `internal.rs`), `key`
        // is `key.len()` ∈ {16, 24, 32} bytes as the function requires.
        let ctr = unsafe {
            super::internal::aes_ctr_set_key(&mut aes.0, &mut *gcm, &mut block, key.as_ptr(), key.len())
        }?;
        Some(GcmDecrypter { aes, gcm, ctr })
    }

    /// Decrypts a part (from `input` into `output`, or `output` in place)
    /// as GCM started with `nonce` (12 bytes: the message's own, J0 =
    /// nonce ‖ 1; 16 bytes: hashed into J0 as GCM defines), hashing the
    /// ciphertext as it goes.
    ///
    /// A [`PartInput::Shared`] input is read once: a piece of
    /// [`COPY_PIECE`] bytes is copied into a scratch buffer that stays in
    /// the L1 cache, then decrypted and hashed from there into `output`.
    /// So the hash and the plaintext come from the same bytes even if the
    /// caller's input changes meanwhile (a shared map another process
    /// writes): AWS-LC's own pass may read a block twice (GHASH, then CTR,
    /// outside its stitched loop). A [`PartInput::Private`] one (and the
    /// output in place) is handed to AWS-LC whole, in one call.
    ///
    /// # Panics
    /// If `input` and `output` differ in length, or the part is longer than
    /// GCM allows (2³⁶ − 32 bytes; callers pass parts of a message checked
    /// against that).
    pub(crate) fn decrypt_part(&self, nonce: &[u8], input: PartInput<'_>, output: &mut [u8]) -> PartHash {
        use super::internal::{GCM128_KEY_AT, GCM128_MRES, GCM128_XI, Gcm128Context};
        if let PartInput::Shared(input) | PartInput::Private(input) = input {
            assert_eq!(input.len(), output.len());
        }
        let mut ctx = Gcm128Context([0; super::internal::GCM128_CONTEXT_SIZE]);
        ctx.0[GCM128_KEY_AT..GCM128_KEY_AT + self.gcm.0.len()].copy_from_slice(&self.gcm.0);
        // SAFETY: `ctx` is a zeroed context holding the key's GCM key, as
        // AWS-LC's own open builds it; the nonce is valid for its length.
        unsafe { super::internal::CRYPTO_gcm128_setiv(&mut ctx, &self.aes.0, nonce.as_ptr(), nonce.len()) };
        // Ciphertext only (nothing secret): not wiped.
        let mut scratch = [0u8; COPY_PIECE];
        // One piece, the whole part, unless the input must be copied first.
        let piece_len = match input {
            PartInput::Shared(_) => COPY_PIECE,
            PartInput::InPlace | PartInput::Private(_) => output.len().max(1),
        };
        for (i, piece) in output.chunks_mut(piece_len).enumerate() {
            let src = match input {
                PartInput::Shared(input) => {
                    let at = i * COPY_PIECE;
                    let copy = &mut scratch[..piece.len()];
                    copy.copy_from_slice(&input[at..at + piece.len()]);
                    // The next piece comes into the cache while this one is
                    // decrypted, so its copy does not wait on memory.
                    prefetch(input.get(at + COPY_PIECE..).unwrap_or_default());
                    copy.as_ptr()
                }
                PartInput::Private(input) => input[i * piece_len..i * piece_len + piece.len()].as_ptr(),
                PartInput::InPlace => piece.as_ptr(),
            };
            // SAFETY: `ctx` was set up above and carries the message on from
            // the previous piece (every piece but the last is whole blocks);
            // `src` is `piece.len()` readable bytes: the scratch copy, the
            // private input's, or `piece` itself, decrypted in place
            // (AWS-LC reads each block before writing it).
            let ok = unsafe {
                super::internal::CRYPTO_gcm128_decrypt_ctr32(
                    &mut ctx,
                    &self.aes.0,
                    src,
                    piece.as_mut_ptr(),
                    piece.len(),
                    self.ctr,
                )
            };
            assert_eq!(ok, 1, "GCM part longer than 2^36 - 32 bytes");
        }
        let mut xi = [0u8; 16];
        xi.copy_from_slice(&ctx.0[GCM128_XI..GCM128_XI + 16]);
        let mres = u32::from_ne_bytes(ctx.0[GCM128_MRES..GCM128_MRES + 4].try_into().unwrap_or_default());
        // The context holds keystream and the hash table: wipe it.
        crate::secret::wipe(&mut ctx.0);
        PartHash {
            xi,
            pending: mres != 0,
        }
    }
}

/// Asks the cache for the first [`COPY_PIECE`] bytes of `data` (or all of
/// it): a hint, on x86-64 only.
fn prefetch(data: &[u8]) {
    #[cfg(target_arch = "x86_64")]
    for line in data[..data.len().min(COPY_PIECE)].chunks(64) {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        // SAFETY: a prefetch reads nothing architecturally and cannot
        // fault; the address is inside `data` anyway.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(line.as_ptr().cast()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = data;
}

/// The piece of a part [`GcmDecrypter::decrypt_part`] copies, then opens:
/// whole 96-byte rounds of AWS-LC's stitched loop (so only a part's end
/// takes its block-by-block path), small enough to stay in the L1 cache
/// between the copy and the pass. Copying into the output instead and
/// opening there made opening into a second buffer 0.69–0.76× sealing into
/// one (the copy stalled on the output's cache misses); through this
/// scratch the output is written once, as the seal writes it.
pub(crate) const COPY_PIECE: usize = 96 * 64;

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::super::internal::{self, GCM128_KEY_AT, Gcm128Context};
    use super::*;

    /// AWS-LC writes no byte past the 384 of the pinned `GCM128_CONTEXT`
    /// (a canary behind it stays), on every code path this CPU runs, for
    /// parts with and without a partial last block. (That `Xi` and `mres`
    /// are where `internal.rs` says is proved by the tags `aes::gcm`'s
    /// tests compare with AWS-LC's one-shot GCM.)
    #[test]
    fn the_context_layout_is_the_pinned_one() {
        #[repr(C, align(16))]
        struct Guarded {
            ctx: Gcm128Context,
            canary: [u8; 64],
        }
        for key_len in [16, 24, 32] {
            let d = GcmDecrypter::new(&vec![9u8; key_len]).unwrap();
            for len in [0, 15, 16, 17, 4096 + 3, 70_000] {
                let mut g = Guarded {
                    ctx: Gcm128Context([0; internal::GCM128_CONTEXT_SIZE]),
                    canary: [0xA5; 64],
                };
                g.ctx.0[GCM128_KEY_AT..GCM128_KEY_AT + d.gcm.0.len()].copy_from_slice(&d.gcm.0);
                let mut data = vec![1u8; len];
                // SAFETY: as in `GcmDecrypter::decrypt_part`, in place.
                let ok = unsafe {
                    internal::CRYPTO_gcm128_setiv(&mut g.ctx, &d.aes.0, [7u8; 16].as_ptr(), 16);
                    internal::CRYPTO_gcm128_decrypt_ctr32(
                        &mut g.ctx,
                        &d.aes.0,
                        data.as_ptr(),
                        data.as_mut_ptr(),
                        data.len(),
                        d.ctr,
                    )
                };
                assert_eq!(ok, 1);
                assert_eq!(g.canary, [0xA5; 64], "key {key_len}, {len} bytes");
            }
        }
        println!("{}", crate::cpu::report());
    }
}
