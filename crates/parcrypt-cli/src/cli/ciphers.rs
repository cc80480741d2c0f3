//! `aes`, `rc4` and `parc4`: the OpenSSL-compatible raw cipher commands.

use super::*;

#[derive(Debug, Args)]
pub struct Rc4Args {
    /// Required: acknowledge that RC4 is broken and offers no integrity
    #[arg(long)]
    pub hazmat: bool,
    /// Key as hex, 5 to 256 bytes (10 to 512 digits)
    #[arg(long, value_name = "HEX")]
    pub key: String,
    #[command(flatten)]
    pub io: InOut,
}

#[derive(Debug, Args)]
pub struct Parc4Args {
    /// Required: acknowledge that PARC4 is RC4-based and offers no integrity
    #[arg(long)]
    pub hazmat: bool,
    /// Key as hex, 16 to 256 bytes
    #[arg(long, value_name = "HEX")]
    pub key: String,
    /// Nonce as hex, 8 to 64 bytes; never reuse one with the same key
    #[arg(long, value_name = "HEX")]
    pub nonce: String,
    /// Block size, 1 byte to 16MiB: every block gets its own RC4 key (e.g. 32, 4KiB, 64KiB, 1MiB)
    #[arg(long, value_name = "BYTES", default_value = "64KiB", value_parser = parse_block_size)]
    pub block_size: usize,
    #[command(flatten)]
    pub io: InOut,
}

// `parcrypt aes`: its help is the `Aes` variant's doc comment (cli/mod.rs).
#[derive(Debug, Args)]
#[command(group(ArgGroup::new("algorithm").required(true).args(["mode", "cipher"])))]
pub struct AesArgs {
    #[arg(value_enum)]
    pub direction: Direction,
    /// Block cipher mode (with --key, whose length picks AES-128, -192 or -256)
    #[arg(long, value_enum)]
    pub mode: Option<AesMode>,
    /// openssl's cipher name: aes-128-cbc, aes-192-ctr, aes-256-ecb, … (aes128, aes192, aes256 =
    /// CBC); the AEAD modes are refused, as `openssl enc` refuses them
    #[arg(long, value_name = "NAME", value_parser = parse_cipher)]
    pub cipher: Option<CipherName>,
    /// Key as hex: 32, 48 or 64 digits pick AES-128, -192 or -256 [default: derived from a
    /// password]
    #[arg(long, value_name = "HEX", conflicts_with_all = PASSWORD_FLAGS)]
    pub key: Option<String>,
    /// CBC: the 16-byte IV; CTR: the 16-byte initial counter block; GCM: the 12-byte nonce (hex).
    /// With a password, it replaces the derived IV
    #[arg(long, value_name = "HEX")]
    pub iv: Option<String>,
    /// GCM: additional authenticated data (hex), bound to the tag but not encrypted
    #[arg(long, value_name = "HEX")]
    pub aad: Option<String>,
    /// ECB/CBC: no PKCS#7 padding (input must be whole 16-byte blocks)
    #[arg(long)]
    pub no_pad: bool,
    #[command(flatten)]
    pub password: PasswordArgs,
    /// Base64: encrypt writes it (64-character lines), decrypt reads it (openssl's -a)
    #[arg(short = 'a', long = "base64")]
    pub base64: bool,
    /// With -a: base64 on one line, no newline at all (openssl's -A)
    #[arg(short = 'A', long = "base64-one-line", requires = "base64")]
    pub one_line: bool,
    #[command(flatten)]
    pub io: InOut,
}

/// The flags of a password-derived key, which --key excludes.
const PASSWORD_FLAGS: [&str; 8] = [
    "pass",
    "pbkdf2",
    "iter",
    "md",
    "salt",
    "nosalt",
    "print_key",
    "print_key_only",
];

