#!/usr/bin/env python3
"""parcrypt.dask on LocalClusters of 1 and 2 worker processes (1 thread
each), beside the single-machine call with the same total threads.

    python python/bench/dask_bench.py [--quick] [--markdown FILE]

Medians of --repeats runs; the cluster is started before timing (its
start-up is not counted). What the numbers show on one machine is the
overhead of the cluster path and how it scales with workers; on a real
cluster throughput grows with nodes until storage bandwidth binds
(docs/SCALING.md).
"""

import argparse
import os
import statistics
import tempfile
import time

import distributed

from parcrypt import dask as pdask
from parcrypt import ecdsa, merkle, stream


def median(fn, repeats):
    fn()
    samples = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - t)
    return statistics.median(samples)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--markdown")
    args = ap.parse_args()
    size = (128 if args.quick else 1024) << 20
    nfiles = 2_000 if args.quick else 10_000
    nsig = 5_000 if args.quick else 100_000
    part = 64 << 20
    rows = []
    notes = []
    with tempfile.TemporaryDirectory() as d:
        big = os.path.join(d, "big")
        with open(big, "wb") as f:
            for _ in range(size >> 24):
                f.write(os.urandom(16 << 20))
        files = []
        for i in range(nfiles):
            p = os.path.join(d, f"f{i:05}")
            with open(p, "wb") as f:
                f.write(os.urandom(4096))
            files.append(p)
        key = os.urandom(32)
        sk = ecdsa.generate_private_key()
        pub = sk.public_key().public_bytes("DER")
        msgs = [b"m%d" % i for i in range(1000)]
        sigs1000 = [sk.sign(m) for m in msgs]
        sigs = [(pub, msgs[i % 1000], sigs1000[i % 1000]) for i in range(nsig)]
        out = os.path.join(d, "out.pc")
        tasks = {
            f"merkle_root rfc6962, one {size >> 20} MiB file ({size // part} tasks of {part >> 20} MiB)": (
                lambda c: pdask.merkle_root(big, "rfc6962", part_size=part, client=c),
                lambda t: merkle.hash_file(big, "rfc6962", threads=t), size, "B"),
            f"hash_files sha256, {nfiles:,} files of 4 KiB ({-(-nfiles // pdask.BATCH_FILES)} tasks)": (
                lambda c: pdask.hash_files(files, "sha256", client=c),
                lambda t: merkle.hash_files(files, "sha256", threads=t), nfiles, "files"),
            f"verify_batch, {nsig:,} ECDSA signatures": (
                lambda c: pdask.verify_batch(sigs, client=c),
                lambda t: ecdsa.verify_batch([(ecdsa.load_public_key(k), m, s) for k, m, s in sigs], threads=t),
                nsig, "signatures"),
            f"encrypt_large, one {size >> 20} MiB file": (
                lambda c: pdask.encrypt_large(big, out, key=key, part_size=part, overwrite=True, client=c),
                lambda t: stream.encrypt_file(big, out, key=key, overwrite=True, threads=t), size, "B"),
        }
        for workers in (1, 2):
            with distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                          dashboard_address=None) as cluster, distributed.Client(cluster) as c:
                for name, (on_cluster, local, count, unit) in tasks.items():
                    t = median(lambda: on_cluster(c), args.repeats)
                    rows.append((name, f"dask, {workers} worker process{'es' if workers > 1 else ''}", t, count, unit))
                    print(rows[-1], flush=True)
                if workers == 2:
                    n = 1000
                    t = median(lambda: c.gather([c.submit(int, i, pure=False) for i in range(n)]), 3)
                    notes.append(f"Per-task overhead on this 2-worker LocalCluster: {t / n * 1e3:.2f} ms "
                                 f"({n} trivial tasks in {t:.2f} s).")
        rng = pdask.CompactRange.from_leaves("rfc6962", 0, b"x" * part, leaf_size=4096) if hasattr(pdask, "CompactRange") else None
        if rng is not None:
            notes.append(f"Bytes moved per merkle_root task: one compact range of {len(rng.to_bytes())} bytes "
                         f"(a {part >> 20} MiB part); the file's bytes are read by the workers, not sent.")
        for name, (_, local, count, unit) in tasks.items():
            for threads in (1, 2):
                t = median(lambda: local(threads), args.repeats)
                rows.append((name, f"one process, threads={threads}", t, count, unit))
                print(rows[-1], flush=True)
    rows.sort(key=lambda r: list(tasks).index(r[0]))
    lines = [f"| task | how | median (s) | rate |", "|---|---|---|---|"]
    for name, how, t, count, unit in rows:
        rate = f"{count / t / 1e9:.2f} GB/s" if unit == "B" else f"{count / t:,.0f} {unit}/s"
        lines.append(f"| {name} | {how} | {t:.3f} | {rate} |")
    table = "\n".join(lines) + "\n\n" + "\n".join(notes) + "\n"
    print(table)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(table)


if __name__ == "__main__":
    main()
