//! How parallel work is cut up and scheduled.
//!
//! Every parallel algorithm in parcrypt is written once, as a function that
//! processes one contiguous *part* of its input. A [`Parallelism`] decides how
//! the input is cut into parts (a [`Plan`]) and who runs them:
//!
//! - [`Strategy::Sequential`]: one part, run on the calling thread. This is the
//!   reference implementation every other strategy is tested against.
//! - [`Strategy::Static`]: `threads` near-equal parts cut up front; thread *i*
//!   of a team of `threads` threads (the caller and `threads − 1` persistent
//!   pool workers) runs part *i* (OpenMP's `schedule(static)`, the papers'
//!   "Executor" style).
//! - [`Strategy::WorkStealing`]: many fixed-size tasks handed out dynamically
//!   to the same `threads` threads, each taking the next task from a shared
//!   counter when it finishes one (dynamic self-scheduling, OpenMP's
//!   `schedule(dynamic)`; the papers' ForkJoin / dynamic mapping). The name
//!   is the contract's; no deque is stolen from, but the effect for
//!   independent tasks is the same: an idle thread takes the next task.
//!
//! Teams and pools are built once per thread count and reused for the life of
//! the process; no thread is spawned per call. A child made by `fork(2)`
//! builds its own on its first parallel call (it inherits none of the
//! parent's worker threads).
//!
//! Inputs shorter than two [`Grain::min_part`]s stay on the calling thread
//! whatever the strategy, so the parallel path never costs more than the
//! sequential one on small inputs. See `README.md` beside this file for how
//! the grains were measured.
//!
//! # Examples
//! ```
//! use parcrypt::par::{Grain, Parallelism, Strategy};
//!
//! const GRAIN: Grain = Grain { unit: 1, min_part: 1000, task: 4000 };
//! let par = Parallelism::new(4, Strategy::Static);
//! // Sums of 0..100_000 in parts, without building an index vector.
//! let sums = par.map_range(100_000, &GRAIN, |part| part.map(|i| i as u64).sum::<u64>());
//! assert_eq!(sums.iter().sum::<u64>(), 4_999_950_000);
//! // One result per item, in order.
//! let squares = par.map_items(&[1u32, 2, 3], &GRAIN, |x| x * x);
//! assert_eq!(squares, [1, 4, 9]);
//! ```

use std::fmt;
use std::num::NonZeroUsize;
use std::ops::Range;
use std::str::FromStr;
#[cfg(test)]
use std::sync::Arc;
use std::sync::OnceLock;

use crate::name::UnknownName;

mod executor;
mod ordered;
mod plan;
mod pool;

use executor::execute;
#[cfg(test)]
use executor::execute_on;
pub use ordered::Step;
pub use plan::{Grain, Plan};
use plan::{Run, near_equal_parts};
#[cfg(test)]
use pool::{Registry, build_pool, spawn_worker};

/// How work is scheduled across threads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Strategy {
    /// One thread; the reference implementation.
    Sequential,
    /// One near-equal part per thread, cut up front.
    Static,
    /// Fixed-size tasks handed out dynamically: each thread takes the next
    /// task when it finishes one (dynamic self-scheduling on a persistent
    /// pool; see the module documentation for the name).
    WorkStealing,
}

impl Strategy {
    /// All strategies, in the order reports list them.
    pub const ALL: [Strategy; 3] = [Strategy::Sequential, Strategy::Static, Strategy::WorkStealing];

    /// The short name used on the command line and in reports: `seq`, `static`, `steal`.
    pub fn name(self) -> &'static str {
        match self {
            Strategy::Sequential => "seq",
            Strategy::Static => "static",
            Strategy::WorkStealing => "steal",
        }
    }
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Strategy {
    type Err = UnknownName;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "seq" | "sequential" => Ok(Strategy::Sequential),
            "static" => Ok(Strategy::Static),
            "steal" | "work-stealing" | "workstealing" => Ok(Strategy::WorkStealing),
            other => Err(UnknownName::new("strategy", other, "seq, static or steal")),
        }
    }
}

/// A thread count and a strategy: everything an algorithm needs to know about
/// how to run in parallel.
///
/// The fields are private so that the thread count is at least 1 by
/// construction ([`Parallelism::new`] takes 0 as every core).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Parallelism {
    threads: NonZeroUsize,
    strategy: Strategy,
}

impl Default for Parallelism {
    /// Work stealing on all available cores.
    fn default() -> Self {
        Parallelism::new(available_threads(), Strategy::WorkStealing)
    }
}

