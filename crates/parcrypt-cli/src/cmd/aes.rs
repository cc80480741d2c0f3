//! `parcrypt aes {encrypt|decrypt}`.

use anyhow::Result;
use parcrypt::aes::{Crypter, Error};
use parcrypt::hazmat;
use parcrypt::par::Parallelism;

use super::hex_arg;
use crate::cli::{AesArgs, AesMode, Direction};
use crate::error::{Hint, HintMsg};
use crate::io::{Input, Output, progress_bar};

pub fn run(args: &AesArgs, par: &Parallelism) -> Result<()> {
    let crypter = crypter(args)?;
    warn_if_hazardous(args);
    let mut input = Input::open(args.io.input.as_deref())?;
    let mut output = Output::create(args.io.output.as_deref())?;
    let bar = progress_bar(input.len);
    let result = crypter.process_with(&mut input, &mut output, par, parcrypt::aes::DEFAULT_BUFFER, |n| {
        if let Some(b) = &bar {
            b.inc(n as u64);
        }
    });
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    result.map_err(|e| explain(e, args))?;
    output.commit()
}

fn crypter(args: &AesArgs) -> Result<Crypter> {
    let key = zeroize::Zeroizing::new(hex_arg("key", &args.key)?);
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
            hazmat::ecb_crypter(&key, encrypt, !args.no_pad)
        }
        AesMode::Cbc if args.no_pad => hazmat::cbc_crypter_no_padding(&key, &need_iv()?, encrypt),
        AesMode::Cbc if encrypt => Crypter::cbc_encrypt(&key, &need_iv()?),
        AesMode::Cbc => Crypter::cbc_decrypt(&key, &need_iv()?),
        AesMode::Ctr => {
            if args.no_pad {
                return Err(anyhow::anyhow!("--no-pad does not apply to CTR (it never pads)"))
                    .hint("drop --no-pad")
                    .usage();
            }
            Crypter::ctr(&key, &need_iv()?)
        }
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
        eprintln!(
            "parcrypt: warning: ECB encrypts equal blocks to equal ciphertext and leaks patterns; prefer --mode ctr or cbc"
        );
    } else if args.no_pad {
        eprintln!(
            "parcrypt: warning: --no-pad: input must be whole 16-byte blocks and nothing checks the result"
        );
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
        Error::Io(io) => return anyhow::Error::new(io).context("I/O error"),
        other => return other.into(),
    };
    anyhow::anyhow!(what).context(HintMsg(hint.to_owned()))
}

fn mode_name(mode: AesMode) -> &'static str {
    match mode {
        AesMode::Ecb => "ecb",
        AesMode::Cbc => "cbc",
        AesMode::Ctr => "ctr",
    }
}
