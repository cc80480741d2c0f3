//! What this CPU can do, as every dispatch point of parcrypt sees it: the
//! features detected, minus those masked with `PARCRYPT_CPU_MASK`.
//!
//! parcrypt picks a code path by CPU feature in a few places (the
//! many-message SHA-256 kernels, the single-message SHA-256 backend, AES-CTR
//! through AWS-LC's stitched GCM code, RSA's AVX-512 IFMA dual
//! exponentiation), and AWS-LC picks its own assembly underneath. Every one
//! of parcrypt's choices asks [`has`], so that one environment variable can
//! make a machine with every feature run what a machine without some runs:
//!
//! ```text
//! PARCRYPT_CPU_MASK=avx512,shani,vaes cargo test --workspace
//! PARCRYPT_CPU_MASK=x86-64-v3 parcrypt hash big.iso
//! ```
//!
//! The mask is for testing and measurement, not a tuning knob: it can only
//! take features away. Its names ([`Feature::name`] and the presets in
//! [`MASK_NAMES`]) are case-insensitive and comma- or space-separated;
//! `x86-64-v3` masks everything above the x86-64-v3 level that parcrypt or
//! AWS-LC dispatches on (AVX-512 with IFMA, SHA-NI, VAES, VPCLMULQDQ),
//! keeping AES-NI, PCLMULQDQ and AVX2.
//!
//! # AWS-LC
//! AWS-LC probes the CPU once, while the program (or library) loads, and
//! reads its own mask, `OPENSSL_ia32cap`, then. When `PARCRYPT_CPU_MASK` is
//! set and `OPENSSL_ia32cap` is not, parcrypt clears the same features in
//! AWS-LC's capability words the first time it asks what the CPU can do
//! ([`enabled`], which every dispatch point and every door to AWS-LC asks
//! before AWS-LC runs: `aws_lc.rs`), so both layers agree. The environment
//! is never written; a child process runs masked only if given
//! `OPENSSL_ia32cap=`[`aws_lc_mask`] (the lab gives it to its `openssl`
//! peers). An `OPENSSL_ia32cap` set by the user is left alone (AWS-LC read
//! it itself). [`report`] says what both layers ended up with.
//!
//! Masking applies to x86-64 only; on other architectures [`has`] is
//! `false` for every [`Feature`] (they are x86 features) and the
//! architecture's own instructions are chosen by the backends (RustCrypto
//! `sha2` and AWS-LC use the ARMv8 AES, PMULL and SHA-256 instructions by
//! themselves).
mod aws_lc;

use std::fmt;
use std::sync::OnceLock;

/// The environment variable that masks CPU features.
pub const MASK_ENV: &str = "PARCRYPT_CPU_MASK";

/// A CPU feature some code path of parcrypt or AWS-LC depends on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Feature {
    /// AES-NI: hardware AES rounds (AWS-LC's AES, every mode).
    AesNi,
    /// PCLMULQDQ: carry-less multiplication (AWS-LC's GHASH).
    Pclmulqdq,
    /// AVX2 (the `avx2-x8` SHA-256 kernel; AWS-LC's ChaCha20, big numbers).
    Avx2,
    /// The SHA extensions (SHA-256 everywhere it is hashed).
    ShaNi,
    /// VAES: AES rounds on 256/512-bit vectors.
    Vaes,
    /// VPCLMULQDQ: carry-less multiplication on 256/512-bit vectors.
    Vpclmulqdq,
    /// AVX-512 F, DQ, BW and VL together (the `avx512-x16` kernel, AWS-LC's
    /// VAES-AVX-512 GCM).
    Avx512,
    /// AVX-512 IFMA (with [`Feature::Avx512`]): AWS-LC's RSA dual
    /// exponentiation.
    Avx512Ifma,
}

/// The names [`MASK_ENV`] accepts besides each [`Feature::name`]: presets
/// and aliases.
pub const MASK_NAMES: &str = "aesni, pclmul, avx2, shani, vaes, vpclmulqdq, avx512, ifma, or x86-64-v3 (= avx512,ifma,shani,vaes,vpclmulqdq)";

impl Feature {
    /// Every feature, in order.
    pub const ALL: [Feature; 8] = [
        Feature::AesNi,
        Feature::Pclmulqdq,
        Feature::Avx2,
        Feature::ShaNi,
        Feature::Vaes,
        Feature::Vpclmulqdq,
        Feature::Avx512,
        Feature::Avx512Ifma,
    ];

