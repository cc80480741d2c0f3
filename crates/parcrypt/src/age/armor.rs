//! age's ASCII armor: PEM with the type `AGE ENCRYPTED FILE`, 64-column
//! lines of canonical padded base64, no headers; strict on reading, as the
//! spec and the test kit require (CRLF line ends and whitespace around the
//! armor are the only slack: up to 1 KiB of whitespace before and after).

use std::io::{self, BufRead, Read, Write};

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;

use super::error::ArmorError;

/// The armor's first line.
pub const BEGIN: &str = "-----BEGIN AGE ENCRYPTED FILE-----";
/// The armor's last line.
pub const END: &str = "-----END AGE ENCRYPTED FILE-----";
const COLUMNS: usize = 64;
const BYTES_PER_LINE: usize = COLUMNS / 4 * 3;
/// Whitespace allowed before and after the armor (as age).
const MAX_WHITESPACE: usize = 1024;

/// Encodes what is written to it as armor into `W`; [`ArmoredWriter::finish`]
/// writes the last line and the end line.
#[derive(Debug)]
pub struct ArmoredWriter<W: Write> {
    inner: W,
    /// Fewer than a line's bytes, waiting for the rest of their line.
    pending: Vec<u8>,
    /// Encoded lines on their way out.
    out: Vec<u8>,
    started: bool,
}

impl<W: Write> ArmoredWriter<W> {
    /// Armors into `inner`.
    pub fn new(inner: W) -> Self {
        ArmoredWriter {
            inner,
            pending: Vec::with_capacity(BYTES_PER_LINE),
            out: Vec::new(),
            started: false,
        }
    }

    fn start(&mut self) {
        if !self.started {
            self.out.extend_from_slice(BEGIN.as_bytes());
            self.out.push(b'\n');
            self.started = true;
        }
    }

    fn line(&mut self, bytes: &[u8]) {
        let at = self.out.len();
        self.out.resize(at + bytes.len().div_ceil(3) * 4, 0);
        let n = STANDARD
            .encode_slice(bytes, &mut self.out[at..])
            .expect("room for the line");
        self.out.truncate(at + n);
        self.out.push(b'\n');
    }

    /// Writes the last (short, possibly empty) line and the end line;
    /// returns the inner writer.
    ///
    /// # Errors
    /// The inner writer's.
    pub fn finish(mut self) -> io::Result<W> {
        self.start();
        let pending = std::mem::take(&mut self.pending);
        if !pending.is_empty() {
            self.line(&pending);
        }
        self.out.extend_from_slice(END.as_bytes());
        self.out.push(b'\n');
        self.inner.write_all(&self.out)?;
        self.inner.flush()?;
        Ok(self.inner)
    }
}

