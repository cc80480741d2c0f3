//! `parcrypt hash --check`, `--tag`, `-z` and `-r` against the real
//! `sha256sum` (GNU coreutils): the same checksum lists give byte-identical
//! stdout, stderr identical up to the program's name, and the same exit
//! status, under every flag combination; hostile lists end with a clear
//! message, never a hang.
#![allow(clippy::unwrap_used)]

use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use crate::common::*;

const H_ABC: &str = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
const ZERO: &str = "0000000000000000000000000000000000000000000000000000000000000000";

/// Runs `program args…` in `dir` with `stdin`, in a fixed UTF-8 locale (as
/// coreutils quotes names by its locale).
fn run_in(dir: &Path, program: &str, args: &[OsString], stdin: &[u8]) -> Output {
    run(
        Command::new(program)
            .args(args)
            .current_dir(dir)
            .env("LC_ALL", "C.UTF-8"),
        stdin,
    )
}

/// `sha256sum ARGS` and `parcrypt [schedule] hash ARGS` give the same
/// stdout, the same stderr (but for the program's name) and status.
fn same_as_sha256sum(dir: &Path, schedule: &[&str], args: &[OsString], stdin: &[u8]) -> Output {
    let theirs = run_in(dir, "sha256sum", args, stdin);
    let mut ours_args: Vec<OsString> = schedule.iter().map(OsString::from).collect();
    ours_args.push("hash".into());
    ours_args.extend(args.iter().cloned());
    let ours = run_in(dir, bin(), &ours_args, stdin);
    let case = format!("{schedule:?} {args:?}");
    assert_eq!(
        ours.status.code(),
        theirs.status.code(),
        "{case}: status\n{}",
        stderr(&ours)
    );
    assert!(
        ours.stdout == theirs.stdout,
        "{case}: stdout\nours:   {:?}\ntheirs: {:?}",
        String::from_utf8_lossy(&ours.stdout),
        String::from_utf8_lossy(&theirs.stdout)
    );
    let renamed = String::from_utf8_lossy(&theirs.stderr).replace("sha256sum: ", "parcrypt: ");
    assert_eq!(stderr(&ours), renamed, "{case}: stderr");
    ours
}

fn os(args: &[&str]) -> Vec<OsString> {
    args.iter().map(OsString::from).collect()
}

fn sha(data: &[u8]) -> String {
    hex::encode(parcrypt::digest::sha256(data))
}

/// A directory of files with awkward names and lists of every kind
/// `sha256sum -c` reads, some good, some not.
fn fixture(dir: &Path) {
    let files: [(&[u8], &[u8]); 7] = [
        (b"abc", b"abc"),
        (b"with space", b"space"),
        (b"back\\slash", b"bs"),
        (b"new\nline", b"nl"),
        (b"carriage\rreturn", b"cr"),
        (b"quote'd", b"q"),
        (b"-dash", b"d"),
    ];
    for (name, data) in files {
        std::fs::write(dir.join(OsStr::from_bytes(name)), data).unwrap();
    }
    std::fs::create_dir(dir.join("subdir")).unwrap();
    let good = format!(
        "{H_ABC}  abc\n{}  with space\n\\{}  back\\\\slash\n\\{}  new\\nline\n\\{}  carriage\\rreturn\n{} *quote'd\n{}  -dash\n",
        sha(b"space"),
        sha(b"bs"),
        sha(b"nl"),
        sha(b"cr"),
        sha(b"q"),
        sha(b"d")
    );
    std::fs::write(dir.join("good.sums"), &good).unwrap();
    let mixed = format!(
        "# a comment\n\n{H_ABC}  abc\n{ZERO}  with space\n{H_ABC}  missing\n{H_ABC}  subdir\nnot a line at all\n\
         {}  abc\r\nSHA256 (abc) = {H_ABC}\nSHA256(with space)= {}\n\\SHA256 (new\\nline) = {}\n\
         {H_ABC}  bad\\escape\n\\{H_ABC}  bad\\escape\n{H_ABC}\n{H_ABC}  \n{}  abc\n",
        H_ABC.to_uppercase(),
        sha(b"space"),
        sha(b"nl"),
        &H_ABC[1..]
    );
    std::fs::write(dir.join("mixed.sums"), mixed).unwrap();
    std::fs::write(dir.join("empty.sums"), "").unwrap();
    std::fs::write(dir.join("malformed.sums"), "nothing\nhere either\n").unwrap();
    std::fs::write(
        dir.join("missing.sums"),
        format!("{H_ABC}  gone\n{H_ABC}  gone too\n"),
    )
    .unwrap();
    std::fs::write(
        dir.join("some-missing.sums"),
        format!("{H_ABC}  gone\n{H_ABC}  abc\n"),
    )
    .unwrap();
    std::fs::write(dir.join("no-newline.sums"), format!("{H_ABC}  abc")).unwrap();
}

