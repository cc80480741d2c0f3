//! Where `aes`'s password comes from, in `openssl enc -pass`'s forms and
//! with its rules: `file:`, `fd:` and `stdin` give their first line (up to
//! 1023 bytes, without the `\n`; a `\r` stays, as in openssl), and the
//! password ends at a NUL byte (openssl passes it as a C string).

use std::io::Read;
use std::path::Path;

use anyhow::{Result, anyhow};
use parcrypt::secret::SecretBytes;

use crate::cli::{CipherName, Direction, PassSource};
use crate::error::{Hint, warn};
use crate::tty;

/// openssl reads a password line with `BIO_gets` into 1024 bytes: at most
/// 1023 of them.
const MAX_LINE: usize = 1023;

/// The password `source` names, or one asked for on the terminal (twice to
/// encrypt) when there is none, as `openssl enc` asks.
pub fn read(source: Option<&PassSource>, cipher: CipherName, direction: Direction) -> Result<SecretBytes> {
    match source {
        Some(source) => from_source(source, "--pass"),
        None => prompt(cipher, direction).map(until_nul),
    }
}

/// The password `source` names, read as openssl reads `-pass`, `-passin`
/// and `-passout` (`flag`, for the messages): `pass:` is warned about, the
/// others give their first line; the password ends at a NUL byte.
pub fn from_source(source: &PassSource, flag: &str) -> Result<SecretBytes> {
    let password = match source {
        PassSource::Text(text) => {
            warn(format_args!(
                "{flag} pass:… puts the password where other users can read it (ps, \
                 /proc/PID/cmdline); prefer env:VAR, file:PATH, fd:N or stdin"
            ));
            SecretBytes::from(text.as_bytes())
        }
        PassSource::Env(var) => {
            use std::os::unix::ffi::OsStrExt;
            let value = std::env::var_os(var)
                .ok_or_else(|| anyhow!("no environment variable {}", var.to_string_lossy()))
                .hint(format!(
                    "export it first, or give the password another way ({flag} file:PATH)"
                ))?;
            let password = SecretBytes::from(value.as_bytes());
            // The OsString's own buffer cannot be wiped in place; dropped at once.
            drop(value);
            password
        }
        PassSource::File(path) => {
            let file = std::fs::File::open(path)
                .map_err(|e| anyhow!("cannot open the password file {}: {e}", path.display()))
                .hint(format!("check the path given to {flag} file:"))?;
            first_line(file, &format!("the password file {}", path.display()))?
        }
        PassSource::Fd(n) => {
            // Opened anew through /dev/fd (no unsafe descriptor adoption); a
            // pipe is the same pipe, read a byte at a time as openssl does.
            let file = std::fs::File::open(Path::new(&format!("/dev/fd/{n}")))
                .map_err(|e| anyhow!("cannot read the password from descriptor {n}: {e}"))
                .hint(format!(
                    "{flag} fd:{n} needs descriptor {n} open for reading, e.g. `{n}< FILE`"
                ))?;
            first_line(file, &format!("descriptor {n}"))?
        }
        PassSource::Stdin => first_line(std::io::stdin().lock(), "standard input")?,
        PassSource::Unknown => {
            // The value is not repeated: it may be a password missing its `pass:`.
            return Err(anyhow!("{flag} takes a password source, not a password"))
                .hint(format!(
                    "pass:TEXT, env:VAR, file:PATH, fd:N or stdin, as openssl's -{}",
                    flag.trim_start_matches('-')
                ))
                .usage();
        }
    };
    Ok(until_nul(password))
}

/// The first line of `input`, as openssl's `BIO_gets` into 1024 bytes
/// gives it, read one byte at a time so that nothing past it is consumed.
fn first_line(mut input: impl Read, what: &str) -> Result<SecretBytes> {
    let mut line = SecretBytes::zeroed(MAX_LINE);
    let mut len = 0;
    let mut byte = [0u8; 1];
    while len < MAX_LINE {
        match input.read(&mut byte) {
            Ok(0) => break,
            Ok(_) if byte[0] == b'\n' => {
                // An empty first line is an empty password (openssl agrees).
                return Ok(SecretBytes::from(&line.expose()[..len]));
            }
            Ok(_) => {
                line.expose_mut()[len] = byte[0];
                len += 1;
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => {
                return Err(anyhow!("cannot read the password from {what}: {e}"))
                    .hint("check that it can be read");
            }
        }
    }
    if len == 0 {
        return Err(anyhow!("no password in {what}: it is empty"))
            .hint("write the password on its first line");
    }
    Ok(SecretBytes::from(&line.expose()[..len]))
}

/// Asks on the terminal, as openssl: `enter AES-256-CBC encryption
/// password:`, and to encrypt, again to verify.
fn prompt(cipher: CipherName, direction: Direction) -> Result<SecretBytes> {
    let verb = match direction {
        Direction::Encrypt => "encryption",
        Direction::Decrypt => "decryption",
    };
    let ask = format!("enter {} {verb} password:", cipher.upper());
    let no_terminal = "give the password with --pass (env:VAR, file:PATH, fd:N or stdin)";
    let first = tty::read_secret(&ask).hint(no_terminal)?;
    if direction == Direction::Encrypt {
        let again = tty::read_secret(&format!("Verifying - {ask}")).hint(no_terminal)?;
        if again != first {
            return Err(anyhow!("the passwords differ (verify failure)"))
                .hint("type the same password twice");
        }
    }
    Ok(first)
}

/// The password up to its first NUL byte: openssl takes `strlen` of it.
fn until_nul(password: SecretBytes) -> SecretBytes {
    match password.expose().iter().position(|&b| b == 0) {
        Some(end) => SecretBytes::from(&password.expose()[..end]),
        None => password,
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn first_line_as_openssl_reads_it() {
        let line = |input: &[u8]| first_line(input, "test").map(|p| p.expose().to_vec());
        assert_eq!(line(b"secret\nmore").unwrap(), b"secret");
        assert_eq!(line(b"secret").unwrap(), b"secret");
        assert_eq!(line(b"secret\r\n").unwrap(), b"secret\r");
        assert_eq!(line(b"\nsecond").unwrap(), b"");
        assert!(line(b"").is_err());
        let long = vec![b'x'; 2000];
        assert_eq!(line(&long).unwrap().len(), MAX_LINE);
        assert_eq!(until_nul(SecretBytes::from(&b"ab\0cd"[..])).expose(), b"ab");
    }

    #[test]
    fn one_byte_at_a_time() {
        let mut input = &b"pw\nDATA"[..];
        first_line(&mut input, "test").unwrap();
        assert_eq!(input, b"DATA");
    }
}
