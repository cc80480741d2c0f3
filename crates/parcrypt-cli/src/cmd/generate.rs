//! `parcrypt completions` and `parcrypt man`: shell completion scripts and
//! manual pages, generated from the command-line definitions in
//! [`crate::cli`] so they cannot drift from `--help`.
//!
//! Both are rendered in memory and then written through [`Output`], like
//! every other output: `clap_complete` panics when a write fails, and a
//! closed pipe must end the command quietly.

use std::io::{self, Write};
use std::path::Path;

use anyhow::{Context, Result};
use clap::CommandFactory;
use clap_complete::Shell;

use crate::cli::Cli;
use crate::error::{Hint, note};
use crate::io::{Output, Policy};

/// `parcrypt completions SHELL`: the completion script on standard output.
pub fn completions(shell: Shell) -> Result<()> {
    let mut out = Output::stdout();
    out.write_all(&completion_script(shell))?;
    out.commit()
}

/// `parcrypt man [--out DIR]`: `parcrypt.1` on standard output, or every
/// page written (atomically, replacing older ones) into `DIR`, which is
/// created if missing.
pub fn man(out_dir: Option<&Path>) -> Result<()> {
    let Some(dir) = out_dir else {
        let mut out = Output::stdout();
        out.write_all(&man_page(&command())?.1)?;
        return out.commit();
    };
    let pages = man_pages()?;
    std::fs::create_dir_all(dir)
        .with_context(|| format!("cannot create directory {}", dir.display()))
        .hint("give --out a directory you can write, e.g. ~/.local/share/man/man1")?;
    for (name, page) in &pages {
        let mut out = Output::create(Some(&dir.join(name)), Policy::REPLACE)?;
        out.write_all(page)?;
        out.commit()?;
    }
    note(format_args!(
        "wrote {} manual pages to {}",
        pages.len(),
        dir.display()
    ));
    Ok(())
}

/// The completion script for `shell`.
fn completion_script(shell: Shell) -> Vec<u8> {
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "parcrypt", &mut script);
    script
}

/// The command the pages describe: built (so every subcommand has its full
/// name and the global options), without clap's `help` subcommand.
fn command() -> clap::Command {
    let mut cmd = Cli::command().disable_help_subcommand(true);
    cmd.build();
    cmd
}

/// One page as (file name, roff): `parcrypt.1`, `parcrypt-rsa-sign.1`, …
fn man_page(cmd: &clap::Command) -> io::Result<(String, Vec<u8>)> {
    let man = clap_mangen::Man::new(cmd.clone());
    let mut page = Vec::new();
    man.render(&mut page)?;
    Ok((man.get_filename(), page))
}

