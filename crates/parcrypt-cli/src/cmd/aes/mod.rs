//! `parcrypt aes {encrypt|decrypt}`: `openssl enc` with a raw key (`-K`,
//! `-iv`) or a password (`-pass`, `-pbkdf2`, `-iter`, `-md`, the
//! `Salted__` header, `-S`, `-nosalt`, `-p`/`-P`, `-a`/`-A`), byte for byte;
//! and one AES-GCM message.
//!
//! The cipher runs on the library's parallel paths whatever the key's
//! origin: a regular input file is read by every thread from past the
//! 16-byte header ([`Crypter::process_file_from_with`]); base64 and pipes
//! stream through a reader. The password derivation (PBKDF2 or the legacy
//! EVP_BytesToKey) is serial and runs once, before.

mod base64;
mod crypter;
mod gcm;
pub(crate) mod password;

use std::io::{Read, Write};

use anyhow::{Result, anyhow};
use parcrypt::aes::{
    Crypter, Error, PBKDF2_DEFAULT_ITERATIONS, PasswordKdf, PasswordKey, SALT_LEN, salt_from_header,
    salt_header,
};
use parcrypt::par::Parallelism;
use parcrypt::secret::SecretBytes;

use self::base64::{Base64Error, Base64Reader, Base64Writer};
use crate::cli::{AesArgs, AesMode, CipherName, Direction};
use crate::error::{Hint, HintMsg, warn};
use crate::hex_args::{hex_arg, hex_key};
use crate::io::{Input, Output, Policy, Source, transfer};
use crypter::{explain, make_crypter, warn_if_hazardous};
use gcm::gcm;

/// `openssl enc`'s header: `Salted__` and the salt.
const HEADER: usize = 16;

pub fn run(args: &AesArgs, par: &Parallelism) -> Result<()> {
    // clap requires one of the two.
    let Some(mode) = args.cipher.map(|c| c.mode).or(args.mode) else {
        return Err(anyhow!("name the cipher: --cipher NAME or --mode MODE"))
            .hint("e.g. --cipher aes-256-cbc")
            .usage();
    };
    if mode == AesMode::Gcm {
        return gcm(args, par);
    }
    if args.aad.is_some() {
        return Err(anyhow!("--aad applies to --mode gcm only"))
            .hint("drop --aad, or use --mode gcm")
            .usage();
    }
    let plan = Plan::new(args, mode)?;
    warn_if_hazardous(mode, args.no_pad);
    if args.password.print_key_only {
        return plan.print_only();
    }
    // Two 1 MiB parts per thread in every buffer (8 MiB at least).
    let buffer = parcrypt::aes::buffer_for(par);
    transfer(
        &args.io,
        Policy::REPLACE,
        |source, out, tick| plan.transfer(source, out, tick, buffer, par),
        |e, _| e,
    )
}

/// What `aes` does with the input: the cipher, where its key comes from,
/// and the header and base64 around the ciphertext.
struct Plan<'a> {
    args: &'a AesArgs,
    mode: AesMode,
    encrypt: bool,
    keys: Keys,
}

enum Keys {
    /// `--key` (and `--iv`): `openssl enc -K … -iv …`.
    Hex { key: SecretBytes, iv: Option<Vec<u8>> },
    /// A password, derived once the salt is known.
    Password {
        password: SecretBytes,
        kdf: PasswordKdf,
        cipher: CipherName,
        salt: Salt,
        /// `--iv`, which replaces the derived IV (as openssl's -iv does).
        iv: Option<Vec<u8>>,
    },
}

/// Where the salt comes from, and whether the `Salted__` header is written
/// or read: as openssl 3 does it, a salt given with -S is neither.
#[derive(Clone, Copy)]
enum Salt {
    /// `--nosalt`.
    None,
    /// `-S HEX`: no header either way.
    Given([u8; SALT_LEN]),
    /// Encryption: a random salt, written in the header.
    Fresh([u8; SALT_LEN]),
    /// Decryption: read from the header.
    FromHeader,
}

