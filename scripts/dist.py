#!/usr/bin/env python3
"""Build what users install without a Rust toolchain into dist/ (ignored by git).

    python3 scripts/dist.py                       # everything, x86_64 and aarch64 (~20 min on 2 cores)
    python3 scripts/dist.py --arch x86_64 --only wheel      # one wheel
    python3 scripts/dist.py --check dist/*.whl    # only check built files (wheels, .so, binaries)
    python3 scripts/dist.py --prepare             # only fetch the tools and Rust targets (CI, ahead)

What it writes (VERSION from the workspace's Cargo.toml):
  parcrypt-VERSION-cp311-abi3-manylinux_2_17_ARCH.manylinux2014_ARCH.whl
                 the Python package, one wheel for CPython >= 3.11, for glibc >= 2.17
  parcrypt-jca-VERSION.jar
                 the JCA provider with native/linux-x86_64 and native/linux-aarch64
  parcrypt-VERSION-linux-ARCH
                 the `parcrypt` CLI (with the lab), for glibc >= 2.17
  SHA256SUMS     `sha256sum -c SHA256SUMS` checks every file above

How: cargo-zigbuild and `maturin build --zig` link against glibc 2.17's
symbol versions through Zig (the `ziglang` and `cargo-zigbuild` wheels from
PyPI, installed with maturin into a virtual environment this script creates
in target/dist-venv). The Rust targets come from rustup. The jar is built by
Maven's `dist` profile from the native libraries built here.

Every ELF file written is then checked as auditwheel checks a manylinux
wheel (PEP 599, manylinux2014): the libraries it needs (DT_NEEDED) must be
among the system libraries the policy allows, and no symbol version it needs
(readelf's version-needs section: GLIBC_x.y, GCC_x.y, GLIBCXX_, CXXABI_) may
be newer than the policy's. Any violation fails the script, naming the file,
the version and the symbols that need it. Only the Python standard library
is used (plus readelf from binutils).
"""

import argparse
import hashlib
import os
import re
import shutil
import subprocess
import sys
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ARCHES = ("x86_64", "aarch64")
WHAT = ("wheel", "jar", "cli")
# The tools, pinned to the versions this script was written against.
TOOLS = ["maturin==1.16.0", "ziglang==0.15.2", "cargo-zigbuild==0.24.1"]

# PEP 599 (manylinux2014): the system libraries a wheel may need, and the
# newest version of each versioned symbol set it may use.
ALLOWED_LIBS = {
    "libgcc_s.so.1", "libstdc++.so.6", "libm.so.6", "libdl.so.2", "librt.so.1",
    "libc.so.6", "libnsl.so.1", "libutil.so.1", "libpthread.so.0", "libresolv.so.2",
    "libX11.so.6", "libXext.so.6", "libXrender.so.1", "libICE.so.6", "libSM.so.6",
    "libGL.so.1", "libgobject-2.0.so.0", "libgthread-2.0.so.0", "libglib-2.0.so.0",
    "ld-linux-x86-64.so.2", "ld-linux-aarch64.so.1",
}
MAX_VERSIONS = {"GLIBC": (2, 17), "GCC": (4, 8, 0), "GLIBCXX": (3, 4, 19), "CXXABI": (1, 3, 7)}
ELF_MACHINE = {"x86_64": 62, "aarch64": 183}


def log(msg):
    print(f"dist: {msg}", flush=True)


def fail(msg):
    print(f"dist: error: {msg}", file=sys.stderr, flush=True)
    sys.exit(1)


def run(cmd, **kw):
    log("$ " + " ".join(str(c) for c in cmd))
    try:
        subprocess.run([str(c) for c in cmd], check=True, **kw)
    except FileNotFoundError as e:
        fail(f"{cmd[0]} not found ({e}); see the requirements in docs/INSTALL.md")
    except subprocess.CalledProcessError as e:
        fail(f"{' '.join(str(c) for c in cmd)} exited {e.returncode}")


def version():
    text = (ROOT / "Cargo.toml").read_text()
    m = re.search(r'^\[workspace\.package\][^\[]*?^version\s*=\s*"([^"]+)"', text, re.M | re.S)
    if not m:
        fail("no version in the workspace Cargo.toml")
    return m.group(1)


# ---------------------------------------------------------------------------
# The manylinux2014 check (auditwheel's, for the parts that apply here)

