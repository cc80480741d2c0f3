//! parcrypt: multi-core cryptography.
//!
//! parcrypt is the parallel layer over vetted primitives (AWS-LC): the block
//! cipher, hashes and big-number arithmetic come from the backend; parcrypt
//! cuts the work across cores, one code path per algorithm driven by a
//! [`par::Parallelism`], and implements the formats around it.
//!
//! - [`digest`]: SHA-256/384/512 — the one hash-algorithm type, one-shot and
//!   incremental hashing (every module hashes through it), and many
//!   SHA-256s at once (SHA-NI, AVX2, AVX-512 kernels) for Merkle trees.
//! - [`cpu`]: the CPU features every dispatch point asks for, and
//!   `PARCRYPT_CPU_MASK`, which masks some for tests and measurements.
//! - [`par`]: strategies (`Sequential`, `Static`, `WorkStealing`) and thread counts.
//! - [`aes`]: AES-CBC (parallel decryption), AES-CTR, streaming [`aes::Crypter`].
//! - [`hazmat`]: raw ECB and unpadded CBC, RC4 and PARC4, the research
//!   paper's chunked ("bulk") RSA — for compatibility and study only.
//! - [`merkle`]: RFC 6962/9162 trees and proofs, BitTorrent v2, Glacier.
//! - [`ecdsa`]: P-256 keys and signatures; joint, split (the JCE paper's) and
//!   batch verification.
//! - [`stream`]: the authenticated, segmented, seekable file format, sealed
//!   and opened on all cores.
//! - [`age`]: C2SP age v1 files, byte-compatible with the age CLI, rage and
//!   filippo.io/age (X25519, post-quantum hybrid, SSH, passphrase
//!   recipients; armor; byte ranges), their chunks sealed and opened on all
//!   cores by the stream format's pipeline.
//! - [`secret`]: key and byte types that are wiped on drop and redacted in
//!   `Debug`; the crate's one wipe function.
//! - [`rsa`]: parallel key generation, CRT halves on two threads, PSS/PKCS#1
//!   signatures, OAEP.
//!
//! Every strategy and thread count gives byte-identical output; the sequential
//! strategy is the reference.
//!
//! # Platforms
//! Built and tested on Linux, x86-64 (natively, on every CPU level: see
//! [`cpu`]) and aarch64 (under emulation). Unix only by design: files are
//! read with positional reads (`std::os::unix::fs::FileExt`, `pread(2)`)
//! and memory maps (`mmap(2)`), in one module of I/O plumbing ([`io`]);
//! other targets fail to build with a message saying so. The Linux-only
//! calls each sit behind a function with a portable fallback: the pipe
//! size (`F_SETPIPE_SZ`, [`io::grow_pipe`]; elsewhere the pipe keeps its
//! size), the CLI's no-replace rename (`tempfile`'s `persist_noclobber`:
//! `renameat2` on Linux, a link and an unlink elsewhere) and the Python package's huge-page advice (`MADV_HUGEPAGE`;
//! elsewhere none). macOS and the BSDs should build with those fallbacks,
//! but are neither built nor tested here.
//!
//! # API conventions
//!
//! Every family follows the same rules, so a call reads the same whatever
//! the algorithm:
//!
//! - **`par: &Parallelism` comes last** among the data arguments: input
//!   first, then sizes and options, then how to run it
//!   (`Rfc6962::root(&leaves, &par)`, `ctr.apply_keystream(&counter, &mut
//!   data, &par)`, `crypter.process_with(input, output, buffer, &par, progress)`).
//! - **Then, if any, `progress: impl FnMut(u64)`**, called with the number of
//!   bytes (or items) done since the last call.
//! - **`Options` structs hold format choices only** (segment sizes, limits),
//!   never the `Parallelism`: `stream::encrypt(&recipients, input, output,
//!   &opts, &par, progress)`, `stream::decrypt_range(&identity, &file, start,
//!   len, output, &opts, &par)`.
//! - **Names parse one way**: every `FromStr` (strategies, schemes, hashes,
//!   CRT modes, verify strategies) accepts the names its `name()`/`Display`
//!   prints and fails with the one error type [`UnknownName`].
//! - **An algorithm enum names algorithms, not schedules**: whether work runs
//!   on one thread or several is the `Parallelism`'s business
//!   (`ecdsa::VerifyStrategy::Split` under `Parallelism::sequential()` is the
//!   split computed on one thread).
//!
//! ```
//! use parcrypt::merkle::{Chunks, Rfc6962};
//! use parcrypt::par::{Parallelism, Strategy};
//!
//! let data = vec![7u8; 100_000];
//! let par = Parallelism::new(2, Strategy::Static);
//! let mut read = 0;
//! let streamed = Rfc6962::root_reader(&data[..], 4096, &par, |n| read += n)?;
//! assert_eq!(streamed, Rfc6962::root(&Chunks::new(&data, 4096), &par));
//! assert_eq!(read, 100_000);
//! # Ok::<(), parcrypt::merkle::Error>(())
//! ```
#![deny(unsafe_code)]
#![warn(missing_docs)]

