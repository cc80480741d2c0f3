//! The machine's ceilings: how fast this machine moves bytes when no
//! cryptography is done — memory copied and read (1 and N threads), a file
//! read out of the page cache with the file pipeline's 1 MiB positional
//! reads (1 and N threads), bytes through `cat` between two pipes, writes to `/dev/null` and
//! to a file. The cost models ([`crate::roofline`]) cap a workload's limit
//! with them; `machine.json` records them.
//!
//! Measured once per machine (a second or two) and cached in a JSON file
//! keyed by the CPU model, the core count and the kernel
//! ([`Machine::ceilings_key`](crate::machine::Machine::ceilings_key)), so
//! every run on the machine is judged against the same ceilings;
//! `parcrypt lab --remeasure` measures again (after a hardware or kernel
//! change the key changes by itself). Each figure is the best of a few
//! repetitions: a ceiling is what the machine can do, and the best run is
//! the one the least disturbed by other work.

use std::collections::BTreeMap;
use std::fs::File;
use std::hint::black_box;
use std::io::{Read, Write};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::time::Instant;

use serde::{Deserialize, Serialize};

/// The file pipeline's read size: `parcrypt`'s positional reads of a
/// regular file are 1 MiB parts of its buffer, one part per task.
pub const READ_SIZE: usize = 1 << 20;
/// The size of `cat`'s reads and writes (coreutils' 128 KiB), for the pipe.
pub const PIPE_CHUNK: usize = 128 << 10;
/// The smallest buffer (and file) measured: beyond the last-level cache of
/// most machines, so the copies come from memory.
const MIN_BUFFER: usize = 64 << 20;
/// The largest: twice a very large last-level cache (300 MiB) would need
/// more memory and time than a ceiling is worth.
const MAX_BUFFER: usize = 256 << 20;
/// Repetitions of each measurement; the best counts.
const REPEATS: usize = 3;

/// A rate at one thread and at every thread the machine has, bytes per second.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Scaling {
    /// One thread.
    pub one: f64,
    /// [`Ceilings::threads`] threads at once, each on its own part.
    pub all: f64,
}

impl Scaling {
    /// The rate on `p` threads: `one` at 1, `all` from [`Ceilings::threads`]
    /// on, and in between linear in `p` but never above `all`.
    pub fn at(self, p: usize, threads: usize) -> f64 {
        if p <= 1 {
            self.one
        } else if p >= threads {
            self.all
        } else {
            (self.one * p as f64).min(self.all).max(self.one)
        }
    }
}

/// Which ceiling a cost model uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Ceiling {
    /// Copying memory to memory: bytes copied per second (each read once
    /// and written once), what an in-place transformation moves.
    MemoryCopy,
    /// Reading memory: bytes read per second, what a hash moves.
    MemoryRead,
    /// Reading a file that is in the page cache into a reused buffer, with
    /// 1 MiB positional reads.
    PageCacheRead,
}

impl Ceiling {
    /// Its name in results (`memory-copy`, `page-cache-read`).
    pub fn name(self) -> &'static str {
        match self {
            Ceiling::MemoryCopy => "memory-copy",
            Ceiling::MemoryRead => "memory-read",
            Ceiling::PageCacheRead => "page-cache-read",
        }
    }
}

