//! age (or rage) beside a workload: finding the tools, a fresh identity, timing them on a file.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use super::files::{FileCommand, time_file_command};
use super::{AgePeer, Beside, absent, run_program};
use crate::model::{PeerStatus, Row};

/// An implementation of age found on `PATH`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AgeTool {
    /// `age` or `rage`: the peer's name in results.
    pub name: &'static str,
    /// The program that encrypts and decrypts.
    pub program: PathBuf,
    /// Its key generator, `age-keygen` or `rage-keygen`.
    pub keygen: PathBuf,
}

/// Looks for `age` with `age-keygen`, then `rage` with `rage-keygen` (the
/// Rust implementation, same command line), in the directories of `path`
/// (a `PATH` value): the first found.
///
/// # Errors
/// Why neither pair is there, for the peer's absent status.
pub fn find_age(path: Option<&OsStr>) -> Result<AgeTool, String> {
    find_ages(path).into_iter().next().ok_or_else(no_age)
}

pub(super) fn no_age() -> String {
    "neither age (with age-keygen) nor rage (with rage-keygen) is on PATH".to_owned()
}

/// Every implementation of age in the directories of `path`: `age` (with
/// `age-keygen`) and `rage` (with `rage-keygen`), in that order; the age
/// workloads measure all of them in the same run.
pub fn find_ages(path: Option<&OsStr>) -> Vec<AgeTool> {
    let dirs: Vec<PathBuf> = path
        .map(|p| {
            std::env::split_paths(p)
                .filter(|d| !d.as_os_str().is_empty())
                .collect()
        })
        .unwrap_or_default();
    let find = |name: &str| dirs.iter().map(|d| d.join(name)).find(|p| is_executable(p));
    [("age", "age-keygen"), ("rage", "rage-keygen")]
        .into_iter()
        .filter_map(|(name, keygen)| {
            let (program, keygen) = (find(name)?, find(keygen)?);
            Some(AgeTool {
                name,
                program,
                keygen,
            })
        })
        .collect()
}

fn is_executable(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        path.metadata()
            .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    }
    #[cfg(not(unix))]
    {
        path.is_file()
    }
}

/// The recipient (`age1…`) of an identity file as `age-keygen -o FILE`
/// writes it: its `# public key: age1…` line.
pub fn age_public_key(key_file: &str) -> Option<&str> {
    key_file
        .lines()
        .find_map(|l| l.trim().strip_prefix("# public key:"))
        .map(str::trim)
        .filter(|k| k.starts_with("age1") && !k.contains(char::is_whitespace))
}

