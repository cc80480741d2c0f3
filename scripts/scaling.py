#!/usr/bin/env python3
"""How parcrypt scales with threads on a machine with more cores than the development one.

    python3 scripts/scaling.py --binary target/release/parcrypt            # threads 1,2,4,… up to the cores
    python3 scripts/scaling.py --binary B --threads 1,2,4,8,16 --out DIR --python PY

Needs only a built `parcrypt` (no cargo: the binary may be copied to the
machine measured) and the Python standard library. It writes, into --out:

  scaling.md     the tables below, with the machine's lscpu facts and the command line
  commands.csv   every timed whole command: thread count, round, wall and CPU seconds
  lab-N/         the lab's own results (results.csv, summary.md) for the thread list
  python.md      python/bench/bench.py at every thread count for RSA key generation
                 (only with --python, an interpreter where `import parcrypt` works)

Whole commands read a file in the page cache and write to /dev/null; rounds
are interleaved (one round = every command once; the first is a warm-up, not
recorded); medians. Peers that scale (b3sum --num-threads) run at every
thread count, peers that do not (openssl, sha256sum) once per round. The
copy out of the page cache alone is timed as `dd` reading the file in T parts
at once, the bound on how far reading a file by T threads can go. Missing
tools are listed as absent, never skipped silently.
"""

import argparse
import csv
import datetime
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench import lscpu, make_inputs, out, parse_size, size_label, timed  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
# (workloads, input size): bulk RSA is ~1000× slower per byte than the rest,
# so it gets a smaller input (64 MiB of it would take minutes per sample).
LAB_RUNS = [("aes-256-ctr,aes-256-gcm-seal,aes-256-gcm-open,aes-256-cbc-dec,merkle-rfc6962-4kib,"
             "merkle-bittorrent-v2,sha256-many-shani-x4,stream-encrypt,parc4-4kib,ecdsa-verify-batch", "64MiB"),
            ("rsa-bulk-dec", "256KiB")]


def commands(p, big, key, sealed, threads, have):
    """[(family, threads or None, argv or shell string)]; None = a peer run once per round."""
    k, iv, q = key.read_bytes().hex(), "00" * 16, f"'{big}'"
    cmds = [("openssl dgst -sha256", None, ["openssl", "dgst", "-sha256", str(big)]),
            ("sha256sum", None, ["sha256sum", str(big)]),
            ("openssl enc -aes-256-ctr", None,
             ["openssl", "enc", "-aes-256-ctr", "-K", k, "-iv", iv, "-in", str(big), "-out", "/dev/null"])]
    blocks = big.stat().st_size // (8 << 20)
    for t in threads:
        pt = [p, "--threads", str(t)]
        cmds += [("parcrypt hash --format rfc6962", t, pt + ["hash", "--format", "rfc6962", str(big)]),
                 ("parcrypt hash --format bittorrent-v2", t, pt + ["hash", "--format", "bittorrent-v2", str(big)])]
        if have["b3sum"]:
            cmds.append(("b3sum", t, ["b3sum", "--num-threads", str(t), str(big)]))
        cmds += [("parcrypt encrypt (stream)", t, pt + ["encrypt", "--key-file", str(key), "-i", str(big)]),
                 ("parcrypt decrypt (stream)", t, pt + ["decrypt", "--key-file", str(key), "-i", str(sealed)]),
                 ("parcrypt aes encrypt --mode ctr", t,
                  pt + ["aes", "encrypt", "--mode", "ctr", "--key", k, "--iv", iv, "-i", str(big)])]
        part = blocks // t
        cmds.append(("dd, T parts at once (read only)", t,
                     " & ".join(f"dd if={q} of=/dev/null bs=8M skip={i * part} count={part} status=none"
                                for i in range(t)) + "; wait"))
    return cmds


