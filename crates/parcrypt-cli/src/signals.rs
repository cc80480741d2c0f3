//! SIGINT, SIGTERM and SIGHUP end the command without leaving a temporary
//! output behind (for `decrypt`, that would be verified plaintext).
//!
//! Every live temporary file is registered here. A watcher thread receives
//! the signals through `signal-hook` (its handler only writes to a pipe, so
//! nothing unsafe runs in signal context), removes the registered files, and
//! ends the process the way the signal would have: killed by it, which a
//! shell reports as status 128 + the signal's number.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, PoisonError};

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use signal_hook::iterator::Signals;

/// Temporary files to remove if a signal ends the process.
static LIVE: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// What else to undo if a signal ends the process now (a terminal's echo,
/// turned off for a passphrase prompt).
type Undo = Box<dyn FnOnce() + Send>;
static UNDO: Mutex<Option<Undo>> = Mutex::new(None);

/// Runs `undo` if a signal ends the process before the next call (`None`:
/// nothing to undo any more).
pub fn on_signal(undo: Option<Undo>) {
    *UNDO.lock().unwrap_or_else(PoisonError::into_inner) = undo;
}

/// The registry, locked. While it is held the watcher cannot remove files or
/// end the process, so a temporary file being created, or being renamed to
/// its final name, is either registered and removed, or final and kept.
pub fn live() -> Live {
    Live(LIVE.lock().unwrap_or_else(PoisonError::into_inner))
}

/// The locked registry of temporary files.
pub struct Live(MutexGuard<'static, Vec<PathBuf>>);

impl Live {
    /// Removes `path` if a signal ends the process before [`Live::forget`].
    pub fn register(&mut self, path: &Path) {
        self.0.push(path.to_path_buf());
    }

    /// `path` was renamed or removed: no longer the watcher's business.
    pub fn forget(&mut self, path: &Path) {
        self.0.retain(|p| p != path);
    }
}

/// Starts the watcher and returns once the signals are caught. If they
/// cannot be, they keep their default action (the process ends; a temporary
/// file may stay).
pub fn remove_temps_on_signals() {
    let (ready_tx, ready_rx) = std::sync::mpsc::channel();
    // The watcher installs the handlers itself: if it cannot be started, no
    // handler is left catching signals that nobody acts on.
    let spawned = std::thread::Builder::new().name("signals".into()).spawn(move || {
        let signals = Signals::new([SIGINT, SIGTERM, SIGHUP]);
        let _ = ready_tx.send(());
        let Ok(mut signals) = signals else {
            return;
        };
        if let Some(signal) = signals.forever().next() {
            // Held until the process ends: no new temporary file, no rename.
            if let Some(undo) = UNDO.lock().unwrap_or_else(PoisonError::into_inner).take() {
                undo();
            }
            let live = live();
            for path in live.0.iter() {
                let _ = std::fs::remove_file(path);
            }
            let _ = signal_hook::low_level::emulate_default_handler(signal);
            // Only if the default action did not end the process.
            std::process::exit(128 + signal);
        }
    });
    if spawned.is_ok() {
        let _ = ready_rx.recv();
    }
}
