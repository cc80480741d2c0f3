//! `parcrypt hash --check` (sha256sum -c on all cores) and `hash -r`, with
//! the library's `merkle::sums` doing the reading, writing and verifying,
//! and this file saying it in coreutils' words.

use std::fs::File;
use std::io::{self, BufReader, BufWriter, Write};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use anyhow::Result;
use parcrypt::merkle::sums::{self, CheckError, CheckOptions, Event, Found, Outcome, Parser};
use parcrypt::merkle::{self, Format, Input};
use parcrypt::par::Parallelism;

use crate::cli::HashArgs;
use crate::error::{Silent, eprint_line};
use crate::io::Output;

/// What `--check` prints, from the flags.
struct Report {
    quiet: bool,
    status: bool,
    warn: bool,
    strict: bool,
    zero: bool,
    ignore_missing: bool,
}

/// `hash --check LIST…`: every list verified in turn, as `sha256sum -c`.
pub fn run_check(args: &HashArgs, format: Format, lists: &[PathBuf], par: &Parallelism) -> Result<()> {
    let report = Report {
        quiet: args.quiet,
        status: args.status,
        warn: args.warn,
        strict: args.strict,
        zero: args.zero,
        ignore_missing: args.ignore_missing,
    };
    let mut parser = Parser::new(format, args.zero);
    let mut out = BufWriter::with_capacity(64 << 10, Output::stdout());
    let mut all_ok = true;
    for list in lists {
        all_ok &= check_list(&report, &mut parser, list, par, &mut out)?;
    }
    out.flush()?;
    if all_ok { Ok(()) } else { Err(Silent.into()) }
}

/// Counts of one list, as coreutils keeps them.
#[derive(Default)]
struct Tally {
    malformed: u64,
    mismatched: u64,
    unreadable: u64,
    entries: bool,
    matched: bool,
}

/// One list; whether it passed. Errors are those of writing stdout.
fn check_list(
    report: &Report,
    parser: &mut Parser,
    list: &Path,
    par: &Parallelism,
    out: &mut impl Write,
) -> Result<bool> {
    let is_stdin = list == Path::new("-");
    let list_name = if is_stdin {
        quotef(b"standard input")
    } else {
        quotef(list.as_os_str().as_bytes())
    };
    let reader: Box<dyn io::BufRead> = if is_stdin {
        Box::new(io::stdin().lock())
    } else {
        match File::open(list) {
            Ok(f) => Box::new(BufReader::with_capacity(64 << 10, f)),
            Err(e) => {
                out.flush()?;
                eprint_line(format_args!("parcrypt: {list_name}: {}", os_reason(&e)));
                return Ok(false);
            }
        }
    };
    let options = CheckOptions {
        ignore_missing: report.ignore_missing,
        list_is_stdin: is_stdin,
    };
    let end = if report.zero { b'\0' } else { b'\n' };
    let mut tally = Tally::default();
    let kind = sums::tag(parser.format());
    let result = sums::check(
        reader,
        io::stdin(),
        parser,
        options,
        par,
        |event| -> io::Result<()> {
            let Some(event) = event else {
                return out.flush();
            };
            match event {
                Event::Malformed { line, .. } => {
                    tally.malformed += 1;
                    if report.warn {
                        out.flush()?;
                        eprint_line(format_args!(
                            "parcrypt: {list_name}: {line}: improperly formatted {kind} checksum line"
                        ));
                    }
                }
                Event::Checked { name, outcome } => {
                    tally.entries = true;
                    let said = match outcome {
                        Outcome::Ok => {
                            tally.matched = true;
                            (!report.quiet).then_some("OK")
                        }
                        Outcome::Mismatch => {
                            tally.mismatched += 1;
                            Some("FAILED")
                        }
                        Outcome::Missing => None,
                        Outcome::Unreadable(e) => {
                            tally.unreadable += 1;
                            out.flush()?;
                            eprint_line(format_args!("parcrypt: {}: {}", quotef(&name), reason(&e)));
                            Some("FAILED open or read")
                        }
                    };
                    if let Some(said) = said.filter(|_| !report.status) {
                        write_name(out, &name, report.zero)?;
                        out.write_all(b": ")?;
                        out.write_all(said.as_bytes())?;
                        out.write_all(&[end])?;
                    }
                }
            }
            Ok(())
        },
    );
    match result {
        Ok(()) => {}
        Err(CheckError::Each(e)) => return Err(e.into()),
        Err(CheckError::Read(_)) => {
            out.flush()?;
            eprint_line(format_args!("parcrypt: {list_name}: read error"));
            return Ok(false);
        }
    }
    out.flush()?;
    summarize(report, &tally, &list_name);
    Ok(tally.entries
        && tally.matched
        && tally.mismatched == 0
        && tally.unreadable == 0
        && (!report.strict || tally.malformed == 0))
}

