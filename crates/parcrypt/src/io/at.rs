//! The one positional reader: reads a file at offsets of its own with
//! `pread(2)`, so the file's cursor (shared with whoever else holds the
//! descriptor) is never moved, and concurrent readers need no lock.

use std::fs::File;
use std::io::{self, IoSliceMut, Read};
use std::os::unix::fs::FileExt;

/// Reads exactly `buf.len()` bytes of `file` from `offset`, retrying reads
/// interrupted by a signal.
///
/// # Errors
/// `UnexpectedEof`, saying where, if the file ends first (it is shorter
/// than its length said, e.g. truncated while it was read); other read
/// errors as they are.
pub(crate) fn read_exact_at(file: &File, buf: &mut [u8], offset: u64) -> io::Result<()> {
    let n = super::fill(&mut ReadAt::new(file, offset), buf)?;
    if n < buf.len() {
        return Err(ends_early(offset, n, buf.len()));
    }
    Ok(())
}

/// Reads exactly as many bytes as `bufs` hold, one after the other, from
/// `offset` of `file`: [`read_exact_at`] scattered over several buffers in
/// one `preadv(2)` (more only if the kernel returns less), so that chunks
/// bound for places apart in memory cost one system call, not one each.
/// At most `IOV_MAX` (1024 on Linux) buffers.
///
/// # Errors
/// As [`read_exact_at`].
pub(crate) fn read_exact_vectored_at(
    file: &File,
    mut bufs: &mut [IoSliceMut<'_>],
    offset: u64,
) -> io::Result<()> {
    let want: usize = bufs.iter().map(|b| b.len()).sum();
    let mut done = 0usize;
    IoSliceMut::advance_slices(&mut bufs, 0);
    while !bufs.is_empty() {
        let at = offset.saturating_add(done as u64);
        // As `ReadAt`: a position past `off_t` is past the end.
        let read = if i64::try_from(at).is_err() {
            Ok(0)
        } else {
            rustix::io::preadv(file, bufs, at)
        };
        match read {
            Ok(0) => return Err(ends_early(offset, done, want)),
            Ok(n) => {
                done += n;
                IoSliceMut::advance_slices(&mut bufs, n);
            }
            Err(rustix::io::Errno::INTR) => {}
            Err(e) => return Err(e.into()),
        }
    }
    Ok(())
}

/// The error of a positional read that found the end of the file after
/// `got` of the `wanted` bytes from `offset`.
fn ends_early(offset: u64, got: usize, wanted: usize) -> io::Error {
    io::Error::new(
        io::ErrorKind::UnexpectedEof,
        format!(
            "the file ends at byte {}, before the {wanted} bytes wanted from offset {offset} \
             (was it truncated while it was read?)",
            offset.saturating_add(got as u64),
        ),
    )
}

/// A [`Read`] over a file from a position of its own (positional reads,
/// the file's cursor left alone), or from the file's cursor for things
/// that cannot seek (pipes, terminals).
#[derive(Debug)]
pub(crate) struct ReadAt<'a> {
    file: &'a File,
    /// `None`: read from the file's cursor.
    pos: Option<u64>,
    /// Bytes still to read, for [`ReadAt::exactly`]; `None`: to the end.
    left: Option<u64>,
}

impl<'a> ReadAt<'a> {
    /// Reads `file` from `offset`.
    pub(crate) fn new(file: &'a File, offset: u64) -> Self {
        ReadAt {
            file,
            pos: Some(offset),
            left: None,
        }
    }

    /// Reads exactly `len` bytes of `file` from `offset`, then reports the
    /// end: the stream form of [`read_exact_at`]. A file that ends first
    /// (truncated while it is read) is an `UnexpectedEof` error saying
    /// where, never a silently shorter input; bytes past `len` (the file
    /// grew) are not read.
    pub(crate) fn exactly(file: &'a File, offset: u64, len: u64) -> Self {
        ReadAt {
            file,
            pos: Some(offset),
            left: Some(len),
        }
    }

    /// Reads `file` from its cursor, moving it (for descriptors that are
    /// not regular files).
    pub(crate) fn current(file: &'a File) -> Self {
        ReadAt {
            file,
            pos: None,
            left: None,
        }
    }
}

impl Read for ReadAt<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let Some(left) = self.left else {
            return self.read_unbounded(buf);
        };
        if left == 0 || buf.is_empty() {
            return Ok(0);
        }
        let want = usize::try_from(left).map_or(buf.len(), |l| l.min(buf.len()));
        let n = self.read_unbounded(&mut buf[..want])?;
        if n == 0 {
            let end = self.pos.unwrap_or_default();
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                format!(
                    "the file ends at byte {end}, {left} bytes before the length it had when \
                     reading began (was it truncated while it was read?)"
                ),
            ));
        }
        self.left = Some(left - n as u64);
        Ok(n)
    }
}

