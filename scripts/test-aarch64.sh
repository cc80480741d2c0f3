#!/usr/bin/env bash
# The Rust test suite for aarch64 Linux, cross-built on an x86-64 Linux
# machine and run under qemu-aarch64 (user-mode emulation), the way cargo
# runs any target's tests: through the target's runner.
#
#   scripts/test-aarch64.sh                        # the whole workspace's tests
#   scripts/test-aarch64.sh -p parcrypt --test it  # any `cargo test` arguments
#   scripts/test-aarch64.sh --build -p parcrypt-jni  # build, test profile
#
# Needs (Debian/Ubuntu): gcc-aarch64-linux-gnu, libc6-dev-arm64-cross,
# qemu-user, and `rustup target add aarch64-unknown-linux-gnu`; .ci/run
# installs them. The CLI's tests run the aarch64 `parcrypt` through the same
# runner (crates/parcrypt-cli/tests/it/common.rs reads
# CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER); interop tests run their
# tools (openssl, Python's cryptography, Go) natively on this machine against
# the aarch64 binary's output.
set -euo pipefail
cd "$(dirname "$0")/.."

sysroot=/usr/aarch64-linux-gnu
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc
# G_SLICE=always-malloc: qemu 7.2 (Debian 12) allocates translated code's
# bookkeeping with GLib's slice allocator, whose lock is not reset in a forked
# child: a test that spawns a process while another test thread is being
# translated left the child hung in g_slice_alloc (seen here, a `pre_exec`
# spawn; gdb: tcg_tb_insert -> g_slice_alloc). With malloc, glibc's fork
# handlers keep the child's heap usable. (GLib >= 2.76 always uses malloc.)
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER="env G_SLICE=always-malloc qemu-aarch64 -L $sysroot"
export CC_aarch64_unknown_linux_gnu=aarch64-linux-gnu-gcc
export AR_aarch64_unknown_linux_gnu=aarch64-linux-gnu-ar
# qemu-aarch64 looks up the dynamic loader and libraries under $sysroot.
export QEMU_LD_PREFIX=$sysroot
# The AES schedule property (tests/it/equivalence.rs) runs 6 of its 24
# random cases here: each takes about 30 s under emulation. Every other
# test runs as natively.
export PARCRYPT_SCHEDULE_CASES=${PARCRYPT_SCHEDULE_CASES:-6}
# The embedded-safety tests (tests/it/embedded.rs) run a tenth of their
# truncation races here (the paths are the native run's, emulated 10-30x
# slower) and do not measure the resident set (it would be qemu's).
export PARCRYPT_EMULATED=1

for tool in aarch64-linux-gnu-gcc qemu-aarch64; do
  command -v "$tool" >/dev/null || { echo "test-aarch64: $tool not found (apt-get install gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user)" >&2; exit 1; }
done

# --build: build (with the test profile, so the test builds' dependencies
# are reused) instead of testing, e.g. `--build -p parcrypt-jni` for the
# aarch64 JNI library .ci/run packs into a two-platform jar.
if [ "${1:-}" = --build ]; then
  shift
  exec cargo build --locked --profile test --target aarch64-unknown-linux-gnu "$@"
fi
if [ $# -eq 0 ]; then
  set -- --workspace
fi
exec cargo test --locked --target aarch64-unknown-linux-gnu "$@"
