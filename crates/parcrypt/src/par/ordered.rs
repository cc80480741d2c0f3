//! [`Parallelism::map_ordered`]: many independent items of uneven cost,
//! results handed on strictly in input order as soon as each and all before
//! it are done, in bounded memory.
//!
//! The calling thread is worker 0 and the only consumer: it hands on the
//! results that are ready, then works on an item itself, and sleeps only
//! when it can do neither. Helpers (the pool's `threads − 1` workers) claim
//! items, work on them and store the results. Nobody claims an item more
//! than `window` places past the first result not yet handed on, so at most
//! `window` items and results are held whatever the input's length.
//!
//! An item that `work` turns into [`Step::Heavy`] ends the current *phase*:
//! nothing past it is claimed, the items before it are finished and handed
//! on, the helpers return to the pool, and the calling thread runs `heavy`
//! on it with every thread free (so `heavy` may itself run parallel code on
//! the same pool); then a new phase starts after it.

use std::collections::VecDeque;
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use super::pool::pool;
use super::{Parallelism, Strategy};

/// What [`Parallelism::map_ordered`]'s `work` made of one item.
#[derive(Debug)]
pub enum Step<R, D> {
    /// The item's result.
    Done(R),
    /// The item, to be handed to `heavy` on the calling thread once every
    /// earlier item is done and the other threads are idle.
    Heavy(D),
}

/// While busy, the consumer is told to flush at most this often.
const FLUSH_EVERY: Duration = Duration::from_millis(1);

enum Slot<T, R, D> {
    /// Read from the source, not claimed yet (static schedules only).
    Pending(T),
    /// Claimed by a worker.
    Running,
    Done(R),
    Heavy(D),
}

/// What a worker may do next.
enum Claim<T> {
    Item(usize, T),
    /// Past the window: wait for the consumer.
    Wait,
    /// Nothing more to claim in this phase.
    Exit,
}

struct State<I: Iterator, R, D> {
    source: I,
    exhausted: bool,
    /// The index of `slots[0]`: how many results have been handed on.
    base: usize,
    slots: VecDeque<Slot<I::Item, R, D>>,
    /// Dynamic schedule: every index below this is claimed.
    next: usize,
    /// Static schedule: worker `w`'s next index (`w`, `w + t`, `w + 2t`, …).
    cursors: Vec<usize>,
    /// Nothing at or past this index is claimed: the first heavy item, or 0
    /// once the run is cancelled.
    stop: usize,
    /// Helpers still in the current phase (counting those not started yet).
    active: usize,
    /// Which helpers have started in the current phase.
    started: Vec<bool>,
    consumer_waits: bool,
    helpers_wait: usize,
    panicked: bool,
    window: usize,
    dynamic: bool,
    threads: usize,
}

impl<I: Iterator, R, D> State<I, R, D> {
    fn claim(&mut self, worker: usize) -> Claim<I::Item> {
        let j = if self.dynamic {
            self.next
        } else {
            self.cursors[worker]
        };
        if j >= self.stop {
            return Claim::Exit;
        }
        if j >= self.base + self.window {
            return Claim::Wait;
        }
        while self.base + self.slots.len() <= j && !self.exhausted {
            match self.source.next() {
                Some(item) => self.slots.push_back(Slot::Pending(item)),
                None => self.exhausted = true,
            }
        }
        let Some(slot) = self.slots.get_mut(j - self.base) else {
            return Claim::Exit;
        };
        let Slot::Pending(item) = std::mem::replace(slot, Slot::Running) else {
            // Only this worker claims index j, once.
            unreachable!("an item is claimed once");
        };
        if self.dynamic {
            self.next = j + 1;
        } else {
            self.cursors[worker] = j + self.threads;
        }
        Claim::Item(j, item)
    }

    /// Stores item `j`'s outcome; true if that lowered `stop` (helpers
    /// asleep on the window must then wake up to leave).
    fn store(&mut self, j: usize, step: Step<R, D>) -> bool {
        let before = self.stop;
        let slot = match step {
            Step::Done(r) => Slot::Done(r),
            Step::Heavy(d) => {
                self.stop = self.stop.min(j);
                Slot::Heavy(d)
            }
        };
        self.slots[j - self.base] = slot;
        self.stop < before
    }