impl<'a> Plan<'a> {
    fn new(args: &'a AesArgs, mode: AesMode) -> Result<Self> {
        let encrypt = args.direction == Direction::Encrypt;
        let iv = args.iv.as_deref().map(|v| hex_arg("iv", v)).transpose()?;
        // Refused before anything is read or written.
        if mode == AesMode::Ecb && iv.is_some() {
            return Err(anyhow!("--mode ecb takes no --iv"))
                .hint("drop --iv, or use --mode cbc/ctr")
                .usage();
        }
        if mode == AesMode::Ctr && args.no_pad {
            return Err(anyhow!("--no-pad does not apply to CTR (it never pads)"))
                .hint("drop --no-pad")
                .usage();
        }
        if let Some(n) = iv.as_ref().map(Vec::len).filter(|&n| n != 16) {
            return Err(anyhow!("--iv is {n} bytes; it must be 16"))
                .hint("32 hex digits, e.g. --iv $(openssl rand -hex 16)")
                .usage();
        }
        let keys = match &args.key {
            Some(hex) => {
                let key = hex_key("key", hex)?;
                if let Some(cipher) = args.cipher.filter(|c| key.len() != c.bits / 8) {
                    return Err(anyhow!(
                        "--key is {} bytes; {} takes {} ({} hex digits)",
                        key.len(),
                        cipher.upper().to_ascii_lowercase(),
                        cipher.bits / 8,
                        cipher.bits / 4
                    ))
                    .hint("give a key of the cipher's size, or name the cipher of the key's")
                    .usage();
                }
                // Checked now, before the output is opened: key and IV lengths, a missing --iv.
                make_crypter(mode, encrypt, args.no_pad, key.expose(), iv.clone())?;
                Keys::Hex { key, iv }
            }
            None => Self::password_keys(args, encrypt, iv)?,
        };
        Ok(Plan {
            args,
            mode,
            encrypt,
            keys,
        })
    }

    fn password_keys(args: &AesArgs, encrypt: bool, iv: Option<Vec<u8>>) -> Result<Keys> {
        let Some(cipher) = args.cipher else {
            return Err(anyhow!(
                "a password needs the cipher's name: --cipher, not --mode"
            ))
            .hint("e.g. --cipher aes-256-cbc (as openssl's -aes-256-cbc), or give a raw key with --key HEX")
            .usage();
        };
        let pass = &args.password;
        if let Some(source) = pass
            .pass
            .as_ref()
            .filter(|s| s.reads_stdin() && reads_stdin(args))
        {
            return Err(anyhow!(
                "--pass {source:?} and the data cannot both come from standard input"
            ))
            .hint("give the data with -i FILE, or the password another way (env:VAR, file:PATH, fd:N)")
            .usage();
        }
        let password = password::read(pass.pass.as_ref(), cipher, args.direction)?;
        let kdf = if pass.pbkdf2 || pass.iter.is_some() {
            PasswordKdf::Pbkdf2 {
                iterations: pass.iter.unwrap_or(PBKDF2_DEFAULT_ITERATIONS),
            }
        } else {
            warn(
                "deprecated key derivation used (EVP_BytesToKey, as openssl without -pbkdf2); --pbkdf2 or --iter N would be better",
            );
            PasswordKdf::BytesToKey
        };
        let salt = match (pass.nosalt, pass.salt) {
            (true, _) => Salt::None,
            (false, Some(s)) => {
                if let Some(fitted) = s.fitted {
                    warn(fitted);
                }
                Salt::Given(s.bytes)
            }
            (false, None) if encrypt => {
                let mut s = [0u8; SALT_LEN];
                getrandom::fill(&mut s)
                    .map_err(|e| anyhow!("cannot get random bytes for the salt: {e}"))
                    .hint("the operating system's random number generator failed")?;
                Salt::Fresh(s)
            }
            (false, None) => Salt::FromHeader,
        };
        Ok(Keys::Password {
            password,
            kdf,
            cipher,
            salt,
            iv,
        })
    }

    /// The cipher, given the salt the input's header held (for
    /// [`Salt::FromHeader`]), and with -p the lines to print.
    fn crypter(&self, header_salt: Option<[u8; SALT_LEN]>) -> Result<(Crypter, Option<KeyLines>)> {
        match &self.keys {
            Keys::Hex { key, iv } => {
                let crypter = make_crypter(
                    self.mode,
                    self.encrypt,
                    self.args.no_pad,
                    key.expose(),
                    iv.clone(),
                )?;
                Ok((crypter, None))
            }
            Keys::Password { .. } => {
                let (salt, derived) = self.derive(header_salt)?;
                let iv = self.iv(&derived);
                let lines = self
                    .args
                    .password
                    .print_key
                    .then(|| key_lines(salt.as_ref(), derived.key(), iv.as_deref()));
                let crypter = make_crypter(self.mode, self.encrypt, self.args.no_pad, derived.key(), iv)?;
                Ok((crypter, lines))
            }
        }
    }

