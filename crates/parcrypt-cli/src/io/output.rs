//! Where a command's output goes: standard output, or a file written to a
//! temporary file beside it and renamed only when the output is whole.

use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

use anyhow::{Context, Result};

use crate::error::Hint;
use crate::signals;

/// Where output goes: standard output, a file written atomically, or a
/// device or descriptor written directly. Every byte a command outputs goes
/// through it (`println!` is not used), so every write failure is reported
/// the same way: a closed pipe ends the command quietly with status 0, any
/// other failure as `cannot write <target>` with a hint (see
/// [`take_write_failure`]).
///
/// A file is written to a temporary file beside the target (mode 0600) that
/// becomes the target only on [`Output::commit`]; dropping an uncommitted
/// output, or a SIGINT/SIGTERM/SIGHUP, removes it, so a failed or
/// interrupted command leaves nothing. What happens to a file already at the
/// target is the command's [`Policy`], applied by the final rename alone. A
/// symbolic link is followed, so the file it points to is replaced and the
/// link stays.
///
/// `-`, `/dev/stdout`, `/dev/fd/1` and `/proc/self/fd/1` all mean standard
/// output, written directly (so `-o /dev/stdout >> log` appends). Other
/// `/dev/fd/N` and `/proc/self/fd/N` paths, devices, FIFOs and sockets
/// (`-o /dev/null`, a named pipe) are opened and written directly: renaming a
/// file over them would replace the node, or the file behind a descriptor.
/// A regular file reached through a descriptor path is appended to, which is
/// what both `3> file` (empty) and `3>> file` want.
pub struct Output {
    sink: Sink,
    /// The output as messages name it: the `-o` path as given, or
    /// "standard output".
    name: String,
    /// Bytes handed to standard output or a device (never to a temporary
    /// file): what a failed command has let out ([`Output::released`]).
    direct: u64,
}

/// What a failed command's output had received: the bytes that went out to
/// standard output or a device or descriptor. A `-o` file is written
/// through a temporary one, which the failure removes: nothing. Its
/// `Display` ends a decryption's hint ("nothing was written", or how many
/// verified bytes went out).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Released(pub u64);

impl std::fmt::Display for Released {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            0 => f.write_str("nothing was written"),
            1 => f.write_str("1 verified byte went out before this was found"),
            n => write!(f, "{n} verified bytes went out before this was found"),
        }
    }
}

enum Sink {
    Stdout(io::Stdout),
    Direct(File),
    Temp(Temp),
}

/// A temporary file that becomes `target`, registered for removal on signals.
struct Temp {
    file: Option<tempfile::NamedTempFile>,
    target: PathBuf,
    policy: Policy,
}

/// What a command does with a file already at its `-o` path, and whether
/// what it writes is secret: decided by the command and its flags, never by
/// what exists when it starts, since other programs (another parcrypt) may
/// create or remove the file while it runs.
///
/// - [`Policy::REPLACE`]: the commit renames over whatever file is there
///   then, also one that appeared during the run (`aes`, `rc4`, `parc4`,
///   signatures, public keys, proofs, manual pages). A replaced file's mode
///   is kept, and its owner and group where permitted; with concurrent
///   writers the last rename wins and the file holds one whole output.
/// - [`Policy::refuse_unless`]`(force)`: without `force` an existing file is
///   refused when the command starts (before any work) and again by the
///   commit, which creates the name only if nothing holds it (Linux's
///   `renameat2(RENAME_NOREPLACE)`, a hard link elsewhere; both through
///   `tempfile`), so of concurrent writers exactly one succeeds; with
///   `force` it is [`Policy::REPLACE`] (`encrypt`, `decrypt`, `keygen`).
/// - [`Policy::secret`]: the output is secret key material (private keys):
///   the file is mode 0600 whether new or replacing, whatever the umask or
///   the replaced file's mode; the replaced file's owner is kept as above.
///   A command that writes a key declares it here and needs nothing else.
///
/// The policy applies to files `Output` creates; standard output, devices
/// and descriptor paths are written directly whatever it says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Policy {
    replace: bool,
    secret: bool,
}

