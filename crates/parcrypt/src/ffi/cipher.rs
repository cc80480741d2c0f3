//! Symmetric ciphers through AWS-LC's C interface: bulk AES-ECB through EVP
//! (the safe API makes one C call per block), the RC4 key schedule and
//! keystream, and AES-GCM (nonces of any length) and ChaCha20-Poly1305
//! through the AEAD interface.
#![allow(unsafe_code)]

use aws_lc_sys as sys;

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
/// Wiped on drop.
pub(crate) struct Rc4State(sys::RC4_KEY);

impl Rc4State {
    /// Runs the RC4 key schedule.
    ///
    /// # Panics
    /// If `key` is longer than `u32::MAX` bytes (callers allow at most 256).
    pub(crate) fn new(key: &[u8]) -> Self {
        let mut state = sys::RC4_KEY {
            x: 0,
            y: 0,
            data: [0; 256],
        };
        let len = u32::try_from(key.len()).expect("RC4 key length");
        // SAFETY: state is a valid RC4_KEY to write; key points to len bytes.
        unsafe { sys::RC4_set_key(&mut state, len, key.as_ptr()) };
        Rc4State(state)
    }

    /// XORs the next `data.len()` keystream bytes into `data`.
    pub(crate) fn apply(&mut self, data: &mut [u8]) {
        // SAFETY: in and out are the same `data.len()` bytes; RC4 processes
        // byte by byte, reading each input byte before writing it, so exact
        // in-place operation is allowed (as in OpenSSL).
        unsafe { sys::RC4(&mut self.0, data.len(), data.as_ptr(), data.as_mut_ptr()) };
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
/// see `aes/gcm.rs`), or ChaCha20-Poly1305 (age's payload and stanzas).
/// Sealing and opening run out of place in one pass where `aws-lc-rs` would
/// copy first.
pub(crate) struct AeadKey(std::ptr::NonNull<sys::EVP_AEAD_CTX>);

/// The AES-GCM keys of `aes` and `stream` (constructed by [`AeadKey::new`]).
pub(crate) type GcmKey = AeadKey;

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
        assert_eq!(input.len(), output.len());
        let mut tag = [0u8; 16];
        let mut tag_len = 0usize;
        // SAFETY: ctx live; input/output valid, equal length, distinct
        // (a & and a &mut cannot alias); nonce, aad and tag valid for their
        // lengths.
        let ok = unsafe {
            sys::EVP_AEAD_CTX_seal_scatter(
                self.0.as_ptr(),
                output.as_mut_ptr(),
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
        if input.len() != output.len() {
            return false;
        }
        // SAFETY: ctx live; input/output valid and distinct; nonce, tag and
        // aad valid for their lengths.
        let ok = unsafe {
            sys::EVP_AEAD_CTX_open_gather(
                self.0.as_ptr(),
                output.as_mut_ptr(),
                nonce.as_ptr(),
                nonce.len(),
                input.as_ptr(),
                input.len(),
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
