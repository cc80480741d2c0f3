#!/usr/bin/env python3
"""The CLI's file paths beside their peers: system calls and CPU time per path.

    python3 scripts/io_paths.py --binary target/release/parcrypt FILE             # interleaved pairs
    python3 scripts/io_paths.py --binary target/release/parcrypt FILE --strace    # + system calls per path
    python3 scripts/io_paths.py --binary B --before OLD_BINARY FILE --strace      # + an older build, timed and counted

FILE (1 GiB in docs/PERFORMANCE.md) is read from the page cache (one warm-up
read first) and every output goes to /dev/null. Its encryptions (stream,
Cobblestone-128, age) are made once into a temporary directory beside nothing
else (about 3 × FILE of disk). Each round runs every command once, in order
(the first round is a warm-up, not recorded); the table gives the median wall
time, the median CPU time (user + system, which a loaded machine changes far
less than wall time) and the peer's median ÷ the command's (above 1: parcrypt
faster), then the median page faults (minor) and context switches
(voluntary: a thread waiting for another, a hand-off; involuntary:
preempted) per run, from `getrusage`. `--strace` runs each parcrypt command
once more under `strace -f -c` and prints its calls of read, pread64,
preadv, write, splice, futex and mmap: counts that the machine's load does
not change (a pipe's row counts `cat`'s calls too). Paths: `aes encrypt
--mode ctr`, `encrypt`/`decrypt` (stream and Cobblestone-128), `age -r`/
`age -d`, `hash --format rfc6962` and `hash` (SHA-256) of FILE, `hash -c`
of a list naming FILE, and `cat FILE | encrypt|age -r|hash` through a pipe.
Uses only the Python standard library, `openssl`, coreutils and, where
installed, `age`.
"""

import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CALLS = ["read", "pread64", "preadv", "write", "splice", "futex", "mmap"]


