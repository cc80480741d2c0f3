//! The key commands of every signature family (`rsa`, `ecdsa`, `ml-dsa`,
//! `slh-dsa`),
//! written once over the library's [`parcrypt::keys`] traits: `keygen`,
//! `convert`, `pubkey`, `sign`, `verify`, `sign-batch`, `verify-batch`
//! ([`run`]). A family's own module only maps its arguments to its options
//! ([`Family`]).

use std::fmt::Write as _;
use std::fs::File;
use std::io::{self, BufRead, BufReader, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use parcrypt::keys::{BATCH_GRAIN, BatchItem, ErrorKind, KeyError, MessageHasher, SigningKey, VerifyingKey};
use parcrypt::par::Parallelism;
use parcrypt::pkcs8;
use parcrypt::secret::SecretBytes;

use super::files::{key_output, read_small, write_output};
use super::keypass;
use crate::cli::{FamilyArgs, InOut, KeyCommand, KeyEncryption, KeyInOut, PassIn, SigContext};
use crate::error::{Hint, eprint_line};
use crate::io::{Input, Output, println};

/// List entries handled together: enough to keep every thread busy, few
/// enough that memory stays bounded whatever the list's length.
const BATCH_ENTRIES: usize = 4096;

/// List entries handled together when the family's prehash is the message
/// itself ([`VerifyingKey::message_limit`]): a batch then holds its messages
/// whole, at most this many times the limit.
const WHOLE_MESSAGE_ENTRIES: usize = 16;

/// The largest signature file read (an RSA-16384 signature is 2 KiB, an
/// SLH-DSA one up to 50 KiB).
const MAX_SIGNATURE: u64 = 1 << 20;

/// The buffer a message is hashed through, when it is not a small file.
const READ_BUFFER: usize = 256 << 10;

/// A family's public key.
pub type Public<F> = <<F as Family>::Private as SigningKey>::Public;
/// A family's signature options.
pub type Options<F> = <<F as Family>::Private as SigningKey>::Options;
/// A family's error.
pub type Error<F> = <<F as Family>::Private as SigningKey>::Error;

/// What a signature family adds to the shared commands: its key type, what
/// messages say about it, and how its arguments become the library's
/// options.
pub trait Family: FamilyArgs {
    /// The family's private key.
    type Private: SigningKey;
    /// What messages say about the family.
    const NAMES: Names;

    /// `keygen`'s new key.
    fn generate(key: &Self::Keygen, par: &Parallelism) -> Result<Self::Private>;

    /// Whether `--format` asks for the family's traditional encoding
    /// (PKCS#1, SEC1) rather than PKCS#8.
    fn traditional(_format: &Self::PrivateFormat) -> bool {
        false
    }

    /// The public key as `pubkey` writes it: SPKI unless the family has
    /// other encodings.
    fn encode_public(
        _format: &Self::PublicFormat,
        public: &Public<Self>,
        der: bool,
    ) -> Result<Vec<u8>, Error<Self>> {
        spki(public, der)
    }

    /// `sign`'s and `sign-batch`'s options.
    fn sign_options(options: &Self::Sign) -> Result<Options<Self>>;

    /// `verify`'s options and the threads it runs on.
    fn verify_options(options: &Self::Verify, par: &Parallelism) -> Result<(Options<Self>, Parallelism)>;

    /// What to check when the signature at `sig` does not verify.
    fn verify_hint(options: &Self::Verify, sig: &Path) -> String;

    /// `verify-batch`'s options, and what its signatures should be ("DER",
    /// "ML-DSA-65") for the message about one that is not.
    fn verify_batch_options(
        options: &Self::VerifyBatch,
        key: &Public<Self>,
    ) -> Result<(Options<Self>, String)>;
}

/// Runs one of the family's key commands.
pub fn run<F: Family>(cmd: &KeyCommand<F>, par: &Parallelism) -> Result<()> {
    let names = &F::NAMES;
    match cmd {
        KeyCommand::Keygen {
            key,
            format,
            der,
            encryption,
            output,
            force,
        } => keygen(
            names,
            key_format::<F>(format, *der),
            encryption,
            output.as_deref(),
            *force,
            || F::generate(key, par),
        ),
        KeyCommand::Convert {
            format,
            der,
            passin,
            encryption,
            io,
        } => convert::<F::Private>(names, key_format::<F>(format, *der), passin, encryption, io, par),
        KeyCommand::Pubkey {
            format,
            der,
            passin,
            io,
        } => pubkey::<F::Private>(names, passin, io, par, |public| {
            F::encode_public(format, public, *der)
        }),
        KeyCommand::Sign {
            key,
            passin,
            options,
            io,
        } => sign::<F::Private>(names, key, passin, &F::sign_options(options)?, io, par),
        KeyCommand::Verify {
            public,
            sig,
            options,
            input,
        } => {
            let (library_options, verify_par) = F::verify_options(options, par)?;
            // A private key given as --pub is read on --threads, whatever
            // the verification itself runs on.
            let key: Public<F> = load_public(names, public, par)?;
            verify(
                names,
                &key,
                sig,
                &library_options,
                input.as_deref(),
                &F::verify_hint(options, sig),
                &verify_par,
            )
        }
        KeyCommand::SignBatch {
            key,
            passin,
            options,
            list,
        } => {
            let options = F::sign_options(options)?;
            let key: F::Private = load_private(names, Some(key), passin, par)?;
            sign_batch(&key, &list.list, &options, par)
        }
        KeyCommand::VerifyBatch {
            public,
            options,
            list,
        } => {
            let key: Public<F> = load_public(names, public, par)?;
            let (options, signature_name) = F::verify_batch_options(options, &key)?;
            verify_batch(&key, &list.list, &options, &signature_name, par)
        }
    }
}

fn key_format<F: Family>(format: &F::PrivateFormat, der: bool) -> KeyFormat {
    KeyFormat {
        traditional: F::traditional(format),
        der,
    }
}

/// The context string of `--context TEXT` / `--context-file F` (empty
/// without either), at most 255 bytes as `standard` (FIPS 204, FIPS 205)
/// says; a longer one is the family's error `too_long`.
pub fn context<E>(context: &SigContext, standard: &str, too_long: impl FnOnce(usize) -> E) -> Result<Vec<u8>>
where
    E: std::error::Error + Send + Sync + 'static,
{
    const MAX_CONTEXT: usize = 255;
    let bytes = match (&context.context, &context.context_file) {
        (Some(text), _) => text.as_bytes().to_vec(),
        (None, Some(path)) => read_small(Some(path), "context")?.to_vec(),
        (None, None) => Vec::new(),
    };
    if bytes.len() > MAX_CONTEXT {
        return Err(anyhow!(too_long(bytes.len())))
            .hint(format!("{standard} contexts are 0 to {MAX_CONTEXT} bytes"))
            .usage();
    }
    Ok(bytes)
}

/// What messages say about a family.
pub struct Names {
    /// The subcommand: `rsa`, `ecdsa`, `ml-dsa`.
    pub command: &'static str,
    /// "an RSA key", "a P-256 key".
    pub a_key: &'static str,
    /// How to make one: "parcrypt rsa keygen, openssl genpkey -algorithm RSA".
    pub keygen: &'static str,
    /// The encodings read: "PKCS#8, PKCS#1 or SPKI".
    pub encodings: &'static str,
    /// The `--format` value of the traditional encoding (`pkcs1`, `sec1`), if any.
    pub traditional_flag: Option<&'static str>,
    /// What to do with a message over the family's
    /// [`message_limit`](VerifyingKey::message_limit) (families without one: unused).
    pub long_message_hint: &'static str,
}

/// How a private key is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct KeyFormat {
    /// The family's traditional encoding (PKCS#1, SEC1) rather than PKCS#8.
    pub traditional: bool,
    /// DER rather than PEM.
    pub der: bool,
}

