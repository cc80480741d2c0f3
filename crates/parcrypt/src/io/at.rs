//! The one positional reader: reads a file at offsets of its own with
//! `pread(2)`, so the file's cursor (shared with whoever else holds the
//! descriptor) is never moved, and concurrent readers need no lock.

use std::fs::File;
use std::io::{self, Read};
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
        return Err(io::Error::new(
            io::ErrorKind::UnexpectedEof,
            format!(
                "the file ends at byte {}, before the {} bytes wanted from offset {offset} \
                 (was it truncated while it was read?)",
                offset.saturating_add(n as u64),
                buf.len()
            ),
        ));
    }
    Ok(())
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