/// The number of threads the machine offers (1 if it cannot tell).
///
/// Read once per process: `std::thread::available_parallelism` reads cgroup
/// files on Linux, which costs ~10 µs, more than AES takes for 64 KiB.
pub fn available_threads() -> usize {
    static THREADS: OnceLock<usize> = OnceLock::new();
    *THREADS.get_or_init(|| std::thread::available_parallelism().map_or(1, usize::from))
}

impl Parallelism {
    /// `threads` workers scheduled by `strategy`; 0 threads means every
    /// core the process may use ([`available_threads`]), as it does for
    /// the CLI's `--threads 0`, Python's `threads=0` (or `None`) and the
    /// Java provider's `threads` 0 — and for rayon.
    pub fn new(threads: usize, strategy: Strategy) -> Self {
        let threads = NonZeroUsize::new(threads)
            .or_else(|| NonZeroUsize::new(available_threads()))
            .unwrap_or(NonZeroUsize::MIN);
        Parallelism { threads, strategy }
    }

    /// The sequential reference: one thread.
    pub const fn sequential() -> Self {
        Parallelism {
            threads: NonZeroUsize::MIN,
            strategy: Strategy::Sequential,
        }
    }

    /// The number of threads, the caller's included.
    pub fn threads(&self) -> NonZeroUsize {
        self.threads
    }

    /// How work is cut up and scheduled.
    pub fn strategy(&self) -> Strategy {
        self.strategy
    }

    /// Whether work may run on more than the calling thread: two or more
    /// threads and a strategy other than [`Strategy::Sequential`]. (Small
    /// inputs still run inline; see [`Plan::is_parallel`] for one input.)
    pub fn is_parallel(&self) -> bool {
        self.threads.get() >= 2 && self.strategy != Strategy::Sequential
    }

    /// Whether an input of `len` elements runs as one part on the calling
    /// thread (the [`Plan`] would not be parallel), without building the
    /// plan: a small message can then skip the per-part work altogether.
    pub fn runs_inline(&self, len: usize, grain: &Grain) -> bool {
        !self.is_parallel() || len < 2 * grain.align_up(grain.min_part.max(1))
    }

    /// Cuts an input of `len` elements into parts for this strategy.
    pub fn plan(&self, len: usize, grain: &Grain) -> Plan {
        let min_part = grain.align_up(grain.min_part.max(1));
        let inline = || Plan {
            parts: std::iter::once(0..len).collect(),
            run: Run::Inline,
        };
        if self.runs_inline(len, grain) {
            return inline();
        }
        let threads = self.threads.get();
        match self.strategy {
            Strategy::Sequential => inline(),
            Strategy::Static => {
                let n = threads.min(len / min_part).max(1);
                Plan {
                    parts: near_equal_parts(len, n, grain.unit.max(1)),
                    run: Run::Team(threads),
                }
            }
            Strategy::WorkStealing => {
                // Fixed-size tasks, but never so few that a worker idles: an
                // input shorter than threads × task is cut into one task per
                // worker instead.
                let even = grain.align_up(len.div_ceil(threads));
                let task = grain.align_up(grain.task.max(1)).min(even).max(min_part);
                let parts = (0..len.div_ceil(task))
                    .map(|i| i * task..((i + 1) * task).min(len))
                    .collect();
                Plan {
                    parts,
                    run: Run::Pool(threads),
                }
            }
        }
    }

    /// Runs `f(part_index, offset, part)` on every part of `data`, cut by
    /// `grain`, and returns when all are done.
    pub fn for_each_mut<T, F>(&self, data: &mut [T], grain: &Grain, f: F)
    where
        T: Send,
        F: Fn(usize, usize, &mut [T]) + Sync,
    {
        self.map_mut(data, grain, f);
    }

    /// Computes `f(part_index, offset, part)` on every part of `data`, cut
    /// by `grain`, and returns the results in part order.
    pub fn map_mut<T, R, F>(&self, data: &mut [T], grain: &Grain, f: F) -> Vec<R>
    where
        T: Send,
        R: Send,
        F: Fn(usize, usize, &mut [T]) -> R + Sync,
    {
        let plan = self.plan(data.len(), grain);
        self.run_mut(&plan, data, f)
    }

