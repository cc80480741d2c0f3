//! `ml-dsa`: its subcommands, as `openssl genpkey/pkey/pkeyutl` 3.5 name
//! what they do (`-rawin` signatures, a context string).

use parcrypt::mldsa::ParameterSet;

use super::*;

#[derive(Debug, Subcommand)]
pub enum MlDsaCommand {
    /// Generate a private key (= openssl genpkey -algorithm ML-DSA-65); PKCS#8 seed form
    Keygen {
        /// The parameter set
        #[arg(long, value_name = "NAME", value_parser = library_enum::<ParameterSet>(ML_DSA_SETS), default_value = "ML-DSA-65")]
        params: ParameterSet,
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
    /// Rewrite a private key: to the seed form, DER, with a password (--passout) or without one (= openssl pkey)
    Convert {
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
    /// Write the public key (SPKI) of a private key (= openssl pkey -pubout)
    Pubkey {
        /// Write DER instead of PEM
        #[arg(long)]
        der: bool,
        #[command(flatten)]
        passin: PassIn,
        #[command(flatten)]
        io: InOut,
    },
    /// Sign a message, hedged (= openssl pkeyutl -sign -rawin); the message is read once, never held whole
    Sign {
        /// Private key: PEM or DER PKCS#8 (seed, expanded or both), encrypted or not
        #[arg(long, value_name = "FILE")]
        key: PathBuf,
        #[command(flatten)]
        passin: PassIn,
        #[command(flatten)]
        context: SigContext,
        #[command(flatten)]
        io: InOut,
    },
    /// Verify a signature; prints "Verified OK" (exit 0) or fails (exit 1) (= openssl pkeyutl -verify -rawin)
    Verify {
        /// Public key (SPKI PEM or DER; a private key works too)
        #[arg(long = "pub", value_name = "FILE")]
        public: PathBuf,
        /// The signature file
        #[arg(long, value_name = "FILE")]
        sig: PathBuf,
        #[command(flatten)]
        context: SigContext,
        /// The signed message [default: stdin]
        #[arg(short, long, value_name = "FILE")]
        input: Option<PathBuf>,
    },
    /// Sign many messages on all cores: each list line `MSGFILE SIGFILE` writes SIGFILE; one `OK`/`FAIL` line per entry, exit 1 if any fails
    SignBatch {
        /// Private key: PEM or DER PKCS#8, encrypted or not
        #[arg(long, value_name = "FILE")]
        key: PathBuf,
        #[command(flatten)]
        passin: PassIn,
        #[command(flatten)]
        context: SigContext,
        /// Lines `MSGFILE SIGFILE` (whitespace-separated; blank lines and `#` comments skipped; `-` = stdin)
        #[arg(long, value_name = "FILE")]
        list: PathBuf,
    },
    /// Verify many signatures on all cores: one `OK`/`FAIL` line per list entry, exit 1 if any fails
    VerifyBatch {
        /// Public key (SPKI PEM or DER; a private key works too)
        #[arg(long = "pub", value_name = "FILE")]
        public: PathBuf,
        #[command(flatten)]
        context: SigContext,
        /// Lines `MSGFILE SIGFILE` (whitespace-separated; blank lines and `#` comments skipped; `-` = stdin)
        #[arg(long, value_name = "FILE")]
        list: PathBuf,
    },
}

// The context string a signature is bound to (a plain comment: a flattened struct's doc
// comment would become the command's about).
#[derive(Debug, Args)]
pub struct SigContext {
    /// The context string, 0 to 255 bytes (= openssl pkeyutl -pkeyopt context-string:TEXT) [default: empty]
    #[arg(long, value_name = "TEXT", conflicts_with = "context_file")]
    pub context: Option<String>,
    /// The context string as the bytes of FILE (any bytes, at most 255)
    #[arg(long, value_name = "FILE")]
    pub context_file: Option<PathBuf>,
}

/// `--params`: [`ParameterSet`]'s names.
const ML_DSA_SETS: &[(&str, &str)] = &[
    (
        "ML-DSA-44",
        "NIST category 2: 1312-byte public keys, 2420-byte signatures",
    ),
    (
        "ML-DSA-65",
        "category 3: 1952-byte public keys, 3309-byte signatures",
    ),
    (
        "ML-DSA-87",
        "category 5: 2592-byte public keys, 4627-byte signatures",
    ),
];
