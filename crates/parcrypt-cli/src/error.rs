//! How failures reach the user: `parcrypt: <what>` on stderr, a hint line, and
//! an exit code (1 failure, 2 usage).

use std::fmt;

/// A hint attached to an error, printed on its own line after it.
#[derive(Debug)]
pub struct HintMsg(pub String);

impl fmt::Display for HintMsg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for HintMsg {}

/// Marks an error as a usage error (exit status 2).
#[derive(Debug)]
pub struct Usage;

impl fmt::Display for Usage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("usage error")
    }
}

impl std::error::Error for Usage {}

/// A failure already reported in full (as `hash --check` reports, in
/// coreutils' words): exit status 1 and nothing more on stderr.
#[derive(Debug)]
pub struct Silent;

impl fmt::Display for Silent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("failed, as reported above")
    }
}

impl std::error::Error for Silent {}

/// Adds hints and usage marks to results.
pub trait Hint<T> {
    /// Attaches a one-line hint telling the user what to do.
    fn hint(self, hint: impl Into<String>) -> anyhow::Result<T>;
    /// Marks the error as caused by the command line (exit 2).
    fn usage(self) -> anyhow::Result<T>;
}

impl<T, E: Into<anyhow::Error>> Hint<T> for Result<T, E> {
    fn hint(self, hint: impl Into<String>) -> anyhow::Result<T> {
        self.map_err(|e| e.into().context(HintMsg(hint.into())))
    }

    fn usage(self) -> anyhow::Result<T> {
        self.map_err(|e| e.into().context(Usage))
    }
}

/// Renders an error for stderr and picks the exit status.
pub fn report(err: &anyhow::Error) -> (String, i32) {
    // anyhow::Error::downcast_ref looks through every context layer.
    let hint = err.downcast_ref::<HintMsg>().map(|h| h.0.clone());
    let status = if err.downcast_ref::<Usage>().is_some() {
        2
    } else {
        1
    };
    let mut parts: Vec<String> = Vec::new();
    for cause in err.chain() {
        let text = cause.to_string();
        let is_marker = text == Usage.to_string() || hint.as_deref() == Some(text.as_str());
        // A source's text sometimes repeats inside the context above it.
        if !is_marker && !parts.iter().any(|p| p.contains(&text)) {
            parts.push(text);
        }
    }
    let mut msg = format!("parcrypt: {}", parts.join(": "));
    if let Some(h) = hint {
        msg.push_str(&format!("\n  hint: {h}"));
    }
    (msg, status)
}

/// Whether the error is a closed pipe on output (`parcrypt … | head`), which
/// is not a failure: some error in its chain of sources is an `io::Error` of
/// kind `BrokenPipe`. (Library errors carry their `io::Error` as a source.)
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// Writes a line to stderr. Unlike `eprintln!`, which panics when stderr is
/// a closed pipe or a full disk, a failure is ignored: there is nowhere left
/// to report it.
pub fn eprint_line(text: impl fmt::Display) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{text}");
}

/// `parcrypt: warning: <text>` on stderr.
pub fn warn(text: impl fmt::Display) {
    eprint_line(format_args!("parcrypt: warning: {text}"));
}

/// `parcrypt: note: <text>` on stderr.
pub fn note(text: impl fmt::Display) {
    eprint_line(format_args!("parcrypt: note: {text}"));
}

/// A failure told the way age tells it: the message, one hint line, exit
/// status 1 (the age commands' errors that come from no library error).
pub fn fail<T>(msg: impl Into<String>, hint: impl Into<String>) -> anyhow::Result<T> {
    Err(anyhow::anyhow!(msg.into())).hint(hint)
}
