//! RSA key generation with prime candidates raced across threads.
//!
//! The steps are FIPS 186-5 appendix A.1.3, made of AWS-LC's functions as
//! its `RSA_generate_key_ex` is: independent uniform odd candidates of
//! nlen/2 bits with the top two bits set (so all are above the
//! √2·2^(nlen/2−1) lower bound, as in Go), trial division by the odd primes
//! below 2^16 ([`super::trial`]), Miller–Rabin with AWS-LC's round count for
//! generation, gcd(p−1, e) = 1, |p − q| > 2^(nlen/2−100), d > 2^(nlen/2),
//! d = e⁻¹ mod lcm(p−1, q−1), all arithmetic on the primes constant-time,
//! and `RSA_check_key` at the end.
//!
//! How the threads share the search:
//! - `Sequential`: one thread finds p, then q.
//! - `Static` (the JCE paper): the threads are split into a p team and a q
//!   team (one thread each on two threads); each team races for its prime.
//!   The key is ready when the slower team finishes: about 0.75 of the
//!   sequential time on two threads, never 0.5.
//! - `WorkStealing`: every thread tests candidates for whichever prime is
//!   still missing; the first two acceptable primes win. Twice the candidate
//!   throughput, so about half the sequential time.
//!
//!   The Miller–Rabin rounds that confirm a likely prime are shared too:
//!   the racer that found it runs the first round alone (it rejects almost
//!   every composite), then posts the candidate, and every racer takes
//!   rounds from it, each with its own random base, until AWS-LC's count is
//!   done or one round finds a witness (README.md: "Confirming a prime on
//!   every core").
//!
//! Losing racers stop promptly: every racer polls a stop flag between
//! Miller–Rabin rounds.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError};

use zeroize::Zeroizing;

use super::trial::TrialDivision;
use super::{Error, PrivateKey};
use crate::ffi::bn::{self, BLINDED_ROUNDS, Bn, Ctx, MillerRabin, Mont};
use crate::ffi::rsa::{Components, RsaKey};
use crate::par::{Grain, Parallelism, Strategy};

/// The smallest key [`PrivateKey::generate`] makes (the papers' size; too
/// small for real use — say 2048 or more).
pub const MIN_BITS: usize = 1024;
/// The largest key [`PrivateKey::generate`] makes.
pub const MAX_BITS: usize = 16384;

const E: u64 = 65537;

/// One racer per item.
const RACERS: Grain = Grain {
    unit: 1,
    min_part: 1,
    task: 1,
};

/// What one key generation took.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KeygenStats {
    /// Prime candidates drawn, over all threads.
    pub candidates: u64,
    /// Prime pairs thrown away because d came out too small.
    pub restarts: u32,
}

/// The shared state of one search for two primes.
struct Search {
    prime_bits: usize,
    e: Bn,
    /// 2^(prime_bits − 100): the least allowed |p − q|.
    min_distance: Bn,
    slots: Mutex<[Option<Bn>; 2]>,
    /// Set when slot 0 / slot 1 / both are filled.
    filled: [AtomicBool; 3],
    candidates: AtomicU64,
    /// Whether racers share the rounds of likely primes (`WorkStealing`
    /// on two or more threads; `Static` keeps the paper's teams apart).
    shared: bool,
    /// The likely primes whose rounds are open to every racer.
    open: Mutex<Vec<Arc<Confirmation>>>,
}

/// The Miller–Rabin rounds of one likely prime, handed out one at a time
/// to whichever racer asks: AWS-LC's [`BLINDED_ROUNDS`] in all, each with
/// its own secret random base, every one of them AWS-LC's constant-time
/// round (`bn::MillerRabin`). The rounds are independent, so running them
/// on different threads changes nothing about the test's strength; a
/// witness found by any of them rejects the candidate and stops the rest.
struct Confirmation {
    mont: Mont,
    /// Rounds handed out so far (at most [`BLINDED_ROUNDS`]).
    granted: AtomicUsize,
    /// Set when no more rounds are handed out: a witness was found, or the
    /// racer that posted the candidate gave up (its prime was found
    /// elsewhere, or a round failed).
    over: AtomicBool,
    progress: Mutex<Progress>,
    reported: Condvar,
}

