//! `openssl enc -a`: base64 around the ciphertext, streamed. Encryption
//! writes it as openssl's base64 BIO does (64-character lines, each ending in
//! a newline, the last one too; with `-A` one line and no newline at all;
//! nothing for empty output); decryption reads it, ignoring whitespace
//! wherever it is (openssl wants -A for a long line and lines without it;
//! parcrypt reads both either way).
//!
//! Only ciphertext passes through here (encryption's output, decryption's
//! input), so nothing here is wiped.

use std::io::{self, Read, Write};

use base64::Engine;
use base64::engine::general_purpose::STANDARD;

/// Bytes per 64-character line.
const LINE_BYTES: usize = 48;

/// Encodes everything written to it as base64 into `inner`; call
/// [`Base64Writer::finish`] at the end for the last group and newline.
pub struct Base64Writer<W: Write> {
    inner: W,
    /// One line at a time (`-a`) or one line in all (`-A`).
    lines: bool,
    /// Bytes not yet encoded: fewer than a line (`-a`) or three bytes (`-A`).
    pending: Vec<u8>,
    text: Vec<u8>,
}

impl<W: Write> Base64Writer<W> {
    pub fn new(inner: W, one_line: bool) -> Self {
        Base64Writer {
            inner,
            lines: !one_line,
            pending: Vec::with_capacity(LINE_BYTES),
            text: Vec::new(),
        }
    }

    /// Encodes whole units (lines, or three-byte groups) of `data` onto `text`.
    fn encode_units(&mut self, data: &[u8]) {
        if self.lines {
            for line in data.chunks(LINE_BYTES) {
                let at = self.text.len();
                self.text.resize(at + 64, 0);
                let n = STANDARD
                    .encode_slice(line, &mut self.text[at..])
                    .unwrap_or_default();
                self.text.truncate(at + n);
                self.text.push(b'\n');
            }
        } else {
            let at = self.text.len();
            self.text.resize(at + data.len().div_ceil(3) * 4, 0);
            let n = STANDARD
                .encode_slice(data, &mut self.text[at..])
                .unwrap_or_default();
            self.text.truncate(at + n);
        }
    }

    /// Encodes what is left (padded), ends the last line, and flushes.
    pub fn finish(mut self) -> io::Result<()> {
        let rest = std::mem::take(&mut self.pending);
        if !rest.is_empty() {
            self.encode_units(&rest);
        }
        self.inner.write_all(&self.text)?;
        self.inner.flush()
    }
}

impl<W: Write> Write for Base64Writer<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let unit = if self.lines { LINE_BYTES } else { 3 };
        let mut data = buf;
        if !self.pending.is_empty() {
            let take = (unit - self.pending.len()).min(data.len());
            self.pending.extend_from_slice(&data[..take]);
            data = &data[take..];
            if self.pending.len() < unit {
                return Ok(buf.len());
            }
            let full = std::mem::take(&mut self.pending);
            self.encode_units(&full);
        }
        let whole = data.len() - data.len() % unit;
        self.encode_units(&data[..whole]);
        self.pending.extend_from_slice(&data[whole..]);
        self.inner.write_all(&self.text)?;
        self.text.clear();
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// Why base64 input was refused: carried inside the `io::Error` of kind
/// `InvalidData` that [`Base64Reader`] returns, so the command can tell it
/// from other read failures.
#[derive(Debug)]
pub struct Base64Error(pub String);

impl std::fmt::Display for Base64Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Base64Error {}

fn invalid(what: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, Base64Error(what))
}

/// Decodes base64 read from `inner`, skipping whitespace; anything else
/// that is not base64 (or data after the `=` padding, or a last group cut
/// short) is an `InvalidData` error holding a [`Base64Error`].
pub struct Base64Reader<R: Read> {
    inner: R,
    /// Base64 characters read but not yet decoded (fewer than four after
    /// each refill).
    chars: Vec<u8>,
    decoded: Vec<u8>,
    at: usize,
    /// Characters read so far, for messages.
    offset: u64,
    padded: bool,
    eof: bool,
}

impl<R: Read> Base64Reader<R> {
    pub fn new(inner: R) -> Self {
        Base64Reader {
            inner,
            chars: Vec::new(),
            decoded: Vec::new(),
            at: 0,
            offset: 0,
            padded: false,
            eof: false,
        }
    }

