//! Who runs the parts: the calling thread and a team of pool workers, and
//! how the caller waits for them.
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use super::pool::pool;
use super::{Run, available_threads};

/// Runs `f(i, piece)` for every piece as `run` says, returning the results in
/// piece order.
///
/// A parallel run uses `threads` threads: the calling thread and `threads − 1`
/// pool workers. The caller works instead of sleeping, and at the end waits
/// for the others by spinning briefly: a sleeping thread takes 30–60 µs to
/// wake on a VM (`examples/par_overhead.rs`), which is what made 1 MiB jobs
/// lose 10% of their speed-up when the caller only waited.
///
/// If the pool's workers cannot be started (the process is out of threads
/// or memory), the pieces run in order on the calling thread: the results
/// are the same, only slower.
pub(super) fn execute<P, R, F>(run: Run, pieces: Vec<P>, f: F) -> Vec<R>
where
    P: Send,
    R: Send,
    F: Fn(usize, P) -> R + Sync,
{
    execute_on(run, pieces, f, pool)
}

/// [`execute`] with the pool of `helpers` workers from `pool_for`.
pub(super) fn execute_on<P, R, F>(
    run: Run,
    pieces: Vec<P>,
    f: F,
    pool_for: impl FnOnce(usize) -> Option<Arc<rayon::ThreadPool>>,
) -> Vec<R>
where
    P: Send,
    R: Send,
    F: Fn(usize, P) -> R + Sync,
{
    let inline = |pieces: Vec<P>| pieces.into_iter().enumerate().map(|(i, p)| f(i, p)).collect();
    let threads = match run {
        Run::Inline => return inline(pieces),
        Run::Pool(t) | Run::Team(t) => t,
    };
    let helpers = threads.max(2) - 1;
    let Some(pool) = pool_for(helpers) else {
        return inline(pieces);
    };
    let n = pieces.len();
    let slots: Vec<Mutex<Option<P>>> = pieces.into_iter().map(|p| Mutex::new(Some(p))).collect();
    let results: Vec<Mutex<Option<R>>> = (0..n).map(|_| Mutex::new(None)).collect();
    let run_piece = |i: usize| {
        let piece = slots
            .get(i)
            .and_then(|slot| slot.lock().unwrap_or_else(PoisonError::into_inner).take());
        if let Some(p) = piece {
            let r = f(i, p);
            *results[i].lock().unwrap_or_else(PoisonError::into_inner) = Some(r);
        }
    };
    let next = AtomicUsize::new(0);
    // Dynamic: every thread takes the next task when it is done with one.
    let take_tasks = || {
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i >= n {
                break;
            }
            run_piece(i);
        }
    };
    let finished = AtomicUsize::new(0);
    // One job per helper that has a piece to run, not a broadcast to every
    // worker: a broadcast needs every worker scheduled once per run, which
    // beside busy neighbours (rayon's idle workers yield their core 32
    // times before sleeping) made many small runs crawl.
    let jobs = helpers.min(n.saturating_sub(1));
    pool.in_place_scope(|scope| {
        for k in 0..jobs {
            let (finished, run_piece, take_tasks) = (&finished, &run_piece, &take_tasks);
            scope.spawn(move |_| {
                // Counted even if the piece panics, so the caller never waits forever.
                let _done = Finished(finished);
                match run {
                    // Job k runs part k + 1; the caller runs part 0.
                    Run::Team(_) => run_piece(k + 1),
                    _ => take_tasks(),
                }
            });
        }
        match run {
            Run::Team(_) => run_piece(0),
            _ => take_tasks(),
        }
        await_helpers(&finished, jobs, threads);
    });
    results
        .into_iter()
        .map(|r| {
            r.into_inner()
                .unwrap_or_else(PoisonError::into_inner)
                // Every piece ran: a panicking piece re-panics out of the scope above.
                .expect("every piece ran")
        })
        .collect()
}

/// Increments its counter when dropped.
pub(super) struct Finished<'a>(&'a AtomicUsize);

impl Drop for Finished<'_> {
    fn drop(&mut self) {
        self.0.fetch_add(1, Ordering::Release);
    }
}

/// Spins until `helpers` have finished, for up to ~1 ms, when every thread
/// has a core of its own; otherwise (or after that) the scope's own blocking
/// wait takes over. Spinning on an oversubscribed machine would take the
/// core a helper needs.
pub(super) fn await_helpers(finished: &AtomicUsize, helpers: usize, threads: usize) {
    if threads > available_threads() {
        return;
    }
    let start = std::time::Instant::now();
    while finished.load(Ordering::Acquire) < helpers {
        std::hint::spin_loop();
        if start.elapsed().as_micros() > 1000 {
            return;
        }
    }
}
