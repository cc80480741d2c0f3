//! Command-line definitions (DESIGN.md §5).

use std::path::PathBuf;

use std::str::FromStr;

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{Args, Parser, Subcommand, ValueEnum};
use parcrypt::UnknownName;
use parcrypt::digest::Algorithm;
use parcrypt::par::{Parallelism, Strategy};
use parcrypt::rsa::Scheme;

/// Multi-core cryptography: AES and friends on every core, byte-compatible with OpenSSL.
#[derive(Debug, Parser)]
#[command(name = "parcrypt", version, about, max_term_width = 100)]
pub struct Cli {
    #[command(flatten)]
    pub global: Global,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Args)]
pub struct Global {
    /// Worker threads; 0 = every available core [default: available cores]
    #[arg(long, global = true, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: Option<u16>,
    /// How work is scheduled across threads
    #[arg(long, global = true, value_parser = library_enum::<Strategy>(STRATEGIES), default_value_t = Strategy::WorkStealing)]
    pub strategy: Strategy,
}

impl Global {
    pub fn parallelism(&self) -> Parallelism {
        let threads = self
            .threads
            .map_or_else(parcrypt::par::available_threads, usize::from);
        Parallelism::new(threads, self.strategy)
    }
}

/// A clap value parser for one of the library's enums, so the CLI does not
/// declare them again: clap checks the spelling against `values` (name and
/// help line: `--help` lists them, a typo is a usage error naming them),
/// then the library's `FromStr` makes the value. An empty help line gives
/// the value none (`--help` then lists the names on one line).
fn library_enum<E>(values: &'static [(&'static str, &'static str)]) -> impl TypedValueParser<Value = E>
where
    E: FromStr<Err = UnknownName> + Clone + Send + Sync + 'static,
{
    PossibleValuesParser::new(values.iter().map(|&(name, help)| {
        let value = PossibleValue::new(name);
        if help.is_empty() { value } else { value.help(help) }
    }))
    .try_map(|name| name.parse::<E>())
}

/// `--strategy`: [`Strategy`]'s names.
const STRATEGIES: &[(&str, &str)] = &[
    ("seq", "One thread: the reference implementation"),
    ("static", "One equal part per thread, cut up front"),
    (
        "steal",
        "Fixed-size tasks, each thread taking the next when it finishes one",
    ),
];

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Encrypt a file or pipe to the authenticated, seekable `stream` format on all cores
    Encrypt(EncryptArgs),
    /// Decrypt a `stream` file (all of it, or --range START:LEN)
    Decrypt(DecryptArgs),
    /// age files (age-encryption.org/v1), as the `age` CLI reads and writes them, on all cores
    ///
    /// A drop-in for `age` and `age-keygen`: the same flags, files, keys and exit status; the
    /// payload's 64 KiB chunks are sealed and opened on --threads. On top of age: -o is written to
    /// a temporary file that becomes OUTPUT only once the whole file verified, an existing OUTPUT
    /// is kept unless --force, and -d --range START:LEN decrypts only those bytes.
    Age(AgeArgs),
    /// AES in ECB, CBC, CTR (byte-identical to `openssl enc -K … -iv …`) or GCM mode
    Aes(AesArgs),
    /// ☠ RC4 (legacy, broken): byte-identical to `openssl enc -rc4 -K … -nosalt`
    Rc4(Rc4Args),
    /// ☠ PARC4: block-parallel RC4 with a key per block (hazmat; see the README)
    Parc4(Parc4Args),
    /// Hash files like sha256sum, or as Merkle trees (RFC 6962, BitTorrent v2, Glacier) on all cores
    ///
    /// Several files are hashed at once across --threads, each small file by one thread; in a tree
    /// format a file of 16MiB or more is hashed alone with every thread. Lines come out in argument
    /// order, each as soon as its file and all before it are done, exactly as sha256sum prints
    /// them (a name holding a backslash, newline or carriage return is escaped and its line starts
    /// with a backslash). A file that cannot be read is reported on stderr in its place
    /// (`parcrypt: NAME: reason`); the others are still hashed, and the exit status is 1.
    Hash(HashArgs),
    /// RFC 6962 / RFC 9162 Merkle tree heads, inclusion and consistency proofs; tlog-tiles logs
    #[command(subcommand)]
    Merkle(MerkleGroup),
    /// RSA keys, signatures (PSS, PKCS#1 v1.5) and OAEP encryption, interoperable with openssl
    #[command(subcommand)]
    Rsa(RsaCommand),
    /// ECDSA P-256 / SHA-256 keys and signatures; batch verification on all cores
    #[command(subcommand)]
    Ecdsa(EcdsaCommand),
    /// Measure every algorithm × strategy × threads × size; write CSV/JSON results
    // Built without the `lab` feature, `lab` is hidden and says so (exit 2).
    #[cfg_attr(not(feature = "lab"), command(hide = true))]
    Lab(LabArgs),
    /// Print a completion script for bash, zsh, fish, elvish or powershell
    ///
    /// Install, e.g.: parcrypt completions bash > ~/.local/share/bash-completion/completions/parcrypt
    Completions(CompletionsArgs),
    /// Print the manual page parcrypt.1, or write it and a page per subcommand with --out DIR
    ///
    /// Install, e.g.: parcrypt man --out ~/.local/share/man/man1
    Man(ManArgs),
}

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to complete for
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

