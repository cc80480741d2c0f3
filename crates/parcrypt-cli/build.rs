//! Tells the integration tests the target they are built for
//! (`PARCRYPT_CLI_TARGET`, e.g. `aarch64-unknown-linux-gnu`), so that they
//! run the `parcrypt` binary through cargo's runner for that target
//! (`CARGO_TARGET_<TRIPLE>_RUNNER`) just as cargo runs the tests themselves:
//! see `tests/it/common.rs` and `scripts/test-aarch64.sh`.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let target = std::env::var("TARGET").unwrap_or_default();
    println!("cargo:rustc-env=PARCRYPT_CLI_TARGET={target}");
}
