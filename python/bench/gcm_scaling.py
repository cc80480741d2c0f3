#!/usr/bin/env python3
"""How `AESGCM.encrypt` (a new `bytes`, as pyca's) scales from 1 to 2 threads,
beside `encrypt_into` a buffer allocated once (no fresh memory: the ceiling).

    python python/bench/gcm_scaling.py [--mib 64] [--rounds 9] [--json]

Every round runs each row once, in rotating order (foreign load on a shared
machine falls on all rows alike), after a warm-up round; medians. Besides
the wall time each row reports what load does not change: the process's
CPU time (user + system, all threads), the calling thread's own CPU time
(work the pool's threads did not share) and its minor page faults per call
(`getrusage`): a fresh 64 MiB output costs 16,384 faults in 4 KiB pages,
32 where the kernel grants 2 MiB pages.
"""

import argparse
import json
import os
import resource
import statistics
import time

from parcrypt.aead import AESGCM


def measure(call):
    r0, c0, t0 = resource.getrusage(resource.RUSAGE_SELF), time.process_time(), time.perf_counter()
    s0 = time.thread_time()
    out = call()
    s1 = time.thread_time()
    t1, c1, r1 = time.perf_counter(), time.process_time(), resource.getrusage(resource.RUSAGE_SELF)
    del out  # freed outside the timing, as a caller's result is later
    return t1 - t0, c1 - c0, s1 - s0, r1.ru_minflt - r0.ru_minflt


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mib", type=int, default=64)
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--json", action="store_true", help="one JSON object instead of the table")
    args = ap.parse_args()
    n = args.mib << 20
    data, nonce, key = os.urandom(n), b"\x01" * 12, bytes(range(32))
    out = bytearray(n + 16)
    rows = {}
    for threads in (1, 2):
        gcm = AESGCM(key, threads=threads)
        rows[f"encrypt threads={threads}"] = lambda g=gcm: g.encrypt(nonce, data, None)
        rows[f"encrypt_into threads={threads}"] = lambda g=gcm: g.encrypt_into(nonce, data, None, out)
    samples = {name: [] for name in rows}
    names = list(rows)
    for r in range(args.rounds + 1):
        for name in names[r % len(names):] + names[:r % len(names)]:
            s = measure(rows[name])
            if r:
                samples[name].append(s)
    med = {name: [statistics.median(x[i] for x in v) for i in range(4)] for name, v in samples.items()}
    result = {
        "mib": args.mib, "rounds": args.rounds, "loadavg": os.getloadavg(),
        "rows": {name: {"wall_s": m[0], "cpu_s": m[1], "caller_cpu_s": m[2], "minflt": m[3]}
                 for name, m in med.items()},
        "speedup_encrypt": med["encrypt threads=1"][0] / med["encrypt threads=2"][0],
        "speedup_encrypt_into": med["encrypt_into threads=1"][0] / med["encrypt_into threads=2"][0],
    }
    if args.json:
        print(json.dumps(result))
        return
    print(f"AES-256-GCM of {args.mib} MiB, medians of {args.rounds} interleaved rounds, load average "
          + " ".join(f"{x:.2f}" for x in result["loadavg"]))
    print(f"{'row':<24} {'wall ms':>9} {'GB/s':>7} {'CPU ms':>8} {'caller ms':>9} {'faults':>8}")
    for name, (wall, cpu, caller, flt) in med.items():
        print(f"{name:<24} {wall * 1e3:9.2f} {n / wall / 1e9:7.2f} {cpu * 1e3:8.2f} {caller * 1e3:9.2f} {flt:8.0f}")
    print(f"1 -> 2 threads: encrypt (new bytes) {result['speedup_encrypt']:.2f}x, "
          f"encrypt_into (reused buffer) {result['speedup_encrypt_into']:.2f}x")


if __name__ == "__main__":
    main()
