//! Trial division of prime candidates by every odd prime below 2^16, in
//! products that fit a machine word.
//!
//! The odd primes are packed, in increasing order, into products below
//! 2^63 (3·5·…·47, then 53·…, down to three primes a product near 2^16).
//! For each product P the candidate's 64-bit words are folded into one
//! word congruent to `candidate · 2^(−64·words) mod P` — one Montgomery
//! reduction per word: two multiplications and an addition, no division —
//! and each prime p of the product is tested on that word with one
//! multiplication and one comparison (`y · p⁻¹ mod 2^64 ≤ ⌊(2^64 − 1)/p⌋`
//! exactly when p divides y; Granlund and Montgomery, "Division by
//! invariant integers using multiplication", 1994, §9). The power of two
//! does not matter: p is odd, so p divides the word exactly when it divides
//! the candidate.
//!
//! A candidate is rejected at its first divisor. A candidate that has none
//! — the only kind that can become a prime factor of a key — runs every
//! product and every test, with the same instructions whatever its value:
//! no branch goes another way, and no instruction's time depends on the
//! operands (no division). Why the early exit is safe: `README.md`,
//! "Key generation".

use std::ops::Range;
use std::sync::OnceLock;

/// Candidates are tested against every odd prime below this.
pub(crate) const BOUND: u32 = 1 << 16;

/// Every product of primes stays below this, so that a Montgomery step's
/// `t + m·P` (`t < 2^65`, `m < 2^64`) fits 128 bits.
const PRODUCT_LIMIT: u64 = 1 << 63;

/// One small odd prime, ready for the multiplication test.
#[derive(Clone, Copy, Debug)]
struct Divisor {
    prime: u32,
    /// `prime⁻¹ mod 2^64`.
    inverse: u64,
    /// `⌊(2^64 − 1) / prime⌋`: the multiples of `prime` are exactly the
    /// words `y` with `y · inverse mod 2^64 ≤ limit`.
    limit: u64,
}

impl Divisor {
    fn new(prime: u32) -> Divisor {
        let p = u64::from(prime);
        Divisor {
            prime,
            inverse: inverse_mod_2_64(p),
            limit: u64::MAX / p,
        }
    }

    /// Whether `prime` divides `y`: multiplication by the inverse maps the
    /// multiples `k·prime` (k ≤ limit) onto `0..=limit` and, being a
    /// bijection of the 64-bit words, everything else above `limit`.
    fn divides(&self, y: u64) -> bool {
        y.wrapping_mul(self.inverse) <= self.limit
    }
}

/// A product of consecutive small primes, below [`PRODUCT_LIMIT`].
#[derive(Clone, Debug)]
struct Group {
    product: u64,
    /// `−product⁻¹ mod 2^64`, Montgomery's constant.
    minus_inverse: u64,
    /// Its primes, as a range of [`TrialDivision::divisors`].
    divisors: Range<usize>,
}

impl Group {
    /// A word congruent to `Σ words[i]·2^(64·i) · 2^(−64·words.len())`
    /// modulo the product (and below product + 2): the words from the least
    /// significant, each added and then divided by 2^64 modulo the product
    /// by one Montgomery reduction.
    fn residue(&self, words: &[u64]) -> u64 {
        let product = u128::from(self.product);
        let mut acc = 0u64;
        for &w in words {
            // acc < product + 2 ≤ 2^63 + 1, so t < 2^65.
            let t = u128::from(acc) + u128::from(w);
            // t + m·product ≡ 0 (mod 2^64), and < 2^65 + 2^127.
            let m = (t as u64).wrapping_mul(self.minus_inverse);
            // (t + m·product) / 2^64 < 2 + product.
            acc = ((t + u128::from(m) * product) >> 64) as u64;
        }
        acc
    }
}

/// The tables for trial division by the odd primes below a bound.
#[derive(Debug)]
pub(crate) struct TrialDivision {
    groups: Vec<Group>,
    divisors: Vec<Divisor>,
}

