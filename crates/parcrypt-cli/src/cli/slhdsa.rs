//! `slh-dsa`: its subcommands, as `openssl genpkey/pkey/pkeyutl` 3.5 name
//! what they do (`-rawin` signatures, a context string), and HashSLH-DSA's
//! prehash.

use parcrypt::slhdsa::{ParameterSet, PreHash};

use super::*;

#[derive(Debug, Subcommand)]
pub enum SlhDsaCommand {
    /// Generate a private key (= openssl genpkey -algorithm SLH-DSA-SHA2-128s); PKCS#8
    Keygen {
        /// The parameter set
        #[arg(long, value_name = "NAME", value_parser = library_enum::<ParameterSet>(SLH_DSA_SETS), default_value = "SLH-DSA-SHA2-128s")]
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
    /// Rewrite a private key: DER, with a password (--passout) or without one (= openssl pkey)
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
    /// Sign a message, hedged (= openssl pkeyutl -sign -rawin); pure signing holds the message (at most 64 MiB), --prehash streams it
    Sign {
        /// Private key: PEM or DER PKCS#8, encrypted or not
        #[arg(long, value_name = "FILE")]
        key: PathBuf,
        #[command(flatten)]
        passin: PassIn,
        #[command(flatten)]
        context: SigContext,
        #[command(flatten)]
        prehash: SlhPrehash,
        /// Sign deterministically (opt_rand = PK.seed): the same message always gets the same signature
        #[arg(long)]
        deterministic: bool,
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
        #[command(flatten)]
        prehash: SlhPrehash,
        /// The signed message [default: stdin]
        #[arg(short, long, value_name = "FILE")]
        input: Option<PathBuf>,
    },
    /// Sign many messages: each list line `MSGFILE SIGFILE` writes SIGFILE; one `OK`/`FAIL` line per entry, exit 1 if any fails
    SignBatch {
        /// Private key: PEM or DER PKCS#8, encrypted or not
        #[arg(long, value_name = "FILE")]
        key: PathBuf,
        #[command(flatten)]
        passin: PassIn,
        #[command(flatten)]
        context: SigContext,
        #[command(flatten)]
        prehash: SlhPrehash,
        /// Sign deterministically (opt_rand = PK.seed)
        #[arg(long)]
        deterministic: bool,
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
        #[command(flatten)]
        prehash: SlhPrehash,
        /// Lines `MSGFILE SIGFILE` (whitespace-separated; blank lines and `#` comments skipped; `-` = stdin)
        #[arg(long, value_name = "FILE")]
        list: PathBuf,
    },
}

// HashSLH-DSA (a plain comment: a flattened struct's doc comment would become the command's about).
#[derive(Debug, Args)]
pub struct SlhPrehash {
    /// HashSLH-DSA: sign the message's digest (FIPS 205 §10.2.2), streamed, for files of any size [default: pure SLH-DSA]
    #[arg(long, value_name = "HASH", value_parser = library_enum::<PreHash>(PREHASHES))]
    pub prehash: Option<PreHash>,
}

/// `--prehash`: the hashes FIPS 205 §10.2.2 names.
const PREHASHES: &[(&str, &str)] = &[("sha256", ""), ("sha512", ""), ("shake128", ""), ("shake256", "")];

/// `--params`: [`ParameterSet`]'s names.
const SLH_DSA_SETS: &[(&str, &str)] = &[
    (
        "SLH-DSA-SHA2-128s",
        "NIST category 1, small: 32-byte public keys, 7856-byte signatures, slow signing",
    ),
    ("SLH-DSA-SHA2-128f", "category 1, fast: 17088-byte signatures"),
    ("SLH-DSA-SHA2-192s", "category 3, small: 16224-byte signatures"),
    ("SLH-DSA-SHA2-192f", "category 3, fast: 35664-byte signatures"),
    ("SLH-DSA-SHA2-256s", "category 5, small: 29792-byte signatures"),
    ("SLH-DSA-SHA2-256f", "category 5, fast: 49856-byte signatures"),
    ("SLH-DSA-SHAKE-128s", "as SHA2-128s, over SHAKE256"),
    ("SLH-DSA-SHAKE-128f", "as SHA2-128f, over SHAKE256"),
    ("SLH-DSA-SHAKE-192s", "as SHA2-192s, over SHAKE256"),
    ("SLH-DSA-SHAKE-192f", "as SHA2-192f, over SHAKE256"),
    ("SLH-DSA-SHAKE-256s", "as SHA2-256s, over SHAKE256"),
    ("SLH-DSA-SHAKE-256f", "as SHA2-256f, over SHAKE256"),
];
