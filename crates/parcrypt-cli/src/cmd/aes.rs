//! `parcrypt aes {encrypt|decrypt}`.

use anyhow::Result;
use parcrypt::aes::{Crypter, Error, GCM_NONCE, GCM_TAG, Gcm};
use parcrypt::hazmat;
use parcrypt::par::Parallelism;

use super::{hex_arg, hex_key};
use crate::cli::{AesArgs, AesMode, Direction};
use crate::error::{Hint, HintMsg, warn};
use crate::io::{Input, Output, Policy, Source, transfer};

pub fn run(args: &AesArgs, par: &Parallelism) -> Result<()> {
    if args.mode == AesMode::Gcm {
        return gcm(args, par);
    }
    if args.aad.is_some() {
        return Err(anyhow::anyhow!("--aad applies to --mode gcm only"))
            .hint("drop --aad, or use --mode gcm")
            .usage();
    }
    let crypter = crypter(args)?;
    warn_if_hazardous(args);
    // Two 1 MiB parts per thread in every buffer (8 MiB at least).
    let buffer = parcrypt::aes::buffer_for(par);
    transfer(
        &args.io,
        Policy::REPLACE,
        |source, out, tick| match source {
            Source::File(file) => crypter.process_file_with(file, out, buffer, par, tick),
            Source::Reader(input) => crypter.process_with(input, out, buffer, par, tick),
        },
        |e| explain(e, args),
    )
}

/// GCM is one message with one tag: the input is read whole, sealed or
/// verified-then-opened on all threads, and written only if it verified.
fn gcm(args: &AesArgs, par: &Parallelism) -> Result<()> {
    use std::io::{Read, Write};

    if args.no_pad {
        return Err(anyhow::anyhow!("--no-pad does not apply to GCM (it never pads)"))
            .hint("drop --no-pad")
            .usage();
    }
    let key = hex_key("key", &args.key)?;
    let gcm = Gcm::new(key.expose())
        .map_err(|_| anyhow::anyhow!("--key is {} bytes; AES-GCM keys are 16 or 32 bytes", key.len()))
        .hint("32 or 64 hex digits (AES-128-GCM or AES-256-GCM)")
        .usage()?;
    let nonce: [u8; GCM_NONCE] = match &args.iv {
        None => {
            return Err(anyhow::anyhow!("--mode gcm needs --iv (the 12-byte nonce)"))
                .hint("e.g. --iv $(openssl rand -hex 12); never reuse a nonce with the same key")
                .usage();
        }
        Some(v) => {
            let bytes = hex_arg("iv", v)?;
            let n = bytes.len();
            bytes
                .try_into()
                .map_err(|_| anyhow::anyhow!("--iv is {n} bytes; the GCM nonce must be 12"))
                .hint("24 hex digits, e.g. --iv $(openssl rand -hex 12)")
                .usage()?
        }
    };
    let aad = args
        .aad
        .as_deref()
        .map(|a| hex_arg("aad", a))
        .transpose()?
        .unwrap_or_default();
    let mut input = Input::open(args.io.input.as_deref())?;
    let mut data = Vec::new();
    input
        .read_to_end(&mut data)
        .map_err(|e| anyhow::Error::new(e).context("cannot read the input"))?;
    let mut output = Output::create(args.io.output.as_deref(), Policy::REPLACE)?;
    if args.direction == Direction::Encrypt {
        let tag = gcm.seal_in_place(&nonce, &aad, &mut data, par);
        output.write_all(&data)?;
        output.write_all(&tag)?;
    } else {
        if data.len() < GCM_TAG {
            return Err(anyhow::anyhow!(
                "input of {} bytes is too short to hold a GCM tag",
                data.len()
            ))
            .hint("GCM ciphertext ends with a 16-byte tag; the input is truncated or not GCM");
        }
        let split = data.len() - GCM_TAG;
        let (body, tag) = data.split_at_mut(split);
        gcm.open_in_place(&nonce, &aad, body, tag, par)
            .map_err(anyhow::Error::new)
            .hint("wrong key, nonce (--iv) or --aad, or the ciphertext or tag was modified or truncated; nothing was written")?;
        output.write_all(body)?;
    }
    output.commit()
}