#[cfg(not(unix))]
compile_error!(
    "parcrypt supports Unix targets only: it reads files with pread(2) \
     (std::os::unix::fs::FileExt) and mmap(2)"
);

pub mod aes;
pub mod age;
pub mod cpu;
pub mod digest;
pub mod ecdsa;
mod ffi;
pub mod hazmat;
pub mod io;
pub mod merkle;
mod name;
pub mod par;
mod pem;
mod pipe;
pub mod rsa;
pub mod secret;
pub mod stream;

pub use name::UnknownName;

/// The module layering, checked on the source tree (CI runs it with the
/// unit tests): `digest`, `secret`, `par` and the I/O plumbing at the
/// bottom, then `ffi`, then the algorithm families (`hazmat` above the
/// `aes` and `rsa` it builds on), then `stream`, then `age` (which runs
/// its chunks through the stream format's segment code and pipeline).
#[cfg(test)]
mod layering {
    use std::collections::{BTreeMap, BTreeSet};
    use std::path::Path;

    type Graph = BTreeMap<String, BTreeSet<String>>;

    /// The source with `//` comments (so doc links) and `/* */` comments
    /// removed; string literals are kept (none of them spell a path).
    fn strip_comments(src: &str) -> String {
        let mut out = String::with_capacity(src.len());
        let mut rest = src;
        while !rest.is_empty() {
            if let Some(after) = rest.strip_prefix("//") {
                rest = after.find('\n').map_or("", |i| &after[i..]);
            } else if let Some(after) = rest.strip_prefix("/*") {
                rest = after.find("*/").map_or("", |i| &after[i + 2..]);
            } else {
                let c = rest.chars().next().unwrap_or_default();
                out.push(c);
                rest = &rest[c.len_utf8()..];
            }
        }
        out
    }

    fn ident(s: &str) -> &str {
        let end = s
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(s.len());
        &s[..end]
    }

    /// The top-level modules named by `crate::x` paths in `src`, including
    /// grouped imports (`use crate::{a, b::c}`).
    fn references(src: &str) -> BTreeSet<String> {
        let mut found = BTreeSet::new();
        for (at, _) in src.match_indices("crate::") {
            let preceded_by_ident = src[..at]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
            if preceded_by_ident {
                continue; // `$crate::`, `parcrypt_crate::`: not this crate's root
            }
            let path = src[at + "crate::".len()..].trim_start();
            if let Some(group) = path.strip_prefix('{') {
                let (mut depth, mut start) = (0usize, true);
                for (i, c) in group.char_indices() {
                    match c {
                        '{' => depth += 1,
                        '}' if depth == 0 => break,
                        '}' => depth -= 1,
                        ',' if depth == 0 => start = true,
                        c if start && !c.is_whitespace() => {
                            start = false;
                            found.insert(ident(&group[i..]).to_owned());
                        }
                        _ => {}
                    }
                }
            } else {
                found.insert(ident(path).to_owned());
            }
        }
        found.retain(|m| !m.is_empty() && m != "self");
        found
    }

