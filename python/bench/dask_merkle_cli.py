#!/usr/bin/env python3
"""`parcrypt.dask.merkle_root` of one file on a 2-process LocalCluster beside
the same root in one process on 2 threads (`merkle.hash_file`, the library
call `parcrypt hash` makes) and, with --cli, the CLI itself.

    python python/bench/dask_merkle_cli.py [--mib 1024] [--rounds 7] [--cli PATH/TO/parcrypt] [--dir DIR]

Rows run interleaved (dask_bench.py's rounds; medians), the cluster started
before timing. Besides wall times, what load does not change: the workers'
CPU time (user + system) and minor page faults per call, read with
`getrusage` in each worker process around one more call, and the same for
one `merkle.hash_file` in this process. A worker that reads
its part into a Python buffer first faults in and zeroes a part-sized
allocation per task (65,536 faults for 256 MiB in 4 KiB pages); one that
hashes through the library's pipeline reuses three buffers.
"""

import argparse
import os
import resource
import subprocess
import tempfile

import distributed

from dask_bench import interleaved
from parcrypt import dask as pdask
from parcrypt import merkle


def usage() -> tuple:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime, r.ru_minflt


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mib", type=int, default=1024)
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--cli", help="a parcrypt binary: adds `parcrypt hash --format rfc6962 --threads 2 FILE`")
    ap.add_argument("--dir", help="where the file is written (default: a temporary directory)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir) as d:
        path = os.path.join(d, "big")
        with open(path, "wb") as f:
            for _ in range(args.mib):
                f.write(os.urandom(1 << 20))
        want = merkle.hash_file(path, "rfc6962", threads=2)
        load = os.getloadavg()
        with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                      dashboard_address=None) as cluster, distributed.Client(cluster) as c:
            assert pdask.merkle_root(path, client=c) == want
            runs = {"dask merkle_root, 2 worker processes": lambda: pdask.merkle_root(path, client=c),
                    "one process, threads=2 (merkle.hash_file)": lambda: merkle.hash_file(path, "rfc6962",
                                                                                         threads=2)}
            if args.cli:
                cmd = [args.cli, "hash", "--format", "rfc6962", "--threads", "2", path]
                assert bytes.fromhex(subprocess.run(cmd, capture_output=True, text=True,
                                                    check=True).stdout.split()[0]) == want
                runs["CLI hash --threads 2"] = lambda: subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True)
            med = interleaved(runs, args.rounds)
            before = c.run(usage)
            pdask.merkle_root(path, client=c)
            after = c.run(usage)
            here = usage()
            merkle.hash_file(path, "rfc6962", threads=2)
            here = [b - a for a, b in zip(here, usage())]
        load_after = os.getloadavg()
    print(f"merkle_root rfc6962 of a {args.mib} MiB file (4 KiB leaves), medians of {args.rounds} interleaved "
          f"rounds; load average {load[0]:.2f} before, {load_after[0]:.2f} after, {os.cpu_count()} CPUs")
    for name, t in med.items():
        print(f"  {name:<45} {t:7.3f} s  {args.mib / 1024 / t:6.2f} GiB/s")
    base = med["one process, threads=2 (merkle.hash_file)"]
    print(f"  dask / one process on 2 threads: {base / med['dask merkle_root, 2 worker processes']:.2f}x"
          + (f"; dask / CLI: {med['CLI hash --threads 2'] / med['dask merkle_root, 2 worker processes']:.2f}x"
             if args.cli else ""))
    for w in before:
        cpu, flt = (a - b for a, b in zip(after[w], before[w]))
        print(f"  worker {w}: {cpu * 1e3:.0f} ms CPU, {flt:,} minor page faults in one merkle_root")
    print(f"  one process, threads=2: {here[0] * 1e3:.0f} ms CPU, {here[1]:,} minor page faults in one hash_file")


if __name__ == "__main__":
    main()