/// What this machine can move, measured by [`measure`].
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Ceilings {
    /// The machine these were measured on ([`Machine::ceilings_key`](crate::machine::Machine::ceilings_key)).
    pub key: String,
    /// When (UTC, RFC 3339).
    pub measured_utc: String,
    /// The threads of the "all" figures: the cores the process may use.
    pub threads: usize,
    /// The last-level cache in bytes, where sysfs says: a working set
    /// smaller than this is not capped by memory bandwidth.
    pub llc_bytes: Option<u64>,
    /// Bytes per buffer (and of the file) the figures moved.
    pub buffer_bytes: usize,
    /// Memory copied (`copy_from_slice` between two buffers, each thread its part).
    pub memory_copy: Scaling,
    /// Memory read (an XOR of every byte of the buffer, each thread its part).
    pub memory_read: Scaling,
    /// A file in the page cache read with 1 MiB `pread`s into a reused
    /// buffer (each thread its contiguous part), as the file pipeline reads.
    pub page_cache_read: Scaling,
    /// Bytes of the small file of [`Ceilings::page_cache_read_small`]:
    /// half the last-level cache, 1–16 MiB.
    pub small_file_bytes: usize,
    /// As `page_cache_read`, for a file of `small_file_bytes` read again
    /// and again, whose pages stay in the CPU's caches: what a workload
    /// reading a file smaller than the buffer gets (a quick study's 16 MiB).
    pub page_cache_read_small: Scaling,
    /// Bytes through `cat` (into its standard input, out of its standard
    /// output: two pipes and a process), 128 KiB reads and writes: `cat F |
    /// cat` less the file read.
    pub pipe: f64,
    /// 1 MiB writes to `/dev/null`.
    pub write_dev_null: f64,
    /// 1 MiB writes to a file in the temp directory (into the page cache,
    /// no sync): what `-o FILE` costs before writeback.
    pub write_file: f64,
    /// Seconds the measurement took.
    pub seconds: f64,
    /// Where these were read from, when reused from the cache (not stored
    /// in the cache itself).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cached_in: Option<PathBuf>,
}

impl Ceilings {
    /// The `ceiling` on `p` threads, for a workload moving `bytes` (a file
    /// smaller than the buffer reads at the small file's rate).
    pub fn rate(&self, ceiling: Ceiling, p: usize, bytes: usize) -> f64 {
        let scaling = match ceiling {
            Ceiling::MemoryCopy => self.memory_copy,
            Ceiling::MemoryRead => self.memory_read,
            Ceiling::PageCacheRead
                if bytes < self.buffer_bytes && self.page_cache_read_small.one.is_finite() =>
            {
                self.page_cache_read_small
            }
            Ceiling::PageCacheRead => self.page_cache_read,
        };
        scaling.at(p, self.threads)
    }

    /// Whether `ceiling` bounds a workload moving `bytes`: a memory
    /// ceiling only where the workload's working set is at least the one
    /// it was measured with (copy: two buffers; read: one), since smaller
    /// inputs may sit in caches the measurement did not fit in (an in-place
    /// AES-CTR of 64 MiB ran at twice the 128 MiB copy's rate on a VM whose
    /// sysfs said 32 MiB of L3); the page-cache read at every size.
    pub fn bounds(&self, ceiling: Ceiling, bytes: usize) -> bool {
        match ceiling {
            Ceiling::MemoryCopy => bytes >= 2 * self.buffer_bytes,
            Ceiling::MemoryRead => bytes >= self.buffer_bytes,
            Ceiling::PageCacheRead => true,
        }
    }
}

/// The default cache of ceilings: `$XDG_CACHE_HOME/parcrypt/lab-ceilings.json`,
/// else `$HOME/.cache/parcrypt/lab-ceilings.json`; `None` (measure every
/// run) where neither is set.
pub fn default_cache() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME")
                .filter(|v| !v.is_empty())
                .map(|h| Path::new(&h).join(".cache"))
        })?;
    Some(base.join("parcrypt").join("lab-ceilings.json"))
}

/// The ceilings of the machine `key`: from `cache` where it holds them and
/// `remeasure` is not set, else measured now (on `threads` threads, files
/// in `temp`) and stored in `cache`. The second value is a note for the
/// report where the cache could not be read or written (the run goes on
/// with fresh figures).
pub fn load_or_measure(
    cache: Option<&Path>,
    key: &str,
    remeasure: bool,
    threads: usize,
    temp: &Path,
    now_utc: &str,
) -> (Ceilings, Option<String>) {
    let mut stored: BTreeMap<String, Ceilings> = BTreeMap::new();
    let mut note = None;
    if let Some(path) = cache {
        match std::fs::read(path) {
            Ok(bytes) => match serde_json::from_slice(&bytes) {
                Ok(map) => stored = map,
                Err(e) => {
                    note = Some(format!(
                        "the ceilings cache {} is unreadable ({e}): measured again",
                        path.display()
                    ));
                }
            },
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => note = Some(format!("cannot read the ceilings cache {}: {e}", path.display())),
        }
        if !remeasure
            && let Some(found) = stored.get(key)
            && found.threads == threads
        {
            let mut found = found.clone();
            found.cached_in = Some(path.to_path_buf());
            return (found, note);
        }
    }
    let fresh = measure(key, threads, temp, now_utc);
    if let Some(path) = cache {
        stored.insert(key.to_owned(), fresh.clone());
        if let Err(e) = store(path, &stored) {
            note = Some(format!("cannot write the ceilings cache {}: {e}", path.display()));
        }
    }
    (fresh, note)
}