    /// Every top-level module's imports of other top-level modules.
    fn graph() -> Graph {
        fn walk(dir: &Path, files: &mut Vec<std::path::PathBuf>) {
            for entry in std::fs::read_dir(dir).expect("read src/") {
                let path = entry.expect("read src/").path();
                if path.is_dir() {
                    walk(&path, files);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    files.push(path);
                }
            }
        }
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut files = Vec::new();
        walk(&src, &mut files);
        let mut graph = Graph::new();
        for file in files {
            let relative = file.strip_prefix(&src).expect("under src/");
            if relative == Path::new("lib.rs") {
                continue;
            }
            let first = relative.components().next().expect("a path");
            let module = first
                .as_os_str()
                .to_string_lossy()
                .trim_end_matches(".rs")
                .to_owned();
            let text = std::fs::read_to_string(&file).expect("read a source file");
            let deps = graph.entry(module.clone()).or_default();
            deps.extend(references(&strip_comments(&text)));
            deps.remove(&module);
        }
        graph
    }

    /// A cycle in `graph`, as `a -> b -> … -> a`, if there is one.
    fn find_cycle(graph: &Graph) -> Option<Vec<String>> {
        fn visit(
            node: &str,
            graph: &Graph,
            path: &mut Vec<String>,
            done: &mut BTreeSet<String>,
        ) -> Option<Vec<String>> {
            if let Some(i) = path.iter().position(|p| p == node) {
                let mut cycle = path[i..].to_vec();
                cycle.push(node.to_owned());
                return Some(cycle);
            }
            if !done.insert(node.to_owned()) {
                return None;
            }
            path.push(node.to_owned());
            for next in graph.get(node).into_iter().flatten() {
                if let Some(cycle) = visit(next, graph, path, done) {
                    return Some(cycle);
                }
            }
            path.pop();
            None
        }
        let mut done = BTreeSet::new();
        graph
            .keys()
            .find_map(|node| visit(node, graph, &mut Vec::new(), &mut done))
    }

    #[test]
    fn the_scanner_sees_paths_groups_and_not_comments() {
        let src = "use crate::{a::X, b, c::{d, e}};\n/// [`crate::doc`]\nlet x = crate::f::g(); // crate::h\n$crate::m";
        let found = references(&strip_comments(src));
        let want: BTreeSet<String> = ["a", "b", "c", "f"].map(String::from).into();
        assert_eq!(found, want);
        let cyclic: Graph = [("a", "b"), ("b", "c"), ("c", "a"), ("d", "a")]
            .into_iter()
            .map(|(from, to)| (from.to_owned(), [to.to_owned()].into()))
            .collect();
        assert_eq!(
            find_cycle(&cyclic).map(|c| c.join(" -> ")).as_deref(),
            Some("a -> b -> c -> a")
        );
    }

    #[test]
    fn top_level_modules_import_each_other_one_way() {
        let graph = graph();
        for module in [
            "aes", "age", "digest", "ecdsa", "ffi", "merkle", "par", "rsa", "secret", "stream",
        ] {
            assert!(graph.contains_key(module), "no module {module} found under src/");
        }
        if let Some(cycle) = find_cycle(&graph) {
            panic!("import cycle between top-level modules: {}", cycle.join(" -> "));
        }
    }

