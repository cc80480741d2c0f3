//! The protocol's wire format: stanzas encoded as the age header writes
//! them and read back strictly, under the client's size limits, and a
//! plugin's text made fit to show.

use std::io::BufRead;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD_NO_PAD;
use zeroize::Zeroizing;

use super::{MAX_BODY, MAX_LINE, MAX_STDERR, MAX_TOTAL};
use crate::age::format::{COLUMNS, b64_decode, is_word};

/// One message of the protocol: an age stanza (its body may be a secret).
pub(super) struct Msg {
    pub(super) kind: String,
    pub(super) args: Vec<String>,
    pub(super) body: Zeroizing<Vec<u8>>,
}

/// Encodes a stanza as the age header does: `-> kind args…`, the body in
/// 64-column lines of unpadded base64, the last one shorter (maybe empty).
/// Wiped when dropped: it may carry a file key or a secret.
pub(super) fn encode(kind: &str, args: &[&str], body: &[u8]) -> Zeroizing<Vec<u8>> {
    let b64_len = body.len().div_ceil(3) * 4;
    let mut b64 = Zeroizing::new(String::with_capacity(b64_len));
    STANDARD_NO_PAD.encode_string(body, &mut b64);
    let head: usize = 3 + kind.len() + args.iter().map(|a| a.len() + 1).sum::<usize>() + 1;
    let mut out = Zeroizing::new(Vec::with_capacity(head + b64.len() + b64.len() / COLUMNS + 2));
    out.extend_from_slice(b"-> ");
    out.extend_from_slice(kind.as_bytes());
    for a in args {
        out.push(b' ');
        out.extend_from_slice(a.as_bytes());
    }
    out.push(b'\n');
    let mut last = 0;
    for line in b64.as_bytes().chunks(COLUMNS) {
        out.extend_from_slice(line);
        out.push(b'\n');
        last = line.len();
    }
    if last == COLUMNS || b64.is_empty() {
        out.push(b'\n');
    }
    out
}

/// Reads one line (through `\n`) of at most [`MAX_LINE`] bytes; `Ok(false)`
/// at the end of input before any byte.
fn read_line(
    input: &mut impl BufRead,
    line: &mut Zeroizing<Vec<u8>>,
    total: &mut usize,
) -> Result<bool, String> {
    line.clear();
    loop {
        let buf = input
            .fill_buf()
            .map_err(|e| format!("reading from the plugin: {e}"))?;
        if buf.is_empty() {
            return if line.is_empty() {
                Ok(false)
            } else {
                Err("the plugin's output ends in the middle of a line".into())
            };
        }
        let (take, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (buf.len(), false),
        };
        if line.len() + take > MAX_LINE + 1 {
            return Err(format!(
                "the plugin sent a line longer than {} KiB",
                MAX_LINE >> 10
            ));
        }
        *total += take;
        if *total > MAX_TOTAL {
            return Err(format!("the plugin sent more than {} MiB", MAX_TOTAL >> 20));
        }
        line.extend_from_slice(&buf[..take]);
        input.consume(take);
        if done {
            line.pop();
            return Ok(true);
        }
    }
}

