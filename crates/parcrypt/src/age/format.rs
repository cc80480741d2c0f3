//! The age header, parsed and written exactly as C2SP age v1 says: the
//! version line, stanzas (`-> type arg…` and a body of canonical unpadded
//! base64 in 64-column lines, the last one shorter, possibly empty), and
//! the `---` line with the HMAC-SHA-256 of everything before its space.

use std::io::BufRead;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD_NO_PAD;

use super::{Error, OptionsError};

/// The version line.
pub(super) const INTRO: &[u8] = b"age-encryption.org/v1\n";
/// The binary format's first bytes, whatever the version.
pub(super) const MAGIC: &[u8] = b"age-encryption.org/";
const STANZA_PREFIX: &[u8] = b"->";
const FOOTER_PREFIX: &[u8] = b"---";
/// Base64 characters per body line.
pub(super) const COLUMNS: usize = 64;
/// Bytes per full body line.
const BYTES_PER_LINE: usize = COLUMNS / 4 * 3;

/// The longest header read (as age: 2 MiB); a longer one is refused
/// before it is held in memory.
pub const MAX_HEADER: usize = 2 << 20;
/// The most stanzas a header may hold (as age).
pub(super) const MAX_STANZAS: usize = 1024;
/// The most arguments a stanza may have (as age).
const MAX_ARGS: usize = 128;

/// Canonical unpadded standard base64, as every base64 string in a header
/// must be (decoding refuses padding, non-zero trailing bits, and anything
/// outside the alphabet, line breaks included).
pub(super) fn b64_decode(s: &str) -> Option<Vec<u8>> {
    STANDARD_NO_PAD.decode(s).ok()
}

pub(super) fn b64_encode(bytes: &[u8]) -> String {
    STANDARD_NO_PAD.encode(bytes)
}

/// One recipient stanza: its type, arguments and body.
#[derive(Clone, PartialEq, Eq)]
pub struct Stanza {
    /// The first word after `->`: `X25519`, `mlkem768x25519`, `scrypt`,
    /// `ssh-ed25519`, `ssh-rsa`, or anything else (other stanzas are skipped).
    pub kind: String,
    /// The words after the type.
    pub args: Vec<String>,
    /// The decoded body: the wrapped file key.
    pub body: Vec<u8>,
}

impl std::fmt::Debug for Stanza {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Stanza({} {:?}, {} body bytes)",
            self.kind,
            self.args,
            self.body.len()
        )
    }
}

/// A valid type or argument: non-empty, printable ASCII without spaces.
pub(super) fn is_word(s: &[u8]) -> bool {
    !s.is_empty() && s.iter().all(|&c| (33..=126).contains(&c))
}

impl Stanza {
    /// Appends the stanza's lines.
    fn encode(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(b"-> ");
        out.extend_from_slice(self.kind.as_bytes());
        for arg in &self.args {
            out.push(b' ');
            out.extend_from_slice(arg.as_bytes());
        }
        out.push(b'\n');
        let body = b64_encode(&self.body);
        let mut last = 0;
        for line in body.as_bytes().chunks(COLUMNS) {
            out.extend_from_slice(line);
            out.push(b'\n');
            last = line.len();
        }
        // The body always ends with a line shorter than 64 columns: an empty
        // one after a full last line (or for an empty body).
        if last == COLUMNS || body.is_empty() {
            out.push(b'\n');
        }
    }

    fn valid(&self) -> bool {
        is_word(self.kind.as_bytes()) && self.args.iter().all(|a| is_word(a.as_bytes()))
    }
}

/// A parsed header: its stanzas and MAC, and the bytes it was read from.
#[derive(Clone, PartialEq, Eq)]
pub struct Header {
    stanzas: Vec<Stanza>,
    mac: [u8; 32],
    /// The header's bytes through `---` (what the MAC covers).
    signed: Vec<u8>,
    /// The whole header's length, through the MAC line's newline.
    len: usize,
}

impl std::fmt::Debug for Header {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Header")
            .field("stanzas", &self.stanzas)
            .field("len", &self.len)
            .finish_non_exhaustive()
    }
}

/// Reads one line (through `\n`) of at most `room` bytes into `line`; the
/// header limit counts every byte.
fn read_line(input: &mut impl BufRead, line: &mut Vec<u8>, room: usize) -> Result<(), Error> {
    line.clear();
    loop {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            return Err(Error::MalformedHeader(if line.is_empty() {
                "the file ends inside the header".into()
            } else {
                "the header ends without a newline".into()
            }));
        }
        let (take, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (buf.len(), false),
        };
        if line.len() + take > room {
            return Err(Error::MalformedHeader(format!(
                "the header is longer than {} MiB",
                MAX_HEADER >> 20
            )));
        }
        line.extend_from_slice(&buf[..take]);
        input.consume(take);
        if done {
            return Ok(());
        }
    }
}

fn quote(line: &[u8]) -> String {
    let shown = &line[..line.len().min(80)];
    let mut s = format!("{:?}", String::from_utf8_lossy(shown));
    if line.len() > shown.len() {
        s.push('…');
    }
    s
}

