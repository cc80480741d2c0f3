//! Many files hashed at once, results in input order ([`hash_files`]).

use crate::digest::Digest;
use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

use super::{BitTorrentV2, Chunks, Error, Format, Glacier, MAX_LEAF_SIZE, Rfc6962};
use crate::par::{Parallelism, Step};

/// One input of [`hash_files`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input<P> {
    /// A file (or a FIFO, a device, …), opened by name.
    File(P),
    /// Standard input: the reader the caller gives [`hash_files`] as
    /// `stdin` (the library never reads the process's own), read where it
    /// comes in the list.
    Stdin,
}

/// One input's outcome, as [`hash_files`] hands it on.
#[derive(Debug)]
pub struct FileHash<P> {
    /// The input, as given.
    pub input: Input<P>,
    /// Its hash (None only for an empty input in [`Format::BitTorrentV2`]),
    /// or why it could not be read.
    pub hash: Result<Option<Digest>, Error>,
}

/// In a tree format, regular files of at least this many bytes are hashed
/// one at a time with every thread (the tree engine splits them); smaller
/// ones, and every file in [`Format::Sha256`] (which one thread must hash
/// alone anyway), are hashed whole by one thread, several files at once.
/// Measured in `src/merkle/README.md`.
pub const ALL_THREADS_FROM: u64 = 16 << 20;

/// Files below this are read into memory in one go (larger ones go through
/// the file pipeline, as [`super::hash_file`] does).
const READ_WHOLE: u64 = 1 << 20;

/// Results held at most ahead of the first one not yet handed on.
const WINDOW: usize = 1024;

/// The hash of every input in `format`, handed to `each` on the calling
/// thread in input order as soon as it and all before it are done: files
/// are spread over `par`'s threads (small files several per thread, each
/// file on one; large tree-format files one at a time on all threads, see
/// [`ALL_THREADS_FROM`]), and at most about a thousand inputs are held
/// ahead, however many there are (`inputs` is read as the work goes on).
/// Every strategy and thread count gives the hashes [`super::hash_file`]
/// gives for each file alone.
///
/// A file that cannot be opened or read gets its error in its
/// [`FileHash`]; the others are still hashed. [`Input::Stdin`] (read from
/// `stdin`: the CLI passes its standard input, a caller without one
/// `std::io::empty()`) and inputs
/// that are not regular files (FIFOs, devices) are read on the calling
/// thread in their turn, with every thread.
///
/// `each(None)` means that nothing is ready for now: output `each`
/// buffers should be flushed (see [`Parallelism::map_ordered`]).
///
/// # Errors
/// The first error `each` returns, after which no more files are opened.
///
/// # Examples
/// ```
/// use parcrypt::merkle::{Format, Input, hash_files};
/// use parcrypt::par::Parallelism;
///
/// let dir = std::env::temp_dir();
/// let names: Vec<_> = (0..3).map(|i| dir.join(format!("hash-files-doc-{i}"))).collect();
/// for (i, name) in names.iter().enumerate() {
///     std::fs::write(name, vec![b'x'; i])?;
/// }
/// let mut lines = Vec::new();
/// let par = Parallelism::default();
/// hash_files(Format::Sha256, names.iter().map(Input::File), std::io::empty(), &par, |r| {
///     if let Some(r) = r {
///         lines.push(hex::encode(r.hash?.unwrap_or_default()));
///     }
///     Ok::<(), parcrypt::merkle::Error>(())
/// })?;
/// assert_eq!(lines[1], "2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn hash_files<P, E>(
    format: Format,
    inputs: impl Iterator<Item = Input<P>> + Send,
    stdin: impl Read + Send,
    par: &Parallelism,
    each: impl FnMut(Option<FileHash<P>>) -> Result<(), E>,
) -> Result<(), E>
where
    P: AsRef<Path> + Send,
{
    hash_files_with(format, inputs, stdin, par, Fifos::Read, each)
}

/// What [`hash_files_with`] does with a FIFO or a character device.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Fifos {
    /// Reads it: a FIFO waits for its writer in its turn ([`hash_files`]).
    Read,
    /// Refuses it: an error, never a wait (a checksum list names files; a
    /// FIFO without a writer would wait forever, and so would `/dev/zero`
    /// or a terminal). A character device is refused before it is opened:
    /// opening one can act on its own (a tape rewinds, a watchdog starts).
    Refuse,
}

/// Why a checksum list's entry of type `kind` is not read, if it is not.
fn refused(kind: std::fs::FileType) -> Option<&'static str> {
    use std::os::unix::fs::FileTypeExt;
    if kind.is_fifo() {
        Some("a FIFO, not read: a checksum list names files")
    } else if kind.is_char_device() {
        Some("a character device, not read: a checksum list names files")
    } else {
        None
    }
}

