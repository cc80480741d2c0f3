use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

use aws_lc_rs::cipher::{EncryptingKey, EncryptionContext};

use super::{BLOCK, Error, GRAIN, Gcm, unbound};
use crate::par::Parallelism;
use crate::secret::SecretKey;

/// Parts of at least this many bytes go through AWS-LC's stitched GCM code
/// ([`Gcm::ctr_in_place`]) when the [`CtrKernel`] is [`CtrKernel::Gcm`];
/// shorter ones through AWS-LC's CTR, which has less to set up per call.
const STITCHED_FROM: usize = 16 << 10;

/// Which AWS-LC code a [`Ctr`] runs its keystream through; both give the
/// same bytes.
///
/// AWS-LC's own CTR (`aes_hw_ctr32_encrypt_blocks`) has no VAES path. Its
/// AES-GCM seal does on CPUs with VAES, VPCLMULQDQ and AVX-512, and there it
/// outruns the CTR even with the GHASH it computes for nothing (Zen 4:
/// 9.6 against 7.0 GB/s); everywhere else the GCM code is AVX "aesni_gcm",
/// which runs at half the CTR's speed (Zen 3: 3.1 against 6.5 GB/s). So
/// [`CtrKernel::Auto`] picks [`CtrKernel::Gcm`] exactly where
/// [`crate::cpu::aws_lc_gcm_is_vaes_avx512`] (`aes/README.md` has the
/// measurements).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum CtrKernel {
    /// [`CtrKernel::Gcm`] where AWS-LC's GCM has its VAES/AVX-512 code,
    /// else [`CtrKernel::Ctr`].
    #[default]
    Auto,
    /// AWS-LC's CTR.
    Ctr,
    /// AWS-LC's stitched GCM seal, its tag dropped (parts of 16 KiB or
    /// more; 128- and 256-bit keys).
    Gcm,
}

impl CtrKernel {
    /// `Auto` decided for this CPU (under `PARCRYPT_CPU_MASK`).
    pub fn resolve(self) -> CtrKernel {
        match self {
            CtrKernel::Auto if crate::cpu::aws_lc_gcm_is_vaes_avx512() => CtrKernel::Gcm,
            CtrKernel::Auto => CtrKernel::Ctr,
            other => other,
        }
    }

    /// `auto`, `ctr` or `gcm`.
    pub const fn name(self) -> &'static str {
        match self {
            CtrKernel::Auto => "auto",
            CtrKernel::Ctr => "ctr",
            CtrKernel::Gcm => "gcm",
        }
    }
}

/// The GCM key is built once a `Ctr` has been given this many bytes in all
/// (counting the call that reaches it): building it (the hash key's inverse,
/// by exponentiation) takes about 8 µs, which the stitched code wins back
/// only over a few hundred kilobytes. A key used once for a short message
/// never pays for it.
const BUILD_FROM: u64 = 1 << 20;