def elf_machine(data):
    """The e_machine of an ELF file's bytes, or None if it is not ELF."""
    if data[:4] != b"\x7fELF":
        return None
    order = "little" if data[5] == 1 else "big"
    return int.from_bytes(data[18:20], order)


def readelf(path, *flags):
    try:
        p = subprocess.run(["readelf", "-W", *flags, str(path)], capture_output=True, text=True, check=True)
    except FileNotFoundError:
        fail("readelf not found (Debian: apt-get install binutils)")
    except subprocess.CalledProcessError as e:
        fail(f"readelf {' '.join(flags)} {path}: {e.stderr.strip()}")
    return p.stdout


def needed_versions(path):
    """{(file, version name)} from the version-needs section (.gnu.version_r)."""
    out, current = set(), None
    for line in readelf(path, "-V").splitlines():
        m = re.search(r"File:\s*(\S+)\s+Cnt:", line)
        if m:
            current = m.group(1)
            continue
        m = re.search(r"Name:\s*(\S+)\s+Flags:", line)
        if m and current:
            out.add((current, m.group(1)))
    return out


def needed_libs(path):
    return re.findall(r"\(NEEDED\)\s+Shared library:\s*\[([^\]]+)\]", readelf(path, "-d"))


def symbols_needing(path, version):
    """The undefined dynamic symbols bound to `version` (for the error message)."""
    names = []
    for line in readelf(path, "--dyn-syms").splitlines():
        cols = line.split()
        if len(cols) >= 8 and cols[6] == "UND" and cols[7].endswith("@" + version):
            names.append(cols[7].split("@")[0])
        elif len(cols) >= 8 and cols[6] == "UND" and f"@{version} " in cols[7] + " ":
            names.append(cols[7].split("@")[0])
    return sorted(set(names))


def parse_version(name):
    """'GLIBC_2.17' -> ('GLIBC', (2, 17)); None for names outside the policy."""
    m = re.fullmatch(r"([A-Z]+)_(\d+(?:\.\d+)*)", name)
    if not m or m.group(1) not in MAX_VERSIONS:
        return None
    return m.group(1), tuple(int(x) for x in m.group(2).split("."))


def check_elf(path, arch, label=None):
    """Fails unless `path` is an `arch` ELF file that runs on manylinux2014 (glibc 2.17)."""
    label = label or str(path)
    data = Path(path).read_bytes()[:64]
    machine = elf_machine(data)
    if machine is None:
        fail(f"{label}: not an ELF file")
    if machine != ELF_MACHINE[arch]:
        fail(f"{label}: ELF machine {machine}, expected {ELF_MACHINE[arch]} ({arch})")
    problems = []
    for lib in needed_libs(path):
        if lib not in ALLOWED_LIBS:
            problems.append(f"needs {lib}, not a manylinux2014 system library")
    newest = {}
    for _file, name in needed_versions(path):
        parsed = parse_version(name)
        if parsed is None:
            continue
        family, ver = parsed
        newest[family] = max(newest.get(family, ver), ver)
        if ver > MAX_VERSIONS[family]:
            syms = symbols_needing(path, name)
            problems.append(f"needs {name} (newer than manylinux2014's {family}_"
                            f"{'.'.join(map(str, MAX_VERSIONS[family]))}) for: {', '.join(syms) or '?'}")
    problems = list(dict.fromkeys(problems))  # a version may be listed by libc and libm
    if problems:
        fail(f"{label}: not manylinux2014 (glibc >= 2.17):\n  " + "\n  ".join(problems))
    summary = ", ".join(f"{f}_{'.'.join(map(str, v))}" for f, v in sorted(newest.items()))
    log(f"ok {label}: {arch}, newest symbol versions needed: {summary or 'none'}")