    /// The salt in use and the key and IV derived with it.
    fn derive(&self, header_salt: Option<[u8; SALT_LEN]>) -> Result<(Option<[u8; SALT_LEN]>, PasswordKey)> {
        let Keys::Password {
            password,
            kdf,
            cipher,
            salt,
            ..
        } = &self.keys
        else {
            unreachable!("derive is for password keys");
        };
        let salt = match *salt {
            Salt::None => None,
            Salt::Given(s) | Salt::Fresh(s) => Some(s),
            Salt::FromHeader => header_salt,
        };
        let iv_len = if self.mode == AesMode::Ecb { 0 } else { 16 };
        let md = self.args.password.md.unwrap_or_default();
        let derived = PasswordKey::derive(
            password.expose(),
            salt.as_ref(),
            *kdf,
            md,
            cipher.bits / 8,
            iv_len,
        )
        .map_err(anyhow::Error::new)
        .hint("the key derivation refused its parameters")?;
        Ok((salt, derived))
    }

    /// The IV: `--iv` if given, else the derived one (none for ECB).
    fn iv(&self, derived: &PasswordKey) -> Option<Vec<u8>> {
        let given = match &self.keys {
            Keys::Password { iv, .. } | Keys::Hex { iv, .. } => iv.clone(),
        };
        given.or_else(|| (self.mode != AesMode::Ecb).then(|| derived.iv().to_vec()))
    }

    fn writes_header(&self) -> Option<[u8; SALT_LEN]> {
        match &self.keys {
            Keys::Password {
                salt: Salt::Fresh(s), ..
            } => Some(*s),
            _ => None,
        }
    }

    fn reads_header(&self) -> bool {
        matches!(
            &self.keys,
            Keys::Password {
                salt: Salt::FromHeader,
                ..
            }
        )
    }

    /// -P: print the salt, key and IV (reading the header to decrypt) and
    /// stop, writing nothing else.
    fn print_only(&self) -> Result<()> {
        let header_salt = if self.reads_header() {
            let mut input = Input::open(self.args.io.input.as_deref())?;
            if self.args.base64 {
                read_header(&mut Base64Reader::new(input))?
            } else {
                read_header(&mut input)?
            }
        } else {
            None
        };
        let (salt, derived) = self.derive(header_salt)?;
        print(Some(key_lines(
            salt.as_ref(),
            derived.key(),
            self.iv(&derived).as_deref(),
        )))
    }

