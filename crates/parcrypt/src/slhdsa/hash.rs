//! The hashing seam: every hash SLH-DSA computes goes through [`Hashes`].
//!
//! Millions of the hashes of a signature are the tweakable hashes F, H, T
//! and the PRF, each `Hash(PK.seed-block ‖ ADRS ‖ M)` with the same
//! `PK.seed` block in front (FIPS 205 §11). Callers hand them over in
//! **batches** of independent inputs of one length — every chain of a
//! WOTS+ step, every leaf of a FORS level, every pair of a tree level — so
//! that the SHA-2 path can run a batch in the lanes of the many-message
//! SHA-256 kernels from the cached `PK.seed` midstate, and SHAKE and
//! SHA-512 one at a time from the vetted backends (RustCrypto `sha2`,
//! `sha3`; HMAC from AWS-LC). Nothing here is a home-made primitive: the
//! seam only arranges inputs and reads outputs (Botan's `Hash_Engine` has
//! the same shape).
//!
//! Nodes and messages are flat byte strings of `n`-byte nodes, so a level
//! of a tree is also its list of pairs (stride `2n`) and a key's chain ends
//! are its T message (stride `len·n`).
//!
//! SHA-256 goes through [`crate::digest::sha256_many_from_into`] (the
//! lanes of the SHA-NI/AVX2/AVX-512 kernels, or one at a time on `sha2`,
//! as [`crate::digest::Backend::active`] chooses, `PARCRYPT_CPU_MASK`
//! included) from a [`Midstate`] of the `PK.seed` block; SHAKE256 batches
//! through [`crate::digest::shake256_many_into`] (Keccak in the lanes of
//! AVX-512 ×8 or AVX2 ×4, or one at a time on `sha3`). SHA-512 and the
//! single SHAKE calls (`PRF_msg`, `H_msg`) use `sha2` and `sha3` here
//! directly: `digest` has no SHA-512 midstate.

use sha2::Digest as _;
use sha3::digest::{ExtendableOutput, Update};

use super::address::Adrs;
use super::params::Params;
use crate::digest::{self, Midstate};
use crate::secret::wipe;

/// Which tweakable hash: `F` (and the PRF: one n-byte block of message) or
/// `H`/`T` (two or more). They differ only for the SHA-2 sets of security
/// category 3 and 5, where H and T use SHA-512 (FIPS 205 §11.2.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Tweak {
    F,
    H,
}

/// The hashes of one key (one `PK.seed`).
pub(super) struct Hashes {
    n: usize,
    m: usize,
    pk_seed: [u8; 32],
    engine: Engine,
}

enum Engine {
    /// SHA-256 (and, when n > 16, SHA-512) states that have absorbed
    /// `PK.seed ‖ toByte(0, 64 − n)` (resp. `128 − n`): one compression
    /// saved on every call.
    Sha2 {
        mid256: Midstate,
        /// Boxed: 200 bytes of state beside the SHAKE variant's none.
        mid512: Option<Box<sha2::Sha512>>,
    },
    Shake,
}

impl Hashes {
    pub(super) fn new(p: &Params, pk_seed: &[u8]) -> Hashes {
        let n = p.n;
        let mut seed = [0u8; 32];
        seed[..n].copy_from_slice(&pk_seed[..n]);
        let engine = if p.sha2 {
            let mut block = [0u8; 128];
            block[..n].copy_from_slice(&seed[..n]);
            let mid256 = Midstate::new(&block[..64]);
            let mid512 = (n > 16).then(|| Box::new(sha2::Sha512::new_with_prefix(&block[..128])));
            Engine::Sha2 { mid256, mid512 }
        } else {
            Engine::Shake
        };
        Hashes {
            n,
            m: p.m,
            pk_seed: seed,
            engine,
        }
    }

    /// `out[i] = tweak(PK.seed, adrs[i], msgs[i])` for every i, where `msgs`
    /// is `adrs.len()` messages of equal length side by side and `out` is
    /// `adrs.len()` n-byte nodes.
    pub(super) fn many_into(&self, tweak: Tweak, adrs: &[Adrs], msgs: &[u8], out: &mut [u8]) {
        let len = msgs.len().checked_div(adrs.len()).unwrap_or(0);
        self.batch_into(tweak, adrs, |i| &msgs[i * len..(i + 1) * len], out, false);
    }

    /// `PRF(PK.seed, SK.seed, adrs[i])` for every i: F with SK.seed as the
    /// message (FIPS 205 §11.1, §11.2). The scratch that held SK.seed and
    /// the outputs is wiped.
    pub(super) fn prf_many_into(&self, adrs: &[Adrs], sk_seed: &[u8], out: &mut [u8]) {
        self.batch_into(Tweak::F, adrs, |_| sk_seed, out, true);
    }