    #[test]
    fn lower_layers_import_no_higher_ones() {
        let graph = graph();
        // What each bottom layer may import: `io` is the plumbing (fill,
        // positional reads, map windows, the pipeline) and `pipe` the
        // streaming transforms built on it.
        let allowed: [(&str, &[&str]); 8] = [
            ("secret", &[]),
            ("name", &[]),
            ("cpu", &[]),
            ("par", &["name"]),
            ("io", &["par", "secret"]),
            ("digest", &["cpu", "io", "name", "par"]),
            ("pipe", &["io", "par", "secret"]),
            ("ffi", &["cpu", "digest", "secret"]),
        ];
        for (module, may) in allowed {
            let Some(deps) = graph.get(module) else {
                panic!("no top-level module {module}: update this table");
            };
            let extra: Vec<&String> = deps.iter().filter(|d| !may.contains(&d.as_str())).collect();
            assert!(
                extra.is_empty(),
                "{module} imports {extra:?}; it may import only {may:?}"
            );
        }
        let families = ["aes", "age", "ecdsa", "hazmat", "merkle", "rsa", "stream"];
        let ffi = &graph["ffi"];
        assert!(
            families.iter().all(|f| !ffi.contains(*f)),
            "ffi imports an algorithm family: {ffi:?}"
        );
    }

    /// `hazmat` sits above the safe families it builds on (ECB streams
    /// through `aes::Crypter`, bulk RSA is `rsa`'s OAEP per block); they
    /// must reach nothing dangerous by importing it back.
    #[test]
    fn safe_families_do_not_import_hazmat() {
        let graph = graph();
        assert!(
            graph["hazmat"].contains("aes") && graph["hazmat"].contains("rsa"),
            "hazmat no longer builds on aes and rsa: {:?}; update this test",
            graph["hazmat"]
        );
        for module in [
            "aes", "age", "rsa", "ecdsa", "digest", "par", "secret", "ffi", "io", "pipe", "stream",
        ] {
            let Some(deps) = graph.get(module) else {
                panic!("no top-level module {module}: update this test");
            };
            assert!(
                !deps.contains("hazmat"),
                "{module} imports hazmat ({deps:?}); hazmat may use {module}, not the reverse"
            );
        }
    }
}

/// Every `FromStr` answers with [`UnknownName`]: a test above the
/// families (here, not in `name`, which the families import).
#[cfg(test)]
mod names {
    #![allow(clippy::unwrap_used)]

    use crate::UnknownName;
    use crate::digest::Backend;
    use crate::ecdsa::VerifyStrategy;
    use crate::merkle::Format;
    use crate::merkle::compact::Tree;
    use crate::par::Strategy;
    use crate::rsa::{CrtMode, Hash, Scheme};

    #[test]
    fn every_from_str_answers_with_unknown_name() {
        let errors: [UnknownName; 8] = [
            "x".parse::<Strategy>().unwrap_err(),
            "x".parse::<Scheme>().unwrap_err(),
            "x".parse::<Hash>().unwrap_err(),
            "x".parse::<CrtMode>().unwrap_err(),
            "x".parse::<VerifyStrategy>().unwrap_err(),
            "x".parse::<Backend>().unwrap_err(),
            "x".parse::<Tree>().unwrap_err(),
            Format::from_name("x", 4096).unwrap_err(),
        ];
        let kinds = errors.iter().map(|e| e.kind).collect::<Vec<_>>();
        assert_eq!(
            kinds,
            [
                "strategy",
                "signature scheme",
                "hash",
                "CRT mode",
                "verify strategy",
                "SHA-256 backend",
                "tree format",
                "hash format"
            ]
        );
        for e in &errors {
            assert_eq!(e.name, "x");
            assert_eq!(
                e.to_string(),
                format!("unknown {} \"x\" (expected {})", e.kind, e.expected)
            );
        }
    }

    #[test]
    fn names_round_trip() {
        for s in [Scheme::Pss, Scheme::Pkcs1v15] {
            assert_eq!(s.name().parse::<Scheme>(), Ok(s));
            assert_eq!(s.to_string(), s.name());
        }
        for (name, v) in [
            ("joint", VerifyStrategy::Joint),
            ("split", VerifyStrategy::Split),
            ("auto", VerifyStrategy::Auto),
        ] {
            assert_eq!(name.parse::<VerifyStrategy>(), Ok(v));
        }
        // A schedule is not an algorithm: the sequential split is
        // `Split` under `Parallelism::sequential()`.
        assert!("sequential-separate".parse::<VerifyStrategy>().is_err());
    }
}