    /// The name the mask and reports use.
    pub const fn name(self) -> &'static str {
        match self {
            Feature::AesNi => "aesni",
            Feature::Pclmulqdq => "pclmul",
            Feature::Avx2 => "avx2",
            Feature::ShaNi => "shani",
            Feature::Vaes => "vaes",
            Feature::Vpclmulqdq => "vpclmulqdq",
            Feature::Avx512 => "avx512",
            Feature::Avx512Ifma => "ifma",
        }
    }

    /// The features a mask entry `name` takes away, with what depends on
    /// them (masking AVX-512 masks IFMA, which is of no use without it;
    /// masking AVX2 masks AVX-512).
    fn masked_by(name: &str) -> Option<&'static [Feature]> {
        use Feature::*;
        Some(match name {
            "aesni" | "aes" => &[AesNi, Vaes],
            "pclmul" | "pclmulqdq" => &[Pclmulqdq, Vpclmulqdq],
            "avx2" => &[Avx2, Avx512, Avx512Ifma],
            "shani" | "sha" | "sha_ni" => &[ShaNi],
            "vaes" => &[Vaes],
            "vpclmulqdq" => &[Vpclmulqdq],
            "avx512" => &[Avx512, Avx512Ifma],
            "ifma" | "avx512ifma" => &[Avx512Ifma],
            "x86-64-v3" => &[Avx512, Avx512Ifma, ShaNi, Vaes, Vpclmulqdq],
            _ => return None,
        })
    }

    const fn bit(self) -> u8 {
        self as u8
    }

    /// Whether the CPU has the feature, mask or not (detected once).
    pub fn detected(self) -> bool {
        detected_set().contains(self)
    }

    /// The bits of AWS-LC's `OPENSSL_ia32cap` (two 64-bit words: CPUID
    /// leaf 1 EDX:ECX, then leaf 7 EBX:ECX) that stand for this feature.
    const fn ia32cap_bits(self) -> (u64, u64) {
        match self {
            Feature::AesNi => (1 << (32 + 25), 0),
            Feature::Pclmulqdq => (1 << (32 + 1), 0),
            Feature::Avx2 => (0, 1 << 5),
            Feature::ShaNi => (0, 1 << 29),
            Feature::Vaes => (0, 1 << (32 + 9)),
            Feature::Vpclmulqdq => (0, 1 << (32 + 10)),
            // F 16, DQ 17, CD 28, BW 30, VL 31; VBMI, VBMI2, VNNI, BITALG
            // and VPOPCNTDQ (leaf 7 ECX 1, 6, 11, 12, 14) go with them.
            Feature::Avx512 => (
                0,
                (1 << 16)
                    | (1 << 17)
                    | (1 << 28)
                    | (1 << 30)
                    | (1 << 31)
                    | (1 << (32 + 1))
                    | (1 << (32 + 6))
                    | (1 << (32 + 11))
                    | (1 << (32 + 12))
                    | (1 << (32 + 14)),
            ),
            Feature::Avx512Ifma => (0, 1 << 21),
        }
    }
}

impl fmt::Display for Feature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A set of [`Feature`]s.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Features(u16);

impl Features {
    /// No feature.
    pub const NONE: Features = Features(0);

    /// Whether `f` is in the set.
    pub const fn contains(self, f: Feature) -> bool {
        self.0 & (1 << f.bit()) != 0
    }

    /// The set with `f` added.
    #[must_use]
    pub const fn with(self, f: Feature) -> Features {
        Features(self.0 | (1 << f.bit()))
    }

    /// The features of `self` not in `other`.
    #[must_use]
    pub const fn without(self, other: Features) -> Features {
        Features(self.0 & !other.0)
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The features in the set, in [`Feature::ALL`] order.
    pub fn iter(self) -> impl Iterator<Item = Feature> {
        Feature::ALL.into_iter().filter(move |f| self.contains(*f))
    }

    /// Parses a mask: feature names and presets (see [`MASK_NAMES`]),
    /// separated by commas or spaces, case-insensitive; empty = no feature.
    ///
    /// # Errors
    /// [`MaskError`] naming the first word that is not a feature.
    pub fn parse_mask(text: &str) -> Result<Features, MaskError> {
        let mut set = Features::NONE;
        for word in text.split([',', ' ']).map(str::trim).filter(|w| !w.is_empty()) {
            let features = Feature::masked_by(&word.to_ascii_lowercase()).ok_or_else(|| MaskError {
                word: word.to_owned(),
            })?;
            for f in features {
                set = set.with(*f);
            }
        }
        Ok(set)
    }

    /// The value of AWS-LC's `OPENSSL_ia32cap` that masks these features
    /// (`~0x…:~0x…`: each word inverted and ANDed with what CPUID reports).
    pub fn ia32cap(self) -> String {
        let (low, high) = self.ia32cap_words();
        format!("~{low:#x}:~{high:#x}")
    }

    /// The bits of `OPENSSL_ia32cap`'s two 64-bit words these features stand for.
    fn ia32cap_words(self) -> (u64, u64) {
        self.iter()
            .map(Feature::ia32cap_bits)
            .fold((0u64, 0u64), |(a, b), (x, y)| (a | x, b | y))
    }
}

impl fmt::Debug for Features {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter().map(Feature::name)).finish()
    }
}

