//! The key commands every signature family shares (`keygen`, `convert`,
//! `pubkey`, `sign`, `verify`, `sign-batch`, `verify-batch`), written once:
//! a family adds only its own options (flattened into each command) and
//! its help text. `cmd::family` runs them once for all families.

use std::fmt::Debug;

use super::*;

/// What a signature family adds to the shared key commands.
pub trait FamilyArgs: Debug + 'static {
    /// `keygen`'s choice of key: RSA's `--bits`, ML-DSA's `--params`.
    type Keygen: Args + Debug;
    /// `keygen`'s and `convert`'s private-key encoding (RSA's and ECDSA's `--format`).
    type PrivateFormat: Args + Debug;
    /// `pubkey`'s encoding (RSA's `--format`).
    type PublicFormat: Args + Debug;
    /// How `sign` and `sign-batch` sign.
    type Sign: Args + Debug;
    /// How `verify` checks a signature.
    type Verify: Args + Debug;
    /// How `verify-batch` checks signatures.
    type VerifyBatch: Args + Debug;
    /// The family's help text.
    const HELP: KeyHelp;
}

/// The help text that differs between families: each command's about,
/// then the key arguments'.
#[derive(Debug)]
pub struct KeyHelp {
    pub keygen: &'static str,
    pub convert: &'static str,
    pub pubkey: &'static str,
    pub sign: &'static str,
    pub verify: &'static str,
    pub sign_batch: &'static str,
    pub verify_batch: &'static str,
    /// `--key`: the private-key encodings read.
    pub private_key: &'static str,
    /// `--pub`: the public-key encodings read.
    pub public_key: &'static str,
}

// No options of the family's own (a plain comment: a flattened struct's doc comment would
// become the command's about).
#[derive(Debug, Args)]
pub struct NoOptions {}

#[derive(Debug, Subcommand)]
pub enum KeyCommand<F: FamilyArgs> {
    #[command(about = F::HELP.keygen)]
    Keygen {
        #[command(flatten)]
        key: F::Keygen,
        #[command(flatten)]
        format: F::PrivateFormat,
        /// Write DER instead of PEM
        #[arg(long)]
        der: bool,
        #[command(flatten)]
        encryption: KeyEncryption,
        /// Where to write the key (created with mode 0600, atomically) [default: stdout]
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
        /// Replace an existing -o file (a private key is never replaced silently)
        #[arg(long)]
        force: bool,
    },
    #[command(about = F::HELP.convert)]
    Convert {
        #[command(flatten)]
        format: F::PrivateFormat,
        /// Write DER instead of PEM
        #[arg(long)]
        der: bool,
        #[command(flatten)]
        passin: PassIn,
        #[command(flatten)]
        encryption: KeyEncryption,
        #[command(flatten)]
        io: KeyInOut,
    },
    #[command(about = F::HELP.pubkey)]
    Pubkey {
        #[command(flatten)]
        format: F::PublicFormat,
        /// Write DER instead of PEM
        #[arg(long)]
        der: bool,
        #[command(flatten)]
        passin: PassIn,
        #[command(flatten)]
        io: InOut,
    },
    #[command(about = F::HELP.sign)]
    Sign {
        #[arg(long, value_name = "FILE", help = F::HELP.private_key)]
        key: PathBuf,
        #[command(flatten)]
        passin: PassIn,
        #[command(flatten)]
        options: F::Sign,
        #[command(flatten)]
        io: InOut,
    },
    #[command(about = F::HELP.verify)]
    Verify {
        #[arg(long = "pub", value_name = "FILE", help = F::HELP.public_key)]
        public: PathBuf,
        /// The signature file
        #[arg(long, value_name = "FILE")]
        sig: PathBuf,
        #[command(flatten)]
        options: F::Verify,
        /// The signed message [default: stdin]
        #[arg(short, long, value_name = "FILE")]
        input: Option<PathBuf>,
    },
    #[command(about = F::HELP.sign_batch)]
    SignBatch {
        #[arg(long, value_name = "FILE", help = F::HELP.private_key)]
        key: PathBuf,
        #[command(flatten)]
        passin: PassIn,
        #[command(flatten)]
        options: F::Sign,
        #[command(flatten)]
        list: BatchList,
    },
    #[command(about = F::HELP.verify_batch)]
    VerifyBatch {
        #[arg(long = "pub", value_name = "FILE", help = F::HELP.public_key)]
        public: PathBuf,
        #[command(flatten)]
        options: F::VerifyBatch,
        #[command(flatten)]
        list: BatchList,
    },
}

// A batch's list (a plain comment: a flattened struct's doc comment would become the command's about).
#[derive(Debug, Args)]
pub struct BatchList {
    /// Lines `MSGFILE SIGFILE` (whitespace-separated; blank lines and `#` comments skipped; `-` = stdin)
    #[arg(long, value_name = "FILE")]
    pub list: PathBuf,
}

/// ECDSA P-256.
#[derive(Debug)]
pub struct Ecdsa;

/// RSA.
#[derive(Debug)]
pub struct Rsa;

/// ML-DSA (FIPS 204).
#[derive(Debug)]
pub struct MlDsa;

/// SLH-DSA (FIPS 205).
#[derive(Debug)]
pub struct SlhDsa;

/// Verify-batch's about: the same for every family.
const VERIFY_BATCH: &str =
    "Verify many signatures on all cores: one `OK`/`FAIL` line per list entry, exit 1 if any fails";