#[derive(Debug, Args)]
pub struct ManArgs {
    /// Write parcrypt.1 and a page per subcommand (parcrypt-encrypt.1, parcrypt-rsa-sign.1, …)
    /// into this directory, created if missing [default: print parcrypt.1]
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

#[derive(Debug, Subcommand)]
pub enum EcdsaCommand {
    /// Generate a P-256 private key
    Keygen {
        /// Key encoding: PKCS#8 (`BEGIN PRIVATE KEY`) or SEC1 (`BEGIN EC PRIVATE KEY`)
        #[arg(long, value_enum, default_value_t = EcPrivateFormat::Pkcs8)]
        format: EcPrivateFormat,
        /// Write DER instead of PEM
        #[arg(long)]
        der: bool,
        /// Where to write the key (mode 0600, atomically) [default: stdout]
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
        /// Replace an existing -o file (a private key is never replaced silently)
        #[arg(long)]
        force: bool,
    },
    /// Write the public key (SPKI) of a private key
    Pubkey {
        /// Write DER instead of PEM
        #[arg(long)]
        der: bool,
        #[command(flatten)]
        io: InOut,
    },
    /// Sign SHA-256 of the message (= openssl dgst -sha256 -sign)
    Sign {
        /// Private key: PEM or DER, PKCS#8 or SEC1
        #[arg(long, value_name = "FILE")]
        key: PathBuf,
        /// Signature encoding
        #[arg(long, value_enum, default_value_t = SigFormat::Der)]
        sig_format: SigFormat,
        #[command(flatten)]
        io: InOut,
    },
    /// Verify a signature; prints "Verified OK" (exit 0) or fails (exit 1)
    Verify {
        /// Public key (SPKI PEM or DER; a private key works too)
        #[arg(long = "pub", value_name = "FILE")]
        public: PathBuf,
        /// The signature file
        #[arg(long, value_name = "FILE")]
        sig: PathBuf,
        /// Signature encoding
        #[arg(long, value_enum, default_value_t = SigFormat::Der)]
        sig_format: SigFormat,
        /// How to compute u1·G + u2·Q
        #[arg(long, value_enum, default_value_t = VerifyMethod::Auto)]
        method: VerifyMethod,
        /// The signed message [default: stdin]
        #[arg(short, long, value_name = "FILE")]
        input: Option<PathBuf>,
    },
    /// Verify many signatures on all cores: one `OK`/`FAIL` line per list entry, exit 1 if any fails
    VerifyBatch {
        /// Public key (SPKI PEM or DER; a private key works too)
        #[arg(long = "pub", value_name = "FILE")]
        public: PathBuf,
        /// Lines `MSGFILE SIGFILE` (whitespace-separated; blank lines and `#` comments skipped; `-` = stdin)
        #[arg(long, value_name = "FILE")]
        list: PathBuf,
        /// Signature encoding
        #[arg(long, value_enum, default_value_t = SigFormat::Der)]
        sig_format: SigFormat,
    },
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

#[derive(Debug, Args)]
#[group(id = "recipients", required = true, multiple = true)]
pub struct EncryptArgs {
    /// A file holding a 32-byte key (raw, or 64 hex digits), e.g. from `openssl rand -out key.bin 32`
    #[arg(long, value_name = "FILE", group = "recipients")]
    pub key_file: Option<PathBuf>,
    /// A file whose first line is the passphrase (stretched with scrypt); the only recipient then
    #[arg(long, value_name = "FILE", group = "recipients", conflicts_with_all = ["key_file", "recipient"])]
    pub passphrase_file: Option<PathBuf>,
    /// An RSA public key (PEM or DER) that may decrypt; repeat for several
    #[arg(long, value_name = "PUB.pem", group = "recipients")]
    pub recipient: Vec<PathBuf>,
    /// Plaintext bytes per segment: a power of two from 4KiB to 1GiB
    #[arg(long, value_name = "BYTES", default_value = "1MiB", value_parser = parse_segment_size)]
    pub segment_size: usize,
    /// scrypt cost for --passphrase-file: N = 2^this (memory 2^this KiB); decrypting above 20 needs
    /// --max-work-factor
    #[arg(long, value_name = "LOG2N", default_value_t = parcrypt::stream::DEFAULT_SCRYPT_LOG2_N,
          value_parser = clap::value_parser!(u8).range(10..=22))]
    pub work_factor: u8,
    /// Replace an existing output file
    #[arg(long)]
    pub force: bool,
    #[command(flatten)]
    pub io: InOut,
}

