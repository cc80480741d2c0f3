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
# Trial division's agreement with AWS-LC (src/rsa/trial.rs): 10,000 random
# candidates here (100,000 natively; the code is plain integer Rust).
export PARCRYPT_TRIAL_CANDIDATES=${PARCRYPT_TRIAL_CANDIDATES:-10000}
# PARCRYPT_EMULATED: sweeps whose cost is the number of schedules run a
# cross-section (sequential, static on 3 threads, work stealing on 8:
# tests/it/common.rs `emulated`), the embedded-safety tests a tenth of their
# truncation races, without measuring the resident set (it would be
# qemu's). The native run covers them in full.
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

# --ci [--no-run]: what .ci/run runs under emulation (the two crates' whole
# suites took 26 minutes of a 2-vCPU machine): every test of the library (unit, integration, fuzz,
# doc tests: the vectors, equivalence and interop tests of every aarch64
# backend), and the CLI's tests of what differs between platforms:
CI_CLI_TESTS=(
  # the terminal: tty.rs, TCGETS2 or its TCGETS fallback
  age_cli::age_cli_interop_passphrases_typed_on_a_terminal
  # signal delivery; temporary outputs removed
  signals::
  # renames, links, modes, O_EXCL: the syscalls (one of the three races)
  output_files::a_ output_files::encrypt_and output_files::paths_ output_files::keygen_
  output_files::eight_racing_refusing_writers
  # closed pipes and full outputs (EPIPE, SIGPIPE, ENOSPC). (Absurd sizes
  # are usage errors from the argument parser, the same 64-bit arithmetic
  # on both platforms: the native run checks them.)
  hostile::a_closed_stdout
  # memory bounds through the emulator's address-space limit
  stream_hostile::
  # pipe sizes (io/pipe_size.rs), FIFOs, the SHA-256 kernels through files
  hash_cli::many_files_are_byte_identical_to_sha256sum hash_cli::lines_stream_out
  hash_cli::sha256_equals_sha256sum hash_cli::unreadable_files
  # CPU dispatch by environment
  sha_backend_env::
  # the aarch64 AES output against openssl, every mode and key size
  interop_openssl::every_mode_and_key_size interop_openssl::ctr_counter_wrap interop_openssl::no_pad
  # exit codes, messages, closed pipes, a full disk, FIFOs and symlinks
  cli_errors::
  # built without the lab: `lab` says so
  lab_cli::
)
# The rest of the CLI's tests (formats, keys, tiles, RC4 and fuzzed
# arguments) run the same Rust as the native pass, on the library the
# emulated pass tests whole; `scripts/test-aarch64.sh -p parcrypt-cli` runs
# them all. The CLI is built without its `lab` feature here: the lab's
# plotting dependencies (resvg) need not be cross-built, and the lab's tests
# are left out under emulation anyway.
#
# --ci builds everything once, in ONE cargo invocation: the library's and
# the CLI's tests, the CLI itself and the JNI library the Java step packs
# into a two-platform jar (with the test profile). Separate `cargo test -p`
# invocations resolve the dependencies' features anew for each package set,
# and compiled the library three times (stop 45's log: 7, 4 and 1 minutes).
# The test executables are then run directly through the runner, as cargo
# runs them (from the package's directory), each with its own arguments;
# the doc tests through `cargo test --doc` with the same packages and
# features, which rebuilds nothing.
ci_packages=(-p parcrypt -p parcrypt-cli -p parcrypt-jni --no-default-features)
ci_tests_json="${CARGO_TARGET_DIR:-$PWD/target}/aarch64-ci-tests.json"
ci_build() {
  # (the target directory does not exist yet on a clean clone: the
  # redirection below needs it before cargo creates it)
  mkdir -p "$(dirname "$ci_tests_json")"
  cargo build --locked --profile test --target aarch64-unknown-linux-gnu "${ci_packages[@]}" \
    --lib --bins --tests --message-format=json-render-diagnostics >"$ci_tests_json"
}
ci_run() { # ci_run PACKAGE-DIR KIND NAME [libtest arguments...]
  local dir=$1 kind=$2 name=$3 exe
  shift 3
  exe=$(python3 scripts/test_executable.py "$ci_tests_json" "$dir" "$kind" "$name")
  echo "test-aarch64: $dir $kind $name: ${exe#"$PWD"/}"
  # shellcheck disable=SC2086 # the runner is a command line
  (cd "$dir" && $CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER "$exe" "$@")
}
if [ "${1:-}" = --ci ]; then
  shift
  ci_build
  if [ "${1:-}" = --no-run ]; then
    exit 0
  fi
  ci_run crates/parcrypt lib parcrypt
  ci_run crates/parcrypt test fuzz_parsers
  ci_run crates/parcrypt test it
  cargo test --locked --target aarch64-unknown-linux-gnu "${ci_packages[@]}" --doc
  ci_run crates/parcrypt-cli bin parcrypt
  # The CLI's tests mostly wait on the binary they start (each start under
  # qemu translates it anew): twice the test threads keep both cores busy.
  # (Run beside the library's tests instead, they saw a CLI child under
  # qemu end before writing a byte, once: kept one after the other.)
  ci_run crates/parcrypt-cli test it --test-threads=4 "${CI_CLI_TESTS[@]}"
  exit
fi
if [ $# -eq 0 ]; then
  set -- --workspace
fi
exec cargo test --locked --target aarch64-unknown-linux-gnu "$@"
