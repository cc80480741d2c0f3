//! Bech32 (BIP 173, not Bech32m) as age uses it: the `bech32` crate's
//! checksum, without BIP 173's 90-character limit (a post-quantum public
//! key is 1,959 characters), all lowercase or all uppercase, zero padding.

use crate::secret::{SecretBytes, SecretString};
use bech32::primitives::decode::CheckedHrpstring;
use bech32::{Checksum, Fe32, Fe1024, Hrp};

/// Bech32's checksum with no limit on the length (age's own Bech32 has
/// none; the checksum still detects errors, only the guarantees of BIP 173
/// about up to 4 errors need short strings).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum AgeBech32 {}

impl Checksum for AgeBech32 {
    type MidstateRepr = u32;
    type CorrectionField = Fe1024;
    const ROOT_GENERATOR: Self::CorrectionField = Fe1024::new([Fe32::P, Fe32::X]);
    const ROOT_EXPONENTS: core::ops::RangeInclusive<usize> = 24..=26;
    const CODE_LENGTH: usize = usize::MAX;
    const CHECKSUM_LENGTH: usize = 6;
    // BIP 173's generator (as `bech32::Bech32`).
    const GENERATOR_SH: [u32; 5] = [0x3b6a_57b2, 0x2650_8e6d, 0x1ea1_19fa, 0x3d42_33dd, 0x2a14_62b3];
    const TARGET_RESIDUE: u32 = 1;
}

/// Decodes `s`; returns its human-readable part as written (so `age` and
/// `AGE-SECRET-KEY-` keep their case) and the data. The data is wiped
/// when dropped: it may be a secret key.
pub(super) fn decode(s: &str) -> Result<(String, SecretBytes), String> {
    let checked = CheckedHrpstring::new::<AgeBech32>(s).map_err(|e| format!("invalid Bech32: {e}"))?;
    checked
        .validate_segwit_padding()
        .map_err(|e| format!("invalid Bech32 padding: {e}"))?;
    let hrp_len = s.rfind('1').unwrap_or(0);
    let data = SecretBytes::new(checked.byte_iter().collect::<Vec<u8>>());
    Ok((s[..hrp_len].to_owned(), data))
}

/// Encodes `data` under `hrp` (which must be a valid one: callers pass
/// constants), lowercase or uppercase.
pub(super) fn encode(hrp: &str, data: &[u8], upper: bool) -> SecretString {
    try_encode(hrp, data, upper).expect("a constant human-readable part")
}

/// [`encode`] for a human-readable part that may be invalid (a plugin
/// name from the command line): `None` if it is (Bech32 allows 1 to 83
/// printable ASCII characters).
pub(super) fn try_encode(hrp: &str, data: &[u8], upper: bool) -> Option<SecretString> {
    let hrp = Hrp::parse(hrp).ok()?;
    let s = if upper {
        bech32::encode_upper::<AgeBech32>(hrp, data)
    } else {
        bech32::encode_lower::<AgeBech32>(hrp, data)
    };
    Some(SecretString::new(s.expect("no length limit")))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn round_trips_in_either_case_and_refuses_mixed_case_and_damage() {
        let data: Vec<u8> = (0..1216u32).map(|i| i as u8).collect();
        let lower = encode("age1pq", &data, false);
        assert!(lower.expose().starts_with("age1pq1"));
        let (hrp, back) = decode(lower.expose()).unwrap();
        assert_eq!((hrp.as_str(), back.expose()), ("age1pq", &data[..]));
        let upper = encode("age-secret-key-", &data[..32], true);
        assert!(upper.expose().starts_with("AGE-SECRET-KEY-1"));
        let (hrp, back) = decode(upper.expose()).unwrap();
        assert_eq!((hrp.as_str(), back.expose()), ("AGE-SECRET-KEY-", &data[..32]));
        let mut mixed = lower.expose().to_owned();
        mixed.replace_range(10..11, &mixed[10..11].to_uppercase());
        assert!(decode(&mixed).is_err());
        let mut flipped = lower.expose().to_owned();
        let c = if flipped.ends_with('q') { "p" } else { "q" };
        flipped.replace_range(flipped.len() - 1.., c);
        assert!(decode(&flipped).is_err());
    }

    #[test]
    fn the_age_test_kit_identity_decodes() {
        let (hrp, key) =
            decode("AGE-SECRET-KEY-1EGTZVFFV20835NWYV6270LXYVK2VKNX2MMDKWYKLMGR48UAWX40Q2P2LM0").unwrap();
        assert_eq!(hrp, "AGE-SECRET-KEY-");
        assert_eq!(key.len(), 32);
    }
}
