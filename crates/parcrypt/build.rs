//! Finds the prefix aws-lc-sys gave AWS-LC's C symbols, so that
//! `src/ffi/internal.rs` can link the internal functions aws-lc-sys has no bindings for.
//!
//! aws-lc-sys builds AWS-LC with every C symbol renamed `aws_lc_<version>_…`
//! (so two versions can live in one binary) and declares
//! `links = "aws_lc_<version>"`. Cargo hands a `links` crate's build metadata
//! to its direct dependents as `DEP_<LINKS>_<KEY>` variables; aws-lc-sys
//! exports the name of the library it built as `libcrypto`
//! (`aws_lc_0_47_0_crypto`, or plain `crypto` when it links an unprefixed
//! system AWS-LC). The symbol prefix is that name without `crypto`.
//!
//! Emits, for the crate's code and tests:
//! - `PARCRYPT_AWS_LC_SYMBOL_PREFIX`: `aws_lc_0_47_0_` (or empty);
//! - `PARCRYPT_AWS_LC_LINKS`: `aws_lc_0_47_0`, the `links` name, which a
//!   unit test compares with the version in `Cargo.lock`.
//!
//! It also sets `cfg(parcrypt_avx512)` when the compiler is Rust 1.89 or
//! later, the first with the AVX-512 intrinsics stable: the many-message
//! SHA-256 kernel for AVX-512 (`src/digest/many/avx512.rs`) is compiled only
//! then, so the crate keeps building on its minimum Rust version.

use std::env;

/// Whether `$RUSTC` is at least 1.`minor`.
fn rustc_at_least(minor: u32) -> bool {
    let rustc = env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let Ok(out) = std::process::Command::new(rustc).arg("--version").output() else {
        return false;
    };
    let text = String::from_utf8_lossy(&out.stdout);
    // "rustc 1.95.0 (…)"
    let mut version = text.split_whitespace().nth(1).unwrap_or("").split('.');
    let major = version.next().and_then(|v| v.parse::<u32>().ok());
    let found = version.next().and_then(|v| v.parse::<u32>().ok());
    matches!((major, found), (Some(1), Some(m)) if m >= minor) || major.is_some_and(|m| m > 1)
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rustc-check-cfg=cfg(parcrypt_avx512)");
    if rustc_at_least(89) {
        println!("cargo:rustc-cfg=parcrypt_avx512");
    }
    // DEP_AWS_LC_<version>_LIBCRYPTO; not aws-lc-rs's re-export of it
    // (DEP_AWS_LC_RS_<version>_SYS_LIBCRYPTO).
    let is_sys = |key: &str| {
        key.strip_prefix("DEP_AWS_LC_")
            .and_then(|k| k.strip_suffix("_LIBCRYPTO"))
            .is_some_and(|v| v.bytes().all(|b| b.is_ascii_digit() || b == b'_'))
    };
    let found: Vec<(String, String)> = env::vars().filter(|(key, _)| is_sys(key)).collect();
    let (key, libcrypto) = match found.as_slice() {
        [one] => one.clone(),
        [] => panic!(
            "no DEP_AWS_LC_*_LIBCRYPTO variable: aws-lc-sys (a direct dependency of parcrypt) \
             no longer exports its library name as `cargo:libcrypto=…`; see src/ffi/README.md"
        ),
        several => panic!("more than one aws-lc-sys build exports a library name: {several:?}"),
    };
    let links = key
        .strip_prefix("DEP_")
        .and_then(|k| k.strip_suffix("_LIBCRYPTO"))
        .unwrap_or_default()
        .to_ascii_lowercase();
    let prefix = libcrypto.strip_suffix("crypto").unwrap_or_else(|| {
        panic!("aws-lc-sys's library is {libcrypto:?}, not `<prefix>crypto`; see src/ffi/README.md")
    });
    if !prefix.is_empty() && prefix != format!("{links}_") {
        panic!(
            "aws-lc-sys's library {libcrypto:?} does not carry its links name {links:?}: \
             the symbol prefix cannot be trusted; see src/ffi/README.md"
        );
    }
    println!("cargo:rustc-env=PARCRYPT_AWS_LC_SYMBOL_PREFIX={prefix}");
    println!("cargo:rustc-env=PARCRYPT_AWS_LC_LINKS={links}");
}
