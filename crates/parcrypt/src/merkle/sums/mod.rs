//! Checksum lists as `sha256sum` writes and reads them, for `parcrypt
//! hash` (`--tag`, `-z`, `-r`, `-c`) and the bindings: one checksum line
//! read ([`Parser`]) or written ([`write_line`]), a whole list verified on
//! all cores ([`check`]), and the files of a directory tree in a stable
//! order ([`walk`]).
//!
//! What is GNU's and what is ours: `src/merkle/sums/README.md`.

mod check;
mod line;
mod walk;

pub use check::{CheckError, CheckOptions, Event, MAX_LINE, Outcome, check};
pub use line::{Entry, Parsed, Parser, Style, escape_into, needs_escape, tag, unescape, write_line};
pub use walk::{Found, Walk, walk};
