//! Where `parcrypt age`'s keys come from: the recipients of `-r`, `-R` and
//! `-e -i`, identity files (passphrase-encrypted or not), the prompts an
//! identity may need, and `-p`'s typed or generated passphrase.

use std::io::{self, Read};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow};
use parcrypt::age::{self, DecryptOptions, Error, Identity, PluginClient, PluginIdentity, Recipient};
use parcrypt::secret::SecretBytes;
use zeroize::Zeroizing;

use super::{Ctx, explain};
use crate::cli::AgeArgs;
use crate::cmd::files::read_small;
use crate::error::{Hint, fail, warn};
use crate::io::Released;
use crate::tty;

/// The largest recipients file read (as age: 16 MiB).
const MAX_RECIPIENTS_FILE: u64 = 16 << 20;

/// The BIP 39 English word list (2048 words), which age draws its
/// generated passphrases from.
const WORDS: &str = include_str!("bip39-english.txt");

/// Where identities come from: `-i FILE` and `-j PLUGIN`, in the order
/// given (age tries them in that order, after its own key types).
pub(super) enum IdentityFlag {
    File(PathBuf),
    Plugin(String),
}

/// `-i` and `-j` in command-line order. clap keeps each flag's values
/// apart; their positions come from parsing the command line once more.
pub(super) fn identity_flags(args: &AgeArgs) -> Vec<IdentityFlag> {
    use clap::CommandFactory;
    let files = || args.identity.iter().cloned().map(IdentityFlag::File);
    let plugins = || args.plugin.iter().cloned().map(IdentityFlag::Plugin);
    if args.identity.is_empty() || args.plugin.is_empty() {
        return files().chain(plugins()).collect();
    }
    let positions = crate::cli::Cli::command()
        .try_get_matches_from(std::env::args_os())
        .ok()
        .and_then(|m| {
            let age = m.subcommand_matches("age")?;
            let at = |id| age.indices_of(id).map(Iterator::collect::<Vec<usize>>);
            Some((at("identity")?, at("plugin")?))
        })
        .filter(|(i, j)| i.len() == args.identity.len() && j.len() == args.plugin.len());
    let Some((i, j)) = positions else {
        return files().chain(plugins()).collect();
    };
    let mut all: Vec<(usize, IdentityFlag)> = i
        .into_iter()
        .zip(files())
        .chain(j.into_iter().zip(plugins()))
        .collect();
    all.sort_by_key(|(at, _)| *at);
    all.into_iter().map(|(_, flag)| flag).collect()
}

/// `-j NAME`: the plugin's default identity, run with the command's client.
pub(super) fn plugin_identity(name: &str, plugins: &PluginClient) -> Result<Identity> {
    PluginIdentity::default_for(name)
        .map(|i| Identity::Plugin(i.with_client(plugins)))
        .map_err(anyhow::Error::new)
        .with_context(|| format!("initializing {name:?}"))
        .hint("-j takes a plugin name: letters, digits and +-._ (the program is age-plugin-NAME)")
}

/// Everyone `-r`, `-R` and `-e -i`/`-e -j` name, in that order.
pub(super) fn recipients(args: &AgeArgs, ctx: &Ctx<'_>) -> Result<Vec<Recipient>> {
    let stdin = ctx.stdin;
    let mut all = Vec::new();
    for text in &args.recipient {
        let r = Recipient::parse(text).map_err(anyhow::Error::new).hint(
            "a recipient is an age public key (age1…, from `parcrypt age keygen`), a plugin's age1NAME1…, \
             or an SSH public key line",
        )?;
        all.push(r.with_plugin_client(ctx.plugins));
    }
    for path in &args.recipients_file {
        let text = if path == Path::new("-") {
            stdin.claim()?;
            read_capped(io::stdin(), MAX_RECIPIENTS_FILE)
        } else {
            std::fs::File::open(path).and_then(|f| read_capped(f, MAX_RECIPIENTS_FILE))
        };
        let name = path.display();
        let text = text
            .with_context(|| format!("failed to open recipient file {:?}", name.to_string()))
            .hint("check the path given to -R")?;
        let file = age::parse_recipients(&text)
            .map_err(anyhow::Error::new)
            .with_context(|| format!("failed to parse recipient file {:?}", name.to_string()))
            .hint("one recipient per line: age1…, age1pq1…, ssh-ed25519 …, ssh-rsa …; # starts a comment")?;
        for ignored in &file.ignored {
            warn(format_args!(
                "recipients file {:?}: ignoring {ignored}",
                name.to_string()
            ));
        }
        all.extend(
            file.recipients
                .into_iter()
                .map(|r| r.with_plugin_client(ctx.plugins)),
        );
    }
    for flag in identity_flags(args) {
        let (ids, path) = match &flag {
            IdentityFlag::File(path) => (
                identity_file(path, ctx, args.max_work_factor)?,
                path.display().to_string(),
            ),
            IdentityFlag::Plugin(name) => (vec![plugin_identity(name, ctx.plugins)?], format!("-j {name}")),
        };
        for id in ids {
            match id.to_recipient() {
                Some(r) => all.push(r),
                None => {
                    return fail(
                        format!("{path} holds no public key"),
                        "-e -i takes an identity file of age or SSH keys",
                    );
                }
            }
        }
    }
    Ok(all)
}

