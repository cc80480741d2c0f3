//! `parcrypt hash` (sha256sum-style digests and Merkle tree hashes of files)
//! and `parcrypt merkle` (RFC 6962 tree heads and proofs).

use std::fs::File;
use std::io::{self, BufRead, BufWriter, Read, Write};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use anyhow::{Context, Result, anyhow};
use parcrypt::digest::Digest;
use parcrypt::merkle::sums::{self, Style};
use parcrypt::merkle::{self, BitTorrentV2, FileHash, FileHashes, Format, Input, Rfc6962};
use parcrypt::par::Parallelism;
use serde_json::{Value, json};

use crate::cli::{HashArgs, LeafSource, MerkleCommand, TreeFormat};
use crate::error::{Hint, eprint_line};
use crate::io::{Output, Policy, println, progress_bar};

pub fn run_hash(args: &HashArgs, par: &Parallelism) -> Result<()> {
    let format = match (args.format, args.leaf_size) {
        (Format::Rfc6962 { .. }, size) => Format::Rfc6962 {
            leaf_size: size.unwrap_or(Format::DEFAULT_LEAF_SIZE),
        },
        (other, Some(_)) => {
            return Err(anyhow!("--leaf-size applies to --format rfc6962 only"))
                .hint(match other {
                    Format::BitTorrentV2 => "BitTorrent v2 always uses 16 KiB blocks",
                    Format::Glacier => "Glacier always uses 1 MiB chunks",
                    _ => "plain SHA-256 has no leaves",
                })
                .usage();
        }
        (other, None) => other,
    };
    let layers = match args.piece_length {
        Some(piece) if format == Format::BitTorrentV2 => Some(piece),
        Some(_) => {
            return Err(anyhow!("--layers applies to --format bittorrent-v2 only"))
                .hint("piece layers are BEP 52's; add --format bittorrent-v2")
                .usage();
        }
        None => None,
    };
    let stdin_only = [PathBuf::from("-")];
    let files = if args.files.is_empty() {
        &stdin_only[..]
    } else {
        &args.files[..]
    };
    if args.check {
        return super::sums::run_check(args, format, files, par);
    }
    let style = Style {
        tag: args.tag,
        zero: args.zero,
    };
    let mut out = BufWriter::with_capacity(64 << 10, Output::stdout());
    let mut failures = Failures::default();
    let mut line = Vec::with_capacity(256);
    let mut sum_line = |hash: &Digest, path: &Path| {
        line.clear();
        sums::write_line(&mut line, format, hash, path.as_os_str().as_bytes(), style);
        line.clone()
    };
    let mut hashed = files.len();
    let walk_failures = AtomicUsize::new(0);
    if let Some(piece) = layers {
        for path in files {
            match hash_layers(par, piece, path) {
                Ok(hashes) => {
                    let root = hashes.pieces_root.unwrap_or_default();
                    out.write_all(&sum_line(&root, path))?;
                    for piece in &hashes.piece_layer {
                        writeln!(out, "{}", hex::encode(piece))?;
                    }
                    out.flush()?;
                }
                Err(e) => failures.report(&mut out, path, &e)?,
            }
        }
    } else if let ([path], false) = (files, args.recursive) {
        // One input: hashed with every thread, with a progress bar.
        match hash_one(par, format, path) {
            Ok(Some(hash)) => out.write_all(&sum_line(&hash, path))?,
            Ok(None) => failures.report(&mut out, path, &HashError::NoRoot)?,
            Err(e) => failures.report(&mut out, path, &HashError::Read(e))?,
        }
    } else {
        let inputs: Box<dyn Iterator<Item = Input<PathBuf>> + Send> = if args.recursive {
            Box::new(super::sums::walked(files, args.dereference, &walk_failures))
        } else {
            Box::new(files.iter().map(|p| {
                if p == Path::new("-") {
                    Input::Stdin
                } else {
                    Input::File(p.clone())
                }
            }))
        };
        hashed = 0;
        merkle::hash_files(format, inputs, io::stdin(), par, |done| -> io::Result<()> {
            let Some(FileHash { input, hash }) = done else {
                return out.flush();
            };
            hashed += 1;
            let path = match &input {
                Input::File(p) => p.as_path(),
                Input::Stdin => Path::new("-"),
            };
            match hash {
                Ok(Some(hash)) => out.write_all(&sum_line(&hash, path)),
                Ok(None) => failures.report(&mut out, path, &HashError::NoRoot),
                Err(e) => failures.report(&mut out, path, &HashError::Read(e)),
            }
        })?;
    }
    out.flush()?;
    let unwalked = walk_failures.load(Ordering::Relaxed);
    if unwalked > 0 && failures.count == 0 {
        return Err(anyhow!(
            "{unwalked} director{} could not be read",
            if unwalked == 1 { "y" } else { "ies" }
        ))
        .hint("check the permissions of the directories named above");
    }
    failures.finish(hashed)
}