/// `keygen`: a new key from `generate`, written as `format` says
/// (encrypted if `encryption` asks). The output is opened first, so that
/// an existing key is refused before a slow generation.
fn keygen<K: SigningKey>(
    names: &Names,
    format: KeyFormat,
    encryption: &KeyEncryption,
    output: Option<&Path>,
    force: bool,
    generate: impl FnOnce() -> Result<K>,
) -> Result<()> {
    check_encrypted_format(names, format, encryption)?;
    let mut out = key_output(output, force)?;
    let key = generate()?;
    // The temporary file behind -o is created with mode 0600 and keeps it.
    out.write_all(encode_private(&key, format, encryption)?.expose())?;
    out.commit()
}

/// `convert`: rewrites a private key.
fn convert<K: SigningKey>(
    names: &Names,
    format: KeyFormat,
    passin: &PassIn,
    encryption: &KeyEncryption,
    io: &KeyInOut,
    par: &Parallelism,
) -> Result<()> {
    check_encrypted_format(names, format, encryption)?;
    keypass::check_passout_stdin(io.input.as_deref(), encryption)?;
    let mut out = key_output(io.output.as_deref(), io.force)?;
    let key: K = load_private(names, io.input.as_deref(), passin, par)?;
    out.write_all(encode_private(&key, format, encryption)?.expose())?;
    out.commit()
}

