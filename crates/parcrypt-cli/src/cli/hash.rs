//! `hash` and `merkle` (trees, proofs, tlog tiles).

use parcrypt::merkle::Format;

use super::*;

#[derive(Debug, Args)]
pub struct HashArgs {
    /// What to compute for each file
    #[arg(long, value_parser = library_enum::<Format>(HASH_FORMATS), default_value_t = Format::Sha256)]
    pub format: Format,
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
    /// Write BSD-style lines, `SHA256 (NAME) = HASH` (sha256sum --tag); tree formats get tags
    /// that say the format and leaf size (`RFC6962-4096`, `BITTORRENT-V2`, `GLACIER`), so
    /// `--check` reads them without flags
    #[arg(long, conflicts_with_all = ["check", "layers"])]
    pub tag: bool,
    /// End each line with NUL, not newline, and write names as they are (sha256sum -z); with
    /// --check, read NUL-terminated lines (as `hash -z` writes them) and print NUL-terminated
    /// results
    #[arg(short = 'z', long, conflicts_with = "layers")]
    pub zero: bool,
    /// Hash every regular file under each directory given, in byte order of their paths
    /// (`find DIR -type f | LC_ALL=C sort`); symbolic links inside are not followed (nor listed)
    /// unless -L, FIFOs, sockets and devices are skipped with a warning
    #[arg(short = 'r', long, conflicts_with_all = ["check", "layers"])]
    pub recursive: bool,
    /// With -r: follow symbolic links (each directory once per path, loops skipped)
    #[arg(short = 'L', long, requires = "recursive")]
    pub dereference: bool,
    /// Read checksum lists (the FILEs, or stdin) and verify the files they name on all cores,
    /// printing `NAME: OK` / `NAME: FAILED` / `NAME: FAILED open or read` and the summary
    /// warnings exactly as `sha256sum -c` does (exit 0 all good, 1 otherwise). Reads every form
    /// sha256sum writes: `HASH  NAME`, `HASH *NAME`, escaped `\` lines, `SHA256 (NAME) = HASH`,
    /// and the tree-format tags --tag writes; untagged lines are in --format
    #[arg(short = 'c', long, conflicts_with = "layers")]
    pub check: bool,
    /// With --check: print no OK lines
    #[arg(long, requires = "check", overrides_with_all = ["status", "warn"])]
    pub quiet: bool,
    /// With --check: print nothing on stdout; the exit status says it all
    #[arg(long, requires = "check", overrides_with_all = ["quiet", "warn"])]
    pub status: bool,
    /// With --check: an improperly formatted line makes the exit status 1
    #[arg(long, requires = "check")]
    pub strict: bool,
    /// With --check: say nothing about listed files that do not exist (a list of which no
    /// file was verified still fails)
    #[arg(long, requires = "check")]
    pub ignore_missing: bool,
    /// With --check: warn about each improperly formatted line
    #[arg(short = 'w', long, requires = "check", overrides_with_all = ["quiet", "status"])]
    pub warn: bool,
    /// Files to hash, in parallel across --threads (output in argument order, as sha256sum
    /// prints it); with -r, directories too; with --check, the checksum lists; `-` (or none)
    /// reads stdin
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,
}

/// `hash --format`: the library's [`Format`] (`rfc6962` with its default
/// leaf size, which `--leaf-size` changes), its names and help lines.
const HASH_FORMATS: &[(&str, &str)] = &[
    (
        "sha256",
        "Plain SHA-256 of the whole file (serial by nature), equal to sha256sum",
    ),
    (
        "rfc6962",
        "RFC 6962 / 9162 tree head over fixed-size leaves (--leaf-size)",
    ),
    (
        "bittorrent-v2",
        "BitTorrent v2 (BEP 52) pieces root over 16 KiB blocks",
    ),
    ("glacier", "Amazon S3 Glacier tree hash over 1 MiB chunks"),
];

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
