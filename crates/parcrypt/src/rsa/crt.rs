//! The RSA private operation: blinded, CRT halves on two threads, Garner
//! recombination, fault check.

use std::sync::{Mutex, PoisonError};

use super::Error;
use crate::ffi::BackendError;
use crate::ffi::bn::{self, Bn, Ctx, Mont};
use crate::ffi::rsa::Components;
use crate::par::Parallelism;

/// How many times one blinding pair is reused (squared after each use)
/// before a fresh random one is made — AWS-LC's and OpenSSL's policy.
const BLINDING_USES: u32 = 32;

/// How the private operation computes its two CRT halves.
///
/// AWS-LC has a dual exponentiation kernel for AVX-512 IFMA CPUs that computes
/// both halves at once in SIMD lanes on one core (1024-, 1536- and 2048-bit
/// primes, i.e. RSA-2048/3072/4096). Where it applies it beats two threads
/// running one half each: measured here, RSA-2048 0.34 ms on one core against
/// about 0.45 ms on two. Elsewhere the halves run on two threads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum CrtMode {
    /// The dual SIMD kernel where the CPU and key size allow it, otherwise
    /// the halves on two threads (when the `Parallelism` has two). The default.
    #[default]
    Auto,
    /// Always the halves on two threads (the JCE paper's method) when the
    /// `Parallelism` has two; for measuring it on CPUs where `Auto` would
    /// pick the SIMD kernel.
    Threads,
    /// Always one call to the backend's dual exponentiation on the calling
    /// thread (SIMD where available, else the halves one after the other).
    Dual,
}

impl std::str::FromStr for CrtMode {
    type Err = crate::name::UnknownName;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "auto" => Ok(CrtMode::Auto),
            "threads" => Ok(CrtMode::Threads),
            "dual" => Ok(CrtMode::Dual),
            _ => Err(crate::name::UnknownName::new(
                "CRT mode",
                s,
                "auto, threads or dual",
            )),
        }
    }
}

/// Whether AWS-LC's AVX-512 IFMA dual exponentiation runs for primes of
/// `p_bits` and `q_bits`: the CPU test is AWS-LC's own
/// (`CRYPTO_is_AVX512IFMA_capable`: F, DQ, IFMA, BW and VL), under
/// `PARCRYPT_CPU_MASK` as AWS-LC is.
fn dual_simd_applies(p_bits: usize, q_bits: usize) -> bool {
    p_bits == q_bits
        && matches!(p_bits, 1024 | 1536 | 2048)
        && crate::cpu::has(crate::cpu::Feature::Avx512Ifma)
}

/// `r^e` and `r⁻¹` mod n, both in Montgomery form.
struct Blinding {
    a: Bn,
    ai: Bn,
    uses: u32,
}

/// A private key's values for the CRT, with Montgomery constants made once.
pub(crate) struct Crt {
    n: Mont,
    e: Bn,
    p: Mont,
    q: Mont,
    dp: Bn,
    dq: Bn,
    /// q⁻¹ mod p in Montgomery form.
    qinv_mont: Bn,
    size: usize,
    blindings: Mutex<Vec<Blinding>>,
    mode: CrtMode,
    /// Whether the backend's dual kernel is SIMD for this key on this CPU.
    dual_simd: bool,
}

impl std::fmt::Debug for Crt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Crt({} bits)", self.n.modulus().bits())
    }
}

impl Crt {
    /// From the key's parts. The primes must have the same number of 64-bit
    /// words (every generated key does): each half's input is reduced by a
    /// Montgomery reduction, which is exact only then.
    pub(crate) fn new(c: &Components) -> Result<Crt, Error> {
        let missing = || Error::UnsupportedKey("private key without CRT parameters".into());
        let (p, q) = (
            c.p.as_ref().ok_or_else(missing)?,
            c.q.as_ref().ok_or_else(missing)?,
        );
        let (dp, dq) = (
            c.dp.as_ref().ok_or_else(missing)?,
            c.dq.as_ref().ok_or_else(missing)?,
        );
        let qinv = c.qinv.as_ref().ok_or_else(missing)?;
        if p.bits().div_ceil(64) != q.bits().div_ceil(64) {
            return Err(Error::UnsupportedKey(format!(
                "primes of unequal size ({} and {} bits)",
                p.bits(),
                q.bits()
            )));
        }
        let mut ctx = Ctx::new();
        let words = p.bits().div_ceil(64);
        let p_mont = Mont::secret(p, &mut ctx)?;
        let q_mont = Mont::secret(q, &mut ctx)?;
        let qinv_mont = p_mont.to_mont(qinv, &mut ctx)?;
        Ok(Crt {
            n: Mont::public(&c.n, &mut ctx)?,
            e: c.e.dup(),
            p: p_mont,
            q: q_mont,
            dp: dp.with_width(words)?,
            dq: dq.with_width(words)?,
            qinv_mont,
            size: c.n.bits().div_ceil(8),
            blindings: Mutex::new(Vec::new()),
            mode: CrtMode::Auto,
            dual_simd: dual_simd_applies(p.bits(), q.bits()),
        })
    }