def timed(cmd):
    """Wall and CPU (user + system) seconds, minor page faults and voluntary
    and involuntary context switches of one run of a shell command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(cmd, shell=True, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    d = lambda k: getattr(after, k) - getattr(before, k)
    return wall, cpu, d("ru_minflt"), d("ru_nvcsw"), d("ru_nivcsw")


def syscalls(cmd):
    """Calls per system call of one run under `strace -f -c`."""
    with tempfile.NamedTemporaryFile("r", suffix=".strace") as log:
        subprocess.run(["strace", "-f", "-c", "-o", log.name, "sh", "-c", cmd], check=True,
                       stdout=subprocess.DEVNULL)
        counts = {}
        for line in log.read().splitlines():
            fields = line.split()
            if len(fields) >= 5 and fields[-1] in CALLS and re.fullmatch(r"\d+", fields[3]):
                counts[fields[-1]] = int(fields[3])
        return counts


def groups(p, f, work, threads, recipient):
    """(task, peer command, [parcrypt commands]) for every path."""
    k16, k32, ident = work / "k16", work / "k32", work / "id.txt"
    hexkey = k32.read_text().strip()
    iv = "00" * 16
    pc = f"'{p}' --threads {threads}"
    aes = lambda bits, d="": f"openssl enc {d}-aes-{bits}-ctr -K {hexkey[:bits // 4]} -iv {iv} -in '{f}'"
    chacha = f"openssl enc -chacha20 -K {hexkey} -iv {iv} -in '{f}'"
    peer_age = [f"age -r {recipient} '{f}'"] if shutil.which("age") else []
    return [
        ("AES-256-CTR", aes(256), [f"{pc} aes encrypt --mode ctr --key {hexkey} --iv {iv} -i '{f}'"]),
        ("stream encrypt", aes(256), [f"{pc} encrypt --key-file {k32} -i '{f}'"]),
        ("stream decrypt", aes(256, "-d "), [f"{pc} decrypt --key-file {k32} -i {work / 'f.pc'}"]),
        ("cobblestone-128 encrypt", aes(128), [f"{pc} encrypt --format cobblestone-128 --key-file {k16} -i '{f}'"]),
        ("cobblestone-128 decrypt", aes(128, "-d "),
         [f"{pc} decrypt --format cobblestone-128 --key-file {k16} -i {work / 'f.cob'}"]),
        ("age -r", chacha, peer_age + [f"{pc} age -r {recipient} '{f}'"]),
        ("age -d", chacha, [f"{pc} age -d -i {ident} {work / 'f.age'}"]),
        ("hash rfc6962, 4 KiB leaves", f"openssl dgst -sha256 '{f}'",
         [f"{pc} hash --format rfc6962 --leaf-size 4096 '{f}'"]),
        ("hash (SHA-256)", f"openssl dgst -sha256 '{f}'", [f"{pc} hash '{f}'"]),
        ("hash -c (a list naming FILE)", f"sha256sum -c --quiet {work / 'sums'}", [f"{pc} hash -c {work / 'sums'}"]),
        ("a pipe: cat F | ...", f"cat '{f}' | cat",
         [f"cat '{f}' | {pc} encrypt --key-file {k32}", f"cat '{f}' | {pc} age -r {recipient}",
          f"cat '{f}' | {pc} hash"]),
    ]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("file", type=Path)
    ap.add_argument("--binary", required=True, help="the parcrypt binary (a release build)")
    ap.add_argument("--before", help="an older parcrypt binary: each parcrypt command timed with it too, "
                    "in the same rounds (and its system calls, with --strace)")
    ap.add_argument("--threads", type=int, default=os.cpu_count())
    ap.add_argument("--rounds", type=int, default=7, help="timed rounds (default 7)")
    ap.add_argument("--strace", action="store_true", help="count system calls per parcrypt command")
    ap.add_argument("--only", default="", help="tasks whose name contains this")
    a = ap.parse_args()
    p = str(Path(a.binary).resolve())
    with tempfile.TemporaryDirectory(prefix="io-paths-") as tmp:
        work = Path(tmp)
        (work / "k16").write_text(os.urandom(16).hex() + "\n")
        (work / "k32").write_text(os.urandom(32).hex() + "\n")
        subprocess.run([p, "age", "keygen", "-o", str(work / "id.txt")], check=True, capture_output=True)
        recipient = subprocess.run([p, "age", "keygen", "-y", str(work / "id.txt")], check=True,
                                   capture_output=True, text=True).stdout.strip()
        todo = [g for g in groups(p, a.file, work, a.threads, recipient) if a.only in g[0]]
        if any("decrypt" in t or "age -d" in t for t, _, _ in todo):
            f = str(a.file)
            subprocess.run([p, "encrypt", "--key-file", str(work / "k32"), "-i", f, "-o", str(work / "f.pc")],
                           check=True)
            subprocess.run([p, "encrypt", "--format", "cobblestone-128", "--key-file", str(work / "k16"),
                            "-i", f, "-o", str(work / "f.cob")], check=True)
            subprocess.run([p, "age", "-r", recipient, "-o", str(work / "f.age"), f], check=True)
        if any(t.startswith("hash -c") for t, _, _ in todo):
            sums = subprocess.run([p, "hash", str(a.file.resolve())], check=True, capture_output=True, text=True)
            (work / "sums").write_text(sums.stdout)
        subprocess.run(["cat", str(a.file)], check=True, stdout=subprocess.DEVNULL)
        print(f"# {a.file} ({a.file.stat().st_size} bytes), {a.threads} threads, {a.rounds} rounds; "
              f"load average {os.getloadavg()[0]:.2f} at the start")
        cpu = [ln for ln in subprocess.run(["lscpu"], capture_output=True, text=True).stdout.splitlines()
               if ln.startswith("Model name")]
        print(f"# {' '.join(cpu)}")
        print("| task | command | wall median (s) | CPU median (s) | peer ÷ command (wall, CPU) "
              "| page faults | context switches (vol., invol.) |")
        print("|---|---|---|---|---|---|---|")
        before = str(Path(a.before).resolve()) if a.before else None
        for task, peer, ours in todo:
            # With --before, each parcrypt command of the older build too, in the same rounds.
            cmds = [peer, *ours] + ([c.replace(p, before) for c in ours if p in c] if before else [])
            samples = {c: [] for c in cmds}
            for r in range(a.rounds + 1):
                for c in cmds:
                    t = timed(c)
                    if r:
                        samples[c].append(t)
            med = {c: [statistics.median(x[i] for x in s) for i in range(5)] for c, s in samples.items()}
            for c in cmds:
                w, u, faults, vol, invol = med[c]
                ratio = "peer" if c == peer else f"{med[peer][0] / w:.2f}×, {med[peer][1] / u:.2f}×"
                short = c.replace(before, "parcrypt (before)") if before else c
                short = short.replace(p, "parcrypt").replace(str(work) + "/", "")
                print(f"| {task} | `{short}` | {w:.3f} | {u:.3f} | {ratio} | {faults:.0f} | {vol:.0f}, {invol:.0f} |")
        print(f"# load average {os.getloadavg()[0]:.2f} at the end")
        if a.strace:
            print("\n| task | binary | " + " | ".join(CALLS) + " |")
            print("|---|---|" + "---|" * len(CALLS))
            for task, _, ours in todo:
                for c in (c for c in ours if p in c):
                    for label, binary in [("this", p)] + ([("before", a.before)] if a.before else []):
                        n = syscalls(c.replace(p, str(Path(binary).resolve())))
                        print(f"| {task} | {label} | " + " | ".join(str(n.get(k, 0)) for k in CALLS) + " |")


if __name__ == "__main__":
    sys.exit(main())
