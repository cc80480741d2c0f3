#!/usr/bin/env python3
"""parcrypt.dask on LocalClusters of 1 and 2 worker processes (1 thread
each), beside the single-machine call with the same total threads.

    python python/bench/dask_bench.py [--quick] [--repeats N] [--only NAME] [--markdown FILE]

Medians of --repeats rounds, every row of a task run once per round in turn
(interleaved: foreign load on a shared machine falls on all rows alike);
the clusters are started before timing (start-up is not counted). What the numbers show on one machine is the
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


def interleaved(runs, repeats):
    """Medians of ``repeats`` rounds, each round running every entry of
    ``runs`` once in turn (after one warm-up round): foreign load on a
    shared machine then falls on every row alike, not on whichever row
    happened to run during it."""
    samples = {name: [] for name in runs}
    for r in range(repeats + 1):
        order = list(runs)
        order = order[r % len(order):] + order[:r % len(order)]
        for name in order:
            t = time.perf_counter()
            runs[name]()
            if r:
                samples[name].append(time.perf_counter() - t)
    return {name: statistics.median(v) for name, v in samples.items()}


def traffic(client, call):
    """Runs ``call(client)`` once and says what crossed between processes:
    the tasks run, their summed compute time on the workers against the
    wall time (the rest, per task, is the cluster's overhead: scheduling,
    transfers, the driver's own work), the pickled size of every task's
    arguments sent from the driver (recorded around ``submit``, ``map`` and
    ``scatter``), and Dask's size of each task's result."""
    import pickle

    sent = [0]
    originals = {m: getattr(client, m) for m in ("submit", "map", "scatter")}

    def recording(method):
        def wrapper(*args, **kwargs):
            sent[0] += len(pickle.dumps((args[1:] if method != "scatter" else args, kwargs)))
            return originals[method](*args, **kwargs)
        return wrapper

    call(client)  # warm: the timed run below is like the rows' runs
    for m in originals:
        setattr(client, m, recording(m))
    try:
        with distributed.get_task_stream(client=client) as ts:
            t = time.perf_counter()
            call(client)
            wall = time.perf_counter() - t
    finally:
        for m in originals:
            delattr(client, m)
    tasks = [x for x in ts.data if x.get("status") == "OK"]
    compute = sum(s["stop"] - s["start"] for x in tasks for s in x["startstops"] if s["action"] == "compute")
    back = sum(x.get("nbytes", 0) for x in tasks)
    workers = len(client.scheduler_info()["workers"])
    return (f"{len(tasks)} tasks, {wall:.3f} s wall, {compute:.3f} s of compute on the workers; overhead "
            f"{(wall * workers - compute) / max(1, len(tasks)) * 1e3:.1f} ms per task ((wall x workers - compute) "
            f"/ tasks); {sent[0]:,} bytes of task arguments to the workers, {back:,} bytes of results back.")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--markdown")
    ap.add_argument("--only", help="run only the tasks whose name contains this (e.g. verify_batch)")
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
        parts = {w: len(pdask._cut(size, 4096, pdask.DEFAULT_PART, w)) for w in (1, 2)}
        batches = {w: len(pdask._batches(nfiles, w)) for w in (1, 2)}
        packed = [pdask._pack(sigs[i:i + nsig // 8], False) for i in range(0, nsig, nsig // 8)]
        packed_bytes = sum(len(k) for p in packed for k in p[0]) + sum(len(b) for p in packed for b in p[1:])
        tasks = {
            f"merkle_root rfc6962, one {size >> 20} MiB file ({parts[2]} tasks of {size // parts[2] >> 20} MiB)": (
                lambda c: pdask.merkle_root(big, "rfc6962", client=c),
                lambda t: merkle.hash_file(big, "rfc6962", threads=t), size, "B"),
            f"hash_files sha256, {nfiles:,} files of 4 KiB ({batches[2]} tasks on 2 workers, {batches[1]} on 1)": (
                lambda c: pdask.hash_files(files, "sha256", client=c),
                lambda t: merkle.hash_files(files, "sha256", threads=t), nfiles, "files"),
            f"verify_batch, {nsig:,} ECDSA signatures (8 tasks on 2 workers, 4 on 1)": (
                lambda c: pdask.verify_batch(sigs, client=c),
                lambda t: ecdsa.verify_batch([(ecdsa.load_public_key(k), m, s) for k, m, s in sigs], threads=t),
                nsig, "signatures"),
            f"encrypt_large, one {size >> 20} MiB file": (
                lambda c: pdask.encrypt_large(big, out, key=key, part_size=part, overwrite=True, client=c),
                lambda t: stream.encrypt_file(big, out, key=key, overwrite=True, threads=t), size, "B"),
        }
        tasks = {k: v for k, v in tasks.items() if args.only is None or args.only in k}
        load = os.getloadavg()
        clusters = {w: distributed.LocalCluster(n_workers=w, threads_per_worker=1, processes=True,
                                                dashboard_address=None) for w in (1, 2)}
        clients = {w: distributed.Client(cl) for w, cl in clusters.items()}
        try:
            for name, (on_cluster, local, count, unit) in tasks.items():
                runs = {"dask, 1 worker process": lambda: on_cluster(clients[1]),
                        "dask, 2 worker processes": lambda: on_cluster(clients[2]),
                        "one process, threads=1": lambda: local(1),
                        "one process, threads=2": lambda: local(2)}
                for how, t in interleaved(runs, args.repeats).items():
                    rows.append((name, how, t, count, unit))
                    print(rows[-1], flush=True)
                # Right after its timed rows, with the same inputs in the
                # page cache (a later task may evict them).
                notes.append(f"{name.split(',')[0]}, one more run on 2 workers: " + traffic(clients[2], on_cluster))
                print(notes[-1], flush=True)
            c = clients[2]
            n = 1000
            t = interleaved({"trivial": lambda: c.gather([c.submit(int, i, pure=False) for i in range(n)])}, 3)
            notes.append(f"Per-task overhead on the 2-worker LocalCluster: {t['trivial'] / n * 1e3:.2f} ms "
                         f"({n} trivial tasks in {t['trivial']:.2f} s).")
        finally:
            for c in clients.values():
                c.close()
            for cl in clusters.values():
                cl.close()
        load_after = os.getloadavg()
        notes.append(f"Bytes moved by verify_batch: {packed_bytes:,} bytes of flat buffers to the workers "
                     f"({packed_bytes / nsig:.0f} per signature, keys once per part) and one bool per signature "
                     "back.")
        notes.append(f"Machine load (1-minute average) {load[0]:.1f} before, {load_after[0]:.1f} after the "
                     f"cluster rows, on {os.cpu_count()} CPUs: the machine is shared, numbers are noisy.")
    order = ["dask, 1 worker process", "dask, 2 worker processes", "one process, threads=1", "one process, threads=2"]
    rows.sort(key=lambda r: (list(tasks).index(r[0]), order.index(r[1])))
    at = {(name, how): t for name, how, t, _, _ in rows}
    for name in tasks:
        two, one, local2 = (at[name, how] for how in (order[1], order[0], order[3]))
        notes.append(f"{name.split(',')[0]}: 2 workers {one / two:.2f}x a 1-worker cluster, "
                     f"{local2 / two:.2f}x one process with 2 threads.")
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