impl Policy {
    /// Replace a file at the target, whenever it appeared.
    pub const REPLACE: Policy = Policy {
        replace: true,
        secret: false,
    };

    /// Refuse a file at the target, whenever it appeared, unless `force`:
    /// then replace it as [`Policy::REPLACE`] does.
    pub const fn refuse_unless(force: bool) -> Policy {
        Policy {
            replace: force,
            secret: false,
        }
    }

    /// The same policy for an output holding secret key material: the file
    /// is always mode 0600.
    pub const fn secret(self) -> Policy {
        Policy { secret: true, ..self }
    }
}

impl Drop for Temp {
    fn drop(&mut self) {
        if let Some(file) = self.file.take() {
            let mut live = signals::live();
            live.forget(file.path());
            // Removes the file (NamedTempFile's drop) while the registry is held.
            drop(file);
        }
    }
}

/// Whether `path` names standard output: `-`, `/dev/stdout`, `/dev/fd/1` or
/// `/proc/self/fd/1`.
pub fn names_stdout(path: &Path) -> bool {
    path == Path::new("-") || descriptor(path) == Some(1)
}

/// The descriptor a `/dev/stdout`, `/dev/stderr`, `/dev/fd/N` or
/// `/proc/self/fd/N` path stands for.
fn descriptor(path: &Path) -> Option<u32> {
    let text = path.to_str()?;
    match text {
        "/dev/stdout" => return Some(1),
        "/dev/stderr" => return Some(2),
        _ => {}
    }
    let n = text
        .strip_prefix("/dev/fd/")
        .or_else(|| text.strip_prefix("/proc/self/fd/"))?;
    if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    n.parse().ok()
}

impl Output {
    /// Standard output.
    pub fn stdout() -> Self {
        Output {
            sink: Sink::Stdout(io::stdout()),
            name: "standard output".to_owned(),
            direct: 0,
        }
    }

    /// The output `-o` names (standard output for `None`), treating a file
    /// at the target as `policy` says: a refusing policy refuses one that is
    /// there now (exit 1, with a hint to use `--force`), and the commit
    /// decides again.
    pub fn create(path: Option<&Path>, policy: Policy) -> Result<Self> {
        let Some(target) = path.filter(|p| !names_stdout(p)) else {
            return Ok(Self::stdout());
        };
        let name = target.display().to_string();
        let direct = |file: io::Result<File>| -> Result<Self> {
            let hint = create_hint(file.as_ref().err().map(io::Error::kind), target);
            let file = file
                .with_context(|| format!("cannot open output {name}"))
                .hint(hint)?;
            Ok(Output {
                sink: Sink::Direct(file),
                name: name.clone(),
                direct: 0,
            })
        };
        if descriptor(target).is_some() {
            let regular = std::fs::metadata(target).is_ok_and(|m| m.is_file());
            let mut options = std::fs::OpenOptions::new();
            options.write(true).append(regular);
            return direct(options.open(target));
        }
        match std::fs::metadata(target) {
            Ok(meta) if meta.is_file() && !policy.replace => {
                return Err(anyhow::anyhow!("{name} exists"))
                    .hint("add --force to replace it, or choose another -o");
            }
            Ok(meta) if !meta.is_file() && !meta.is_dir() => {
                return direct(std::fs::OpenOptions::new().write(true).open(target));
            }
            _ => {}
        }
        let resolved;
        let final_path = match std::fs::symlink_metadata(target) {
            Ok(m) if m.file_type().is_symlink() => {
                resolved = std::fs::canonicalize(target)
                    .with_context(|| format!("cannot follow link {name}"))
                    .hint("the link points nowhere: fix it, or give -o another name")?;
                resolved.as_path()
            }
            _ => target,
        };
        if final_path.is_dir() {
            return Err(anyhow::anyhow!("output {name} is a directory")).hint("give -o a file name");
        }
        let dir = match final_path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        if !dir.is_dir() {
            return Err(anyhow::anyhow!(
                "cannot create output {name}: no directory {}",
                dir.display()
            ))
            .hint("create the directory first, or fix the path given to -o");
        }
        let mut live = signals::live();
        let file = tempfile::Builder::new()
            .prefix(".parcrypt-")
            .suffix(".tmp")
            .tempfile_in(dir)
            // tempfile names its own random path in the error; the user knows only the target.
            .map_err(|e| io::Error::from(e.kind()))
            .with_context(|| format!("cannot create output {name}"));
        let file = match file {
            Ok(f) => f,
            Err(e) => {
                let kind = e.downcast_ref::<io::Error>().map(io::Error::kind);
                return Err(e).hint(create_hint(kind, final_path));
            }
        };
        live.register(file.path());
        let temp = Temp {
            file: Some(file),
            target: final_path.to_path_buf(),
            policy,
        };
        if policy.secret {
            // 0600 already, unless the umask took bits away.
            temp.make_private()
                .with_context(|| format!("cannot create output {name}"))?;
        }
        Ok(Output {
            sink: Sink::Temp(temp),
            name,
            direct: 0,
        })
    }

