//! Many SHA-256s at once: independent messages hashed side by side.
//!
//! One SHA-256 is a chain of 64 dependent rounds per block, so a single
//! message keeps the CPU's SHA unit (or vector units) waiting on latency.
//! Independent messages — the leaves of a Merkle tree, the node pairs of a
//! level — have no such chain between them: several can be interleaved on
//! one core. The [`Backend`]s are the ways to do it on x86-64:
//!
//! | backend | how | needs |
//! |---|---|---|
//! | `sha2` | one message at a time, RustCrypto `sha2` (SHA-NI when present) | nothing |
//! | `shani-x2` | SHA-NI, 2 messages' rounds interleaved | SHA, SSSE3, SSE4.1 |
//! | `shani-x4` | SHA-NI, 4 messages interleaved | SHA, SSSE3, SSE4.1 |
//! | `avx2-x8` | 8 messages, one per 32-bit lane of a 256-bit register | AVX2 |
//! | `avx512-x16` | 16 messages, one per lane of a 512-bit register (two such groups interleaved) | AVX-512 F and BW |
//!
//! Every backend hashes the same messages to the same digests (proved
//! against `sha2` for every length 0..=1100 and random lengths up to 1 MiB,
//! and from midstates against AWS-LC, in `tests/it/sha_many.rs`). Which one runs is chosen once per process
//! (`README.md` beside this file has the measurements behind the choice),
//! can be forced with the environment variable `PARCRYPT_SHA256_BACKEND`,
//! and can be switched at run time with [`Backend::force`]. No backend ever
//! runs on a CPU that lacks its instructions: each call checks. An idle
//! lane costs as much as a busy one, so a wide backend hands a batch's tail
//! shorter than half a pass to a narrower one (SHA-NI ×4, else AVX2, else
//! `sha2`).
//!
//! Messages are `prefix ‖ body`: the prefix (RFC 6962's `0x00` leaf byte,
//! `0x01` node byte) is never copied in front of the body; blocks that lie
//! inside a body are read where they are, only the first and the padding
//! blocks are assembled on the stack. Messages that share whole first
//! blocks (SLH-DSA-SHA2's `PK.seed` block) start from a cached
//! [`Midstate`] instead of the initial state. SLH-DSA's WOTS+ chains, one
//! F after another on the same lanes, have chain kernels of their own
//! (AVX-512 and SHA-NI; crate-private `sha256_chains_in_place`) that keep
//! each lane's block from step to step, tested against one-shot `sha2`.
#![allow(unsafe_code)]
#![allow(clippy::needless_range_loop)] // lane loops read best indexed

#[cfg(target_arch = "x86_64")]
mod avx2;
// AVX-512 intrinsics are stable from Rust 1.89; `build.rs` sets the cfg then.
#[cfg(all(target_arch = "x86_64", parcrypt_avx512))]
mod avx512;
mod backend;
mod driver;
mod midstate;
#[cfg(target_arch = "x86_64")]
mod shani;

pub use self::backend::{BACKEND_ENV, Backend, EnvError, Unavailable};
use self::driver::{Batch, Pairs, single};
pub use self::midstate::Midstate;
// What the kernels share with the driver (`super::…` in each kernel).
#[cfg(target_arch = "x86_64")]
use self::driver::{BLOCK, Bodies, K, finish_lanes, gather, lanes};

/// A SHA-256 digest.
pub type Digest = [u8; 32];

/// `out[i]` = SHA-256(`messages[i]`) on the [active](Backend::active) backend.
///
/// # Panics
/// If `out.len() != messages.len()`.
pub fn sha256_many_into(messages: &[&[u8]], out: &mut [Digest]) {
    sha256_many_prefixed_into(&[], messages, out);
}

/// `out[i]` = SHA-256(`prefix ‖ messages[i]`) on the active backend.
///
/// # Panics
/// If `out.len() != messages.len()`.
pub fn sha256_many_prefixed_into(prefix: &[u8], messages: &[&[u8]], out: &mut [Digest]) {
    let backend = Backend::active();
    if backend.sha256_many_prefixed_into(prefix, messages, out).is_err() {
        // Unreachable: `active` only returns available backends.
        single(&Batch::new(prefix, messages), out);
    }
}

