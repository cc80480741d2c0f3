//! The Merkle trees of SLH-DSA — the k FORS trees and the d XMSS trees of
//! the hypertree — built as independent units on the crate's scheduler.
//!
//! A tree of height `t` is cut into `2^u` subtrees (`u` fixed by the
//! parameter set, never by the schedule); a *unit* builds one subtree from
//! its leaves up and keeps the authentication-path nodes that fall inside
//! it. Once every unit of a tree is done, the top `u` levels are climbed
//! from the subtree roots. Every node is a pure function of its address,
//! so the result is the same whoever builds which unit, in any order.

use super::address::{Adrs, Kind};
use super::hash::{Hashes, Tweak};
use super::params::Params;
use super::wots;
use crate::par::{Grain, Parallelism};
use crate::secret::wipe;

/// One tree to build.
#[derive(Clone, Copy, Debug)]
pub(super) enum Tree {
    /// FORS tree `i` of the key pair `keypair` of hypertree tree `tree` (layer 0).
    Fors { i: u32, tree: u64, keypair: u32 },
    /// The XMSS tree `tree` of hypertree layer `layer`.
    Xmss { layer: u32, tree: u64 },
}

/// A tree and the leaf whose authentication path is wanted (none for key
/// generation, which wants only the root).
#[derive(Clone, Copy, Debug)]
pub(super) struct Job {
    pub(super) tree: Tree,
    pub(super) target: Option<u32>,
    /// Keep every leaf ([`Built::leaves`]): key generation keeps the top
    /// tree's, so that signing climbs it from them instead of rebuilding it.
    pub(super) keep_leaves: bool,
}

/// What building a tree gives: its root, the authentication path of
/// the target leaf (`height` nodes, bottom first; empty without a target)
/// and, if the job asked, its leaves (n bytes each, in order).
#[derive(Debug)]
pub(super) struct Built {
    pub(super) root: [u8; 32],
    pub(super) auth: Vec<u8>,
    pub(super) leaves: Vec<u8>,
}

/// The root and the authentication path of `job.target` of a tree whose
/// leaves are given (the top tree a key keeps): a climb of `height`
/// levels, one batched call each.
pub(super) fn from_leaves(p: &Params, h: &Hashes, job: &Job, leaves: &[u8]) -> Built {
    let height = job.tree.height(p);
    let mut auth = vec![0u8; height as usize * p.n];
    let root = climb(p, h, job, (0, 0), leaves.to_vec(), height, &mut auth);
    Built {
        root,
        auth,
        leaves: Vec::new(),
    }
}

impl Tree {
    pub(super) fn height(&self, p: &Params) -> u32 {
        match self {
            Tree::Fors { .. } => p.a,
            Tree::Xmss { .. } => p.hp,
        }
    }

    /// The address of node `t` (counted within this tree) at height `z`.
    pub(super) fn node_adrs(&self, p: &Params, z: u32, t: u32) -> Adrs {
        match *self {
            Tree::Fors { i, tree, keypair } => *Adrs::new(0, tree, Kind::ForsTree)
                .set_keypair(keypair)
                .set_word2(z)
                .set_word3((i << (p.a - z)) + t),
            Tree::Xmss { layer, tree } => *Adrs::new(layer, tree, Kind::Tree).set_word2(z).set_word3(t),
        }
    }

    /// The leaves `first..first + count` into `out` (n bytes each).
    fn leaves_into(&self, p: &Params, h: &Hashes, sk_seed: &[u8], first: u32, count: u32, out: &mut [u8]) {
        match *self {
            Tree::Fors { i, tree, keypair } => {
                let prf: Vec<Adrs> = (first..first + count)
                    .map(|t| fors_sk_adrs(p, tree, keypair, i, t))
                    .collect();
                let mut sk = vec![0u8; out.len()];
                h.prf_many_into(&prf, sk_seed, &mut sk);
                let leaf: Vec<Adrs> = (first..first + count).map(|t| self.node_adrs(p, 0, t)).collect();
                h.many_into(Tweak::F, &leaf, &sk, out);
                wipe(&mut sk);
            }
            Tree::Xmss { layer, tree } => {
                wots::public_keys_into(p, h, sk_seed, layer, tree, first..first + count, out);
            }
        }
    }
}

/// The PRF address of leaf `t` of FORS tree `i` (fors_skGen, Algorithm 14).
pub(super) fn fors_sk_adrs(p: &Params, tree: u64, keypair: u32, i: u32, t: u32) -> Adrs {
    *Adrs::new(0, tree, Kind::ForsPrf)
        .set_keypair(keypair)
        .set_word3((i << p.a) + t)
}

/// Climbs `levels` levels of `job`'s tree from `nodes`, the nodes at
/// height `z` numbered from `first`, and returns the root of the part
/// climbed. Where the target leaf's path passes through, its sibling at
/// each level is copied into `auth` (n bytes per level, level z at `z·n`).
fn climb(
    p: &Params,
    h: &Hashes,
    job: &Job,
    (mut z, mut first): (u32, u32),
    mut nodes: Vec<u8>,
    levels: u32,
    auth: &mut [u8],
) -> [u8; 32] {
    let (tree, target) = (&job.tree, job.target);
    let n = p.n;
    for _ in 0..levels {
        let count = (nodes.len() / n) as u32;
        if let Some(leaf) = target {
            let local = (leaf >> z).wrapping_sub(first);
            if local < count {
                let sib = (local ^ 1) as usize;
                auth[z as usize * n..][..n].copy_from_slice(&nodes[sib * n..][..n]);
            }
        }
        let adrs: Vec<Adrs> = (0..count / 2)
            .map(|t| tree.node_adrs(p, z + 1, (first >> 1) + t))
            .collect();
        let mut parents = vec![0u8; nodes.len() / 2];
        h.many_into(Tweak::H, &adrs, &nodes, &mut parents);
        nodes = parents;
        z += 1;
        first >>= 1;
    }
    let mut root = [0u8; 32];
    root[..n].copy_from_slice(&nodes[..n]);
    root
}