    /// Runs `f(part_index, offset, part)` on every part of `data` as cut by
    /// `plan` (which must have been made for `data.len()` elements) and
    /// returns the results in part order.
    ///
    /// Use this instead of [`Parallelism::for_each_mut`] when the work needs
    /// something from each part boundary before any part is changed (CBC
    /// decryption needs the ciphertext block before each part).
    ///
    /// # Panics
    /// If the plan does not cover `data` exactly, or if `f` panics.
    pub fn run_mut<T, R, F>(&self, plan: &Plan, data: &mut [T], f: F) -> Vec<R>
    where
        T: Send,
        R: Send,
        F: Fn(usize, usize, &mut [T]) -> R + Sync,
    {
        assert_eq!(
            plan.parts.last().map_or(0, |r| r.end),
            data.len(),
            "plan made for another length"
        );
        let mut pieces = Vec::with_capacity(plan.parts.len());
        let mut rest = data;
        for range in &plan.parts {
            let (head, tail) = rest.split_at_mut(range.len());
            pieces.push((range.start, head));
            rest = tail;
        }
        execute(plan.run, pieces, |i, (offset, piece)| f(i, offset, piece))
    }

    /// Computes `f(part_index, offset, part)` for every part of `data` and
    /// returns the results in input order.
    pub fn map<T, R, F>(&self, data: &[T], grain: &Grain, f: F) -> Vec<R>
    where
        T: Sync,
        R: Send,
        F: Fn(usize, usize, &[T]) -> R + Sync,
    {
        let plan = self.plan(data.len(), grain);
        let pieces = plan.parts.iter().map(|r| (r.start, &data[r.clone()])).collect();
        execute(plan.run, pieces, |i, (offset, piece)| f(i, offset, piece))
    }

    /// Computes `f(range)` for every part of the indices `0..n`, cut by
    /// `grain`, and returns the results in part order. For work that is
    /// indexed but not a slice (racers, blocks of a tree, chunks of a
    /// message): no index vector is built.
    pub fn map_range<R, F>(&self, n: usize, grain: &Grain, f: F) -> Vec<R>
    where
        R: Send,
        F: Fn(Range<usize>) -> R + Sync,
    {
        let plan = self.plan(n, grain);
        execute(plan.run, plan.parts, |_, range| f(range))
    }

    /// Computes `f(item)` for every item, parts cut by `grain` (counted in
    /// items), and returns one result per item, in order.
    pub fn map_items<T, R, F>(&self, items: &[T], grain: &Grain, f: F) -> Vec<R>
    where
        T: Sync,
        R: Send,
        F: Fn(&T) -> R + Sync,
    {
        let mut parts = self.map(items, grain, |_, _, part| part.iter().map(&f).collect::<Vec<R>>());
        if parts.len() == 1 {
            // Inline: the one part's results are the answer, no copy.
            return parts.pop().unwrap_or_default();
        }
        let mut out = Vec::with_capacity(items.len());
        for part in parts {
            out.extend(part);
        }
        out
    }