impl TrialDivision {
    /// The tables key generation uses: the odd primes below [`BOUND`],
    /// built once per process.
    pub(crate) fn standard() -> &'static TrialDivision {
        static TABLES: OnceLock<TrialDivision> = OnceLock::new();
        TABLES.get_or_init(|| TrialDivision::below(BOUND))
    }

    /// Tables for the odd primes below `bound`.
    pub(crate) fn below(bound: u32) -> TrialDivision {
        let divisors: Vec<Divisor> = odd_primes_below(bound).into_iter().map(Divisor::new).collect();
        let mut groups: Vec<Group> = Vec::new();
        let mut product = 1u64;
        let mut start = 0;
        for (i, d) in divisors.iter().enumerate() {
            match product.checked_mul(u64::from(d.prime)) {
                Some(next) if next < PRODUCT_LIMIT => product = next,
                _ => {
                    groups.push(Group::new(product, start..i));
                    product = u64::from(d.prime);
                    start = i;
                }
            }
        }
        if start < divisors.len() {
            groups.push(Group::new(product, start..divisors.len()));
        }
        TrialDivision { groups, divisors }
    }

    /// Whether one of the primes divides the number whose little-endian
    /// 64-bit words are `words` (a number larger than all of them: a
    /// prime of the table itself counts as divisible). Stops at the first
    /// divisor; a number without one takes the same path whatever its value.
    pub(crate) fn has_small_factor(&self, words: &[u64]) -> bool {
        self.first_factor(words).is_some()
    }

    /// The smallest of the primes that divides the number, if one does.
    pub(crate) fn first_factor(&self, words: &[u64]) -> Option<u32> {
        for group in &self.groups {
            let y = group.residue(words);
            for d in &self.divisors[group.divisors.clone()] {
                if d.divides(y) {
                    return Some(d.prime);
                }
            }
        }
        None
    }

    /// The primes, in increasing order.
    #[cfg(test)]
    fn primes(&self) -> impl Iterator<Item = u32> + '_ {
        self.divisors.iter().map(|d| d.prime)
    }
}

impl Group {
    fn new(product: u64, divisors: Range<usize>) -> Group {
        Group {
            product,
            minus_inverse: inverse_mod_2_64(product).wrapping_neg(),
            divisors,
        }
    }
}

/// `a⁻¹ mod 2^64` for odd `a`, by Newton's iteration: `a` is its own inverse
/// modulo 8, and each step doubles the number of correct low bits
/// (3 → 6 → 12 → 24 → 48 → 96).
fn inverse_mod_2_64(a: u64) -> u64 {
    debug_assert!(a % 2 == 1);
    let mut x = a;
    for _ in 0..5 {
        x = x.wrapping_mul(2u64.wrapping_sub(a.wrapping_mul(x)));
    }
    x
}

