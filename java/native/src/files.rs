//! Files written the way the CLI writes them: to a temporary file beside
//! the destination, renamed to it only once the whole output is done (for
//! decryption: authenticated). On any failure nothing is left behind.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

use jni::JNIEnv;
use jni::objects::JString;
use jni::sys::jlong;

use crate::{IO, Res, fail};

/// Runs `write` into a temporary file beside `out`, renamed to `out` only
/// if it succeeds; on failure nothing is left behind.
pub fn atomically(out: &str, write: impl FnOnce(&mut BufWriter<&File>) -> Res<u64>) -> Res<u64> {
    let path = Path::new(out);
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let tmp = tempfile::Builder::new()
        .prefix(".parcrypt-")
        .tempfile_in(dir)
        .or_else(|e| {
            fail(
                IO,
                format!("cannot create a temporary file in {}: {e}", dir.display()),
            )
        })?;
    let n = {
        let mut w = BufWriter::with_capacity(1 << 20, tmp.as_file());
        let n = write(&mut w)?;
        w.flush().or_else(|e| fail(IO, format!("{out}: {e}")))?;
        n
    };
    tmp.as_file()
        .sync_all()
        .or_else(|e| fail(IO, format!("{out}: {e}")))?;
    tmp.persist(path)
        .or_else(|e| fail(IO, format!("{out}: {}", e.error)))?;
    Ok(n)
}

/// Opens the file named by the Java string `path` for reading.
pub fn open(env: &mut JNIEnv<'_>, path: &JString<'_>) -> Res<(String, File)> {
    let path: String = env.get_string(path)?.into();
    let file = File::open(&path).or_else(|e| fail(IO, format!("{path}: {e}")))?;
    Ok((path, file))
}

/// Runs `write` from the file `input` into the file `output`, which
/// appears only if it succeeds (see [`atomically`]); the count it returns.
pub fn between_files(
    env: &mut JNIEnv<'_>,
    input: &JString<'_>,
    output: &JString<'_>,
    write: impl FnOnce(&File, &mut BufWriter<&File>) -> Res<u64>,
) -> Res<jlong> {
    let (_, file) = open(env, input)?;
    let out: String = env.get_string(output)?.into();
    let n = atomically(&out, |w| write(&file, w))?;
    Ok(n as jlong)
}
