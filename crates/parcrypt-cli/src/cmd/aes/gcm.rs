//! `parcrypt aes --mode gcm`: one AES-GCM message under a raw key and
//! nonce, read whole, sealed or verified-then-opened on all threads.

use std::io::{Read, Write};

use anyhow::{Result, anyhow};
use parcrypt::aes::{GCM_NONCE, GCM_TAG, Gcm};
use parcrypt::par::Parallelism;

use crate::cli::{AesArgs, Direction};
use crate::error::Hint;
use crate::hex_args::{hex_arg, hex_key};
use crate::io::{Input, Output, Policy};

/// GCM is one message with one tag: the input is read whole, sealed or
/// verified-then-opened on all threads, and written only if it verified.
pub(super) fn gcm(args: &AesArgs, par: &Parallelism) -> Result<()> {
    if args.base64 {
        return Err(anyhow!(
            "-a/--base64 applies to the `openssl enc` modes (ecb, cbc, ctr), not GCM"
        ))
        .hint("drop -a, and encode the output with `base64` if needed")
        .usage();
    }
    if args.no_pad {
        return Err(anyhow::anyhow!("--no-pad does not apply to GCM (it never pads)"))
            .hint("drop --no-pad")
            .usage();
    }
    let Some(key) = &args.key else {
        return Err(anyhow::anyhow!(
            "--mode gcm needs --key: GCM has no password form (`openssl enc` refuses AEAD ciphers)"
        ))
        .hint("give --key HEX --iv HEX, or use `parcrypt encrypt --passphrase-file` for authenticated files with a passphrase")
        .usage();
    };
    let key = hex_key("key", key)?;
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
