//! The native library exports exactly the JNI entry points `Native.java`
//! declares: one `Java_dev_parcrypt_jca_Native_<method>` function for each
//! `static native` method, and none the Java side does not call. A missing
//! or misspelled one would otherwise surface only as an
//! `UnsatisfiedLinkError` in the JVM, at the first call.
//!
//! The test reads the library cargo built beside it (the crate is a `cdylib`
//! and an `rlib`, so `cargo test --workspace` builds it with the tests'
//! dependencies, and `.ci/run` hands that same file to Maven) and its ELF
//! dynamic symbol table, without a JVM or an outside tool.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeSet;
use std::path::PathBuf;

/// The JNI symbol of `method` of `dev.parcrypt.jca.Native` (JNI
/// specification, "Resolving Native Method Names": `_` escapes as `_1`).
fn jni_symbol(method: &str) -> String {
    format!("Java_dev_parcrypt_jca_Native_{}", method.replace('_', "_1"))
}

/// The `static native` methods of `Native.java`, by name.
fn declared() -> BTreeSet<String> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../src/main/java/dev/parcrypt/jca/Native.java"
    );
    let source = std::fs::read_to_string(path).expect("Native.java");
    let mut names = BTreeSet::new();
    for line in source.lines() {
        let Some(rest) = line.trim_start().strip_prefix("static native ") else {
            continue;
        };
        // "<return type> <name>(...": the word before the first '('.
        let head = &rest[..rest.find('(').expect("a native method's parameter list")];
        let name = head.split_whitespace().last().expect("a native method's name");
        assert!(
            names.insert(name.to_owned()),
            "{name} is declared twice (JNI overloads are not used here)"
        );
    }
    names
}

/// The library cargo built beside this test executable (`deps/`).
fn library() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let path = exe.parent().unwrap().join("libparcrypt_jni.so");
    assert!(path.is_file(), "no {} beside the test", path.display());
    path
}

fn u16_at(b: &[u8], at: usize) -> usize {
    u16::from_le_bytes(b[at..at + 2].try_into().unwrap()).into()
}

fn u32_at(b: &[u8], at: usize) -> usize {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap()) as usize
}

fn u64_at(b: &[u8], at: usize) -> usize {
    usize::try_from(u64::from_le_bytes(b[at..at + 8].try_into().unwrap())).unwrap()
}

/// The defined global functions of a little-endian ELF64 shared object's
/// dynamic symbol table (`nm -D --defined-only`, functions only).
fn exported_functions(elf: &[u8]) -> BTreeSet<String> {
    assert_eq!(&elf[..4], b"\x7fELF", "not an ELF file");
    assert_eq!((elf[4], elf[5]), (2, 1), "not a little-endian ELF64 file");
    let (shoff, shentsize, shnum) = (u64_at(elf, 0x28), u16_at(elf, 0x3a), u16_at(elf, 0x3c));
    let section = |i: usize| &elf[shoff + i * shentsize..shoff + (i + 1) * shentsize];
    const SHT_DYNSYM: usize = 11;
    let dynsym = (0..shnum)
        .map(section)
        .find(|s| u32_at(s, 4) == SHT_DYNSYM)
        .expect("a dynamic symbol table");
    let (offset, size, entsize) = (u64_at(dynsym, 0x18), u64_at(dynsym, 0x20), u64_at(dynsym, 0x38));
    let strtab = section(u32_at(dynsym, 0x28));
    let strings = &elf[u64_at(strtab, 0x18)..][..u64_at(strtab, 0x20)];
    let mut names = BTreeSet::new();
    for sym in elf[offset..offset + size].chunks_exact(entsize) {
        let (info, shndx) = (sym[4], u16_at(sym, 6));
        const STT_FUNC: u8 = 2;
        const STB_GLOBAL: u8 = 1;
        if shndx == 0 || info & 0xf != STT_FUNC || info >> 4 != STB_GLOBAL {
            continue;
        }
        let name = &strings[u32_at(sym, 0)..];
        let name = &name[..name.iter().position(|&b| b == 0).unwrap()];
        names.insert(String::from_utf8(name.to_vec()).unwrap());
    }
    names
}

#[test]
fn the_library_exports_exactly_the_native_methods_native_java_declares() {
    let want: BTreeSet<String> = declared().iter().map(|m| jni_symbol(m)).collect();
    assert!(
        want.len() > 50,
        "only {} native methods found in Native.java",
        want.len()
    );
    let elf = std::fs::read(library()).unwrap();
    let got: BTreeSet<String> = exported_functions(&elf)
        .into_iter()
        .filter(|name| name.starts_with("Java_"))
        .collect();
    let missing: Vec<_> = want.difference(&got).collect();
    let unused: Vec<_> = got.difference(&want).collect();
    assert!(
        missing.is_empty(),
        "declared in Native.java, not exported: {missing:?}"
    );
    assert!(
        unused.is_empty(),
        "exported, not declared in Native.java: {unused:?}"
    );
}

#[test]
fn jni_names_escape_underscores() {
    assert_eq!(jni_symbol("gcmNew"), "Java_dev_parcrypt_jca_Native_gcmNew");
    assert_eq!(jni_symbol("a_b"), "Java_dev_parcrypt_jca_Native_a_1b");
}