def check_wheel(path):
    """Tag, contents and every ELF file in a wheel."""
    path = Path(path)
    m = re.fullmatch(r"parcrypt-[^-]+-cp311-abi3-(.+)\.whl", path.name)
    if not m:
        fail(f"{path.name}: not a parcrypt abi3 (cp311-abi3) wheel name")
    tags = m.group(1).split(".")
    arch = next((a for a in ARCHES if all(t.endswith("_" + a) for t in tags)), None)
    if arch is None or f"manylinux2014_{arch}" not in tags or f"manylinux_2_17_{arch}" not in tags:
        fail(f"{path.name}: platform tags {tags}, expected manylinux_2_17_ARCH.manylinux2014_ARCH")
    unpacked = ROOT / "target" / "dist-check" / path.stem
    shutil.rmtree(unpacked, ignore_errors=True)
    with zipfile.ZipFile(path) as z:
        wheel_meta = next((n for n in z.namelist() if n.endswith(".dist-info/WHEEL")), None)
        if wheel_meta is None:
            fail(f"{path.name}: no .dist-info/WHEEL")
        declared = sorted(line.split(":", 1)[1].strip()
                          for line in z.read(wheel_meta).decode().splitlines() if line.startswith("Tag:"))
        if declared != sorted(f"cp311-abi3-{t}" for t in tags):
            fail(f"{path.name}: WHEEL declares {declared}, the file name says {tags}")
        sos = [n for n in z.namelist() if n.endswith(".so")]
        if not sos:
            fail(f"{path.name}: no extension module inside")
        for name in sos:
            z.extract(name, unpacked)
            check_elf(unpacked / name, arch, f"{path.name}:{name}")
    shutil.rmtree(unpacked, ignore_errors=True)
    return arch


def check_jar(path, arches):
    """The jar carries a native library for each of `arches`, of the right machine and manylinux2014."""
    unpacked = ROOT / "target" / "dist-check" / Path(path).stem
    shutil.rmtree(unpacked, ignore_errors=True)
    with zipfile.ZipFile(path) as z:
        names = set(z.namelist())
        for arch in arches:
            name = f"native/linux-{arch}/libparcrypt_jni.so"
            if name not in names:
                fail(f"{Path(path).name}: no {name}")
            z.extract(name, unpacked)
            check_elf(unpacked / name, arch, f"{Path(path).name}:{name}")
    shutil.rmtree(unpacked, ignore_errors=True)


def check_file(path):
    """--check: a wheel, a jar (both platforms), or an ELF file (its arch from its header)."""
    p = Path(path)
    if p.suffix == ".whl":
        check_wheel(p)
    elif p.suffix == ".jar":
        check_jar(p, ARCHES)
    else:
        machine = elf_machine(p.read_bytes()[:64])
        arch = next((a for a, m in ELF_MACHINE.items() if m == machine), None)
        if arch is None:
            fail(f"{p}: not an x86_64 or aarch64 ELF file")
        check_elf(p, arch)


# ---------------------------------------------------------------------------
# Building

def tools_env():
    """A virtual environment with maturin, ziglang and cargo-zigbuild; the
    environment to run them in (its bin/ first on PATH, so cargo finds
    `cargo-zigbuild` and both find Zig through `python3 -m ziglang`)."""
    venv = ROOT / "target" / "dist-venv"
    py = venv / "bin" / "python"
    stamp = venv / "tools.txt"
    if not (py.exists() and stamp.exists() and stamp.read_text() == "\n".join(TOOLS)):
        shutil.rmtree(venv, ignore_errors=True)
        run([sys.executable, "-m", "venv", venv])
        run([py, "-m", "pip", "install", "-q", "--upgrade", "pip"])
        run([py, "-m", "pip", "install", "-q", *TOOLS])
        stamp.write_text("\n".join(TOOLS))
    env = dict(os.environ)
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    env["VIRTUAL_ENV"] = str(venv)
    # The extension must not link libpython (.cargo/config.toml sets it for
    # cargo; maturin sets it too).
    env["PYO3_BUILD_EXTENSION_MODULE"] = "1"
    return env


def rust_targets(arches):
    if shutil.which("rustup"):
        run(["rustup", "target", "add", *(f"{a}-unknown-linux-gnu" for a in arches)])


def zigbuild(env, package, arch):
    """cargo zigbuild --release for glibc 2.17; the target's release folder."""
    run(["cargo", "zigbuild", "--release", "--locked", "-p", package,
         "--target", f"{arch}-unknown-linux-gnu.2.17"], cwd=ROOT, env=env)
    return ROOT / "target" / f"{arch}-unknown-linux-gnu" / "release"


