//! The serialized form of a [`CompactRange`]: `PCR1`, the format's code,
//! begin and end (big-endian u64), the hash count, then the hashes.

use super::range::blocks;
use super::{CompactRange, Tree};
use crate::merkle::Error;

/// The magic and version of a serialized range.
const MAGIC: &[u8; 4] = b"PCR1";
/// Serialized header: magic, format, begin, end, count.
const HEADER: usize = 4 + 1 + 8 + 8 + 1;

impl CompactRange {
    /// The range as bytes (`PCR1`, format, begin, end, count, hashes): at
    /// most 22 + 128 × 32 bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER + 32 * self.hashes.len());
        out.extend_from_slice(MAGIC);
        out.push(self.tree.code());
        out.extend_from_slice(&self.begin.to_be_bytes());
        out.extend_from_slice(&self.end.to_be_bytes());
        out.push(self.hashes.len() as u8);
        for h in &self.hashes {
            out.extend_from_slice(h);
        }
        out
    }

    /// A range from [`CompactRange::to_bytes`].
    ///
    /// # Errors
    /// [`Error::MalformedRange`] for anything else (wrong length, magic, format,
    /// `begin > end`, or a hash count that does not fit the range).
    pub fn from_bytes(bytes: &[u8]) -> Result<CompactRange, Error> {
        if bytes.len() < HEADER || &bytes[..4] != MAGIC {
            return Err(Error::MalformedRange("no PCR1 header"));
        }
        let tree = Tree::from_code(bytes[4]).ok_or(Error::MalformedRange("unknown format"))?;
        let word = |at: usize| u64::from_be_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
        let (begin, end) = (word(5), word(13));
        let count = bytes[21] as usize;
        if begin > end {
            return Err(Error::MalformedRange("begin after end"));
        }
        if bytes.len() != HEADER + 32 * count {
            return Err(Error::MalformedRange("length does not match the hash count"));
        }
        if blocks(begin, end).len() != count {
            return Err(Error::MalformedRange("hash count does not match the range"));
        }
        let hashes = bytes[HEADER..]
            .chunks_exact(32)
            .map(|c| c.try_into().expect("32 bytes"))
            .collect();
        Ok(CompactRange {
            tree,
            begin,
            end,
            hashes,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::par::Parallelism;

    #[test]
    fn hostile_bytes_and_misuse_are_errors() {
        let par = Parallelism::sequential();
        let r = CompactRange::from_leaves(Tree::Rfc6962, 3, &[b"a", b"b"][..], &par);
        let bytes = r.to_bytes();
        for cut in 0..bytes.len() {
            assert!(CompactRange::from_bytes(&bytes[..cut]).is_err());
        }
        let mut wrong = bytes.clone();
        wrong[21] += 1;
        assert!(CompactRange::from_bytes(&wrong).is_err());
        assert!(matches!(r.root(), Err(Error::NotFromStart(3))));
        let other = CompactRange::empty(Tree::Glacier, 5);
        assert!(matches!(r.merge(&other), Err(Error::NotAdjacent { .. })));
        assert!(matches!(
            r.merge(&CompactRange::empty(Tree::Rfc6962, 4)),
            Err(Error::NotAdjacent { .. })
        ));
        assert_eq!(r.merge(&CompactRange::empty(Tree::Rfc6962, 5)).unwrap(), r);
    }
}
