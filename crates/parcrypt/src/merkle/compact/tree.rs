//! [`Tree`]: the formats a compact range builds, their names and how each
//! hashes a node and a block.

use std::fmt;
use std::str::FromStr;

use super::super::bittorrent::BitTorrentV2;
use super::super::engine::{self, Leaves, Rule};
use super::super::glacier::Glacier;
use super::super::rfc6962::Rfc6962;
use crate::digest::Digest;
use crate::name::UnknownName;
use crate::par::Parallelism;

/// The tree formats a compact range can build.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tree {
    /// RFC 6962 / 9162.
    Rfc6962,
    /// BitTorrent v2 (BEP 52) per-file tree over 16 KiB blocks.
    BitTorrentV2,
    /// The Amazon Glacier tree hash over 1 MiB chunks.
    Glacier,
}

impl Tree {
    /// The name used by the CLI's `--format`: `rfc6962`, `bittorrent-v2`, `glacier`.
    pub fn name(self) -> &'static str {
        match self {
            Tree::Rfc6962 => "rfc6962",
            Tree::BitTorrentV2 => "bittorrent-v2",
            Tree::Glacier => "glacier",
        }
    }

    /// The leaf size in bytes for the formats that fix it (16 KiB, 1 MiB).
    pub fn leaf_size(self) -> Option<usize> {
        match self {
            Tree::Rfc6962 => None,
            Tree::BitTorrentV2 => Some(BitTorrentV2::BLOCK),
            Tree::Glacier => Some(Glacier::CHUNK),
        }
    }

    pub(super) fn code(self) -> u8 {
        match self {
            Tree::Rfc6962 => 1,
            Tree::BitTorrentV2 => 2,
            Tree::Glacier => 3,
        }
    }

    pub(super) fn from_code(code: u8) -> Option<Tree> {
        [Tree::Rfc6962, Tree::BitTorrentV2, Tree::Glacier]
            .into_iter()
            .find(|t| t.code() == code)
    }

    pub(super) fn node(self, left: &Digest, right: &Digest) -> Digest {
        match self {
            Tree::Rfc6962 => Rfc6962.node(left, right),
            Tree::BitTorrentV2 => BitTorrentV2.node(left, right),
            Tree::Glacier => Glacier.node(left, right),
        }
    }

    pub(super) fn perfect_root(self, level: Vec<Digest>) -> Digest {
        match self {
            Tree::Rfc6962 => engine::perfect_root(&Rfc6962, level),
            Tree::BitTorrentV2 => engine::perfect_root(&BitTorrentV2, level),
            Tree::Glacier => engine::perfect_root(&Glacier, level),
        }
    }

    pub(super) fn block_root<L: Leaves + ?Sized>(self, leaves: &L, par: &Parallelism) -> Digest {
        let root = match self {
            Tree::Rfc6962 => engine::root(Rfc6962, leaves, par),
            Tree::BitTorrentV2 => engine::root(BitTorrentV2, leaves, par),
            Tree::Glacier => engine::root(Glacier, leaves, par),
        };
        root.expect("a block has at least one leaf")
    }
}

impl fmt::Display for Tree {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Tree {
    type Err = UnknownName;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "rfc6962" | "rfc9162" => Ok(Tree::Rfc6962),
            "bittorrent-v2" | "bittorrent" | "bep52" => Ok(Tree::BitTorrentV2),
            "glacier" => Ok(Tree::Glacier),
            other => Err(UnknownName::new(
                "tree format",
                other,
                "rfc6962, bittorrent-v2 or glacier",
            )),
        }
    }
}
