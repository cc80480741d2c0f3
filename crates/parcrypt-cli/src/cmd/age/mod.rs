//! `parcrypt age` and `parcrypt age keygen`: the `age` and `age-keygen`
//! command lines (filippo.io/age's cmd/age, v1.3), over `parcrypt::age`.
//!
//! Same flags, same rules on combining them (and age's messages and exit
//! status 1 when they are broken), same files and keys, passphrases on the
//! terminal. Where parcrypt is stricter than age, on purpose:
//! - `-o OUTPUT` is a temporary file beside it until the whole input was
//!   encrypted, or decrypted *and verified* (age leaves the plaintext of the
//!   chunks before a damaged one); nothing is left behind on failure or on
//!   SIGINT/SIGTERM/SIGHUP;
//! - an existing OUTPUT is kept unless `--force` (age replaces it; age-keygen
//!   refuses it, as here);
//! - `-d --range START:LEN` decrypts only those bytes, reading only their
//!   chunks (an extension);
//! - a plugin silent for `--plugin-timeout` seconds (default 120) is killed
//!   and the command fails (age waits forever).
//!
//! Plugins (`age1NAME1…`, `AGE-PLUGIN-NAME-1…`, `-j NAME`) run as
//! `age-plugin-NAME` from `PATH`; their questions are asked on the terminal
//! (`age_plugin.rs`), as age asks them.

mod keys;

use std::cell::Cell;
use std::collections::HashSet;
use std::io::{self, IsTerminal, Seek, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use parcrypt::age::{
    self, DecryptOptions, Decryptor, Encryptor, Error, Header, Identity, Options, PluginClient, Recipient,
};
use parcrypt::par::Parallelism;
use zeroize::Zeroizing;

use crate::cli::{AgeArgs, AgeCommand, InOut};
use crate::error::{Hint, fail, warn};
use crate::io::{Output, Policy, Released, Source, names_stdout, open_input_file, transfer};
use crate::tty;
use keys::{
    IdentityFlag, identity_file, identity_flags, passphrase_for_encryption, plugin_identity, recipients,
};

pub fn run(args: &AgeArgs, par: &Parallelism) -> Result<()> {
    match &args.command {
        Some(AgeCommand::Keygen(keygen_args)) => return super::age_keygen::run(keygen_args),
        Some(AgeCommand::Inspect(inspect_args)) => return super::age_inspect::run(inspect_args),
        None => {}
    }
    check_flags(args)?;
    warn_duplicates(args);
    let input = args.input.first().filter(|p| *p != Path::new("-")).cloned();
    let stdin = StdinUse(Cell::new(input.is_none()));
    let output = Out::new(args.output.as_deref());
    let plugins = super::age_plugin::client(args.plugin_timeout);
    let ctx = Ctx {
        stdin: &stdin,
        par,
        plugins: &plugins,
    };
    if args.decrypt {
        decrypt(args, input, &output, &ctx)
    } else {
        encrypt(args, input, &output, &ctx)
    }
}

/// What every step of one command shares.
struct Ctx<'a> {
    stdin: &'a StdinUse,
    par: &'a Parallelism,
    /// How plugins run: questions on the terminal, `--plugin-timeout`.
    plugins: &'a PluginClient,
}