/// Writes the cache whole, through a temporary file renamed over it, so a
/// concurrent run reads the old cache or the new one, never half of one.
fn store(path: &Path, stored: &BTreeMap<String, Ceilings>) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let json = serde_json::to_vec_pretty(stored).map_err(std::io::Error::other)?;
    let tmp = path.with_extension(format!("json.{}.tmp", std::process::id()));
    std::fs::write(&tmp, json)?;
    std::fs::rename(&tmp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}

/// Measures every ceiling now: a second or two (buffers of 64–256 MiB, by
/// the size of the last-level cache; three repetitions each, the best
/// counts). A figure that cannot be measured (no temp directory, no
/// `/dev/null`) is NaN, and a model that needs it has no cap from it.
pub fn measure(key: &str, threads: usize, temp: &Path, now_utc: &str) -> Ceilings {
    let started = Instant::now();
    let threads = threads.max(1);
    let llc_bytes = last_level_cache();
    let buffer_bytes = llc_bytes
        .map_or(MIN_BUFFER, |llc| {
            usize::try_from(llc.saturating_mul(2)).unwrap_or(MAX_BUFFER)
        })
        .clamp(MIN_BUFFER, MAX_BUFFER);
    let src: Vec<u8> = (0..buffer_bytes).map(|i| (i % 251) as u8).collect();
    let mut dst = vec![0u8; buffer_bytes];
    let memory_copy = Scaling {
        one: best(|| copy(&src, &mut dst, 1)),
        all: best(|| copy(&src, &mut dst, threads)),
    };
    let memory_read = Scaling {
        one: best(|| read_memory(&src, 1)),
        all: best(|| read_memory(&src, threads)),
    };
    drop(dst);
    let small_file_bytes = llc_bytes
        .map_or(16 << 20, |llc| usize::try_from(llc / 2).unwrap_or(16 << 20))
        .clamp(1 << 20, 16 << 20);
    let unmeasured = Scaling {
        one: f64::NAN,
        all: f64::NAN,
    };
    let (write_file, page_cache_read, page_cache_read_small) =
        file_ceilings(&src, small_file_bytes, threads, temp).unwrap_or((f64::NAN, unmeasured, unmeasured));
    let pipe = best(|| through_pipe(&src).unwrap_or(f64::NAN));
    let write_dev_null = best(|| to_dev_null(&src).unwrap_or(f64::NAN));
    Ceilings {
        key: key.to_owned(),
        measured_utc: now_utc.to_owned(),
        threads,
        llc_bytes,
        buffer_bytes,
        memory_copy,
        memory_read,
        page_cache_read,
        small_file_bytes,
        page_cache_read_small,
        pipe,
        write_dev_null,
        write_file,
        seconds: started.elapsed().as_secs_f64(),
        cached_in: None,
    }
}

/// The best (highest) of [`REPEATS`] rates, ignoring NaN.
fn best(mut rate: impl FnMut() -> f64) -> f64 {
    (0..REPEATS).map(|_| rate()).fold(f64::NAN, f64::max)
}

/// Bytes per second of `f` over `bytes`.
fn timed(bytes: usize, f: impl FnOnce()) -> f64 {
    let t = Instant::now();
    f();
    bytes as f64 / t.elapsed().as_secs_f64().max(1e-9)
}

/// `threads` contiguous parts of `len` bytes, as (start, end).
fn parts(len: usize, threads: usize) -> Vec<(usize, usize)> {
    let per = len.div_ceil(threads.max(1));
    (0..len)
        .step_by(per.max(1))
        .map(|s| (s, (s + per).min(len)))
        .collect()
}

fn copy(src: &[u8], dst: &mut [u8], threads: usize) -> f64 {
    let per = src.len().div_ceil(threads);
    timed(src.len(), || {
        std::thread::scope(|s| {
            for (from, to) in src.chunks(per).zip(dst.chunks_mut(per)) {
                s.spawn(move || to.copy_from_slice(black_box(from)));
            }
        });
    })
}