/// `pubkey`: the public key of a private key (or of a public key), as
/// `encode` writes it; a private key is read (and, for SLH-DSA, its root
/// rebuilt) on `par`.
fn pubkey<K: SigningKey>(
    names: &Names,
    passin: &PassIn,
    io: &InOut,
    par: &Parallelism,
    encode: impl FnOnce(&K::Public) -> Result<Vec<u8>, K::Error>,
) -> Result<()> {
    keypass::check_stdin(io.input.as_deref(), passin)?;
    let bytes = read_small(io.input.as_deref(), "key")?;
    let (owned, private);
    let public = if pkcs8::is_encrypted(&bytes) {
        let name = keypass::key_name(io.input.as_deref());
        let password = keypass::password_for(passin, &bytes, &name)?;
        private = open_private::<K>(names, &bytes, password.as_ref(), passin, &name, par)?;
        private.public_key()
    } else {
        owned = K::Public::from_bytes(&bytes, par).map_err(|e| key_error(names, e))?;
        &owned
    };
    write_output(io.output.as_deref(), &encode(public)?)
}

/// The public key as SPKI, PEM unless `der`.
pub fn spki<P: VerifyingKey>(public: &P, der: bool) -> Result<Vec<u8>, P::Error> {
    if der {
        public.to_spki_der()
    } else {
        public.to_spki_pem().map(String::into_bytes)
    }
}

/// `sign`: the message read once through the family's hasher, then signed.
fn sign<K: SigningKey>(
    names: &Names,
    key: &Path,
    passin: &PassIn,
    options: &K::Options,
    io: &InOut,
    par: &Parallelism,
) -> Result<()> {
    let key: K = load_private(names, Some(key), passin, par)?;
    let prehash = prehash_input(names, key.public_key(), options, io.input.as_deref())?;
    let signature = key.sign_prehashed(&prehash, options, par)?;
    write_output(io.output.as_deref(), &signature)
}

/// `verify`: prints `Verified OK` (exit 0), or fails with `hint` (exit 1).
fn verify<P: VerifyingKey>(
    names: &Names,
    key: &P,
    sig: &Path,
    options: &P::Options,
    input: Option<&Path>,
    hint: &str,
    par: &Parallelism,
) -> Result<()> {
    let signature = read_small(Some(sig), "signature")?;
    let prehash = prehash_input(names, key, options, input)?;
    key.verify_prehashed(&prehash, &signature, options, par)
        .map_err(|e| anyhow!(e))
        .hint(hint)?;
    println("Verified OK")
}

/// The prehash of the message at `path` (stdin for `None` or `-`), read once.
fn prehash_input<P: VerifyingKey>(
    names: &Names,
    key: &P,
    options: &P::Options,
    path: Option<&Path>,
) -> Result<Vec<u8>> {
    let hasher = key.hasher(options)?;
    let limit = key.message_limit(options);
    match hash_reader(hasher, Input::open(path)?, limit, READ_BUFFER) {
        Err(e) if e.kind() == io::ErrorKind::FileTooLarge => Err(anyhow!(e))
            .context("cannot read the message")
            .hint(names.long_message_hint)
            .usage(),
        other => other.context("cannot read the message"),
    }
}