#[derive(Debug, Args)]
#[group(id = "who", required = true, multiple = false)]
pub struct DecryptArgs {
    /// The 32-byte key file the stream was encrypted to
    #[arg(long, value_name = "FILE", group = "who")]
    pub key_file: Option<PathBuf>,
    /// A file whose first line is the passphrase
    #[arg(long, value_name = "FILE", group = "who")]
    pub passphrase_file: Option<PathBuf>,
    /// The RSA private key of a recipient
    #[arg(long, value_name = "KEY.pem", group = "who")]
    pub identity: Option<PathBuf>,
    /// Only these plaintext bytes, e.g. 1048576:4096 (reads only their segments; needs -i FILE;
    /// START + LEN at most 2^63 - 1)
    #[arg(long, value_name = "START:LEN", value_parser = parse_range)]
    pub range: Option<(u64, u64)>,
    /// Refuse a passphrase stream whose scrypt cost is over N = 2^this (memory 2^this KiB),
    /// before any work: anyone can write a header that costs minutes of CPU
    #[arg(long, value_name = "LOG2N", default_value_t = parcrypt::stream::DEFAULT_MAX_WORK_FACTOR,
          value_parser = clap::value_parser!(u8).range(1..=i64::from(parcrypt::stream::MAX_SCRYPT_LOG2_N)))]
    pub max_work_factor: u8,
    /// Replace an existing output file
    #[arg(long)]
    pub force: bool,
    #[command(flatten)]
    pub io: InOut,
}

/// `parcrypt age`: the age CLI's flags. Which combinations are allowed is
/// checked by the command, with age's messages and exit status 1, as age
/// does; clap only parses.
#[derive(Debug, Args)]
#[command(
    args_conflicts_with_subcommands = true,
    override_usage = "parcrypt age [-e] (-r RECIPIENT | -R PATH | -i PATH)... [-a] [-o OUTPUT] [INPUT]\n       \
                      parcrypt age [-e] -p [-a] [-o OUTPUT] [INPUT]\n       \
                      parcrypt age -d [-i PATH]... [--range START:LEN] [-o OUTPUT] [INPUT]\n       \
                      parcrypt age keygen [--pq] [-o OUTPUT]\n       \
                      parcrypt age keygen -y [-o OUTPUT] [INPUT]",
    after_long_help = "Examples:\n  \
                       parcrypt age keygen -o key.txt\n  \
                       tar cz ~/data | parcrypt age -r age1ql3z7hjy54pw3hyww5ayyfg7zqgvc7w3j2elw8zmrj2kg5sfn9aqmcac8p > data.tar.gz.age\n  \
                       parcrypt age -d -i key.txt -o data.tar.gz data.tar.gz.age\n  \
                       parcrypt age -d -i key.txt --range 1048576:4096 data.tar.gz.age"
)]
pub struct AgeArgs {
    #[command(subcommand)]
    pub command: Option<AgeCommand>,
    /// Encrypt the input to the output (the default)
    #[arg(short, long)]
    pub encrypt: bool,
    /// Decrypt the input to the output (armor is detected)
    #[arg(short, long)]
    pub decrypt: bool,
    /// Encrypt to the PEM-like ASCII armor
    #[arg(short, long)]
    pub armor: bool,
    /// Encrypt with a passphrase read from the terminal (empty: generate one and print it)
    #[arg(short, long)]
    pub passphrase: bool,
    /// Encrypt to RECIPIENT: age1…, age1pq1…, or an SSH public key ("ssh-ed25519 AAAA…",
    /// "ssh-rsa AAAA…"); repeatable
    #[arg(short, long, value_name = "RECIPIENT")]
    pub recipient: Vec<String>,
    /// Encrypt to the recipients listed in PATH, one per line (`#` comments; `-` = stdin); repeatable
    #[arg(short = 'R', long, value_name = "PATH")]
    pub recipients_file: Vec<PathBuf>,
    /// An identity file (age-keygen's, an unencrypted OpenSSH private key, or either encrypted with a
    /// passphrase by age; `-` = stdin); repeatable. With -e, encrypt to its public keys
    #[arg(short, long, value_name = "PATH")]
    pub identity: Vec<PathBuf>,
    /// Write the result to OUTPUT, atomically [default: stdout; `-o -` writes binary even to a
    /// terminal]
    #[arg(short, long, value_name = "OUTPUT")]
    pub output: Option<PathBuf>,
    /// Replace an existing OUTPUT (age replaces it; parcrypt keeps it unless told)
    #[arg(long)]
    pub force: bool,
    /// With -d: only these plaintext bytes, e.g. 1048576:4096 (reads only their 64 KiB chunks
    /// from a binary INPUT file)
    #[arg(long, value_name = "START:LEN", value_parser = parse_range)]
    pub range: Option<(u64, u64)>,
    /// With -d: refuse a passphrase file whose scrypt cost is over N = 2^this, before any work
    /// (age writes 18)
    #[arg(long, value_name = "LOG2N", default_value_t = parcrypt::age::DEFAULT_MAX_WORK_FACTOR,
          value_parser = clap::value_parser!(u8).range(1..=i64::from(parcrypt::stream::MAX_SCRYPT_LOG2_N)))]
    pub max_work_factor: u8,
    /// The input file [default: stdin]
    #[arg(value_name = "INPUT")]
    pub input: Vec<PathBuf>,
}