    /// The whole run from `source` to `out`: header, cipher, base64.
    fn transfer(
        &self,
        source: Source<'_>,
        out: &mut Output,
        tick: &mut dyn FnMut(u64),
        buffer: usize,
        par: &Parallelism,
    ) -> Result<u64> {
        let why = |e| explain(e, self.args, matches!(self.keys, Keys::Password { .. }));
        if self.encrypt {
            let header = self.writes_header().map(|s| salt_header(&s));
            let (crypter, lines) = self.crypter(None)?;
            if self.args.base64 {
                // openssl's base64 BIO holds the header back, so -p's lines come first.
                print(lines)?;
                let mut sink = Base64Writer::new(&mut *out, self.args.one_line);
                if let Some(h) = header {
                    sink.write_all(&h)?;
                }
                let n = process(crypter, source, &mut sink, tick, buffer, par).map_err(why)?;
                sink.finish()?;
                Ok(n)
            } else {
                // openssl writes the header before -p's lines (both on stdout, if it is the output).
                if let Some(h) = header {
                    out.write_all(&h)?;
                    out.flush()?;
                }
                print(lines)?;
                process(crypter, source, &mut *out, tick, buffer, par).map_err(why)
            }
        } else if self.args.base64 {
            let mut input = match source {
                Source::File(f) => Base64Reader::new(Box::new(f) as Box<dyn Read + Send + '_>),
                Source::Reader(r) => Base64Reader::new(Box::new(r) as Box<dyn Read + Send + '_>),
            };
            let header_salt = if self.reads_header() {
                read_header(&mut input)?
            } else {
                None
            };
            let (crypter, lines) = self.crypter(header_salt)?;
            print(lines)?;
            crypter
                .process_with(&mut input, &mut *out, buffer, par, tick)
                .map_err(why)
        } else {
            match source {
                Source::File(f) if self.reads_header() => {
                    use std::os::unix::fs::FileExt;
                    let mut header = [0u8; HEADER];
                    let mut got = 0;
                    while got < HEADER {
                        match f.read_at(&mut header[got..], got as u64) {
                            Ok(0) => break,
                            Ok(n) => got += n,
                            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                            Err(e) => return Err(read_error(e)),
                        }
                    }
                    let salt = check_header(&header[..got])?;
                    let (crypter, lines) = self.crypter(Some(salt))?;
                    print(lines)?;
                    crypter
                        .process_file_from_with(f, HEADER as u64, &mut *out, buffer, par, tick)
                        .map_err(why)
                }
                Source::Reader(r) if self.reads_header() => {
                    let salt = read_header(r)?;
                    let (crypter, lines) = self.crypter(salt)?;
                    print(lines)?;
                    crypter.process_with(r, &mut *out, buffer, par, tick).map_err(why)
                }
                source => {
                    let (crypter, lines) = self.crypter(None)?;
                    print(lines)?;
                    process(crypter, source, &mut *out, tick, buffer, par).map_err(why)
                }
            }
        }
    }
}

/// Whether the data comes from standard input (no -i, or -i -).
fn reads_stdin(args: &AesArgs) -> bool {
    args.io
        .input
        .as_deref()
        .is_none_or(|p| p == std::path::Path::new("-"))
}

/// Runs `crypter` from `source` to `out`, a regular file read by every thread.
fn process(
    crypter: Crypter,
    source: Source<'_>,
    out: impl Write + Send,
    tick: &mut dyn FnMut(u64),
    buffer: usize,
    par: &Parallelism,
) -> Result<u64, Error> {
    match source {
        Source::File(file) => crypter.process_file_with(file, out, buffer, par, tick),
        Source::Reader(input) => crypter.process_with(input, out, buffer, par, tick),
    }
}

/// Reads the 16-byte `Salted__` header from `input` and returns its salt.
fn read_header(input: &mut dyn Read) -> Result<Option<[u8; SALT_LEN]>> {
    let mut header = [0u8; HEADER];
    let mut got = 0;
    while got < HEADER {
        match input.read(&mut header[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(read_error(e)),
        }
    }
    check_header(&header[..got]).map(Some)
}

/// The salt of a whole header, or why `header` is not one.
fn check_header(header: &[u8]) -> Result<[u8; SALT_LEN]> {
    let hint = "the input was not written by `openssl enc` with a salt: give --nosalt (openssl's -nosalt) or                 -S HEX if it was made so, or check that it is whole";
    let Ok(whole) = <&[u8; HEADER]>::try_from(header) else {
        return Err(anyhow!(
            "the input is too short for the `Salted__` header ({} of its 16 bytes)",
            header.len()
        ))
        .hint(hint);
    };
    salt_from_header(whole)
        .ok_or_else(|| anyhow!("bad magic number: the input does not start with `Salted__`"))
        .hint(hint)
}

/// An input read failure, naming base64 when that is what failed.
fn read_error(e: std::io::Error) -> anyhow::Error {
    if let Some(b) = e.get_ref().and_then(|inner| inner.downcast_ref::<Base64Error>()) {
        return anyhow!("the input is not valid base64: {b}").context(HintMsg(
            "-a reads base64 as `openssl enc -a` writes it; drop -a for binary input".to_owned(),
        ));
    }
    anyhow::Error::new(e).context("cannot read the input")
}

/// What -p and -P print; wiped on drop (the key is in it).
type KeyLines = zeroize::Zeroizing<String>;

/// `salt=…`, `key=…`, `iv =…`, in upper-case hex, exactly as `openssl
/// enc -p` prints them (no salt line with -nosalt, no IV for ECB).
fn key_lines(salt: Option<&[u8; SALT_LEN]>, key: &[u8], iv: Option<&[u8]>) -> KeyLines {
    let mut text = KeyLines::default();
    if let Some(s) = salt {
        text.push_str(&format!("salt={}\n", hex::encode_upper(s)));
    }
    text.push_str("key=");
    text.push_str(&zeroize::Zeroizing::new(hex::encode_upper(key)));
    text.push('\n');
    if let Some(iv) = iv {
        text.push_str(&format!("iv ={}\n", hex::encode_upper(iv)));
    }
    text
}

/// Prints -p's lines on stdout (where openssl prints them, whatever -o says).
fn print(lines: Option<KeyLines>) -> Result<()> {
    let Some(text) = lines else {
        return Ok(());
    };
    let mut out = Output::stdout();
    out.write_all(text.as_bytes())?;
    out.commit()
}
