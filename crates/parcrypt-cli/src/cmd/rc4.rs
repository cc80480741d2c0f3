//! `parcrypt rc4` and `parcrypt parc4`: legacy stream ciphers behind `--hazmat`.

use anyhow::Result;
use parcrypt::hazmat::{Parc4, Rc4, Rc4Error};
use parcrypt::par::Parallelism;

use crate::cli::{Parc4Args, Rc4Args};
use crate::error::{Hint, HintMsg, warn};
use crate::hex_args::{hex_arg, hex_key};
use crate::io::{Policy, Source, transfer};

pub fn run_rc4(args: &Rc4Args) -> Result<()> {
    require_hazmat(
        args.hazmat,
        "rc4",
        "RC4 is broken (biased keystream, related-key attacks) and has no integrity",
    )?;
    let key = hex_key("key", &args.key)?;
    let mut rc4 = Rc4::new(key.expose()).map_err(explain).usage()?;
    warn("RC4 is broken; use it only to read or write legacy data");
    // RC4 is serial: one thread works on a buffer, whatever --threads says.
    let buffer = parcrypt::aes::DEFAULT_BUFFER;
    transfer(
        &args.io,
        Policy::REPLACE,
        |source, out, tick| match source {
            Source::File(file) => rc4.process_file_with(file, out, buffer, tick),
            Source::Reader(input) => rc4.process_with(input, out, buffer, tick),
        },
        |e, _| explain(e),
    )
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
    let buffer = parcrypt::aes::buffer_for(par);
    transfer(
        &args.io,
        Policy::REPLACE,
        |source, out, tick| match source {
            Source::File(file) => parc4.process_file_with(file, out, buffer, par, tick),
            Source::Reader(input) => parc4.process_with(input, out, buffer, par, tick),
        },
        |e, _| explain(e),
    )
}

fn require_hazmat(given: bool, command: &str, why: &str) -> Result<()> {
    if given {
        return Ok(());
    }
    Err(anyhow::anyhow!("{command} needs --hazmat: {why}"))
        .hint(format!("add --hazmat if you must ({command} --hazmat --key …); for new data use `parcrypt aes --mode ctr`"))
        .usage()
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