fn read_memory(src: &[u8], threads: usize) -> f64 {
    let per = src.len().div_ceil(threads);
    timed(src.len(), || {
        std::thread::scope(|s| {
            for part in src.chunks(per) {
                s.spawn(move || {
                    // An XOR of every byte: the compiler turns it into wide
                    // vector loads and XORs, so the loop is bound by loads.
                    black_box(black_box(part).iter().fold(0u8, |a, &b| a ^ b));
                });
            }
        });
    })
}

/// Writes `data` to an unlinked file in `temp` twice (the best of the two
/// is the write ceiling; the second overwrites pages already in the
/// cache), syncs it so no writeback runs during the reads, then reads it
/// back on 1 and `threads` threads, whole and its first `small` bytes.
fn file_ceilings(
    data: &[u8],
    small: usize,
    threads: usize,
    temp: &Path,
) -> std::io::Result<(f64, Scaling, Scaling)> {
    let path = temp.join(format!("parcrypt-lab-ceilings-{}.bin", std::process::id()));
    let file = File::options()
        .read(true)
        .write(true)
        .create_new(true)
        .open(&path);
    let _ = std::fs::remove_file(&path);
    let file = file?;
    let write = || -> std::io::Result<f64> {
        let t = Instant::now();
        for (i, chunk) in data.chunks(READ_SIZE).enumerate() {
            file.write_all_at(chunk, (i * READ_SIZE) as u64)?;
        }
        Ok(data.len() as f64 / t.elapsed().as_secs_f64().max(1e-9))
    };
    let write_file = write()?.max(write()?);
    file.sync_all()?;
    // Each thread reads its part of the first `len` bytes `times` times.
    let read = |threads: usize, len: usize, times: usize| -> f64 {
        timed(len * times, || {
            std::thread::scope(|s| {
                for (start, end) in parts(len, threads) {
                    let file = &file;
                    s.spawn(move || {
                        let mut buf = vec![0u8; READ_SIZE];
                        for _ in 0..times {
                            let mut at = start;
                            while at < end {
                                let want = READ_SIZE.min(end - at);
                                match file.read_at(&mut buf[..want], at as u64) {
                                    Ok(0) | Err(_) => break,
                                    Ok(n) => at += n,
                                }
                                black_box(&buf);
                            }
                        }
                    });
                }
            });
        })
    };
    let page_cache_read = Scaling {
        one: best(|| read(1, data.len(), 1)),
        all: best(|| read(threads, data.len(), 1)),
    };
    // As many bytes as the whole file, so the threads' start is as small a
    // part of the time.
    let small = small.clamp(1, data.len());
    let times = data.len() / small;
    let page_cache_read_small = Scaling {
        one: best(|| read(1, small, times)),
        all: best(|| read(threads, small, times)),
    };
    Ok((write_file, page_cache_read, page_cache_read_small))
}

/// `data` through `cat`: written into its standard input by one thread
/// and read back from its standard output by another, in [`PIPE_CHUNK`]s —
/// two pipes and a `cat` between them, as `cat F | cat` moves the file
/// less reading it. `None` without `cat`.
fn through_pipe(data: &[u8]) -> std::io::Result<f64> {
    use std::process::{Command, Stdio};
    let mut cat = Command::new("cat")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()?;
    let (Some(mut writer), Some(mut reader)) = (cat.stdin.take(), cat.stdout.take()) else {
        let _ = cat.kill();
        let _ = cat.wait();
        return Err(std::io::Error::other("cat has no pipes"));
    };
    let t = Instant::now();
    let received = std::thread::scope(|s| {
        let sender = s.spawn(move || -> std::io::Result<()> {
            for chunk in data.chunks(PIPE_CHUNK) {
                writer.write_all(chunk)?;
            }
            Ok(()) // dropping `writer` closes cat's input: it ends
        });
        let mut buf = vec![0u8; PIPE_CHUNK];
        let mut received = 0usize;
        loop {
            match reader.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => received += n,
            }
        }
        let sent = sender
            .join()
            .map_err(|_| std::io::Error::other("the pipe's writer panicked"));
        (received, sent)
    });
    let elapsed = t.elapsed();
    let _ = cat.wait();
    let (received, sent) = received;
    sent??;
    Ok(received as f64 / elapsed.as_secs_f64().max(1e-9))
}

