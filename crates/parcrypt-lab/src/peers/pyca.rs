//! pyca/cryptography's Cobblestone beside the Cobblestone workloads: a
//! `python3` process encrypting or decrypting a file with
//! `cryptography.cobblestone` (pyca/cryptography 50 or later), as its users
//! would: the file read in 1 MiB blocks into one reused buffer, each pushed
//! through `update_into` into a second reused buffer and written to
//! `/dev/null`. One core (pyca's implementation is serial).

use std::path::{Path, PathBuf};

use super::files::{FileCommand, time_file_command};
use super::{Beside, absent, run_program};
use crate::model::{PeerStatus, Row};

/// What pyca does beside a Cobblestone workload, on a file, to `/dev/null`,
/// with the workload's key and context.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PycaPeer {
    /// Encrypt or decrypt.
    pub op: PycaOp,
    /// The Cobblestone-128 key.
    pub key: [u8; 16],
    /// The context (C2SP's associated data for every chunk).
    pub context: &'static [u8],
}

/// Which way pyca runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PycaOp {
    /// `Cobblestone128Encryptor` over the file.
    Encrypt,
    /// `Cobblestone128Decryptor` over the file, sealed by pyca first.
    Decrypt,
}

/// The peer's name in results.
pub const PYCA: &str = "pyca";

/// The Python interpreter the peer runs.
const PYTHON: &str = "python3";

/// The program: `python3 -c PROGRAM encrypt|decrypt KEY_HEX CONTEXT_HEX IN OUT`.
/// Buffers are allocated once; `update_into`'s output buffer has room for a
/// block's chunks, their tags and the header.
const PROGRAM: &str = "import sys
from cryptography.cobblestone import Cobblestone128Encryptor, Cobblestone128Decryptor
mode, key, context, src, dst = sys.argv[1], bytes.fromhex(sys.argv[2]), bytes.fromhex(sys.argv[3]), sys.argv[4], sys.argv[5]
c = (Cobblestone128Encryptor if mode == 'encrypt' else Cobblestone128Decryptor)(key, context)
block = bytearray(1 << 20)
out = bytearray((1 << 20) + (1 << 16))
view, outv = memoryview(block), memoryview(out)
with open(src, 'rb', buffering=0) as f, open(dst, 'wb', buffering=0) as o:
    while n := f.readinto(block):
        o.write(outv[:c.update_into(view[:n], out)])
    o.write(c.finalize())
";

/// Shown in place of [`PROGRAM`] in the peer's detail.
const PROGRAM_SHOWN: &str = "'PYCA_COBBLESTONE_PROGRAM (peers/pyca.rs)'";

/// Times pyca (or says why it cannot run) doing what `w` does on a file of
/// `size` bytes, with the workload's key and context; one warm-up run, then `repeats` timed. Absent, with the reason, where
/// `python3` lacks `cryptography.cobblestone`.
pub fn measure_pyca(
    w: &Beside,
    peer: PycaPeer,
    size: usize,
    repeats: usize,
    tmp: &Path,
) -> (Option<Row>, PeerStatus) {
    let python = Path::new(PYTHON);
    if let Err(why) = run_program(python, &["-c", "import cryptography.cobblestone"]) {
        return absent(
            w,
            PYCA,
            format!("{PYTHON} has no cryptography.cobblestone (pyca/cryptography 50 or later): {why}"),
        );
    }
    let (key, context) = (hex(&peer.key), hex(peer.context));
    let mode = match peer.op {
        PycaOp::Encrypt => "encrypt",
        PycaOp::Decrypt => "decrypt",
    };
    let args = |file: &str| -> Vec<String> {
        ["-c", PROGRAM, mode, &key, &context, file, "/dev/null"]
            .map(String::from)
            .to_vec()
    };
    let prepare = |file: &Path| -> Result<PathBuf, String> {
        match peer.op {
            PycaOp::Encrypt => Ok(file.to_path_buf()),
            PycaOp::Decrypt => {
                let sealed = file.with_extension("cob");
                let (input, output) = (file.to_string_lossy(), sealed.to_string_lossy());
                run_program(
                    python,
                    &["-c", PROGRAM, "encrypt", &key, &context, &input, &output],
                )?;
                let _ = std::fs::remove_file(file);
                Ok(sealed)
            }
        }
    };
    let shown = [(PROGRAM, PROGRAM_SHOWN), (key.as_str(), "KEY")];
    time_file_command(
        w,
        PYCA,
        FileCommand {
            program: python,
            args: &args,
            prepare: &prepare,
            hide: &shown,
        },
        size,
        repeats,
        tmp,
    )
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::{PYCA, PycaOp, measure_pyca};
    use crate::workloads::{id, registry};

    #[test]
    fn pyca_is_timed_on_the_file_or_listed_absent_with_why() {
        let all = registry();
        for (name, op) in [
            (id::COBBLESTONE_ENCRYPT, PycaOp::Encrypt),
            (id::COBBLESTONE_DECRYPT, PycaOp::Decrypt),
        ] {
            let w = all.iter().find(|w| w.name == name).unwrap().peers();
            let peer = w.pyca.unwrap();
            assert_eq!(peer.op, op);
            let tmp = tempfile::tempdir().unwrap();
            let (row, status) = measure_pyca(&w, peer, 100_000, 1, tmp.path());
            assert_eq!((status.peer, status.workload), (PYCA, name));
            assert_eq!(row.is_some(), status.available, "{}", status.detail);
            if status.available {
                assert!(status.detail.contains("FILE(100000 B)"), "{}", status.detail);
                assert!(!status.detail.contains("update_into"), "{}", status.detail);
                assert_eq!(row.unwrap().size_bytes, 100_000);
            } else {
                assert!(
                    status.detail.contains("cryptography.cobblestone"),
                    "{}",
                    status.detail
                );
            }
            // Nothing is left behind: the file, pyca's sealed copy.
            assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 0);
        }
    }
}
