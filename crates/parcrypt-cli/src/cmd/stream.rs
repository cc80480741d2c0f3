//! `parcrypt encrypt` / `parcrypt decrypt`: the `stream` format on files and
//! pipes. `-o FILE` is written to a temporary file in the same directory and
//! renamed only after the last segment verified; an existing file is kept
//! unless `--force`.

use std::fs::File;
use std::io::Read;
use std::path::Path;

use anyhow::{Context, Result, anyhow};
use parcrypt::par::Parallelism;
use parcrypt::rsa::{PrivateKey, PublicKey};
use parcrypt::stream::{self, Error, Identity, Options, Recipient};
use zeroize::Zeroizing;

use super::files::read_small;
use crate::cli::{DecryptArgs, EncryptArgs, InOut};
use crate::error::Hint;
use crate::io::{Output, open_input_file, progress_bar};

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
            PublicKey::from_bytes(&bytes)
                .with_context(|| format!("cannot use {} as an RSA recipient", p.display()))
                .hint("--recipient takes an RSA public key, e.g. from `parcrypt rsa pubkey`")
        })
        .collect::<Result<_>>()?;
    recipients.extend(keys.iter().map(Recipient::Rsa));
    refuse_overwrite(args.io.output.as_deref(), args.force)?;
    let opts = Options {
        segment_size: args.segment_size,
        par: *par,
    };
    transfer(
        &args.io,
        |file, out, tick| stream::encrypt_file(&recipients, file, out, &opts, tick),
        |input, out, tick| stream::encrypt(&recipients, input, out, &opts, tick),
    )
}

pub fn decrypt(args: &DecryptArgs, par: &Parallelism) -> Result<()> {
    let key;
    let pass;
    let rsa;
    let identity = if let Some(path) = &args.key_file {
        key = read_key_file(path)?;
        Identity::Key(key)
    } else if let Some(path) = &args.passphrase_file {
        pass = read_passphrase(path)?;
        Identity::Passphrase(&pass)
    } else if let Some(path) = &args.identity {
        let bytes = read_small(Some(path), "identity key")?;
        rsa = PrivateKey::from_bytes(&bytes)
            .with_context(|| format!("cannot use {} as an RSA identity", path.display()))
            .hint("--identity takes the RSA private key whose public key was a --recipient")?;
        Identity::Rsa(&rsa)
    } else {
        return Err(anyhow!("no identity given"))
            .hint("give --key-file, --passphrase-file or --identity")
            .usage();
    };
    refuse_overwrite(args.io.output.as_deref(), args.force)?;
    if let Some(range) = &args.range {
        let (start, len) = parse_range(range)?;
        let Some(file) = open_input_file(args.io.input.as_deref())? else {
            return Err(anyhow!("--range needs a seekable input file"))
                .hint("give the stream with -i FILE")
                .usage();
        };
        let mut output = Output::create(args.io.output.as_deref())?;
        stream::decrypt_range(&identity, &file, start, len, &mut output, par).map_err(explain)?;
        return output.commit();
    }
    transfer(
        &args.io,
        |file, out, tick| stream::decrypt_file(&identity, file, out, par, tick),
        |input, out, tick| stream::decrypt(&identity, input, out, par, tick),
    )
}

/// Runs a stream operation from `-i` to `-o` (written atomically) with a
/// progress bar: a regular input file through `on_file` (memory maps, no
/// read copy), stdin or any other input through `on_pipe`.
fn transfer(
    io: &InOut,
    on_file: impl FnOnce(&File, &mut Output, &mut dyn FnMut(u64)) -> Result<u64, Error>,
    on_pipe: impl FnOnce(&mut (dyn Read + Send), &mut Output, &mut dyn FnMut(u64)) -> Result<u64, Error>,
) -> Result<()> {
    let file = open_input_file(io.input.as_deref())?;
    let regular_len = file
        .as_ref()
        .and_then(|f| f.metadata().ok())
        .filter(|m| m.is_file())
        .map(|m| m.len());
    let mut output = Output::create(io.output.as_deref())?;
    let bar = progress_bar(regular_len);
    let mut tick = |n| {
        if let Some(b) = &bar {
            b.inc(n);
        }
    };
    let result = match (file, regular_len) {
        (Some(f), Some(_)) => on_file(&f, &mut output, &mut tick),
        (Some(mut f), None) => on_pipe(&mut f, &mut output, &mut tick),
        (None, _) => on_pipe(&mut std::io::stdin(), &mut output, &mut tick),
    };
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    result.map_err(explain)?;
    output.commit()
}

/// Refuses to replace an existing regular file unless `--force`.
fn refuse_overwrite(output: Option<&Path>, force: bool) -> Result<()> {
    if let Some(p) = output
        && !force
        && p != Path::new("-")
        && std::fs::metadata(p).is_ok_and(|m| m.is_file())
    {
        return Err(anyhow!("{} exists", p.display()))
            .hint("add --force to replace it, or choose another -o");
    }
    Ok(())
}

fn parse_range(s: &str) -> Result<(u64, u64)> {
    let parsed = s
        .split_once(':')
        .and_then(|(a, b)| Some((a.trim().parse().ok()?, b.trim().parse().ok()?)));
    parsed
        .ok_or_else(|| anyhow!("--range {s:?} is not START:LEN"))
        .hint("byte offsets in the plaintext, e.g. --range 1048576:4096")
        .usage()
}

/// A key file: 32 raw bytes, or 64 hex digits (and a newline).
fn read_key_file(path: &Path) -> Result<[u8; 32]> {
    let bytes = read_small(Some(path), "key file")?;
    if let Ok(key) = <[u8; 32]>::try_from(&bytes[..]) {
        return Ok(key);
    }
    let text = std::str::from_utf8(&bytes).unwrap_or("").trim();
    let hex = Zeroizing::new(hex::decode(text).unwrap_or_default());
    <[u8; 32]>::try_from(&hex[..])
        .map_err(|_| anyhow!("{} is not a 32-byte key ({} bytes)", path.display(), bytes.len()))
        .hint("make one with `openssl rand -out key.bin 32` (or 64 hex digits)")
}

/// The first line of a passphrase file, without its line ending.
fn read_passphrase(path: &Path) -> Result<Zeroizing<Vec<u8>>> {
    let bytes = read_small(Some(path), "passphrase file")?;
    let line = bytes.split(|&b| b == b'\n').next().unwrap_or_default();
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    if line.is_empty() {
        return Err(anyhow!("the passphrase in {} is empty", path.display()))
            .hint("put the passphrase on the file's first line");
    }
    Ok(Zeroizing::new(line.to_vec()))
}

fn explain(e: Error) -> anyhow::Error {
    let hint = match &e {
        Error::NoMatchingIdentity => {
            "check the key file, passphrase or --identity; the stream was encrypted to others"
        }
        Error::Truncated { .. } => {
            "the file was cut short (an interrupted copy or download?); nothing was written"
        }
        Error::SegmentAuthentication { .. } => "the file was modified or damaged; nothing was written",
        Error::HeaderAuthentication => "the header was modified; nothing was written",
        Error::NotStream | Error::UnsupportedVersion(_) | Error::MalformedHeader(_) => {
            "is this a file written by `parcrypt encrypt`?"
        }
        Error::Range { .. } => "the range must lie inside the plaintext",
        Error::Options(_) => "see `parcrypt encrypt --help`",
        _ => "see the message above",
    };
    let err: Result<()> = Err(anyhow!(e)).hint(hint);
    err.expect_err("an error")
}
