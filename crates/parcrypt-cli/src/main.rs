//! The `parcrypt` command: argument definitions and glue over the library.

mod cli;
mod cmd;
mod error;
mod io;

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = match cli::Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return clap_error(&e),
    };
    match cmd::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if error::is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            let (msg, status) = error::report(&e);
            let _ = writeln!(std::io::stderr(), "{msg}");
            ExitCode::from(status as u8)
        }
    }
}

/// Prints help/version to stdout (exit 0) and usage errors to stderr in
/// parcrypt's style (exit 2).
fn clap_error(e: &clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    match e.kind() {
        ErrorKind::DisplayHelp
        | ErrorKind::DisplayVersion
        | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = e.print();
            if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            }
        }
        _ => {
            let text = e.render().to_string();
            let text = text.strip_prefix("error: ").unwrap_or(&text);
            let _ = write!(std::io::stderr(), "parcrypt: {text}");
            ExitCode::from(2)
        }
    }
}
