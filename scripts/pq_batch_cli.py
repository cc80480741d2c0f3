#!/usr/bin/env python3
"""`parcrypt ml-dsa verify-batch` of many signature files against a user's
loop of one OpenSSL 3.5 verification per file (issue #51's CLI line).

    python3 scripts/pq_batch_cli.py [--files 10000] [--rounds 3] [--loop-files 200]
        [--parcrypt target/release/parcrypt] [--openssl PATH] [--node PATH]

Makes an ML-DSA-65 key with `parcrypt ml-dsa keygen`, --files small message
files (32 to 95 bytes) and their signatures with `parcrypt ml-dsa
sign-batch`, and the `--list` file, in a temporary directory (the files are
then in the page cache: warm reads). Then, in turns (the order rotating
round to round; medians of --rounds):

- `parcrypt --threads 1 ml-dsa verify-batch --pub PUB --list LIST` and the
  same with `--threads 2`: one command, timed from outside, process start
  included, stdout to /dev/null;
- the user's loop: a `bash` loop running one verification process per list
  line: `openssl pkeyutl -verify -pubin -inkey PUB -rawin -in MSG -sigfile
  SIG` when an `openssl` >= 3.5 is found (--openssl, else PATH), otherwise
  one `node` process per file calling `crypto.verify` (Node.js 26 bundles
  OpenSSL 3.5.8: the OpenSSL 3.5 found here). A process per file is slow,
  so the loop runs over the first --loop-files lines and its time is scaled
  to --files (said in the table);
- the same loop's process starts alone (`openssl version` / `node -e 0`
  per line), so that "the loop minus process starts" is the loop's time less
  theirs;
- the same verifications in ONE process of that OpenSSL (Node.js: read
  both files, `crypto.verify`, for every list line; timed inside, so its
  one start is not counted): the loop with no process starts at all.

Ratios are the peer's time over parcrypt's (above 1: parcrypt is faster);
issue #51 asks >= 1.8 for the 2-thread command against the loop minus
process starts. Before timing, a check: verify-batch of a list with one
changed signature and one truncated one must print N-2 `OK` and 2 `FAIL`
lines in list order and exit 1. Timing on a loaded machine is indicative
only; the table gives `lscpu`'s CPU and the load average before and after.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

VERIFY_ONE_JS = r"""
// One verification, as one `openssl pkeyutl -verify -rawin` would do it.
const c = require('crypto'), fs = require('fs');
const [pub, msg, sig] = process.argv.slice(2);
const key = c.createPublicKey(fs.readFileSync(pub));
process.exit(c.verify(null, fs.readFileSync(msg), key, fs.readFileSync(sig)) ? 0 : 1);
"""

VERIFY_ALL_JS = r"""
// Every line of the list in this one process; prints the time the
// verifications took (reading included, this process's start not) in ms.
const c = require('crypto'), fs = require('fs');
const [pub, list] = process.argv.slice(2);
const t = process.hrtime.bigint();
const key = c.createPublicKey(fs.readFileSync(pub));
let bad = 0;
for (const line of fs.readFileSync(list, 'utf8').split('\n')) {
  if (!line) continue;
  const [msg, sig] = line.split(' ');
  if (!c.verify(null, fs.readFileSync(msg), key, fs.readFileSync(sig))) bad++;
}
const ms = Number(process.hrtime.bigint() - t) / 1e6;
console.log(JSON.stringify({ ms, bad }));
"""


def cpu_model() -> str:
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return "unknown CPU"
    f = {}
    for line in out.splitlines():
        key, _, value = line.partition(":")
        f[key.strip()] = value.strip()
    return (f'"{f.get("Model name", "?")}" family {f.get("CPU family", "?")} model '
            f'{f.get("Model", "?")}, {f.get("CPU(s)", "?")} CPUs')


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def openssl_35(explicit: str | None) -> str | None:
    """An `openssl` CLI of version 3.5 or later, or None."""
    candidate = explicit or shutil.which("openssl")
    if not candidate:
        return None
    try:
        out = subprocess.run([candidate, "version"], capture_output=True, text=True).stdout
    except OSError:
        return None
    m = re.match(r"OpenSSL (\d+)\.(\d+)", out)
    if m and (int(m[1]), int(m[2])) >= (3, 5):
        return candidate
    if explicit:
        sys.exit(f"--openssl {explicit} is {out.strip() or 'not openssl'}, not OpenSSL >= 3.5")
    return None


def node_openssl(explicit: str | None) -> tuple[str, str] | None:
    """A `node` whose OpenSSL is >= 3.5, and that version, or None."""
    for candidate in (explicit, os.environ.get("PARCRYPT_NODE_OPENSSL35"), shutil.which("node")):
        if not candidate:
            continue
        try:
            version = subprocess.run([candidate, "-p", "process.versions.openssl"],
                                     capture_output=True, text=True).stdout.strip()
        except OSError:
            continue
        m = re.match(r"(\d+)\.(\d+)", version)
        if m and (int(m[1]), int(m[2])) >= (3, 5):
            return candidate, version
        if explicit and candidate == explicit:
            sys.exit(f"--node {explicit} bundles OpenSSL {version or '?'}, not >= 3.5")
    return None


def run(cmd: list[str], **kw) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, capture_output=True, **kw)


def must(cmd: list[str], what: str) -> subprocess.CompletedProcess:
    out = run(cmd)
    if out.returncode != 0:
        sys.exit(f"{what} failed (exit {out.returncode}): {' '.join(cmd)}\n"
                 f"{out.stderr.decode(errors='replace')}")
    return out


def timed(cmd: list[str], ok_codes=(0,)) -> float:
    t = time.perf_counter()
    out = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - t
    if out.returncode not in ok_codes:
        sys.exit(f"{' '.join(cmd)} exited {out.returncode}: {out.stderr.decode(errors='replace')[-2000:]}")
    return elapsed


def check_failures(parcrypt: str, pub: Path, lines: list[str], tmp: Path) -> str:
    """verify-batch of a list with one changed and one truncated signature."""
    n = min(len(lines), 50)
    bad_dir = tmp / "bad"
    bad_dir.mkdir()
    entries = []
    for i, line in enumerate(lines[:n]):
        msg, sig = line.split(" ")
        data = Path(sig).read_bytes()
        if i == 3:
            data = bytes([data[0] ^ 1]) + data[1:]
        elif i == 7:
            data = data[:-1]
        else:
            entries.append(line)
            continue
        copy = bad_dir / f"s{i}"
        copy.write_bytes(data)
        entries.append(f"{msg} {copy}")
    bad_list = tmp / "bad.list"
    bad_list.write_text("\n".join(entries) + "\n")
    for threads in ("1", "2"):
        out = run([parcrypt, "--threads", threads, "ml-dsa", "verify-batch", "--pub", str(pub),
                   "--list", str(bad_list)])
        got = out.stdout.decode().splitlines()
        want = [f"{e}: {'FAIL' if i in (3, 7) else 'OK'}" for i, e in enumerate(entries)]
        err = out.stderr.decode()
        problems = []
        if out.returncode != 1:
            problems.append(f"exit {out.returncode}, not 1")
        if got != want:
            problems.append("stdout is not one OK/FAIL line per entry in list order")
        if f"2 of {n} signatures did not verify" not in err:
            problems.append(f"stderr lacks '2 of {n} signatures did not verify': {err!r}")
        if "is not a" not in err or "ML-DSA-65 signature" not in err:
            problems.append(f"stderr does not name the truncated signature: {err!r}")
        if problems:
            sys.exit(f"verify-batch --threads {threads} on a list with 2 bad signatures: " + "; ".join(problems))
    return (f"verify-batch of {n} entries with 1 changed and 1 truncated signature: "
            f"exit 1, 2 FAIL lines in list order, the truncated one named (threads 1 and 2)")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--files", type=int, default=10_000, help="signature files (default 10000)")
    ap.add_argument("--rounds", type=int, default=3, help="timed rounds, medians (default 3)")
    ap.add_argument("--loop-files", type=int, default=200,
                    help="list lines the process-per-file loop runs over, scaled to --files (default 200)")
    ap.add_argument("--parcrypt", default=None,
                    help="the CLI (default: $CARGO_TARGET_DIR or target/release/parcrypt)")
    ap.add_argument("--openssl", default=None, help="an openssl >= 3.5 (default: PATH's, if >= 3.5)")
    ap.add_argument("--node", default=None,
                    help="a node with OpenSSL >= 3.5 (default: $PARCRYPT_NODE_OPENSSL35, then PATH's)")
    ap.add_argument("--keep", action="store_true", help="keep the temporary directory")
    args = ap.parse_args()
    if args.files < 10 or args.rounds < 1 or args.loop_files < 1:
        ap.error("--files >= 10, --rounds >= 1, --loop-files >= 1")
    target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    parcrypt = args.parcrypt or str(target / "release" / "parcrypt")
    if not shutil.which(parcrypt):
        sys.exit(f"no parcrypt at {parcrypt}: cargo build --release -p parcrypt-cli, or give --parcrypt")
    parcrypt = shutil.which(parcrypt)
    openssl = openssl_35(args.openssl)
    node = None if openssl else node_openssl(args.node)
    if not openssl and not node:
        sys.exit("no OpenSSL >= 3.5: neither an openssl CLI (--openssl) nor a node bundling one (--node)")
    loop_n = min(args.loop_files, args.files)

    before = load()
    tmp = Path(tempfile.mkdtemp(prefix="pq-batch-cli-"))
    try:
        key, pub = tmp / "key.pem", tmp / "pub.pem"
        must([parcrypt, "ml-dsa", "keygen", "--params", "ML-DSA-65", "-o", str(key)], "keygen")
        must([parcrypt, "ml-dsa", "pubkey", "-i", str(key), "-o", str(pub)], "pubkey")
        files = tmp / "f"
        files.mkdir()
        lines = []
        for i in range(args.files):
            msg = files / f"m{i}"
            msg.write_bytes(f"message {i:06d} ".encode() * (1 + i % 4))
            lines.append(f"{msg} {files / f's{i}.sig'}")
        lst = tmp / "list"
        lst.write_text("\n".join(lines) + "\n")
        sample = tmp / "list.sample"
        sample.write_text("\n".join(lines[:loop_n]) + "\n")
        t = time.perf_counter()
        must([parcrypt, "ml-dsa", "sign-batch", "--key", str(key), "--list", str(lst)], "sign-batch")
        sign_s = time.perf_counter() - t
        check = check_failures(parcrypt, pub, lines, tmp)

        if openssl:
            peer = f"OpenSSL {run([openssl, 'version']).stdout.decode().split()[1]} CLI ({openssl})"
            one = f'"{openssl}" pkeyutl -verify -pubin -inkey "{pub}" -rawin -in "$m" -sigfile "$s" >/dev/null'
            start = f'"{openssl}" version >/dev/null'
            in_process = None
        else:
            node_bin, node_ssl = node
            peer = f"OpenSSL {node_ssl} inside Node.js {run([node_bin, '--version']).stdout.decode().strip()} ({node_bin})"
            (tmp / "verify1.js").write_text(VERIFY_ONE_JS)
            (tmp / "verifyall.js").write_text(VERIFY_ALL_JS)
            one = f'"{node_bin}" "{tmp / "verify1.js"}" "{pub}" "$m" "$s"'
            start = f'"{node_bin}" -e 0'
            in_process = [node_bin, str(tmp / "verifyall.js"), str(pub), str(lst)]
        loop = f'while read -r m s; do {one} || exit 1; done < "{sample}"'
        starts = f'while read -r m s; do {start}; done < "{sample}"'
        commands = {
            "parcrypt 1 thread": [parcrypt, "--threads", "1", "ml-dsa", "verify-batch", "--pub", str(pub),
                                  "--list", str(lst)],
            "parcrypt 2 threads": [parcrypt, "--threads", "2", "ml-dsa", "verify-batch", "--pub", str(pub),
                                   "--list", str(lst)],
            "loop": ["bash", "-c", loop],
            "starts": ["bash", "-c", starts],
        }
        samples: dict[str, list[float]] = {name: [] for name in commands}
        samples["one process"] = []
        names = list(commands) + (["one process"] if in_process else [])
        for r in range(args.rounds + 1):  # round 0 warms up
            order = names[r % len(names):] + names[:r % len(names)]
            for name in order:
                if name == "one process":
                    out = must(in_process, "the one-process verification")
                    result = __import__("json").loads(out.stdout)
                    if result["bad"]:
                        sys.exit(f"{result['bad']} signatures failed in the one-process peer")
                    elapsed = result["ms"] / 1000
                else:
                    elapsed = timed(commands[name])
                if r:
                    samples[name].append(elapsed)
        after = load()
    finally:
        if args.keep:
            print(f"kept {tmp}", file=sys.stderr)
        else:
            shutil.rmtree(tmp, ignore_errors=True)

    med = {name: statistics.median(s) for name, s in samples.items() if s}
    scale = args.files / loop_n
    loop_s = med["loop"] * scale
    starts_s = med["starts"] * scale
    minus = loop_s - starts_s
    p1, p2 = med["parcrypt 1 thread"], med["parcrypt 2 threads"]

    def rate(s: float) -> str:
        return f"{args.files / s:,.0f}"

    print(f"## ML-DSA-65 verify-batch of {args.files:,} signature files vs a loop over {peer}")
    print()
    print(f"- CPU: {cpu_model()}; load average before {before}, after {after}")
    print(f"- {args.rounds} rounds (+1 warm-up), order rotating, medians; files warm in the page cache")
    print(f"- sign-batch of the {args.files:,} files (one run): {sign_s:.2f} s")
    print(f"- check: {check}")
    print(f"- the loops ran over the first {loop_n} lines, scaled ×{scale:g} to {args.files:,}")
    print()
    print("| what | command | seconds | files/s | peer ÷ parcrypt 2 threads | peer ÷ parcrypt 1 thread |")
    print("|---|---|---:|---:|---:|---:|")
    print(f"| parcrypt, 1 thread | `{' '.join(commands['parcrypt 1 thread'])}` | {p1:.3f} | {rate(p1)} | | |")
    print(f"| parcrypt, 2 threads | `{' '.join(commands['parcrypt 2 threads'])}` | {p2:.3f} | {rate(p2)} | | |")
    print(f"| user's loop, one process per file | `{loop}` | {loop_s:.2f} | {rate(loop_s)} | "
          f"{loop_s / p2:.1f}× | {loop_s / p1:.1f}× |")
    print(f"| its process starts alone | `{starts}` | {starts_s:.2f} | {rate(starts_s)} | | |")
    print(f"| the loop minus process starts | (loop − starts) | {minus:.2f} | {rate(minus)} | "
          f"{minus / p2:.2f}× | {minus / p1:.2f}× |")
    if "one process" in med:
        o = med["one process"]
        print(f"| the same verifications in one process | `{' '.join(in_process)}` (timed inside) | "
              f"{o:.3f} | {rate(o)} | {o / p2:.2f}× | {o / p1:.2f}× |")
    print()
    print(f"Process start per file: {med['starts'] / loop_n * 1000:.1f} ms; "
          f"loop per file: {med['loop'] / loop_n * 1000:.1f} ms. Issue #51: the 2-thread command "
          f">= 1.8× the loop minus process starts.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