def build_wheel(env, arch, dist):
    before = set(dist.glob("*.whl"))
    run([Path(env["VIRTUAL_ENV"]) / "bin" / "maturin", "build", "--release", "--locked", "--zig",
         "--target", f"{arch}-unknown-linux-gnu", "--compatibility", "manylinux2014",
         "-m", ROOT / "python" / "Cargo.toml", "--out", dist], cwd=ROOT, env=env)
    new = sorted(set(dist.glob("*.whl")) - before)
    if len(new) != 1:
        fail(f"maturin wrote {len(new)} wheels for {arch}: {new}")
    check_wheel(new[0])


def build_cli(env, arch, dist, ver):
    out = dist / f"parcrypt-{ver}-linux-{arch}"
    shutil.copy2(zigbuild(env, "parcrypt-cli", arch) / "parcrypt", out)
    check_elf(out, arch)


def build_jni(env, arch):
    lib = zigbuild(env, "parcrypt-jni", arch) / "libparcrypt_jni.so"
    staged = ROOT / "target" / "dist-natives" / f"linux-{arch}"
    staged.mkdir(parents=True, exist_ok=True)
    shutil.copy2(lib, staged / "libparcrypt_jni.so")
    check_elf(staged / "libparcrypt_jni.so", arch)


def build_jar(arches, dist, ver):
    natives = ROOT / "target" / "dist-natives"
    for arch in ARCHES:
        if arch not in arches:
            shutil.rmtree(natives / f"linux-{arch}", ignore_errors=True)
    # The KEM service is compiled for Java 21: by Maven's own JDK if it is 21+,
    # else by the JDK 25 that $PARCRYPT_JDK25 names (docs/JAVA.md).
    jdk25 = os.environ.get("PARCRYPT_JDK25")
    kem = [f"-Dparcrypt.jdk25={jdk25}"] if jdk25 else []
    run(["mvn", "-q", "-B", "-Pdist", f"-Dparcrypt.natives={natives}", *kem, "-DskipTests", "clean", "package"],
        cwd=ROOT / "java")
    out = dist / f"parcrypt-jca-{ver}.jar"
    shutil.copy2(ROOT / "java" / "target" / "parcrypt-jca.jar", out)
    check_jar(out, arches)


def sha256sums(dist):
    lines = []
    for f in sorted(dist.iterdir()):
        if f.is_file() and f.name != "SHA256SUMS":
            lines.append(f"{hashlib.sha256(f.read_bytes()).hexdigest()}  {f.name}\n")
    (dist / "SHA256SUMS").write_text("".join(lines))
    log(f"wrote {dist / 'SHA256SUMS'} ({len(lines)} files)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--arch", default=",".join(ARCHES), help="comma-separated: x86_64,aarch64 (default both)")
    ap.add_argument("--only", default=",".join(WHAT), help="comma-separated: wheel,jar,cli (default all)")
    ap.add_argument("--out", default=str(ROOT / "dist"), help="output folder (default dist/), emptied first")
    ap.add_argument("--check", nargs="+", metavar="FILE", help="only check these built files, build nothing")
    ap.add_argument("--prepare", action="store_true",
                    help="only set up the build tools (target/dist-venv) and the Rust targets of --arch")
    args = ap.parse_args()
    if args.check:
        for f in args.check:
            check_file(f)
        return
    arches = [a for a in args.arch.split(",") if a]
    what = [w for w in args.only.split(",") if w]
    for a in arches:
        if a not in ARCHES:
            fail(f"unknown --arch {a!r}: expected {', '.join(ARCHES)}")
    for w in what:
        if w not in WHAT:
            fail(f"unknown --only {w!r}: expected {', '.join(WHAT)}")
    if args.prepare:
        tools_env()
        rust_targets(arches)
        return
    dist = Path(args.out).resolve()
    shutil.rmtree(dist, ignore_errors=True)
    dist.mkdir(parents=True)
    ver = version()
    env = tools_env()
    rust_targets(arches)
    started = time.monotonic()
    for arch in arches:
        t = time.monotonic()
        if "wheel" in what:
            build_wheel(env, arch, dist)
        if "cli" in what:
            build_cli(env, arch, dist, ver)
        if "jar" in what:
            build_jni(env, arch)
        log(f"{arch}: {time.monotonic() - t:.0f} s")
    if "jar" in what:
        build_jar(arches, dist, ver)
    sha256sums(dist)
    log(f"done in {time.monotonic() - started:.0f} s: {dist}")
    for f in sorted(dist.iterdir()):
        log(f"  {f.name}  {f.stat().st_size / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