// `openssl enc`'s password flags (a plain comment: a flattened struct's doc comment would
// become the command's about).
#[derive(Debug, Args)]
pub struct PasswordArgs {
    /// Where the password comes from, as openssl's -pass: pass:TEXT (visible to other users:
    /// warned), env:VAR, file:PATH (its first line), fd:N (the first line read from descriptor
    /// N), stdin (its first line) [default: asked on the terminal]
    #[arg(long, value_name = "SOURCE", value_parser = parse_pass)]
    pub pass: Option<PassSource>,
    /// Derive the key and IV with PBKDF2-HMAC (openssl's -pbkdf2); without it (or --iter), the
    /// deprecated EVP_BytesToKey, with a warning
    #[arg(long)]
    pub pbkdf2: bool,
    /// PBKDF2 iterations, 1 to 2147483647; implies --pbkdf2 [default: 10000, openssl's]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=i64::from(i32::MAX)))]
    pub iter: Option<u32>,
    /// The digest of the key derivation (openssl's -md) [default: sha256]
    #[arg(long, value_name = "NAME", value_parser = library_enum::<KdfDigest>(KDF_DIGESTS))]
    pub md: Option<KdfDigest>,
    /// The 8-byte salt as 16 hex digits (openssl's -S: fewer are padded with zero bytes, more
    /// cut, each with openssl's warning); as openssl 3 does, the output then has no `Salted__`
    /// header, and decryption reads none [default: random, written in the header]
    #[arg(short = 'S', long = "salt", value_name = "HEX", value_parser = parse_salt)]
    pub salt: Option<SaltHex>,
    /// No salt and no `Salted__` header (openssl's -nosalt): the same password always gives the
    /// same key and IV
    #[arg(long, visible_alias = "no-salt", conflicts_with = "salt")]
    pub nosalt: bool,
    /// Print the salt, key and IV on stdout, as openssl's -p does, then encrypt or decrypt
    #[arg(short = 'p', long = "print-key")]
    pub print_key: bool,
    /// Print the salt, key and IV, as openssl's -P does, and stop
    #[arg(short = 'P', long = "print-key-only", conflicts_with = "print_key")]
    pub print_key_only: bool,
}

/// `--md`: [`KdfDigest`]'s names.
const KDF_DIGESTS: &[(&str, &str)] = &[
    ("md5", ""),
    ("sha1", ""),
    ("sha224", ""),
    ("sha256", ""),
    ("sha384", ""),
    ("sha512", ""),
];

/// A `--pass` source, in openssl's forms. `Debug` never shows the password.
#[derive(Clone)]
pub enum PassSource {
    /// `pass:TEXT`.
    Text(zeroize::Zeroizing<String>),
    /// `env:VAR`.
    Env(std::ffi::OsString),
    /// `file:PATH`.
    File(PathBuf),
    /// `fd:N`.
    Fd(u32),
    /// `stdin`.
    Stdin,
    /// None of those: refused by the command, which (unlike a parser
    /// error) does not repeat the value, as it may be a password given
    /// without its `pass:`.
    Unknown,
}

impl std::fmt::Debug for PassSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PassSource::Text(_) => f.write_str("pass:…"),
            PassSource::Env(v) => write!(f, "env:{}", v.to_string_lossy()),
            PassSource::File(p) => write!(f, "file:{}", p.display()),
            PassSource::Fd(n) => write!(f, "fd:{n}"),
            PassSource::Stdin => f.write_str("stdin"),
            PassSource::Unknown => f.write_str("?"),
        }
    }
}

impl PassSource {
    /// Whether the password would be read from standard input (`stdin`, or
    /// `fd:0`, the same descriptor).
    pub fn reads_stdin(&self) -> bool {
        matches!(self, PassSource::Stdin | PassSource::Fd(0))
    }
}

/// A password source as openssl's `-pass`/`-passin`/`-passout` spell it.
/// Anything unknown parses (the command refuses it without repeating it: it
/// may be a password); `fd:1` and `fd:2` do not: reopened for reading, an
/// output pipe would wait for ever and a terminal would be read as input.
pub(super) fn parse_pass(s: &str) -> Result<PassSource, String> {
    if let Some(text) = s.strip_prefix("pass:") {
        Ok(PassSource::Text(zeroize::Zeroizing::new(text.to_owned())))
    } else if let Some(var) = s.strip_prefix("env:") {
        Ok(PassSource::Env(var.into()))
    } else if let Some(path) = s.strip_prefix("file:") {
        Ok(PassSource::File(path.into()))
    } else if let Some(fd) = s.strip_prefix("fd:") {
        match fd.parse() {
            Ok(n @ (1 | 2)) => Err(format!(
                "fd:{n} is {}: a password cannot be read from it (give a descriptor open for \
                 reading, e.g. fd:3 with `3< FILE`, or env:VAR, file:PATH, stdin)",
                if n == 1 {
                    "standard output"
                } else {
                    "standard error"
                }
            )),
            Ok(n) => Ok(PassSource::Fd(n)),
            Err(_) => Ok(PassSource::Unknown),
        }
    } else if s == "stdin" {
        Ok(PassSource::Stdin)
    } else {
        Ok(PassSource::Unknown)
    }
}

