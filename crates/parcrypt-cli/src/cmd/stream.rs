//! `parcrypt encrypt` / `parcrypt decrypt`: the `stream` format on files and
//! pipes. `-o FILE` is written to a temporary file in the same directory and
//! renamed only after the last segment verified; an existing file is kept
//! unless `--force`.

use std::path::Path;

use anyhow::{Context, Result, anyhow};
use parcrypt::par::Parallelism;
use parcrypt::rsa::{PrivateKey, PublicKey};
use parcrypt::secret::{SecretBytes, SecretKey};
use parcrypt::stream::{self, DecryptOptions, Error, Identity, Options, Recipient};

use super::files::read_small;
use crate::cli::{DecryptArgs, EncryptArgs};
use crate::error::Hint;
use crate::io::{Output, Policy, Released, Source, open_input_file, transfer};
use parcrypt::keys::{SigningKey as _, VerifyingKey as _};

pub fn encrypt(args: &EncryptArgs, par: &Parallelism) -> Result<()> {
    let mut recipients = Vec::new();
    if let Some(path) = &args.key_file {
        recipients.push(Recipient::Key(read_key_file(path)?));
    }
    if let Some(path) = &args.passphrase_file {
        recipients.push(Recipient::Passphrase {
            passphrase: read_passphrase(path)?,
            log2_n: args.work_factor,
        });
    }
    let keys: Vec<PublicKey> = args
        .recipient
        .iter()
        .map(|p| {
            let bytes = read_small(Some(p), "recipient key")?;
            PublicKey::from_bytes(&bytes, par)
                .with_context(|| format!("cannot use {} as an RSA recipient", p.display()))
                .hint("--recipient takes an RSA public key, e.g. from `parcrypt rsa pubkey`")
        })
        .collect::<Result<_>>()?;
    recipients.extend(keys.iter().map(Recipient::Rsa));
    let opts = Options {
        segment_size: args.segment_size,
    };
    transfer(
        &args.io,
        Policy::refuse_unless(args.force),
        |source, out, tick| match source {
            Source::File(file) => stream::encrypt_file(&recipients, file, out, &opts, par, tick),
            Source::Reader(input) => stream::encrypt_stream(&recipients, input, out, &opts, par, tick),
        },
        explain,
    )
}

pub fn decrypt(args: &DecryptArgs, par: &Parallelism) -> Result<()> {
    let rsa;
    let identity = if let Some(path) = &args.key_file {
        Identity::Key(read_key_file(path)?)
    } else if let Some(path) = &args.passphrase_file {
        Identity::Passphrase(read_passphrase(path)?)
    } else if let Some(path) = &args.identity {
        let bytes = read_small(Some(path), "identity key")?;
        rsa = PrivateKey::from_bytes(&bytes, par)
            .with_context(|| format!("cannot use {} as an RSA identity", path.display()))
            .hint("--identity takes the RSA private key whose public key was a --recipient")?;
        Identity::Rsa(&rsa)
    } else {
        return Err(anyhow!("no identity given"))
            .hint("give --key-file, --passphrase-file or --identity")
            .usage();
    };
    let identities = [identity];
    let opts = DecryptOptions {
        max_work_factor: args.max_work_factor,
    };
    if let Some((start, len)) = args.range {
        let Some(file) = open_input_file(args.io.input.as_deref())? else {
            return Err(anyhow!("--range needs a seekable input file"))
                .hint("give the stream with -i FILE")
                .usage();
        };
        let mut output = Output::create(args.io.output.as_deref(), Policy::refuse_unless(args.force))?;
        if let Err(e) = stream::decrypt_range(&identities, &file, start, len, &mut output, &opts, par) {
            return Err(explain(e, output.released()));
        }
        return output.commit();
    }
    // The first bytes read, kept to tell an age file from a damaged stream.
    let seen = std::cell::RefCell::new(Vec::new());
    transfer(
        &args.io,
        Policy::refuse_unless(args.force),
        |source, out, tick| match source {
            Source::File(file) => {
                let r = stream::decrypt_file(&identities, file, out, &opts, par, tick);
                if matches!(r, Err(Error::WrongFormat)) {
                    let mut prefix = vec![0; parcrypt::age::DETECT_LEN];
                    let n = std::os::unix::fs::FileExt::read_at(file, &mut prefix, 0).unwrap_or(0);
                    prefix.truncate(n);
                    *seen.borrow_mut() = prefix;
                }
                r
            }
            Source::Reader(input) => {
                let mut recorder = Recorder {
                    inner: input,
                    seen: Vec::new(),
                    passed: None,
                };
                let r = stream::decrypt_stream(&identities, &mut recorder, out, &opts, par, tick);
                *seen.borrow_mut() = recorder.seen;
                r
            }
        },
        |e, released| match e {
            Error::WrongFormat if looks_like_age(&seen.borrow()) => with_hint(
                e,
                "this is an age file: decrypt it with `parcrypt age -d -i KEY` (or `parcrypt age -d` for a passphrase)",
            ),
            e => explain(e, released),
        },
    )
}