#[derive(Debug, Subcommand)]
pub enum AgeCommand {
    /// Generate a key pair in age-keygen's format (the public key also on stderr when the output is
    /// not a terminal), or with -y print the public keys of an identity file
    Keygen(AgeKeygenArgs),
}

#[derive(Debug, Args)]
pub struct AgeKeygenArgs {
    /// A post-quantum hybrid ML-KEM-768 + X25519 key pair (age1pq1…; age-keygen -pq)
    #[arg(long)]
    pub pq: bool,
    /// Print the recipients (public keys) of the identity file INPUT, one per line
    #[arg(short = 'y')]
    pub convert: bool,
    /// Write the result to OUTPUT, atomically (a new key: mode 0600) [default: stdout]
    #[arg(short, long, value_name = "OUTPUT")]
    pub output: Option<PathBuf>,
    /// Replace an existing OUTPUT (age-keygen never does)
    #[arg(long)]
    pub force: bool,
    /// With -y: the identity file [default: stdin]
    #[arg(value_name = "INPUT")]
    pub input: Vec<PathBuf>,
}

/// The largest `--range` end: the largest file offset (`off_t`).
pub const MAX_RANGE_END: u64 = i64::MAX as u64;

/// `--range START:LEN`: decimal byte offsets in the plaintext, with
/// START + LEN at most [`MAX_RANGE_END`].
pub fn parse_range(s: &str) -> Result<(u64, u64), String> {
    let parse = |t: &str| {
        let t = t.trim();
        t.bytes()
            .all(|b| b.is_ascii_digit())
            .then(|| t.parse::<u64>().ok())
            .flatten()
    };
    let (start, len) = s
        .split_once(':')
        .and_then(|(a, b)| Some((parse(a)?, parse(b)?)))
        .ok_or_else(|| {
            format!(
                "{s:?} is not START:LEN\n  hint: byte offsets in the plaintext, e.g. --range 1048576:4096"
            )
        })?;
    match start.checked_add(len) {
        Some(end) if end <= MAX_RANGE_END => Ok((start, len)),
        _ => Err(format!(
            "--range {s} ends beyond byte 2^63 - 1\n  hint: START + LEN must be at most {MAX_RANGE_END}"
        )),
    }
}