/// How many levels of a tree of height `height` one unit builds: subtrees
/// of at most 32 XMSS leaves or 256 FORS leaves (enough chains or leaves to
/// fill the SHA-256 lanes), and at least 4 units per tree where the tree
/// has 4 leaves, so a single tree (key generation) still spreads.
fn unit_height(tree: &Tree, height: u32) -> u32 {
    let most = match tree {
        Tree::Fors { .. } => 8,
        Tree::Xmss { .. } => 5,
    };
    most.min(height - height.min(2))
}

/// The relative cost of one unit (hash calls per leaf × leaves), for
/// ordering units so that `Static`'s contiguous parts get equal work.
fn unit_cost(p: &Params, tree: &Tree, u: u32) -> u64 {
    let per_leaf = match tree {
        Tree::Fors { .. } => 3,
        Tree::Xmss { .. } => p.len() as u64 * 16 + 2,
    };
    per_leaf << u
}

/// Below this much work (in [`unit_cost`]'s hash calls: about half a
/// millisecond) the trees are built on the calling thread: waking a worker
/// costs more than it saves (SHA2-128f's key generation, one tree of 8
/// leaves).
const INLINE_COST: u64 = 1 << 14;

/// Scheduling: one unit per task.
const GRAIN: Grain = Grain {
    unit: 1,
    min_part: 1,
    task: 1,
};

/// Builds every tree of `jobs`, their units spread over `par`; the results
/// in job order.
pub(super) fn build(p: &Params, h: &Hashes, sk_seed: &[u8], jobs: &[Job], par: &Parallelism) -> Vec<Built> {
    let n = p.n;
    // Units (job, subtree index), ordered so that the cost before each
    // unit grows evenly: every job's units are dealt out in proportion to
    // its share of the work.
    let cuts: Vec<u32> = jobs
        .iter()
        .map(|j| unit_height(&j.tree, j.tree.height(p)))
        .collect();
    let mut units: Vec<(usize, u32)> = Vec::new();
    let totals: Vec<u64> = jobs
        .iter()
        .zip(&cuts)
        .map(|(j, &u)| unit_cost(p, &j.tree, u) << (j.tree.height(p) - u))
        .collect();
    let all: u64 = totals.iter().sum();
    let mut next = vec![0u32; jobs.len()];
    let mut done = vec![0u64; jobs.len()];
    loop {
        // The job furthest behind its share (done / total lowest) goes next.
        let pick = (0..jobs.len())
            .filter(|&j| next[j] < 1 << (jobs[j].tree.height(p) - cuts[j]))
            .min_by(|&x, &y| {
                (u128::from(done[x]) * u128::from(totals[y]))
                    .cmp(&(u128::from(done[y]) * u128::from(totals[x])))
            });
        let Some(j) = pick else { break };
        units.push((j, next[j]));
        next[j] += 1;
        done[j] += unit_cost(p, &jobs[j].tree, cuts[j]);
    }
    debug_assert_eq!(done.iter().sum::<u64>(), all);

    let sequential = Parallelism::sequential();
    let par = if all < INLINE_COST { &sequential } else { par };
    let parts = par.map_range(units.len(), &GRAIN, |range| {
        range
            .map(|u| {
                let (j, s) = units[u];
                let job = &jobs[j];
                let c = cuts[j];
                let first = s << c;
                let mut leaves = vec![0u8; n << c];
                job.tree.leaves_into(p, h, sk_seed, first, 1 << c, &mut leaves);
                let mut auth = vec![0u8; job.tree.height(p) as usize * n];
                let kept = job.keep_leaves.then(|| leaves.clone());
                let root = climb(p, h, job, (0, first), leaves, c, &mut auth);
                let inside = job.target.is_some_and(|t| t >> c == s);
                (u, root, inside.then_some(auth), kept)
            })
            .collect::<Vec<_>>()
    });

    let mut roots: Vec<Vec<u8>> = jobs
        .iter()
        .zip(&cuts)
        .map(|(j, &c)| vec![0u8; n << (j.tree.height(p) - c)])
        .collect();
    let mut auths: Vec<Vec<u8>> = jobs
        .iter()
        .map(|j| vec![0u8; j.tree.height(p) as usize * n])
        .collect();
    let mut leaves: Vec<Vec<u8>> = jobs
        .iter()
        .map(|j| {
            let count = if j.keep_leaves { 1 << j.tree.height(p) } else { 0 };
            vec![0u8; count * n]
        })
        .collect();
    for (u, root, auth, kept) in parts.into_iter().flatten() {
        let (j, s) = units[u];
        roots[j][s as usize * n..][..n].copy_from_slice(&root[..n]);
        if let Some(kept) = kept {
            leaves[j][(s as usize * kept.len())..][..kept.len()].copy_from_slice(&kept);
        }
        if let Some(auth) = auth {
            let c = cuts[j] as usize;
            auths[j][..c * n].copy_from_slice(&auth[..c * n]);
        }
    }
    jobs.iter()
        .zip(roots)
        .zip(auths)
        .zip(leaves)
        .enumerate()
        .map(|(j, (((job, tops), mut auth), leaves))| {
            let height = job.tree.height(p);
            let c = cuts[j];
            let root = climb(p, h, job, (c, 0), tops, height - c, &mut auth);
            if job.target.is_none() {
                auth.clear();
            }
            Built { root, auth, leaves }
        })
        .collect()
}