/// Why one file has no hash.
enum HashError {
    Read(merkle::Error),
    /// An empty file in BitTorrent v2.
    NoRoot,
}

/// The files that could not be hashed, reported as they come.
#[derive(Default)]
struct Failures {
    count: usize,
    /// How many were empty files in BitTorrent v2.
    empty: usize,
}

impl Failures {
    /// `parcrypt: NAME: reason` on stderr, after the lines before it.
    fn report(&mut self, out: &mut impl Write, path: &Path, e: &HashError) -> io::Result<()> {
        out.flush()?;
        self.count += 1;
        let name = super::sums::quotef(path.as_os_str().as_bytes());
        let what = match e {
            HashError::NoRoot => {
                self.empty += 1;
                "empty, and BEP 52 gives an empty file no pieces root".to_owned()
            }
            HashError::Read(merkle::Error::Io(e)) => super::sums::os_reason(e),
            HashError::Read(e) => e.to_string(),
        };
        eprint_line(format_args!("parcrypt: {name}: {what}"));
        Ok(())
    }

    fn finish(self, files: usize) -> Result<()> {
        if self.count == 0 {
            return Ok(());
        }
        let hint = if self.empty == self.count {
            "BitTorrent v2 lists empty files without a root; use --format sha256 for a digest"
        } else {
            "check the names and permissions of the files named above"
        };
        Err(anyhow!("{} of {files} files could not be hashed", self.count)).hint(hint)
    }
}

/// One input's hash with every thread and a progress bar; stdin for `-`.
/// `None`: an empty input in BitTorrent v2.
fn hash_one(par: &Parallelism, format: Format, path: &Path) -> Result<Option<Digest>, merkle::Error> {
    with_input(path, |input, tick| match input {
        Some(f) => merkle::hash_file(format, f, par, tick),
        None => merkle::hash_reader(format, io::stdin(), par, tick),
    })
}

/// A file's pieces root and piece layer (BEP 52) with every thread.
fn hash_layers(par: &Parallelism, piece: u64, path: &Path) -> Result<FileHashes, HashError> {
    let hashes = with_input(path, |input, tick| match input {
        Some(f) => BitTorrentV2::hashes_file(f, piece, par, tick),
        None => BitTorrentV2::hashes_reader(io::stdin(), piece, par, tick),
    })
    .map_err(HashError::Read)?;
    if hashes.pieces_root.is_none() {
        return Err(HashError::NoRoot);
    }
    Ok(hashes)
}

/// Runs `hash` on the opened file (None: stdin for `-`) with a progress
/// bar's tick.
fn with_input<T>(
    path: &Path,
    hash: impl FnOnce(Option<&File>, &mut dyn FnMut(u64)) -> Result<T, merkle::Error>,
) -> Result<T, merkle::Error> {
    let file = (path != Path::new("-")).then(|| File::open(path)).transpose()?;
    let len = file
        .as_ref()
        .and_then(|f| f.metadata().ok())
        .filter(|m| m.is_file())
        .map(|m| m.len());
    let bar = progress_bar(len);
    let mut tick = |n: u64| {
        if let Some(b) = &bar {
            b.inc(n);
        }
    };
    let result = hash(file.as_ref(), &mut tick);
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    result
}