impl<W: Write> Write for ArmoredWriter<W> {
    fn write(&mut self, mut buf: &[u8]) -> io::Result<usize> {
        let n = buf.len();
        self.start();
        if !self.pending.is_empty() {
            let take = (BYTES_PER_LINE - self.pending.len()).min(buf.len());
            self.pending.extend_from_slice(&buf[..take]);
            buf = &buf[take..];
            if self.pending.len() == BYTES_PER_LINE {
                let line = std::mem::take(&mut self.pending);
                self.line(&line);
                self.pending = line;
                self.pending.clear();
            }
        }
        let mut lines = buf.chunks_exact(BYTES_PER_LINE);
        for line in lines.by_ref() {
            self.line(line);
        }
        self.pending.extend_from_slice(lines.remainder());
        self.inner.write_all(&self.out)?;
        self.out.clear();
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// Whether `bytes` are only whitespace, as Go's `bytes.TrimSpace` sees it
/// (Unicode White_Space in valid UTF-8).
fn is_blank(bytes: &[u8]) -> bool {
    std::str::from_utf8(bytes).is_ok_and(|s| s.trim().is_empty())
}

/// Decodes armor from `R`, strictly; errors are `io::Error`s of kind
/// `InvalidData` whose source says what is wrong with the armor.
#[derive(Debug)]
pub struct ArmoredReader<R: BufRead> {
    inner: R,
    started: bool,
    /// Decoded bytes not handed out yet.
    decoded: Vec<u8>,
    at: usize,
    /// The end line was read (what follows it was checked).
    done: bool,
    /// An error found after the last line, for the next read (the line's
    /// bytes go out first, as age's reader does).
    error: Option<io::Error>,
    line: Vec<u8>,
}

impl<R: BufRead> ArmoredReader<R> {
    /// Decodes armor from `inner`.
    pub fn new(inner: R) -> Self {
        ArmoredReader {
            inner,
            started: false,
            decoded: Vec::with_capacity(BYTES_PER_LINE),
            at: 0,
            done: false,
            error: None,
            line: Vec::new(),
        }
    }

    /// Reads the next line into `self.line`; returns its length without its
    /// `\n` and one `\r` before it (at most `max` bytes), `None` at the end
    /// of the input.
    fn next_line(&mut self, max: usize) -> io::Result<Option<usize>> {
        self.line.clear();
        let mut saw_any = false;
        loop {
            let buf = self.inner.fill_buf()?;
            if buf.is_empty() {
                break;
            }
            saw_any = true;
            let (take, done) = match buf.iter().position(|&b| b == b'\n') {
                Some(i) => (i + 1, true),
                None => (buf.len(), false),
            };
            if self.line.len() + take > max + 2 {
                return Err(ArmorError::io("armor line too long"));
            }
            self.line.extend_from_slice(&buf[..take]);
            self.inner.consume(take);
            if done {
                break;
            }
        }
        if !saw_any {
            return Ok(None);
        }
        let mut line = &self.line[..];
        line = line.strip_suffix(b"\n").unwrap_or(line);
        line = line.strip_suffix(b"\r").unwrap_or(line);
        Ok(Some(line.len()))
    }

    /// After the end line: nothing but whitespace, at most 1 KiB of it.
    fn check_trailing(&mut self) -> io::Result<()> {
        let mut rest = Vec::new();
        (&mut self.inner)
            .take(MAX_WHITESPACE as u64)
            .read_to_end(&mut rest)?;
        if !is_blank(&rest) {
            return Err(ArmorError::io("trailing data after the armored file"));
        }
        if rest.len() == MAX_WHITESPACE {
            return Err(ArmorError::io(
                "too much trailing whitespace after the armored file",
            ));
        }
        self.done = true;
        Ok(())
    }

    /// Decodes the next line into `decoded`; false at the end of the armor.
    fn decode_line(&mut self) -> io::Result<bool> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        if self.done {
            return Ok(false);
        }
        let mut skipped = 0;
        while !self.started {
            let Some(len) = self.next_line(MAX_WHITESPACE)? else {
                return Err(ArmorError::io("unexpected end of the input before the armor"));
            };
            let line = &self.line[..len];
            if is_blank(line) {
                skipped += line.len() + 1;
                if skipped > MAX_WHITESPACE {
                    return Err(ArmorError::io("too much leading whitespace before the armor"));
                }
                continue;
            }
            if line != BEGIN.as_bytes() {
                let shown = String::from_utf8_lossy(&line[..line.len().min(64)]).into_owned();
                return Err(ArmorError::io(format!(
                    "invalid first line {shown:?} (expected {BEGIN})"
                )));
            }
            self.started = true;
        }
        let Some(len) = self.next_line(COLUMNS)? else {
            return Err(ArmorError::io("unexpected end of the armor (no end line)"));
        };
        let line = &self.line[..len];
        if line == END.as_bytes() {
            self.check_trailing()?;
            return Ok(false);
        }
        if line.is_empty() {
            return Err(ArmorError::io("empty line in the armored data"));
        }
        if line.len() > COLUMNS {
            return Err(ArmorError::io("armor line longer than 64 columns"));
        }
        if line.contains(&b'\r') || line.contains(&b'\n') {
            return Err(ArmorError::io("unexpected carriage return in the armored data"));
        }
        self.decoded.resize(BYTES_PER_LINE, 0);
        let n = STANDARD
            .decode_slice(line, &mut self.decoded[..])
            .map_err(|e| ArmorError::io(format!("armored data is not canonical base64: {e}")))?;
        self.decoded.truncate(n);
        self.at = 0;
        if n < BYTES_PER_LINE {
            // The last line: the end line must follow.
            let checked = match self.next_line(COLUMNS) {
                Ok(Some(len)) if &self.line[..len] == END.as_bytes() => self.check_trailing(),
                Ok(_) => Err(ArmorError::io(format!(
                    "a short line not followed by the end line ({END})"
                ))),
                Err(e) => Err(e),
            };
            self.error = checked.err();
            self.done = true;
        }
        Ok(true)
    }
}

impl<R: BufRead> Read for ArmoredReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let mut n = 0;
        while n < buf.len() {
            if self.at == self.decoded.len() {
                match self.decode_line() {
                    Ok(true) => {}
                    Ok(false) => break,
                    // Bytes already decoded go out first; the error comes next.
                    Err(e) if n > 0 => {
                        self.error = Some(e);
                        break;
                    }
                    Err(e) => return Err(e),
                }
            }
            let take = (self.decoded.len() - self.at).min(buf.len() - n);
            buf[n..n + take].copy_from_slice(&self.decoded[self.at..self.at + take]);
            self.at += take;
            n += take;
        }
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn armor(data: &[u8]) -> Vec<u8> {
        let mut w = ArmoredWriter::new(Vec::new());
        // In uneven pieces.
        for piece in data.chunks(7) {
            w.write_all(piece).unwrap();
        }
        w.finish().unwrap()
    }

