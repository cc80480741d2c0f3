//! `parcrypt rc4` and `parcrypt parc4`: legacy stream ciphers behind `--hazmat`.

use anyhow::Result;
use parcrypt::hazmat::{Parc4, Rc4, Rc4Error};
use parcrypt::par::Parallelism;

use super::{hex_arg, hex_key};
use crate::cli::{InOut, Parc4Args, Rc4Args};
use crate::error::{Hint, HintMsg, warn};
use crate::io::{Input, Output, progress_bar};

pub fn run_rc4(args: &Rc4Args) -> Result<()> {
    require_hazmat(
        args.hazmat,
        "rc4",
        "RC4 is broken (biased keystream, related-key attacks) and has no integrity",
    )?;
    let key = hex_key("key", &args.key)?;
    let rc4 = Rc4::new(key.expose()).map_err(explain).usage()?;
    warn("RC4 is broken; use it only to read or write legacy data");
    stream(&args.io, |input, output, progress| {
        rc4.process_with(input, output, parcrypt::aes::DEFAULT_BUFFER, progress)
    })
}

pub fn run_parc4(args: &Parc4Args, par: &Parallelism) -> Result<()> {
    require_hazmat(
        args.hazmat,
        "parc4",
        "PARC4 is RC4 underneath: no integrity, and RC4's biases remain",
    )?;
    let key = hex_key("key", &args.key)?;
    let nonce = hex_arg("nonce", &args.nonce)?;
    let parc4 = Parc4::new(key.expose(), &nonce, args.block_size)
        .map_err(explain)
        .usage()?;
    warn("PARC4 is an RC4-based research cipher without integrity; prefer AES");
    stream(&args.io, |input, output, progress| {
        parc4.process_with(input, output, parcrypt::aes::DEFAULT_BUFFER, par, progress)
    })
}

fn require_hazmat(given: bool, command: &str, why: &str) -> Result<()> {
    if given {
        return Ok(());
    }
    Err(anyhow::anyhow!("{command} needs --hazmat: {why}"))
        .hint(format!("add --hazmat if you must ({command} --hazmat --key …); for new data use `parcrypt aes --mode ctr`"))
        .usage()
}

/// Runs a cipher from `-i` to `-o`, writing `-o` atomically, with a progress
/// bar on a terminal.
fn stream(
    io: &InOut,
    run: impl FnOnce(&mut Input, &mut Output, &mut dyn FnMut(u64)) -> Result<u64, Rc4Error>,
) -> Result<()> {
    let mut input = Input::open(io.input.as_deref())?;
    let mut output = Output::create(io.output.as_deref())?;
    let bar = progress_bar(input.len);
    let mut tick = |n: u64| {
        if let Some(b) = &bar {
            b.inc(n);
        }
    };
    let result = run(&mut input, &mut output, &mut tick);
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    result.map_err(explain)?;
    output.commit()
}

fn explain(e: Rc4Error) -> anyhow::Error {
    let hint = match &e {
        Rc4Error::KeyLength(_) => "hex doubles the length: --key 0102030405 is a 5-byte (40-bit) key",
        Rc4Error::NonceLength(_) => "use a fresh random nonce per message: --nonce $(openssl rand -hex 16)",
        Rc4Error::BlockSize => "--block-size takes 1 byte to 16MiB, e.g. 64KiB",
        _ => return e.into(),
    };
    anyhow::Error::new(e).context(HintMsg(hint.to_owned()))
}