pub fn run_merkle(cmd: &MerkleCommand, par: &Parallelism) -> Result<()> {
    match cmd {
        MerkleCommand::Root { format, source } => {
            let TreeFormat::Rfc6962 = format;
            let leaves = load_leaves(source)?;
            println(hex::encode(Rfc6962::root(&leaves[..], par)))
        }
        MerkleCommand::Prove {
            format,
            index,
            source,
            output,
        } => {
            let TreeFormat::Rfc6962 = format;
            let leaves = load_leaves(source)?;
            let path = Rfc6962::inclusion_proof(&leaves[..], *index, par)
                .context("cannot prove inclusion")
                .hint("leaves are counted from 0: --index must be less than the number of leaves")?;
            let proof = json!({
                "index": index,
                "size": leaves.len(),
                "root": hex::encode(Rfc6962::root(&leaves[..], par)),
                "path": hex_list(&path),
            });
            write_json(&proof, output.as_deref())
        }
        MerkleCommand::Consistency {
            format,
            old_size,
            new_size,
            source,
            output,
        } => {
            let TreeFormat::Rfc6962 = format;
            let leaves = load_leaves(source)?;
            let new_size = new_size.unwrap_or(leaves.len() as u64);
            let path = Rfc6962::consistency_proof(&leaves[..], *old_size, new_size, par)
                .context("cannot prove consistency")
                .hint("need 1 ≤ --old-size ≤ --new-size ≤ the number of leaves")
                .usage()?;
            let root = |n: u64| hex::encode(Rfc6962::root(&leaves[..n as usize], par));
            let proof = json!({
                "old_size": old_size,
                "new_size": new_size,
                "old_root": root(*old_size),
                "new_root": root(new_size),
                "path": hex_list(&path),
            });
            write_json(&proof, output.as_deref())
        }
        MerkleCommand::Verify {
            format,
            proof,
            leaf_file,
            root,
            old_root,
            new_root,
        } => {
            let TreeFormat::Rfc6962 = format;
            verify(proof, leaf_file.as_deref(), root, old_root, new_root)
        }
    }
}

fn hex_list(hashes: &[Digest]) -> Vec<String> {
    hashes.iter().map(hex::encode).collect()
}

fn write_json(value: &Value, output: Option<&Path>) -> Result<()> {
    let mut out = Output::create(output, Policy::REPLACE)?;
    let text = serde_json::to_string_pretty(value).context("cannot format the proof")?;
    writeln!(out, "{text}").context("cannot write the proof")?;
    out.commit()
}

/// The leaves: each file's contents, or each stdin line decoded from hex.
fn load_leaves(source: &LeafSource) -> Result<Vec<Vec<u8>>> {
    if !source.hex_lines {
        return source
            .leaves
            .iter()
            .map(|p| {
                std::fs::read(p)
                    .with_context(|| format!("cannot read leaf {}", p.display()))
                    .hint("--leaves takes one file per leaf")
            })
            .collect();
    }
    let mut leaves = Vec::new();
    for (i, line) in io::stdin().lock().lines().enumerate() {
        let line = line.context("cannot read the leaves from stdin")?;
        let text = line.trim();
        let leaf = hex::decode(text)
            .with_context(|| format!("line {} of stdin is not hex: {:.40}", i + 1, text))
            .hint("--hex-lines takes one hex-encoded leaf per line; an empty line is an empty leaf")?;
        leaves.push(leaf);
    }
    Ok(leaves)
}

/// A proof that does not verify: exit 1 with the reason.
fn invalid(reason: impl std::fmt::Display) -> anyhow::Error {
    anyhow!("proof does not verify: {reason}")
}

