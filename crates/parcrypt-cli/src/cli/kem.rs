//! `ml-kem`: key encapsulation, as `openssl genpkey`/`pkey`/`pkeyutl
//! -encap/-decap` 3.5 spell it.

use parcrypt::mlkem;

use super::*;

/// `--params`: [`mlkem::Params`]'s names, as OpenSSL 3.5 spells them.
const ML_KEM_PARAMS: &[(&str, &str)] = &[
    ("ML-KEM-512", "NIST category 1"),
    ("ML-KEM-768", "NIST category 3, the recommended default"),
    ("ML-KEM-1024", "NIST category 5"),
];

#[derive(Debug, Subcommand)]
pub enum KemCommand {
    /// Generate a private key (= openssl genpkey -algorithm ML-KEM-768): PKCS#8 in the seed form,
    /// as OpenSSL 3.5 and pyca write it
    Keygen {
        /// The parameter set
        #[arg(long, value_name = "NAME", default_value = "ML-KEM-768",
              value_parser = library_enum::<mlkem::Params>(ML_KEM_PARAMS))]
        params: mlkem::Params,
        /// Write DER instead of PEM
        #[arg(long)]
        der: bool,
        #[command(flatten)]
        encryption: KeyEncryption,
        /// Where to write the key (mode 0600, atomically) [default: stdout]
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
        /// Replace an existing -o file (a private key is never replaced silently)
        #[arg(long)]
        force: bool,
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
    /// Make a shared secret and its ciphertext for a public key (= openssl pkeyutl -encap)
    Encap {
        /// Public key (SPKI PEM or DER; a private key works too)
        #[arg(long = "pub", value_name = "FILE")]
        public: PathBuf,
        /// Where to write the ciphertext, atomically [default: stdout]
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
        /// Where to write the 32-byte shared secret (mode 0600, atomically; never standard output)
        #[arg(long, value_name = "FILE")]
        secret: PathBuf,
    },
    /// Recover the shared secret of a ciphertext with the private key (= openssl pkeyutl -decap)
    ///
    /// A ciphertext of the right length that was not made for the key gives a pseudorandom secret,
    /// not an error (FIPS 203's implicit rejection): a mismatch shows when the secret fails to
    /// open what it protects. A ciphertext of the wrong length is refused, and no secret file is
    /// written.
    Decap {
        /// Private key: PKCS#8 PEM or DER (seed, expanded or both form), encrypted or not
        #[arg(long, value_name = "FILE")]
        key: PathBuf,
        #[command(flatten)]
        passin: PassIn,
        /// The ciphertext [default: stdin]
        #[arg(short, long, value_name = "FILE")]
        input: Option<PathBuf>,
        /// Where to write the 32-byte shared secret (mode 0600, atomically; never standard output)
        #[arg(long, value_name = "FILE")]
        secret: PathBuf,
    },
}