/// `parcrypt.1`, then a page for every visible subcommand at every level,
/// as `clap_mangen::generate_to` would write them.
fn man_pages() -> io::Result<Vec<(String, Vec<u8>)>> {
    fn add(cmd: &clap::Command, pages: &mut Vec<(String, Vec<u8>)>) -> io::Result<()> {
        pages.push(man_page(cmd)?);
        for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
            add(sub, pages)?;
        }
        Ok(())
    }
    let mut pages = Vec::new();
    add(&command(), &mut pages)?;
    Ok(pages)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use clap::ValueEnum;

    use super::*;

    /// The visible top-level subcommands, as the user types them.
    fn subcommands() -> Vec<String> {
        let names: Vec<String> = command()
            .get_subcommands()
            .filter(|s| !s.is_hide_set())
            .map(|s| s.get_name().to_owned())
            .collect();
        for expected in [
            "encrypt",
            "decrypt",
            "aes",
            "hash",
            "rsa",
            "ecdsa",
            "completions",
            "man",
        ] {
            assert!(names.iter().any(|n| n == expected), "{expected} in {names:?}");
        }
        names
    }

    #[test]
    fn every_shell_gets_a_script() {
        for shell in Shell::value_variants() {
            let script = String::from_utf8(completion_script(*shell)).unwrap();
            assert!(script.contains("parcrypt"), "{shell}: {script}");
            assert!(script.contains("threads"), "{shell}");
        }
    }

    #[test]
    fn the_bash_script_offers_every_subcommand_and_the_global_options() {
        let script = String::from_utf8(completion_script(Shell::Bash)).unwrap();
        // The words offered at each position: `opts="…"`, one line per command.
        let offers: Vec<Vec<&str>> = script
            .lines()
            .filter_map(|l| l.trim().strip_prefix("opts=\""))
            .map(|l| l.trim_end_matches('"').split_whitespace().collect())
            .collect();
        let top = offers.iter().find(|o| o.contains(&"--version")).unwrap();
        for name in subcommands() {
            assert!(top.contains(&name.as_str()), "{name} in {top:?}");
        }
        for word in ["--threads", "--strategy", "--help"] {
            assert!(top.contains(&word), "{word} in {top:?}");
        }
        // A nested command offers its own options and the global ones.
        let sign = offers.iter().find(|o| o.contains(&"--scheme")).unwrap();
        for word in ["--key", "--hash", "--threads", "--strategy"] {
            assert!(sign.contains(&word), "{word} in {sign:?}");
        }
        assert!(offers.iter().any(|o| o.contains(&"verify-batch")));
        // The library enums' spellings are completed as values.
        assert!(script.contains("\"seq static steal\""));
        assert!(script.contains("\"sha256 sha384 sha512\""));
    }

    #[test]
    fn the_man_page_names_every_subcommand() {
        let (name, page) = man_page(&command()).unwrap();
        assert_eq!(name, "parcrypt.1");
        let page = String::from_utf8(page).unwrap();
        // roff's two-line apostrophe preamble, then the title line.
        let title = page
            .lines()
            .find(|l| !l.starts_with(".ie ") && !l.starts_with(".el "));
        assert!(title.is_some_and(|l| l.starts_with(".TH parcrypt 1 ")), "{page}");
        for name in subcommands() {
            assert!(
                page.contains(&format!("parcrypt\\-{}(1)", name.replace('-', "\\-"))),
                "{name}"
            );
        }
        assert!(page.contains("\\-\\-threads"));
    }

    #[test]
    fn man_out_writes_a_page_per_subcommand() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("new/man1");
        man(Some(&out)).unwrap();
        let mut written: Vec<String> = std::fs::read_dir(&out)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        written.sort();
        let mut expected: Vec<String> = man_pages().unwrap().into_iter().map(|p| p.0).collect();
        expected.sort();
        assert_eq!(written, expected);
        for page in [
            "parcrypt.1",
            "parcrypt-encrypt.1",
            "parcrypt-rsa-sign.1",
            "parcrypt-man.1",
        ] {
            let text = std::fs::read_to_string(out.join(page)).unwrap();
            assert!(text.contains(".TH "), "{page}");
        }
        let sign = std::fs::read_to_string(out.join("parcrypt-rsa-sign.1")).unwrap();
        assert!(
            sign.contains("\\-\\-hash") && sign.contains("\\-\\-threads"),
            "{sign}"
        );
        // Run again: the pages are replaced, nothing else is left behind.
        man(Some(&out)).unwrap();
        assert_eq!(std::fs::read_dir(&out).unwrap().count(), expected.len());
    }

    #[test]
    fn man_out_refuses_a_file_as_directory() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("file");
        std::fs::write(&file, b"not a directory").unwrap();
        let err = man(Some(&file)).unwrap_err();
        let (msg, status) = crate::error::report(&err);
        assert!(msg.starts_with("parcrypt: cannot create directory"), "{msg}");
        assert!(msg.contains("hint: "), "{msg}");
        assert_eq!(status, 1);
        assert_eq!(std::fs::read(&file).unwrap(), b"not a directory");
    }
}
