//! The process's worker pools, one per thread count, built once and rebuilt
//! in a child made by `fork(2)`.
use std::sync::{Arc, Mutex, PoisonError};

/// The process-wide pool with `threads` workers, built on first use, or
/// `None` if its workers cannot be started (out of threads or memory): the
/// caller then runs the work itself. A failed build is not remembered, so
/// a later call tries again once resources are back.
pub(super) fn pool(threads: usize) -> Option<Arc<rayon::ThreadPool>> {
    static POOLS: Mutex<Registry> = Mutex::new(Registry::new());
    let mut pools = POOLS.lock().unwrap_or_else(PoisonError::into_inner);
    pools.get(std::process::id(), threads, spawn_worker)
}

/// The pools of one process, by number of workers.
///
/// Pools belong to the process that built them. A child made by `fork(2)`
/// inherits this registry but none of the pools' worker threads (fork
/// copies only the calling thread), so work handed to them would wait
/// forever. The registry remembers the process it was filled in; in another
/// process it forgets what it holds and builds new pools. (rayon's own
/// global pool, which a child could not rebuild, is never used.)
pub(super) struct Registry {
    pid: u32,
    pub(super) pools: Vec<(usize, Arc<rayon::ThreadPool>)>,
}

impl Registry {
    pub(super) const fn new() -> Self {
        Registry {
            pid: 0,
            pools: Vec::new(),
        }
    }

    /// The pool with `threads` workers for process `pid`, built with `spawn` if needed.
    pub(super) fn get(
        &mut self,
        pid: u32,
        threads: usize,
        spawn: impl FnMut(rayon::ThreadBuilder) -> std::io::Result<()>,
    ) -> Option<Arc<rayon::ThreadPool>> {
        if self.pid != pid {
            // Leaked, not dropped: dropping a pool signals its workers and
            // waits on their locks, and in a forked child they do not exist.
            for inherited in self.pools.drain(..) {
                std::mem::forget(inherited);
            }
            self.pid = pid;
        }
        if let Some((_, p)) = self.pools.iter().find(|(n, _)| *n == threads) {
            return Some(Arc::clone(p));
        }
        let p = Arc::new(build_pool(threads, spawn).ok()?);
        self.pools.push((threads, Arc::clone(&p)));
        Some(p)
    }
}

/// A pool of `threads` workers, each started by `spawn`. If one cannot be
/// started, rayon stops those already running and this returns the error.
pub(super) fn build_pool(
    threads: usize,
    spawn: impl FnMut(rayon::ThreadBuilder) -> std::io::Result<()>,
) -> Result<rayon::ThreadPool, rayon::ThreadPoolBuildError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(move |i| format!("parcrypt-{threads}-{i}"))
        .spawn_handler(spawn)
        .build()
}

/// Starts a pool worker on a new OS thread (what rayon does by default).
pub(super) fn spawn_worker(worker: rayon::ThreadBuilder) -> std::io::Result<()> {
    let mut thread = std::thread::Builder::new();
    if let Some(name) = worker.name() {
        thread = thread.name(name.to_owned());
    }
    if let Some(size) = worker.stack_size() {
        thread = thread.stack_size(size);
    }
    thread.spawn(|| worker.run())?;
    Ok(())
}
