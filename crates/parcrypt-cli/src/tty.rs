//! The terminal, for what needs a person: passphrase prompts and the
//! passphrase `parcrypt age -p` generates. As age does it, everything goes
//! to the controlling terminal (`/dev/tty`), never to stdin/stdout, which
//! carry the data; standard input is used only when there is no `/dev/tty`
//! and it is a terminal itself. Prompts are erased once answered.

use std::fs::File;
use std::io::{self, IsTerminal, Read, Write};
use std::os::fd::{AsFd, AsRawFd};

use anyhow::{Result, anyhow};
use parcrypt::secret::SecretBytes;
use rustix::io::Errno;
use rustix::termios::{LocalModes, OptionalActions, SpecialCodeIndex, Termios, tcgetattr, tcsetattr};

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
    quietly(&mut tty, prompt, Ioctls::Termios2, false, read_line)
}

/// Turns echo off on `tty` (and, if `single`, line editing too: each key
/// press is read as typed), then shows `prompt` and runs `read`, putting
/// the modes back after, also if a signal ends the process meanwhile; then
/// erases the prompt. Echo goes off before the prompt shows, so that
/// nothing typed in answer to the prompt (or fed through a pty at once)
/// can be echoed.
fn quietly<T>(
    tty: &mut File,
    prompt: &str,
    ioctls: Ioctls,
    single: bool,
    read: impl FnOnce(&mut File) -> Result<T>,
) -> Result<T> {
    let saved = quiet(tty, ioctls, single)?;
    let restore_tty = tty.try_clone()?;
    let restore_modes = saved.clone();
    signals::on_signal(Some(Box::new(move || {
        let _ = restore(&restore_tty, &restore_modes);
    })));
    let got = write!(tty, "{prompt} ")
        .and_then(|()| tty.flush())
        .map_err(anyhow::Error::from)
        .and_then(|()| read(tty));
    let _ = restore(tty, &saved);
    signals::on_signal(None);
    // A new line (works everywhere), then erase the prompt above it if escape codes work.
    let _ = write!(tty, "\r\n\x1b[F\x1b[K");
    got
}

/// Asks for a line on the terminal, echoed as typed (a plugin's
/// `request-public`); the prompt stays.
pub fn read_public(prompt: &str) -> Result<SecretBytes> {
    let mut tty = terminal()?;
    write!(tty, "{prompt} ")?;
    tty.flush()?;
    read_line(&mut tty)
}

/// Asks for one key press on the terminal, not echoed (age's choice
/// between a plugin's two options); the prompt is erased after.
pub fn read_key(prompt: &str) -> Result<u8> {
    let mut tty = terminal()?;
    quietly(&mut tty, prompt, Ioctls::Termios2, true, |tty| {
        let mut byte = [0u8; 1];
        loop {
            match tty.read(&mut byte) {
                Ok(0) => return Err(anyhow!("end of input before a key was pressed")),
                Ok(_) => return Ok(byte[0]),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e.into()),
            }
        }
    })
}

/// Which ioctls read and set the terminal's modes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ioctls {
    /// `TCGETS2`/`TCSETS2` (rustix's `tcgetattr`/`tcsetattr`), falling
    /// back to [`Ioctls::Plain`] where the system has none and says so in a
    /// way rustix does not take as that (it falls back itself on `ENOTTY`
    /// and `EACCES`): `ENOSYS`, qemu-user 7.2's (Debian 12) answer for
    /// aarch64 guests, or `EINVAL`, older kernels' to a terminal ioctl they
    /// do not know.
    Termios2,
    /// The plain `TCGETS`/`TCSETS`, which every Linux and qemu-user has.
    Plain,
}

/// A terminal's modes as they were before echo was turned off, to put back
/// through the same ioctls that read them.
#[derive(Clone, Debug)]
enum Modes {
    Termios2(Termios),
    Plain(PlainTermios),
}

/// The kernel's `struct termios`, which `TCGETS` fills and `TCSETS` reads:
/// four 32-bit flag words, `c_lflag` the fourth on every Linux
/// architecture, then `c_line`, `c_cc` and on some architectures the
/// speeds, whose order and length vary (36 to 44 bytes in all). Only the
/// flags are read; the rest is handed back as the kernel wrote it.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct PlainTermios {
    flags: [libc::tcflag_t; 4],
    rest: [u8; 48],
}