/// AES-CTR with a 128-bit big-endian counter, as NIST SP 800-38A and OpenSSL
/// define it: the whole 16-byte block is the counter and wraps modulo 2¹²⁸.
///
/// # Examples
/// ```
/// use parcrypt::{aes::Ctr, par::Parallelism};
/// let ctr = Ctr::new(&[7u8; 32])?;
/// let mut data = b"attack at dawn".to_vec();
/// ctr.apply_keystream_in_place(&[0u8; 16], &mut data, &Parallelism::default());
/// ctr.apply_keystream_in_place(&[0u8; 16], &mut data, &Parallelism::sequential());
/// assert_eq!(data, b"attack at dawn");
/// # Ok::<(), parcrypt::aes::Error>(())
/// ```
pub struct Ctr {
    key: EncryptingKey,
    key_bits: usize,
    /// The key again (zero-padded to 32 bytes, wiped on drop), for `stitched`.
    raw: SecretKey<32>,
    /// AES-GCM under the same key, built once [`BUILD_FROM`] bytes have been
    /// given to this `Ctr`; `None` for 24-byte keys, which AWS-LC's GCM does
    /// not take.
    stitched: OnceLock<Option<Gcm>>,
    /// Bytes given to this `Ctr` so far (saturating).
    seen: AtomicU64,
    /// [`CtrKernel::Ctr`] or [`CtrKernel::Gcm`], never `Auto`.
    kernel: CtrKernel,
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
        Ctr::with_kernel(key, CtrKernel::Auto)
    }

    /// [`Ctr::new`] on a chosen [`CtrKernel`] (to compare the two on one
    /// machine; [`Ctr::new`] picks the faster for the CPU).
    ///
    /// # Errors
    /// [`Error::KeyLength`] for a key that is not 16, 24 or 32 bytes.
    pub fn with_kernel(key: &[u8], kernel: CtrKernel) -> Result<Self, Error> {
        let key_bits = key.len() * 8;
        let evp = EncryptingKey::ctr(unbound(key)?).map_err(|_| Error::KeyLength(key.len()))?;
        let mut padded = [0u8; 32];
        padded[..key.len()].copy_from_slice(key);
        Ok(Ctr {
            key: evp,
            key_bits,
            raw: SecretKey::new(&mut padded),
            stitched: OnceLock::new(),
            seen: AtomicU64::new(0),
            kernel: kernel.resolve(),
        })
    }

    /// The kernel this `Ctr` runs on (`Auto` resolved).
    pub fn kernel(&self) -> CtrKernel {
        self.kernel
    }

    /// XORs the keystream that starts at counter block `counter` into `data`,
    /// in place (encryption and decryption are the same operation).
    ///
    /// # Performance
    /// Parallel from 2 MiB ([`super::GRAIN`]); below that it runs on the calling thread.
    pub fn apply_keystream_in_place(&self, counter: &[u8; BLOCK], data: &mut [u8], par: &Parallelism) {
        self.apply_keystream_filled(counter, data, par, |_, _| {});
    }

    /// [`Ctr::apply_keystream_in_place`] after `fill(offset, part)` has written each
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
        self.run(counter, None, data, par, fill);
    }

    /// The keystream from `counter` XORed into `input`, written to `output`
    /// (same length); `input` is left as it was.
    ///
    /// # Performance
    /// Parallel from 2 MiB, as [`Ctr::apply_keystream_in_place`]; parts of 16 KiB or
    /// more go from `input` to `output` in one pass (no copy first).
    ///
    /// # Panics
    /// If `input` and `output` differ in length.
    pub fn apply_keystream_into(
        &self,
        counter: &[u8; BLOCK],
        input: &[u8],
        output: &mut [u8],
        par: &Parallelism,
    ) {
        assert_eq!(
            input.len(),
            output.len(),
            "CTR output must be as long as the input"
        );
        self.run(counter, Some(input), output, par, |_, _| {});
    }

    /// The one CTR loop: each part of `data` gets its input — read from
    /// `input` (at the part's offset) when there is one, else written by
    /// `fill` — and the keystream at its counter. A part on the stitched
    /// path with an `input` goes from it to `data` in one pass; every other
    /// part is filled first and encrypted in place.
    fn run(
        &self,
        counter: &[u8; BLOCK],
        input: Option<&[u8]>,
        data: &mut [u8],
        par: &Parallelism,
        fill: impl Fn(usize, &mut [u8]) + Sync,
    ) {
        let build = self.worth_building(data.len());
        par.for_each_mut(data, &GRAIN, |_, offset, part| {
            let at = add_blocks(counter, (offset / BLOCK) as u128);
            let src = input.map(|input| &input[offset..offset + part.len()]);
            let gcm = self.stitched(part.len(), build);
            if let (Some(gcm), Some(src)) = (gcm, src) {
                return gcm.ctr_into(&at, src, part);
            }
            match src {
                Some(src) => part.copy_from_slice(src),
                None => fill(offset, part),
            }
            match gcm {
                Some(gcm) => gcm.ctr_in_place(&at, part),
                None => self.evp_at(&at, part),
            }
        });
    }

    /// Counts a call's `len` bytes; whether the GCM key is worth building
    /// now ([`BUILD_FROM`]).
    fn worth_building(&self, len: usize) -> bool {
        let len = len as u64;
        let before = self.seen.fetch_add(len.min(BUILD_FROM), Ordering::Relaxed);
        before.saturating_add(len) >= BUILD_FROM
    }

    /// The GCM key for a part of `len` bytes, if the part is long enough,
    /// the key is 128 or 256 bits, and the GCM key is built (or `build`
    /// says to build it now).
    fn stitched(&self, len: usize, build: bool) -> Option<&Gcm> {
        if len < STITCHED_FROM || self.kernel != CtrKernel::Gcm {
            return None;
        }
        if let Some(built) = self.stitched.get() {
            return built.as_ref();
        }
        if !build {
            return None;
        }
        let key = &self.raw.expose()[..self.key_bits / 8];
        self.stitched.get_or_init(|| Gcm::new(key).ok()).as_ref()
    }

    /// AWS-LC's CTR over `part`, in place.
    fn evp_at(&self, counter: &[u8; BLOCK], part: &mut [u8]) {
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