#[derive(Debug, Subcommand)]
pub enum RsaCommand {
    /// Generate a private key (e = 65537), primes searched on all threads
    Keygen {
        /// Modulus size in bits: 2048, 3072, 4096 … 16384 (multiples of 128; 1024 only for study)
        #[arg(long, value_name = "N", default_value_t = 3072)]
        bits: usize,
        /// Key encoding: PKCS#8 (`BEGIN PRIVATE KEY`) or PKCS#1 (`BEGIN RSA PRIVATE KEY`)
        #[arg(long, value_enum, default_value_t = PrivateFormat::Pkcs8)]
        format: PrivateFormat,
        /// Write DER instead of PEM
        #[arg(long)]
        der: bool,
        /// Where to write the key (created with mode 0600, atomically) [default: stdout]
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
        /// Replace an existing -o file (a private key is never replaced silently)
        #[arg(long)]
        force: bool,
    },
    /// Write the public key of a private key
    Pubkey {
        /// Key encoding: SPKI (`BEGIN PUBLIC KEY`, what openssl writes) or PKCS#1 (`BEGIN RSA PUBLIC KEY`)
        #[arg(long, value_enum, default_value_t = PublicFormat::Spki)]
        format: PublicFormat,
        /// Write DER instead of PEM
        #[arg(long)]
        der: bool,
        #[command(flatten)]
        io: InOut,
    },
    /// Sign a message (hashed with --hash); the private operation runs its CRT halves on two threads
    Sign {
        /// Private key: PEM or DER, PKCS#8 or PKCS#1
        #[arg(long, value_name = "FILE")]
        key: PathBuf,
        #[command(flatten)]
        sig: SigOptions,
        #[command(flatten)]
        io: InOut,
    },
    /// Verify a signature; prints "Verified OK" (exit 0) or fails (exit 1)
    Verify {
        /// Public key (SPKI or PKCS#1, PEM or DER; a private key works too)
        #[arg(long = "pub", value_name = "FILE")]
        public: PathBuf,
        /// The signature file
        #[arg(long, value_name = "FILE")]
        sig: PathBuf,
        #[command(flatten)]
        options: SigOptions,
        /// The signed message [default: stdin]
        #[arg(short, long, value_name = "FILE")]
        input: Option<PathBuf>,
    },
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
        /// Private key: PEM or DER, PKCS#8 or PKCS#1
        #[arg(long, value_name = "FILE")]
        key: PathBuf,
        #[command(flatten)]
        io: InOut,
    },
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
const SIG_HASHES: &[(&str, &str)] = &[("sha256", ""), ("sha384", ""), ("sha512", "")];

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