impl fmt::Display for Features {
    /// The names, comma-separated (`none` for the empty set).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("none");
        }
        let names: Vec<&str> = self.iter().map(Feature::name).collect();
        f.write_str(&names.join(","))
    }
}

/// A word in `PARCRYPT_CPU_MASK` that names no feature.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{MASK_ENV}: unknown CPU feature {word:?} (expected {MASK_NAMES})")]
pub struct MaskError {
    /// The word.
    pub word: String,
}

/// The features the CPU has (mask ignored), detected once.
pub fn detected_set() -> Features {
    static DETECTED: OnceLock<Features> = OnceLock::new();
    *DETECTED.get_or_init(detect)
}

#[cfg(target_arch = "x86_64")]
fn detect() -> Features {
    use std::arch::is_x86_feature_detected as x86;
    let mut set = Features::NONE;
    let mut add = |f: Feature, present: bool| {
        if present {
            set = set.with(f);
        }
    };
    add(Feature::AesNi, x86!("aes"));
    add(Feature::Pclmulqdq, x86!("pclmulqdq"));
    add(Feature::Avx2, x86!("avx2"));
    add(
        Feature::ShaNi,
        x86!("sha") && x86!("sse2") && x86!("ssse3") && x86!("sse4.1"),
    );
    add(Feature::Vaes, x86!("vaes"));
    add(Feature::Vpclmulqdq, x86!("vpclmulqdq"));
    let avx512 = x86!("avx512f") && x86!("avx512dq") && x86!("avx512bw") && x86!("avx512vl");
    add(Feature::Avx512, avx512);
    add(Feature::Avx512Ifma, avx512 && x86!("avx512ifma"));
    set
}

#[cfg(not(target_arch = "x86_64"))]
fn detect() -> Features {
    Features::NONE
}

/// What `PARCRYPT_CPU_MASK` asks to mask (read once): `Ok` of the empty set
/// when it is unset or empty.
///
/// # Errors
/// [`MaskError`] for a word that names no feature; [`has`] then masks
/// nothing, and a caller (the CLI) reports the error.
pub fn mask() -> Result<Features, MaskError> {
    static MASK: OnceLock<Result<Features, MaskError>> = OnceLock::new();
    MASK.get_or_init(|| mask_from(std::env::var_os(MASK_ENV).as_deref()))
        .clone()
}

/// The mask an environment value asks for.
pub(crate) fn mask_from(value: Option<&std::ffi::OsStr>) -> Result<Features, MaskError> {
    value.map_or(Ok(Features::NONE), |v| Features::parse_mask(&v.to_string_lossy()))
}

/// The features parcrypt's code paths may use: detected and not masked.
///
/// The first call also applies the mask to AWS-LC (see the module docs):
/// call it before anything else uses AWS-LC in a process that masks.
pub fn enabled() -> Features {
    static ENABLED: OnceLock<Features> = OnceLock::new();
    *ENABLED.get_or_init(|| {
        if aws_lc_mask().is_some()
            && let Ok(m) = mask()
        {
            let (low, high) = m.ia32cap_words();
            aws_lc::clear(low, high);
        }
        detected_set().without(mask().unwrap_or_default())
    })
}

/// Whether parcrypt may use `f`: the CPU has it and `PARCRYPT_CPU_MASK`
/// does not mask it. Every CPU-specific choice in parcrypt asks this.
pub fn has(f: Feature) -> bool {
    enabled().contains(f)
}

/// The `OPENSSL_ia32cap` value that masks AWS-LC as parcrypt is masked, if
/// the mask is set and valid and the user has not set `OPENSSL_ia32cap`
/// (decided once): parcrypt applies it to its own AWS-LC, and callers give
/// it to child processes that should run masked too.
pub fn aws_lc_mask() -> Option<String> {
    static HANDED: OnceLock<Option<String>> = OnceLock::new();
    HANDED
        .get_or_init(|| match mask() {
            Ok(m) if !m.is_empty() && std::env::var_os("OPENSSL_ia32cap").is_none() => Some(m.ia32cap()),
            _ => None,
        })
        .clone()
}