/// Reads one stanza from the plugin, strictly (as the age header is read);
/// `Ok(None)` at the end of its output between stanzas.
pub(super) fn read_msg(input: &mut impl BufRead, total: &mut usize) -> Result<Option<Msg>, String> {
    let mut line = Zeroizing::new(Vec::new());
    if !read_line(input, &mut line, total)? {
        return Ok(None);
    }
    let shown = |l: &[u8]| {
        let cut = &l[..l.len().min(80)];
        format!("{:?}", String::from_utf8_lossy(cut))
    };
    let mut words = line.split(|&b| b == b' ');
    if words.next() != Some(&b"->"[..]) {
        return Err(format!(
            "the plugin sent a malformed stanza line {}",
            shown(&line)
        ));
    }
    let mut args = Vec::new();
    for w in words {
        if !is_word(w) {
            return Err(format!(
                "the plugin sent a malformed stanza line {}",
                shown(&line)
            ));
        }
        args.push(String::from_utf8_lossy(w).into_owned());
    }
    if args.is_empty() {
        return Err("the plugin sent a stanza without a type".into());
    }
    let kind = args.remove(0);
    let mut body = Zeroizing::new(Vec::new());
    loop {
        if !read_line(input, &mut line, total)? {
            return Err("the plugin's output ends inside a stanza".into());
        }
        if line.len() > COLUMNS {
            return Err(format!(
                "the plugin sent a stanza body line longer than {COLUMNS} columns"
            ));
        }
        let decoded = std::str::from_utf8(&line)
            .ok()
            .and_then(b64_decode)
            .map(Zeroizing::new)
            .ok_or_else(|| format!("the plugin sent a malformed stanza body line {}", shown(&line)))?;
        if body.len() + decoded.len() > MAX_BODY {
            return Err(format!(
                "the plugin sent a stanza body over {} MiB",
                MAX_BODY >> 20
            ));
        }
        body.extend_from_slice(&decoded);
        if decoded.len() < COLUMNS / 4 * 3 {
            return Ok(Some(Msg { kind, args, body }));
        }
    }
}

/// Text from a plugin, fit to show: invalid UTF-8 replaced, control
/// characters escaped (a plugin cannot drive the terminal) and so are the
/// bidirectional embeddings, overrides and isolates (U+202A–U+202E,
/// U+2066–U+2069: a plugin cannot make its text read in another order
/// than it is written), at most 4 KiB.
pub(super) fn printable(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(&bytes[..bytes.len().min(MAX_STDERR)]);
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}') {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    if bytes.len() > MAX_STDERR {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn stanzas_encode_as_the_header_does_and_read_back() {
        for len in [0, 1, 16, 47, 48, 49, 96, 200] {
            let body: Vec<u8> = (0..len).map(|i| i as u8).collect();
            let bytes = encode("recipient-stanza", &["0", "X25519", "abc"], &body);
            let mut total = 0;
            let msg = read_msg(&mut &bytes[..], &mut total).unwrap().unwrap();
            assert_eq!(msg.kind, "recipient-stanza");
            assert_eq!(msg.args, ["0", "X25519", "abc"]);
            assert_eq!(&msg.body[..], &body[..]);
            assert_eq!(total, bytes.len());
        }
        assert_eq!(&encode("done", &[], &[])[..], b"-> done\n\n");
    }

    #[test]
    fn garbage_is_refused_with_a_reason() {
        let cases: [(&[u8], &str); 6] = [
            (b"hello\n", "malformed stanza line"),
            (b"-> ok\n", "ends inside a stanza"),
            (b"-> ok\nAA=\n", "malformed stanza body"),
            (b"-> ok  x\n\n", "malformed stanza line"),
            (b"->\n\n", "a stanza without a type"),
            (b"-> ok", "middle of a line"),
        ];
        for (bytes, why) in cases {
            let err = read_msg(&mut &bytes[..], &mut 0).err().unwrap();
            assert!(err.contains(why), "{bytes:?}: {err}");
        }
        let long = [b"-> ".as_slice(), &vec![b'a'; MAX_LINE + 10], b"\n"].concat();
        let err = read_msg(&mut &long[..], &mut 0).err().unwrap();
        assert!(err.contains("longer than 64 KiB"), "{err}");
        assert!(read_msg(&mut &b""[..], &mut 0).unwrap().is_none());
    }

    #[test]
    fn printable_escapes_control_characters() {
        assert_eq!(printable(b"ok \x1b[2J\n"), "ok \\u{1b}[2J\\n");
        // C1 and the bidirectional controls, as written in the source.
        assert_eq!(printable("a\u{9b}b".as_bytes()), "a\\u{9b}b");
        for c in ('\u{202a}'..='\u{202e}').chain('\u{2066}'..='\u{2069}') {
            let shown = printable(format!("txt.{c}exe").as_bytes());
            assert_eq!(shown, format!("txt.\\u{{{:x}}}exe", u32::from(c)));
        }
        assert_eq!(printable("é ✓ \u{200f}".as_bytes()), "é ✓ \u{200f}");
        assert!(printable(&[b'a'; MAX_STDERR + 5]).ends_with('…'));
    }
}