#[derive(Debug, Args)]
pub struct HashArgs {
    /// What to compute for each file
    #[arg(long, value_enum, default_value_t = HashFormat::Sha256)]
    pub format: HashFormat,
    /// rfc6962 only: bytes per leaf, 1 byte to 16MiB, e.g. 4KiB [default: 4KiB]
    #[arg(long, value_name = "BYTES", value_parser = parse_leaf_size)]
    pub leaf_size: Option<usize>,
    /// bittorrent-v2 only: after each file's pieces root, print its piece layer (one hex hash per
    /// piece, one per line; nothing for a file of at most one piece, as BEP 52 omits it)
    #[arg(long, requires = "piece_length")]
    pub layers: bool,
    /// With --layers: the torrent's piece length, a power of two of at least 16KiB, e.g. 256KiB
    #[arg(long, value_name = "BYTES", value_parser = parse_piece_length, requires = "layers")]
    pub piece_length: Option<u64>,
    /// Files to hash, in parallel across --threads (output in argument order, as sha256sum
    /// prints it); `-` (or none) reads stdin
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum HashFormat {
    /// Plain SHA-256 of the whole file (serial by nature), equal to sha256sum
    Sha256,
    /// RFC 6962 / 9162 tree head over fixed-size leaves (--leaf-size)
    Rfc6962,
    /// BitTorrent v2 (BEP 52) pieces root over 16 KiB blocks
    #[value(name = "bittorrent-v2")]
    BitTorrentV2,
    /// Amazon S3 Glacier tree hash over 1 MiB chunks
    Glacier,
}

/// Where the leaves of a tree come from.
#[derive(Debug, Args)]
#[group(required = true, multiple = false)]
pub struct LeafSource {
    /// One leaf per file, in the order given
    #[arg(long, value_name = "FILE", num_args = 1..)]
    pub leaves: Vec<PathBuf>,
    /// One hex-encoded leaf per line of stdin (an empty line is an empty leaf)
    #[arg(long)]
    pub hex_lines: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TreeFormat {
    /// RFC 6962 / RFC 9162 (Certificate Transparency); the only format with standard proofs
    Rfc6962,
}

/// `merkle`'s subcommands: the proof commands, and `tiles`.
#[derive(Debug, Subcommand)]
pub enum MerkleGroup {
    #[command(flatten)]
    Proofs(MerkleCommand),
    /// Check or rebuild a C2SP tlog-tiles log stored in a directory
    #[command(subcommand)]
    Tiles(TilesCommand),
}

#[derive(Debug, Subcommand)]
pub enum TilesCommand {
    /// Check every entry, tile and the root of a log against its checkpoint (signatures are not checked)
    ///
    /// Reads DIR/checkpoint, hashes every entry of every entry bundle (tile/entries/…) on all
    /// cores, compares the leaf hashes with the level-0 tiles, recomputes every higher tile and
    /// the root. Exit 0 and "verified N entries, root …" if all agree; exit 1 naming the first
    /// wrong tile and hash index otherwise.
    Verify {
        /// The log directory (holding `checkpoint` and `tile/`)
        #[arg(value_name = "DIR")]
        dir: PathBuf,
    },
    /// Write every tile of a log (all levels, partial tiles as .p/W) from its entry bundles alone
    ///
    /// Prints the root. The tiles are written beside the old ones and renamed into place only
    /// when all are written; the checkpoint is not touched.
    Rebuild {
        /// The log directory (holding `tile/entries/`)
        #[arg(value_name = "DIR")]
        dir: PathBuf,
        /// Build the tree of the first N entries [default: every entry the bundles hold]
        #[arg(long, value_name = "N")]
        size: Option<u64>,
        /// Replace existing tiles (tile/0, tile/1, …)
        #[arg(long)]
        force: bool,
    },
}

#[derive(Debug, Subcommand)]
pub enum MerkleCommand {
    /// Print the tree head (root hash) of the leaves, in hex
    Root {
        #[arg(long, value_enum, default_value_t = TreeFormat::Rfc6962)]
        format: TreeFormat,
        #[command(flatten)]
        source: LeafSource,
    },
    /// Print the inclusion proof of one leaf as JSON {"index","size","root","path"}
    Prove {
        #[arg(long, value_enum, default_value_t = TreeFormat::Rfc6962)]
        format: TreeFormat,
        /// The leaf to prove, counting from 0
        #[arg(long, value_name = "I")]
        index: u64,
        #[command(flatten)]
        source: LeafSource,
        /// Write the proof here, atomically [default: stdout]
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
    },
    /// Check a proof (inclusion or consistency JSON); exit 0 valid, 1 invalid
    Verify {
        #[arg(long, value_enum, default_value_t = TreeFormat::Rfc6962)]
        format: TreeFormat,
        /// The proof, as printed by `prove` or `consistency` (`-` = stdin)
        #[arg(long, value_name = "FILE")]
        proof: PathBuf,
        /// Inclusion proofs: the leaf's data
        #[arg(long, value_name = "FILE")]
        leaf_file: Option<PathBuf>,
        /// Inclusion proofs: also require this root (hex), e.g. from a signed tree head
        #[arg(long, value_name = "HEX")]
        root: Option<String>,
        /// Consistency proofs: also require this old root (hex)
        #[arg(long, value_name = "HEX")]
        old_root: Option<String>,
        /// Consistency proofs: also require this new root (hex)
        #[arg(long, value_name = "HEX")]
        new_root: Option<String>,
    },
    /// Print the consistency proof between two tree sizes as JSON
    Consistency {
        #[arg(long, value_enum, default_value_t = TreeFormat::Rfc6962)]
        format: TreeFormat,
        /// Size of the older tree (≥ 1)
        #[arg(long, value_name = "M")]
        old_size: u64,
        /// Size of the newer tree [default: all the leaves]
        #[arg(long, value_name = "N")]
        new_size: Option<u64>,
        #[command(flatten)]
        source: LeafSource,
        /// Write the proof here, atomically [default: stdout]
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
    },
}

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

#[derive(Debug, Args)]
pub struct AesArgs {
    #[arg(value_enum)]
    pub direction: Direction,
    /// Block cipher mode
    #[arg(long, value_enum)]
    pub mode: AesMode,
    /// Key as hex: 32, 48 or 64 digits pick AES-128, -192 or -256
    #[arg(long, value_name = "HEX")]
    pub key: String,
    /// CBC: the 16-byte IV; CTR: the 16-byte initial counter block; GCM: the 12-byte nonce (hex)
    #[arg(long, value_name = "HEX")]
    pub iv: Option<String>,
    /// GCM: additional authenticated data (hex), bound to the tag but not encrypted
    #[arg(long, value_name = "HEX")]
    pub aad: Option<String>,
    /// ECB/CBC: no PKCS#7 padding (input must be whole 16-byte blocks)
    #[arg(long)]
    pub no_pad: bool,
    #[command(flatten)]
    pub io: InOut,
}

#[derive(Debug, Args)]
pub struct InOut {
    /// Input file [default: stdin]
    #[arg(short, long, value_name = "FILE")]
    pub input: Option<PathBuf>,
    /// Output file, written atomically [default: stdout]
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
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

#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct LabArgs {
    #[command(subcommand)]
    pub action: Option<LabAction>,
    /// A short study (under 2 minutes on 2 cores)
    #[arg(long)]
    pub quick: bool,
    /// Directory for results, summary.md, report.html and plots [default:
    /// `lab-out/` and the UTC time, as `parcrypt_lab::default_out_dir`]
    // The help is given as a string: rustdoc reads `<UTC timestamp>` as HTML.
    #[arg(
        long,
        value_name = "DIR",
        help = "Directory for results, summary.md, report.html and plots [default: lab-out/<UTC timestamp>]"
    )]
    pub out: Option<PathBuf>,
    /// Only workloads matching these patterns (comma-separated; `*` matches anything)
    #[arg(long, value_name = "PATTERN")]
    pub only: Option<String>,
    /// Thread counts to sweep [default: 1,2,3,4,6,8,… up to twice the cores]
    #[arg(long, value_name = "LIST", value_delimiter = ',', value_parser = parse_thread_count)]
    pub threads_list: Option<Vec<usize>>,
    /// Input sizes, 1 byte to 1GiB each, e.g. 10,1000,1MiB,64MiB
    #[arg(long, value_name = "LIST", value_delimiter = ',', value_parser = parse_lab_size)]
    pub sizes: Option<Vec<usize>>,
    /// A fixed number of timed samples per cell [default: adaptive, until the 95% CI is ±3%]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub repeats: Option<u32>,
    /// Seconds the run may spend sampling, shared by its cells [default: 600; --quick: 40]
    #[arg(long, value_name = "SECONDS")]
    pub budget: Option<f64>,
    /// Do not measure peers (openssl speed / openssl enc)
    #[arg(long)]
    pub no_peers: bool,
}

