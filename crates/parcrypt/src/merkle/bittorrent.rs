//! BitTorrent v2 (BEP 52) per-file merkle trees: the pieces root, the piece
//! layer, and both from a file hashed in parts.

use std::fs::File;
use std::io::Read;

use super::Error;
use super::engine::{self, Builder, Chunks, Leaves, Rule, empty_root};
use super::stream::Source;
use crate::digest::Digest;
use crate::par::{Grain, Parallelism};

/// The BitTorrent v2 file tree (BEP 52): SHA-256 of each 16 KiB block (the
/// last one as it is), nodes SHA-256(left ‖ right) with no prefixes, leaves
/// padded with zero hashes to a power of two.
///
/// [`root`](Self::root) of an empty input is SHA-256 of nothing, the hash
/// of its one (empty) block, as for every format (see [`crate::merkle`]);
/// BEP 52 itself lists an empty file without a `pieces root`, and
/// [`FileHashes::pieces_root`] follows it.
///
/// # Examples
/// ```
/// use parcrypt::merkle::BitTorrentV2;
/// use parcrypt::par::Parallelism;
///
/// let par = Parallelism::default();
/// let file = vec![1u8; 100_000];
/// let hashes = BitTorrentV2::hashes(&file, 32 * 1024, &par)?;
/// assert_eq!(hashes.pieces_root, Some(BitTorrentV2::root(&file, &par)));
/// assert_eq!(hashes.piece_layer.len(), 4); // ⌈100 000 / 32 768⌉ pieces
/// # Ok::<(), parcrypt::merkle::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct BitTorrentV2;

impl Rule for BitTorrentV2 {
    const PADDED: bool = true;
    const LEAF_PREFIX: &'static [u8] = &[];
    const NODE_PREFIX: &'static [u8] = &[];
}

/// What a v2 .torrent records for one file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileHashes {
    /// The file's length in bytes.
    pub size: u64,
    /// `pieces root`: [`BitTorrentV2::root`] of the file; None for an
    /// empty file, which a v2 .torrent lists without one (BEP 52).
    pub pieces_root: Option<Digest>,
    /// The file's entry in `piece layers`: one hash per piece, each the root
    /// of the subtree covering `piece_length` bytes (padded with zero leaf
    /// hashes past the end of the file). Empty when the file is not larger
    /// than one piece, as BEP 52 omits it then.
    pub piece_layer: Vec<Digest>,
}

impl BitTorrentV2 {
    /// The block (leaf) size: 16 KiB.
    pub const BLOCK: usize = 16 * 1024;

    /// The `pieces root` of a file's contents (SHA-256 of nothing if it is
    /// empty).
    pub fn root(data: &[u8], par: &Parallelism) -> Digest {
        engine::root(BitTorrentV2, &Chunks::new(data, Self::BLOCK), par).unwrap_or_else(empty_root)
    }

    /// [`BitTorrentV2::root`] of a stream, read in bounded memory;
    /// `progress` is called with the number of bytes read.
    ///
    /// # Errors
    /// [`Error::Io`] from reading.
    pub fn root_reader(
        input: impl Read + Send,
        par: &Parallelism,
        progress: impl FnMut(u64),
    ) -> Result<Digest, Error> {
        Self::root_source(Source::Reader(input), par, progress)
    }

    /// [`BitTorrentV2::root`] of a file, read with positional
    /// reads when it is a regular file (see [`crate::merkle::hash_file`]).
    ///
    /// # Errors
    /// [`Error::Io`] from reading (`UnexpectedEof` if the file shrinks meanwhile).
    pub fn root_file(file: &File, par: &Parallelism, progress: impl FnMut(u64)) -> Result<Digest, Error> {
        Self::root_source(Source::of_file(file), par, progress)
    }