/// age's rules on which flags go together, with its messages.
fn check_flags(args: &AgeArgs) -> Result<()> {
    if args.input.len() > 1 {
        let quoted: Vec<String> = args
            .input
            .iter()
            .map(|p| format!("{:?}", p.display().to_string()))
            .collect();
        return fail(
            format!("too many INPUT arguments: {}", quoted.join(" ")),
            "only a single input file may be specified at a time",
        );
    }
    if args.decrypt {
        if args.encrypt {
            return fail("-e/--encrypt can't be used with -d/--decrypt", "choose one");
        }
        if args.armor {
            return fail(
                "-a/--armor can't be used with -d/--decrypt",
                "note that armored files are detected automatically, try again without -a/--armor",
            );
        }
        if args.passphrase {
            return fail(
                "-p/--passphrase can't be used with -d/--decrypt",
                "note that password protected files are detected automatically",
            );
        }
        if !args.recipient.is_empty() {
            return fail(
                "-r/--recipient can't be used with -d/--decrypt",
                "did you mean to use -i/--identity to specify a private key?",
            );
        }
        if !args.recipients_file.is_empty() {
            return fail(
                "-R/--recipients-file can't be used with -d/--decrypt",
                "did you mean to use -i/--identity to specify a private key?",
            );
        }
        return Ok(());
    }
    if args.range.is_some() {
        return fail(
            "--range can only be used with -d/--decrypt",
            "it decrypts a part of an age file",
        );
    }
    let identities = !args.identity.is_empty() || !args.plugin.is_empty();
    if identities && !args.encrypt {
        return fail(
            "-i/--identity and -j can't be used in encryption mode unless symmetric encryption is \
             explicitly selected with -e/--encrypt",
            "did you forget to specify -d/--decrypt?",
        );
    }
    if args.recipient.is_empty() && args.recipients_file.is_empty() && !identities && !args.passphrase {
        return fail(
            "missing recipients",
            "did you forget to specify -r/--recipient, -R/--recipients-file or -p/--passphrase?",
        );
    }
    if args.passphrase {
        for (given, flag) in [
            (!args.recipient.is_empty(), "-r/--recipient"),
            (!args.recipients_file.is_empty(), "-R/--recipients-file"),
            (identities, "-i/--identity and -j"),
        ] {
            if given {
                return fail(
                    format!("-p/--passphrase can't be combined with {flag}"),
                    "a passphrase must be a file's only recipient",
                );
            }
        }
    }
    Ok(())
}

/// age 1.3 warns about a recipient or file given twice.
fn warn_duplicates(args: &AgeArgs) {
    fn check(items: impl Iterator<Item = String>, what: &str) {
        let mut seen = HashSet::new();
        let mut warned = HashSet::new();
        for item in items {
            if !seen.insert(item.clone()) && warned.insert(item.clone()) {
                warn(format_args!("duplicate {what} {item:?}"));
            }
        }
    }
    check(args.recipient.iter().cloned(), "recipient");
    let show = |p: &PathBuf| p.display().to_string();
    check(args.recipients_file.iter().map(show), "recipients file");
    check(args.identity.iter().map(show), "identity file");
}

/// Standard input is one stream: the data, a `-R -` file or a `-i -`
/// file, never two of them.
struct StdinUse(Cell<bool>);

impl StdinUse {
    fn claim(&self) -> Result<()> {
        if self.0.replace(true) {
            return fail(
                "standard input is used for multiple purposes",
                "give the input, the recipients file or the identity file as a path",
            );
        }
        Ok(())
    }
}

/// Where the result goes, as age decides it.
struct Out {
    /// The `-o` file; `None` for standard output (also `-o -`, `-o /dev/stdout`).
    path: Option<PathBuf>,
    /// `-o -` (or another name of standard output): binary to a terminal on request.
    forced: bool,
}

impl Out {
    fn new(path: Option<&Path>) -> Out {
        Out {
            path: path.filter(|p| !names_stdout(p)).map(Path::to_path_buf),
            forced: path.is_some_and(names_stdout),
        }
    }

    /// Standard output, a terminal, not forced: age's checks apply.
    fn terminal(&self) -> bool {
        self.path.is_none() && !self.forced && io::stdout().is_terminal()
    }
}

fn encrypt(args: &AgeArgs, input: Option<PathBuf>, out: &Out, ctx: &Ctx<'_>) -> Result<()> {
    let par = ctx.par;
    if out.terminal() && !args.armor {
        return fail(
            "refusing to output binary to the terminal",
            "did you mean to use -a/--armor? Force anyway with \"-o -\"",
        );
    }
    let recipients = if args.passphrase {
        vec![Recipient::passphrase(passphrase_for_encryption()?).map_err(|e| explain(e, Released(0)))?]
    } else {
        recipients(args, ctx)?
    };
    let encryptor = Encryptor::new(&recipients).map_err(|e| explain(e, Released(0)))?;
    let opts = Options { armor: args.armor };
    let io = InOut {
        input,
        output: out.path.clone(),
    };
    transfer(
        &io,
        Policy::refuse_unless(args.force),
        |source, output, tick| match source {
            Source::File(file) => encryptor.encrypt_file(file, output, &opts, par, tick),
            Source::Reader(reader) => encryptor.encrypt_stream(reader, output, &opts, par, tick),
        },
        explain,
    )
}

