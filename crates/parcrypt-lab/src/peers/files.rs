//! File peers: the lab's input written to files, and a command timed on them.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use super::{Beside, absent, outcome, peer_row, run_program};
use crate::inputs::write_input;
use crate::model::{PeerStatus, Row};

/// A directory of `count` files named `f000000`, `f000001`, … of
/// `file_size` bytes of the lab's input each, written and synced (so they are
/// in the page cache and no writeback runs while they are hashed); removed
/// with the value.
#[derive(Debug)]
pub struct FileSet {
    /// The directory.
    pub dir: PathBuf,
    /// The files' names in it, in order.
    pub names: Vec<String>,
}

impl FileSet {
    /// Writes the files into a new directory under `tmp` named after the
    /// process, `label` and a counter (so that sets made at once never share
    /// one).
    ///
    /// # Errors
    /// Creating or writing a file.
    pub fn create(tmp: &Path, label: &str, count: usize, file_size: usize) -> std::io::Result<Self> {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static MADE: AtomicUsize = AtomicUsize::new(0);
        let n = MADE.fetch_add(1, Ordering::Relaxed);
        let dir = tmp.join(format!("parcrypt-lab-{}-{label}-{n}", std::process::id()));
        std::fs::create_dir(&dir)?;
        let set = FileSet {
            names: (0..count).map(|i| format!("f{i:06}")).collect(),
            dir,
        };
        for name in &set.names {
            let mut f = std::fs::File::create(set.dir.join(name))?;
            write_input(&mut f, file_size)?;
            f.sync_all()?;
        }
        Ok(set)
    }

    /// The files' paths.
    pub fn paths(&self) -> Vec<PathBuf> {
        self.names.iter().map(|n| self.dir.join(n)).collect()
    }
}

impl Drop for FileSet {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Times `sha256sum f000000 f000001 … > /dev/null` (in the files'
/// directory, so argument lengths stay short) over `count` files of
/// `file_size` bytes, `repeats` times after one warm-up run; absent, with
/// the reason, where `sha256sum` does not run.
pub fn measure_sha256sum(
    w: &Beside,
    count: usize,
    file_size: usize,
    repeats: usize,
    tmp: &Path,
) -> (Option<Row>, PeerStatus) {
    let detail = format!("sha256sum FILE… ({count} files of {file_size} B) > /dev/null");
    if let Err(why) = run_program(Path::new("sha256sum"), &["--version"]) {
        return absent(w, "sha256sum", format!("{detail}: {why}"));
    }
    let label = format!("{}-sha256sum", w.workload);
    let timed = FileSet::create(tmp, &label, count, file_size)
        .map_err(|e| format!("cannot write the files: {e}"))
        .and_then(|set| {
            let once = || -> Result<f64, String> {
                let t = Instant::now();
                let status = Command::new("sha256sum")
                    .args(&set.names)
                    .current_dir(&set.dir)
                    .stdin(Stdio::null())
                    .stdout(Stdio::null())
                    .stderr(Stdio::null())
                    .status()
                    .map_err(|e| format!("cannot run sha256sum: {e}"))?;
                let elapsed = t.elapsed().as_secs_f64();
                if status.success() {
                    Ok(elapsed)
                } else {
                    Err(format!("exit {status}"))
                }
            };
            once()?; // warm-up, and a check that it works
            (0..repeats.max(1))
                .map(|_| once())
                .collect::<Result<Vec<f64>, String>>()
        });
    let row = timed.map(|samples| peer_row(w, "sha256sum", count, &samples));
    outcome(w, "sha256sum", detail, row)
}

/// A command a file peer runs on a file.
pub(super) struct FileCommand<'a> {
    /// The program; shown in the detail by its file name.
    pub(super) program: &'a Path,
    /// Its arguments, given the path of the file it reads.
    pub(super) args: &'a dyn Fn(&str) -> Vec<String>,
    /// Turns the file of input into the file the command reads (age's
    /// decryption encrypts it first), outside the timing.
    pub(super) prepare: &'a dyn Fn(&Path) -> Result<PathBuf, String>,
    /// Long arguments shown by a placeholder in the detail (`RECIPIENT`).
    pub(super) hide: &'a [(&'a str, &'a str)],
}

/// Times `command` on a file of `size` bytes of the lab's input (written and
/// synced first, so the file is in the page cache and no writeback runs
/// while it is timed), `repeats` times after one warm-up run.
pub(super) fn time_file_command(
    w: &Beside,
    peer: &'static str,
    command: FileCommand<'_>,
    size: usize,
    repeats: usize,
    tmp: &Path,
) -> (Option<Row>, PeerStatus) {
    let file = tmp.join(format!(
        "parcrypt-lab-{}-{}-{size}.bin",
        std::process::id(),
        w.workload
    ));
    let program = command.program.file_name().unwrap_or(command.program.as_os_str());
    let detail = |read: &Path| {
        let path = read.to_string_lossy();
        let mut line = format!(
            "{} {}",
            program.to_string_lossy(),
            (command.args)(&path).join(" ")
        );
        // The file read, by its size in plaintext (`.age`: encrypted first).
        let suffix = match read.extension() {
            Some(ext) if read != file => format!(".{}", ext.to_string_lossy()),
            _ => String::new(),
        };
        line = line.replace(path.as_ref(), &format!("FILE({size} B){suffix}"));
        for (long, short) in command.hide {
            line = line.replace(long, short);
        }
        line
    };
    // The same command on the same size beside another workload: its
    // samples again (`super::once`), the file neither written nor read.
    let key = format!(
        "{} {} [{size} B]",
        program.to_string_lossy(),
        (command.args)("FILE").join(" ")
    );
    let run = || {
        let written = std::fs::File::create(&file)
            .and_then(|mut f| {
                write_input(&mut f, size)?;
                f.sync_all()
            })
            .map_err(|e| e.to_string());
        let read = written.and_then(|()| (command.prepare)(&file));
        let timed = read.as_ref().map_err(Clone::clone).and_then(|read| {
            let args = (command.args)(&read.to_string_lossy());
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            run_program(command.program, &args)?; // warm-up, and a check that it works
            (0..repeats.max(1))
                .map(|_| {
                    let t = Instant::now();
                    run_program(command.program, &args).map(|_| t.elapsed().as_secs_f64())
                })
                .collect::<Result<Vec<f64>, String>>()
        });
        let _ = std::fs::remove_file(&file);
        let shown = match &read {
            Ok(read) => {
                let shown = detail(read);
                let _ = std::fs::remove_file(read);
                shown
            }
            Err(_) => detail(&file),
        };
        (timed, shown)
    };
    let (timed, shown) = super::once(&key, run);
    let row = timed.map(|samples| peer_row(w, peer, size, &samples));
    outcome(w, peer, shown, row)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    #[test]
    fn a_file_set_holds_its_files_until_dropped() {
        let tmp = tempfile::tempdir().unwrap();
        let (a, b) = (
            super::FileSet::create(tmp.path(), "x", 3, 5000).unwrap(),
            super::FileSet::create(tmp.path(), "x", 2, 1).unwrap(),
        );
        assert_ne!(a.dir, b.dir);
        let paths = a.paths();
        assert_eq!(paths.len(), 3);
        for p in &paths {
            assert_eq!(std::fs::read(p).unwrap(), crate::inputs::input(5000));
        }
        drop(a);
        assert!(!paths[0].exists() && b.paths()[1].exists());
        drop(b);
        assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 0);
    }
}