    /// What this output has let out so far ([`Released`]): the bytes
    /// written to standard output or a device, flushed first (best effort)
    /// so that the count is what the reader got; nothing for a `-o` file,
    /// which stays temporary until [`Output::commit`].
    pub fn released(&mut self) -> Released {
        if matches!(self.sink, Sink::Temp(_)) {
            return Released(0);
        }
        let _ = self.flush();
        Released(self.direct)
    }

    /// Makes the output final: flushes standard output or the device, or
    /// syncs the temporary file to disk and gives it the target's name.
    pub fn commit(mut self) -> Result<()> {
        self.flush()?;
        let Output { sink, name, .. } = self;
        let Sink::Temp(mut temp) = sink else {
            return Ok(());
        };
        let Some(file) = temp.file.as_ref() else {
            return Ok(());
        };
        file.as_file().sync_all().map_err(|e| failed(&name, e))?;
        // Held while the name changes: a signal now finds the temporary
        // file either registered, or renamed and final.
        let mut live = signals::live();
        let Some(file) = temp.file.take() else {
            return Ok(());
        };
        live.forget(file.path());
        let persisted = if temp.policy.replace {
            keep_owner_and_mode(file.as_file(), &temp.target, temp.policy.secret);
            file.persist(&temp.target)
        } else {
            file.persist_noclobber(&temp.target)
        };
        // On failure the temporary file is removed as the error drops, with
        // the registry still held.
        match persisted {
            Ok(_) => Ok(()),
            Err(e) if e.error.kind() == io::ErrorKind::AlreadyExists => Err(anyhow::anyhow!(
                "cannot create {name}: it exists (another program created it while parcrypt was writing)"
            ))
            .hint("nothing was replaced; add --force to replace it, or choose another -o"),
            Err(e) => {
                let kind = e.error.kind();
                Err(anyhow::Error::new(e.error))
                    .with_context(|| format!("cannot create {name}"))
                    .hint(create_hint(Some(kind), &temp.target))
            }
        }
    }
}

impl Temp {
    /// Sets the temporary file's mode to 0600, whatever the umask did.
    fn make_private(&self) -> io::Result<()> {
        use std::os::unix::fs::PermissionsExt;
        let file = self.file.as_ref().map(tempfile::NamedTempFile::as_file);
        file.map_or(Ok(()), |f| {
            f.set_permissions(std::fs::Permissions::from_mode(0o600))
        })
    }
}

/// Gives the temporary file the owner and group of the regular file at
/// `target` now (where one is) and, unless `secret`, its permission bits:
/// the owner only where permitted (as root, or one's own file), since a
/// `--force` run as root must not turn another user's file into root's.
/// Set-id and sticky bits are not carried over to new contents; a secret
/// output stays 0600, whatever the replaced file allowed. Best effort: where
/// this fails the file stays 0600 and ours.
fn keep_owner_and_mode(temp: &File, target: &Path, secret: bool) {
    use std::os::unix::fs::{MetadataExt, PermissionsExt, fchown};
    let Ok(meta) = std::fs::metadata(target) else {
        return;
    };
    if !meta.is_file() {
        return;
    }
    let _ = fchown(temp, Some(meta.uid()), Some(meta.gid()));
    let mode = if secret { 0o600 } else { meta.mode() & 0o777 };
    let _ = temp.set_permissions(std::fs::Permissions::from_mode(mode));
}