    pub(crate) fn root_source(
        source: Source<'_, impl Read + Send>,
        par: &Parallelism,
        progress: impl FnMut(u64),
    ) -> Result<Digest, Error> {
        // The root does not depend on the piece length; the smallest one
        // keeps no more than the engine's own blocks.
        let hashes = Self::hashes_source(source, Self::BLOCK as u64, par, progress)?;
        Ok(hashes.pieces_root.unwrap_or_else(empty_root))
    }

    /// The pieces root and piece layer of a file's contents.
    ///
    /// # Errors
    /// [`Error::PieceLength`] unless `piece_length` is a power of two of at
    /// least 16 KiB.
    pub fn hashes(data: &[u8], piece_length: u64, par: &Parallelism) -> Result<FileHashes, Error> {
        let mut b = Self::builder(piece_length)?;
        b.add(&Chunks::new(data, Self::BLOCK), par);
        Ok(Self::file_hashes(b, data.len() as u64, piece_length))
    }

    /// [`BitTorrentV2::hashes`] of a stream, read in bounded memory;
    /// `progress` is called with the number of bytes read.
    ///
    /// # Errors
    /// [`Error::PieceLength`]; [`Error::Io`] from reading.
    pub fn hashes_reader(
        input: impl Read + Send,
        piece_length: u64,
        par: &Parallelism,
        progress: impl FnMut(u64),
    ) -> Result<FileHashes, Error> {
        Self::hashes_source(Source::Reader(input), piece_length, par, progress)
    }

    /// [`BitTorrentV2::hashes`] of a file, read with positional
    /// reads when it is a regular file (see [`crate::merkle::hash_file`]).
    ///
    /// # Errors
    /// [`Error::PieceLength`]; [`Error::Io`] from reading.
    pub fn hashes_file(
        file: &File,
        piece_length: u64,
        par: &Parallelism,
        progress: impl FnMut(u64),
    ) -> Result<FileHashes, Error> {
        Self::hashes_source(Source::of_file(file), piece_length, par, progress)
    }

    pub(crate) fn hashes_source(
        source: Source<'_, impl Read + Send>,
        piece_length: u64,
        par: &Parallelism,
        mut progress: impl FnMut(u64),
    ) -> Result<FileHashes, Error> {
        let b = Self::builder(piece_length)?;
        let mut size = 0u64;
        let (root, layer) = source.build(b, Self::BLOCK, par, |n| {
            size += n;
            progress(n);
        })?;
        Ok(Self::finish(root, layer, size, piece_length))
    }

    /// log2(piece_length / 16 KiB).
    fn piece_height(piece_length: u64) -> Result<u32, Error> {
        if piece_length.is_power_of_two() && piece_length >= Self::BLOCK as u64 {
            Ok((piece_length / Self::BLOCK as u64).trailing_zeros())
        } else {
            Err(Error::PieceLength(piece_length))
        }
    }

    /// A builder whose blocks never straddle a piece and which records the
    /// piece layer.
    fn builder(piece_length: u64) -> Result<Builder<BitTorrentV2>, Error> {
        let piece = Self::piece_height(piece_length)?;
        Ok(Builder::new(BitTorrentV2, Self::BLOCK, Some(piece)))
    }

    fn file_hashes(b: Builder<BitTorrentV2>, size: u64, piece_length: u64) -> FileHashes {
        let (root, layer) = b.finish();
        Self::finish(root, layer, size, piece_length)
    }

    fn finish(root: Option<Digest>, mut layer: Vec<Digest>, size: u64, piece_length: u64) -> FileHashes {
        if size <= piece_length {
            layer.clear();
        }
        // Padding past the end never records a piece, but be exact anyway.
        layer.truncate(size.div_ceil(piece_length) as usize);
        FileHashes {
            size,
            pieces_root: root,
            piece_layer: layer,
        }
    }

