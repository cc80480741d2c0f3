//! BitTorrent v2 (BEP 52) per-file merkle trees.

use crate::digest::Digest;
use std::fs::File;
use std::io::Read;

use super::Error;
use super::engine::{self, Builder, Chunks, Rule};
use super::stream::Source;
use crate::par::Parallelism;

/// The BitTorrent v2 file tree (BEP 52): SHA-256 of each 16 KiB block (the
/// last one as it is), nodes SHA-256(left ‖ right) with no prefixes, leaves
/// padded with zero hashes to a power of two. An empty file has no root.
///
/// # Examples
/// ```
/// use parcrypt::merkle::BitTorrentV2;
/// use parcrypt::par::Parallelism;
///
/// let par = Parallelism::default();
/// let file = vec![1u8; 100_000];
/// let hashes = BitTorrentV2::hash(&file, 32 * 1024, &par)?;
/// assert_eq!(Some(hashes.pieces_root.unwrap()), BitTorrentV2::pieces_root(&file, &par));
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
    /// `pieces root`; None for an empty file (BEP 52 gives it none).
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

    /// The `pieces root` of a file's contents; None if it is empty.
    pub fn pieces_root(data: &[u8], par: &Parallelism) -> Option<Digest> {
        engine::root(BitTorrentV2, &Chunks::new(data, Self::BLOCK), par)
    }

    /// The pieces root and piece layer of a file's contents.
    ///
    /// # Errors
    /// [`Error::PieceLength`] unless `piece_length` is a power of two of at
    /// least 16 KiB.
    pub fn hash(data: &[u8], piece_length: u64, par: &Parallelism) -> Result<FileHashes, Error> {
        let mut b = Self::builder(piece_length)?;
        b.add(&Chunks::new(data, Self::BLOCK), par);
        Ok(Self::file_hashes(b, data.len() as u64, piece_length))
    }

    /// [`BitTorrentV2::hash`] of a stream, read in bounded memory; `progress`
    /// is called with the number of bytes read.
    ///
    /// # Errors
    /// [`Error::PieceLength`]; [`Error::Io`] from reading.
    pub fn hash_reader(
        input: impl Read + Send,
        piece_length: u64,
        par: &Parallelism,
        progress: impl FnMut(u64),
    ) -> Result<FileHashes, Error> {
        Self::hash_source(Source::Reader(input), piece_length, par, progress)
    }

    /// [`BitTorrentV2::hash`] of a file, hashed from memory-mapped windows
    /// when it is a regular file (see [`crate::merkle::hash_file`]).
    ///
    /// # Errors
    /// [`Error::PieceLength`]; [`Error::Io`] from reading.
    pub fn hash_file(
        file: &File,
        piece_length: u64,
        par: &Parallelism,
        progress: impl FnMut(u64),
    ) -> Result<FileHashes, Error> {
        Self::hash_source(super::file_source(file), piece_length, par, progress)
    }

    pub(crate) fn hash_source(
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
}