#[derive(Debug, Subcommand)]
pub enum LabAction {
    /// Compare two runs (run directories or their results.json); exit 1 if B has regressions
    Compare {
        /// The baseline run
        a: PathBuf,
        /// The run to judge
        b: PathBuf,
    },
}

/// Parses `4096`, `4KiB`, `4k`, `64MiB`, `64M`, `1GiB`, `10kB` (decimal), …
pub fn parse_size(s: &str) -> Result<usize, String> {
    let s = s.trim();
    let split = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    let (digits, unit) = s.split_at(split);
    if digits.is_empty() {
        return Err(format!("{s:?} is not a size"));
    }
    let n: usize = digits.parse().map_err(|_| format!("{s:?} is too large"))?;
    let mult: usize = match unit.trim() {
        "" | "B" => 1,
        "k" | "K" | "KiB" => 1 << 10,
        "M" | "MiB" => 1 << 20,
        "G" | "GiB" => 1 << 30,
        "kB" | "KB" => 1_000,
        "MB" => 1_000_000,
        "GB" => 1_000_000_000,
        u => {
            return Err(format!(
                "unknown size unit {u:?} (use B, KiB, MiB, GiB, kB, MB, GB)"
            ));
        }
    };
    n.checked_mul(mult).ok_or_else(|| format!("{s:?} is too large"))
}

/// A `--threads-list` entry: 1 to 1024, as for `--threads`.
pub fn parse_thread_count(s: &str) -> Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(n) if (1..=1024).contains(&n) => Ok(n),
        _ => Err(format!(
            "{s:?} is not a thread count from 1 to 1024 (the maximum)"
        )),
    }
}

/// A [`parse_size`] from 1 byte to `max` (named `max_text` in the message).
fn parse_size_upto(s: &str, what: &str, max: usize, max_text: &str) -> Result<usize, String> {
    match parse_size(s) {
        Ok(n) if (1..=max).contains(&n) => Ok(n),
        Ok(n) => Err(format!(
            "{what} {n} is outside 1 byte to {max_text} (the maximum)"
        )),
        Err(e) if e.ends_with("too large") => {
            Err(format!("{what} {:?} is over {max_text} (the maximum)", s.trim()))
        }
        Err(e) => Err(e),
    }
}

/// `hash --leaf-size`: up to [`parcrypt::merkle::MAX_LEAF_SIZE`], as a few
/// buffers of at least one leaf are held.
pub fn parse_leaf_size(s: &str) -> Result<usize, String> {
    parse_size_upto(s, "leaf size", parcrypt::merkle::MAX_LEAF_SIZE, "16MiB")
}