#[derive(Default)]
struct Progress {
    done: usize,
    uniform: usize,
    composite: bool,
    failed: bool,
}

impl Confirmation {
    fn new(mont: Mont) -> Confirmation {
        Confirmation {
            mont,
            granted: AtomicUsize::new(0),
            over: AtomicBool::new(false),
            progress: Mutex::new(Progress::default()),
            reported: Condvar::new(),
        }
    }

    /// Hands out one round, unless all are out or the test is over.
    fn claim(&self) -> bool {
        let mut granted = self.granted.load(Ordering::Acquire);
        loop {
            if granted >= BLINDED_ROUNDS || self.over.load(Ordering::Acquire) {
                return false;
            }
            match self.granted.compare_exchange_weak(
                granted,
                granted + 1,
                Ordering::AcqRel,
                Ordering::Acquire,
            ) {
                Ok(_) => return true,
                Err(now) => granted = now,
            }
        }
    }

    /// Runs the claimed round on this thread's context and reports it.
    fn run_round(&self, ctx: &mut Ctx) -> Result<bn::Round, Error> {
        let round = MillerRabin::new(&self.mont, ctx).and_then(|mut mr| mr.round());
        let mut progress = self.progress.lock().unwrap_or_else(PoisonError::into_inner);
        progress.done += 1;
        match round {
            Ok(r) => {
                progress.uniform += usize::from(r.uniform);
                if !r.possibly_prime {
                    progress.composite = true;
                    self.over.store(true, Ordering::Release);
                }
            }
            Err(_) => {
                progress.failed = true;
                self.over.store(true, Ordering::Release);
            }
        }
        drop(progress);
        self.reported.notify_all();
        Ok(round?)
    }

    /// Takes rounds of this candidate until none are left or `stop` is
    /// raised (a racer helping another's candidate).
    fn help(&self, ctx: &mut Ctx, stop: &AtomicBool) -> Result<(), Error> {
        while !stop.load(Ordering::Relaxed) && self.claim() {
            if !self.run_round(ctx)?.possibly_prime {
                break;
            }
        }
        Ok(())
    }

    /// Waits until every round handed out has been reported; the progress
    /// then.
    fn settle(&self) -> std::sync::MutexGuard<'_, Progress> {
        let mut progress = self.progress.lock().unwrap_or_else(PoisonError::into_inner);
        while progress.done < self.granted.load(Ordering::Acquire) && !progress.failed {
            progress = self
                .reported
                .wait(progress)
                .unwrap_or_else(PoisonError::into_inner);
        }
        progress
    }
}

impl Search {
    /// Tests candidates until the slots in `mask` (bit 0: p, bit 1: q) are
    /// filled, by this racer or another.
    fn race(&self, mask: u8) -> Result<(), Error> {
        let stop = match mask {
            0b01 => &self.filled[0],
            0b10 => &self.filled[1],
            _ => &self.filled[2],
        };
        let mut ctx = Ctx::new();
        let one = Bn::from_u64(1);
        let trial = TrialDivision::standard();
        // The candidate's words for trial division; they end up holding a
        // prime, so they are wiped when the race ends.
        let mut words = Zeroizing::new(vec![0u64; self.prime_bits.div_ceil(64)]);
        while !stop.load(Ordering::Relaxed) {
            // Another racer's likely prime first: its rounds are the
            // search's critical path.
            if let Some(open) = self.open_candidate() {
                open.help(&mut ctx, stop)?;
                continue;
            }
            self.candidates.fetch_add(1, Ordering::Relaxed);
            let candidate = draw(self.prime_bits)?;
            if !candidate.write_le_words(&mut words) {
                return Err(Error::Backend);
            }
            // A candidate with a small factor is thrown away at its first
            // one; one without takes the same path whatever its value
            // (README.md: "Key generation").
            if trial.has_small_factor(&words) {
                continue;
            }
            let confirmation = Arc::new(Confirmation::new(Mont::secret(&candidate, &mut ctx)?));
            // The first round alone: it finds a witness for nearly every
            // composite that passed trial division.
            if !(confirmation.claim() && confirmation.run_round(&mut ctx)?.possibly_prime) {
                continue;
            }
            let minus_one = bn::sub_consttime(&candidate, &one)?;
            if !bn::relatively_prime(&minus_one, &self.e, &mut ctx)? {
                continue;
            }
            match self.confirm(&confirmation, &mut ctx, stop)? {
                None => break,
                Some(false) => continue,
                Some(true) => self.offer(candidate, mask, &mut ctx)?,
            }
        }
        Ok(())
    }

