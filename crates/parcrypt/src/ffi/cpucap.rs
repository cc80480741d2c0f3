//! Hands `PARCRYPT_CPU_MASK` to AWS-LC as `OPENSSL_ia32cap`, before any
//! code of the program runs.
//!
//! AWS-LC reads `OPENSSL_ia32cap` in `OPENSSL_cpuid_setup`, which runs from
//! a load-time initializer (`.init_array`) of its own. parcrypt adds one
//! that, when [`crate::cpu::aws_lc_mask`] has a value, exports it and runs
//! `OPENSSL_cpuid_setup` again. Initializers run one after another before
//! `main` (or inside `dlopen`, for the Python and Java libraries), in an
//! order the linker picks: if AWS-LC's ran first, the second setup reads
//! the variable now set; if parcrypt's runs first, AWS-LC's reads it
//! itself. The setup only writes AWS-LC's capability words, so running it
//! twice is harmless.
#![allow(unsafe_code)]

/// AWS-LC's capability words (`OPENSSL_ia32cap_P`), for the test below.
#[cfg(all(test, target_arch = "x86_64"))]
pub(crate) fn aws_lc_caps() -> [u32; 4] {
    unsafe extern "C" {
        #[link_name = concat!(env!("PARCRYPT_AWS_LC_SYMBOL_PREFIX"), "OPENSSL_ia32cap_P")]
        static OPENSSL_IA32CAP_P: [u32; 4];
    }
    // SAFETY: a plain array AWS-LC writes only during its setup, which ran
    // before `main` (see the module docs); reading a copy is a load.
    unsafe { std::ptr::addr_of!(OPENSSL_IA32CAP_P).read() }
}

#[cfg(target_arch = "x86_64")]
extern "C" fn mask_aws_lc() {
    unsafe extern "C" {
        #[link_name = concat!(env!("PARCRYPT_AWS_LC_SYMBOL_PREFIX"), "OPENSSL_cpuid_setup")]
        fn OPENSSL_cpuid_setup();
    }
    let Some(value) = crate::cpu::aws_lc_mask() else {
        return;
    };
    // SAFETY: load-time initializers run before `main` starts any thread;
    // inside `dlopen` (the Python and Java libraries) other threads may
    // exist, which is why this runs only when the testing variable
    // PARCRYPT_CPU_MASK is set (docs/PERFORMANCE.md says so).
    unsafe { std::env::set_var("OPENSSL_ia32cap", value) };
    // SAFETY: AWS-LC's setup takes no arguments and only probes CPUID and
    // rewrites its capability words; no AWS-LC code runs yet.
    unsafe { OPENSSL_cpuid_setup() };
}

/// Runs [`mask_aws_lc`] at load time (an ELF `.init_array` entry).
#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
#[used]
#[unsafe(link_section = ".init_array")]
static MASK_AWS_LC: extern "C" fn() = mask_aws_lc;

#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    use super::*;
    use crate::cpu::{Feature, has};

    /// What AWS-LC runs agrees with what parcrypt dispatches on, for the
    /// features AWS-LC tests (cpucap/internal.h), whenever the mask was
    /// handed over.
    #[test]
    fn aws_lc_sees_the_mask() {
        let caps = aws_lc_caps();
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
        let handed = crate::cpu::aws_lc_mask().is_some();
        println!("{}; AWS-LC words {caps:08x?}", crate::cpu::report());
        for (f, aws_lc) in aws {
            if handed && crate::cpu::mask().is_ok_and(|m| m.contains(f)) {
                assert!(!aws_lc, "{f} is masked, yet AWS-LC still has it: {caps:08x?}");
            }
            if !f.detected() {
                assert!(!has(f));
            }
        }
    }
}
