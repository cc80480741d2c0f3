//! The CLI's integration tests, in one binary: each test binary links
//! AWS-LC, so one link instead of one per file. Every test runs the real
//! `parcrypt` binary (helpers in `common`); one module per family.
//!
//! `lab_cli` also runs in a build without the default feature `lab`, where
//! the other modules' tests (`hostile` runs `lab`) do not hold: `.ci/run`
//! runs it alone with a name filter,
//! `cargo test -p parcrypt-cli --no-default-features --test it lab_cli`.

mod common;
#[path = "../../../parcrypt/tests/it/tools.rs"]
mod tools;
/// The library's reader of its `tests/data/` vector files, which some CLI
/// tests replay through the binary.
#[path = "../../../parcrypt/tests/it/vectors.rs"]
mod vectors;

/// filippo.io/age's programs and the test plugin, built with Go.
#[path = "../../../parcrypt/tests/it/age_go_tools.rs"]
mod age_go_tools;

mod age_cli;
mod age_plugin_cli;
mod check_ahead_cli;
mod cli_errors;
mod cobblestone_cli;
mod ecdsa_cli;
mod enc_password_cli;
mod fuzz_cli;
mod gcm_cli;
mod hash_check_cli;
mod hash_cli;
mod hostile;
mod interop_openssl;
mod key_password_cli;
mod lab_cli;
mod mldsa_cli;
mod mlkem_cli;
mod output_files;
mod rc4_cli;
mod rsa_cli;
mod sha_backend_env;
mod signals;
mod slhdsa_cli;
mod stream_cli;
mod stream_hostile;
mod tiles_cli;
