//! Small files for the key commands: keys and signatures read whole (with a
//! size cap), messages hashed as they stream, outputs written atomically.

use std::io::{Read, Write};
use std::path::Path;

use anyhow::{Context, Result, anyhow};
use zeroize::Zeroizing;

use crate::error::Hint;
use crate::io::{Input, Output, Policy};

/// Key and signature files are small; anything bigger is not one.
const MAX_KEY_FILE: u64 = 1 << 20;

/// Reads a key or signature file (or stdin for `None`), refusing anything over 1 MiB.
pub fn read_small(path: Option<&Path>, what: &str) -> Result<Zeroizing<Vec<u8>>> {
    let reader: Box<dyn Read> = match path {
        Some(p) if p != Path::new("-") => Box::new(
            std::fs::File::open(p)
                .with_context(|| format!("cannot open {what} file {}", p.display()))
                .hint(format!("check the {what} path"))?,
        ),
        _ => Box::new(std::io::stdin()),
    };
    // Sized for the largest accepted file up front, so reading never
    // reallocates and leaves an unwiped copy of a key behind.
    let mut bytes = Zeroizing::new(Vec::with_capacity(MAX_KEY_FILE as usize + 1));
    reader
        .take(MAX_KEY_FILE + 1)
        .read_to_end(&mut bytes)
        .with_context(|| format!("cannot read the {what}"))?;
    if bytes.len() as u64 > MAX_KEY_FILE {
        return Err(anyhow!("the {what} file is over 1 MiB, so it is not one"))
            .hint(format!("check the {what} path"));
    }
    Ok(bytes)
}

pub fn read_all(path: Option<&Path>) -> Result<Vec<u8>> {
    let mut input = Input::open(path)?;
    let mut bytes = Vec::new();
    input.read_to_end(&mut bytes).context("cannot read the input")?;
    Ok(bytes)
}

/// The output for a new private key: secret (always mode 0600), and an
/// existing file is refused unless `force`.
pub fn key_output(path: Option<&Path>, force: bool) -> Result<Output> {
    Output::create(path, Policy::refuse_unless(force).secret())
}

/// Writes `bytes` to `-o` (replacing a file there) or standard output.
pub fn write_output(path: Option<&Path>, bytes: &[u8]) -> Result<()> {
    let mut out = Output::create(path, Policy::REPLACE)?;
    out.write_all(bytes)?;
    out.commit()
}