    fn dearmor(text: &[u8]) -> io::Result<Vec<u8>> {
        let mut out = Vec::new();
        ArmoredReader::new(text).read_to_end(&mut out)?;
        Ok(out)
    }

    #[test]
    fn round_trips_at_line_boundaries() {
        for len in [0, 1, 47, 48, 49, 96, 100, 1000] {
            let data: Vec<u8> = (0..len).map(|i| (i * 7) as u8).collect();
            let text = armor(&data);
            let s = String::from_utf8(text.clone()).unwrap();
            assert!(s.starts_with(BEGIN) && s.ends_with(&format!("{END}\n")), "{s}");
            assert!(s.lines().all(|l| l.len() <= 64), "{s}");
            assert_eq!(dearmor(&text).unwrap(), data, "{s}");
            let crlf = s.replace('\n', "\r\n");
            assert_eq!(dearmor(crlf.as_bytes()).unwrap(), data);
            let padded = format!("\n \t\n{s}  \n\n");
            assert_eq!(dearmor(padded.as_bytes()).unwrap(), data);
        }
    }

    #[test]
    fn strict_about_everything_else() {
        let good = String::from_utf8(armor(&[3u8; 100])).unwrap();
        let lines: Vec<&str> = good.lines().collect();
        let bad = [
            good.replace(BEGIN, "-----BEGIN AGE ENCRYPTED MESSAGE-----"),
            format!("x\n{good}"),
            format!("{good}x"),
            good.replacen('\n', "\n\n", 2),
            good.replace(lines[1], &lines[1][..60]),
            good.replace(lines[2], &format!("{}A", lines[2])),
            good.replace(&format!("{END}\n"), ""),
            format!("{}{}", good, " ".repeat(2000)),
        ];
        for b in bad {
            let err = dearmor(b.as_bytes()).unwrap_err();
            assert!(
                err.get_ref().is_some_and(|e| e.is::<ArmorError>()),
                "{b:?}: {err}"
            );
        }
    }
}