/// Whether AWS-LC's AES-GCM runs its VAES/AVX-512 code on this CPU (as
/// `crypto_gcm_avx512_enabled` decides, under the mask): the only case in
/// which AWS-LC's GCM seal outruns its own CTR, so the only case in which
/// parcrypt sends CTR keystream through it (`aes/README.md` has the
/// measurements).
pub fn aws_lc_gcm_is_vaes_avx512() -> bool {
    has(Feature::Vaes) && has(Feature::Vpclmulqdq) && has(Feature::Avx512)
}

/// One line for test output, `--version`-style reports and the lab's
/// machine description: the features detected, which of them are masked,
/// and what AWS-LC was told.
pub fn report() -> String {
    let detected = detected_set();
    let masked = detected.without(enabled());
    let mut line = format!("cpu features: {detected}");
    match mask() {
        Err(e) => line.push_str(&format!("; mask ignored: {e}")),
        Ok(m) if !m.is_empty() => {
            line.push_str(&format!("; masked by {MASK_ENV}: {masked} (asked: {m})"));
            match (aws_lc_mask(), std::env::var("OPENSSL_ia32cap")) {
                (Some(v), _) => line.push_str(&format!("; AWS-LC masked alike (OPENSSL_ia32cap={v})")),
                (None, Ok(v)) => line.push_str(&format!("; OPENSSL_ia32cap={v} (the user's, left as is)")),
                (None, Err(_)) => line.push_str("; AWS-LC unmasked"),
            }
        }
        Ok(_) => {}
    }
    line
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn masks_parse_with_their_dependents() {
        let m = Features::parse_mask("AVX512, shani").unwrap();
        assert_eq!(m.to_string(), "shani,avx512,ifma");
        let v3 = Features::parse_mask("x86-64-v3").unwrap();
        assert_eq!(v3.to_string(), "shani,vaes,vpclmulqdq,avx512,ifma");
        assert_eq!(Features::parse_mask("").unwrap(), Features::NONE);
        assert_eq!(Features::parse_mask(" , ").unwrap(), Features::NONE);
        let e = Features::parse_mask("avx2,avx51").unwrap_err();
        assert_eq!(e.word, "avx51");
        assert!(e.to_string().contains("x86-64-v3"), "{e}");
    }

    #[test]
    fn every_feature_masks_by_its_own_name() {
        for f in Feature::ALL {
            let m = Features::parse_mask(f.name()).unwrap();
            assert!(m.contains(f), "{f}");
        }
    }

    /// The ia32cap words as AWS-LC's `CRYPTO_is_*_capable` read them
    /// (cpucap/internal.h): `[0]` leaf 1 EDX, `[1]` leaf 1 ECX, `[2]` leaf 7
    /// EBX, `[3]` leaf 7 ECX.
    #[test]
    fn the_aws_lc_mask_clears_the_bits_aws_lc_tests() {
        let v3 = Features::parse_mask("x86-64-v3").unwrap().ia32cap();
        let (low, high) = v3.split_once(':').unwrap();
        let low = u64::from_str_radix(low.trim_start_matches("~0x"), 16).unwrap();
        let high = u64::from_str_radix(high.trim_start_matches("~0x"), 16).unwrap();
        assert_eq!(low, 0, "x86-64-v3 keeps AES-NI and PCLMULQDQ");
        let (w2, w3) = (high as u32, (high >> 32) as u32);
        assert_eq!(w2 & 0xC003_0000, 0xC003_0000, "AVX-512 F/DQ/BW/VL");
        assert_ne!(w2 & (1 << 21), 0, "IFMA");
        assert_ne!(w2 & (1 << 29), 0, "SHA");
        assert_eq!(w2 & (1 << 5), 0, "AVX2 kept");
        assert_ne!(w3 & (1 << 9), 0, "VAES");
        assert_ne!(w3 & (1 << 10), 0, "VPCLMULQDQ");
        assert_eq!(
            Features::parse_mask("aesni").unwrap().ia32cap(),
            "~0x200000000000000:~0x20000000000"
        );
    }

    #[test]
    fn enabled_is_detected_minus_the_mask() {
        let mask = mask().unwrap_or_default();
        for f in Feature::ALL {
            assert_eq!(has(f), f.detected() && !mask.contains(f), "{f}");
        }
        println!("{}", report());
    }
}