/// What to tell the user when `path` cannot be opened or created.
fn create_hint(kind: Option<io::ErrorKind>, path: &Path) -> String {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    match kind {
        Some(io::ErrorKind::PermissionDenied) => format!(
            "check the permissions of {} and of its directory {}",
            path.display(),
            dir.display()
        ),
        Some(io::ErrorKind::NotFound) => "create the directory first, or fix the path given to -o".to_owned(),
        Some(kind) => write_hint(kind).to_owned(),
        None => "check that the directory exists and is writable".to_owned(),
    }
}

/// What to tell the user when writing fails with `kind`.
fn write_hint(kind: io::ErrorKind) -> &'static str {
    match kind {
        io::ErrorKind::StorageFull => "is the disk full?",
        io::ErrorKind::QuotaExceeded => "is the disk quota used up?",
        io::ErrorKind::FileTooLarge => "the file system cannot hold a file this large",
        io::ErrorKind::PermissionDenied => "check the permissions of the output and its directory",
        io::ErrorKind::ReadOnlyFilesystem => "the file system is read-only; choose another -o",
        _ => "check that the output can be written (disk, permissions, device)",
    }
}

/// The first failed write to an output, kept for [`take_write_failure`].
static WRITE_FAILURE: Mutex<Option<(String, io::Error)>> = Mutex::new(None);

/// Records a failed write to the output `name` (the first one wins) and
/// returns the error to pass on.
fn failed(name: &str, e: io::Error) -> io::Error {
    let mut first = WRITE_FAILURE.lock().unwrap_or_else(PoisonError::into_inner);
    if first.is_none() {
        let copy = match e.raw_os_error() {
            Some(code) => io::Error::from_raw_os_error(code),
            None => io::Error::new(e.kind(), e.to_string()),
        };
        *first = Some((name.to_owned(), copy));
    }
    e
}

/// If a write to an output failed, that failure is what the command's
/// error is really about, however the layers between reported it (a
/// library may stop with "writer stopped", or wrap the error): returns it as
/// `cannot write <target>: <reason>` with a hint. A closed pipe keeps its
/// kind, for [`crate::error::is_broken_pipe`].
pub fn take_write_failure() -> Option<anyhow::Error> {
    let (name, e) = WRITE_FAILURE
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .take()?;
    Some(write_error(&name, e))
}

/// `cannot write <name>: <reason>` with the hint for the failure's kind.
pub fn write_error(name: &str, e: io::Error) -> anyhow::Error {
    let hint = write_hint(e.kind());
    let err: Result<()> = Err(anyhow::Error::new(e))
        .with_context(|| format!("cannot write {name}"))
        .hint(hint);
    err.expect_err("an error")
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let r = match &mut self.sink {
            Sink::Stdout(out) => out.write(buf),
            Sink::Direct(f) => f.write(buf),
            Sink::Temp(t) => temp_file(t)?.write(buf),
        };
        let n = r.map_err(|e| failed(&self.name, e))?;
        self.direct += n as u64;
        Ok(n)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        let r = match &mut self.sink {
            Sink::Stdout(out) => out.write_all(buf),
            Sink::Direct(f) => f.write_all(buf),
            Sink::Temp(t) => temp_file(t)?.write_all(buf),
        };
        r.map_err(|e| failed(&self.name, e))?;
        self.direct += buf.len() as u64;
        Ok(())
    }

    fn flush(&mut self) -> io::Result<()> {
        let r = match &mut self.sink {
            Sink::Stdout(out) => out.flush(),
            Sink::Direct(f) => f.flush(),
            Sink::Temp(t) => temp_file(t)?.flush(),
        };
        r.map_err(|e| failed(&self.name, e))
    }
}

/// The temporary file as a plain `File`: `NamedTempFile`'s own writes add
/// its random path to errors, which must name the target instead.
fn temp_file(t: &mut Temp) -> io::Result<&mut File> {
    t.file
        .as_mut()
        .map(tempfile::NamedTempFile::as_file_mut)
        .ok_or_else(|| io::Error::other("the output was already committed"))
}