    /// Reads and decodes the next piece of input into `decoded`; false at
    /// the end.
    fn refill(&mut self) -> io::Result<bool> {
        let mut raw = vec![0u8; 64 << 10];
        loop {
            if self.eof {
                return Ok(false);
            }
            let n = match self.inner.read(&mut raw) {
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if n == 0 {
                self.eof = true;
                if !self.chars.is_empty() {
                    return Err(invalid(format!(
                        "the base64 text ends in the middle of a group ({} characters of 4)",
                        self.chars.len()
                    )));
                }
                return Ok(false);
            }
            for (i, &c) in raw[..n].iter().enumerate() {
                if c.is_ascii_whitespace() {
                    continue;
                }
                let valid = c.is_ascii_alphanumeric() || matches!(c, b'+' | b'/' | b'=');
                if !valid || self.padded {
                    let at = self.offset + i as u64;
                    return Err(invalid(if valid {
                        format!("base64 text goes on after its `=` padding (byte {at})")
                    } else {
                        format!("byte {at} (0x{c:02x}) is not base64")
                    }));
                }
                self.chars.push(c);
            }
            self.offset += n as u64;
            let whole = self.chars.len() - self.chars.len() % 4;
            if whole == 0 {
                continue;
            }
            // Padding ends the text: it may only close the last group decoded.
            self.padded = self.chars[..whole].contains(&b'=');
            self.decoded.clear();
            self.at = 0;
            STANDARD
                .decode_vec(&self.chars[..whole], &mut self.decoded)
                .map_err(|e| invalid(format!("invalid base64: {e}")))?;
            self.chars.drain(..whole);
            if self.padded && !self.chars.is_empty() {
                return Err(invalid("base64 text goes on after its `=` padding".to_owned()));
            }
            return Ok(true);
        }
    }
}

impl<R: Read> Read for Base64Reader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.at == self.decoded.len() {
            if !self.refill()? {
                return Ok(0);
            }
        }
        let n = buf.len().min(self.decoded.len() - self.at);
        buf[..n].copy_from_slice(&self.decoded[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn encode(data: &[u8], one_line: bool, pieces: usize) -> Vec<u8> {
        let mut out = Vec::new();
        let mut w = Base64Writer::new(&mut out, one_line);
        for part in data.chunks(pieces.max(1)) {
            w.write_all(part).unwrap();
        }
        w.finish().unwrap();
        out
    }

    fn decode(text: &[u8]) -> io::Result<Vec<u8>> {
        let mut out = Vec::new();
        Base64Reader::new(text).read_to_end(&mut out)?;
        Ok(out)
    }

    #[test]
    fn lines_of_64_and_one_line() {
        let data: Vec<u8> = (0..=255).collect();
        for len in [0, 1, 2, 3, 47, 48, 49, 96, 200] {
            let want = STANDARD.encode(&data[..len]);
            for pieces in [1, 5, 48, 1000] {
                let one = encode(&data[..len], true, pieces);
                assert_eq!(one, want.as_bytes(), "{len}");
                let lines = encode(&data[..len], false, pieces);
                let mut expect = String::new();
                for chunk in want.as_bytes().chunks(64) {
                    expect.push_str(std::str::from_utf8(chunk).unwrap());
                    expect.push('\n');
                }
                assert_eq!(
                    String::from_utf8(lines.clone()).unwrap(),
                    expect,
                    "{len} {pieces}"
                );
                assert_eq!(decode(&lines).unwrap(), &data[..len]);
                assert_eq!(decode(&one).unwrap(), &data[..len]);
            }
        }
    }

    #[test]
    fn garbage_is_refused() {
        for bad in [
            &b"!!!!"[..],
            b"QUJD\x00",
            b"QUI=QUJD",
            b"QUJ",
            b"QU=D",
            b"QUJD\nQ",
        ] {
            let e = decode(bad).unwrap_err();
            assert_eq!(e.kind(), io::ErrorKind::InvalidData, "{bad:?}");
            assert!(e.get_ref().unwrap().downcast_ref::<Base64Error>().is_some());
        }
        assert_eq!(decode(b" QU\r\nJD \n").unwrap(), b"ABC");
        assert_eq!(decode(b"QUI=\n\n").unwrap(), b"AB");
    }
}