    /// The `piece layers` entries of a part of a file that starts at a
    /// piece boundary: one hash per piece of `piece_length` bytes (the last
    /// may be short: its subtree is padded with zero hashes to a full
    /// piece, as in the file's own tree). Concatenating the parts' layers
    /// in order gives the file's piece layer, for files longer than one
    /// piece; [`BitTorrentV2::root_from_pieces`] finishes the tree.
    ///
    /// # Errors
    /// [`Error::PieceLength`].
    pub fn piece_hashes(data: &[u8], piece_length: u64, par: &Parallelism) -> Result<Vec<Digest>, Error> {
        let k = Self::piece_height(piece_length)?;
        let piece = piece_length as usize;
        let count = data.len().div_ceil(piece);
        let grain = Grain {
            unit: 1,
            min_part: 1,
            task: 1,
        };
        let parts = par.map_range(count, &grain, |range| {
            range
                .map(|i| {
                    let part = &data[i * piece..((i + 1) * piece).min(data.len())];
                    let leaves = Chunks::new(part, Self::BLOCK);
                    let mut acc = engine::root(BitTorrentV2, &leaves, &Parallelism::sequential())
                        .expect("a piece has at least one block");
                    // The engine pads to the next power of two of this piece's
                    // blocks; a short last piece pads on up to the piece's size.
                    let mut have = leaves.count().next_power_of_two().trailing_zeros();
                    while have < k {
                        acc = BitTorrentV2.node(&acc, &engine::zero_hash(&BitTorrentV2, have));
                        have += 1;
                    }
                    acc
                })
                .collect::<Vec<_>>()
        });
        Ok(parts.concat())
    }

    /// The `pieces root` of a file longer than one piece, from its piece
    /// layer (see [`BitTorrentV2::piece_hashes`]): the layer padded with
    /// zero-piece subtrees to a power of two, then folded.
    ///
    /// # Errors
    /// [`Error::PieceLength`]; [`Error::OnePiece`] for a layer of fewer than
    /// two pieces: the root of a file of at most one piece is not
    /// determined by its piece hash (BEP 52 pads such a file only to its own
    /// size), so hash it whole instead.
    pub fn root_from_pieces(layer: &[Digest], piece_length: u64) -> Result<Digest, Error> {
        let k = Self::piece_height(piece_length)?;
        if layer.len() < 2 {
            return Err(Error::OnePiece);
        }
        let mut level = layer.to_vec();
        level.resize(
            layer.len().next_power_of_two(),
            engine::zero_hash(&BitTorrentV2, k),
        );
        Ok(engine::perfect_root(&BitTorrentV2, level))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn data(n: usize) -> Vec<u8> {
        (0..n).map(|i| (i % 251) as u8).collect()
    }

    #[test]
    fn bittorrent_piece_layers_and_roots_match_the_file_tree() {
        let par = Parallelism::new(3, crate::par::Strategy::WorkStealing);
        let piece = 32 * 1024u64;
        for size in [32 * 1024 + 1, 100_000, 5 * 32 * 1024, 300_001] {
            let file = data(size);
            let expected = BitTorrentV2::hashes(&file, piece, &par).expect("piece length");
            // Two parts cut at a piece boundary.
            let cut = 2 * piece as usize;
            let mut layer = BitTorrentV2::piece_hashes(&file[..cut.min(size)], piece, &par).expect("ok");
            layer.extend(BitTorrentV2::piece_hashes(&file[cut.min(size)..], piece, &par).expect("ok"));
            assert_eq!(layer, expected.piece_layer, "size {size}");
            assert_eq!(
                Some(BitTorrentV2::root_from_pieces(&layer, piece).expect("ok")),
                expected.pieces_root
            );
        }
        assert!(matches!(
            BitTorrentV2::root_from_pieces(&[[0; 32]], piece),
            Err(Error::OnePiece)
        ));
        assert!(matches!(
            BitTorrentV2::piece_hashes(b"x", 1000, &par),
            Err(Error::PieceLength(1000))
        ));
    }
}
