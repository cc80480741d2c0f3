//! The files under a directory, in byte order of their paths ([`walk`]).

use std::fs;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// What [`walk`] finds, in the order it finds it.
#[derive(Debug)]
pub enum Found {
    /// A file to hash (a regular file, or an operand that is not a
    /// directory, whatever it is).
    File(PathBuf),
    /// A FIFO, socket or device met while walking (not hashed: it could
    /// block or never end); `what` says which.
    Special {
        /// The path.
        path: PathBuf,
        /// "FIFO", "socket", "device".
        what: &'static str,
    },
    /// A directory met again through a symbolic link (with `follow`): not
    /// walked twice, which would never end.
    Loop(PathBuf),
    /// A directory that could not be read, or an entry that could not be
    /// examined.
    Error(PathBuf, io::Error),
}

/// Every file under `root` (or `root` itself, when it is not a
/// directory), depth first, sorted by the bytes of their paths (as
/// `find ROOT -type f | LC_ALL=C sort` lists them), paths starting with
/// `root` as given. Symbolic links met inside are not followed, and not
/// listed, unless `follow` (`-L`): then they are walked as what they point
/// to, each directory once per path from `root`. `root` itself is
/// followed if it is a link. Reads one directory at a time: memory grows
/// with the depth and the size of the directories on the way, not with the
/// tree.
///
/// # Examples
/// ```
/// use parcrypt::merkle::sums::{Found, walk};
///
/// let dir = std::env::temp_dir().join("sums-walk-doc");
/// std::fs::create_dir_all(dir.join("a"))?;
/// std::fs::write(dir.join("a").join("x"), b"")?;
/// std::fs::write(dir.join("a-b"), b"")?;
/// let files: Vec<_> = walk(&dir, false)
///     .filter_map(|f| match f {
///         Found::File(p) => Some(p.strip_prefix(&dir).unwrap().to_owned()),
///         _ => None,
///     })
///     .collect();
/// assert_eq!(files, [std::path::Path::new("a-b"), std::path::Path::new("a/x")]);
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn walk(root: &Path, follow: bool) -> Walk {
    Walk {
        root: Some(root.to_owned()),
        follow,
        stack: Vec::new(),
    }
}

/// The iterator [`walk`] returns.
#[derive(Debug)]
pub struct Walk {
    root: Option<PathBuf>,
    follow: bool,
    /// The directories on the way down: their (device, inode) and the
    /// entries left to visit, in order.
    stack: Vec<(FileId, Entries)>,
}

/// A directory's (device, inode).
type FileId = (u64, u64);
/// A directory's entries left to visit.
type Entries = std::vec::IntoIter<(PathBuf, Kind)>;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    File,
    Dir,
    Link,
    Special(&'static str),
}

fn kind_of(t: fs::FileType) -> Kind {
    use std::os::unix::fs::FileTypeExt;
    if t.is_dir() {
        Kind::Dir
    } else if t.is_file() {
        Kind::File
    } else if t.is_symlink() {
        Kind::Link
    } else if t.is_fifo() {
        Kind::Special("FIFO")
    } else if t.is_socket() {
        Kind::Special("socket")
    } else {
        Kind::Special("device")
    }
}

impl Walk {
    /// Goes into the directory `path` (already stat'ed as `meta`), or says
    /// why not.
    fn enter(&mut self, path: PathBuf, meta: &fs::Metadata) -> Option<Found> {
        let id = (meta.dev(), meta.ino());
        if self.stack.iter().any(|(seen, _)| *seen == id) {
            return Some(Found::Loop(path));
        }
        let read = match fs::read_dir(&path) {
            Ok(r) => r,
            Err(e) => return Some(Found::Error(path, e)),
        };
        let mut entries = Vec::new();
        for entry in read {
            let entry = match entry {
                Ok(e) => e,
                Err(e) => return Some(Found::Error(path, e)),
            };
            let child = path.join(entry.file_name());
            match entry.file_type() {
                Ok(t) => entries.push((child, kind_of(t))),
                Err(e) => return Some(Found::Error(child, e)),
            }
        }
        // A directory sorts as its name and a slash: then the walk's order
        // is the byte order of the whole paths ("a-b" before "a/x").
        entries.sort_by_cached_key(|(p, kind)| {
            let mut key = p.file_name().map(|n| n.as_bytes().to_vec()).unwrap_or_default();
            if *kind == Kind::Dir {
                key.push(b'/');
            }
            key
        });
        self.stack.push((id, entries.into_iter()));
        None
    }

    /// What a followed link at `path` is.
    fn resolve(&mut self, path: PathBuf) -> Option<Found> {
        match fs::metadata(&path) {
            Ok(m) if m.is_dir() => self.enter(path, &m),
            Ok(m) => match kind_of(m.file_type()) {
                Kind::Special(what) => Some(Found::Special { path, what }),
                _ => Some(Found::File(path)),
            },
            Err(e) => Some(Found::Error(path, e)),
        }
    }
}

impl Iterator for Walk {
    type Item = Found;

    fn next(&mut self) -> Option<Found> {
        if let Some(root) = self.root.take() {
            match fs::metadata(&root) {
                Ok(m) if m.is_dir() => {
                    if let Some(found) = self.enter(root, &m) {
                        return Some(found);
                    }
                }
                _ => return Some(Found::File(root)),
            }
        }
        loop {
            let (_, entries) = self.stack.last_mut()?;
            let Some((path, kind)) = entries.next() else {
                self.stack.pop();
                continue;
            };
            let found = match kind {
                Kind::File => Some(Found::File(path)),
                Kind::Special(what) => Some(Found::Special { path, what }),
                Kind::Link if self.follow => self.resolve(path),
                Kind::Link => None,
                Kind::Dir => match fs::metadata(&path) {
                    Ok(m) => self.enter(path, &m),
                    Err(e) => Some(Found::Error(path, e)),
                },
            };
            if found.is_some() {
                return found;
            }
        }
    }
}
