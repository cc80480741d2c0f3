//! `parcrypt encrypt|decrypt --format cobblestone-128|cobblestone-256|chunked`:
//! C2SP chunked-encryption files and pipes, byte-identical with
//! pyca/cryptography's `cryptography.cobblestone`, under the same output
//! rules as the `stream` format (`-o` atomic, renamed only once everything
//! verified; an existing file kept unless `--force`).

use std::path::Path;

use anyhow::{Result, anyhow};
use parcrypt::cobblestone::{Aead, Error, KdfHash, Scheme, Source};
use parcrypt::par::Parallelism;
use parcrypt::secret::SecretBytes;

use super::files::read_small;
use crate::cli::{DecryptArgs, EncryptArgs, FileFormat, FormatArgs};
use crate::error::Hint;
use crate::io::{Output, Policy, Released, Source as Input, open_input_file, transfer};

/// The chunked scheme `--format` asks for, or `None` for the `stream`
/// format (whose flags then must not include the chunked ones).
///
/// # Errors
/// A usage error for --kdf-hash/--aead without `--format chunked`, or a
/// context without a chunked format.
pub fn scheme(args: &FormatArgs) -> Result<Option<Scheme>> {
    let format = args.format.unwrap_or_default();
    if format != FileFormat::Chunked && (args.kdf_hash.is_some() || args.aead.is_some()) {
        return Err(anyhow!("--kdf-hash and --aead are for --format chunked"))
            .hint("Cobblestone fixes them (SHA-512, AES-GCM); use --format chunked to choose")
            .usage();
    }
    Ok(match format {
        FileFormat::Stream => {
            if args.context.is_some() || args.context_file.is_some() {
                return Err(anyhow!(
                    "--context is for --format cobblestone-128, cobblestone-256 or chunked"
                ))
                .hint("the stream format has no context")
                .usage();
            }
            None
        }
        FileFormat::Cobblestone128 => Some(Scheme::COBBLESTONE_128),
        FileFormat::Cobblestone256 => Some(Scheme::COBBLESTONE_256),
        FileFormat::Chunked => Some(Scheme::new(
            args.kdf_hash.unwrap_or(KdfHash::Sha256),
            args.aead.unwrap_or(Aead::Aes128Gcm),
        )),
    })
}

pub fn encrypt(scheme: Scheme, args: &EncryptArgs, par: &Parallelism) -> Result<()> {
    if args.passphrase_file.is_some() || !args.recipient.is_empty() {
        return Err(anyhow!("{} takes a key file only", name(scheme)))
            .hint("give --key-file (C2SP chunked-encryption has no passphrases or recipients)")
            .usage();
    }
    let key = read_key(args.key_file.as_deref(), scheme)?;
    let context = read_context(&args.format)?;
    transfer(
        &args.io,
        Policy::refuse_unless(args.force),
        |source, out, tick| {
            let sealer = scheme.sealer(key.expose(), &context)?;
            match source {
                Input::File(file) => sealer.encrypt_file(file, out, par, tick),
                Input::Reader(input) => sealer.encrypt_stream(input, out, par, tick),
            }
        },
        explain,
    )
}

pub fn decrypt(scheme: Scheme, args: &DecryptArgs, par: &Parallelism) -> Result<()> {
    if args.passphrase_file.is_some() || args.identity.is_some() {
        return Err(anyhow!("{} takes a key file only", name(scheme)))
            .hint("give --key-file")
            .usage();
    }
    let key = read_key(args.key_file.as_deref(), scheme)?;
    let context = read_context(&args.format)?;
    if let Some((start, len)) = args.range {
        let Some(file) = open_input_file(args.io.input.as_deref())? else {
            return Err(anyhow!("--range needs a seekable input file"))
                .hint("give the message with -i FILE")
                .usage();
        };
        let mut output = Output::create(args.io.output.as_deref(), Policy::refuse_unless(args.force))?;
        let source = Source::File(&file);
        if let Err(e) = scheme.decrypt_range(key.expose(), &context, source, start, len, &mut output, par) {
            return Err(explain(e, output.released()));
        }
        return output.commit();
    }
    transfer(
        &args.io,
        Policy::refuse_unless(args.force),
        |source, out, tick| match source {
            Input::File(file) => scheme.decrypt_file(key.expose(), &context, file, out, par, tick),
            Input::Reader(input) => scheme.decrypt_stream(key.expose(), &context, input, out, par, tick),
        },
        explain,
    )
}

/// The scheme's name for messages.
fn name(scheme: Scheme) -> String {
    if scheme == Scheme::COBBLESTONE_128 {
        "Cobblestone-128".into()
    } else if scheme == Scheme::COBBLESTONE_256 {
        "Cobblestone-256".into()
    } else {
        format!(
            "chunked-encryption ({}, {})",
            scheme.kdf_hash.name(),
            scheme.aead.name()
        )
    }
}

/// The key file: exactly the scheme's key length raw, or twice that in hex
/// digits (and a newline).
fn read_key(path: Option<&Path>, scheme: Scheme) -> Result<SecretBytes> {
    let Some(path) = path else {
        return Err(anyhow!("{} needs --key-file", name(scheme))).usage();
    };
    let want = scheme.key_len();
    let bytes = SecretBytes::from(&read_small(Some(path), "key file")?[..]);
    if bytes.len() == want {
        return Ok(bytes);
    }
    let text = std::str::from_utf8(bytes.expose()).unwrap_or("").trim();
    let mut key = SecretBytes::zeroed(want);
    match hex::decode_to_slice(text, key.expose_mut()) {
        Ok(()) => Ok(key),
        Err(_) => Err(anyhow!(
            "{} is not a {want}-byte key for {} ({} bytes)",
            path.display(),
            name(scheme),
            bytes.len()
        ))
        .hint(format!(
            "make one with `openssl rand -out key.bin {want}` (or {} hex digits)",
            2 * want
        )),
    }
}

/// `--context TEXT` or the bytes of `--context-file FILE`; empty if neither.
fn read_context(args: &FormatArgs) -> Result<Vec<u8>> {
    if let Some(path) = &args.context_file {
        return Ok(read_small(Some(path), "context")?.to_vec());
    }
    Ok(args.context.clone().unwrap_or_default().into_bytes())
}

/// The command's error for a library error, with a hint; `released` is
/// what the output had let out (a damaged chunk is found after the
/// verified ones before it went out, unless the input was a regular file
/// whose end was checked first).
fn explain(e: Error, released: Released) -> anyhow::Error {
    let hint = match &e {
        Error::Commitment => {
            "check the key file, --context and --format (the key commitment does not match); nothing was written"
                .to_owned()
        }
        Error::Truncated { .. } => {
            format!("the file was cut short (an interrupted copy or download?); {released}")
        }
        Error::ChunkAuthentication { .. } => format!("the file was modified or damaged; {released}"),
        Error::TooShort { .. } => "is this a Cobblestone / C2SP chunked-encryption file?".to_owned(),
        Error::Range { .. } => "the range must lie inside the plaintext".to_owned(),
        Error::KeyLength { .. } => "the key file must hold the scheme's key length".to_owned(),
        Error::TooLarge => "chunked-encryption messages hold at most 4 PiB here".to_owned(),
        _ => "see the message above".to_owned(),
    };
    let err: Result<()> = Err(anyhow!(e)).hint(hint);
    err.expect_err("an error")
}