/// Sign-batch's about, for families whose signatures are independent of each other.
const SIGN_BATCH: &str = "Sign many messages on all cores: each list line `MSGFILE SIGFILE` writes SIGFILE; \
                          one `OK`/`FAIL` line per entry, exit 1 if any fails";

/// The public-key help of families read only as SPKI.
const SPKI_PUBLIC_KEY: &str = "Public key (SPKI PEM or DER; a private key works too)";

/// The verify about of the families OpenSSL 3.5 signs with `-rawin`.
const RAWIN_VERIFY: &str = "Verify a signature; prints \"Verified OK\" (exit 0) or fails (exit 1) (= openssl pkeyutl -verify -rawin)";

/// The pubkey about of the families written only as SPKI.
const SPKI_PUBKEY: &str = "Write the public key (SPKI) of a private key (= openssl pkey -pubout)";

/// The convert about of the families with a traditional form beside PKCS#8.
const PKCS8_CONVERT: &str = "Rewrite a private key: another encoding, with a password (--passout) or without one \
                             (= openssl pkey, openssl pkcs8 -topk8)";

/// The verify about of the families OpenSSL verifies with `dgst`.
const DGST_VERIFY: &str = "Verify a signature; prints \"Verified OK\" (exit 0) or fails (exit 1)";

impl FamilyArgs for Ecdsa {
    type Keygen = NoOptions;
    type PrivateFormat = EcFormat;
    type PublicFormat = NoOptions;
    type Sign = EcSignature;
    type Verify = EcVerify;
    type VerifyBatch = EcSignature;
    const HELP: KeyHelp = KeyHelp {
        keygen: "Generate a P-256 private key",
        convert: PKCS8_CONVERT,
        pubkey: "Write the public key (SPKI) of a private key",
        sign: "Sign SHA-256 of the message (= openssl dgst -sha256 -sign)",
        verify: DGST_VERIFY,
        sign_batch: SIGN_BATCH,
        verify_batch: VERIFY_BATCH,
        private_key: "Private key: PEM or DER, PKCS#8 or SEC1, encrypted or not",
        public_key: SPKI_PUBLIC_KEY,
    };
}

impl FamilyArgs for Rsa {
    type Keygen = RsaBits;
    type PrivateFormat = RsaFormat;
    type PublicFormat = RsaPublicFormat;
    type Sign = SigOptions;
    type Verify = SigOptions;
    type VerifyBatch = SigOptions;
    const HELP: KeyHelp = KeyHelp {
        keygen: "Generate a private key (e = 65537), primes searched on all threads",
        convert: PKCS8_CONVERT,
        pubkey: "Write the public key of a private key",
        sign: "Sign a message (hashed with --hash); the private operation runs its CRT halves on two threads",
        verify: DGST_VERIFY,
        sign_batch: SIGN_BATCH,
        verify_batch: VERIFY_BATCH,
        private_key: "Private key: PEM or DER, PKCS#8 or PKCS#1, encrypted or not",
        public_key: "Public key (SPKI or PKCS#1, PEM or DER; a private key works too)",
    };
}

impl FamilyArgs for MlDsa {
    type Keygen = MlDsaParams;
    type PrivateFormat = NoOptions;
    type PublicFormat = NoOptions;
    type Sign = SigContext;
    type Verify = SigContext;
    type VerifyBatch = SigContext;
    const HELP: KeyHelp = KeyHelp {
        keygen: "Generate a private key (= openssl genpkey -algorithm ML-DSA-65); PKCS#8 seed form",
        convert: "Rewrite a private key: to the seed form, DER, with a password (--passout) or without one \
                  (= openssl pkey)",
        pubkey: SPKI_PUBKEY,
        sign: "Sign a message, hedged (= openssl pkeyutl -sign -rawin); the message is read once, never held whole",
        verify: RAWIN_VERIFY,
        sign_batch: SIGN_BATCH,
        verify_batch: VERIFY_BATCH,
        private_key: "Private key: PEM or DER PKCS#8 (seed, expanded or both), encrypted or not",
        public_key: SPKI_PUBLIC_KEY,
    };
}

impl FamilyArgs for SlhDsa {
    type Keygen = SlhDsaParams;
    type PrivateFormat = NoOptions;
    type PublicFormat = NoOptions;
    type Sign = SlhSign;
    type Verify = SlhVerify;
    type VerifyBatch = SlhVerify;
    const HELP: KeyHelp = KeyHelp {
        keygen: "Generate a private key (= openssl genpkey -algorithm SLH-DSA-SHA2-128s); PKCS#8",
        convert: "Rewrite a private key: DER, with a password (--passout) or without one (= openssl pkey)",
        pubkey: SPKI_PUBKEY,
        sign: "Sign a message, hedged (= openssl pkeyutl -sign -rawin); pure signing holds the message \
               (at most 64 MiB), --prehash streams it",
        verify: RAWIN_VERIFY,
        // One signature's trees already take every core.
        sign_batch: "Sign many messages: each list line `MSGFILE SIGFILE` writes SIGFILE; one `OK`/`FAIL` \
                     line per entry, exit 1 if any fails",
        verify_batch: VERIFY_BATCH,
        private_key: "Private key: PEM or DER PKCS#8, encrypted or not; its top tree is rebuilt (checked) \
                      on --threads, as keygen builds it",
        public_key: SPKI_PUBLIC_KEY,
    };
}