    /// Runs `a` and `b` — two independent jobs — on two threads when this
    /// `Parallelism` has two or more and is not sequential, otherwise one
    /// after the other on the calling thread; returns both results. The
    /// calling thread runs `a` at once while a pool worker wakes up for `b`
    /// (tens of µs on a VM), so `a` should be the heavier job. Strategies
    /// make no difference for two jobs.
    ///
    /// # Panics
    /// If `a` or `b` panics.
    pub fn join<A, B, FA, FB>(&self, a: FA, b: FB) -> (A, B)
    where
        A: Send,
        B: Send,
        FA: FnOnce() -> A + Send,
        FB: FnOnce() -> B + Send,
    {
        enum Job<FA, FB> {
            A(FA),
            B(FB),
        }
        enum Done<A, B> {
            A(A),
            B(B),
        }
        let run = if self.is_parallel() {
            Run::Team(2)
        } else {
            Run::Inline
        };
        let done = execute(run, vec![Job::A(a), Job::B(b)], |_, job| match job {
            Job::A(f) => Done::A(f()),
            Job::B(f) => Done::B(f()),
        });
        match <[Done<A, B>; 2]>::try_from(done) {
            Ok([Done::A(a), Done::B(b)]) => (a, b),
            // `execute` returns results in job order, one per job.
            _ => unreachable!("join's two results come back in order"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const G: Grain = Grain {
        unit: 16,
        min_part: 64,
        task: 256,
    };

    fn covers(plan: &Plan, len: usize) {
        let mut next = 0;
        for r in plan.parts() {
            assert_eq!(r.start, next);
            assert!(r.start % 16 == 0);
            next = r.end;
        }
        assert_eq!(next, len);
    }

    #[test]
    fn join_returns_both_results_and_uses_two_threads_when_allowed() {
        let caller = std::thread::current().id();
        for strategy in Strategy::ALL {
            for threads in 1..=4 {
                let par = Parallelism::new(threads, strategy);
                let (a, (b, on)) = par.join(|| 6 * 7, || ("b", std::thread::current().id()));
                assert_eq!((a, b), (42, "b"));
                let parallel = threads >= 2 && strategy != Strategy::Sequential;
                assert_eq!(on != caller, parallel, "{threads} {strategy:?}");
            }
        }
    }

    #[test]
    fn plans_cover_the_input_exactly() {
        for strategy in Strategy::ALL {
            for threads in 1..=8 {
                for len in [
                    0, 1, 15, 16, 17, 127, 128, 129, 255, 256, 257, 1000, 4096, 100_001,
                ] {
                    let plan = Parallelism::new(threads, strategy).plan(len, &G);
                    covers(&plan, len);
                }
            }
        }
    }

    #[test]
    fn small_inputs_stay_inline() {
        for strategy in Strategy::ALL {
            let plan = Parallelism::new(8, strategy).plan(127, &G);
            assert!(!plan.is_parallel());
            assert_eq!(plan.parts().len(), 1);
        }
    }

    #[test]
    fn static_cuts_one_part_per_thread() {
        let plan = Parallelism::new(4, Strategy::Static).plan(16 * 1000, &G);
        let lens: Vec<_> = plan.parts().iter().map(|r| r.len()).collect();
        assert_eq!(lens, vec![4000, 4000, 4000, 4000]);
        // 21 units over 3 threads, the last one partial.
        let plan = Parallelism::new(3, Strategy::Static).plan(16 * 20 + 5, &G);
        let lens: Vec<_> = plan.parts().iter().map(|r| r.len()).collect();
        assert_eq!(lens, vec![112, 112, 101]);
        // Too short for 3 parts of min_part: only 2.
        let plan = Parallelism::new(3, Strategy::Static).plan(16 * 10 + 5, &G);
        let lens: Vec<_> = plan.parts().iter().map(|r| r.len()).collect();
        assert_eq!(lens, vec![96, 69]);
    }

    #[test]
    fn work_stealing_uses_fixed_tasks() {
        let plan = Parallelism::new(2, Strategy::WorkStealing).plan(2560, &G);
        assert_eq!(plan.parts().len(), 10);
        assert!(plan.parts().iter().all(|r| r.len() == 256));
    }

    #[test]
    fn every_part_runs_once_with_its_offset() {
        for strategy in Strategy::ALL {
            for threads in [1, 2, 3, 8] {
                let mut data = vec![0u32; 5000];
                Parallelism::new(threads, strategy).for_each_mut(&mut data, &G, |_, offset, part| {
                    for (j, x) in part.iter_mut().enumerate() {
                        *x += u32::try_from(offset + j).unwrap_or(u32::MAX);
                    }
                });
                assert!(data.iter().enumerate().all(|(i, &x)| x as usize == i));
                let sums = Parallelism::new(threads, strategy).map(&data, &G, |_, _, p| p.len());
                assert_eq!(sums.iter().sum::<usize>(), 5000);
            }
        }
    }

    #[test]
    fn zero_threads_is_every_core_and_plans_without_dividing_by_zero() {
        for strategy in Strategy::ALL {
            let par = Parallelism::new(0, strategy);
            assert_eq!(par.threads().get(), available_threads());
            assert_eq!(par, Parallelism::new(available_threads(), strategy));
            covers(&par.plan(100_001, &G), 100_001);
        }
    }

    #[test]
    fn is_parallel_needs_two_threads_and_a_parallel_strategy() {
        for strategy in Strategy::ALL {
            for threads in 1..=4 {
                let par = Parallelism::new(threads, strategy);
                let want = threads >= 2 && strategy != Strategy::Sequential;
                assert_eq!(par.is_parallel(), want, "{threads} {strategy:?}");
                assert_eq!(
                    par.plan(100_000, &G).is_parallel(),
                    want,
                    "{threads} {strategy:?}"
                );
            }
        }
        assert!(!Parallelism::sequential().is_parallel());
        assert_eq!(Parallelism::default().strategy(), Strategy::WorkStealing);
    }

    #[test]
    fn map_range_covers_every_index_once_in_order() {
        for strategy in Strategy::ALL {
            for threads in [1, 2, 3, 8] {
                let par = Parallelism::new(threads, strategy);
                for n in [0, 1, 63, 64, 127, 128, 129, 5000] {
                    let parts = par.map_range(n, &G, |r| r);
                    let flat: Vec<usize> = parts.into_iter().flatten().collect();
                    assert_eq!(flat, (0..n).collect::<Vec<_>>(), "{threads} {strategy:?} {n}");
                }
            }
        }
    }

    #[test]
    fn map_items_gives_one_result_per_item_in_order() {
        let items: Vec<u32> = (0..5000).collect();
        for strategy in Strategy::ALL {
            for threads in [1, 2, 3, 8] {
                let par = Parallelism::new(threads, strategy);
                for n in [0, 1, 127, 128, 5000] {
                    let got = par.map_items(&items[..n], &G, |x| u64::from(*x) * 3);
                    let want: Vec<u64> = items[..n].iter().map(|&x| u64::from(x) * 3).collect();
                    assert_eq!(got, want, "{threads} {strategy:?} {n}");
                }
            }
        }
    }

    /// Workers that cannot be started (as when the process is out of
    /// threads) are an error from the build, not a panic, and the work then
    /// runs in order on the calling thread with the same results.
    #[test]
    fn a_pool_whose_workers_cannot_start_leaves_the_work_to_the_caller() {
        let refuse = |_: rayon::ThreadBuilder| -> std::io::Result<()> {
            Err(std::io::Error::new(
                std::io::ErrorKind::WouldBlock,
                "no threads left",
            ))
        };
        assert!(build_pool(3, refuse).is_err());
        // One worker started, the second refused: the first is stopped.
        let mut started = 0;
        let second_fails = |worker: rayon::ThreadBuilder| {
            started += 1;
            if started == 2 {
                refuse(worker)
            } else {
                spawn_worker(worker)
            }
        };
        assert!(build_pool(3, second_fails).is_err());
        assert_eq!(started, 2);

        let caller = std::thread::current().id();
        for run in [Run::Team(4), Run::Pool(4)] {
            let mut asked = None;
            let got = execute_on(
                run,
                (10..14).collect(),
                |i, p: usize| (i, p * 2, std::thread::current().id()),
                |helpers| {
                    asked = Some(helpers);
                    build_pool(helpers, refuse).ok().map(Arc::new)
                },
            );
            assert_eq!(asked, Some(3), "{run:?}");
            let want: Vec<_> = (0..4).map(|i| (i, (10 + i) * 2, caller)).collect();
            assert_eq!(got, want, "{run:?}");
        }
        // The same pieces on a pool that starts: the same results.
        let got = execute_on(
            Run::Pool(4),
            (10..14).collect(),
            |i, p: usize| (i, p * 2),
            |helpers| build_pool(helpers, spawn_worker).ok().map(Arc::new),
        );
        assert_eq!(got, (0..4).map(|i| (i, (10 + i) * 2)).collect::<Vec<_>>());
    }

    /// A registry filled in one process and asked from another (as in a
    /// child after `fork(2)`) builds new pools instead of handing out the
    /// inherited ones, whose workers would not exist there.
    #[test]
    fn pools_inherited_by_another_process_are_replaced() {
        let mut registry = Registry::new();
        let parent = registry.get(1, 2, spawn_worker).expect("pool");
        let again = registry.get(1, 2, spawn_worker).expect("pool");
        assert!(
            Arc::ptr_eq(&parent, &again),
            "one pool per thread count in a process"
        );
        let _three = registry.get(1, 3, spawn_worker).expect("pool");
        assert_eq!(registry.pools.len(), 2);

        // "The child": the inherited pools are forgotten (here their threads
        // live on, leaked until the test process ends), new ones are built.
        let child = registry.get(2, 2, spawn_worker).expect("pool");
        assert!(!Arc::ptr_eq(&parent, &child));
        assert_eq!(registry.pools.len(), 1);
        assert!(Arc::ptr_eq(
            &child,
            &registry.get(2, 2, spawn_worker).expect("pool")
        ));
        // The new pool runs work on its own workers.
        let caller = std::thread::current().id();
        let got = execute_on(
            Run::Team(3),
            (0..3).collect(),
            |i, p: usize| (i, p * 2, std::thread::current().id() != caller),
            |helpers| {
                assert_eq!(helpers, 2);
                Some(Arc::clone(&child))
            },
        );
        assert_eq!(got, vec![(0, 0, false), (1, 2, true), (2, 4, true)]);
    }

    #[test]
    fn strategy_names_round_trip() {
        for s in Strategy::ALL {
            assert_eq!(s.name().parse::<Strategy>(), Ok(s));
        }
        let err = "fast".parse::<Strategy>().unwrap_err();
        assert_eq!((err.kind, err.name.as_str()), ("strategy", "fast"));
    }
}
