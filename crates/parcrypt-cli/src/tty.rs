//! The terminal, for what needs a person: passphrase prompts and the
//! passphrase `parcrypt age -p` generates. As age does it, everything goes
//! to the controlling terminal (`/dev/tty`), never to stdin/stdout, which
//! carry the data; standard input is used only when there is no `/dev/tty`
//! and it is a terminal itself. Prompts are erased once answered.

use std::fs::File;
use std::io::{self, IsTerminal, Read, Write};
use std::os::fd::AsFd;

use anyhow::{Result, anyhow};
use parcrypt::secret::SecretBytes;
use rustix::termios::{LocalModes, OptionalActions, tcgetattr, tcsetattr};

use crate::signals;

/// The longest passphrase read (age has no limit; a terminal line is far shorter).
const MAX_SECRET: usize = 64 << 10;

/// The terminal to talk to: `/dev/tty`, else standard input if it is one.
fn terminal() -> Result<File> {
    match std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open("/dev/tty")
    {
        Ok(tty) => Ok(tty),
        Err(e) if io::stdin().is_terminal() => {
            let _ = e;
            Ok(File::from(io::stdin().as_fd().try_clone_to_owned()?))
        }
        Err(e) => Err(anyhow!(
            "standard input is not a terminal, and /dev/tty is not available: {e}"
        )),
    }
}

/// Writes `age: `-style text to the terminal (`parcrypt: ` here).
pub fn print(text: impl std::fmt::Display) -> Result<()> {
    let mut tty = terminal()?;
    writeln!(tty, "parcrypt: {text}")?;
    Ok(())
}

/// Asks for a secret on the terminal without echoing it: `prompt`, then
/// one line (without its `\n` or `\r\n`), read into wiped memory. The
/// prompt line is erased afterwards; echo comes back also if a signal ends
/// the process meanwhile.
pub fn read_secret(prompt: &str) -> Result<SecretBytes> {
    let mut tty = terminal()?;
    write!(tty, "{prompt} ")?;
    tty.flush()?;
    let saved = tcgetattr(&tty).map_err(io::Error::from)?;
    let mut quiet = saved.clone();
    quiet.local_modes.remove(LocalModes::ECHO);
    // Not TCSAFLUSH: a line typed ahead (or fed by a test through a pty) stays.
    tcsetattr(&tty, OptionalActions::Now, &quiet).map_err(io::Error::from)?;
    let restore_tty = tty.try_clone()?;
    let restore_modes = saved.clone();
    signals::on_signal(Some(Box::new(move || {
        let _ = tcsetattr(&restore_tty, OptionalActions::Now, &restore_modes);
    })));
    let line = read_line(&mut tty);
    let _ = tcsetattr(&tty, OptionalActions::Now, &saved);
    signals::on_signal(None);
    // A new line (works everywhere), then erase the prompt above it if escape codes work.
    let _ = write!(tty, "\r\n\x1b[F\x1b[K");
    line
}

/// One line from the terminal, byte by byte (nothing past the newline is
/// taken from the terminal's buffer).
fn read_line(tty: &mut File) -> Result<SecretBytes> {
    let mut line = SecretBytes::zeroed(MAX_SECRET);
    let mut len = 0;
    let mut byte = [0u8; 1];
    loop {
        match tty.read(&mut byte) {
            Ok(0) if len == 0 => return Err(anyhow!("end of input before a line was typed")),
            Ok(0) => break,
            Ok(_) if byte[0] == b'\n' => break,
            Ok(_) if len == MAX_SECRET => return Err(anyhow!("the line is longer than 64 KiB")),
            Ok(_) => {
                line.expose_mut()[len] = byte[0];
                len += 1;
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e.into()),
        }
        byte[0] = 0;
    }
    if len > 0 && line.expose()[len - 1] == b'\r' {
        len -= 1;
    }
    Ok(SecretBytes::from(&line.expose()[..len]))
}