fn verify(
    proof_path: &Path,
    leaf_file: Option<&Path>,
    root: &Option<String>,
    old_root: &Option<String>,
    new_root: &Option<String>,
) -> Result<()> {
    let text = if proof_path == Path::new("-") {
        let mut s = String::new();
        io::stdin()
            .read_to_string(&mut s)
            .context("cannot read the proof from stdin")?;
        s
    } else {
        std::fs::read_to_string(proof_path)
            .with_context(|| format!("cannot read proof {}", proof_path.display()))
            .hint("check the path given to --proof")?
    };
    let name = proof_path.display();
    let value: Value = serde_json::from_str(&text)
        .with_context(|| format!("{name} is not JSON"))
        .hint("give --proof a file written by `parcrypt merkle prove` or `consistency`")?;
    let proof = ProofJson {
        name: &name.to_string(),
        value: &value,
    };
    let trusted = |flag: &str, hex: &Option<String>| -> Result<Option<Digest>> {
        hex.as_deref()
            .map(|h| {
                parse_hash(h)
                    .with_context(|| format!("--{flag} is not a 64-digit hex hash"))
                    .usage()
            })
            .transpose()
    };
    if value.get("old_size").is_some() {
        let (m, n) = (proof.u64("old_size")?, proof.u64("new_size")?);
        let (r1, r2, path) = (proof.hash("old_root")?, proof.hash("new_root")?, proof.path()?);
        for (flag, want, got) in [
            ("old-root", trusted("old-root", old_root)?, r1),
            ("new-root", trusted("new-root", new_root)?, r2),
        ] {
            if want.is_some_and(|w| w != got) {
                return Err(invalid(format!("it is for a different root than --{flag}")));
            }
        }
        Rfc6962::verify_consistency(m, n, &r1, &r2, &path)
            .map_err(invalid)
            .hint("the tree of old_size leaves is not a prefix of the new tree, or the proof is damaged")?;
        return println(format_args!(
            "Verified OK: the tree of {m} leaves is a prefix of the tree of {n}"
        ));
    }
    if value.get("index").is_none() {
        return Err(anyhow!("{name} is neither an inclusion nor a consistency proof"))
            .hint("an inclusion proof has \"index\", \"size\", \"root\", \"path\"; a consistency proof \"old_size\", \"new_size\", \"old_root\", \"new_root\", \"path\"");
    }
    let (index, size, proof_root, path) = (
        proof.u64("index")?,
        proof.u64("size")?,
        proof.hash("root")?,
        proof.path()?,
    );
    let leaf_file = leaf_file
        .ok_or_else(|| anyhow!("an inclusion proof needs the leaf: --leaf-file FILE"))
        .usage()?;
    let leaf = std::fs::read(leaf_file)
        .with_context(|| format!("cannot read leaf {}", leaf_file.display()))
        .hint("check the path given to --leaf-file")?;
    if trusted("root", root)?.is_some_and(|r| r != proof_root) {
        return Err(invalid("it is for a different root than --root"))
            .hint("the proof was made for another tree (or another size of it)");
    }
    Rfc6962::verify_inclusion(&Rfc6962::leaf_hash(&leaf), index, size, &path, &proof_root)
        .map_err(invalid)
        .hint("the leaf is not at that index of that tree, or the proof is damaged")?;
    println(format_args!(
        "Verified OK: leaf {index} is in the tree of {size} leaves"
    ))
}

fn parse_hash(text: &str) -> Result<Digest> {
    let bytes = hex::decode(text.trim())?;
    bytes
        .try_into()
        .map_err(|b: Vec<u8>| anyhow!("{} bytes, not 32", b.len()))
}

/// Typed access to a proof's fields with errors that name the field.
struct ProofJson<'a> {
    name: &'a str,
    value: &'a Value,
}

/// The hint for a proof with a missing or malformed field.
const DAMAGED_PROOF: &str =
    "the proof is damaged: make it again with `parcrypt merkle prove` or `consistency`";

impl ProofJson<'_> {
    fn field(&self, key: &str) -> Result<&Value> {
        self.value
            .get(key)
            .ok_or_else(|| anyhow!("{}: the proof has no \"{key}\"", self.name))
            .hint(DAMAGED_PROOF)
    }

    fn u64(&self, key: &str) -> Result<u64> {
        self.field(key)?
            .as_u64()
            .ok_or_else(|| anyhow!("{}: \"{key}\" must be a non-negative integer", self.name))
            .hint(DAMAGED_PROOF)
    }

    fn hash(&self, key: &str) -> Result<Digest> {
        let v = self.field(key)?;
        v.as_str()
            .and_then(|s| parse_hash(s).ok())
            .ok_or_else(|| anyhow!("{}: \"{key}\" must be a 64-digit hex hash", self.name))
            .hint(DAMAGED_PROOF)
    }

    fn path(&self) -> Result<Vec<Digest>> {
        let path: Option<Vec<Digest>> = self.field("path")?.as_array().and_then(|hashes| {
            hashes
                .iter()
                .map(|h| h.as_str().and_then(|s| parse_hash(s).ok()))
                .collect()
        });
        path.ok_or_else(|| anyhow!("{}: \"path\" must be a list of 64-digit hex hashes", self.name))
            .hint(DAMAGED_PROOF)
    }
}
