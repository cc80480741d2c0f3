//! Which kernel runs: the backends, what each needs, detection, the override, `Backend::force`.

use std::str::FromStr;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU8, Ordering};

/// The environment variable that forces a backend for the whole process
/// (read once, at the first multi-message hash).
pub const BACKEND_ENV: &str = "PARCRYPT_SHA256_BACKEND";

/// An implementation of many-message SHA-256.
///
/// Parsed from its [`name`](Backend::name) (`sha2`, `shani-x2`, `shani-x4`,
/// `avx2-x8`, `avx512-x16`, plus the short forms `shani` = `shani-x4`,
/// `avx2`, `avx512`).
///
/// # Examples
/// ```
/// use parcrypt::digest::{self, Backend};
///
/// let leaves: [&[u8]; 3] = [b"a", b"bc", b"def"];
/// let mut out = [[0u8; 32]; 3];
/// for backend in Backend::available() {
///     backend.sha256_many_prefixed_into(&[0], &leaves, &mut out)?;
///     assert_eq!(out[1], digest::sha256_prefixed(&[0], b"bc"));
/// }
/// assert!(Backend::active().is_available());
/// # Ok::<(), parcrypt::digest::Unavailable>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Backend {
    /// One message at a time with RustCrypto `sha2` (itself SHA-NI when the
    /// CPU has it): the reference, available everywhere.
    Sha2,
    /// Two messages interleaved on the SHA extensions.
    ShaNiX2,
    /// Four messages interleaved on the SHA extensions.
    ShaNiX4,
    /// Eight messages in the lanes of AVX2 registers.
    Avx2X8,
    /// Sixteen messages in the lanes of AVX-512 registers.
    Avx512X16,
}

/// A backend the CPU cannot run (or, for [`Backend::force`] by name, no
/// backend at all).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("SHA-256 backend {} needs CPU features this machine lacks", .0.name())]
pub struct Unavailable(pub Backend);

impl Backend {
    /// Every backend, available here or not.
    pub const ALL: [Backend; 5] = [
        Backend::Sha2,
        Backend::ShaNiX2,
        Backend::ShaNiX4,
        Backend::Avx2X8,
        Backend::Avx512X16,
    ];