/// Splits `prefix arg arg…` at single spaces; `None` if a word is empty or
/// not printable ASCII, or there are too many.
fn split_args(line: &[u8]) -> Option<(&[u8], Vec<String>)> {
    let mut words = line.split(|&b| b == b' ');
    let prefix = words.next()?;
    let mut args = Vec::new();
    for w in words {
        if !is_word(w) || args.len() == MAX_ARGS + 1 {
            return None;
        }
        args.push(String::from_utf8_lossy(w).into_owned());
    }
    Some((prefix, args))
}

impl Header {
    /// Reads a header from `input`, leaving it at the first byte after the
    /// MAC line (the payload nonce).
    ///
    /// # Errors
    /// [`Error::MalformedHeader`] naming the first rule broken (unsupported version,
    /// a malformed stanza or MAC line, over 2 MiB or 1024 stanzas);
    /// [`Error::WrongFormat`] for input that does not start like an age file;
    /// I/O errors.
    pub fn read(input: &mut impl BufRead) -> Result<Header, Error> {
        let mut signed = Vec::with_capacity(256);
        let mut line = Vec::new();
        let room = |signed: &Vec<u8>| MAX_HEADER - signed.len();
        if input.fill_buf()?.is_empty() {
            return Err(Error::MalformedHeader("the file is empty".into()));
        }
        read_line(input, &mut line, room(&signed)).map_err(|e| match e {
            Error::MalformedHeader(_) if !line.starts_with(MAGIC) && !MAGIC.starts_with(&line) => {
                Error::WrongFormat
            }
            e => e,
        })?;
        if line != INTRO {
            if !line.starts_with(MAGIC) {
                return Err(Error::WrongFormat);
            }
            return Err(Error::MalformedHeader(format!(
                "unsupported version line {} (this build reads age-encryption.org/v1)",
                quote(line.strip_suffix(b"\n").unwrap_or(&line))
            )));
        }
        signed.extend_from_slice(&line);
        let mut stanzas = Vec::new();
        let mac = loop {
            read_line(input, &mut line, room(&signed))?;
            let text = line.strip_suffix(b"\n").unwrap_or(&line);
            if text.starts_with(FOOTER_PREFIX) {
                let Some((prefix, args)) = split_args(text) else {
                    return Err(Error::MalformedHeader(format!(
                        "malformed MAC line {}",
                        quote(text)
                    )));
                };
                if prefix != FOOTER_PREFIX || args.len() != 1 {
                    return Err(Error::MalformedHeader(format!(
                        "malformed MAC line {}",
                        quote(text)
                    )));
                }
                let mac = b64_decode(&args[0])
                    .and_then(|m| <[u8; 32]>::try_from(m).ok())
                    .ok_or_else(|| Error::MalformedHeader(format!("malformed MAC in {}", quote(text))))?;
                signed.extend_from_slice(FOOTER_PREFIX);
                break mac;
            }
            if stanzas.len() == MAX_STANZAS {
                return Err(Error::MalformedHeader(format!(
                    "more than {MAX_STANZAS} recipient stanzas"
                )));
            }
            signed.extend_from_slice(&line);
            let (prefix, args) = split_args(text)
                .filter(|(p, a)| *p == STANZA_PREFIX && !a.is_empty())
                .ok_or_else(|| Error::MalformedHeader(format!("malformed stanza line {}", quote(text))))?;
            debug_assert_eq!(prefix, STANZA_PREFIX);
            let mut args = args.into_iter();
            let kind = args.next().unwrap_or_default();
            let mut body = Vec::new();
            loop {
                read_line(input, &mut line, room(&signed))?;
                signed.extend_from_slice(&line);
                let text = line.strip_suffix(b"\n").unwrap_or(&line);
                if text.len() > COLUMNS {
                    return Err(Error::MalformedHeader(format!(
                        "stanza body line longer than {COLUMNS} columns"
                    )));
                }
                let decoded = std::str::from_utf8(text).ok().and_then(b64_decode);
                let Some(decoded) = decoded else {
                    let why = if text.starts_with(STANZA_PREFIX) || text.starts_with(FOOTER_PREFIX) {
                        "a stanza ends without a short body line"
                    } else {
                        "stanza body is not canonical base64"
                    };
                    return Err(Error::MalformedHeader(format!("{why}: {}", quote(text))));
                };
                body.extend_from_slice(&decoded);
                if decoded.len() < BYTES_PER_LINE {
                    break;
                }
            }
            stanzas.push(Stanza {
                kind,
                args: args.collect(),
                body,
            });
        };
        if stanzas.is_empty() {
            return Err(Error::MalformedHeader("no recipient stanzas".into()));
        }
        let len = signed.len() + line.len() - FOOTER_PREFIX.len();
        Ok(Header {
            stanzas,
            mac,
            signed,
            len,
        })
    }

    /// Parses a header at the start of `bytes` (what follows it is ignored).
    ///
    /// # Errors
    /// As [`Header::read`].
    pub fn parse(bytes: &[u8]) -> Result<Header, Error> {
        Header::read(&mut &bytes[..])
    }