/// The odd primes below `bound`, in increasing order (sieve of Eratosthenes).
fn odd_primes_below(bound: u32) -> Vec<u32> {
    let n = bound as usize;
    let mut composite = vec![false; n];
    let mut primes = Vec::new();
    for i in (3..n).step_by(2) {
        if composite[i] {
            continue;
        }
        primes.push(i as u32);
        for multiple in (i * i..n).step_by(2 * i) {
            composite[multiple] = true;
        }
    }
    primes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tables_hold_every_odd_prime_below_the_bound_in_products_below_2_63() {
        let t = TrialDivision::standard();
        let primes: Vec<u32> = t.primes().collect();
        // π(2^16) = 6542, less the prime 2.
        assert_eq!(primes.len(), 6541);
        assert_eq!((primes[0], primes[primes.len() - 1]), (3, 65521));
        let mut covered = 0;
        for g in &t.groups {
            assert_eq!(g.divisors.start, covered, "groups are consecutive");
            covered = g.divisors.end;
            let product: u128 = t.divisors[g.divisors.clone()]
                .iter()
                .map(|d| u128::from(d.prime))
                .product();
            assert_eq!(product, u128::from(g.product));
            assert!(g.product < PRODUCT_LIMIT);
            assert_eq!(g.product.wrapping_mul(g.minus_inverse), u64::MAX, "−P⁻¹");
        }
        assert_eq!(covered, primes.len());
        assert_eq!(
            t.groups[0].product,
            3 * 5 * 7 * 11 * 13 * 17 * 19 * 23 * 29 * 31 * 37 * 41 * 43 * 47
        );
        for d in &t.divisors {
            assert_eq!(u64::from(d.prime).wrapping_mul(d.inverse), 1);
        }
    }

    #[test]
    fn the_multiplication_test_finds_exactly_the_multiples() {
        let d = Divisor::new(65521);
        for y in [0, 65521, 2 * 65521, u64::MAX / 65521 * 65521] {
            assert!(d.divides(y), "{y}");
        }
        for y in [1, 65520, 65522, u64::MAX, u64::MAX / 65521 * 65521 + 1] {
            assert!(!d.divides(y), "{y}");
        }
        for p in [3u32, 5, 7, 257, 65519] {
            let d = Divisor::new(p);
            for y in (0..20_000u64).chain(u64::MAX - 20_000..=u64::MAX) {
                assert_eq!(d.divides(y), y % u64::from(p) == 0, "{y} mod {p}");
            }
        }
    }

    /// The folded word is congruent to the number times 2^(−64·words) modulo
    /// the product, for words at their extremes.
    #[test]
    fn residues_are_congruent_to_the_number() {
        let t = TrialDivision::standard();
        let samples: [&[u64]; 5] = [
            &[u64::MAX; 16],
            &[1, 0, 0, 0, 0, 0, 0, 1 << 63],
            &[
                0x0123_4567_89ab_cdef,
                0xfedc_ba98_7654_3210,
                0xc000_0000_0000_0001,
            ],
            &[u64::MAX, 0, u64::MAX, 0, u64::MAX],
            &[3],
        ];
        for words in samples {
            for g in [&t.groups[0], &t.groups[1], &t.groups[t.groups.len() - 1]] {
                let p = u128::from(g.product);
                let y = g.residue(words);
                assert!(u128::from(y) < p + 2);
                // y · 2^(64·n) ≡ number (mod P), by Horner with u128 remainders.
                let mut lhs = u128::from(y) % p;
                for _ in words {
                    lhs = (lhs << 64) % p;
                }
                let rhs = words
                    .iter()
                    .rev()
                    .fold(0u128, |acc, &w| ((acc << 64) % p + u128::from(w)) % p);
                assert_eq!(lhs, rhs, "{words:x?} mod {p}");
            }
        }
    }

    use crate::ffi::bn::{self, Bn, Ctx};

    /// The largest prime AWS-LC's trial division tries for a number of
    /// `bits` bits (its first 512 primes up to 1024 bits, 1024 above).
    fn aws_lc_bound(bits: usize) -> u32 {
        if bits.div_ceil(64) * 64 > 1024 { 8161 } else { 3671 }
    }

    fn words_of(n: &Bn) -> Vec<u64> {
        let mut words = vec![0u64; n.bits().div_ceil(64)];
        assert!(n.write_le_words(&mut words));
        words
    }

    /// The product of every prime of the standard table, built once.
    fn product_of_all() -> &'static Bn {
        static PRODUCT: OnceLock<Bn> = OnceLock::new();
        PRODUCT.get_or_init(|| {
            let mut ctx = Ctx::new();
            let t = TrialDivision::standard();
            t.groups.iter().fold(Bn::from_u64(1), |acc, g| {
                bn::mul_consttime(&acc, &Bn::from_u64(g.product), &mut ctx).unwrap()
            })
        })
    }

    /// Checks one odd number against AWS-LC: its own trial division agrees
    /// with ours cut at its bound, `BN_mod_word` confirms the divisor we
    /// report, and for a number we pass, `BN_gcd` with the product of every
    /// table prime is 1.
    fn check_against_aws_lc(n: &Bn) -> Option<u32> {
        let t = TrialDivision::standard();
        let words = words_of(n);
        let first = t.first_factor(&words);
        assert_eq!(t.has_small_factor(&words), first.is_some());
        let bound = aws_lc_bound(n.bits());
        assert_eq!(
            n.aws_lc_obviously_composite(),
            first.is_some_and(|p| p <= bound),
            "{n:?}: ours {first:?}, AWS-LC's bound {bound}"
        );
        match first {
            Some(p) => assert_eq!(n.mod_word_vartime(u64::from(p)), 0, "{p} divides"),
            None => assert!(
                n.coprime_to_vartime(product_of_all(), &mut Ctx::new()),
                "{n:?} has a factor below {BOUND} that was missed"
            ),
        }
        first
    }

    /// Random candidates as key generation draws them, of the prime sizes of
    /// 1024- to 4096-bit keys. 10^5 by default (~20 s, most of it AWS-LC's
    /// own trial division); `PARCRYPT_TRIAL_CANDIDATES=1000000 cargo test
    /// -p parcrypt --lib agrees_with_aws_lc` runs 10^6 (~2.5 min).
    #[test]
    fn agrees_with_aws_lc_on_random_candidates() {
        let n: usize = std::env::var("PARCRYPT_TRIAL_CANDIDATES")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(100_000);
        let mut rejected = 0usize;
        let mut beyond_aws_lc = 0usize;
        for i in 0..n {
            let bits = [512, 1024, 1536, 2048][i % 4];
            let c = bn::random_odd_top_two(bits).unwrap();
            if let Some(p) = check_against_aws_lc(&c) {
                rejected += 1;
                beyond_aws_lc += usize::from(p > aws_lc_bound(bits));
            }
        }
        // About 1 − 1.12/ln 2^16 ≈ 90 % have a factor below 2^16, and
        // some of them only above AWS-LC's bound: both paths ran.
        assert!(
            rejected > n * 85 / 100 && rejected < n * 95 / 100,
            "{rejected} of {n}"
        );
        assert!(beyond_aws_lc > n / 100, "{beyond_aws_lc} of {n}");
    }

    /// 2^e − 1 for the Mersenne exponents below: primes, larger than any
    /// table prime, so their only factors are themselves.
    fn mersenne(e: usize) -> Bn {
        bn::sub_consttime(&Bn::power_of_two(e), &Bn::from_u64(1)).unwrap()
    }

    #[test]
    fn products_of_small_primes_primes_and_the_bounds_edges() {
        let t = TrialDivision::standard();
        let mut ctx = Ctx::new();
        let big_primes: Vec<Bn> = [521, 607, 1279, 2203].into_iter().map(mersenne).collect();
        // Primes themselves pass.
        for m in &big_primes {
            assert_eq!(check_against_aws_lc(m), None, "{m:?}");
        }
        // Every table prime times a large prime is caught by that prime,
        // AWS-LC's bounds 3671 / 8161 and ours 65521 included; the primes
        // just above them are caught only by the tables that hold them.
        for (i, p) in t.primes().enumerate() {
            let m = &big_primes[i % 2];
            let n = bn::mul_consttime(m, &Bn::from_u64(u64::from(p)), &mut ctx).unwrap();
            assert_eq!(check_against_aws_lc(&n), Some(p));
        }
        for above in [65537u64, 65539, 65537 * 65539, 4_294_967_291] {
            let n = bn::mul_consttime(&big_primes[1], &Bn::from_u64(above), &mut ctx).unwrap();
            assert_eq!(check_against_aws_lc(&n), None, "{above}");
        }
        // Products of several small primes: the smallest is reported, in
        // the first product of the table, across two, and in the last.
        for factors in [
            &[3u64, 5, 7][..],
            &[47, 53],
            &[59, 61, 67, 71],
            &[65519, 65521],
            &[3671, 3673, 8161, 8167],
        ] {
            let mut n = big_primes[0].dup();
            for &f in factors {
                n = bn::mul_consttime(&n, &Bn::from_u64(f), &mut ctx).unwrap();
            }
            assert_eq!(check_against_aws_lc(&n), Some(factors[0] as u32), "{factors:?}");
        }
        // The ends of the candidates' range: 2^b − 1 (all words ones) and
        // 2^(b−1) + 2^(b−2) + 1, for each prime size.
        for bits in [512, 1024, 1536, 2048, 4096] {
            let top = bn::sub_consttime(&Bn::power_of_two(bits), &Bn::from_u64(1)).unwrap();
            let low = bn::add_consttime(
                &bn::add_consttime(&Bn::power_of_two(bits - 1), &Bn::power_of_two(bits - 2)).unwrap(),
                &Bn::from_u64(1),
            )
            .unwrap();
            check_against_aws_lc(&top);
            check_against_aws_lc(&low);
        }
        // Tables cut at AWS-LC's bounds reject exactly what AWS-LC rejects.
        let aws_1024 = TrialDivision::below(3672);
        assert_eq!(aws_1024.primes().last(), Some(3671));
        assert_eq!(aws_1024.primes().count(), 511);
        let aws_2048 = TrialDivision::below(8162);
        assert_eq!(aws_2048.primes().count(), 1023);
        for i in 0..20_000 {
            let (table, bits) = if i % 2 == 0 {
                (&aws_1024, 1024)
            } else {
                (&aws_2048, 2048)
            };
            let c = bn::random_odd_top_two(bits).unwrap();
            assert_eq!(
                table.has_small_factor(&words_of(&c)),
                c.aws_lc_obviously_composite()
            );
        }
    }
}