impl PlainTermios {
    fn local_modes(&mut self) -> &mut libc::tcflag_t {
        &mut self.flags[3]
    }
}

/// The two plain ioctls, and no other, so that [`plain_ioctl`] is sound
/// whatever it is given.
#[derive(Clone, Copy, Debug)]
enum PlainIoctl {
    /// `TCGETS`.
    Get,
    /// `TCSETS`: at once, as `OptionalActions::Now` on the other path.
    Set,
}

/// Turns echo off on `tty`; returns the modes it had.
///
/// # Errors
///
/// The ioctl's error (`ENOTTY` if `tty` is not a terminal); with
/// [`Ioctls::Termios2`], the plain ioctls' if those were tried too.
#[cfg(test)]
fn echo_off(tty: &File, ioctls: Ioctls) -> io::Result<Modes> {
    quiet(tty, ioctls, false)
}

/// Turns echo off on `tty`, and line editing too if `single` (so that a
/// read returns each key press); returns the modes it had.
///
/// # Errors
///
/// The ioctl's error (`ENOTTY` if `tty` is not a terminal); with
/// [`Ioctls::Termios2`], the plain ioctls' if those were tried too.
fn quiet(tty: &File, ioctls: Ioctls, single: bool) -> io::Result<Modes> {
    match ioctls {
        Ioctls::Termios2 => {
            let saved = match tcgetattr(tty) {
                Ok(saved) => saved,
                Err(Errno::NOSYS | Errno::INVAL) => return quiet(tty, Ioctls::Plain, single),
                Err(e) => return Err(e.into()),
            };
            let mut quiet = saved.clone();
            quiet.local_modes.remove(LocalModes::ECHO);
            if single {
                quiet.local_modes.remove(LocalModes::ICANON);
                quiet.special_codes[SpecialCodeIndex::VMIN] = 1;
                quiet.special_codes[SpecialCodeIndex::VTIME] = 0;
            }
            // Not TCSAFLUSH: a line typed ahead (or fed by a test through a pty) stays.
            tcsetattr(tty, OptionalActions::Now, &quiet)?;
            Ok(Modes::Termios2(saved))
        }
        Ioctls::Plain => {
            let mut saved = PlainTermios {
                flags: [0; 4],
                rest: [0; 48],
            };
            plain_ioctl(tty, PlainIoctl::Get, &mut saved)?;
            let mut quiet = saved;
            *quiet.local_modes() &= !libc::ECHO;
            if single {
                // VMIN and VTIME keep the terminal's (1 and 0 unless changed).
                *quiet.local_modes() &= !libc::ICANON;
            }
            plain_ioctl(tty, PlainIoctl::Set, &mut quiet)?;
            Ok(Modes::Plain(saved))
        }
    }
}

/// Puts back the modes [`echo_off`] found, through the ioctls that read them.
fn restore(tty: &File, modes: &Modes) -> io::Result<()> {
    match modes {
        Modes::Termios2(saved) => Ok(tcsetattr(tty, OptionalActions::Now, saved)?),
        Modes::Plain(saved) => plain_ioctl(tty, PlainIoctl::Set, &mut saved.clone()),
    }
}