/// Whether the first bytes of the input are those of an age file (binary or
/// armored), or as many of them as were read.
fn looks_like_age(prefix: &[u8]) -> bool {
    const MAGIC: &[u8] = b"age-encryption.org/";
    parcrypt::age::detect(prefix).is_some()
        || (prefix.len() >= 8 && prefix.len() < MAGIC.len() && MAGIC.starts_with(prefix))
}

/// Passes reads through, keeping a copy of the first bytes: it reads
/// [`parcrypt::age::DETECT_LEN`] bytes (or all there is) ahead at the start,
/// enough to recognise an armored age file, whose first line is longer than
/// what a stream header is refused after.
struct Recorder<R> {
    inner: R,
    seen: Vec<u8>,
    /// How much of `seen` was passed on; `None` before the first read.
    passed: Option<usize>,
}

impl<R: std::io::Read> std::io::Read for Recorder<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let passed = match self.passed {
            Some(n) => n,
            None => {
                let mut ahead = vec![0; parcrypt::age::DETECT_LEN];
                let mut n = 0;
                while n < ahead.len() {
                    match self.inner.read(&mut ahead[n..]) {
                        Ok(0) => break,
                        Ok(got) => n += got,
                        Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                        Err(e) => return Err(e),
                    }
                }
                ahead.truncate(n);
                self.seen = ahead;
                0
            }
        };
        let left = &self.seen[passed.min(self.seen.len())..];
        if left.is_empty() {
            self.passed = Some(passed);
            return self.inner.read(buf);
        }
        let n = left.len().min(buf.len());
        buf[..n].copy_from_slice(&left[..n]);
        self.passed = Some(passed + n);
        Ok(n)
    }
}

/// A key file: 32 raw bytes, or 64 hex digits (and a newline), decoded
/// straight into the key (no other copy of it is left unwiped).
fn read_key_file(path: &Path) -> Result<SecretKey<32>> {
    let bytes = SecretBytes::from(&read_small(Some(path), "key file")?[..]);
    if let Some(key) = SecretKey::from_slice(bytes.expose()) {
        return Ok(key);
    }
    let text = std::str::from_utf8(bytes.expose()).unwrap_or("").trim();
    SecretKey::generate(|key| hex::decode_to_slice(text, key))
        .map_err(|_| anyhow!("{} is not a 32-byte key ({} bytes)", path.display(), bytes.len()))
        .hint("make one with `openssl rand -out key.bin 32` (or 64 hex digits)")
}

/// The first line of a passphrase file, without its line ending.
fn read_passphrase(path: &Path) -> Result<SecretBytes> {
    let bytes = SecretBytes::from(&read_small(Some(path), "passphrase file")?[..]);
    let line = bytes.expose().split(|&b| b == b'\n').next().unwrap_or_default();
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    if line.is_empty() {
        return Err(anyhow!("the passphrase in {} is empty", path.display()))
            .hint("put the passphrase on the file's first line");
    }
    Ok(SecretBytes::from(line))
}

/// The command's error for a library error, with a hint; `released` is
/// what the output had let out (a damaged segment is found after the
/// verified ones before it went out, unless the input was a regular file
/// whose end was checked first).
fn explain(e: Error, released: Released) -> anyhow::Error {
    let hint = match &e {
        Error::NoMatchingIdentity => {
            "check the key file, passphrase or --identity; the stream was encrypted to others"
        }
        Error::Truncated { .. } => {
            let hint = format!("the file was cut short (an interrupted copy or download?); {released}");
            return with_hint(e, hint);
        }
        Error::SegmentAuthentication { .. } => {
            return with_hint(e, format!("the file was modified or damaged; {released}"));
        }
        Error::HeaderAuthentication => "the header was modified; nothing was written",
        Error::WrongFormat | Error::UnsupportedVersion(_) | Error::MalformedHeader(_) => {
            "is this a file written by `parcrypt encrypt`?"
        }
        Error::Range { .. } => "the range must lie inside the plaintext",
        &Error::WorkFactor { log2_n, .. } => {
            let hint = format!(
                "the file's writer chose this cost; if you trust the file, allow it with \
                 --max-work-factor {log2_n} (scrypt then needs 2^{log2_n} KiB of memory)"
            );
            return with_hint(e, hint);
        }
        Error::Options(_) => "see `parcrypt encrypt --help`",
        _ => "see the message above",
    };
    with_hint(e, hint)
}

fn with_hint(e: Error, hint: impl Into<String>) -> anyhow::Error {
    let err: Result<()> = Err(anyhow!(e)).hint(hint.into());
    err.expect_err("an error")
}
