//! `parcrypt age keygen`: age-keygen's identity files (`# created:`,
//! `# public key:`, the key; X25519 or, with `--pq`, the ML-KEM-768 hybrid)
//! and `keygen -y`, the public keys of an identity file.

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::time::SystemTime;

use anyhow::{Context, Result, anyhow};
use parcrypt::age::{self, Identity, KeyKind};

use super::files::read_small;
use crate::cli::AgeKeygenArgs;
use crate::error::{Hint, fail};
use crate::io::{Output, Policy, names_stdout};

pub(super) fn run(args: &AgeKeygenArgs) -> Result<()> {
    if !args.input.is_empty() && !args.convert || args.input.len() > 1 {
        return fail(
            "too many arguments",
            "only `keygen -y` takes an INPUT file, and only one",
        );
    }
    if args.pq && args.convert {
        return fail(
            "--pq cannot be used with -y",
            "-y prints the public keys of existing identities",
        );
    }
    let output = args.output.as_deref().filter(|p| !names_stdout(p));
    if args.convert {
        let input = args.input.first().map(PathBuf::as_path);
        let bytes = read_small(input, "identity")?;
        let identities = age::parse_identities(&bytes)
            .map_err(anyhow::Error::new)
            .context("failed to parse input")
            .hint(
                "-y reads an identity file: AGE-SECRET-KEY-… lines, as `parcrypt age keygen` writes them",
            )?;
        let mut out = Output::create(output, Policy::refuse_unless(args.force))?;
        for id in &identities {
            if matches!(id, Identity::Plugin(_)) {
                // age-keygen -y reads age's own keys only; a plugin knows its recipients.
                return fail(
                    "a plugin identity (AGE-PLUGIN-…) has no public key here",
                    "ask the plugin for its recipient (age-plugin-NAME has its own commands)",
                );
            }
            match id.to_recipient() {
                Some(r) => writeln!(out, "{r}")?,
                None => return fail("an identity without a public key", "-y reads age and SSH keys"),
            }
        }
        return out.commit();
    }
    let kind = if args.pq { KeyKind::Hybrid } else { KeyKind::X25519 };
    let identity = Identity::generate(kind);
    let public = identity
        .to_recipient()
        .ok_or_else(|| anyhow!("internal error: a new key without a public key"))?;
    let file = identity
        .keygen_file(&age::rfc3339_utc(SystemTime::now()))
        .map_err(anyhow::Error::new)?;
    let to_terminal = output.is_none() && io::stdout().is_terminal();
    if output.is_none() && stdout_is_world_readable_file() {
        eprint_age_keygen("warning: writing secret key to a world-readable file");
    }
    let mut out = Output::create(output, Policy::refuse_unless(args.force).secret())?;
    out.write_all(file.expose_bytes())?;
    out.commit()?;
    if !to_terminal {
        crate::error::eprint_line(format_args!("Public key: {public}"));
    }
    Ok(())
}

fn eprint_age_keygen(text: &str) {
    crate::error::eprint_line(format_args!("parcrypt: {text}"));
}

/// Whether standard output is a regular file others may read (age-keygen
/// warns before writing a secret key there).
fn stdout_is_world_readable_file() -> bool {
    use std::os::fd::AsFd;
    use std::os::unix::fs::PermissionsExt;
    io::stdout()
        .as_fd()
        .try_clone_to_owned()
        .map(std::fs::File::from)
        .and_then(|f| f.metadata())
        .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o004 != 0)
}