    pub(crate) fn set_mode(&mut self, mode: CrtMode) {
        self.mode = mode;
    }

    pub(crate) fn mode(&self) -> CrtMode {
        self.mode
    }

    /// Whether `Auto` computes both halves on one core with SIMD.
    pub(crate) fn dual_simd(&self) -> bool {
        self.dual_simd
    }

    /// The modulus.
    pub(crate) fn n(&self) -> &Bn {
        self.n.modulus()
    }

    /// `input^d mod n` for a big-endian `input < n`, as `size` bytes. The two
    /// halves run under `par` (at most two threads are useful).
    pub(crate) fn private(&self, input: &[u8], par: &Parallelism) -> Result<Vec<u8>, Error> {
        let c = Bn::from_be_bytes(input);
        if c.cmp_vartime(self.n()) != std::cmp::Ordering::Less {
            return Err(Error::Decryption);
        }
        let mut ctx = Ctx::new();
        let mut blinding = self.take_blinding(&mut ctx)?;
        // c·r^e: a is r^e·R, and a Montgomery product divides by R.
        let blinded = self.n.mul_mont(&c, &blinding.a, &mut ctx)?;
        let (m_p, m_q) = self.halves(&blinded, par)?;
        let m = self.garner(&m_p, &m_q, &mut ctx)?;
        // Fault check: a wrong half (a glitch, a bit flip) would otherwise
        // give a result whose gcd with n reveals a prime (Boneh–DeMillo–Lipton).
        let check = self.n.exp_public_vartime(&m, &self.e, &mut ctx)?;
        if !check.eq_consttime(&blinded) {
            return Err(Error::Fault);
        }
        let out = self.n.mul_mont(&m, &blinding.ai, &mut ctx)?;
        blinding.a = self.n.mul_mont(&blinding.a, &blinding.a, &mut ctx)?;
        blinding.ai = self.n.mul_mont(&blinding.ai, &blinding.ai, &mut ctx)?;
        blinding.uses += 1;
        if blinding.uses < BLINDING_USES {
            self.blindings
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(blinding);
        }
        out.to_be_padded(self.size).ok_or(Error::Backend)
    }

    /// `x^dp mod p` and `x^dq mod q`, in parallel when `par` allows.
    fn halves(&self, x: &Bn, par: &Parallelism) -> Result<(Bn, Bn), Error> {
        let threads = par.is_parallel();
        let dual = match self.mode {
            CrtMode::Dual => true,
            CrtMode::Threads => !threads,
            CrtMode::Auto => !threads || self.dual_simd,
        };
        if dual {
            let mut ctx = Ctx::new();
            let x_p = self.p.reduce(x, &mut ctx)?;
            let x_q = self.q.reduce(x, &mut ctx)?;
            return Ok(Mont::exp_consttime_x2(
                &self.p, &x_p, &self.dp, &self.q, &x_q, &self.dq, &mut ctx,
            )?);
        }
        // Each thread its own scratch context; the Montgomery constants and
        // exponents are shared read-only.
        let half = |mont: &Mont, exp: &Bn| -> Result<Bn, BackendError> {
            let mut ctx = Ctx::new();
            let reduced = mont.reduce(x, &mut ctx)?;
            mont.exp_consttime(&reduced, exp, &mut ctx)
        };
        let (m_p, m_q) = par.join(|| half(&self.p, &self.dp), || half(&self.q, &self.dq));
        Ok((m_p?, m_q?))
    }

    /// Garner: `m = m_q + q · ((m_p − m_q) · q⁻¹ mod p)`, constant-time steps.
    fn garner(&self, m_p: &Bn, m_q: &Bn, ctx: &mut Ctx) -> Result<Bn, Error> {
        // m_q < q may exceed p; reduce it the same way as the input.
        let m_q_mod_p = self.p.reduce(m_q, ctx)?;
        let h = self.p.sub(m_p, &m_q_mod_p)?;
        // qinv is in Montgomery form, so the product comes out plain.
        let h = self.p.mul_mont(&h, &self.qinv_mont, ctx)?;
        let hq = bn::mul_consttime(&h, self.q.modulus(), ctx)?;
        Ok(bn::add_consttime(&hq, m_q)?)
    }