    /// A likely prime of another racer with rounds left to take.
    fn open_candidate(&self) -> Option<Arc<Confirmation>> {
        if !self.shared {
            return None;
        }
        let open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        open.iter()
            .find(|c| c.granted.load(Ordering::Acquire) < BLINDED_ROUNDS && !c.over.load(Ordering::Acquire))
            .cloned()
    }

    /// The remaining rounds of a likely prime whose first round passed, on
    /// this racer and (when shared) any other that asks: `Some(true)` when
    /// every round passed, as many as AWS-LC's `BN_primality_test` runs for
    /// generation (at least [`BLINDED_ROUNDS`], and at least
    /// `bn::uniform_rounds_for_generation` with a uniform base);
    /// `Some(false)` at a witness; `None` when `stop` was raised meanwhile.
    fn confirm(
        &self,
        confirmation: &Arc<Confirmation>,
        ctx: &mut Ctx,
        stop: &AtomicBool,
    ) -> Result<Option<bool>, Error> {
        if self.shared {
            self.open
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(Arc::clone(confirmation));
        }
        let mine = confirmation.help(ctx, stop);
        // No more rounds for anyone; those already handed out finish.
        confirmation.over.store(true, Ordering::Release);
        if self.shared {
            self.open
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .retain(|c| !Arc::ptr_eq(c, confirmation));
        }
        let (composite, failed, done, uniform) = {
            let progress = confirmation.settle();
            (
                progress.composite,
                progress.failed,
                progress.done,
                progress.uniform,
            )
        };
        mine?;
        if failed {
            return Err(Error::Backend);
        }
        if composite {
            return Ok(Some(false));
        }
        if stop.load(Ordering::Relaxed) || done < BLINDED_ROUNDS {
            return Ok(None);
        }
        // AWS-LC goes on until enough bases were uniform (its draw rarely
        // is not); so does this, alone.
        let needed = bn::uniform_rounds_for_generation(self.prime_bits).ok_or(Error::Backend)?;
        let mut uniform = uniform;
        let mut mr = MillerRabin::new(&confirmation.mont, ctx)?;
        while uniform < needed {
            let round = mr.round()?;
            if !round.possibly_prime {
                return Ok(Some(false));
            }
            uniform += usize::from(round.uniform);
        }
        Ok(Some(true))
    }

    /// Puts a prime into a free slot of `mask`, unless it is too close to the
    /// other prime (FIPS 186-5 A.1.3 step 5.4; probability ~2^-100).
    fn offer(&self, prime: Bn, mask: u8, ctx: &mut Ctx) -> Result<(), Error> {
        let mut slots = self.slots.lock().unwrap_or_else(PoisonError::into_inner);
        let Some(slot) = (0..2).find(|&s| mask & (1 << s) != 0 && slots[s].is_none()) else {
            return Ok(());
        };
        if let Some(other) = &slots[1 - slot] {
            let distance = bn::abs_diff_consttime(&prime, other, ctx)?;
            if distance.cmp_vartime(&self.min_distance) != std::cmp::Ordering::Greater {
                return Ok(());
            }
        }
        slots[slot] = Some(prime);
        self.filled[slot].store(true, Ordering::Relaxed);
        if slots.iter().all(Option::is_some) {
            self.filled[2].store(true, Ordering::Relaxed);
        }
        Ok(())
    }
}