fn crypter(args: &AesArgs) -> Result<Crypter> {
    let key = hex_key("key", &args.key)?;
    let iv = args.iv.as_deref().map(|v| hex_arg("iv", v)).transpose()?;
    let encrypt = args.direction == Direction::Encrypt;
    let need_iv = || {
        iv.clone()
            .ok_or_else(|| anyhow::anyhow!("--mode {} needs --iv", mode_name(args.mode)))
            .hint(
                "give 16 bytes of hex, e.g. --iv $(openssl rand -hex 16); never reuse one with the same key",
            )
            .usage()
    };
    let made = match args.mode {
        AesMode::Ecb => {
            if iv.is_some() {
                return Err(anyhow::anyhow!("--mode ecb takes no --iv"))
                    .hint("drop --iv, or use --mode cbc/ctr")
                    .usage();
            }
            match (encrypt, args.no_pad) {
                (true, false) => hazmat::ecb_encrypter(key.expose()),
                (false, false) => hazmat::ecb_decrypter(key.expose()),
                (true, true) => hazmat::ecb_encrypter_no_padding(key.expose()),
                (false, true) => hazmat::ecb_decrypter_no_padding(key.expose()),
            }
        }
        AesMode::Cbc if args.no_pad && encrypt => hazmat::cbc_encrypter_no_padding(key.expose(), &need_iv()?),
        AesMode::Cbc if args.no_pad => hazmat::cbc_decrypter_no_padding(key.expose(), &need_iv()?),
        AesMode::Cbc if encrypt => Crypter::cbc_encrypt(key.expose(), &need_iv()?),
        AesMode::Cbc => Crypter::cbc_decrypt(key.expose(), &need_iv()?),
        AesMode::Ctr => {
            if args.no_pad {
                return Err(anyhow::anyhow!("--no-pad does not apply to CTR (it never pads)"))
                    .hint("drop --no-pad")
                    .usage();
            }
            Crypter::ctr(key.expose(), &need_iv()?)
        }
        AesMode::Gcm => unreachable!("GCM is handled by `gcm`"),
    };
    made.map_err(|e| match e {
        Error::KeyLength(n) => anyhow::anyhow!("--key is {n} bytes; AES keys are 16, 24 or 32 bytes"),
        Error::IvLength(n) => anyhow::anyhow!("--iv is {n} bytes; it must be 16"),
        other => other.into(),
    })
    .hint("hex doubles the length: 32, 48 or 64 digits for the key, 32 for the IV")
    .usage()
}

fn warn_if_hazardous(args: &AesArgs) {
    if args.mode == AesMode::Ecb {
        warn("ECB encrypts equal blocks to equal ciphertext and leaks patterns; prefer --mode ctr or cbc");
    } else if args.no_pad {
        warn("--no-pad: input must be whole 16-byte blocks and nothing checks the result");
    }
}

fn explain(e: Error, args: &AesArgs) -> anyhow::Error {
    let decrypting = args.direction == Direction::Decrypt;
    let (what, hint) = match e {
        Error::NotBlockAligned if decrypting => (
            "ciphertext is not a whole number of 16-byte blocks",
            "the input is truncated, or was not made with this mode",
        ),
        Error::NotBlockAligned => (
            "input is not a whole number of 16-byte blocks",
            "--no-pad needs input that is a multiple of 16 bytes; drop --no-pad to pad with PKCS#7",
        ),
        Error::Decrypt => ("bad decrypt", "wrong key or IV, or the ciphertext is corrupted"),
        other => return other.into(),
    };
    anyhow::anyhow!(what).context(HintMsg(hint.to_owned()))
}

fn mode_name(mode: AesMode) -> &'static str {
    match mode {
        AesMode::Ecb => "ecb",
        AesMode::Cbc => "cbc",
        AesMode::Ctr => "ctr",
        AesMode::Gcm => "gcm",
    }
}
