//! A log's checkpoint (C2SP tlog-checkpoint): origin, tree size and root,
//! parsed strictly; signatures counted, not checked.
use crate::digest::Digest;
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;

use super::*;

/// A log's signed tree head: the note text of a checkpoint. Signatures
/// are counted, not checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checkpoint {
    /// The log's identity (first line).
    pub origin: String,
    /// The number of entries.
    pub size: u64,
    /// The RFC 6962 root of those entries.
    pub root: Digest,
    /// Extension lines, if any.
    pub extensions: Vec<String>,
    /// The number of signature lines after the note text (unchecked).
    pub signatures: usize,
}

impl Checkpoint {
    /// Parses a checkpoint note: at least three non-empty lines of text
    /// (origin, tree size in decimal without leading zeros, base64 root of
    /// 32 bytes), each ending in a newline, optionally followed by a blank
    /// line and signature lines.
    ///
    /// # Errors
    /// [`Error::Checkpoint`] naming what is wrong (`path` is empty).
    pub fn parse(note: &[u8]) -> Result<Checkpoint, Error> {
        Self::parse_at(note, Path::new(""))
    }

    /// Reads and parses `DIR/checkpoint`.
    ///
    /// # Errors
    /// [`Error::Missing`], [`Error::File`], [`Error::Checkpoint`].
    pub fn read(dir: &Path) -> Result<Checkpoint, Error> {
        let path = dir.join("checkpoint");
        let mut note = Vec::new();
        File::open(&path)
            .map_err(|e| match e.kind() {
                io::ErrorKind::NotFound => Error::Missing {
                    path: path.clone(),
                    size: None,
                },
                _ => io_error(&path)(e),
            })?
            .take(MAX_CHECKPOINT + 1)
            .read_to_end(&mut note)
            .map_err(io_error(&path))?;
        if note.len() as u64 > MAX_CHECKPOINT {
            return Err(Error::Checkpoint {
                path,
                reason: "larger than 1 MiB: not a checkpoint".into(),
            });
        }
        Self::parse_at(&note, &path)
    }

    pub(super) fn parse_at(note: &[u8], path: &Path) -> Result<Checkpoint, Error> {
        let bad = |reason: &str| Error::Checkpoint {
            path: path.to_owned(),
            reason: reason.to_owned(),
        };
        let note = std::str::from_utf8(note).map_err(|_| bad("not UTF-8 text"))?;
        let (text, signatures) = match note.split_once("\n\n") {
            Some((text, sigs)) => (text, sigs.lines().filter(|l| !l.is_empty()).count()),
            None => (
                note.strip_suffix('\n')
                    .ok_or_else(|| bad("does not end in a newline"))?,
                0,
            ),
        };
        let mut lines = text.split('\n');
        let origin = lines.next().unwrap_or_default();
        let size = lines.next().ok_or_else(|| bad("no tree size line (line 2)"))?;
        let root = lines.next().ok_or_else(|| bad("no root hash line (line 3)"))?;
        let extensions: Vec<String> = lines.map(str::to_owned).collect();
        if origin.is_empty() {
            return Err(bad("the origin (line 1) is empty"));
        }
        let digits = !size.is_empty() && size.bytes().all(|b| b.is_ascii_digit());
        if !digits || (size.len() > 1 && size.starts_with('0')) {
            return Err(bad(&format!(
                "the tree size (line 2) {size:?} is not a decimal number without leading zeros"
            )));
        }
        let size = size
            .parse::<u64>()
            .map_err(|_| bad(&format!("the tree size (line 2) {size} does not fit in 64 bits")))?;
        let root: Digest = STANDARD
            .decode(root)
            .ok()
            .and_then(|r| r.try_into().ok())
            .ok_or_else(|| bad(&format!("the root (line 3) {root:?} is not 32 bytes in base64")))?;
        if extensions.iter().any(String::is_empty) {
            return Err(bad("an empty line inside the note text"));
        }
        Ok(Checkpoint {
            origin: origin.to_owned(),
            size,
            root,
            extensions,
            signatures,
        })
    }
}

/// A hash as a checkpoint writes it: standard base64 (RFC 4648 §4).
pub fn base64_hash(hash: &Digest) -> String {
    STANDARD.encode(hash)
}
