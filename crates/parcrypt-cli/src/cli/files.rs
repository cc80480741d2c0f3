//! `encrypt`, `decrypt` and `age`: the file-encryption commands and `--range`.

use super::*;

/// The file format of `encrypt` and `decrypt`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum FileFormat {
    /// parcrypt's own `stream` format (docs/FORMAT.md)
    #[default]
    Stream,
    /// Cobblestone-128: C2SP chunked-encryption with SHA-512 and AES-128-GCM, 16-byte key, as
    /// pyca/cryptography's `cryptography.cobblestone` (docs/COBBLESTONE.md)
    #[value(name = "cobblestone-128")]
    Cobblestone128,
    /// Cobblestone-256: C2SP chunked-encryption with SHA-512 and AES-256-GCM, 32-byte key
    #[value(name = "cobblestone-256")]
    Cobblestone256,
    /// C2SP chunked-encryption with --kdf-hash and --aead
    Chunked,
}

/// The format flags `encrypt` and `decrypt` share.
#[derive(Debug, Args)]
pub struct FormatArgs {
    /// The file format [default: stream]; cobblestone-128/-256 and chunked take --key-file only
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub format: Option<FileFormat>,
    /// With --format chunked: HKDF-Expand's hash, sha256 or sha512 [default: sha256, the spec's
    /// recommendation]
    #[arg(long, value_name = "HASH")]
    pub kdf_hash: Option<parcrypt::cobblestone::KdfHash>,
    /// With --format chunked: aes-128-gcm, aes-256-gcm or chacha20-poly1305 (or the IANA name,
    /// AEAD_AES_128_GCM …) [default: aes-128-gcm, the spec's recommendation]
    #[arg(long, value_name = "AEAD")]
    pub aead: Option<parcrypt::cobblestone::Aead>,
    /// With a chunked format: the context bound to the message (any text; empty by default)
    #[arg(long, value_name = "TEXT", conflicts_with = "context_file")]
    pub context: Option<String>,
    /// With a chunked format: the context, as the bytes of FILE (NUL bytes included)
    #[arg(long, value_name = "FILE")]
    pub context_file: Option<PathBuf>,
}

#[derive(Debug, Args)]
#[group(id = "recipients", required = true, multiple = true)]
pub struct EncryptArgs {
    /// A file holding a 32-byte key (raw, or 64 hex digits), e.g. from `openssl rand -out key.bin 32`;
    /// with --format cobblestone-128 (or an AES-128 chunked format) 16 bytes (or 32 hex digits)
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
    pub format: FormatArgs,
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
    pub format: FormatArgs,
    #[command(flatten)]
    pub io: InOut,
}

/// `parcrypt age`: the age CLI's flags. Which combinations are allowed is
/// checked by the command, with age's messages and exit status 1, as age
/// does; clap only parses.
#[derive(Debug, Args)]
#[command(
    args_conflicts_with_subcommands = true,
    override_usage = "parcrypt age [-e] (-r RECIPIENT | -R PATH | -i PATH | -j PLUGIN)... [-a] [-o OUTPUT] [INPUT]\n       \
                      parcrypt age [-e] -p [-a] [-o OUTPUT] [INPUT]\n       \
                      parcrypt age -d [-i PATH | -j PLUGIN]... [--range START:LEN] [-o OUTPUT] [INPUT]\n       \
                      parcrypt age keygen [--pq] [-o OUTPUT]\n       \
                      parcrypt age keygen -y [-o OUTPUT] [INPUT]\n       \
                      parcrypt age inspect [--json] [INPUT]",
    after_long_help = "Examples:\n  \
                       parcrypt age keygen -o key.txt\n  \
                       tar cz ~/data | parcrypt age -r age1ql3z7hjy54pw3hyww5ayyfg7zqgvc7w3j2elw8zmrj2kg5sfn9aqmcac8p > data.tar.gz.age\n  \
                       parcrypt age -d -i key.txt -o data.tar.gz data.tar.gz.age\n  \
                       parcrypt age -d -i key.txt --range 1048576:4096 data.tar.gz.age\n  \
                       AGE_PASSPHRASE=… parcrypt age -d -j batchpass data.age   # the plugin age-plugin-batchpass on PATH"
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
    /// Encrypt to RECIPIENT: age1…, age1pq1…, an SSH public key ("ssh-ed25519 AAAA…",
    /// "ssh-rsa AAAA…"), a tagged age1tag1…/age1tagpq1…, or a plugin's age1NAME1… (run: age-plugin-NAME
    /// on PATH); repeatable
    #[arg(short, long, value_name = "RECIPIENT")]
    pub recipient: Vec<String>,
    /// Encrypt to the recipients listed in PATH, one per line (`#` comments; `-` = stdin); repeatable
    #[arg(short = 'R', long, value_name = "PATH")]
    pub recipients_file: Vec<PathBuf>,
    /// An identity file (age-keygen's, with AGE-PLUGIN-… lines too, an unencrypted OpenSSH private
    /// key, or either encrypted with a passphrase by age; `-` = stdin); repeatable. With -e, encrypt
    /// to its public keys
    #[arg(short, long, value_name = "PATH")]
    pub identity: Vec<PathBuf>,
    /// The default identity of the plugin age-plugin-PLUGIN (on PATH), e.g. `-j batchpass`;
    /// repeatable, tried in order with the -i files. With -e, encrypt to it
    #[arg(short = 'j', value_name = "PLUGIN")]
    pub plugin: Vec<String>,
    /// The longest a plugin may stay silent before it is killed and the command fails (0: no limit)
    #[arg(long, value_name = "SECONDS", default_value_t = parcrypt::age::PLUGIN_TIMEOUT.as_secs())]
    pub plugin_timeout: u64,
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
    /// What an age file is, without a key (= age-inspect): version, armor, recipient types,
    /// post-quantum or not, sizes
    Inspect(AgeInspectArgs),
}

#[derive(Debug, Args)]
pub struct AgeInspectArgs {
    /// Machine-readable JSON (age-inspect --json's, key for key)
    #[arg(long)]
    pub json: bool,
    /// The age file [default: stdin; `-` = stdin]
    #[arg(value_name = "INPUT")]
    pub input: Vec<PathBuf>,
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
