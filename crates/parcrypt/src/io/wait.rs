//! Waiting for input on a descriptor opened with `O_NONBLOCK`, then reading
//! it blocking: `poll(2)` and the `F_SETFL` `fcntl`.
//!
//! A FIFO is opened for reading without blocking so that a FIFO with no
//! writer yet holds up nothing before it. That descriptor must then be the
//! one read: a writer may already have opened the FIFO through it, written
//! and closed, and closing it to open the FIFO again would throw that data
//! away (and the new open would wait for a writer that has gone). Reading
//! it at once would not do either: a FIFO that no writer has opened yet
//! reads as empty.

#![allow(unsafe_code)]

use std::fs::File;
use std::io;
use std::os::fd::AsRawFd;

/// Waits until `file` has something to read — data, or the end of a FIFO
/// whose writer came and went (`POLLHUP` is reported only once a writer
/// has been there since the open) — then makes it blocking, so that later
/// reads wait for data as reads of a FIFO opened normally do. For a
/// device, a directory or anything else that is always "ready", it returns
/// at once.
///
/// # Errors
/// A failing `poll` (other than `EINTR`, which is retried) or `fcntl`.
pub(crate) fn wait_then_block(file: &File) -> io::Result<()> {
    let fd = file.as_raw_fd();
    let mut pollfd = libc::pollfd {
        fd,
        events: libc::POLLIN,
        revents: 0,
    };
    loop {
        // SAFETY: one `pollfd` that lives on this stack for the call, count
        // 1; `fd` is open for as long as `file` is borrowed.
        if unsafe { libc::poll(&mut pollfd, 1, -1) } > 0 {
            break;
        }
        // No timeout was given: 0 cannot come back, so this is an error.
        let e = io::Error::last_os_error();
        if e.kind() != io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
    // SAFETY: F_GETFL and F_SETFL take and return plain ints and touch no
    // memory of ours; `fd` is open as above.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
    if flags < 0 {
        return Err(io::Error::last_os_error());
    }
    if flags & libc::O_NONBLOCK != 0 {
        // SAFETY: as above.
        if unsafe { libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK) } < 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write};
    use std::os::unix::fs::OpenOptionsExt;

    fn mkfifo(path: &std::path::Path) {
        let status = std::process::Command::new("mkfifo")
            .arg(path)
            .status()
            .expect("mkfifo");
        assert!(status.success());
    }

    fn open_nonblocking(path: &std::path::Path) -> File {
        std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(path)
            .expect("open")
    }

    #[test]
    fn a_writer_that_came_and_went_before_the_wait_is_read_whole() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        mkfifo(&fifo);
        let reader = open_nonblocking(&fifo);
        // The writer opens while only the non-blocking reader has the FIFO
        // open, writes and closes before anyone reads.
        let mut writer = std::fs::OpenOptions::new().write(true).open(&fifo).unwrap();
        writer.write_all(b"late").unwrap();
        drop(writer);
        wait_then_block(&reader).unwrap();
        let mut got = Vec::new();
        (&reader).read_to_end(&mut got).unwrap();
        assert_eq!(got, b"late");
    }

    #[test]
    fn the_wait_lasts_until_a_writer_comes() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        mkfifo(&fifo);
        let reader = open_nonblocking(&fifo);
        let writer = std::thread::spawn({
            let fifo = fifo.clone();
            move || {
                std::thread::sleep(std::time::Duration::from_millis(200));
                let mut w = std::fs::OpenOptions::new().write(true).open(&fifo).unwrap();
                w.write_all(b"one ").unwrap();
                std::thread::sleep(std::time::Duration::from_millis(100));
                w.write_all(b"two").unwrap();
            }
        });
        // Read at once, the FIFO would look empty; after the wait, blocking
        // reads see everything up to the writer's close.
        wait_then_block(&reader).unwrap();
        let mut got = Vec::new();
        (&reader).read_to_end(&mut got).unwrap();
        writer.join().unwrap();
        assert_eq!(got, b"one two");
    }

    #[test]
    fn a_regular_file_returns_at_once_and_reads_as_before() {
        use std::io::{Seek, SeekFrom};
        let mut file = tempfile::tempfile().unwrap();
        file.write_all(b"abc").unwrap();
        file.seek(SeekFrom::Start(0)).unwrap();
        wait_then_block(&file).unwrap();
        let mut got = String::new();
        file.read_to_string(&mut got).unwrap();
        assert_eq!(got, "abc");
    }
}