/// The warnings after a list, in coreutils' order and words.
fn summarize(report: &Report, tally: &Tally, list_name: &str) {
    if !tally.entries {
        eprint_line(format_args!(
            "parcrypt: {list_name}: no properly formatted checksum lines found"
        ));
        return;
    }
    if report.status {
        return;
    }
    let plural = |n: u64, one: &str, many: &str| if n == 1 { one.to_owned() } else { many.to_owned() };
    let warnings = [
        (
            tally.malformed,
            plural(tally.malformed, "line is", "lines are") + " improperly formatted",
        ),
        (
            tally.unreadable,
            plural(tally.unreadable, "listed file", "listed files") + " could not be read",
        ),
        (
            tally.mismatched,
            plural(tally.mismatched, "computed checksum", "computed checksums") + " did NOT match",
        ),
    ];
    for (n, what) in warnings {
        if n != 0 {
            eprint_line(format_args!("parcrypt: WARNING: {n} {what}"));
        }
    }
    if report.ignore_missing && !tally.matched {
        eprint_line(format_args!("parcrypt: {list_name}: no file was verified"));
    }
}

/// A name on a result line as `sha256sum -c` (coreutils 9.1) prints it: as
/// it is, unless it holds a newline — then a leading backslash, and `\` and
/// newline escaped. With `-z`, always as it is.
fn write_name(out: &mut impl Write, name: &[u8], zero: bool) -> io::Result<()> {
    if zero || !name.contains(&b'\n') {
        return out.write_all(name);
    }
    let mut line = vec![b'\\'];
    for &b in name {
        match b {
            b'\\' => line.extend_from_slice(b"\\\\"),
            b'\n' => line.extend_from_slice(b"\\n"),
            b => line.push(b),
        }
    }
    out.write_all(&line)
}

/// Why a listed file could not be read, in coreutils' words where the
/// system gave them.
fn reason(e: &merkle::Error) -> String {
    match e {
        merkle::Error::Io(e) => os_reason(e),
        e => e.to_string(),
    }
}

/// An I/O error as coreutils words it: the system's message without Rust's
/// " (os error N)".
pub fn os_reason(e: &io::Error) -> String {
    let text = e.to_string();
    match (e.raw_os_error(), text.rfind(" (os error ")) {
        (Some(_), Some(at)) => text[..at].to_owned(),
        _ => text,
    }
}

/// A file name quoted as coreutils' `quotef` quotes it in diagnostics
/// (gnulib's shell-escape style, colons quoted too, in a UTF-8 locale):
/// as it is when nothing in it needs quoting, else in single quotes (double
/// quotes when it holds a `'` and nothing a double quote would expand),
/// control characters and bytes that are not UTF-8 as `'$'\ooo''`.
pub fn quotef(name: &[u8]) -> String {
    let text = String::from_utf8_lossy(name);
    let valid = matches!(text, std::borrow::Cow::Borrowed(_));
    let special = |i: usize, c: char| match c {
        ' ' | '!' | '"' | '$' | '&' | '(' | ')' | '*' | ';' | '<' | '=' | '>' | '[' | '^' | '`' | '|'
        | '\'' | '\\' | '?' | ':' => true,
        '#' | '~' => i == 0,
        '{' | '}' => name.len() == 1,
        c => c.is_control(),
    };
    let plain = valid && !name.is_empty() && text.chars().enumerate().all(|(i, c)| !special(i, c));
    if plain {
        return text.into_owned();
    }
    // Double quotes: a `'` inside, and nothing `"`, `$`, `\`, `` ` `` or `!`
    // would expand, and nothing to escape.
    if valid
        && name.contains(&b'\'')
        && !text
            .chars()
            .any(|c| matches!(c, '"' | '$' | '\\' | '`' | '!') || c.is_control())
    {
        return format!("\"{text}\"");
    }
    let mut q = String::from("'");
    let mut in_escape = false;
    let mut rest = name;
    while !rest.is_empty() {
        let (chunk, bad) = match std::str::from_utf8(rest) {
            Ok(s) => (s, 0),
            Err(e) => {
                let good = e.valid_up_to();
                let bad = e.error_len().unwrap_or(rest.len() - good);
                (std::str::from_utf8(&rest[..good]).unwrap_or_default(), bad)
            }
        };
        for c in chunk.chars() {
            if c.is_control() && (c as u32) < 0x100 {
                if !in_escape {
                    q.push_str("'$'");
                    in_escape = true;
                }
                q.push_str(&c_escape(c as u8));
                continue;
            }
            if in_escape {
                q.push_str("''");
                in_escape = false;
            }
            if c == '\'' {
                q.push_str("'\\''");
            } else {
                q.push(c);
            }
        }
        let taken = chunk.len();
        for &b in &rest[taken..taken + bad] {
            if !in_escape {
                q.push_str("'$'");
                in_escape = true;
            }
            q.push_str(&c_escape(b));
        }
        rest = &rest[taken + bad..];
    }
    q.push('\'');
    q
}