/// `TCGETS` into `termios`, or `TCSETS` from it.
// The CLI's one unsafe block: rustix's safe termios calls have no
// fallback for ENOSYS, and its own ioctl API is as unsafe as libc's.
#[allow(unsafe_code)]
fn plain_ioctl(tty: &File, ioctl: PlainIoctl, termios: &mut PlainTermios) -> io::Result<()> {
    let request = match ioctl {
        PlainIoctl::Get => libc::TCGETS,
        PlainIoctl::Set => libc::TCSETS,
    };
    let termios: *mut PlainTermios = termios;
    // SAFETY: `TCGETS` writes one kernel `struct termios` (44 bytes at most)
    // through the pointer and `TCSETS` reads one; it points to a live,
    // exclusively borrowed 64-byte `PlainTermios` for the whole call, and
    // `tty` keeps the descriptor open.
    let rc = unsafe { libc::ioctl(tty.as_raw_fd(), request, termios) };
    if rc == -1 {
        Err(io::Error::last_os_error())
    } else {
        Ok(())
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use rustix::pty::{OpenptFlags, grantpt, openpt, ptsname, unlockpt};

    /// A new pseudo-terminal: the side a person types on and sees the
    /// echo of, and the terminal itself.
    fn pty() -> (File, File) {
        let keyboard = openpt(OpenptFlags::RDWR | OpenptFlags::NOCTTY).unwrap();
        grantpt(&keyboard).unwrap();
        unlockpt(&keyboard).unwrap();
        let name = ptsname(&keyboard, Vec::new()).unwrap();
        let tty = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(name.to_str().unwrap())
            .unwrap();
        (File::from(keyboard), tty)
    }

    /// The terminal's modes as the kernel has them (plain `TCGETS`, which
    /// works everywhere, qemu-user included).
    fn modes_now(tty: &File) -> PlainTermios {
        let mut now = PlainTermios {
            flags: [0; 4],
            rest: [0; 48],
        };
        plain_ioctl(tty, PlainIoctl::Get, &mut now).unwrap();
        now
    }

    /// Types `line` and a newline, reads the line on the terminal as the
    /// prompt does, and returns what the terminal echoed. The echo is
    /// committed before the line can be read, and the terminal writes it
    /// out before anything written after: a marker written after the read
    /// ends it.
    fn type_line(keyboard: &mut File, tty: &mut File, line: &str) -> String {
        keyboard.write_all(format!("{line}\n").as_bytes()).unwrap();
        assert_eq!(read_line(tty).unwrap().expose(), line.as_bytes());
        tty.write_all(b"<end>").unwrap();
        let mut seen = Vec::new();
        while !seen.ends_with(b"<end>") {
            let mut buf = [0; 256];
            let n = keyboard.read(&mut buf).unwrap();
            assert!(n > 0, "the terminal closed: {seen:?}");
            seen.extend_from_slice(&buf[..n]);
        }
        seen.truncate(seen.len() - b"<end>".len());
        String::from_utf8(seen).unwrap()
    }

    /// Echo is off while a line is read and on again after, with the modes
    /// as they were bit for bit; returns the modes `echo_off` saved.
    fn echo_off_and_back(ioctls: Ioctls) -> Modes {
        let (mut keyboard, mut tty) = pty();
        let before = modes_now(&tty);
        assert_ne!(before.flags[3] & libc::ECHO, 0, "a new terminal echoes");
        assert_eq!(type_line(&mut keyboard, &mut tty, "shown"), "shown\r\n");
        let saved = echo_off(&tty, ioctls).unwrap();
        let quiet = modes_now(&tty);
        assert_eq!(quiet.flags[3], before.flags[3] & !libc::ECHO, "{ioctls:?}");
        assert_eq!(type_line(&mut keyboard, &mut tty, "secret"), "", "{ioctls:?}");
        restore(&tty, &saved).unwrap();
        assert_eq!(modes_now(&tty), before, "{ioctls:?}");
        assert_eq!(type_line(&mut keyboard, &mut tty, "typed"), "typed\r\n");
        saved
    }

    #[test]
    fn echo_off_while_reading_and_back_after_through_plain_tcgets() {
        let saved = echo_off_and_back(Ioctls::Plain);
        assert!(matches!(saved, Modes::Plain(_)), "{saved:?}");
    }

    /// The prompt's own choice: `TCGETS2` where the system has it (every
    /// Linux kernel), plain `TCGETS` where it answers `ENOSYS` (qemu-user
    /// for aarch64 guests), with the same outcome.
    #[test]
    fn echo_off_while_reading_and_back_after_through_tcgets2_or_its_fallback() {
        let has_tcgets2 = tcgetattr(pty().1).is_ok();
        let saved = echo_off_and_back(Ioctls::Termios2);
        assert_eq!(matches!(saved, Modes::Termios2(_)), has_tcgets2, "{saved:?}");
    }

    #[test]
    fn not_a_terminal_is_enotty_on_both_paths() {
        let file = tempfile::tempfile().unwrap();
        for ioctls in [Ioctls::Termios2, Ioctls::Plain] {
            let e = echo_off(&file, ioctls).unwrap_err();
            assert_eq!(e.raw_os_error(), Some(libc::ENOTTY), "{ioctls:?}: {e}");
        }
    }
}