/// [`hash_files`], with what to do with FIFOs.
pub(super) fn hash_files_with<P, E>(
    format: Format,
    inputs: impl Iterator<Item = Input<P>> + Send,
    mut stdin: impl Read + Send,
    par: &Parallelism,
    fifos: Fifos,
    mut each: impl FnMut(Option<FileHash<P>>) -> Result<(), E>,
) -> Result<(), E>
where
    P: AsRef<Path> + Send,
{
    par.map_ordered(
        inputs,
        WINDOW,
        |input| hash_here(format, input, par, fifos),
        |(input, later)| {
            let hash = match (&input, later) {
                (_, Later::Large(file)) => super::hash_file(format, &file, par, |_| {}),
                (_, Later::Stream(file)) => crate::io::wait_then_block(&file)
                    .map_err(Error::Io)
                    .and_then(|()| super::hash_file(format, &file, par, |_| {})),
                _ => super::hash_reader(format, &mut stdin, par, |_| {}),
            };
            FileHash { input, hash }
        },
        &mut each,
    )
}

/// An input left to the calling thread, hashed in its turn with every
/// thread.
enum Later {
    /// A large regular file in a tree format.
    Large(File),
    /// Not a regular file (a FIFO, a device): kept open as it was opened,
    /// without blocking, and waited on in its turn, so that waiting for a
    /// writer holds up nothing before it. Never closed and opened again: a
    /// writer that opened the FIFO meanwhile, wrote and closed would lose
    /// its data (and a new open would wait for a writer that has gone).
    Stream(File),
    /// Standard input.
    Stdin,
}

/// A file hashed on the calling thread, or handed on to be hashed with
/// every thread.
fn hash_here<P: AsRef<Path>>(
    format: Format,
    input: Input<P>,
    par: &Parallelism,
    fifos: Fifos,
) -> Step<FileHash<P>, (Input<P>, Later)> {
    use std::os::unix::fs::OpenOptionsExt;
    let path = match &input {
        Input::File(p) => p.as_ref(),
        Input::Stdin => return Step::Heavy((input, Later::Stdin)),
    };
    let done = |input, hash| Step::Done(FileHash { input, hash });
    let refuse = |input, why: &str| {
        let e = io::Error::new(io::ErrorKind::Unsupported, why);
        Step::Done(FileHash {
            input,
            hash: Err(Error::Io(e)),
        })
    };
    if fifos == Fifos::Refuse {
        // Looked at before the open (see `Fifos::Refuse`), and again after.
        if let Some(why) = std::fs::metadata(path).ok().and_then(|m| refused(m.file_type())) {
            return refuse(input, why);
        }
    }
    // Non-blocking, so that opening a FIFO without a writer does not stall
    // this thread (and the results it holds back); it changes nothing for a
    // regular file.
    let opened = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
        .and_then(|f| f.metadata().map(|m| (f, m)));
    let (file, meta) = match opened {
        Ok(x) => x,
        Err(e) => return done(input, Err(Error::Io(e))),
    };
    if let Some(why) = refused(meta.file_type()).filter(|_| fifos == Fifos::Refuse) {
        return refuse(input, why);
    }
    if !meta.is_file() {
        return Step::Heavy((input, Later::Stream(file)));
    }
    let tree = format != Format::Sha256;
    if tree && meta.len() >= ALL_THREADS_FROM && par.is_parallel() {
        return Step::Heavy((input, Later::Large(file)));
    }
    let one = Parallelism::sequential();
    if meta.len() < READ_WHOLE {
        let mut data = Vec::with_capacity(meta.len() as usize + 1);
        // The file may have grown since: past the limit it is hashed below.
        match (&file).take(READ_WHOLE).read_to_end(&mut data) {
            Ok(n) if (n as u64) < READ_WHOLE => return done(input, hash_bytes(format, &data)),
            Ok(_) => {}
            Err(e) => return done(input, Err(Error::Io(e))),
        }
    }
    let hash = super::hash_file(format, &file, &one, |_| {});
    done(input, hash)
}

/// What [`super::hash_reader`] gives for `data` in `format`, on one thread.
fn hash_bytes(format: Format, data: &[u8]) -> Result<Option<Digest>, Error> {
    let one = Parallelism::sequential();
    Ok(match format {
        Format::Sha256 => Some(crate::digest::sha256(data)),
        Format::Rfc6962 { leaf_size } => {
            if leaf_size == 0 || leaf_size > MAX_LEAF_SIZE {
                return Err(Error::LeafSize(leaf_size));
            }
            Some(Rfc6962::root(&Chunks::new(data, leaf_size), &one))
        }
        Format::BitTorrentV2 => (!data.is_empty()).then(|| BitTorrentV2::root(data, &one)),
        Format::Glacier => Some(Glacier::root(data, &one)),
    })
}