def commands_tables(cmds, results, threads, size):
    med = {(f, t): statistics.median(w for w, _ in results[(f, t)]) for f, t, _ in cmds}
    peers = {f: med[(f, None)] for f, t, _ in cmds if t is None}
    lines = ["| command | " + " | ".join(f"{t} thr" for t in threads) + f" | {threads[-1]} thr / 1 thr |",
             "|---|" + "---|" * (len(threads) + 1)]
    for family in dict.fromkeys(f for f, t, _ in cmds if t is not None):
        cells = [f"{med[(family, t)]:.3f} s ({size / med[(family, t)] / 1e9:.2f} GB/s)" for t in threads]
        first = threads[0]
        lines.append(f"| {family} | " + " | ".join(cells) + f" | {med[(family, first)] / med[(family, threads[-1])]:.2f}× |")
    lines += ["", "| peer, one thread | median | GB/s |", "|---|---|---|"]
    lines += [f"| {f} | {s:.3f} s | {size / s / 1e9:.2f} |" for f, s in peers.items()]
    top = threads[-1]
    pairs = [("parcrypt hash --format rfc6962", "openssl dgst -sha256"),
             ("parcrypt hash --format rfc6962", "sha256sum"),
             ("parcrypt hash --format rfc6962", "b3sum"),
             ("parcrypt hash --format bittorrent-v2", "b3sum"),
             ("parcrypt encrypt (stream)", "openssl enc -aes-256-ctr"),
             ("parcrypt decrypt (stream)", "openssl enc -aes-256-ctr"),
             ("parcrypt aes encrypt --mode ctr", "openssl enc -aes-256-ctr")]
    lines += ["", f"| at {top} threads | peer | peer time / parcrypt time |", "|---|---|---|"]
    for ours, peer in pairs:
        theirs = peers.get(peer, med.get((peer, top)))
        if theirs is not None and (ours, top) in med:
            label = f"{peer} --num-threads {top}" if peer == "b3sum" else peer
            lines.append(f"| {ours} | {label} | {theirs / med[(ours, top)]:.2f}× |")
    return "\n".join(lines)