impl ReadAt<'_> {
    fn read_unbounded(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match &mut self.pos {
            // No file reaches past i64::MAX (`off_t`): a position beyond it
            // is past the end, not the EINVAL `pread` would give.
            Some(pos) if i64::try_from(*pos).is_err() => Ok(0),
            Some(pos) => {
                let n = self.file.read_at(buf, *pos)?;
                *pos = pos.saturating_add(n as u64);
                Ok(n)
            }
            None => (&mut &*self.file).read(buf),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::io::{Seek, Write};

    use super::*;

    fn file(bytes: &[u8]) -> File {
        let mut f = tempfile::tempfile().expect("a temporary file");
        f.write_all(bytes).expect("written");
        f.rewind().expect("rewound");
        f
    }

    #[test]
    fn reads_at_offsets_without_moving_the_cursor() {
        let f = file(b"0123456789");
        let mut buf = [0u8; 4];
        read_exact_at(&f, &mut buf, 3).unwrap();
        assert_eq!(&buf, b"3456");
        let mut rest = Vec::new();
        ReadAt::new(&f, 6).read_to_end(&mut rest).unwrap();
        assert_eq!(rest, b"6789");
        // The cursor is still at 0.
        let mut all = Vec::new();
        ReadAt::current(&f).read_to_end(&mut all).unwrap();
        assert_eq!(all, b"0123456789");
    }

    #[test]
    fn a_short_file_is_a_clear_truncation_error() {
        let f = file(b"0123456789");
        let mut buf = [0u8; 8];
        let err = read_exact_at(&f, &mut buf, 6).expect_err("past the end");
        assert_eq!(err.kind(), io::ErrorKind::UnexpectedEof);
        let msg = err.to_string();
        assert!(
            msg.contains("ends at byte 10") && msg.contains("truncated"),
            "{msg}"
        );
        let err = read_exact_at(&f, &mut buf, u64::MAX).expect_err("far past the end");
        assert_eq!(err.kind(), io::ErrorKind::UnexpectedEof);
        read_exact_at(&f, &mut [], u64::MAX).expect("nothing wanted");
    }

    #[test]
    fn vectored_reads_scatter_in_order_and_report_a_short_file() {
        let f = file(b"0123456789");
        let (mut a, mut b, mut none, mut c) = ([0u8; 3], [0u8; 2], [0u8; 0], [0u8; 4]);
        let mut bufs = [
            IoSliceMut::new(&mut a),
            IoSliceMut::new(&mut none),
            IoSliceMut::new(&mut b),
            IoSliceMut::new(&mut c),
        ];
        read_exact_vectored_at(&f, &mut bufs, 1).unwrap();
        assert_eq!((&a, &b, &c), (b"123", b"45", b"6789"));
        let (mut d, mut e) = ([0u8; 4], [0u8; 4]);
        let mut bufs = [IoSliceMut::new(&mut d), IoSliceMut::new(&mut e)];
        let err = read_exact_vectored_at(&f, &mut bufs, 4).expect_err("past the end");
        assert_eq!(err.kind(), io::ErrorKind::UnexpectedEof);
        let msg = err.to_string();
        assert!(
            msg.contains("ends at byte 10") && msg.contains("8 bytes wanted from offset 4"),
            "{msg}"
        );
        let mut far = [0u8; 1];
        let err = read_exact_vectored_at(&f, &mut [IoSliceMut::new(&mut far)], u64::MAX)
            .expect_err("far past the end");
        assert_eq!(err.kind(), io::ErrorKind::UnexpectedEof);
        read_exact_vectored_at(&f, &mut [], u64::MAX).expect("nothing wanted");
    }

    #[test]
    fn exactly_reads_its_length_and_no_more() {
        let f = file(b"0123456789");
        let mut got = Vec::new();
        ReadAt::exactly(&f, 2, 5).read_to_end(&mut got).unwrap();
        assert_eq!(got, b"23456");
        got.clear();
        ReadAt::exactly(&f, 0, 0).read_to_end(&mut got).unwrap();
        assert!(got.is_empty());
        // One byte at a time too: the count is kept across reads.
        let mut r = ReadAt::exactly(&f, 7, 3);
        let mut one = [0u8; 1];
        let mut bytes = Vec::new();
        while r.read(&mut one).unwrap() == 1 {
            bytes.push(one[0]);
        }
        assert_eq!(bytes, b"789");
    }

    #[test]
    fn exactly_reports_a_file_shorter_than_its_length() {
        let f = file(b"0123456789");
        let mut got = Vec::new();
        let err = ReadAt::exactly(&f, 4, 10)
            .read_to_end(&mut got)
            .expect_err("the file is too short");
        assert_eq!(err.kind(), io::ErrorKind::UnexpectedEof);
        assert_eq!(got, b"456789", "the bytes there were are read first");
        let msg = err.to_string();
        assert!(
            msg.contains("ends at byte 10") && msg.contains("truncated"),
            "{msg}"
        );
    }
}