    /// The first result if it is ready.
    fn pop_done(&mut self) -> Option<R> {
        if !matches!(self.slots.front(), Some(Slot::Done(_))) {
            return None;
        }
        self.base += 1;
        match self.slots.pop_front() {
            Some(Slot::Done(r)) => Some(r),
            _ => None,
        }
    }

    /// Whether every item has been handed on.
    fn finished(&self) -> bool {
        self.exhausted && self.slots.is_empty()
    }
}

/// The shared state and the two places to sleep.
struct Shared<I: Iterator, R, D> {
    state: Mutex<State<I, R, D>>,
    consumer: Condvar,
    helpers: Condvar,
}

impl<I: Iterator, R, D> Shared<I, R, D> {
    fn lock(&self) -> MutexGuard<'_, State<I, R, D>> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Leaves the phase when dropped, also by a panic, so the consumer never
/// waits for a helper that is gone.
struct Leave<'a, I: Iterator, R, D>(&'a Shared<I, R, D>);

impl<I: Iterator, R, D> Drop for Leave<'_, I, R, D> {
    fn drop(&mut self) {
        let mut st = self.0.lock();
        st.active -= 1;
        if std::thread::panicking() {
            st.panicked = true;
            st.stop = 0;
            self.0.helpers.notify_all();
        }
        self.0.consumer.notify_one();
    }
}