    /// The name [`FromStr`] and `PARCRYPT_SHA256_BACKEND` accept.
    pub const fn name(self) -> &'static str {
        match self {
            Backend::Sha2 => "sha2",
            Backend::ShaNiX2 => "shani-x2",
            Backend::ShaNiX4 => "shani-x4",
            Backend::Avx2X8 => "avx2-x8",
            Backend::Avx512X16 => "avx512-x16",
        }
    }

    /// How many messages one pass hashes side by side (AVX-512 interleaves
    /// two passes when a batch has 32 messages left).
    pub const fn lanes(self) -> usize {
        match self {
            Backend::Sha2 => 1,
            Backend::ShaNiX2 => 2,
            Backend::ShaNiX4 => 4,
            Backend::Avx2X8 => 8,
            Backend::Avx512X16 => 16,
        }
    }

    /// Whether this CPU has the instructions the backend needs and
    /// `PARCRYPT_CPU_MASK` does not mask them ([`crate::cpu::has`]).
    pub fn is_available(self) -> bool {
        #[cfg(target_arch = "x86_64")]
        use crate::cpu::{Feature, has};
        match self {
            Backend::Sha2 => true,
            #[cfg(target_arch = "x86_64")]
            Backend::ShaNiX2 | Backend::ShaNiX4 => has(Feature::ShaNi),
            #[cfg(target_arch = "x86_64")]
            Backend::Avx2X8 => has(Feature::Avx2),
            #[cfg(all(target_arch = "x86_64", parcrypt_avx512))]
            Backend::Avx512X16 => has(Feature::Avx512),
            #[allow(unreachable_patterns)]
            _ => false,
        }
    }

    /// What this backend needs that this CPU lacks or the mask takes away,
    /// for a skipped test or workload to say (`None`: available).
    pub fn missing(self) -> Option<String> {
        use crate::cpu::Feature;
        if self.is_available() {
            return None;
        }
        let needs = match self {
            Backend::Sha2 => return None,
            Backend::ShaNiX2 | Backend::ShaNiX4 => Feature::ShaNi,
            Backend::Avx2X8 => Feature::Avx2,
            Backend::Avx512X16 => Feature::Avx512,
        };
        Some(if !cfg!(target_arch = "x86_64") {
            format!("{needs} (an x86-64 feature; this is {})", std::env::consts::ARCH)
        } else if self == Backend::Avx512X16 && !cfg!(parcrypt_avx512) {
            "a compiler with AVX-512 intrinsics (Rust 1.89 or later)".to_owned()
        } else if needs.detected() {
            format!("{needs} (masked by {})", crate::cpu::MASK_ENV)
        } else {
            format!("{needs} (not on this CPU)")
        })
    }

    /// The backends this CPU can run, in [`Backend::ALL`] order.
    pub fn available() -> Vec<Backend> {
        Backend::ALL.into_iter().filter(|b| b.is_available()).collect()
    }

    /// The fastest backend for this CPU, ignoring any override: AVX-512
    /// where present except on AMD family 19h (Zen 3/4, whose 512-bit
    /// operations are issued as two 256-bit halves), then SHA-NI ×4, then
    /// AVX2, then `sha2` (measurements: `README.md`).
    pub fn detected() -> Backend {
        static DETECTED: OnceLock<Backend> = OnceLock::new();
        *DETECTED.get_or_init(|| {
            if Backend::Avx512X16.is_available() && !amd_family_19h() {
                Backend::Avx512X16
            } else if Backend::ShaNiX4.is_available() {
                Backend::ShaNiX4
            } else if Backend::Avx2X8.is_available() {
                Backend::Avx2X8
            } else {
                Backend::Sha2
            }
        })
    }

    /// What `PARCRYPT_SHA256_BACKEND` asks for: `Ok(None)` when it is unset,
    /// empty or `auto`; an error for a name that is not a backend or a
    /// backend this CPU cannot run. (Read once per process.)
    ///
    /// # Errors
    /// [`EnvError`] naming the value and why it was not used.
    pub fn from_env() -> Result<Option<Backend>, EnvError> {
        static FROM_ENV: OnceLock<Result<Option<Backend>, EnvError>> = OnceLock::new();
        FROM_ENV
            .get_or_init(|| Backend::parse_env(std::env::var_os(BACKEND_ENV).as_deref()))
            .clone()
    }

    /// What an environment value asks for (see [`Backend::from_env`]).
    fn parse_env(value: Option<&std::ffi::OsStr>) -> Result<Option<Backend>, EnvError> {
        let Some(value) = value else {
            return Ok(None);
        };
        let value = value.to_string_lossy();
        if value.is_empty() || value.eq_ignore_ascii_case("auto") {
            return Ok(None);
        }
        match value.parse::<Backend>() {
            Ok(b) if b.is_available() => Ok(Some(b)),
            Ok(b) => Err(EnvError::Unavailable(Unavailable(b))),
            Err(e) => Err(EnvError::Unknown(e)),
        }
    }

    /// The backend [`sha256_many_into`](super::sha256_many_into) and the Merkle trees use now: the one
    /// given to [`Backend::force`] if any, else a valid
    /// `PARCRYPT_SHA256_BACKEND`, else [`Backend::detected`]. An invalid
    /// environment value is ignored (never a crash, never an instruction
    /// the CPU lacks); [`Backend::from_env`] says why, for a caller to
    /// report.
    pub fn active() -> Backend {
        match FORCED.load(Ordering::Relaxed) {
            0 => Backend::from_env()
                .ok()
                .flatten()
                .unwrap_or_else(Backend::detected),
            n => Backend::ALL[usize::from(n) - 1],
        }
    }

    /// Makes `choice` the process-wide backend (`None`: back to the
    /// environment or detection). For tests and benchmarks that compare
    /// backends; every backend gives the same digests, so other threads
    /// hashing meanwhile only change speed.
    ///
    /// # Errors
    /// [`Unavailable`] if this CPU cannot run `choice`; nothing changes then.
    pub fn force(choice: Option<Backend>) -> Result<(), Unavailable> {
        let code = match choice {
            None => 0,
            Some(b) if b.is_available() => Backend::ALL.iter().position(|x| *x == b).map_or(0, |i| i + 1),
            Some(b) => return Err(Unavailable(b)),
        };
        FORCED.store(code as u8, Ordering::Relaxed);
        Ok(())
    }
}