    /// A header for `stanzas` whose MAC is computed by `mac` over the bytes
    /// it covers.
    pub(super) fn seal(stanzas: Vec<Stanza>, mac: impl FnOnce(&[u8]) -> [u8; 32]) -> Result<Header, Error> {
        if stanzas.is_empty() {
            return Err(OptionsError::NoRecipients.into());
        }
        if let Some(bad) = stanzas.iter().find(|s| !s.valid()) {
            return Err(OptionsError::InvalidStanza(format!("{bad:?}")).into());
        }
        let mut signed = INTRO.to_vec();
        for s in &stanzas {
            s.encode(&mut signed);
        }
        signed.extend_from_slice(FOOTER_PREFIX);
        let mac = mac(&signed);
        let len = signed.len() + 1 + b64_encode(&mac).len() + 1;
        Ok(Header {
            stanzas,
            mac,
            signed,
            len,
        })
    }

    /// The header's bytes, as written to a file.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.len);
        out.extend_from_slice(&self.signed);
        out.push(b' ');
        out.extend_from_slice(b64_encode(&self.mac).as_bytes());
        out.push(b'\n');
        out
    }

    /// The recipient stanzas, in order.
    pub fn stanzas(&self) -> &[Stanza] {
        &self.stanzas
    }

    /// Whether the file is encrypted to a passphrase (its one stanza is `scrypt`).
    pub fn is_passphrase(&self) -> bool {
        self.stanzas.iter().any(|s| s.kind == "scrypt")
    }

    /// The header's length in bytes: the payload nonce starts here.
    #[allow(clippy::len_without_is_empty)] // a header is never empty
    pub fn len(&self) -> usize {
        self.len
    }

    /// The bytes the MAC covers.
    pub(super) fn signed(&self) -> &[u8] {
        &self.signed
    }

    pub(super) fn mac(&self) -> &[u8; 32] {
        &self.mac
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn stanza(kind: &str, args: &[&str], body: usize) -> Stanza {
        Stanza {
            kind: kind.into(),
            args: args.iter().map(|s| s.to_string()).collect(),
            body: (0..body).map(|i| i as u8).collect(),
        }
    }

    #[test]
    fn bodies_end_with_a_short_line_and_round_trip() {
        for body in [0, 1, 47, 48, 49, 95, 96, 97, 200] {
            let h = Header::seal(
                vec![stanza("X25519", &["abc"], body), stanza("grease-!", &[], 3)],
                |_| [7; 32],
            )
            .unwrap();
            let bytes = h.to_bytes();
            assert_eq!(bytes.len(), h.len());
            let text = String::from_utf8(bytes.clone()).unwrap();
            let lines: Vec<&str> = text.split('\n').collect();
            // version, stanza line, body lines..., the last shorter than 64.
            let body_lines = body / 48 + 1;
            for l in &lines[2..2 + body_lines - 1] {
                assert_eq!(l.len(), 64, "{text}");
            }
            assert!(lines[2 + body_lines - 1].len() < 64);
            let mut input = &bytes[..];
            let parsed = Header::read(&mut input).unwrap();
            assert!(input.is_empty());
            assert_eq!(parsed, h, "{text}");
        }
    }

    #[test]
    fn rules_of_the_format_are_enforced() {
        let good = Header::seal(vec![stanza("X25519", &["abc"], 32)], |_| [1; 32])
            .unwrap()
            .to_bytes();
        let text = String::from_utf8(good.clone()).unwrap();
        let cases: Vec<(String, &str)> = vec![
            (text.replace("v1", "v2"), "unsupported version"),
            (
                text.replace("-> X25519 abc", "-> X25519  abc"),
                "malformed stanza",
            ),
            (text.replace("-> X25519 abc", "->X25519 abc"), "malformed stanza"),
            (
                text.replace("-> X25519 abc", "-> X25519 ab\u{7f}"),
                "malformed stanza",
            ),
            (text.replace("---", "--- "), "malformed MAC"),
            (text.replace("\n", "\r\n"), ""),
            (text[..text.len() - 1].to_owned(), "without a newline"),
        ];
        for (bad, why) in cases {
            let err = Header::parse(bad.as_bytes()).unwrap_err();
            assert!(matches!(err, Error::MalformedHeader(_)), "{bad:?}: {err}");
            assert!(err.to_string().contains(why), "{bad:?}: {err}");
        }
        assert!(matches!(Header::parse(b"hello"), Err(Error::WrongFormat)));
        assert!(matches!(Header::parse(b""), Err(Error::MalformedHeader(_))));
    }

    #[test]
    fn a_huge_header_is_refused_at_the_limit() {
        let mut bad = INTRO.to_vec();
        bad.extend_from_slice(b"-> x\n");
        bad.extend(std::iter::repeat_n(b'A', 3 << 20));
        let err = Header::parse(&bad).unwrap_err();
        assert!(err.to_string().contains("longer than 2 MiB"), "{err}");
    }
}