impl Parallelism {
    /// Runs `work` on every item of `items` across this `Parallelism`'s
    /// threads and hands each result to `sink`, on the calling thread, in
    /// input order, as soon as it and every result before it are ready.
    ///
    /// - [`Strategy::WorkStealing`]: each thread takes the next item when it
    ///   is done with one (dynamic self-scheduling).
    /// - [`Strategy::Static`]: item `i` is thread `i mod threads`'s, decided
    ///   up front (OpenMP's `schedule(static, 1)`: contiguous parts cut up
    ///   front would hold every result of the later parts until the first
    ///   is done). While a pool thread has not started (it is busy with
    ///   another caller's job), the calling thread takes its items instead
    ///   of waiting for it.
    /// - [`Strategy::Sequential`] (or one thread): one item after another on
    ///   the calling thread.
    ///
    /// `work` may return [`Step::Heavy`] for an item worth every thread (a
    /// large file): once every earlier result is handed on and the other
    /// threads are idle, `heavy` runs it on the calling thread, where it may
    /// use this `Parallelism` itself.
    ///
    /// `sink(None)` means "no result is ready now": the calling thread is
    /// about to work on an item or to wait, so output buffered by the sink
    /// should be flushed (it is called at most once a millisecond while
    /// items keep coming, and always before waiting).
    ///
    /// At most `window` (at least `threads`) items are read ahead of the
    /// first result not handed on yet, so memory is bounded for any number
    /// of items. `items` is read under a lock, one item at a time.
    ///
    /// # Errors
    /// The first error `sink` returns: nothing more is claimed, items under
    /// way are finished and dropped, and the error is returned.
    ///
    /// # Panics
    /// If `work`, `heavy` or `sink` panics (after the other threads stop).
    /// Do not call it from inside one of parcrypt's parallel jobs.
    ///
    /// # Examples
    /// ```
    /// use parcrypt::par::{Parallelism, Step, Strategy};
    ///
    /// let par = Parallelism::new(3, Strategy::WorkStealing);
    /// let mut out = Vec::new();
    /// par.map_ordered(
    ///     1..=10u64,
    ///     8,
    ///     |n| if n == 5 { Step::Heavy(n) } else { Step::Done(n * n) },
    ///     |n| n * 1000,
    ///     |r| {
    ///         out.extend(r);
    ///         Ok::<(), ()>(())
    ///     },
    /// )?;
    /// assert_eq!(out, [1, 4, 9, 16, 5000, 36, 49, 64, 81, 100]);
    /// # Ok::<(), ()>(())
    /// ```
    pub fn map_ordered<I, R, D, E, W, H, S>(
        &self,
        items: I,
        window: usize,
        work: W,
        mut heavy: H,
        mut sink: S,
    ) -> Result<(), E>
    where
        I: Iterator + Send,
        I::Item: Send,
        R: Send,
        D: Send,
        W: Fn(I::Item) -> Step<R, D> + Sync,
        H: FnMut(D) -> R,
        S: FnMut(Option<R>) -> Result<(), E>,
    {
        let wanted = if self.is_parallel() { self.threads.get() } else { 1 };
        // A pool whose threads cannot start leaves the work to the calling thread.
        let pool = if wanted > 1 { pool(wanted - 1) } else { None };
        let threads = if pool.is_some() { wanted } else { 1 };
        let helpers = threads - 1;
        let shared = Shared {
            state: Mutex::new(State {
                source: items,
                exhausted: false,
                base: 0,
                slots: VecDeque::new(),
                next: 0,
                cursors: (0..threads).collect(),
                stop: usize::MAX,
                active: 0,
                started: vec![false; threads],
                consumer_waits: false,
                helpers_wait: 0,
                panicked: false,
                window: window.max(threads),
                dynamic: self.strategy != Strategy::Static,
                threads,
            }),
            consumer: Condvar::new(),
            helpers: Condvar::new(),
        };
        let mut consumer = Consumer {
            shared: &shared,
            work: &work,
            sink: &mut sink,
            error: None,
            flushed: Instant::now(),
        };
        loop {
            {
                let mut st = shared.lock();
                // A heavy item already stored past the one just handed on
                // still ends the phase it starts.
                st.stop = match st.slots.iter().position(|s| matches!(s, Slot::Heavy(_))) {
                    Some(k) => st.base + k,
                    None => usize::MAX,
                };
                st.active = helpers;
                st.started.fill(false);
            }
            match &pool {
                None => consumer.run(),
                Some(pool) => pool.in_place_scope(|scope| {
                    scope.spawn_broadcast(|_, ctx| helper(&shared, &work, ctx.index() + 1));
                    consumer.run();
                }),
            }
            if consumer.error.is_some() {
                break;
            }
            let mut st = shared.lock();
            while let Some(r) = st.pop_done() {
                drop(st);
                consumer.send(Some(r));
                st = shared.lock();
            }
            if consumer.error.is_some() || st.finished() {
                break;
            }
            // The phase ended at a heavy item, now first and alone.
            let Some(Slot::Heavy(_)) = st.slots.front() else {
                unreachable!("a phase ends with everything handed on or at a heavy item");
            };
            let Some(Slot::Heavy(d)) = st.slots.pop_front() else {
                unreachable!("checked above");
            };
            st.base += 1;
            drop(st);
            consumer.send(None);
            let r = heavy(d);
            consumer.send(Some(r));
            if consumer.error.is_some() {
                break;
            }
        }
        match consumer.error.take() {
            Some(e) => Err(e),
            None => {
                consumer.send(None);
                consumer.error.map_or(Ok(()), Err)
            }
        }
    }
}

/// A helper's phase: claim, work, store, until nothing is left to claim.
fn helper<I, R, D, W>(shared: &Shared<I, R, D>, work: &W, worker: usize)
where
    I: Iterator,
    W: Fn(I::Item) -> Step<R, D>,
{
    let _leave = Leave(shared);
    let mut st = shared.lock();
    st.started[worker] = true;
    loop {
        match st.claim(worker) {
            Claim::Item(j, item) => {
                drop(st);
                let step = work(item);
                st = shared.lock();
                if st.store(j, step) && st.helpers_wait > 0 {
                    shared.helpers.notify_all();
                }
                if st.consumer_waits {
                    shared.consumer.notify_one();
                }
            }
            Claim::Wait => {
                st.helpers_wait += 1;
                st = shared.helpers.wait(st).unwrap_or_else(PoisonError::into_inner);
                st.helpers_wait -= 1;
            }
            Claim::Exit => return,
        }
    }
}

/// Stops the helpers if the calling thread panics (in `work` or `sink`), so
/// that the scope it unwinds through does not wait for helpers sleeping on
/// a window that will never move.
struct CancelOnPanic<'a, I: Iterator, R, D>(&'a Shared<I, R, D>);