/// 0 = not forced, else the index in [`Backend::ALL`] plus one.
static FORCED: AtomicU8 = AtomicU8::new(0);

/// AMD family 19h (Zen 3 and Zen 4): AVX-512 (Zen 4) runs as two 256-bit
/// halves there, and SHA-NI ×4 is the faster backend.
fn amd_family_19h() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: CPUID leaves 0 and 1 exist on every x86-64 CPU. (A safe
        // function from Rust 1.87 on, unsafe before: the block stays for
        // the crate's minimum Rust version.)
        #[allow(unused_unsafe)]
        let (vendor, version) = unsafe {
            let v = std::arch::x86_64::__cpuid(0);
            (v, std::arch::x86_64::__cpuid(1).eax)
        };
        let amd = (vendor.ebx, vendor.edx, vendor.ecx) == (0x6874_7541, 0x6974_6e65, 0x444d_4163);
        let family = ((version >> 8) & 0xf) + ((version >> 20) & 0xff);
        amd && family == 0x19
    }
    #[cfg(not(target_arch = "x86_64"))]
    false
}

impl std::fmt::Display for Backend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Backend {
    type Err = crate::name::UnknownName;

    /// Case-insensitive; `shani`, `avx2` and `avx512` name the widest
    /// backend of that family.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let lower = s.to_ascii_lowercase();
        let alias = match lower.as_str() {
            "shani" => "shani-x4",
            "avx2" => "avx2-x8",
            "avx512" => "avx512-x16",
            other => other,
        };
        Backend::ALL
            .into_iter()
            .find(|b| b.name() == alias)
            .ok_or_else(|| {
                crate::name::UnknownName::new(
                    "SHA-256 backend",
                    s,
                    "sha2, shani-x2, shani-x4, avx2-x8 or avx512-x16",
                )
            })
    }
}

/// Why `PARCRYPT_SHA256_BACKEND` was not used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum EnvError {
    /// Not a backend's name.
    #[error("PARCRYPT_SHA256_BACKEND: {0}")]
    Unknown(crate::name::UnknownName),
    /// A backend this CPU cannot run.
    #[error("PARCRYPT_SHA256_BACKEND: {0}")]
    Unavailable(Unavailable),
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn names_parse_and_round_trip() {
        for b in Backend::ALL {
            assert_eq!(b.name().parse::<Backend>(), Ok(b));
            assert_eq!(b.to_string(), b.name());
        }
        assert_eq!("SHANI".parse::<Backend>(), Ok(Backend::ShaNiX4));
        assert_eq!("avx2".parse::<Backend>(), Ok(Backend::Avx2X8));
        assert_eq!("avx512".parse::<Backend>(), Ok(Backend::Avx512X16));
        let err = "md5".parse::<Backend>().unwrap_err();
        assert_eq!(err.kind, "SHA-256 backend");
        assert!(Backend::Sha2.is_available());
        assert!(Backend::detected().is_available());
        assert!(Backend::active().is_available());
    }

    #[test]
    fn environment_values_parse_or_say_why_not() {
        use std::ffi::OsStr;
        assert_eq!(Backend::parse_env(None), Ok(None));
        assert_eq!(Backend::parse_env(Some(OsStr::new(""))), Ok(None));
        assert_eq!(Backend::parse_env(Some(OsStr::new("AUTO"))), Ok(None));
        for b in Backend::ALL {
            let got = Backend::parse_env(Some(OsStr::new(b.name())));
            if b.is_available() {
                assert_eq!(got, Ok(Some(b)));
            } else {
                assert_eq!(got, Err(EnvError::Unavailable(Unavailable(b))));
            }
        }
        let err = Backend::parse_env(Some(OsStr::new("md5"))).unwrap_err();
        assert!(matches!(err, EnvError::Unknown(_)));
        assert_eq!(
            err.to_string(),
            "PARCRYPT_SHA256_BACKEND: unknown SHA-256 backend \"md5\" \
             (expected sha2, shani-x2, shani-x4, avx2-x8 or avx512-x16)"
        );
    }
}