const LISTS: [&str; 8] = [
    "good.sums",
    "mixed.sums",
    "empty.sums",
    "malformed.sums",
    "missing.sums",
    "some-missing.sums",
    "no-newline.sums",
    "no-such.sums",
];

const FLAGS: [&[&str]; 14] = [
    &[],
    &["--quiet"],
    &["--status"],
    &["--strict"],
    &["--ignore-missing"],
    &["-w"],
    &["--warn", "--strict"],
    &["--quiet", "--strict"],
    &["--status", "--strict"],
    &["--status", "--ignore-missing"],
    &["--quiet", "--ignore-missing", "--strict", "-w"],
    &["-w", "--quiet"],
    &["--quiet", "-w"],
    &["--status", "-w", "--ignore-missing"],
];

#[test]
fn check_matches_sha256sum_under_every_flag_combination() {
    if !require_tool("sha256sum") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    fixture(dir.path());
    for flags in FLAGS {
        for list in LISTS {
            let mut args = os(&["-c"]);
            args.extend(os(flags));
            args.push(list.into());
            same_as_sha256sum(dir.path(), &[], &args, b"");
        }
        // Several lists in one run, stdin among them.
        let mut args = os(&["--check"]);
        args.extend(os(flags));
        args.extend(os(&["good.sums", "-", "missing.sums", "mixed.sums"]));
        let mixed = std::fs::read(dir.path().join("mixed.sums")).unwrap();
        same_as_sha256sum(dir.path(), &[], &args, &mixed);
    }
}

#[test]
fn check_is_the_same_under_every_schedule() {
    if !require_tool("sha256sum") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    fixture(dir.path());
    let schedules: [&[&str]; 5] = [
        &["--strategy", "seq"],
        &["--threads", "1"],
        &["--threads", "2", "--strategy", "static"],
        &["--threads", "3", "--strategy", "steal"],
        &["--threads", "8"],
    ];
    for schedule in schedules {
        let args = os(&["-c", "mixed.sums", "good.sums"]);
        same_as_sha256sum(dir.path(), schedule, &args, b"");
    }
}

#[test]
fn stdin_lists_and_bsd_reversed_lines_are_read_as_coreutils_reads_them() {
    if !require_tool("sha256sum") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    fixture(dir.path());
    let cases = [
        // `-` listed in a list read from stdin is malformed.
        format!("{H_ABC}  -\n{H_ABC}  abc\n"),
        // BSD `md5 -r` lines: the first untagged line decides the form.
        format!("{H_ABC} abc\n{}  with space\n", sha(b"space")),
        format!("{H_ABC}  abc\n{H_ABC} abc\n"),
        format!("{H_ABC} with space\n"),
        // Tabs and blanks before the hash, a NUL in the name.
        format!(" \t{H_ABC}  abc\n{H_ABC}  abc\0junk\n"),
    ];
    for list in cases {
        for flags in [&[][..], &["-w"], &["--strict", "--quiet"]] {
            let mut args = os(&["-c"]);
            args.extend(os(flags));
            same_as_sha256sum(dir.path(), &[], &args, list.as_bytes());
        }
    }
    // A list naming `-` reads stdin for it when the list is a file.
    std::fs::write(dir.path().join("stdin.sums"), format!("{H_ABC}  -\n")).unwrap();
    same_as_sha256sum(dir.path(), &[], &os(&["-c", "stdin.sums"]), b"abc");
}