    fn take_blinding(&self, ctx: &mut Ctx) -> Result<Blinding, Error> {
        if let Some(b) = self
            .blindings
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .pop()
        {
            return Ok(b);
        }
        loop {
            let r = Bn::random_below(self.n())?;
            // r shares a factor with n with negligible probability; retry then.
            let Some(r_inv) = self.n.inverse_blinded(&r, ctx)? else {
                continue;
            };
            let r_e = self.n.exp_public_vartime(&r, &self.e, ctx)?;
            return Ok(Blinding {
                a: self.n.to_mont(&r_e, ctx)?,
                ai: self.n.to_mont(&r_inv, ctx)?,
                uses: 0,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use crate::keys::SigningKey as _;
    use crate::par::Strategy;
    use crate::rsa::PrivateKey;

    /// `x^d mod n` the slow, direct way: no CRT, no blinding.
    fn direct(key: &PrivateKey, x: &Bn) -> Vec<u8> {
        let c = key.rsa().components();
        let mut ctx = Ctx::new();
        let n = Mont::public(&c.n, &mut ctx).unwrap();
        let m = n.exp_consttime(x, c.d.as_ref().unwrap(), &mut ctx).unwrap();
        m.to_be_padded(key.size()).unwrap()
    }

    #[test]
    fn crt_equals_direct_exponentiation_for_every_strategy() {
        // Every strategy on 1 to 4 threads; under emulation
        // (`crate::test_schedules`: the aarch64 run checks AWS-LC's
        // arithmetic there, the native run the schedules) a cross-section
        // of three, a quarter of the emulated private operations.
        let schedules = crate::test_schedules(4);
        for bits in [1024, 2048, 3072] {
            let key = PrivateKey::generate(bits, &Parallelism::default()).unwrap();
            let k = key.size();
            let n = key.rsa().components().n.to_be_padded(k).unwrap();
            let mut n_minus_1 = n.clone();
            *n_minus_1.last_mut().unwrap() -= 1; // n is odd
            let mut inputs = vec![
                vec![0; k],
                {
                    let mut one = vec![0; k];
                    one[k - 1] = 1;
                    one
                },
                n_minus_1,
            ];
            inputs.extend((1..6u8).map(|i| {
                (0..k)
                    .map(|j| if j == 0 { 0 } else { (j as u8).wrapping_mul(i) })
                    .collect()
            }));
            for x in &inputs {
                let want = direct(&key, &Bn::from_be_bytes(x));
                for mode in [CrtMode::Auto, CrtMode::Threads, CrtMode::Dual] {
                    let key = PrivateKey::from_pkcs8_der(
                        key.to_pkcs8_der().unwrap().expose(),
                        &Parallelism::sequential(),
                    )
                    .unwrap()
                    .with_crt_mode(mode);
                    for par in &schedules {
                        let got = key.private_raw(x, par).unwrap();
                        assert_eq!(got, want, "{bits} bits, {mode:?}, {par:?}");
                    }
                }
            }
            // Inputs not below n are refused.
            assert_eq!(
                key.private_raw(&n, &Parallelism::default()),
                Err(Error::Decryption)
            );
            assert_eq!(
                key.private_raw(&vec![0xff; k], &Parallelism::default()),
                Err(Error::Decryption)
            );
        }
    }

    #[test]
    fn blinding_is_refreshed_and_stays_correct() {
        let key = PrivateKey::generate(1024, &Parallelism::default()).unwrap();
        let x: Vec<u8> = (0..key.size())
            .map(|j| if j == 0 { 0 } else { j as u8 })
            .collect();
        let want = direct(&key, &Bn::from_be_bytes(&x));
        // Past BLINDING_USES, so the pair is squared 31 times and then replaced.
        for _ in 0..(2 * BLINDING_USES + 3) {
            assert_eq!(key.private_raw(&x, &Parallelism::sequential()).unwrap(), want);
        }
    }

    #[test]
    fn a_faulty_half_is_caught_and_nothing_released() {
        let key = PrivateKey::generate(2048, &Parallelism::default()).unwrap();
        let mut c = key.rsa().components();
        // A wrong dP stands for a fault in the p half (a glitch, a flipped bit).
        c.dp = Some(bn::add_consttime(c.dp.as_ref().unwrap(), &Bn::from_u64(2)).unwrap());
        let x: Vec<u8> = (0..key.size())
            .map(|j| if j == 0 { 0 } else { j as u8 })
            .collect();
        for mode in [CrtMode::Threads, CrtMode::Dual] {
            let mut crt = Crt::new(&c).unwrap();
            crt.set_mode(mode);
            for par in [Parallelism::sequential(), Parallelism::new(2, Strategy::Static)] {
                assert_eq!(crt.private(&x, &par), Err(Error::Fault), "{mode:?} {par:?}");
            }
        }
    }
}
