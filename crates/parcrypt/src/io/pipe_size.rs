//! Pipe buffer size (`F_SETPIPE_SZ`).
//!
//! A Linux pipe holds 64 KiB by default, so a command reading a pipe gets at
//! most 64 KiB per `read(2)` and the writer blocks every 64 KiB: for a GiB
//! that is 16 384 reads and as many wake-ups on each side. A 1 MiB pipe
//! (the default `/proc/sys/fs/pipe-max-size`) cuts both by 16.

#![allow(unsafe_code)]

use std::os::fd::{AsFd, AsRawFd};

/// Asks for a pipe buffer of `bytes` when `fd` is a pipe (Linux
/// `F_SETPIPE_SZ`); returns the size now in effect, or None when `fd` is not
/// a pipe, the system refuses (the size is above `pipe-max-size` for an
/// unprivileged process), or the platform has no such call. Never fails:
/// the pipe keeps working at its old size.
pub fn grow_pipe(fd: impl AsFd, bytes: usize) -> Option<usize> {
    #[cfg(target_os = "linux")]
    {
        let raw = fd.as_fd().as_raw_fd();
        let bytes = libc::c_int::try_from(bytes).ok()?;
        // SAFETY: F_GETPIPE_SZ and F_SETPIPE_SZ take and return plain ints
        // and touch no memory of ours; `raw` is a descriptor borrowed for the
        // duration of the call. On a non-pipe they fail with EBADF/EINVAL.
        let now = unsafe { libc::fcntl(raw, libc::F_GETPIPE_SZ) };
        if now < 0 {
            return None;
        }
        if now >= bytes {
            return usize::try_from(now).ok();
        }
        // SAFETY: as above.
        let set = unsafe { libc::fcntl(raw, libc::F_SETPIPE_SZ, bytes) };
        usize::try_from(set).ok()
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = (fd, bytes);
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pipe_grows_and_anything_else_is_left_alone() {
        let (reader, _writer) = std::io::pipe().expect("pipe");
        let before = grow_pipe(&reader, 0).expect("a pipe reports its size");
        assert_eq!(before, 64 << 10, "Linux's default pipe size");
        let after = grow_pipe(&reader, 1 << 20).expect("1 MiB is within pipe-max-size by default");
        assert!(after >= 1 << 20);
        let file = tempfile::tempfile().expect("file");
        assert_eq!(grow_pipe(&file, 1 << 20), None);
    }
}