impl<I: Iterator, R, D> Drop for CancelOnPanic<'_, I, R, D> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            let mut st = self.0.lock();
            st.panicked = true;
            st.stop = 0;
            self.0.helpers.notify_all();
        }
    }
}

/// The calling thread: worker 0 and the only one that hands results on.
struct Consumer<'a, I: Iterator, R, D, E, W, S> {
    shared: &'a Shared<I, R, D>,
    work: &'a W,
    sink: &'a mut S,
    error: Option<E>,
    /// When the sink was last told to flush.
    flushed: Instant,
}

impl<I, R, D, E, W, S> Consumer<'_, I, R, D, E, W, S>
where
    I: Iterator,
    W: Fn(I::Item) -> Step<R, D>,
    S: FnMut(Option<R>) -> Result<(), E>,
{
    fn send(&mut self, r: Option<R>) {
        if self.error.is_none() {
            if r.is_none() {
                self.flushed = Instant::now();
            }
            if let Err(e) = (self.sink)(r) {
                self.error = Some(e);
                let mut st = self.shared.lock();
                st.stop = 0;
                self.shared.helpers.notify_all();
            }
        }
    }

    /// One phase on the calling thread; returns once no helper is left in it.
    fn run(&mut self) {
        let shared = self.shared;
        let _cancel = CancelOnPanic(shared);
        let mut st = shared.lock();
        loop {
            let mut handed = false;
            while let Some(r) = st.pop_done() {
                handed = true;
                drop(st);
                self.send(Some(r));
                st = shared.lock();
            }
            if handed && st.helpers_wait > 0 {
                // The window moved.
                shared.helpers.notify_all();
            }
            if st.panicked {
                st.stop = 0;
                shared.helpers.notify_all();
            }
            let mut claim = st.claim(0);
            if !matches!(claim, Claim::Item(..)) && !st.dynamic {
                // A static schedule's item whose thread has not started
                // (the pool is busy with another caller's job) is taken
                // here rather than waited for: the other job may be waiting
                // on this caller's progress.
                for w in 1..st.threads {
                    if !st.started[w] {
                        claim = st.claim(w);
                        if matches!(claim, Claim::Item(..)) {
                            break;
                        }
                    }
                }
            }
            match claim {
                Claim::Item(j, item) => {
                    drop(st);
                    if self.flushed.elapsed() >= FLUSH_EVERY {
                        self.send(None);
                    }
                    let step = (self.work)(item);
                    st = shared.lock();
                    if st.store(j, step) && st.helpers_wait > 0 {
                        shared.helpers.notify_all();
                    }
                }
                Claim::Wait | Claim::Exit => {
                    if st.active == 0 {
                        return;
                    }
                    drop(st);
                    self.send(None);
                    st = shared.lock();
                    // Something may have changed while the lock was free.
                    if st.active == 0 || matches!(st.slots.front(), Some(Slot::Done(_))) {
                        continue;
                    }
                    st.consumer_waits = true;
                    st = shared.consumer.wait(st).unwrap_or_else(PoisonError::into_inner);
                    st.consumer_waits = false;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::Step;
    use crate::par::{Parallelism, Strategy};

    fn all_pars() -> Vec<Parallelism> {
        let mut v = vec![Parallelism::sequential()];
        for threads in [1, 2, 3, 8] {
            for s in [Strategy::Static, Strategy::WorkStealing] {
                v.push(Parallelism::new(threads, s));
            }
        }
        v
    }

    /// Uneven work, so items finish out of order.
    fn busy(i: u64) -> u64 {
        let rounds = if i % 7 == 3 { 20_000 } else { i % 5 * 100 };
        (0..rounds).fold(i, |a, k| std::hint::black_box(a.wrapping_mul(31).wrapping_add(k)))
    }

    /// Runs `n` items with heavy ones where `heavy_at` says; what the sink saw.
    fn run(par: &Parallelism, n: u64, window: usize, heavy_at: impl Fn(u64) -> bool + Sync) -> Vec<u64> {
        let handed = AtomicUsize::new(0);
        let mut out = Vec::new();
        let mut flushes = 0;
        par.map_ordered(
            0..n,
            window,
            |i| {
                // Nothing is claimed past the window (+1: a result taken
                // off the front before the sink counts it).
                let limit = handed.load(Ordering::SeqCst) + window.max(8) + 1;
                assert!((i as usize) < limit, "item {i} claimed past the window");
                busy(i);
                if heavy_at(i) {
                    Step::Heavy(i)
                } else {
                    Step::Done(i * 3)
                }
            },
            |i| {
                handed.fetch_add(1, Ordering::SeqCst);
                busy(i);
                i * 3 + 1
            },
            |r| {
                match r {
                    Some(r) => {
                        if r % 3 == 0 {
                            handed.fetch_add(1, Ordering::SeqCst);
                        }
                        out.push(r);
                    }
                    None => flushes += 1,
                }
                Ok::<(), ()>(())
            },
        )
        .unwrap();
        assert!(flushes >= 1, "the sink is told to flush at least at the end");
        out
    }

    #[test]
    fn every_strategy_hands_results_on_in_order() {
        let heavy_sets: [&(dyn Fn(u64) -> bool + Sync); 5] = [
            &|_| false,
            &|i| i == 0,
            &|i| i % 50 == 49 || i == 50,
            &|i| i % 3 == 0,
            &|_| true,
        ];
        for (k, heavy) in heavy_sets.iter().enumerate() {
            let want: Vec<u64> = (0..300)
                .map(|i| if heavy(i) { i * 3 + 1 } else { i * 3 })
                .collect();
            for par in all_pars() {
                for window in [1, 8, 1024] {
                    let got = run(&par, 300, window, heavy);
                    assert_eq!(got, want, "{par:?} window {window} heavy set {k}");
                }
            }
        }
        for par in all_pars() {
            assert!(run(&par, 0, 8, |_| true).is_empty());
        }
    }

    #[test]
    fn concurrent_callers_sharing_a_pool_all_finish() {
        // Three callers at once on the same 3-thread pool, each ending
        // phases with heavy items: a helper may start late, behind another
        // caller's job that waits on its own caller.
        let want: Vec<u64> = (0..2000)
            .map(|i| if i % 50 == 7 { i * 3 + 1 } else { i * 3 })
            .collect();
        for strategy in [Strategy::Static, Strategy::WorkStealing] {
            let par = Parallelism::new(3, strategy);
            std::thread::scope(|s| {
                for _ in 0..3 {
                    s.spawn(|| {
                        for window in [3, 4, 64, 3, 3] {
                            assert_eq!(run(&par, 2000, window, |i| i % 50 == 7), want, "{strategy:?}");
                        }
                    });
                }
            });
        }
    }

    #[test]
    fn a_sink_error_stops_the_run() {
        for par in all_pars() {
            let worked = AtomicUsize::new(0);
            let mut seen = 0;
            let got = par.map_ordered(
                0..1_000_000u64,
                16,
                |i| {
                    worked.fetch_add(1, Ordering::SeqCst);
                    Step::<u64, u64>::Done(i)
                },
                |i| i,
                |r| match r {
                    Some(100) => Err("stop"),
                    Some(_) => {
                        seen += 1;
                        Ok(())
                    }
                    None => Ok(()),
                },
            );
            assert_eq!(got, Err("stop"), "{par:?}");
            assert_eq!(seen, 100, "{par:?}");
            assert!(worked.load(Ordering::SeqCst) <= 101 + 16 + 8, "{par:?}");
        }
    }

    #[test]
    fn a_panic_in_work_or_sink_propagates_instead_of_hanging() {
        for par in all_pars() {
            let in_work = std::panic::catch_unwind(|| {
                par.map_ordered(
                    0..10_000u64,
                    4,
                    |i| {
                        assert_ne!(i, 77, "boom");
                        Step::<u64, u64>::Done(i)
                    },
                    |i| i,
                    |_| Ok::<(), ()>(()),
                )
            });
            assert!(in_work.is_err(), "{par:?}");
            let in_sink = std::panic::catch_unwind(|| {
                par.map_ordered(
                    0..10_000u64,
                    4,
                    Step::<u64, u64>::Done,
                    |i| i,
                    |r| {
                        assert_ne!(r, Some(500), "boom");
                        Ok::<(), ()>(())
                    },
                )
            });
            assert!(in_sink.is_err(), "{par:?}");
        }
    }
}