/// `out[i]` = SHA-256(the blocks of `mid` ‖ `prefix ‖ messages[i]`) on the
/// active backend: messages that share their first blocks (SLH-DSA-SHA2's
/// `PK.seed ‖ 0^(64−n)`) hash on from the cached state, one compression per
/// 64 bytes of the rest (`ADRSc ‖ M` of 22 + 16 or 22 + 32 bytes: one).
///
/// # Panics
/// If `out.len() != messages.len()`.
pub fn sha256_many_from_into(mid: &Midstate, prefix: &[u8], messages: &[&[u8]], out: &mut [Digest]) {
    let backend = Backend::active();
    if backend.sha256_many_from_into(mid, prefix, messages, out).is_err() {
        // Unreachable: `active` only returns available backends.
        single(&Batch::from_midstate(mid, prefix, messages), out);
    }
}

/// The WOTS+ chains of SLH-DSA-SHA2 (FIPS 205 Algorithm 5 with its F): chain
/// `i` replaces its n-byte value `vals[i·n..]` by
/// `SHA-256(mid ‖ head ‖ value)[..n]` `steps[i]` times, where `head` is
/// `heads[i]` (the 22-byte compressed address, ADRSc) with its last four
/// bytes (the hash address) set to `start[i] + t` at step `t`, and `mid`
/// the cached `PK.seed` block.
pub(crate) struct Chains<'a> {
    pub(crate) mid: &'a Midstate,
    pub(crate) heads: &'a [[u8; 22]],
    pub(crate) start: &'a [u8],
    pub(crate) steps: &'a [u8],
}

/// Runs [`Chains`] in place on the active backend's chain kernel, which
/// keeps every lane's block in registers from step to step. Returns
/// `false`, having written nothing, when the active backend has none
/// (AVX-512 ×16 and SHA-NI ×2/×4 have one) or n is not 16, 24 or 32: the caller then steps
/// the chains through [`sha256_many_from_into`], which gives the same
/// values (`tests::chain_kernel_equals_one_shot_chains`).
///
/// # Panics
/// If `vals` is not n bytes per head, or `start`/`steps` not one per head.
pub(crate) fn sha256_chains_in_place(job: &Chains<'_>, vals: &mut [u8]) -> bool {
    chains_sorted_on(Backend::active(), job, vals)
}

/// [`chains_on`] with the chains ordered by step count, longest first, when
/// the counts differ (a signature's or a verification's chains): a kernel
/// pass runs as long as its longest lane, so lanes of like length share
/// passes. The order comes from the public message digest; the values go
/// back to their places.
fn chains_sorted_on(backend: Backend, job: &Chains<'_>, vals: &mut [u8]) -> bool {
    let count = job.heads.len();
    if count == 0 || job.steps.iter().all(|&s| s == job.steps[0]) {
        return chains_on(backend, job, vals);
    }
    assert_eq!(vals.len() % count, 0, "n bytes of value per chain");
    let n = vals.len() / count;
    let mut order: Vec<usize> = (0..count).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(job.steps[i]));
    let heads: Vec<[u8; 22]> = order.iter().map(|&i| job.heads[i]).collect();
    let start: Vec<u8> = order.iter().map(|&i| job.start[i]).collect();
    let steps: Vec<u8> = order.iter().map(|&i| job.steps[i]).collect();
    let mut sorted: Vec<u8> = order.iter().flat_map(|&i| &vals[i * n..][..n]).copied().collect();
    let sorted_job = Chains {
        mid: job.mid,
        heads: &heads,
        start: &start,
        steps: &steps,
    };
    let done = chains_on(backend, &sorted_job, &mut sorted);
    if done {
        for (&i, v) in order.iter().zip(sorted.chunks_exact(n)) {
            vals[i * n..][..n].copy_from_slice(v);
        }
    }
    crate::secret::wipe(&mut sorted);
    done
}