/// Times `tool` (or reports why it cannot run) doing what `w` does on a file
/// of `size` bytes: a fresh X25519 identity is made in a directory of its
/// own under `tmp`, then `age -r RECIPIENT -o /dev/null FILE` or, for a
/// decryption, `age -d -i IDENTITY -o /dev/null FILE.age` on a file
/// encrypted before the timing; one warm-up run, then `repeats` timed.
pub fn measure_age(
    w: &Beside,
    op: AgePeer,
    tool: Result<AgeTool, String>,
    size: usize,
    repeats: usize,
    tmp: &Path,
) -> (Option<Row>, PeerStatus) {
    let tool = match tool {
        Ok(tool) => tool,
        Err(why) => return absent(w, "age", why),
    };
    let dir = tmp.join(format!(
        "parcrypt-lab-{}-{}-{}",
        std::process::id(),
        w.workload,
        tool.name
    ));
    let identity = dir.join("key.txt");
    let keygen = format!("{} -o {}", tool.keygen.display(), identity.display());
    let recipient = std::fs::create_dir_all(&dir)
        .map_err(|e| e.to_string())
        .and_then(|()| {
            let key = identity.to_string_lossy();
            run_program(&tool.keygen, &["-o", &key])?;
            let text = std::fs::read_to_string(&identity).map_err(|e| e.to_string())?;
            age_public_key(&text)
                .map(str::to_owned)
                .ok_or_else(|| "no `# public key: age1…` line in the key file".to_owned())
        });
    let recipient = match recipient {
        Ok(r) => r,
        Err(why) => {
            let _ = std::fs::remove_dir_all(&dir);
            return absent(w, tool.name, format!("{keygen}: {why}"));
        }
    };
    let key = identity.to_string_lossy().into_owned();
    let args = |file: &str| -> Vec<String> {
        match op {
            AgePeer::Encrypt => vec!["-r", &recipient, "-o", "/dev/null", file],
            AgePeer::Decrypt => vec!["-d", "-i", &key, "-o", "/dev/null", file],
        }
        .into_iter()
        .map(String::from)
        .collect()
    };
    let prepare = |file: &Path| -> Result<PathBuf, String> {
        match op {
            AgePeer::Encrypt => Ok(file.to_path_buf()),
            AgePeer::Decrypt => {
                let sealed = file.with_extension("age");
                let (input, output) = (file.to_string_lossy(), sealed.to_string_lossy());
                run_program(&tool.program, &["-r", &recipient, "-o", &output, &input])?;
                let _ = std::fs::remove_file(file);
                Ok(sealed)
            }
        }
    };
    let hide = [(recipient.as_str(), "RECIPIENT"), (key.as_str(), "IDENTITY")];
    let timed = time_file_command(
        w,
        tool.name,
        FileCommand {
            program: &tool.program,
            args: &args,
            prepare: &prepare,
            hide: &hide,
        },
        size,
        repeats,
        &dir,
    );
    let _ = std::fs::remove_dir_all(&dir);
    timed
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use std::path::Path;

    use super::{age_public_key, find_age, measure_age};
    use crate::peers::AgePeer;
    use crate::workloads::registry;

    #[test]
    fn reads_the_recipient_from_an_age_key_file() {
        // As rage-keygen 0.12 writes it (age-keygen writes the same lines).
        let file = "# created: 2026-11-23T10:44:31Z\n# public key: age1uzt4r7zac0szlah3saly6aa5q20cz7yvfefqd6jfmk247je0zupqwqtzec\nAGE-SECRET-KEY-1FG67PEMKRY00GU2EKHRCASPWE36HZRYZF4VUVQH375RRAHU5KN6Q3TU6Y7\n";
        assert_eq!(
            age_public_key(file),
            Some("age1uzt4r7zac0szlah3saly6aa5q20cz7yvfefqd6jfmk247je0zupqwqtzec")
        );
        // No such line, the secret key alone, or something that is not a recipient.
        assert_eq!(age_public_key("AGE-SECRET-KEY-1FG67PEMKRY00GU2EK\n"), None);
        assert_eq!(age_public_key("# public key: ssh-ed25519 AAAA\n"), None);
        assert_eq!(age_public_key("# public key: \n"), None);
    }

    /// An executable file called `name` in `dir`.
    fn fake_program(dir: &Path, name: &str) {
        use std::os::unix::fs::PermissionsExt;
        let path = dir.join(name);
        std::fs::write(&path, "#!/bin/sh\nexit 0\n").unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }

    #[test]
    fn finds_age_then_rage_on_a_path_and_says_why_not() {
        let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let path = std::env::join_paths([a.path(), b.path()]).unwrap();
        let why = find_age(Some(&path)).unwrap_err();
        assert!(why.contains("age") && why.contains("rage"), "{why}");
        assert!(find_age(None).is_err());
        // A program without its key generator does not count, nor does a
        // file that cannot be run.
        fake_program(a.path(), "age");
        std::fs::write(b.path().join("rage-keygen"), "not executable").unwrap();
        fake_program(b.path(), "rage");
        assert!(find_age(Some(&path)).is_err());
        fake_program(b.path(), "rage-keygen");
        let rage = find_age(Some(&path)).unwrap();
        assert_eq!(rage.name, "rage");
        assert_eq!(rage.program, b.path().join("rage"));
        assert_eq!(rage.keygen, b.path().join("rage-keygen"));
        // age is preferred where both are installed.
        fake_program(b.path(), "age-keygen");
        let age = find_age(Some(&path)).unwrap();
        assert_eq!((age.name, age.program), ("age", a.path().join("age")));
    }

    #[test]
    fn a_missing_age_is_an_absent_peer_with_the_reason() {
        let all = registry();
        let w = &all
            .iter()
            .find(|w| w.name == crate::workloads::id::STREAM_DECRYPT)
            .unwrap()
            .peers();
        let tmp = tempfile::tempdir().unwrap();
        let (row, status) = measure_age(w, AgePeer::Decrypt, Err("not here".into()), 1000, 1, tmp.path());
        assert!(row.is_none());
        assert!(!status.available);
        assert_eq!((status.peer, status.workload), ("age", "stream-decrypt"));
        assert_eq!(status.detail, "not here");
        // A tool that runs but writes no key file is absent too, and says so.
        fake_program(tmp.path(), "age");
        fake_program(tmp.path(), "age-keygen");
        let tool = find_age(Some(tmp.path().as_os_str())).unwrap();
        let (row, status) = measure_age(w, AgePeer::Encrypt, Ok(tool), 1000, 1, tmp.path());
        assert!(row.is_none());
        assert!(!status.available && status.peer == "age");
        assert!(status.detail.contains("age-keygen -o "), "{}", status.detail);
        // Nothing is left in the temporary directory but the fake tools.
        let left: Vec<_> = std::fs::read_dir(tmp.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(left.len(), 2, "{left:?}");
    }
}