/// Reads everything `reader` yields, refusing more than `cap` bytes.
fn read_capped(reader: impl Read, cap: u64) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    reader.take(cap + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > cap {
        return Err(io::Error::other(format!(
            "the file is longer than {} MiB",
            cap >> 20
        )));
    }
    Ok(bytes)
}

/// The identities of a `-i` file: age-keygen's format, an OpenSSH private
/// key, or either encrypted with a passphrase by age (asked for on the
/// terminal, as age does).
pub(super) fn identity_file(path: &Path, ctx: &Ctx<'_>, max_work_factor: u8) -> Result<Vec<Identity>> {
    let par = ctx.par;
    if path == Path::new("-") {
        ctx.stdin.claim()?;
    }
    let name = path.display().to_string();
    let bytes = read_small(Some(path), "identity")?;
    let parsed = if age::detect(&bytes).is_some() {
        let passphrase = tty::read_secret(&format!("Enter passphrase for identity file {name:?}:"))
            .context("could not read passphrase")
            .hint("the identity file is encrypted: run parcrypt from a terminal to type its passphrase")?;
        let opts = DecryptOptions {
            max_work_factor,
            ..DecryptOptions::default()
        };
        let plain = match age::decrypt(&[Identity::Passphrase(passphrase)], &bytes[..], &opts, par) {
            Ok(plain) => plain,
            Err(Error::NoMatchingIdentity { stanzas }) if stanzas.iter().any(|s| s == "scrypt") => {
                return fail(
                    format!("reading {name:?}: incorrect passphrase"),
                    "type the passphrase the identity file was encrypted with",
                );
            }
            Err(Error::NoMatchingIdentity { .. }) => {
                return fail(
                    format!(
                        "reading {name:?}: identity file is encrypted with age but not with a passphrase"
                    ),
                    "decrypt it first with the key it was encrypted to",
                );
            }
            Err(e) => {
                return Err(explain(e, Released(0)))
                    .context(format!("failed to decrypt identity file {name:?}"));
            }
        };
        age::parse_identities(plain.expose())
    } else {
        age::parse_identities(&bytes)
    };
    parsed
        .map(|ids| ids.into_iter().map(|i| with_prompts(i, &name, ctx)).collect())
        .map_err(anyhow::Error::new)
        .with_context(|| format!("reading {name:?}"))
        .hint(
            "an identity file holds AGE-SECRET-KEY-… lines (from `parcrypt age keygen`), a plugin's \
             AGE-PLUGIN-… lines, or an OpenSSH private key",
        )
}

/// An identity that may need a person: a plugin's (its questions on the
/// terminal), or a passphrase-protected SSH key of file `name` (its
/// passphrase asked for on the terminal, as age asks, when a stanza names it).
fn with_prompts(id: Identity, name: &str, ctx: &Ctx<'_>) -> Identity {
    match id {
        Identity::EncryptedSsh(key) => {
            let name = name.to_owned();
            Identity::EncryptedSsh(key.with_passphrase(std::sync::Arc::new(move || {
                tty::read_secret(&format!("Enter passphrase for {name:?}:"))
                    .map_err(|e| warn(format_args!("could not read passphrase for {name:?}: {e}")))
                    .ok()
            })))
        }
        other => other.with_plugin_client(ctx.plugins),
    }
}

/// age's prompt for `-p`: a passphrase typed twice, or none for a generated one.
pub(super) fn passphrase_for_encryption() -> Result<SecretBytes> {
    let read = |prompt| {
        tty::read_secret(prompt)
            .context("could not read passphrase")
            .hint("-p reads the passphrase from the terminal; run parcrypt from one")
    };
    let pass = read("Enter passphrase (leave empty to autogenerate a secure one):")?;
    if pass.is_empty() {
        let generated = generated_passphrase()?;
        let shown = String::from_utf8_lossy(generated.expose()).into_owned();
        let shown = Zeroizing::new(shown);
        tty::print(format_args!("using autogenerated passphrase {:?}", &*shown))
            .context("could not print passphrase")?;
        return Ok(generated);
    }
    let confirm = read("Confirm passphrase:")?;
    if confirm.expose() != pass.expose() {
        return fail("passphrases didn't match", "type the same passphrase twice");
    }
    Ok(pass)
}

/// Ten random BIP 39 words joined by `-`, as age generates them (110 bits).
fn generated_passphrase() -> Result<SecretBytes> {
    let words: Vec<&str> = WORDS.lines().collect();
    let mut random = Zeroizing::new([0u8; 20]);
    getrandom::fill(&mut random[..]).map_err(|e| anyhow!("the system's random generator failed: {e}"))?;
    let mut phrase = Zeroizing::new(String::new());
    for (i, pair) in random.chunks_exact(2).enumerate() {
        if i > 0 {
            phrase.push('-');
        }
        phrase.push_str(words[usize::from(u16::from_be_bytes([pair[0], pair[1]])) % words.len()]);
    }
    Ok(SecretBytes::from(phrase.as_bytes()))
}
