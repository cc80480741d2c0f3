//! The twelve parameter sets of FIPS 205 (Table 2) and their names.

use std::fmt;
use std::str::FromStr;

use crate::name::UnknownName;

/// One of the twelve SLH-DSA parameter sets of FIPS 205: the hash family
/// (SHA-2 or SHAKE), the security category (128, 192, 256 bits) and the
/// trade-off (`s`: small signatures, slow signing; `f`: fast signing,
/// larger signatures).
///
/// Names are the standard's (`SLH-DSA-SHA2-128s`); [`FromStr`] takes them
/// in any case and [`fmt::Display`] prints them.
///
/// # Examples
/// ```
/// use parcrypt::slhdsa::ParameterSet;
/// let set: ParameterSet = "slh-dsa-sha2-128s".parse()?;
/// assert_eq!(set, ParameterSet::Sha2_128s);
/// assert_eq!(set.to_string(), "SLH-DSA-SHA2-128s");
/// assert_eq!((set.public_key_len(), set.signature_len()), (32, 7856));
/// # Ok::<(), parcrypt::UnknownName>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ParameterSet {
    /// SLH-DSA-SHA2-128s
    Sha2_128s,
    /// SLH-DSA-SHAKE-128s
    Shake128s,
    /// SLH-DSA-SHA2-128f
    Sha2_128f,
    /// SLH-DSA-SHAKE-128f
    Shake128f,
    /// SLH-DSA-SHA2-192s
    Sha2_192s,
    /// SLH-DSA-SHAKE-192s
    Shake192s,
    /// SLH-DSA-SHA2-192f
    Sha2_192f,
    /// SLH-DSA-SHAKE-192f
    Shake192f,
    /// SLH-DSA-SHA2-256s
    Sha2_256s,
    /// SLH-DSA-SHAKE-256s
    Shake256s,
    /// SLH-DSA-SHA2-256f
    Sha2_256f,
    /// SLH-DSA-SHAKE-256f
    Shake256f,
}

/// The numbers of one parameter set (FIPS 205 Table 2); `lg_w` is 4 for all.
#[derive(Debug)]
pub(super) struct Params {
    /// Security parameter: bytes per hash output, seed and node.
    pub(super) n: usize,
    /// Total hypertree height.
    pub(super) h: u32,
    /// Hypertree layers.
    pub(super) d: u32,
    /// Height of each XMSS tree (h / d).
    pub(super) hp: u32,
    /// Height of each FORS tree.
    pub(super) a: u32,
    /// Number of FORS trees.
    pub(super) k: u32,
    /// Bytes of the message digest H_msg.
    pub(super) m: usize,
    /// The SHA-2 instantiation (§11.2) rather than SHAKE (§11.1).
    pub(super) sha2: bool,
}

/// Winternitz digits: w = 16 for every set.
pub(super) const W: u32 = 16;

impl Params {
    /// WOTS+ chains per key: `len1 + len2` = 2n + 3 (lg_w = 4).
    pub(super) fn len(&self) -> usize {
        2 * self.n + 3
    }

    /// Bytes of a signature: R, the FORS signature, the hypertree signature.
    pub(super) fn sig_len(&self) -> usize {
        self.n * (1 + (self.k * (1 + self.a)) as usize + self.h as usize + self.d as usize * self.len())
    }

    /// Bytes of the FORS signature.
    pub(super) fn fors_len(&self) -> usize {
        self.n * (self.k * (1 + self.a)) as usize
    }

    /// Bytes of one XMSS signature (WOTS+ signature and authentication path).
    pub(super) fn xmss_len(&self) -> usize {
        self.n * (self.len() + self.hp as usize)
    }
}

const fn params(n: usize, h: u32, d: u32, a: u32, k: u32, m: usize, sha2: bool) -> Params {
    Params {
        n,
        h,
        d,
        hp: h / d,
        a,
        k,
        m,
        sha2,
    }
}

use ParameterSet as P;

