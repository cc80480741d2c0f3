#!/usr/bin/env python3
"""One SLH-DSA signature through each door: the library, Python, Java and
the CLI (issue #50: "Python and Java within 1.1x of the library; the CLI's
1-signature command within 1.1x + process start").

    python3 scripts/slhdsa_bindings.py [--sets SLH-DSA-SHA2-128f,SLH-DSA-SHA2-128s]
        [--rounds 5] [--python PY] [--jar java/target/parcrypt-jca.jar] [--java JAVA]

Each signs a hedged signature of a 1,000-byte message on every core (the
default of each door), median wall-clock time per signature:

- library: `target/release/examples/slhdsa_bench --ops sign --threads N`
  (build it with `cargo build --release -p parcrypt --example slhdsa_bench`);
- Python: `parcrypt.slhdsa.SLHDSAPrivateKey.sign` in one process (--python:
  an interpreter with the package installed, e.g. `pip install ./python`);
- Java: `java/bench/pq/SlhDsaSign.java` on the provider's jar (`mvn -f
  java package -DskipTests`), skipped when --jar is missing;
- CLI: `parcrypt slh-dsa sign --key KEY.pem -i MSG -o SIG`, one process per
  signature (reading the key rebuilds its top tree: part of the command),
  and `parcrypt --version` for the process start, which the ratio leaves
  out: (command - start) / library.

Ratios are the door's time over the library's (1.00: no overhead). Timing
on a loaded machine is indicative only; the load average is printed.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def load() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def library(bench: Path, set_name: str, threads: int, rounds: int) -> float:
    out = subprocess.run(
        [str(bench), "--ops", "sign", "--threads", str(threads), "--rounds", str(rounds), set_name],
        check=True, capture_output=True, text=True).stdout
    for line in out.splitlines():
        f = line.split()
        if len(f) >= 4 and f[0] == set_name and f[1] == "sign" and f[2] == str(threads):
            return float(f[3])
    raise SystemExit(f"slhdsa_bench printed no sign row for {set_name}:\n{out}")


PY = r"""
import statistics, sys, time
from parcrypt import slhdsa
set_name, rounds = sys.argv[1], int(sys.argv[2])
key = slhdsa.SLHDSAPrivateKey.generate(set_name)
msg = bytes(range(256)) * 3 + bytes(232)
count = 1
t0 = time.perf_counter(); key.sign(msg); one = time.perf_counter() - t0
count = max(1, int(0.3 / max(one, 1e-6)))
times = []
for r in range(rounds + 1):
    t0 = time.perf_counter()
    for _ in range(count):
        key.sign(msg)
    if r:
        times.append((time.perf_counter() - t0) / count * 1e3)
print(statistics.median(times))
"""


def python(py: str, set_name: str, rounds: int) -> float:
    out = subprocess.run([py, "-c", PY, set_name, str(rounds)], check=True, capture_output=True, text=True)
    return float(out.stdout.strip())


def java(java_bin: str, jar: Path, set_name: str, rounds: int) -> float | None:
    if not jar.is_file():
        return None
    src = ROOT / "java" / "bench" / "pq" / "SlhDsaSign.java"
    out = subprocess.run([java_bin, "--enable-native-access=ALL-UNNAMED", "-cp", str(jar), str(src),
                          set_name, str(rounds), "10"], check=True, capture_output=True, text=True).stdout
    m = re.search(r"^java \S+ ([0-9.]+)$", out, re.M)
    if not m:
        raise SystemExit(f"SlhDsaSign printed no time:\n{out}")
    return float(m.group(1))


def timed(cmd: list[str], runs: int, after=None) -> float:
    """Median wall-clock ms of `cmd` over `runs` runs after one warm-up run."""
    times = []
    for r in range(runs + 1):
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if r:
            times.append((time.perf_counter() - t0) * 1e3)
        if after:
            after()
    return statistics.median(times)


def cli(binary: Path, set_name: str, runs: int, tmp: Path) -> tuple[float, float]:
    """The sign command's and the process start's median ms."""
    key, msg, sig = tmp / f"{set_name}.pem", tmp / "msg", tmp / "msg.sig"
    subprocess.run([str(binary), "slh-dsa", "keygen", "--params", set_name, "-o", str(key)],
                   check=True, capture_output=True)
    msg.write_bytes(bytes(range(256)) * 3 + bytes(232))
    start = timed([str(binary), "--version"], runs)
    sign = timed([str(binary), "slh-dsa", "sign", "--key", str(key), "-i", str(msg), "-o", str(sig)], runs,
                 after=lambda: sig.unlink())
    return sign, start


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", default="SLH-DSA-SHA2-128f,SLH-DSA-SHA2-128s")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1,
                    help="the library's threads (the other doors use every core by default)")
    ap.add_argument("--bench", type=Path, default=ROOT / "target/release/examples/slhdsa_bench")
    ap.add_argument("--parcrypt", type=Path, default=ROOT / "target/release/parcrypt")
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--jar", type=Path, default=ROOT / "java/target/parcrypt-jca.jar")
    ap.add_argument("--java", default="java")
    a = ap.parse_args()
    for p in (a.bench, a.parcrypt):
        if not p.is_file():
            ap.error(f"{p} is missing: cargo build --release -p parcrypt-cli -p parcrypt --example slhdsa_bench")
    cpu = next((l.split(":", 1)[1].strip() for l in Path("/proc/cpuinfo").read_text().splitlines()
                if l.startswith("model name")), "unknown")
    print(f"{time.strftime('%Y-%m-%d %H:%M:%S', time.gmtime())} UTC; {cpu}; {os.cpu_count()} CPUs; "
          f"load average before {load()}; library threads {a.threads}; median ms per signature")
    print()
    print("| set | library | Python | Java | CLI (start) | Python ÷ lib | Java ÷ lib | (CLI − start) ÷ lib |")
    print("|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as d:
        for s in a.sets.split(","):
            lib = library(a.bench, s, a.threads, a.rounds)
            py = python(a.python, s, a.rounds)
            jv = java(a.java, a.jar, s, a.rounds)
            cmd, start = cli(a.parcrypt, s, max(a.rounds, 5), Path(d))
            jv_s = f"{jv:.3f}" if jv is not None else "n/a (no jar)"
            jv_r = f"{jv / lib:.2f}" if jv is not None else "n/a"
            print(f"| {s} | {lib:.3f} | {py:.3f} | {jv_s} | {cmd:.2f} ({start:.2f}) | {py / lib:.2f} | {jv_r} | "
                  f"{(cmd - start) / lib:.2f} |")
    print()
    print(f"load average after {load()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