/// A byte inside `$'…'`: C's letter escapes, else three octal digits.
fn c_escape(b: u8) -> String {
    match b {
        0x07 => "\\a".to_owned(),
        0x08 => "\\b".to_owned(),
        0x0c => "\\f".to_owned(),
        b'\n' => "\\n".to_owned(),
        b'\r' => "\\r".to_owned(),
        b'\t' => "\\t".to_owned(),
        0x0b => "\\v".to_owned(),
        b => format!("\\{b:03o}"),
    }
}

/// The inputs of `hash -r`: each operand walked (stdin for `-`), problems
/// met on the way reported on stderr as they come; the count of real
/// failures (unreadable directories) goes to `failures`.
pub fn walked<'a>(
    operands: &'a [PathBuf],
    follow: bool,
    failures: &'a AtomicUsize,
) -> impl Iterator<Item = Input<PathBuf>> + Send + 'a {
    operands.iter().flat_map(
        move |op| -> Box<dyn Iterator<Item = Input<PathBuf>> + Send + 'a> {
            if op == Path::new("-") {
                return Box::new(std::iter::once(Input::Stdin));
            }
            Box::new(sums::walk(op, follow).filter_map(move |found| {
                let (path, warning, what) = match found {
                    Found::File(p) => return Some(Input::File(p)),
                    Found::Special { path, what } => (
                        path,
                        "warning: ",
                        format!("a {what}, skipped (-r hashes regular files)"),
                    ),
                    Found::Loop(path) => (
                        path,
                        "warning: ",
                        "a directory already being walked (a symbolic link loop), skipped".to_owned(),
                    ),
                    Found::Error(path, e) => {
                        failures.fetch_add(1, Ordering::Relaxed);
                        (path, "", os_reason(&e))
                    }
                };
                let name = quotef(path.as_os_str().as_bytes());
                eprint_line(format_args!("parcrypt: {warning}{name}: {what}"));
                None
            }))
        },
    )
}

#[cfg(test)]
mod tests {
    use super::quotef;

    #[test]
    fn quotef_quotes_as_coreutils() {
        let cases: [(&[u8], &str); 14] = [
            (b"plain-name_1.txt", "plain-name_1.txt"),
            (b"x y", "'x y'"),
            (b"x:y", "'x:y'"),
            (b"x'y z", "\"x'y z\""),
            (b"x'\"y", "'x'\\''\"y'"),
            (b"x\ty", "'x'$'\\t''y'"),
            (b"\xe9", "''$'\\351'"),
            (b"a\xc3\xa9", "a\u{e9}"),
            (b"a\nb", "'a'$'\\n''b'"),
            (b"x~", "x~"),
            (b"~x", "'~x'"),
            (b"{", "'{'"),
            (b"x{}", "x{}"),
            (b"a\\x\ny\rz", "'a\\x'$'\\n''y'$'\\r''z'"),
        ];
        for (name, want) in cases {
            assert_eq!(quotef(name), want, "{name:?}");
        }
    }
}
