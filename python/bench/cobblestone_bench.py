#!/usr/bin/env python3
"""parcrypt.cobblestone against pyca's cryptography.cobblestone, same run.

    python python/bench/cobblestone_bench.py [--repeats 7] [--into-mib 64] [--new-mib 256]

Rows (medians of interleaved runs, one message per run, after a warm-up):
- update_into a reused buffer, 64 MiB: pyca's Cobblestone128Encryptor /
  Decryptor against parcrypt's with threads=1 and threads=0 (every core);
- new bytes, 256 MiB: pyca's update() + finalize() against
  parcrypt.cobblestone.encrypt / decrypt (every core);
- with --dask-mib N (0: skipped): a file of N MiB encrypted and decrypted
  by parcrypt.dask.cobblestone_encrypt / _decrypt on a 2-worker
  LocalCluster (started once, not timed) against one process's
  cobblestone.encrypt_file / decrypt_file (every core), files in --dir.

Prints the machine (CPU model, cores) and the load average before and
after, since a busy machine changes the numbers. Needs cryptography>=50.
"""

import argparse
import os
import platform
import statistics
import time

import parcrypt
from parcrypt import cobblestone


def interleaved(fns, repeats):
    """Median seconds of each function in `fns`, run in turns after one warm-up each."""
    for fn in fns.values():
        fn()
    samples = {name: [] for name in fns}
    for _ in range(repeats):
        for name, fn in fns.items():
            start = time.perf_counter()
            fn()
            samples[name].append(time.perf_counter() - start)
    return {name: statistics.median(t) for name, t in samples.items()}


def cpu_model():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--into-mib", type=int, default=64)
    ap.add_argument("--new-mib", type=int, default=256)
    ap.add_argument("--dask-mib", type=int, default=0)
    ap.add_argument("--dir", default=".", help="where --dask-mib writes its files")
    args = ap.parse_args()
    from cryptography import __version__ as pyca_version
    from cryptography import cobblestone as pyca

    print(f"CPU: {cpu_model()}, {os.cpu_count()} logical CPUs, parcrypt threads=0 -> "
          f"{parcrypt.available_threads()}; cryptography {pyca_version}; parcrypt {parcrypt.__version__}")
    print(f"load average before: {os.getloadavg()}")
    key, ctx = os.urandom(16), b"bench"

    n = args.into_mib << 20
    data = os.urandom(n)
    sealed_buf = bytearray(cobblestone.sealed_len(n))
    plain_buf = bytearray(n)
    enc = pyca.Cobblestone128Encryptor(key, ctx)
    sealed = enc.update(data) + enc.finalize()
    sealed_view = memoryview(sealed)

    def enc_into(make):
        def run():
            e = make()
            w = e.update_into(data, sealed_buf)
            last = e.finalize()
            assert w + len(last) == len(sealed_buf)
        return run

    def dec_into(make):
        def run():
            d = make()
            w = d.update_into(sealed_view, plain_buf)
            assert w + len(d.finalize()) == n
        return run

    rows = []
    enc_rows = interleaved({
        "pyca": enc_into(lambda: pyca.Cobblestone128Encryptor(key, ctx)),
        "parcrypt threads=1": enc_into(lambda: cobblestone.Cobblestone128Encryptor(key, ctx, threads=1)),
        "parcrypt threads=0": enc_into(lambda: cobblestone.Cobblestone128Encryptor(key, ctx)),
    }, args.repeats)
    rows.append((f"update_into encrypt, {args.into_mib} MiB, reused buffer", enc_rows, n))
    dec_rows = interleaved({
        "pyca": dec_into(lambda: pyca.Cobblestone128Decryptor(key, ctx)),
        "parcrypt threads=1": dec_into(lambda: cobblestone.Cobblestone128Decryptor(key, ctx, threads=1)),
        "parcrypt threads=0": dec_into(lambda: cobblestone.Cobblestone128Decryptor(key, ctx)),
    }, args.repeats)
    rows.append((f"update_into decrypt, {args.into_mib} MiB, reused buffer", dec_rows, n))
    del sealed, sealed_view, sealed_buf, plain_buf, data

    m = args.new_mib << 20
    big = os.urandom(m)
    enc = pyca.Cobblestone128Encryptor(key, ctx)
    big_sealed = enc.update(big) + enc.finalize()

    def pyca_enc():
        e = pyca.Cobblestone128Encryptor(key, ctx)
        e.update(big) + e.finalize()

    def pyca_dec():
        d = pyca.Cobblestone128Decryptor(key, ctx)
        d.update(big_sealed) + d.finalize()

    rows.append((f"new bytes encrypt, {args.new_mib} MiB", interleaved({
        "pyca update()+finalize()": pyca_enc,
        "parcrypt encrypt()": lambda: cobblestone.encrypt(key, big, ctx),
    }, args.repeats), m))
    rows.append((f"new bytes decrypt, {args.new_mib} MiB", interleaved({
        "pyca update()+finalize()": pyca_dec,
        "parcrypt decrypt()": lambda: cobblestone.decrypt(key, big_sealed, ctx),
    }, args.repeats), m))
    del big, big_sealed
    if args.dask_mib:
        rows.extend(dask_rows(args, key, ctx))
    print(f"load average after: {os.getloadavg()}")
    print()
    print("| task | implementation | median ms | GB/s | vs the task's first row |")
    print("|---|---|---|---|---|")
    for task, times, size in rows:
        base = next(iter(times.values()))  # the first row of each task is the reference
        for name, t in times.items():
            print(f"| {task} | {name} | {t * 1e3:.1f} | {size / t / 1e9:.2f} | {base / t:.2f}x |")


def dask_rows(args, key, ctx):
    import distributed

    from parcrypt import dask as pdask

    size = args.dask_mib << 20
    src, enc, out = (os.path.join(args.dir, f"cob-bench.{x}") for x in ("plain", "cob", "out"))
    with open(src, "wb") as f:
        for _ in range(args.dask_mib):
            f.write(os.urandom(1 << 20))
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    try:
        with cluster, distributed.Client(cluster) as client:
            enc_times = interleaved({
                "one process encrypt_file": lambda: cobblestone.encrypt_file(key, src, enc, ctx, overwrite=True),
                "dask, 2 workers": lambda: pdask.cobblestone_encrypt(src, enc, key, ctx, client=client,
                                                                     overwrite=True),
            }, args.repeats)
            dec_times = interleaved({
                "one process decrypt_file": lambda: cobblestone.decrypt_file(key, enc, out, ctx, overwrite=True),
                "dask, 2 workers": lambda: pdask.cobblestone_decrypt(enc, out, key, ctx, client=client,
                                                                     overwrite=True),
            }, args.repeats)
    finally:
        for p in (src, enc, out):
            if os.path.exists(p):
                os.unlink(p)
    return [(f"file encrypt, {args.dask_mib} MiB", enc_times, size),
            (f"file decrypt, {args.dask_mib} MiB", dec_times, size)]


if __name__ == "__main__":
    main()