/// In the order of [`ParameterSet::ALL`] (the enum's discriminants).
static ALL_PARAMS: [Params; 12] = [
    params(16, 63, 7, 12, 14, 30, true),
    params(16, 63, 7, 12, 14, 30, false),
    params(16, 66, 22, 6, 33, 34, true),
    params(16, 66, 22, 6, 33, 34, false),
    params(24, 63, 7, 14, 17, 39, true),
    params(24, 63, 7, 14, 17, 39, false),
    params(24, 66, 22, 8, 33, 42, true),
    params(24, 66, 22, 8, 33, 42, false),
    params(32, 64, 8, 14, 22, 47, true),
    params(32, 64, 8, 14, 22, 47, false),
    params(32, 68, 17, 9, 35, 49, true),
    params(32, 68, 17, 9, 35, 49, false),
];

impl ParameterSet {
    /// All twelve, in the order of FIPS 205 Table 2 (SHA2 before SHAKE
    /// within each row).
    pub const ALL: [ParameterSet; 12] = [
        P::Sha2_128s,
        P::Shake128s,
        P::Sha2_128f,
        P::Shake128f,
        P::Sha2_192s,
        P::Shake192s,
        P::Sha2_192f,
        P::Shake192f,
        P::Sha2_256s,
        P::Shake256s,
        P::Sha2_256f,
        P::Shake256f,
    ];

    pub(super) fn params(self) -> &'static Params {
        &ALL_PARAMS[self as usize]
    }

    /// The standard's name, `SLH-DSA-SHA2-128s` style.
    pub fn name(self) -> &'static str {
        match self {
            P::Sha2_128s => "SLH-DSA-SHA2-128s",
            P::Shake128s => "SLH-DSA-SHAKE-128s",
            P::Sha2_128f => "SLH-DSA-SHA2-128f",
            P::Shake128f => "SLH-DSA-SHAKE-128f",
            P::Sha2_192s => "SLH-DSA-SHA2-192s",
            P::Shake192s => "SLH-DSA-SHAKE-192s",
            P::Sha2_192f => "SLH-DSA-SHA2-192f",
            P::Shake192f => "SLH-DSA-SHAKE-192f",
            P::Sha2_256s => "SLH-DSA-SHA2-256s",
            P::Shake256s => "SLH-DSA-SHAKE-256s",
            P::Sha2_256f => "SLH-DSA-SHA2-256f",
            P::Shake256f => "SLH-DSA-SHAKE-256f",
        }
    }

    /// The last arc of the set's object identifier,
    /// 2.16.840.1.101.3.4.3.*arc* (20 for SHA2-128s … 31 for SHAKE-256f;
    /// RFC 9909 / NIST CSOR), as PKCS#8 and SubjectPublicKeyInfo name it.
    pub fn oid_arc(self) -> u8 {
        // SHA2 sets are 20..=25 in the order 128s 128f 192s 192f 256s 256f,
        // SHAKE sets 26..=31 in the same order.
        let i = self as u8; // 2 × (row) + (SHAKE? 1 : 0), rows 128s 128f 192s …
        let (row, shake) = (i / 2, i % 2);
        20 + 6 * shake + row
    }

    /// The security parameter n: bytes of each seed and hash output.
    pub fn n(self) -> usize {
        self.params().n
    }

    /// Bytes of a raw public key, `PK.seed ‖ PK.root` (2n).
    pub fn public_key_len(self) -> usize {
        2 * self.n()
    }

    /// Bytes of a raw private key, `SK.seed ‖ SK.prf ‖ PK.seed ‖ PK.root` (4n).
    pub fn private_key_len(self) -> usize {
        4 * self.n()
    }

    /// Bytes of a signature.
    pub fn signature_len(self) -> usize {
        self.params().sig_len()
    }

    /// Whether the set hashes with SHA-2 (SHAKE otherwise).
    pub fn is_sha2(self) -> bool {
        self.params().sha2
    }

    /// Whether it is a fast-signing (`f`) set.
    pub fn is_fast(self) -> bool {
        self.name().ends_with('f')
    }
}

impl fmt::Display for ParameterSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for ParameterSet {
    type Err = UnknownName;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        ParameterSet::ALL
            .into_iter()
            .find(|p| p.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| {
                UnknownName::new(
                    "SLH-DSA parameter set",
                    s,
                    "SLH-DSA-SHA2-128s … SLH-DSA-SHAKE-256f",
                )
            })
    }
}
