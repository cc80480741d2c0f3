//! `PARCRYPT_CPU_MASK` applied to AWS-LC's own capability words
//! (`OPENSSL_ia32cap_P`), so that AWS-LC's assembly dispatch agrees with
//! parcrypt's.
//!
//! AWS-LC probes the CPU in a load-time initializer of its own
//! (`OPENSSL_cpuid_setup`, run from `.init_array`). That initializer runs
//! after any parcrypt could add (checked here: the linker puts AWS-LC's
//! archive after parcrypt's code, and initializers run in that order) and
//! overwrites the words, so the mask is applied once, the first time
//! parcrypt asks what the CPU can do ([`super::enabled`]), which every
//! dispatch point and every door to AWS-LC (`ffi`'s constructors, the
//! digest and AES keys) does before using AWS-LC — by then every
//! initializer has run. The words are ANDed with the mask directly: the
//! environment is never written (`setenv` inside `dlopen` of a JVM or
//! Python process would race other threads' `getenv`), so a child process
//! is not masked unless its caller passes [`super::aws_lc_mask`] on
//! itself (the lab does, for its `openssl` peers).
#![allow(unsafe_code)]

#[cfg(target_arch = "x86_64")]
unsafe extern "C" {
    #[link_name = concat!(env!("PARCRYPT_AWS_LC_SYMBOL_PREFIX"), "OPENSSL_cpuid_setup")]
    fn OPENSSL_cpuid_setup();
    #[link_name = concat!(env!("PARCRYPT_AWS_LC_SYMBOL_PREFIX"), "OPENSSL_ia32cap_P")]
    static mut OPENSSL_IA32CAP_P: [u32; 4];
    #[link_name = concat!(env!("PARCRYPT_AWS_LC_SYMBOL_PREFIX"), "OPENSSL_cpucap_initialized")]
    static OPENSSL_CPUCAP_INITIALIZED: u8;
}

/// Clears the bits `(low, high)` of AWS-LC's `OPENSSL_ia32cap` (the two
/// 64-bit halves `Feature::ia32cap_bits` uses) in AWS-LC's capability
/// words. Called once per process, from [`super::enabled`]'s first call.
#[cfg(target_arch = "x86_64")]
pub(super) fn clear(low: u64, high: u64) {
    // SAFETY: a byte AWS-LC's setup writes once, at load time; every load
    // time initializer has run by the time parcrypt code runs.
    if unsafe { std::ptr::addr_of!(OPENSSL_CPUCAP_INITIALIZED).read() } == 0 {
        // Not probed yet (a static build without AWS-LC's initializer):
        // probe now, so the probe cannot later undo the mask.
        // SAFETY: takes no arguments; only probes CPUID and writes the words.
        unsafe { OPENSSL_cpuid_setup() };
    }
    let masks = [low as u32, (low >> 32) as u32, high as u32, (high >> 32) as u32];
    // SAFETY: AWS-LC's four capability words. This runs once (a `OnceLock`
    // in `enabled`), before parcrypt calls into AWS-LC; AWS-LC code that
    // another part of the process runs at the same moment reads each word
    // with a plain load and sees either value, both valid capability sets
    // (bits are only cleared).
    unsafe {
        let words = std::ptr::addr_of_mut!(OPENSSL_IA32CAP_P);
        for (i, mask) in masks.into_iter().enumerate() {
            let word = words.cast::<u32>().add(i);
            word.write_volatile(word.read_volatile() & !mask);
        }
    }
}

/// On other architectures the mask names no feature AWS-LC has.
#[cfg(not(target_arch = "x86_64"))]
pub(super) fn clear(_low: u64, _high: u64) {}

/// AWS-LC's capability words, for tests.
#[cfg(all(test, target_arch = "x86_64"))]
pub(crate) fn words() -> [u32; 4] {
    // SAFETY: a plain array, written before parcrypt code runs and by
    // `clear` (which `enabled` has run before any test reads this).
    unsafe { std::ptr::addr_of!(OPENSSL_IA32CAP_P).read() }
}

#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    use super::super::{Feature, aws_lc_mask, enabled, has, mask, report};
    use super::words;

    /// What AWS-LC runs agrees with what parcrypt dispatches on, for the
    /// features AWS-LC tests (cpucap/internal.h), whenever the mask was
    /// handed over; and the environment was not written to do it.
    #[test]
    fn aws_lc_sees_the_mask_and_the_environment_is_untouched() {
        let _ = enabled();
        let caps = words();
        let aws = [
            (Feature::AesNi, caps[1] & (1 << 25) != 0),
            (Feature::Pclmulqdq, caps[1] & (1 << 1) != 0),
            (Feature::Avx2, caps[2] & (1 << 5) != 0),
            (Feature::ShaNi, caps[2] & (1 << 29) != 0),
            (Feature::Vaes, caps[3] & (1 << 9) != 0),
            (Feature::Vpclmulqdq, caps[3] & (1 << 10) != 0),
            (Feature::Avx512, caps[2] & 0xC003_0000 == 0xC003_0000),
            (Feature::Avx512Ifma, caps[2] & 0xC023_0000 == 0xC023_0000),
        ];
        let handed = aws_lc_mask().is_some();
        println!("{}; AWS-LC words {caps:08x?}", report());
        for (f, aws_lc) in aws {
            if handed && mask().is_ok_and(|m| m.contains(f)) {
                assert!(!aws_lc, "{f} is masked, yet AWS-LC still has it: {caps:08x?}");
            }
            if !f.detected() {
                assert!(!has(f));
            }
        }
        if handed {
            assert!(
                std::env::var_os("OPENSSL_ia32cap").is_none(),
                "parcrypt wrote OPENSSL_ia32cap into the environment"
            );
        }
    }
}
