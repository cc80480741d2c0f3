//! `ecdsa` and `rsa`: their options, key and signature formats, and the
//! key-password options every family shares.

use parcrypt::pkcs8;

use super::*;

/// `parcrypt ecdsa`: the family's key commands.
pub type EcdsaCommand = KeyCommand<Ecdsa>;

// ECDSA's private-key encoding (a plain comment: a flattened struct's doc comment would become
// the command's about).
#[derive(Debug, Args)]
pub struct EcFormat {
    /// Key encoding: PKCS#8 (`BEGIN PRIVATE KEY`) or SEC1 (`BEGIN EC PRIVATE KEY`)
    #[arg(long, value_enum, default_value_t = EcPrivateFormat::Pkcs8)]
    pub format: EcPrivateFormat,
}

// An ECDSA signature's encoding.
#[derive(Debug, Args)]
pub struct EcSignature {
    /// Signature encoding
    #[arg(long, value_enum, default_value_t = SigFormat::Der)]
    pub sig_format: SigFormat,
}

// How `ecdsa verify` checks one signature.
#[derive(Debug, Args)]
pub struct EcVerify {
    #[command(flatten)]
    pub sig: EcSignature,
    /// How to compute u1·G + u2·Q
    #[arg(long, value_enum, default_value_t = VerifyMethod::Auto)]
    pub method: VerifyMethod,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum EcPrivateFormat {
    /// PKCS#8 PrivateKeyInfo (`openssl genpkey`)
    Pkcs8,
    /// SEC1 ECPrivateKey (`openssl ecparam -genkey`)
    Sec1,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SigFormat {
    /// DER Ecdsa-Sig-Value, what openssl writes
    Der,
    /// Fixed-width r‖s, 64 bytes (IEEE P1363, JOSE)
    Fixed,
}

/// Not the library's `VerifyStrategy`: `separate` is its `Split` run on one
/// thread, a schedule rather than an algorithm.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum VerifyMethod {
    /// The fastest for one signature (joint)
    Auto,
    /// u1·G + u2·Q in one multiplication
    Joint,
    /// u1·G and u2·Q on two threads (the JCE paper's)
    Split,
    /// u1·G then u2·Q on one thread (the paper's baseline)
    Separate,
}

#[derive(Debug, Subcommand)]
pub enum RsaCommand {
    #[command(flatten)]
    Key(KeyCommand<Rsa>),
    /// RSAES-OAEP (SHA-256) encryption; longer messages become independent blocks (study only)
    Encrypt {
        /// Public key (SPKI or PKCS#1, PEM or DER)
        #[arg(long = "pub", value_name = "FILE")]
        public: PathBuf,
        /// Refuse messages longer than one block (what `openssl pkeyutl` can read)
        #[arg(long)]
        single_block: bool,
        #[command(flatten)]
        io: InOut,
    },
    /// RSAES-OAEP (SHA-256) decryption of one block or of `encrypt`'s block sequence
    Decrypt {
        /// Private key: PEM or DER, PKCS#8 or PKCS#1, encrypted or not
        #[arg(long, value_name = "FILE")]
        key: PathBuf,
        #[command(flatten)]
        passin: PassIn,
        #[command(flatten)]
        io: InOut,
    },
}

// `rsa keygen`'s modulus size.
#[derive(Debug, Args)]
pub struct RsaBits {
    /// Modulus size in bits: 2048, 3072, 4096 … 16384 (multiples of 128; 1024 only for study)
    #[arg(long, value_name = "N", default_value_t = 3072)]
    pub bits: usize,
}

// RSA's private-key encoding.
#[derive(Debug, Args)]
pub struct RsaFormat {
    /// Key encoding: PKCS#8 (`BEGIN PRIVATE KEY`) or PKCS#1 (`BEGIN RSA PRIVATE KEY`)
    #[arg(long, value_enum, default_value_t = PrivateFormat::Pkcs8)]
    pub format: PrivateFormat,
}

// RSA's public-key encoding.
#[derive(Debug, Args)]
pub struct RsaPublicFormat {
    /// Key encoding: SPKI (`BEGIN PUBLIC KEY`, what openssl writes) or PKCS#1 (`BEGIN RSA PUBLIC KEY`)
    #[arg(long, value_enum, default_value_t = PublicFormat::Spki)]
    pub format: PublicFormat,
}

#[derive(Debug, Args)]
pub struct SigOptions {
    /// Signature scheme: PSS (salt = digest length) or PKCS#1 v1.5
    #[arg(long, value_parser = library_enum::<Scheme>(SCHEMES), default_value_t = Scheme::Pss)]
    pub scheme: Scheme,
    /// Message digest
    #[arg(long, value_parser = library_enum::<Algorithm>(SIG_HASHES), default_value_t = Algorithm::Sha256)]
    pub hash: Algorithm,
}

/// `--scheme`: [`Scheme`]'s names.
const SCHEMES: &[(&str, &str)] = &[
    (
        "pss",
        "RSASSA-PSS, MGF1 with the same hash (openssl: -sigopt rsa_padding_mode:pss)",
    ),
    ("pkcs1", "RSASSA-PKCS1-v1_5 (openssl dgst's default)"),
];

/// `--hash`: the names of [`parcrypt::digest::Algorithm`] a
/// signature may use; the legacy SHA-1 is not offered.
pub(super) const SIG_HASHES: &[(&str, &str)] = &[("sha256", ""), ("sha384", ""), ("sha512", "")];

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PrivateFormat {
    /// PKCS#8 PrivateKeyInfo (`openssl genpkey`'s default)
    Pkcs8,
    /// PKCS#1 RSAPrivateKey (OpenSSL's "traditional" format)
    Pkcs1,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PublicFormat {
    /// X.509 SubjectPublicKeyInfo
    Spki,
    /// PKCS#1 RSAPublicKey
    Pkcs1,
}

// The password of an encrypted private key being read (a plain comment: a flattened struct's
// doc comment would become the command's about).
#[derive(Debug, Args)]
pub struct PassIn {
    /// Password of an encrypted private key, as openssl's -passin: pass:TEXT (visible to other
    /// users: warned), env:VAR, file:PATH (its first line), fd:N, stdin [default: asked on the
    /// terminal when the key is encrypted]
    #[arg(long, value_name = "SOURCE", value_parser = parse_pass)]
    pub passin: Option<PassSource>,
    /// Read an encrypted key whose password derivation costs more than openssl allows (up to
    /// 10000000 PBKDF2 iterations, 1 GiB and N·r·p = 2^27 of scrypt, ~40 s) [default: at most
    /// 2000000 iterations, 32 MiB and N·r·p = 2^21 of scrypt, ~1 s]
    #[arg(long)]
    pub allow_costly_kdf: bool,
}

impl PassIn {
    /// The key-derivation limits `--allow-costly-kdf` chooses.
    pub fn kdf_limits(&self) -> pkcs8::KdfLimits {
        if self.allow_costly_kdf {
            pkcs8::KdfLimits::COSTLY
        } else {
            pkcs8::KdfLimits::DEFAULT
        }
    }
}

// How a private key being written is encrypted.
#[derive(Debug, Args)]
pub struct KeyEncryption {
    /// Encrypt the key (PKCS#8 `ENCRYPTED PRIVATE KEY`, as openssl genpkey -aes256 writes it) with
    /// the password from SOURCE, as openssl's -passout: pass:TEXT (warned), env:VAR, file:PATH,
    /// fd:N, stdin [default: not encrypted; asked on the terminal with --cipher, --iter or --scrypt]
    #[arg(long, value_name = "SOURCE", value_parser = parse_pass)]
    pub passout: Option<PassSource>,
    /// The cipher of an encrypted key [default: aes-256-cbc]
    #[arg(long, value_name = "NAME", value_parser = library_enum::<pkcs8::Cipher>(KEY_CIPHERS))]
    pub cipher: Option<pkcs8::Cipher>,
    /// PBKDF2-HMAC-SHA256 iterations of an encrypted key, 1 to 2000000 (what a reader allows
    /// without --allow-costly-kdf) [default: 2048, openssl's]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=pkcs8::MAX_ITERATIONS as i64))]
    pub iter: Option<u32>,
    /// Derive the encrypted key's key with scrypt (N = 2^14, r = 8, p = 1, as openssl pkcs8 -scrypt)
    /// instead of PBKDF2
    #[arg(long, conflicts_with = "iter")]
    pub scrypt: bool,
}

impl KeyEncryption {
    /// Whether any flag asks for an encrypted key.
    pub fn wanted(&self) -> bool {
        self.passout.is_some() || self.cipher.is_some() || self.iter.is_some() || self.scrypt
    }
}

/// `--cipher` of an encrypted key: [`pkcs8::Cipher`]'s names.
const KEY_CIPHERS: &[(&str, &str)] = &[("aes-128-cbc", ""), ("aes-192-cbc", ""), ("aes-256-cbc", "")];

// The key to read and where the new one goes.
#[derive(Debug, Args)]
pub struct KeyInOut {
    /// The private key to read [default: stdin]
    #[arg(short, long, value_name = "FILE")]
    pub input: Option<PathBuf>,
    /// Where to write the key (created with mode 0600, atomically) [default: stdout]
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Replace an existing -o file (a private key is never replaced silently)
    #[arg(long)]
    pub force: bool,
}