    /// One tweakable hash into `out` (n bytes).
    pub(super) fn one_into(&self, tweak: Tweak, adrs: &Adrs, msg: &[u8], out: &mut [u8]) {
        self.batch_into(tweak, std::slice::from_ref(adrs), |_| msg, out, false);
    }

    /// The one place a batch is hashed: SHA-256 in lanes from the cached
    /// midstate, SHAKE256 in lanes, SHA-512 one by one.
    fn batch_into<'m>(
        &self,
        tweak: Tweak,
        adrs: &[Adrs],
        msg: impl Fn(usize) -> &'m [u8],
        out: &mut [u8],
        secret: bool,
    ) {
        let n = self.n;
        debug_assert_eq!(out.len(), adrs.len() * n);
        if let (
            Engine::Sha2 {
                mid512: Some(mid512), ..
            },
            Tweak::H,
        ) = (&self.engine, tweak)
        {
            for (i, a) in adrs.iter().enumerate() {
                let mut h = sha2::Sha512::clone(mid512);
                sha2::Digest::update(&mut h, a.compressed());
                sha2::Digest::update(&mut h, msg(i));
                out[i * n..][..n].copy_from_slice(&h.finalize()[..n]);
            }
            return;
        }
        // Each lane's message is its head (the address) and M, side by
        // side in one buffer.
        let len = adrs.first().map_or(0, |_| msg(0).len());
        let stride = self.head_len() + len;
        let mut scratch = vec![0u8; adrs.len() * stride];
        for (i, (a, slot)) in adrs.iter().zip(scratch.chunks_exact_mut(stride)).enumerate() {
            self.write_head(a, slot);
            slot[self.head_len()..].copy_from_slice(msg(i));
        }
        let messages: Vec<&[u8]> = scratch.chunks_exact(stride).collect();
        self.lanes_into(&messages, out, secret);
        if secret {
            wipe(&mut scratch);
        }
    }

    /// The bytes in front of M in a lane's message: ADRS^c (SHA-2, after
    /// the cached `PK.seed` block) or `PK.seed ‖ ADRS` (SHAKE).
    fn head_len(&self) -> usize {
        match self.engine {
            Engine::Sha2 { .. } => 22,
            Engine::Shake => self.n + 32,
        }
    }

    /// Writes the head of address `a` at the start of `slot`.
    fn write_head(&self, a: &Adrs, slot: &mut [u8]) {
        match self.engine {
            Engine::Sha2 { .. } => slot[..22].copy_from_slice(&a.compressed()),
            Engine::Shake => {
                slot[..self.n].copy_from_slice(&self.pk_seed[..self.n]);
                slot[self.n..self.n + 32].copy_from_slice(a.bytes());
            }
        }
    }

    /// F or H (SHA-256 or SHAKE256) of whole lane messages, n bytes each
    /// into `out`, in the lanes of the active kernel.
    fn lanes_into(&self, messages: &[&[u8]], out: &mut [u8], secret: bool) {
        let n = self.n;
        match &self.engine {
            Engine::Sha2 { mid256, .. } => {
                let mut digests = vec![[0u8; 32]; messages.len()];
                digest::sha256_many_from_into(mid256, &[], messages, &mut digests);
                for (d, o) in digests.iter().zip(out.chunks_exact_mut(n)) {
                    o.copy_from_slice(&d[..n]);
                }
                if secret {
                    wipe(digests.as_flattened_mut());
                }
            }
            Engine::Shake => digest::shake256_many_into(messages, out),
        }
    }

    /// WOTS+ chains in lock step (`chain`, FIPS 205 Algorithm 5): chain i
    /// (address `adrs[i]`) steps from position `start[i]` for `steps[i]`
    /// steps, in place in `vals` (n-byte values side by side). Each step
    /// is one batch of the chains still running; a chain's message stays
    /// in one place, where only its hash address and value change between
    /// steps. The scratch, which held secret chain starts, is wiped.
    pub(super) fn chains_in_place(&self, adrs: &[Adrs], start: &[u8], steps: &[u8], vals: &mut [u8]) {
        if let Engine::Sha2 { mid256, .. } = &self.engine {
            // The chain kernel keeps the lanes' blocks in registers across
            // steps, where the active backend has one (AVX-512).
            let heads: Vec<[u8; 22]> = adrs.iter().map(Adrs::compressed).collect();
            let job = digest::Chains {
                mid: mid256,
                heads: &heads,
                start,
                steps,
            };
            if digest::sha256_chains_in_place(&job, vals) {
                return;
            }
        }
        let n = self.n;
        let head = self.head_len();
        let stride = head + n;
        // The hash address is the last word of the head.
        let word3 = head - 4;
        let mut scratch = vec![0u8; adrs.len() * stride];
        for ((a, slot), v) in adrs
            .iter()
            .zip(scratch.chunks_exact_mut(stride))
            .zip(vals.chunks_exact(n))
        {
            self.write_head(a, slot);
            slot[head..].copy_from_slice(v);
        }
        let most = steps.iter().copied().max().unwrap_or(0);
        let mut running: Vec<usize> = (0..adrs.len()).collect();
        let mut out = vec![0u8; adrs.len() * n];
        for t in 0..most {
            running.retain(|&i| steps[i] > t);
            for &i in &running {
                let at = u32::from(start[i] + t).to_be_bytes();
                scratch[i * stride + word3..][..4].copy_from_slice(&at);
            }
            let messages: Vec<&[u8]> = running
                .iter()
                .map(|&i| &scratch[i * stride..][..stride])
                .collect();
            let used = running.len() * n;
            self.lanes_into(&messages, &mut out[..used], true);
            for (&i, o) in running.iter().zip(out.chunks_exact(n)) {
                scratch[i * stride + head..][..n].copy_from_slice(o);
            }
        }
        for (slot, v) in scratch.chunks_exact(stride).zip(vals.chunks_exact_mut(n)) {
            v.copy_from_slice(&slot[head..]);
        }
        wipe(&mut scratch);
        wipe(&mut out);
    }

    /// `PRF_msg(SK.prf, opt_rand, M)` (n bytes), M given in parts.
    pub(super) fn prf_msg(&self, sk_prf: &[u8], opt_rand: &[u8], msg: &[&[u8]]) -> [u8; 32] {
        let n = self.n;
        let mut r = [0u8; 32];
        match &self.engine {
            Engine::Sha2 { mid512, .. } => {
                let alg = if mid512.is_some() {
                    aws_lc_rs::hmac::HMAC_SHA512
                } else {
                    aws_lc_rs::hmac::HMAC_SHA256
                };
                let key = aws_lc_rs::hmac::Key::new(alg, sk_prf);
                let mut ctx = aws_lc_rs::hmac::Context::with_key(&key);
                ctx.update(opt_rand);
                for part in msg {
                    ctx.update(part);
                }
                r[..n].copy_from_slice(&ctx.sign().as_ref()[..n]);
            }
            Engine::Shake => {
                let mut h = sha3::Shake256::default();
                h.update(sk_prf);
                h.update(opt_rand);
                for part in msg {
                    h.update(part);
                }
                h.finalize_xof_into(&mut r[..n]);
            }
        }
        r
    }

    /// `H_msg(R, PK.seed, PK.root, M)`: the m-byte message digest.
    pub(super) fn h_msg(&self, r: &[u8], pk_root: &[u8], msg: &[&[u8]]) -> Vec<u8> {
        let n = self.n;
        let seed = &self.pk_seed[..n];
        let mut out = vec![0u8; self.m];
        match &self.engine {
            Engine::Sha2 { mid512: None, .. } => {
                let mut h = sha2::Sha256::new();
                for part in [r, seed, pk_root].into_iter().chain(msg.iter().copied()) {
                    sha2::Digest::update(&mut h, part);
                }
                let inner = h.finalize();
                mgf1::<sha2::Sha256>(&[r, seed, &inner], &mut out);
            }
            Engine::Sha2 { mid512: Some(_), .. } => {
                let mut h = sha2::Sha512::new();
                for part in [r, seed, pk_root].into_iter().chain(msg.iter().copied()) {
                    sha2::Digest::update(&mut h, part);
                }
                let inner = h.finalize();
                mgf1::<sha2::Sha512>(&[r, seed, &inner], &mut out);
            }
            Engine::Shake => {
                let mut h = sha3::Shake256::default();
                for part in [r, seed, pk_root].into_iter().chain(msg.iter().copied()) {
                    h.update(part);
                }
                h.finalize_xof_into(&mut out);
            }
        }
        out
    }
}

/// MGF1 (RFC 8017 B.2.1) over `seed` (in parts) into `out`.
fn mgf1<D: sha2::Digest + Clone>(seed: &[&[u8]], out: &mut [u8]) {
    let mut base = D::new();
    for part in seed {
        base.update(part);
    }
    let size = <D as sha2::digest::OutputSizeUser>::output_size();
    for (counter, chunk) in (0u32..).zip(out.chunks_mut(size)) {
        let mut h = base.clone();
        h.update(counter.to_be_bytes());
        chunk.copy_from_slice(&h.finalize()[..chunk.len()]);
    }
}