fn decrypt(args: &AgeArgs, input: Option<PathBuf>, out: &Out, ctx: &Ctx<'_>) -> Result<()> {
    let par = ctx.par;
    // Typed on a terminal: the armored file, up to its END line, before any
    // prompt (age's rule: the passphrase must not be typed into the file).
    let typed = if input.is_none() && io::stdin().is_terminal() {
        Some(read_typed_armor()?)
    } else {
        None
    };
    let mut identities = Vec::new();
    for flag in identity_flags(args) {
        match flag {
            IdentityFlag::File(path) => identities.extend(identity_file(&path, ctx, args.max_work_factor)?),
            IdentityFlag::Plugin(name) => identities.push(plugin_identity(&name, ctx.plugins)?),
        }
    }
    let opts = DecryptOptions {
        max_work_factor: args.max_work_factor,
        ..DecryptOptions::default()
    };
    if let Some((start, len)) = args.range {
        return decrypt_range(args, input.as_deref(), out, identities, &opts, start, len, par);
    }
    let io = InOut {
        input,
        output: out.path.clone(),
    };
    transfer(
        &io,
        Policy::refuse_unless(args.force),
        |source, output, tick| -> Result<u64> {
            // A regular file is read with its payload's end checked first
            // (`Decryptor::from_file`): a truncated or extended file then
            // writes nothing.
            let decryptor = match (typed, source) {
                (Some(text), _) => Decryptor::new(io::Cursor::new(text), &opts),
                (None, Source::File(file)) => Decryptor::from_file(file, &opts),
                (None, Source::Reader(reader)) => Decryptor::new(reader, &opts),
            }
            .map_err(|e| explain(e, Released(0)))?;
            let (identities, asked) = choose_identities(decryptor.header(), identities)?;
            let passphrase = decryptor.header().is_passphrase();
            let explain = |e, released| match e {
                Error::NoMatchingIdentity { .. } if passphrase && asked => incorrect_passphrase(),
                Error::NoMatchingIdentity { .. } if passphrase => passphrase_file_with_identities(),
                e => explain(e, released),
            };
            if !out.terminal() {
                let decrypted = decryptor.decrypt_stream(&identities, &mut *output, par, tick);
                return decrypted.map_err(|e| explain(e, output.released()));
            }
            // To a terminal: all of it, checked to be text first (age 1.3).
            let mut plain = Zeroizing::new(Vec::new());
            let n = decryptor
                .decrypt_stream(&identities, &mut *plain, par, tick)
                .map_err(|e| explain(e, Released(0)))?;
            let text = String::from_utf8_lossy(&plain);
            if text
                .chars()
                .any(|c| c.is_control() && !matches!(c, '\n' | '\r' | '\t'))
            {
                return fail(
                    "refusing to output binary to the terminal",
                    "force anyway with \"-o -\", or give -o OUTPUT",
                );
            }
            output.write_all(&plain)?;
            Ok(n)
        },
        |e, _| e,
    )
}

/// The identities to open a file with, and whether they are a passphrase
/// asked for: those given, or the passphrase asked for if the file is
/// encrypted to one and none was given (age's rules). Given identities and
/// a passphrase file: only a plugin may open it (`-j batchpass`); without
/// one, refused before any work.
fn choose_identities(header: &Header, given: Vec<Identity>) -> Result<(Vec<Identity>, bool)> {
    match (header.is_passphrase(), given.is_empty()) {
        (true, true) => {
            let pass = tty::read_secret("Enter passphrase:")
                .context("could not read passphrase")
                .hint("the file is encrypted with a passphrase: run parcrypt from a terminal to type it")?;
            Ok((vec![Identity::Passphrase(pass)], true))
        }
        (true, false) if given.iter().any(|i| matches!(i, Identity::Plugin(_))) => Ok((given, false)),
        (true, false) => Err(passphrase_file_with_identities()),
        (false, true) => fail(
            "the file is not passphrase-encrypted, identities are required",
            "specify identities with -i/--identity or -j to decrypt this file",
        ),
        (false, false) => Ok((given, false)),
    }
}

/// age's refusal of identities for a passphrase file.
fn passphrase_file_with_identities() -> anyhow::Error {
    fail::<()>(
        "file is passphrase-encrypted but identities were specified with -i/--identity or -j",
        "remove all -i/--identity/-j flags to decrypt passphrase-encrypted files",
    )
    .expect_err("an error")
}