#[test]
fn check_reads_what_hash_writes_tagged_zero_and_in_every_format() {
    if !require_tool("sha256sum") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    fixture(dir.path());
    let names = os(&[
        "abc",
        "with space",
        "back\\slash",
        "new\nline",
        "carriage\rreturn",
    ]);
    // --tag and -z write what sha256sum writes.
    for flags in [&["--tag"][..], &["-z"], &["--tag", "-z"], &[]] {
        let mut args = os(flags);
        args.extend(names.iter().cloned());
        same_as_sha256sum(dir.path(), &[], &args, b"");
    }
    let ours = |args: &[&str], names: &[OsString], stdin: &[u8]| {
        let mut all = os(args);
        all.extend(names.iter().cloned());
        run_in(dir.path(), bin(), &all, stdin)
    };
    // A -z list is checked with -z: the results end in NUL, names as they are.
    let list = ok(&ours(&["hash", "-z"], &names, b"")).stdout.clone();
    let checked = ok(&ours(&["hash", "-c", "-z"], &[], &list)).stdout.clone();
    let want: Vec<u8> = names
        .iter()
        .flat_map(|n| [n.as_bytes(), b": OK\0"].concat())
        .collect();
    assert_eq!(checked, want);
    // Tree formats, untagged with the flags, tagged without any.
    for (format, leaf) in [
        ("rfc6962", Some("1024")),
        ("rfc6962", None),
        ("bittorrent-v2", None),
        ("glacier", None),
    ] {
        let mut write = vec!["hash", "--format", format];
        write.extend(leaf.map(|l| ["--leaf-size", l]).iter().flatten());
        let plain = ok(&ours(&write, &names, b"")).stdout.clone();
        let mut read = write.clone();
        read.push("-c");
        let out = ours(&read, &[], &plain);
        ok_quietly_in(format, &out);
        assert_eq!(
            String::from_utf8_lossy(&out.stdout).matches(": OK\n").count(),
            5,
            "{format}"
        );
        write.push("--tag");
        let tagged = ok(&ours(&write, &names, b"")).stdout.clone();
        let out = ok_quietly_in(format, &ours(&["hash", "-c"], &[], &tagged))
            .stdout
            .clone();
        assert_eq!(
            String::from_utf8_lossy(&out).matches(": OK\n").count(),
            5,
            "{format}"
        );
        // sha256sum does not know the tags: every line is malformed to it.
        let theirs = run_in(dir.path(), "sha256sum", &os(&["-c"]), &tagged);
        assert_eq!(theirs.status.code(), Some(1), "{format}");
    }
    // A list in another format than asked: every file FAILED (not Glacier:
    // a file of one chunk has its SHA-256 as its tree hash).
    let plain = ok(&ours(&["hash", "--format", "rfc6962"], &names, b""))
        .stdout
        .clone();
    let out = ours(&["hash", "-c"], &[], &plain);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("WARNING: 5 computed checksums did NOT match"));
}

#[test]
fn check_flags_are_checked() {
    for args in [
        &["hash", "--quiet", "x"][..],
        &["hash", "--status", "x"],
        &["hash", "--strict", "x"],
        &["hash", "--ignore-missing", "x"],
        &["hash", "-w", "x"],
        &["hash", "-c", "--tag", "x"],
        &["hash", "-c", "-r", "x"],
        &["hash", "-L", "x"],
    ] {
        usage_in(&format!("{args:?}"), &parcrypt(args, b""), "");
    }
}