fn to_dev_null(data: &[u8]) -> std::io::Result<f64> {
    let mut null = File::options().write(true).open("/dev/null")?;
    let t = Instant::now();
    for chunk in data.chunks(READ_SIZE) {
        null.write_all(chunk)?;
    }
    Ok(data.len() as f64 / t.elapsed().as_secs_f64().max(1e-9))
}

/// The largest cache sysfs lists for CPU 0 (its last level), in bytes.
fn last_level_cache() -> Option<u64> {
    let dir = std::fs::read_dir("/sys/devices/system/cpu/cpu0/cache").ok()?;
    dir.flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("index"))
        .filter_map(|e| std::fs::read_to_string(e.path().join("size")).ok())
        .filter_map(|s| parse_cache_size(s.trim()))
        .max()
}

/// `32768K`, `2M`, `1024` (bytes) as bytes.
fn parse_cache_size(s: &str) -> Option<u64> {
    let (digits, mult) = match s.as_bytes().last()? {
        b'K' => (&s[..s.len() - 1], 1 << 10),
        b'M' => (&s[..s.len() - 1], 1 << 20),
        b'G' => (&s[..s.len() - 1], 1 << 30),
        _ => (s, 1),
    };
    digits.parse::<u64>().ok().map(|n| n * mult)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn cache_sizes_and_scaling() {
        assert_eq!(parse_cache_size("32768K"), Some(32 << 20));
        assert_eq!(parse_cache_size("2M"), Some(2 << 20));
        assert_eq!(parse_cache_size("512"), Some(512));
        assert_eq!(parse_cache_size("big"), None);
        let s = Scaling { one: 10.0, all: 25.0 };
        assert_eq!(
            (s.at(1, 4), s.at(2, 4), s.at(3, 4), s.at(8, 4)),
            (10.0, 20.0, 25.0, 25.0)
        );
        assert_eq!(parts(10, 3), vec![(0, 4), (4, 8), (8, 10)]);
    }

    #[test]
    fn the_cache_is_reused_until_remeasured() {
        let dir = tempfile::tempdir().unwrap();
        let cache = dir.path().join("sub/ceilings.json");
        let (first, note) = load_or_measure(Some(&cache), "k", false, 2, dir.path(), "t1");
        assert!(note.is_none(), "{note:?}");
        assert!(first.cached_in.is_none() && cache.exists());
        for rate in [
            first.memory_copy.one,
            first.memory_read.all,
            first.page_cache_read.one,
            first.page_cache_read.all,
            first.page_cache_read_small.one,
            first.page_cache_read_small.all,
            first.pipe,
            first.write_dev_null,
            first.write_file,
        ] {
            assert!(rate.is_finite() && rate > 0.0, "{first:?}");
        }
        let (again, _) = load_or_measure(Some(&cache), "k", false, 2, dir.path(), "t2");
        assert_eq!(
            (again.measured_utc.as_str(), again.cached_in.as_deref()),
            ("t1", Some(&*cache))
        );
        // Another machine (key) or thread count is measured and added.
        let (other, _) = load_or_measure(Some(&cache), "other", false, 2, dir.path(), "t3");
        assert_eq!(other.measured_utc, "t3");
        let (fresh, _) = load_or_measure(Some(&cache), "k", true, 2, dir.path(), "t4");
        assert_eq!(
            (fresh.measured_utc.as_str(), fresh.cached_in.as_ref()),
            ("t4", None)
        );
        let (reread, _) = load_or_measure(Some(&cache), "k", false, 2, dir.path(), "t5");
        assert_eq!(reread.measured_utc, "t4");
        let stored: BTreeMap<String, serde_json::Value> =
            serde_json::from_slice(&std::fs::read(&cache).unwrap()).unwrap();
        assert_eq!(stored.len(), 2);
        assert!(stored["k"].get("cached_in").is_none());
        // A damaged cache is measured over, with a note.
        std::fs::write(&cache, b"{not json").unwrap();
        let (_, note) = load_or_measure(Some(&cache), "k", false, 2, dir.path(), "t6");
        assert!(note.unwrap().contains("unreadable"));
    }
}