def lab_table(results_csv, threads):
    """Each workload's throughput (or operations) per thread count, work-stealing schedule."""
    rows = list(csv.DictReader(open(results_csv)))
    cells, units = {}, {}
    for r in rows:
        if r["impl"] not in ("seq", "steal"):
            continue
        t = int(r["threads"])
        if r["impl"] == "seq" or t > 1 or (r["workload"], 1) not in cells:
            key = (r["workload"], t)
            if r["unit"] == "bytes":
                slow = r["workload"].startswith("rsa-")
                cells[key] = float(r["throughput_Bps"]) / (1e6 if slow else 1e9)
                units[r["workload"]] = "MB/s" if slow else "GB/s"
            else:
                cells[key] = float(r["ops_per_s"])
                units[r["workload"]] = f"{r['unit']}/s"
    lines = ["| workload | unit | " + " | ".join(f"{t} thr" for t in threads) + f" | {threads[-1]} thr / 1 thr |",
             "|---|---|" + "---|" * (len(threads) + 1)]
    for w in dict.fromkeys(r["workload"] for r in rows if r["impl"] == "steal"):
        vals = [cells.get((w, t)) for t in threads]
        fmt = (lambda v: f"{v:.2f}") if units[w] in ("GB/s", "MB/s") else (lambda v: f"{v:,.0f}" if v >= 100 else f"{v:.1f}")
        ratio = f"{vals[-1] / vals[0]:.2f}×" if vals[0] and vals[-1] else "—"
        lines.append(f"| {w} | {units[w]} | " + " | ".join(fmt(v) if v else "—" for v in vals) + f" | {ratio} |")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--binary", type=Path, default=ROOT / "target" / "release" / "parcrypt")
    ap.add_argument("--threads", help="thread counts, e.g. 1,2,4,8,16 (default: powers of two up to the cores)")
    ap.add_argument("--file-size", default="1GiB")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--out", type=Path, default=None, help="default lab-out/scaling-<UTC time>")
    ap.add_argument("--no-lab", action="store_true")
    ap.add_argument("--lab-repeats", type=int, default=3)
    ap.add_argument("--python", help="an interpreter with parcrypt installed: run python/bench/bench.py too")
    args = ap.parse_args()

    cores = os.cpu_count() or 1
    threads = ([int(x) for x in args.threads.split(",")] if args.threads
               else sorted({1 << i for i in range(cores.bit_length()) if 1 << i <= cores} | {cores}))
    now = datetime.datetime.now(datetime.timezone.utc)
    run_dir = args.out or ROOT / "lab-out" / f"scaling-{now:%Y%m%dT%H%M%SZ}"
    run_dir.mkdir(parents=True, exist_ok=True)
    p = str(args.binary.resolve())
    cpu = lscpu()
    have = {t: shutil.which(t) for t in ("b3sum", "openssl", "sha256sum")}
    absent = [f"{t} (not on PATH)" for t, where in have.items() if not where]
    if not have["openssl"] or not have["sha256sum"]:
        raise SystemExit("openssl and sha256sum are the reference peers: " + ", ".join(absent))
    command = " ".join(["python3", "scripts/scaling.py", *sys.argv[1:]])
    flags = " ".join(cpu["flags"])
    parts = [f"# parcrypt thread scaling, {now:%Y-%m-%d %H:%M} UTC",
             f"`{command}`; {out([p, '--version'])}, {out(['openssl', 'version'])}, "
             f"{out(['b3sum', '--version']) or 'b3sum absent'}.",
             f"Machine: {cpu['model_name']} (family {cpu['family']} model {cpu['model']}), {cores} CPUs, "
             f"{cpu['threads_per_core']} thread(s) per core"
             f"{', ' + cpu['hypervisor'] + ' guest' if cpu['hypervisor'] else ''}; flags: {flags}; "
             f"load average before: {os.getloadavg()[0]:.2f}."]
    if absent:
        parts.append("Absent: " + ", ".join(absent) + ".")

    def write():
        (run_dir / "scaling.md").write_text("\n\n".join(parts) + "\n")

    with tempfile.TemporaryDirectory(prefix="parcrypt-scaling-") as tmp:
        work = Path(tmp)
        size = parse_size(args.file_size)
        big, key, _ = make_inputs(work, size, 0, 0)
        sealed = work / "big.pc"
        subprocess.run([p, "encrypt", "--key-file", str(key), "-i", str(big), "-o", str(sealed)], check=True)
        cmds = commands(p, big, key, sealed, threads, have)
        results = {}
        with open(run_dir / "commands.csv", "w", newline="") as f:
            writer = csv.writer(f)
            writer.writerow(["command", "threads", "round", "wall_s", "cpu_s"])
            for r in range(args.rounds + 1):
                for family, t, cmd in cmds:
                    wall, cpu_s = timed(cmd, None)
                    if r:
                        results.setdefault((family, t), []).append((wall, cpu_s))
                        writer.writerow([family, t or 1, r, f"{wall:.6f}", f"{cpu_s:.6f}"])
                print(f"  round {r} of {args.rounds}: done", flush=True)
        parts += [f"## Whole commands, a {size_label(size)} file in the page cache",
                  f"Medians of {args.rounds} interleaved rounds after a warm-up round, output to /dev/null.",
                  commands_tables(cmds, results, threads, size)]
        write()

        if args.python:
            bench = [args.python, str(ROOT / "python" / "bench" / "bench.py"), "--markdown", str(run_dir / "python.md"),
                     "--keygen-threads", ",".join(map(str, threads))]
            print("+", " ".join(bench), flush=True)
            subprocess.run(bench, check=True)
            parts += ["## From Python (python/bench/bench.py)", (run_dir / "python.md").read_text()]
            write()
        if not args.no_lab:
            for i, (workloads, lab_size) in enumerate(LAB_RUNS, 1):
                lab_dir = run_dir / f"lab-{i}"
                lab = [p, "lab", "--only", workloads, "--sizes", lab_size, "--threads-list",
                       ",".join(map(str, threads)), "--repeats", str(args.lab_repeats), "--out", str(lab_dir)]
                print("+", " ".join(lab), flush=True)
                subprocess.run(lab, check=True, stdout=subprocess.DEVNULL)
                for extra in ("report.html", "plots", "results.json"):
                    target = lab_dir / extra
                    shutil.rmtree(target) if target.is_dir() else target.unlink(missing_ok=True)
                parts += [f"## In process (the lab), {lab_size} inputs, work-stealing schedule",
                          f"`parcrypt {' '.join(lab[1:-2])}`; 1 thread = the sequential reference; medians of "
                          f"{args.lab_repeats} samples. Full cells and peers: lab-{i}/summary.md.",
                          lab_table(lab_dir / "results.csv", threads)]
                write()

    print(f"wrote {run_dir / 'scaling.md'}", flush=True)


if __name__ == "__main__":
    main()