/// `hash --piece-length`: BEP 52's piece length, a power of two of at least
/// 16 KiB.
pub fn parse_piece_length(s: &str) -> Result<u64, String> {
    let n = parse_size(s)? as u64;
    if n.is_power_of_two() && n >= parcrypt::merkle::BitTorrentV2::BLOCK as u64 {
        Ok(n)
    } else {
        Err(format!(
            "piece length {n} is not a power of two of at least 16KiB (BEP 52)"
        ))
    }
}

/// `parc4 --block-size`: up to [`parcrypt::hazmat::MAX_BLOCK_SIZE`], as a few
/// buffers of whole blocks are held.
pub fn parse_block_size(s: &str) -> Result<usize, String> {
    parse_size_upto(s, "block size", parcrypt::hazmat::MAX_BLOCK_SIZE, "16MiB")
}

/// The largest `lab --sizes` entry: each is held in memory a few times over.
pub const MAX_LAB_SIZE: usize = 1 << 30;

/// `lab --sizes` entries: up to [`MAX_LAB_SIZE`].
pub fn parse_lab_size(s: &str) -> Result<usize, String> {
    parse_size_upto(s, "size", MAX_LAB_SIZE, "1GiB")
}

/// A `stream` segment size: a [`parse_size`] that is a power of two from
/// 4 KiB to 1 GiB, refused as a usage error otherwise.
pub fn parse_segment_size(s: &str) -> Result<usize, String> {
    use parcrypt::stream::{MAX_SEGMENT, MIN_SEGMENT};
    let n = parse_size(s)?;
    if n.is_power_of_two() && (MIN_SEGMENT..=MAX_SEGMENT).contains(&n) {
        Ok(n)
    } else {
        Err(format!(
            "segment size {n} is not a power of two from 4KiB to 1GiB"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse() {
        assert_eq!(parse_size("10"), Ok(10));
        assert_eq!(parse_size("16MiB"), Ok(16 << 20));
        assert_eq!(parse_size("4k"), Ok(4096));
        assert_eq!(parse_size("10kB"), Ok(10_000));
        assert!(parse_size("ten").is_err());
        assert!(parse_size("3 parsecs").is_err());
        assert_eq!(parse_segment_size("4KiB"), Ok(4096));
        assert_eq!(parse_segment_size("1GiB"), Ok(1 << 30));
        for bad in ["2KiB", "5000", "0", "2GiB", "1MB", "lots"] {
            assert!(parse_segment_size(bad).is_err(), "{bad}");
        }
        assert_eq!(parse_leaf_size("16MiB"), Ok(16 << 20));
        assert_eq!(parse_block_size("1"), Ok(1));
        assert_eq!(parse_lab_size("1GiB"), Ok(1 << 30));
        for bad in [
            "0",
            "16777217",
            "100GiB",
            "9223372036854775808",
            "18446744073709551615",
            "18446744073709551616",
            "",
            "KiB",
        ] {
            for parse in [parse_leaf_size, parse_block_size] {
                let err = parse(bad).expect_err(bad);
                assert!(
                    err.contains("16MiB (the maximum)") || err.contains("not a size"),
                    "{bad}: {err}"
                );
            }
        }
        assert!(parse_lab_size("2GiB").is_err_and(|e| e.contains("1GiB")));
    }

    #[test]
    fn sig_hash_is_the_librarys_enum() {
        for &(name, _) in SIG_HASHES {
            assert_eq!(name.parse::<Algorithm>().map(Algorithm::name), Ok(name));
        }
        let hash_of = |args: &[&str]| {
            let argv = [&["parcrypt", "rsa", "sign", "--key", "k"][..], args].concat();
            match Cli::try_parse_from(argv).map(|cli| cli.command) {
                Ok(Command::Rsa(RsaCommand::Sign { sig, .. })) => Ok(sig.hash),
                Ok(other) => panic!("{other:?}"),
                Err(e) => Err(e.kind()),
            }
        };
        assert_eq!(hash_of(&[]), Ok(Algorithm::Sha256));
        assert_eq!(hash_of(&["--hash", "sha384"]), Ok(Algorithm::Sha384));
        assert_eq!(hash_of(&["--hash", "sha512"]), Ok(Algorithm::Sha512));
        // The library reads these; a signature's `--hash` does not.
        for refused in ["sha1", "SHA256", "sha-256"] {
            assert_eq!(
                hash_of(&["--hash", refused]),
                Err(clap::error::ErrorKind::InvalidValue),
                "{refused}"
            );
        }
    }

    #[test]
    fn cli_is_well_formed() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }
}