/// The hasher's prehash of everything `reader` gives, read through a
/// buffer of `buffer` bytes; a message over `limit` bytes is refused
/// ([`io::ErrorKind::FileTooLarge`]) before the hasher holds more than the
/// limit.
fn hash_reader<H: MessageHasher>(
    mut hasher: H,
    mut reader: impl Read,
    limit: Option<u64>,
    buffer: usize,
) -> io::Result<Vec<u8>> {
    let mut buf = vec![0u8; buffer.max(1)];
    let mut total = 0u64;
    loop {
        let n = match reader.read(&mut buf) {
            Ok(0) => return Ok(hasher.finish()),
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        total += n as u64;
        if let Some(limit) = limit.filter(|&limit| total > limit) {
            return Err(io::Error::new(
                io::ErrorKind::FileTooLarge,
                format!("the message is over {limit} bytes, the most signed whole (without a prehash)"),
            ));
        }
        hasher.update(&buf[..n]);
    }
}

/// An encrypted key is PKCS#8 (`ENCRYPTED PRIVATE KEY`), as openssl writes it.
fn check_encrypted_format(names: &Names, format: KeyFormat, encryption: &KeyEncryption) -> Result<()> {
    if encryption.wanted() && format.traditional {
        let flag = names.traditional_flag.unwrap_or("");
        return Err(anyhow!("an encrypted private key is written as PKCS#8 only"))
            .hint(format!(
                "drop --format {flag}, or drop --passout/--cipher for an unencrypted {} key",
                flag.to_uppercase()
            ))
            .usage();
    }
    Ok(())
}

/// The key as `format` says, encrypted if `encryption` asks.
fn encode_private<K: SigningKey>(
    key: &K,
    format: KeyFormat,
    encryption: &KeyEncryption,
) -> Result<SecretBytes> {
    if let Some((password, options)) = keypass::passout(encryption)? {
        let encoded = if format.der {
            key.to_pkcs8_encrypted_der(password.expose(), &options)?
        } else {
            key.to_pkcs8_encrypted_pem(password.expose(), &options)?
                .into_bytes()
        };
        return Ok(SecretBytes::new(encoded));
    }
    Ok(match (format.traditional, format.der) {
        (false, false) => SecretBytes::from(key.to_pkcs8_pem()?.expose_bytes()),
        (false, true) => key.to_pkcs8_der()?,
        (true, false) => SecretBytes::from(key.to_traditional_pem()?.expose_bytes()),
        (true, true) => key.to_traditional_der()?,
    })
}

/// The family's error with a hint for each kind of key problem.
fn key_error<E: KeyError>(names: &Names, e: E) -> anyhow::Error {
    let hint = match e.kind() {
        ErrorKind::EncryptedKey => {
            "give its password with --passin env:VAR, file:PATH, fd:N or stdin (as openssl's -passin)"
                .to_owned()
        }
        ErrorKind::BadPassword => "check the password given with --passin".to_owned(),
        ErrorKind::WrongKeyType => format!("this command needs {} ({})", names.a_key, names.keygen),
        ErrorKind::MalformedKey => format!(
            "expected a PEM or DER {} ({}), as written by `parcrypt {} keygen` or openssl",
            names.a_key, names.encodings, names.command
        ),
        _ => "check the key file".to_owned(),
    };
    let err: Result<()> = Err(anyhow!(e)).hint(hint);
    err.expect_err("an error")
}

/// The private key at `path` (stdin for `None` or `-`), decrypted with
/// `--passin` (or a password asked on the terminal) if it is encrypted,
/// read on the command's `--threads` (an SLH-DSA key's root is rebuilt).
pub fn load_private<K: SigningKey>(
    names: &Names,
    path: Option<&Path>,
    passin: &PassIn,
    par: &Parallelism,
) -> Result<K> {
    let (bytes, password, name) = keypass::read_private(path, passin)?;
    open_private(names, &bytes, password.as_ref(), passin, &name, par)
}

/// The private key in `bytes`, decrypted with `password` if it is
/// encrypted, within the KDF limits `passin` chooses.
fn open_private<K: SigningKey>(
    names: &Names,
    bytes: &[u8],
    password: Option<&SecretBytes>,
    passin: &PassIn,
    name: &str,
    par: &Parallelism,
) -> Result<K> {
    match password {
        Some(password) => {
            K::from_bytes_with_password_and_limits(bytes, password.expose(), &passin.kdf_limits(), par)
        }
        None => K::from_bytes(bytes, par),
    }
    .map_err(|e| match e.kind() {
        ErrorKind::TooCostly => keypass::too_costly(e, passin),
        _ => key_error(names, e),
    })
    .with_context(|| format!("cannot use {name} as a private key"))
}

/// The public key at `path` (a private key's public half works too, the
/// private key read on `par`).
pub fn load_public<P: VerifyingKey>(names: &Names, path: &Path, par: &Parallelism) -> Result<P> {
    let bytes = read_small(Some(path), "key")?;
    P::from_bytes(&bytes, par)
        .map_err(|e| match e.kind() {
            // No --passin here: the public half is what is wanted.
            ErrorKind::EncryptedKey => {
                let err: Result<()> = Err(anyhow!(e)).hint(format!(
                    "give its public key, written by `parcrypt {} pubkey --passin SOURCE -i KEY -o PUB`",
                    names.command
                ));
                err.expect_err("an error")
            }
            _ => key_error(names, e),
        })
        .with_context(|| format!("cannot use {} as a public key", path.display()))
}

/// A list of `--list` entries, read in bounded batches: `fields` is how
/// many whitespace-separated file names a line holds.
struct List {
    name: PathBuf,
    lines: std::iter::Enumerate<io::Lines<Box<dyn BufRead>>>,
    syntax: &'static str,
}

impl List {
    fn open(list: &Path, syntax: &'static str) -> Result<List> {
        let reader: Box<dyn BufRead> = if list == Path::new("-") {
            Box::new(BufReader::new(io::stdin()))
        } else {
            Box::new(BufReader::new(
                File::open(list)
                    .with_context(|| format!("cannot open list {}", list.display()))
                    .hint(format!("--list names a file of `{syntax}` lines"))?,
            ))
        };
        Ok(List {
            name: list.to_path_buf(),
            lines: reader.lines().enumerate(),
            syntax,
        })
    }

    /// The next at most `max` entries: (line number, fields); blank lines
    /// and `#` comments skipped. Empty at the end.
    fn next_batch(&mut self, max: usize) -> Result<Vec<(usize, Vec<String>)>> {
        let mut batch = Vec::new();
        for (i, line) in self.lines.by_ref() {
            let line = line
                .with_context(|| format!("cannot read list {}", self.name.display()))
                .hint(format!("the list must be text: lines of `{}`", self.syntax))?;
            let trimmed = line.trim();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            batch.push((i + 1, trimmed.split_whitespace().map(str::to_owned).collect()));
            if batch.len() == max {
                break;
            }
        }
        Ok(batch)
    }
}

/// Entries per batch: fewer when each is held whole.
fn batch_entries(message_limit: Option<u64>) -> usize {
    if message_limit.is_some() {
        WHOLE_MESSAGE_ENTRIES
    } else {
        BATCH_ENTRIES
    }
}

/// One `verify-batch` entry, read and hashed, or why it could not be.
struct Entry {
    label: String,
    item: Result<(Vec<u8>, Vec<u8>, String), String>,
}

fn read_entry<P: VerifyingKey>(key: &P, options: &P::Options, line_no: usize, fields: &[String]) -> Entry {
    let label = fields.join(" ");
    let item = match fields {
        [msg, sig] => prehash_file(key, options, msg).and_then(|prehash| {
            let signature = File::open(sig)
                .and_then(|f| read_limited(f, MAX_SIGNATURE))
                .map_err(|e| format!("cannot read signature {sig}: {e}"))?;
            Ok((prehash, signature, sig.clone()))
        }),
        _ => Err(format!("line {line_no}: expected `MSGFILE SIGFILE`")),
    };
    Entry { label, item }
}

/// The prehash of a list entry's message file, or why it could not be read.
fn prehash_file<P: VerifyingKey>(key: &P, options: &P::Options, msg: &str) -> Result<Vec<u8>, String> {
    let hasher = key.hasher(options).map_err(|e| e.to_string())?;
    let limit = key.message_limit(options);
    File::open(msg)
        .and_then(|f| {
            let buffer = small_file_len(&f, READ_BUFFER).map_or(READ_BUFFER, |len| len + 1);
            hash_reader(hasher, f, limit, buffer)
        })
        .map_err(|e| format!("cannot read message {msg}: {e}"))
}

/// The length of `file` if it is a regular file shorter than `max`: a
/// buffer (or a `Vec`) of that length and one byte reads it in one call and
/// sees its end in the next, where a list of 10,000 small files would
/// otherwise zero a [`READ_BUFFER`] for each (or grow a `Vec` read by read).
fn small_file_len(file: &File, max: usize) -> Option<usize> {
    let meta = file.metadata().ok()?;
    let len = usize::try_from(meta.len()).ok()?;
    (meta.is_file() && len < max).then_some(len)
}

/// At most `max` bytes of `file` (the rest is not read).
fn read_limited(file: File, max: u64) -> io::Result<Vec<u8>> {
    let max_len = usize::try_from(max).unwrap_or(usize::MAX);
    let mut bytes = Vec::with_capacity(small_file_len(&file, max_len).map_or(0, |len| len + 1));
    file.take(max).read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// `read` of each list entry of `batch`, across the threads of `par` (in
/// list order): opening, reading and hashing many small files costs about
/// as much as verifying their signatures, so it is spread over the same
/// threads rather than done by one before them.
fn read_batch<T, F>(batch: &[(usize, Vec<String>)], par: &Parallelism, read: F) -> Vec<T>
where
    T: Send,
    F: Fn(usize, &[String]) -> T + Sync,
{
    par.map_items(batch, &BATCH_GRAIN, |(line_no, fields)| read(*line_no, fields))
}

/// One list entry's outcome: its label (the list line's fields), whether
/// it succeeded, and what to say on stderr about it, if anything.
struct Outcome {
    label: String,
    ok: bool,
    why: Option<String>,
}

/// The progress line of `sign-batch`/`verify-batch` on stderr (STYLE.md
/// §12): entries done and the rate, while stderr is a terminal; nothing
/// when it is not (piped, redirected to a file).
struct Progress(Option<ProgressBar>);

impl Progress {
    /// `done` says what was done to an entry ("verified", "signed").
    fn new(done: &str) -> Progress {
        if !io::stderr().is_terminal() {
            return Progress(None);
        }
        let template =
            format!("{{spinner}} [{{elapsed_precise}}] {{human_pos}} entries {done} ({{per_sec}})");
        let style =
            ProgressStyle::with_template(&template).unwrap_or_else(|_| ProgressStyle::default_spinner());
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr()).with_style(style);
        // Shown at once, and alive while a batch of slow signatures runs.
        bar.enable_steady_tick(std::time::Duration::from_millis(200));
        Progress(Some(bar))
    }

    /// Prints a batch's outcomes in list order (`NAME: OK`/`FAIL` on
    /// `out`, a `parcrypt:` line on stderr for each that says why), with
    /// the progress line lifted meanwhile; returns how many failed.
    fn report(&self, out: &mut Output, outcomes: &[Outcome]) -> Result<usize> {
        // The batch's lines leave in one write (standard output writes a
        // line at a time otherwise): those before a line on stderr go
        // first, so that a terminal showing both shows them in list order.
        let print = |out: &mut Output| -> Result<usize> {
            let mut lines = String::new();
            for outcome in outcomes {
                if let Some(why) = &outcome.why {
                    out.write_all(lines.as_bytes())?;
                    out.flush()?;
                    lines.clear();
                    eprint_line(format_args!("parcrypt: {why}"));
                }
                let verdict = if outcome.ok { "OK" } else { "FAIL" };
                let _ = writeln!(lines, "{}: {verdict}", outcome.label);
            }
            out.write_all(lines.as_bytes())?;
            out.flush()?;
            Ok(outcomes.iter().filter(|o| !o.ok).count())
        };
        match &self.0 {
            Some(bar) => {
                let failed = bar.suspend(|| print(out))?;
                bar.inc(outcomes.len() as u64);
                Ok(failed)
            }
            None => print(out),
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        if let Some(bar) = &self.0 {
            bar.finish_and_clear();
        }
    }
}

/// `verify-batch`: each batch's signatures verified across the threads,
/// results printed in list order (`NAME: OK`/`FAIL`); exit 1 if any fails.
/// `signature_name` says what a signature should be ("DER").
fn verify_batch<P: VerifyingKey>(
    key: &P,
    list: &Path,
    options: &P::Options,
    signature_name: &str,
    par: &Parallelism,
) -> Result<()> {
    let mut list = List::open(list, "MSGFILE SIGFILE")?;
    let max = batch_entries(key.message_limit(options));
    let mut out = Output::stdout();
    let progress = Progress::new("verified");
    let (mut total, mut failed) = (0usize, 0usize);
    loop {
        let batch = list.next_batch(max)?;
        if batch.is_empty() {
            break;
        }
        let entries = read_batch(&batch, par, |line, fields| read_entry(key, options, line, fields));
        let items: Vec<BatchItem<'_, P>> = entries
            .iter()
            .filter_map(|e| e.item.as_ref().ok())
            .map(|(prehash, signature, _)| BatchItem {
                key,
                message: prehash,
                signature,
            })
            .collect();
        let mut results = P::verify_prehashed_batch(&items, options, par).into_iter();
        let outcomes: Vec<Outcome> = entries
            .into_iter()
            .map(|entry| {
                let (ok, why) = match entry.item {
                    Ok((_, _, sig)) => match results.next() {
                        Some(Ok(())) => (true, None),
                        Some(Err(e)) if e.kind() == ErrorKind::MalformedSignature => {
                            (false, Some(format!("{sig} is not a {signature_name} signature")))
                        }
                        Some(Err(_)) | None => (false, None),
                    },
                    Err(why) => (false, Some(why)),
                };
                Outcome {
                    label: entry.label,
                    ok,
                    why,
                }
            })
            .collect();
        total += outcomes.len();
        failed += progress.report(&mut out, &outcomes)?;
    }
    drop(progress);
    batch_verdict(&list, total, failed, "signatures did not verify")
}

/// `sign-batch`: each line `MSGFILE SIGFILE` signs MSGFILE into SIGFILE
/// (written atomically), batches across the threads; one `NAME: OK` or
/// `FAIL` line per entry, exit 1 if any fails.
fn sign_batch<K: SigningKey>(key: &K, list: &Path, options: &K::Options, par: &Parallelism) -> Result<()> {
    let mut list = List::open(list, "MSGFILE SIGFILE")?;
    let max = batch_entries(key.public_key().message_limit(options));
    let mut out = Output::stdout();
    let progress = Progress::new("signed");
    let (mut total, mut failed) = (0usize, 0usize);
    loop {
        let batch = list.next_batch(max)?;
        if batch.is_empty() {
            break;
        }
        let prehashes: Vec<Result<Vec<u8>, String>> =
            read_batch(&batch, par, |line_no, fields| match fields {
                [msg, _] => prehash_file(key.public_key(), options, msg),
                _ => Err(format!("line {line_no}: expected `MSGFILE SIGFILE`")),
            });
        let readable: Vec<&[u8]> = prehashes
            .iter()
            .filter_map(|p| p.as_ref().ok())
            .map(Vec::as_slice)
            .collect();
        let mut signatures = key.sign_prehashed_batch(&readable, options, par).into_iter();
        // Each entry's fields and its signature, or why there is none.
        let signed: Vec<_> = batch
            .iter()
            .zip(prehashes)
            .map(|((_, fields), prehash)| {
                let signature = prehash.and_then(|_| match signatures.next() {
                    Some(Ok(signature)) => Ok(signature),
                    Some(Err(e)) => Err(e.to_string()),
                    None => Err("internal error: no signature".to_owned()),
                });
                (fields.as_slice(), signature)
            })
            .collect();
        // Written across the threads too: each file is synced before it
        // takes its name, a wait better spent on more than one at a time.
        let outcomes: Vec<Outcome> = par.map_items(&signed, &BATCH_GRAIN, |(fields, signature)| {
            let done = match (*fields, signature) {
                ([_, sig], Ok(signature)) => write_output(Some(Path::new(sig)), signature)
                    .map_err(|e| format!("cannot write signature {sig}: {e:#}")),
                (_, Err(why)) => Err(why.clone()),
                (_, Ok(_)) => Err("internal error: a signature without its file".to_owned()),
            };
            Outcome {
                label: fields.join(" "),
                ok: done.is_ok(),
                why: done.err(),
            }
        });
        total += outcomes.len();
        failed += progress.report(&mut out, &outcomes)?;
    }
    drop(progress);
    batch_verdict(&list, total, failed, "messages were not signed")
}

/// A whole batch command's verdict: exit 1 if `failed` of the `total`
/// entries did what `failure` says, or if the list had none.
fn batch_verdict(list: &List, total: usize, failed: usize, failure: &str) -> Result<()> {
    if failed > 0 {
        return Err(anyhow!("{failed} of {total} {failure}"))
            .hint("the lines marked FAIL name the message and signature files");
    }
    if total == 0 {
        return Err(anyhow!("the list {} has no entries", list.name.display()))
            .hint("lines are `MSGFILE SIGFILE`");
    }
    Ok(())
}
