#!/usr/bin/env python3
"""`parcrypt age` beside the `age` CLI, and parcrypt.age beside pyrage: the
table of docs/AGE.md ("Measured"), from one run on this machine.

    python3 scripts/age_bench.py [--parcrypt target/release/parcrypt] [--size 1GiB] [--repeats 7]

Needs a release `parcrypt` (cargo build --release -p parcrypt-cli), `age` and
`age-keygen` on PATH, and for the Python rows parcrypt's Python package and
pyrage (pip install "./python[test]"); a missing piece is reported, its rows
left out. The file is written to the temp directory and read once so that
it is in the page cache; outputs go to /dev/null. Commands run interleaved,
one warm-up round first; each row is the median of --repeats runs. Ratios are
age's (or pyrage's) time / parcrypt's: above 1, parcrypt is faster.
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def size_arg(text: str) -> int:
    units = {"GiB": 1 << 30, "MiB": 1 << 20, "KiB": 1 << 10, "": 1}
    for unit, mult in units.items():
        if unit and text.endswith(unit):
            return int(text[: -len(unit)]) * mult
    return int(text)


def medians(commands: dict, repeats: int) -> dict:
    samples = {name: [] for name in commands}
    for round_ in range(repeats + 1):
        for name, cmd in commands.items():
            start = time.perf_counter()
            subprocess.run(cmd, shell=True, check=True, stdout=subprocess.DEVNULL)
            if round_:  # the first round warms up
                samples[name].append(time.perf_counter() - start)
    return {name: statistics.median(s) for name, s in samples.items()}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--parcrypt", default=str(ROOT / "target" / "release" / "parcrypt"))
    ap.add_argument("--size", type=size_arg, default=1 << 30, help="file size (default 1GiB)")
    ap.add_argument("--repeats", type=int, default=7)
    args = ap.parse_args()
    p = args.parcrypt
    for tool in (p, "age", "age-keygen"):
        if not shutil.which(tool):
            print(f"missing: {tool}", file=sys.stderr)
            return 1
    cores = os.cpu_count()
    with tempfile.TemporaryDirectory() as tmp:
        f, key = Path(tmp) / "input.bin", Path(tmp) / "key.txt"
        with open(f, "wb") as out:
            for _ in range(args.size >> 20):
                out.write(os.urandom(1 << 20))
            out.write(os.urandom(args.size & ((1 << 20) - 1)))
        subprocess.run(["age-keygen", "-o", str(key)], check=True, capture_output=True)
        r = subprocess.run(["age-keygen", "-y", str(key)], check=True, capture_output=True, text=True).stdout.strip()
        subprocess.run(["age", "-r", r, "-o", f"{f}.age", str(f)], check=True)
        subprocess.run(f"cat {f} {f}.age > /dev/null", shell=True, check=True)
        enc, dec = f"-r {r} -o /dev/null {f}", f"-d -i {key} -o /dev/null {f}.age"
        rows = {
            "encrypt: age": f"age {enc}",
            "encrypt: parcrypt --threads 1": f"{p} --threads 1 age {enc}",
            f"encrypt: parcrypt ({cores} cores)": f"{p} age {enc}",
            "decrypt: age": f"age {dec}",
            "decrypt: parcrypt --threads 1": f"{p} --threads 1 age {dec}",
            f"decrypt: parcrypt ({cores} cores)": f"{p} age {dec}",
            "pipe: cat F \\| cat": f"cat {f} | cat > /dev/null",
            "pipe: cat F \\| parcrypt age -r R": f"cat {f} | {p} age -r {r} > /dev/null",
        }
        times = medians(rows, args.repeats)
    size = args.size
    print(f"\n{size >> 20} MiB in the page cache, medians of {args.repeats}, {cores} cores:\n")
    print("| command | median | rate | ratio |")
    print("|---|---|---|---|")
    base = {"encrypt": times["encrypt: age"], "decrypt": times["decrypt: age"], "pipe": times["pipe: cat F \\| cat"]}
    for name, t in times.items():
        kind = name.split(":")[0]
        ratio = base[kind] / t
        label = "×cat (≤ 1.15 is the goal)" if kind == "pipe" else "× age"
        print(f"| {name} | {t:.3f} s | {size / t / 1e9:.2f} GB/s | "
              f"{(t / base[kind]) if kind == 'pipe' else ratio:.2f} {label} |")
    python_rows()
    return 0


def python_rows() -> None:
    try:
        import pyrage
        from parcrypt import age
    except ImportError as e:
        print(f"\nPython rows left out: {e} (pip install './python[test]')")
        return
    data = os.urandom(64 << 20)
    me = age.Identity.generate()
    theirs = pyrage.x25519.Recipient.from_str(str(me.to_public()))
    calls = {
        "pyrage.encrypt": lambda: pyrage.encrypt(data, [theirs]),
        "parcrypt.age.encrypt threads=1": lambda: age.encrypt(data, [me.to_public()], threads=1),
        "parcrypt.age.encrypt": lambda: age.encrypt(data, [me.to_public()]),
    }
    samples = {name: [] for name in calls}
    for round_ in range(8):
        for name, call in calls.items():
            start = time.perf_counter()
            call()
            if round_:
                samples[name].append(time.perf_counter() - start)
    times = {name: statistics.median(s) for name, s in samples.items()}
    print("\n| Python, 64 MiB bytes | median | ratio (pyrage / this) |")
    print("|---|---|---|")
    for name, t in times.items():
        print(f"| {name} | {t * 1e3:.1f} ms | {times['pyrage.encrypt'] / t:.2f}× |")


if __name__ == "__main__":
    sys.exit(main())