#[test]
fn hostile_lists_end_with_a_clear_answer() {
    if !require_tool("sha256sum") || !require_tool("mkfifo") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("abc"), "abc").unwrap();
    // A line of 1 MiB: a name too long to open, as coreutils says it.
    let long = format!("{H_ABC}  {}\n", "n".repeat(1 << 20));
    std::fs::write(d.join("long.sums"), &long).unwrap();
    same_as_sha256sum(d, &[], &os(&["-c", "long.sums"]), b"");
    // 100,000 lines: the same answer, in order.
    let mut many = String::new();
    for i in 0..100_000 {
        match i % 4 {
            0 => many.push_str(&format!("{H_ABC}  abc\n")),
            1 => many.push_str(&format!("{ZERO}  abc\n")),
            2 => many.push_str("malformed\n"),
            _ => many.push_str(&format!("{H_ABC}  gone{i}\n")),
        }
    }
    std::fs::write(d.join("many.sums"), &many).unwrap();
    for flags in [&["-c"][..], &["-c", "--quiet", "--ignore-missing"]] {
        let mut args = os(flags);
        args.push("many.sums".into());
        same_as_sha256sum(d, &[], &args, b"");
    }
    // A directory listed: "Is a directory", as coreutils says it.
    std::fs::create_dir(d.join("dir")).unwrap();
    std::fs::write(d.join("dir.sums"), format!("{H_ABC}  dir\n{H_ABC}  abc\n")).unwrap();
    same_as_sha256sum(d, &[], &os(&["-c", "dir.sums"]), b"");
    // A directory given as the list: a read error, as coreutils says it.
    same_as_sha256sum(d, &[], &os(&["-c", "dir"]), b"");
    // A FIFO listed, with no writer: refused at once (sha256sum would wait
    // forever), the files after it still checked.
    let fifo = d.join("fifo");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    std::fs::write(d.join("fifo.sums"), format!("{H_ABC}  fifo\n{H_ABC}  abc\n")).unwrap();
    let out = within(
        Command::new(bin())
            .args(["hash", "-c", "fifo.sums"])
            .current_dir(d),
        60,
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "fifo: FAILED open or read\nabc: OK\n"
    );
    let err = stderr(&out);
    assert!(err.starts_with("parcrypt: fifo: a FIFO, not read"), "{err}");
    assert!(err.contains("WARNING: 1 listed file could not be read"), "{err}");
    // A character device listed: refused as a FIFO is (sha256sum reads
    // /dev/zero for ever); /dev/null too, though it would end.
    std::fs::write(
        d.join("dev.sums"),
        format!("{H_ABC}  /dev/zero\n{H_ABC}  abc\n{ZERO}  /dev/null\n"),
    )
    .unwrap();
    let out = within(
        Command::new(bin())
            .args(["hash", "-c", "dev.sums"])
            .current_dir(d),
        60,
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "/dev/zero: FAILED open or read\nabc: OK\n/dev/null: FAILED open or read\n"
    );
    let err = stderr(&out);
    assert!(
        err.starts_with("parcrypt: /dev/zero: a character device, not read"),
        "{err}"
    );
    assert!(err.contains("WARNING: 2 listed files could not be read"), "{err}");
    // A line longer than 16 MiB is read through, not held: malformed.
    let huge = d.join("huge.sums");
    let mut text = vec![b'x'; (16 << 20) + 10];
    text.push(b'\n');
    text.extend_from_slice(format!("{H_ABC}  abc\n").as_bytes());
    std::fs::write(&huge, text).unwrap();
    let out = within(
        Command::new(bin())
            .args(["hash", "-c", "-w"])
            .arg(&huge)
            .current_dir(d),
        120,
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains(": 1: improperly formatted SHA256 checksum line"));
    assert_eq!(out.stdout, b"abc: OK\n");
}

#[test]
fn a_file_that_shrinks_while_it_is_checked_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("big");
    let data = vec![7u8; 48 << 20];
    std::fs::write(&big, &data).unwrap();
    let list = format!("{}  big\n", sha(&data));
    std::fs::write(dir.path().join("big.sums"), list).unwrap();
    for format in ["sha256", "rfc6962"] {
        let sums = if format == "sha256" {
            "big.sums".to_owned()
        } else {
            let out = ok(&run_in(
                dir.path(),
                bin(),
                &os(&["hash", "--format", format, "big"]),
                b"",
            ))
            .stdout
            .clone();
            std::fs::write(dir.path().join("tree.sums"), out).unwrap();
            "tree.sums".to_owned()
        };
        std::fs::write(&big, &data).unwrap();
        let child = Command::new(bin())
            .args(["hash", "--format", format, "-c", &sums])
            .current_dir(dir.path())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(5));
        std::fs::OpenOptions::new()
            .write(true)
            .open(&big)
            .unwrap()
            .set_len(1 << 20)
            .unwrap();
        let out = answer_within(child, 120);
        let (text, err) = (String::from_utf8_lossy(&out.stdout), stderr(&out));
        assert!(!err.contains("panicked"), "{err}");
        // Done before the cut (OK, exit 0), or not: FAILED, with the reason
        // on stderr when the file ended under the reader.
        match out.status.code() {
            Some(0) => assert_eq!(text, "big: OK\n"),
            Some(1) if text == "big: FAILED open or read\n" => {
                assert!(err.starts_with("parcrypt: big: "), "{err}")
            }
            Some(1) => assert_eq!(text, "big: FAILED\n", "{err}"),
            other => panic!("{format}: status {other:?}: {err}"),
        }
    }
}

