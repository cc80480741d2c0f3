//! Command-line definitions (the contract: docs/ARCHITECTURE.md §8, docs/CLI.md).

use std::path::PathBuf;

use std::str::FromStr;

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{ArgGroup, Args, Parser, Subcommand, ValueEnum};
use parcrypt::UnknownName;
use parcrypt::aes::KdfDigest;
use parcrypt::digest::Algorithm;
use parcrypt::par::{Parallelism, Strategy};
use parcrypt::rsa::Scheme;

mod ciphers;
mod family;
mod files;
mod hash;
mod kem;
mod keys;
mod mldsa;
mod slhdsa;

pub use ciphers::*;
pub use family::*;
pub use files::*;
pub use hash::*;
pub use kem::*;
pub use keys::*;
pub use mldsa::*;
pub use slhdsa::*;

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
    /// Worker threads, up to 1024; 0 = every available core [default: available cores]
    #[arg(long, global = true, value_name = "N", value_parser = clap::value_parser!(u16).range(0..=1024))]
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
    /// Encrypt a file or pipe to the authenticated, seekable `stream` format on all cores (or, with
    /// --format, to Cobblestone / C2SP chunked-encryption, as pyca/cryptography writes it)
    Encrypt(EncryptArgs),
    /// Decrypt a `stream` file, or a Cobblestone / C2SP chunked-encryption one with --format (all of
    /// it, or --range START:LEN)
    Decrypt(DecryptArgs),
    /// age files (age-encryption.org/v1), as the `age` CLI reads and writes them, on all cores
    ///
    /// A drop-in for `age` and `age-keygen`: the same flags, files, keys and exit status; the
    /// payload's 64 KiB chunks are sealed and opened on --threads. On top of age: -o is written to
    /// a temporary file that becomes OUTPUT only once the whole file verified, an existing OUTPUT
    /// is kept unless --force, and -d --range START:LEN decrypts only those bytes.
    Age(AgeArgs),
    /// AES in ECB, CBC, CTR or GCM mode: `openssl enc` with raw keys or passwords, byte for byte
    ///
    /// With --key (and --iv): `openssl enc -K … -iv …`. Without --key, the key and IV come from a
    /// password as `openssl enc -pass …` derives them, and the output starts with openssl's
    /// `Salted__` header: `parcrypt aes encrypt --cipher aes-256-cbc --pbkdf2 --pass file:pw -a`
    /// writes what `openssl enc -aes-256-cbc -pbkdf2 -pass file:pw -a` writes (with -S, the same
    /// bytes). CTR in both directions, CBC decryption and ECB run on all cores.
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
    ///
    /// `-c LIST…` verifies checksum lists as `sha256sum -c` does (same output, same exit status),
    /// on all cores; `-r DIR…` lists every file under the directories in path order, so that
    /// `parcrypt hash -r dir > SUMS` then `parcrypt hash -c SUMS` (or `sha256sum -c SUMS`) is
    /// the round trip.
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
    /// ML-KEM (FIPS 203) key encapsulation: keys, encap and decap as openssl pkeyutl 3.5 does them
    #[command(subcommand)]
    MlKem(KemCommand),
    /// ML-DSA (FIPS 204) keys and signatures, as OpenSSL 3.5 and pyca write them; batches on all cores
    #[command(subcommand, name = "ml-dsa")]
    MlDsa(MlDsaCommand),
    /// SLH-DSA (FIPS 205) keys and signatures, as OpenSSL 3.5 writes them; trees built on all cores
    #[command(subcommand, name = "slh-dsa")]
    SlhDsa(SlhDsaCommand),
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

#[derive(Debug, Args)]
pub struct InOut {
    /// Input file [default: stdin]
    #[arg(short, long, value_name = "FILE")]
    pub input: Option<PathBuf>,
    /// Output file, written atomically [default: stdout]
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
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
    /// Measure the machine's ceilings (memory, page cache, pipe, writes) again
    /// instead of reading them from the cache ($XDG_CACHE_HOME or
    /// ~/.cache/parcrypt/lab-ceilings.json)
    #[arg(long)]
    pub remeasure: bool,
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

/// A `--threads-list` entry: 1 to 1024 (a count to measure and plot; unlike
/// `--threads`, 0 is not "every core" here).
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

/// `parc4 --block-size`: up to [`parcrypt::hazmat::PARC4_MAX_BLOCK_SIZE`], as a few
/// buffers of whole blocks are held.
pub fn parse_block_size(s: &str) -> Result<usize, String> {
    parse_size_upto(s, "block size", parcrypt::hazmat::PARC4_MAX_BLOCK_SIZE, "16MiB")
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
    use super::keys::SIG_HASHES;
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
                Ok(Command::Rsa(RsaCommand::Key(KeyCommand::Sign { options, .. }))) => Ok(options.hash),
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