/// A `-S` salt as openssl reads its hex (`set_hex`): 16 digits fill the 8
/// bytes; fewer are padded with zero bytes, more are cut to the first 16,
/// each with openssl's warning (`fitted`), shown when the salt is used; a
/// digit that is not hex is refused, as openssl refuses it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SaltHex {
    pub bytes: [u8; 8],
    pub fitted: Option<&'static str>,
}

fn parse_salt(s: &str) -> Result<SaltHex, String> {
    let digits = s.trim().as_bytes();
    let fitted = match digits.len() {
        16 => None,
        n if n > 16 => Some("hex string is too long, ignoring excess"),
        _ => Some("hex string is too short, padding with zero bytes to length"),
    };
    let mut bytes = [0u8; 8];
    for (i, &digit) in digits.iter().take(16).enumerate() {
        let nibble = (digit as char)
            .to_digit(16)
            .ok_or_else(|| format!("{s:?} is not a salt: give 16 hex digits (8 bytes)"))?
            as u8;
        // openssl's order: the high nibble first, so an odd count ends in one.
        bytes[i / 2] |= if i % 2 == 0 { nibble << 4 } else { nibble };
    }
    Ok(SaltHex { bytes, fitted })
}

/// An `openssl enc` cipher name that parcrypt runs: AES with this key size
/// in this mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CipherName {
    pub bits: usize,
    pub mode: AesMode,
}

impl CipherName {
    /// openssl's name for it, in its case: `AES-256-CBC`.
    pub fn upper(self) -> String {
        let mode = match self.mode {
            AesMode::Ecb => "ECB",
            AesMode::Cbc => "CBC",
            AesMode::Ctr => "CTR",
            AesMode::Gcm => "GCM",
        };
        format!("AES-{}-{mode}", self.bits)
    }
}

/// openssl's AES cipher names, any case: `aes-128-cbc`, `aes-256-ctr`,
/// `aes-192-ecb`, `aes128` (CBC, as in openssl). GCM is refused as `openssl
/// enc` refuses it; the other modes openssl has (CFB, OFB, XTS, …) are not
/// parcrypt's.
fn parse_cipher(s: &str) -> Result<CipherName, String> {
    let name = s.trim().trim_start_matches('-').to_ascii_lowercase();
    let (bits, mode) = match name.strip_prefix("aes") {
        Some(rest @ ("128" | "192" | "256")) => (rest, "cbc"),
        Some(rest) => match rest.strip_prefix('-').and_then(|r| r.split_once('-')) {
            Some((bits @ ("128" | "192" | "256"), mode)) => (bits, mode),
            _ => ("", ""),
        },
        None => match name.strip_prefix("id-aes") {
            Some(rest) if rest.ends_with("-gcm") => ("", "gcm"),
            _ => ("", ""),
        },
    };
    let mode = match mode {
        "cbc" => AesMode::Cbc,
        "ctr" => AesMode::Ctr,
        "ecb" => AesMode::Ecb,
        "gcm" | "ccm" | "ocb" | "siv" | "gcm-siv" => {
            return Err(format!(
                "{s} is an AEAD cipher, and `openssl enc` refuses those (\"AEAD ciphers not supported\"): \
                 use --mode gcm --key HEX --iv HEX for one GCM message, or `parcrypt encrypt` for \
                 authenticated files with a passphrase"
            ));
        }
        _ => {
            return Err(format!(
                "{s} is not one of parcrypt's ciphers: aes-128-cbc, aes-192-cbc, aes-256-cbc, \
                 aes-128-ctr, …, aes-256-ecb (aes128, aes192, aes256 are CBC)"
            ));
        }
    };
    let bits = bits.parse().map_err(|_| format!("{s}: no key size"))?;
    Ok(CipherName { bits, mode })
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Direction {
    Encrypt,
    Decrypt,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum AesMode {
    /// ☠ Electronic codebook: equal blocks give equal ciphertext
    Ecb,
    /// Cipher block chaining (decryption is parallel, encryption serial)
    Cbc,
    /// Counter mode, 128-bit big-endian counter
    Ctr,
    /// Galois/counter mode (authenticated): output is ciphertext ‖ 16-byte tag
    Gcm,
}