/// One prime candidate of `prime_bits` bits: uniform over the odd numbers
/// with the top two bits set, so at least 2^(b−1) + 2^(b−2) = 1.5·2^(b−1),
/// above FIPS 186-5's √2·2^(b−1), so no candidate is drawn only to fail
/// that bound (Go's FIPS 140-3 module draws its candidates the same way).
/// Two such primes multiply to exactly nlen bits.
fn draw(prime_bits: usize) -> Result<Bn, Error> {
    Ok(bn::random_odd_top_two(prime_bits)?)
}

/// Two primes for a `bits`-bit key, found by the threads of `par`.
fn find_primes(bits: usize, par: &Parallelism, e: &Bn) -> Result<(Bn, Bn, u64), Error> {
    let prime_bits = bits / 2;
    let search = Search {
        prime_bits,
        e: e.dup(),
        min_distance: Bn::power_of_two(prime_bits - 100),
        slots: Mutex::new([None, None]),
        filled: [
            AtomicBool::new(false),
            AtomicBool::new(false),
            AtomicBool::new(false),
        ],
        candidates: AtomicU64::new(0),
        shared: par.is_parallel() && par.strategy() == Strategy::WorkStealing,
        open: Mutex::new(Vec::new()),
    };
    let results = par.map_range(par.threads().get(), &RACERS, |ids| {
        let mask = if !par.is_parallel() || par.strategy() == Strategy::WorkStealing {
            0b11
        } else {
            // Static: racer i works for prime i mod 2 (a part holding several
            // racers works for all their primes).
            ids.fold(0u8, |m, i| m | (1 << (i % 2)))
        };
        search.race(mask)
    });
    for r in results {
        r?;
    }
    let candidates = search.candidates.load(Ordering::Relaxed);
    let [p, q] = search.slots.into_inner().unwrap_or_else(PoisonError::into_inner);
    match (p, q) {
        (Some(p), Some(q)) => Ok((p, q, candidates)),
        _ => Err(Error::Backend),
    }
}

/// The key from two primes, or `None` when d ≤ 2^(nlen/2) (then new primes
/// are needed; probability about 2^-(nlen/2)).
fn assemble(p: Bn, q: Bn, e: &Bn, bits: usize) -> Result<Option<RsaKey>, Error> {
    let (p, q) = if p.cmp_vartime(&q) == std::cmp::Ordering::Less {
        (q, p)
    } else {
        (p, q)
    };
    let prime_bits = bits / 2;
    let mut ctx = Ctx::new();
    let one = Bn::from_u64(1);
    let pm1 = bn::sub_consttime(&p, &one)?;
    let qm1 = bn::sub_consttime(&q, &one)?;
    let lambda = bn::lcm_consttime(&pm1, &qm1, &mut ctx)?;
    let Some(d) = bn::inverse_consttime(e, &lambda, &mut ctx)? else {
        return Ok(None);
    };
    if d.cmp_vartime(&Bn::power_of_two(prime_bits)) != std::cmp::Ordering::Greater {
        return Ok(None);
    }
    let n = bn::mul_consttime(&p, &q, &mut ctx)?;
    if n.bits() != bits {
        return Err(Error::Backend);
    }
    let dp = bn::rem_consttime(&d, &pm1, prime_bits, &mut ctx)?;
    let dq = bn::rem_consttime(&d, &qm1, prime_bits, &mut ctx)?;
    let p_mont = Mont::secret(&p, &mut ctx)?;
    let qinv = p_mont.inverse_secret_prime(&q, &mut ctx)?;
    let key = RsaKey::from_private_components(&Components {
        n,
        e: e.dup(),
        d: Some(d),
        p: Some(p),
        q: Some(q),
        dp: Some(dp),
        dq: Some(dq),
        qinv: Some(qinv),
    })?;
    Ok(Some(key))
}