/// A tree of awkward names, a symbolic link to a file and one to a
/// directory, and a FIFO.
fn tree(root: &Path) {
    let dirs = ["a", "a/b", "a-b", "c d", "e\\f"];
    for d in dirs {
        std::fs::create_dir_all(root.join(d)).unwrap();
    }
    for (i, f) in [
        "a/x",
        "a/b/y",
        "a-b/z",
        "a.txt",
        "c d/e f",
        "e\\f/g\nh",
        "top",
        "a/b/~w",
    ]
    .iter()
    .enumerate()
    {
        std::fs::write(root.join(f), data(i * 1000)).unwrap();
    }
    for i in 0..300 {
        std::fs::write(root.join("a/b").join(format!("many{i}")), data(i)).unwrap();
    }
    std::os::unix::fs::symlink("top", root.join("link-to-file")).unwrap();
    std::os::unix::fs::symlink("a", root.join("link-to-dir")).unwrap();
}

#[test]
fn recursive_manifests_are_sha256sum_lines_and_round_trip() {
    if !require_tool("sha256sum") || !require_tool("find") || !require_tool("mkfifo") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("tree");
    tree(&root);
    assert!(
        Command::new("mkfifo")
            .arg(root.join("fifo"))
            .status()
            .unwrap()
            .success()
    );
    let d = dir.path();
    // The same lines as find -type f | LC_ALL=C sort | xargs sha256sum.
    let found = run(
        Command::new("sh")
            .arg("-c")
            .arg("find tree -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum")
            .current_dir(d),
        b"",
    );
    let ours = run_in(d, bin(), &os(&["hash", "-r", "tree"]), b"");
    assert_eq!(ours.status.code(), Some(0), "{}", stderr(&ours));
    assert!(
        ours.stdout == found.stdout,
        "{}",
        String::from_utf8_lossy(&ours.stdout)
    );
    assert_eq!(
        stderr(&ours),
        "parcrypt: warning: tree/fifo: a FIFO, skipped (-r hashes regular files)\n"
    );
    // sha256sum -c accepts it, and so does hash -c, the same way.
    std::fs::write(d.join("SUMS"), &ours.stdout).unwrap();
    let checked = same_as_sha256sum(d, &[], &os(&["-c", "SUMS"]), b"");
    assert_eq!(checked.status.code(), Some(0));
    // The same with -z and --tag, and under every schedule.
    for (flags, check) in [(&["-z"][..], &["-c", "-z"][..]), (&["--tag"], &["-c"])] {
        for threads in ["1", "3"] {
            let mut args = os(&["--threads", threads, "hash", "-r"]);
            args.extend(os(flags));
            args.push("tree".into());
            let list = run_in(d, bin(), &args, b"");
            assert_eq!(list.status.code(), Some(0));
            let mut args = os(&["hash"]);
            args.extend(os(check));
            let out = ok(&run_in(d, bin(), &args, &list.stdout)).stdout.clone();
            assert_eq!(out.iter().filter(|&&b| b == b'O').count(), 308, "{flags:?}");
        }
    }
    // -L follows the links: the file once more, the directory's files
    // under the link's path.
    let followed = ok(&run_in(d, bin(), &os(&["hash", "-r", "-L", "tree"]), b""))
        .stdout
        .clone();
    let text = String::from_utf8_lossy(&followed);
    assert!(
        text.contains("  tree/link-to-file\n") && text.contains("  tree/link-to-dir/b/y\n"),
        "{text}"
    );
    assert_eq!(text.lines().count(), 308 + 1 + 303);
    // A loop through a link is skipped with a warning, not walked forever.
    std::os::unix::fs::symlink("..", root.join("a/b/up")).unwrap();
    let out = within(
        Command::new(bin())
            .args(["hash", "-r", "-L", "tree"])
            .current_dir(d),
        60,
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("tree/a/b/up: a directory already being walked"));
    // A file given to -r is hashed as it is; a missing one fails as in hash.
    let out = run_in(d, bin(), &os(&["hash", "-r", "tree/top", "nothing"]), b"");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).ends_with("  tree/top\n"));
    assert!(stderr(&out).starts_with("parcrypt: nothing: No such file or directory\n"));
}