/// `-d --range`: the header from the start of the INPUT file, then only the
/// chunks holding the range (and the last chunk, which proves the length).
#[allow(clippy::too_many_arguments)]
fn decrypt_range(
    args: &AgeArgs,
    input: Option<&Path>,
    out: &Out,
    identities: Vec<Identity>,
    opts: &DecryptOptions,
    start: u64,
    len: u64,
    par: &Parallelism,
) -> Result<()> {
    let Some(mut file) = open_input_file(input)? else {
        return fail(
            "--range needs a seekable INPUT file",
            "give the age file as INPUT, not on standard input",
        )
        .usage();
    };
    let header = Decryptor::new(&file, opts)
        .map_err(|e| explain(e, Released(0)))?
        .header()
        .clone();
    file.rewind().context("cannot read the input")?;
    let (identities, asked) = choose_identities(&header, identities)?;
    let mut output = Output::create(out.path.as_deref(), Policy::refuse_unless(args.force))?;
    let range = age::decrypt_range(&identities, &file, start, len, &mut output, opts, par);
    range.map_err(|e| match e {
        Error::NoMatchingIdentity { .. } if header.is_passphrase() && asked => incorrect_passphrase(),
        Error::NoMatchingIdentity { .. } if header.is_passphrase() => passphrase_file_with_identities(),
        e => explain(e, output.released()),
    })?;
    output.commit()
}

/// An armored file typed (or pasted) on the terminal: up to its END line or
/// end of input.
fn read_typed_armor() -> Result<Vec<u8>> {
    let end = format!("{}\n", age::ARMOR_END);
    let mut text = Vec::new();
    let mut stdin = io::stdin().lock();
    let mut line = Vec::new();
    loop {
        line.clear();
        let n = io::BufRead::read_until(&mut stdin, b'\n', &mut line)
            .context("failed to buffer terminal input")?;
        text.extend_from_slice(&line);
        if n == 0 || text.ends_with(end.as_bytes()) {
            return Ok(text);
        }
    }
}

/// A wrong passphrase opens nothing: age says so rather than "no identity matched".
fn incorrect_passphrase() -> anyhow::Error {
    fail::<()>(
        "incorrect passphrase",
        "type the passphrase the file was encrypted with",
    )
    .expect_err("an error")
}

/// The command's error for a library error, with a hint; `released` is
/// what the output had let out (age releases the chunks that verified
/// before a damaged one; from a regular file the last chunk is checked
/// first, so a truncated or extended file lets out nothing).
fn explain(e: Error, released: Released) -> anyhow::Error {
    let hint = match &e {
        Error::WrongFormat => {
            "is this an age file? (`parcrypt encrypt` files are read by `parcrypt decrypt`)".to_owned()
        }
        Error::MalformedHeader(_) => "the file is damaged, or was not written by age".to_owned(),
        Error::Armor(_) => {
            "the armor was changed (age's is strict: 64-column lines, nothing but whitespace around it)"
                .to_owned()
        }
        Error::NoMatchingIdentity { .. } => {
            "check the -i identity files: the file was encrypted to other keys".to_owned()
        }
        Error::HeaderAuthentication => "the header was modified; nothing was decrypted".to_owned(),
        Error::WorkFactor { log2_n, .. } => format!(
            "the file's writer chose this cost; if you trust the file, allow it with --max-work-factor {log2_n}"
        ),
        Error::Truncated { .. } => {
            format!("the file was cut short (an interrupted copy or download?); {released}")
        }
        Error::ChunkAuthentication { .. } | Error::EmptyLastChunk { .. } | Error::TrailingData { .. } => {
            format!("the file was modified or damaged; {released}")
        }
        Error::Range { .. } => "the range must lie inside the plaintext".to_owned(),
        Error::Options(_) => "see `parcrypt age --help`".to_owned(),
        Error::Key(_) => "check the recipients and identity files".to_owned(),
        Error::PluginNotFound { name } => format!(
            "you might want to install the {name:?} plugin (a program age-plugin-{name} on PATH); \
             visit https://age-encryption.org/awesome#plugins for a list of available plugins"
        ),
        Error::Plugin { .. } => {
            "the plugin's words are above; `AGEDEBUG=plugin` shows its standard error as it runs".to_owned()
        }
        _ => "see the message above".to_owned(),
    };
    let err: Result<()> = Err(anyhow::Error::new(e)).hint(hint);
    err.expect_err("an error")
}
