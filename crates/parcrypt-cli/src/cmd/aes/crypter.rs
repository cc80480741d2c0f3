//! The `openssl enc` modes' cipher: the [`Crypter`] for a mode, key and IV
//! with its length errors, the hazard warnings, and the library's errors
//! told in the CLI's words.

use anyhow::{Result, anyhow};
use parcrypt::aes::{Crypter, Error};
use parcrypt::hazmat;

use super::base64::Base64Error;
use super::read_error;
use crate::cli::{AesArgs, AesMode, Direction};
use crate::error::{Hint, HintMsg, warn};

/// The cipher for `mode` with this key and IV, its length errors naming
/// --key and --iv (a derived key always has the right length).
pub(super) fn make_crypter(
    mode: AesMode,
    encrypt: bool,
    no_pad: bool,
    key: &[u8],
    iv: Option<Vec<u8>>,
) -> Result<Crypter> {
    let need_iv = || {
        iv.clone()
            .ok_or_else(|| anyhow!("--mode {} needs --iv", mode_name(mode)))
            .hint(
                "give 16 bytes of hex, e.g. --iv $(openssl rand -hex 16); never reuse one with the same key",
            )
            .usage()
    };
    let made = match mode {
        AesMode::Ecb => {
            if iv.is_some() {
                return Err(anyhow!("--mode ecb takes no --iv"))
                    .hint("drop --iv, or use --mode cbc/ctr")
                    .usage();
            }
            match (encrypt, no_pad) {
                (true, false) => hazmat::ecb_encrypter(key),
                (false, false) => hazmat::ecb_decrypter(key),
                (true, true) => hazmat::ecb_encrypter_no_padding(key),
                (false, true) => hazmat::ecb_decrypter_no_padding(key),
            }
        }
        AesMode::Cbc if no_pad && encrypt => hazmat::cbc_encrypter_no_padding(key, &need_iv()?),
        AesMode::Cbc if no_pad => hazmat::cbc_decrypter_no_padding(key, &need_iv()?),
        AesMode::Cbc if encrypt => Crypter::cbc_encrypt(key, &need_iv()?),
        AesMode::Cbc => Crypter::cbc_decrypt(key, &need_iv()?),
        AesMode::Ctr => {
            if no_pad {
                return Err(anyhow!("--no-pad does not apply to CTR (it never pads)"))
                    .hint("drop --no-pad")
                    .usage();
            }
            Crypter::ctr(key, &need_iv()?)
        }
        AesMode::Gcm => unreachable!("GCM is handled by `gcm`"),
    };
    made.map_err(|e| match e {
        Error::KeyLength(n) => anyhow!("--key is {n} bytes; AES keys are 16, 24 or 32 bytes"),
        Error::IvLength(n) => anyhow!("--iv is {n} bytes; it must be 16"),
        other => other.into(),
    })
    .hint("hex doubles the length: 32, 48 or 64 digits for the key, 32 for the IV")
    .usage()
}

pub(super) fn warn_if_hazardous(mode: AesMode, no_pad: bool) {
    if mode == AesMode::Ecb {
        warn("ECB encrypts equal blocks to equal ciphertext and leaks patterns; prefer --mode ctr or cbc");
    } else if no_pad {
        warn("--no-pad: input must be whole 16-byte blocks and nothing checks the result");
    }
}

pub(super) fn explain(e: Error, args: &AesArgs, password: bool) -> anyhow::Error {
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
        Error::Decrypt if password => (
            "bad decrypt",
            "wrong password, or not the --cipher, --md, --pbkdf2/--iter or salt it was encrypted with, \
             or the ciphertext is corrupted; nothing was written",
        ),
        Error::Decrypt => ("bad decrypt", "wrong key or IV, or the ciphertext is corrupted"),
        Error::Io(e) if e.get_ref().is_some_and(|inner| inner.is::<Base64Error>()) => return read_error(e),
        other => return other.into(),
    };
    anyhow!(what).context(HintMsg(hint.to_owned()))
}

fn mode_name(mode: AesMode) -> &'static str {
    match mode {
        AesMode::Ecb => "ecb",
        AesMode::Cbc => "cbc",
        AesMode::Ctr => "ctr",
        AesMode::Gcm => "gcm",
    }
}