/// The padded one-block messages of chains `first..first + L` (those that
/// exist: the count is returned) for a chain kernel — the cached block's
/// length counted, ADRSc, the n-byte value, padding — with their starts and
/// step counts (0 for lanes past the end), and the most steps of any.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn chain_blocks<const L: usize>(
    job: &Chains<'_>,
    first: usize,
    n: usize,
    vals: &[u8],
    bufs: &mut [[u8; BLOCK]; L],
    start: &mut [u32; L],
    steps: &mut [u32; L],
) -> (usize, u32) {
    let active = job.heads.len().saturating_sub(first).min(L);
    let bits = job
        .mid
        .blocks
        .wrapping_mul(64)
        .wrapping_add(22 + n as u64)
        .wrapping_mul(8);
    for l in 0..active {
        let i = first + l;
        let b = &mut bufs[l];
        b[..22].copy_from_slice(&job.heads[i]);
        b[22..22 + n].copy_from_slice(&vals[i * n..][..n]);
        b[22 + n] = 0x80;
        b[BLOCK - 8..].copy_from_slice(&bits.to_be_bytes());
        start[l] = u32::from(job.start[i]);
        steps[l] = u32::from(job.steps[i]);
    }
    (active, steps.iter().copied().max().unwrap_or(0))
}

/// [`sha256_chains_in_place`] on `backend`'s chain kernel, if it has one
/// and this CPU can run it.
fn chains_on(backend: Backend, job: &Chains<'_>, vals: &mut [u8]) -> bool {
    let count = job.heads.len();
    assert!(
        job.start.len() == count && job.steps.len() == count,
        "one start and one step count per chain"
    );
    if count == 0 {
        return true;
    }
    assert_eq!(vals.len() % count, 0, "n bytes of value per chain");
    let n = vals.len() / count;
    if ![16, 24, 32].contains(&n) {
        return false;
    }
    #[cfg(target_arch = "x86_64")]
    if matches!(backend, Backend::ShaNiX2 | Backend::ShaNiX4) && backend.is_available() {
        // SAFETY: `is_available` detected SHA, SSE2, SSSE3 and SSE4.1.
        unsafe {
            if backend == Backend::ShaNiX4 {
                shani::chains::<4>(job, n, vals);
            } else {
                shani::chains::<2>(job, n, vals);
            }
        }
        return true;
    }
    #[cfg(all(target_arch = "x86_64", parcrypt_avx512))]
    if backend == Backend::Avx512X16 && backend.is_available() {
        // SAFETY: `is_available` detected AVX-512 F and BW (and the mask
        // allows them); n is 16, 24 or 32.
        unsafe {
            match n {
                16 => avx512::chains::<4>(job, vals),
                24 => avx512::chains::<6>(job, vals),
                _ => avx512::chains::<8>(job, vals),
            }
        }
        return true;
    }
    let _ = (backend, vals);
    false
}

/// `out[i]` = SHA-256(`prefix ‖ nodes[2i] ‖ nodes[2i + 1]`) on the active
/// backend.
///
/// # Panics
/// If `nodes.len() != 2 * out.len()`.
pub fn sha256_pairs_into(prefix: &[u8], nodes: &[Digest], out: &mut [Digest]) {
    let backend = Backend::active();
    if backend.sha256_pairs_into(prefix, nodes, out).is_err() {
        single(&Batch::new(prefix, &Pairs(nodes)), out);
    }
}

