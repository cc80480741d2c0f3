//! The `parcrypt` command: argument definitions and glue over the library.

// Every byte of output goes through `io::Output`, every message through
// `error::eprint_line`: the print macros panic on a closed pipe or full disk.
#![deny(clippy::print_stdout, clippy::print_stderr)]

mod cli;
mod cmd;
mod error;
mod hex_args;
mod io;
mod signals;
mod tty;

use std::process::ExitCode;

use clap::Parser;

/// The pipe buffer asked for on standard input and output (Linux's default
/// `pipe-max-size`; 64 KiB otherwise).
const PIPE_BUFFER: usize = 1 << 20;

fn main() -> ExitCode {
    // PARCRYPT_CPU_MASK reaches AWS-LC before any command uses it.
    let _ = parcrypt::cpu::enabled();
    signals::remove_temps_on_signals();
    let cli = match cli::Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return clap_error(&e),
    };
    // A PARCRYPT_SHA256_BACKEND the library ignored (unknown, or not on this
    // CPU) is said once, not silently dropped.
    if let Err(e) = parcrypt::digest::Backend::from_env() {
        error::warn(format_args!(
            "{e}; the SHA-256 backend is chosen for this CPU instead"
        ));
    }
    // So is a PARCRYPT_CPU_MASK naming no feature (nothing is masked then).
    if let Err(e) = parcrypt::cpu::mask() {
        error::warn(format_args!("{e}; no CPU feature is masked"));
    }
    // Pipes in and out move 1 MiB per read/write instead of 64 KiB.
    parcrypt::io::grow_pipe(std::io::stdin(), PIPE_BUFFER);
    parcrypt::io::grow_pipe(std::io::stdout(), PIPE_BUFFER);
    match cmd::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => fail(e),
    }
}

/// Reports a failed command: a failed write to the output explains any
/// error that followed it; a closed pipe is no failure.
fn fail(e: anyhow::Error) -> ExitCode {
    let e = io::take_write_failure().unwrap_or(e);
    if error::is_broken_pipe(&e) {
        return ExitCode::SUCCESS;
    }
    if e.downcast_ref::<error::Silent>().is_some() {
        return ExitCode::FAILURE;
    }
    let (msg, status) = error::report(&e);
    error::eprint_line(msg);
    ExitCode::from(status as u8)
}

/// Prints help/version to stdout (exit 0) and usage errors to stderr in
/// parcrypt's style (exit 2).
fn clap_error(e: &clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    match e.kind() {
        ErrorKind::DisplayHelp
        | ErrorKind::DisplayVersion
        | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let printed = e.print();
            if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                ExitCode::from(2)
            } else if let Err(write) = printed {
                fail(io::write_error("standard output", write))
            } else {
                ExitCode::SUCCESS
            }
        }
        _ => {
            let text = e.render().to_string();
            let text = text.strip_prefix("error: ").unwrap_or(&text);
            let text = text.strip_suffix('\n').unwrap_or(text);
            error::eprint_line(format_args!("parcrypt: {text}"));
            ExitCode::from(2)
        }
    }
}