/// Generates a `bits`-bit key with e = 65537 on the threads of `par`.
pub(crate) fn generate(bits: usize, par: &Parallelism) -> Result<(PrivateKey, KeygenStats), Error> {
    if !(MIN_BITS..=MAX_BITS).contains(&bits) || bits % 128 != 0 {
        return Err(Error::KeySize(bits));
    }
    let e = Bn::from_u64(E);
    let mut stats = KeygenStats::default();
    loop {
        let (p, q, candidates) = find_primes(bits, par, &e)?;
        stats.candidates += candidates;
        match assemble(p, q, &e, bits)? {
            // from_rsa runs RSA_check_key and builds the CRT constants.
            Some(key) => return Ok((PrivateKey::from_rsa(key)?, stats)),
            None => stats.restarts += 1,
        }
    }
}

impl PrivateKey {
    /// [`PrivateKey::generate`], also reporting how many candidates it drew
    /// (for the lab).
    pub fn generate_with_stats(bits: usize, par: &Parallelism) -> Result<(PrivateKey, KeygenStats), Error> {
        generate(bits, par)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pearson's χ² statistic of `counts` against equal expected counts.
    fn chi_squared(counts: &[u64]) -> f64 {
        let total: u64 = counts.iter().sum();
        let expected = total as f64 / counts.len() as f64;
        counts
            .iter()
            .map(|&c| (c as f64 - expected).powi(2) / expected)
            .sum()
    }

    /// The χ² value a uniform sample exceeds with probability 10⁻⁶, for
    /// `dof` degrees of freedom (Wilson–Hilferty; z = 4.753).
    fn critical(dof: usize) -> f64 {
        let k = dof as f64;
        let a = 2.0 / (9.0 * k);
        k * (1.0 - a + 4.753 * a.sqrt()).powi(3)
    }

    /// What one draw is counted by: the 8 bits under the two fixed top
    /// bits, bits 1..=8 (bit 0 is always 1), and the residue modulo
    /// 3·5·7·11 (uniform for uniform odd numbers, as 2 is invertible).
    fn buckets(words: &[u64], bits: usize) -> [usize; 3] {
        let bit = |i: usize| ((words[i / 64] >> (i % 64)) & 1) as usize;
        let top = (0..8).fold(0, |acc, i| acc << 1 | bit(bits - 3 - i));
        let low = (words[0] >> 1 & 0xff) as usize;
        let modulus = 3 * 5 * 7 * 11u128;
        let residue = words
            .iter()
            .rev()
            .fold(0u128, |acc, &w| ((acc << 64) + u128::from(w)) % modulus);
        [top, low, residue as usize]
    }

    /// Counts for `draws` candidates from `source`, per kind of bucket.
    fn histograms(draws: usize, bits: usize, mut source: impl FnMut() -> Bn) -> [Vec<u64>; 3] {
        let mut h = [vec![0u64; 256], vec![0u64; 256], vec![0u64; 1155]];
        let mut words = vec![0u64; bits / 64];
        for _ in 0..draws {
            let c = source();
            assert!(c.write_le_words(&mut words));
            for (hist, b) in h.iter_mut().zip(buckets(&words, bits)) {
                hist[b] += 1;
            }
        }
        h
    }

    fn uniform(h: &[u64]) -> bool {
        chi_squared(h) < critical(h.len() - 1)
    }

    /// The candidates themselves, before any test, are uniform over the odd
    /// numbers with the top two bits set: their exact size and fixed bits
    /// always, and by χ² (10^5 draws, false alarm 10⁻⁶ per histogram) the
    /// bits below the fixed ones, the lowest bits and the residues modulo
    /// 1155. The same statistic flags the survivors of trial division (no
    /// multiple of 3, 5, 7 or 11 among them), so it can fail.
    #[test]
    fn candidates_are_uniform_over_their_range() {
        let bits = 1024;
        let mut fixed_ok = true;
        let h = histograms(100_000, bits, || {
            let c = draw(bits).unwrap();
            let mut w = vec![0u64; bits / 64];
            assert!(c.write_le_words(&mut w));
            fixed_ok &= c.bits() == bits && w[bits / 64 - 1] >> 62 == 0b11 && w[0] & 1 == 1;
            c
        });
        assert!(
            fixed_ok,
            "every candidate has exactly {bits} bits, the top two set, and is odd"
        );
        for (name, hist) in ["top bits", "low bits", "mod 1155"].iter().zip(&h) {
            assert!(
                uniform(hist),
                "{name}: χ² {} over {} buckets (critical {})",
                chi_squared(hist),
                hist.len(),
                critical(hist.len() - 1)
            );
        }
        // The control: candidates that passed trial division are not uniform.
        let trial = TrialDivision::standard();
        let survivors = histograms(20_000, bits, || {
            loop {
                let c = draw(bits).unwrap();
                let mut w = vec![0u64; bits / 64];
                assert!(c.write_le_words(&mut w));
                if !trial.has_small_factor(&w) {
                    break c;
                }
            }
        });
        assert!(
            !uniform(&survivors[2]),
            "the χ² test cannot see a filtered sample"
        );
    }

    /// The primes of a key have the size asked and the top two bits set.
    #[test]
    fn primes_have_their_top_two_bits_set() {
        for par in [
            Parallelism::sequential(),
            Parallelism::new(3, Strategy::WorkStealing),
        ] {
            let (p, q, candidates) = find_primes(1024, &par, &Bn::from_u64(E)).unwrap();
            assert!(candidates >= 2);
            for prime in [p, q] {
                let mut w = vec![0u64; 8];
                assert!(prime.write_le_words(&mut w));
                assert_eq!(prime.bits(), 512);
                assert_eq!(w[7] >> 62, 0b11);
            }
        }
    }

    /// Every schedule's primes pass AWS-LC's own whole test
    /// (`BN_primality_test` with its generation count), whether their
    /// rounds ran on one racer or were shared (`WorkStealing`).
    #[test]
    fn every_schedules_primes_pass_aws_lcs_own_test() {
        let never = AtomicBool::new(false);
        let mut ctx = Ctx::new();
        for par in [
            Parallelism::sequential(),
            Parallelism::new(2, Strategy::Static),
            Parallelism::new(2, Strategy::WorkStealing),
            Parallelism::new(3, Strategy::WorkStealing),
            Parallelism::new(8, Strategy::WorkStealing),
        ] {
            for bits in [1024, 2048] {
                let (p, q, _) = find_primes(bits, &par, &Bn::from_u64(E)).unwrap();
                for prime in [p, q] {
                    assert_eq!(
                        bn::miller_rabin(&prime, &mut ctx, &never).unwrap(),
                        Some(true),
                        "{bits}-bit key, {par:?}"
                    );
                }
            }
        }
    }

    /// One round at a time agrees with AWS-LC's whole test on random
    /// candidates that pass trial division (composites and primes alike),
    /// and a witness ends a composite at its first round nearly always.
    #[test]
    fn rounds_one_at_a_time_agree_with_aws_lc() {
        let never = AtomicBool::new(false);
        let mut ctx = Ctx::new();
        let trial = TrialDivision::standard();
        let mut words = vec![0u64; 8];
        let (mut primes, mut composites, mut later_witness) = (0, 0, 0);
        while primes < 3 || composites < 200 {
            let candidate = draw(512).unwrap();
            assert!(candidate.write_le_words(&mut words));
            if trial.has_small_factor(&words) {
                continue;
            }
            let mont = Mont::secret(&candidate, &mut ctx).unwrap();
            let mut rounds_passed = 0;
            let mut uniform = 0;
            {
                let mut mr = MillerRabin::new(&mont, &mut ctx).unwrap();
                while rounds_passed < BLINDED_ROUNDS || uniform < 5 {
                    let round = mr.round().unwrap();
                    if !round.possibly_prime {
                        break;
                    }
                    rounds_passed += 1;
                    uniform += usize::from(round.uniform);
                }
            }
            let prime = rounds_passed >= BLINDED_ROUNDS;
            assert_eq!(
                bn::miller_rabin(&candidate, &mut ctx, &never).unwrap(),
                Some(prime)
            );
            if prime {
                primes += 1;
            } else {
                composites += 1;
                later_witness += usize::from(rounds_passed > 0);
            }
        }
        assert_eq!(later_witness, 0, "a random composite survived a round");
    }
}