/// SHA-256(`prefix ‖ message`) with the single-buffer backend: the reference
/// the many-message backends are compared with.
pub fn sha256_prefixed(prefix: &[u8], message: &[u8]) -> Digest {
    super::sha256_parts(&[prefix, message])
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    /// A small deterministic generator (xorshift), for reproducible cases.
    struct Gen(u64);

    impl Gen {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn bytes(&mut self, n: usize) -> Vec<u8> {
            (0..n).map(|_| self.next() as u8).collect()
        }
    }

    /// FIPS 205's `chain` with F = SHA-256(block ‖ ADRSc ‖ value)[..n], one
    /// hash at a time through RustCrypto `sha2` (the backend, not a kernel).
    fn one_shot_chain(block: &[u8], head: &[u8; 22], start: u8, steps: u8, value: &mut [u8]) {
        use sha2::Digest as _;
        for t in 0..steps {
            let mut h = *head;
            h[18..].copy_from_slice(&(u32::from(start) + u32::from(t)).to_be_bytes());
            let d = sha2::Sha256::new()
                .chain_update(block)
                .chain_update(h)
                .chain_update(&*value)
                .finalize();
            let n = value.len();
            value.copy_from_slice(&d[..n]);
        }
    }

    /// Every batch size from 0 to 70 chains (idle lanes, one and two groups,
    /// tails), the three node sizes, random heads, values, starts and step
    /// counts (0 included): the chain kernel equals one-shot SHA-256, and
    /// a backend without a kernel writes nothing.
    #[test]
    fn chain_kernel_equals_one_shot_chains() {
        let mut g = Gen(0x5eed_c4a1_2026_1202);
        let mut ran = 0;
        for n in [16, 24, 32] {
            for count in 0..=70usize {
                let block = g.bytes(64);
                let mid = Midstate::new(&block);
                let heads: Vec<[u8; 22]> = (0..count).map(|_| g.bytes(22).try_into().unwrap()).collect();
                let start: Vec<u8> = (0..count).map(|_| (g.next() % 20) as u8).collect();
                let steps: Vec<u8> = (0..count).map(|_| (g.next() % 17) as u8).collect();
                let vals = g.bytes(count * n);
                let mut want = vals.clone();
                for i in 0..count {
                    one_shot_chain(&block, &heads[i], start[i], steps[i], &mut want[i * n..][..n]);
                }
                let job = Chains {
                    mid: &mid,
                    heads: &heads,
                    start: &start,
                    steps: &steps,
                };
                for backend in Backend::ALL {
                    for run in [chains_on, chains_sorted_on] {
                        let mut got = vals.clone();
                        if run(backend, &job, &mut got) {
                            assert_eq!(got, want, "{backend}: n {n}, {count} chains");
                            ran += 1;
                        } else {
                            assert_eq!(got, vals, "{backend} has no chain kernel: nothing written");
                        }
                    }
                }
            }
        }
        // Which kernel ran is for the log (`--nocapture`): a CPU without
        // AVX-512 has none to test, and `tests/it/sha_many.rs` fails where CI
        // requires a backend this CPU lacks.
        eprintln!(
            "chain kernel checked in {ran} batches (AVX-512 available: {})",
            Backend::Avx512X16.is_available()
        );
    }

    /// Long chains with large starts (hash addresses past 255) and the
    /// largest steps, one and two groups.
    #[test]
    fn chain_kernel_long_chains() {
        let mut g = Gen(77);
        for count in [1, 16, 17, 32, 33] {
            let block = g.bytes(64);
            let mid = Midstate::new(&block);
            let heads: Vec<[u8; 22]> = (0..count).map(|_| g.bytes(22).try_into().unwrap()).collect();
            let start: Vec<u8> = (0..count).map(|i| 200 + (i % 50) as u8).collect();
            let steps: Vec<u8> = (0..count).map(|i| 255 - (i % 3) as u8).collect();
            let vals = g.bytes(count * 16);
            let mut want = vals.clone();
            for i in 0..count {
                one_shot_chain(&block, &heads[i], start[i], steps[i], &mut want[i * 16..][..16]);
            }
            let mut got = vals.clone();
            let job = Chains {
                mid: &mid,
                heads: &heads,
                start: &start,
                steps: &steps,
            };
            if chains_on(Backend::Avx512X16, &job, &mut got) {
                assert_eq!(got, want, "{count} chains");
            }
        }
    }
}
