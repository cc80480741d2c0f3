#!/usr/bin/env python3
"""parcrypt from Python against the libraries Python users have, same run.

    python python/bench/bench.py [--quick] [--csv FILE] [--markdown FILE]

Needs parcrypt installed (pip install ./python) and, as peers, `cryptography`
(AES-GCM, AES-CTR, ECDSA, RSA key generation), `pyrage` (age) and `pymerkle` (an RFC 6962
tree in pure Python); a hashlib level-by-level RFC 6962 root is written
here. A missing peer is reported as absent, never skipped silently. Times
are medians of repeated runs (best-of is not used: medians are what a user
sees); ratios are peer time / parcrypt time (above 1 = parcrypt faster).
"""

import argparse
import csv
import hashlib
import os
import statistics
import sys
import time

import parcrypt
from parcrypt import ecdsa, merkle, rsa
from parcrypt.aead import AESGCM
from parcrypt import ciphers


def median_time(fn, repeats, number=1):
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        samples.append((time.perf_counter() - start) / number)
    return statistics.median(samples)


def interleaved_medians(fns, repeats):
    """The median time of each of `fns` (a dict), running them in turns."""
    for fn in fns.values():
        fn()  # warm-up: pools, tables, first-use allocations
    samples = {name: [] for name in fns}
    for _ in range(repeats):
        for name, fn in fns.items():
            start = time.perf_counter()
            fn()
            samples[name].append(time.perf_counter() - start)
    return {name: statistics.median(times) for name, times in samples.items()}


def level_by_level(leaves):
    """RFC 6962 root with hashlib, one level at a time (what ParalCrypto-style code does)."""
    level = [hashlib.sha256(b"\x00" + l).digest() for l in leaves]
    # RFC 6962 splits at the largest power of two below n; pairing left to
    # right and promoting an odd last node gives the same root.
    while len(level) > 1:
        nxt = [hashlib.sha256(b"\x01" + level[i] + level[i + 1]).digest() for i in range(0, len(level) - 1, 2)]
        if len(level) % 2:
            nxt.append(level[-1])
        level = nxt
    return level[0]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="smaller inputs and fewer repeats")
    ap.add_argument("--csv", help="write the rows here")
    ap.add_argument("--markdown", help="write the table here")
    ap.add_argument("--keygen-threads", help="thread counts for RSA key generation, e.g. 1,2,4,8,16 "
                    "(default: 1 and all cores)")
    args = ap.parse_args()
    quick = args.quick
    reps = 3 if quick else 7
    cores = parcrypt.available_threads()
    rows = []  # task, implementation, seconds, unit count, unit

    def add(task, impl, seconds, count, unit):
        rows.append((task, impl, seconds, count, unit))
        print(f"{task:40} {impl:34} {seconds * 1e3:10.3f} ms  {count / seconds:14,.0f} {unit}/s", flush=True)

    absent = {}
    try:
        from cryptography.hazmat.primitives import hashes
        from cryptography.hazmat.primitives.asymmetric import ec as ref_ec
        from cryptography.hazmat.primitives.asymmetric import rsa as ref_rsa
        from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM as RefAESGCM
        import cryptography
    except ImportError as e:
        absent["cryptography"] = str(e)
        cryptography = None
    try:
        import pyrage
    except ImportError as e:
        absent["pyrage"] = f"{e} (pip install pyrage)"
        pyrage = None
    try:
        from pymerkle import InmemoryTree
    except ImportError as e:
        absent["pymerkle"] = f"{e} (pip install pymerkle)"
        InmemoryTree = None

    size = (16 if quick else 64) << 20
    data, key, nonce, iv = os.urandom(size), os.urandom(32), os.urandom(12), os.urandom(16)
    task = f"AES-256-GCM encrypt, {size >> 20} MiB"
    if cryptography:
        ref = RefAESGCM(key)
        add(task, "cryptography", median_time(lambda: ref.encrypt(nonce, data, None), reps), size, "B")
    add(task, "parcrypt threads=1", median_time(lambda: AESGCM(key, threads=1).encrypt(nonce, data, None), reps), size, "B")
    add(task, f"parcrypt threads={cores}", median_time(lambda: AESGCM(key).encrypt(nonce, data, None), reps), size, "B")
    task = f"AES-256-GCM decrypt, {size >> 20} MiB"
    sealed = AESGCM(key).encrypt(nonce, data, None)
    if cryptography:
        add(task, "cryptography", median_time(lambda: ref.decrypt(nonce, sealed, None), reps), size, "B")
    add(task, "parcrypt threads=1", median_time(lambda: AESGCM(key, threads=1).decrypt(nonce, sealed, None), reps), size, "B")
    add(task, f"parcrypt threads={cores}", median_time(lambda: AESGCM(key).decrypt(nonce, sealed, None), reps), size, "B")
    task = f"AES-256-CTR, {size >> 20} MiB"
    if cryptography:
        def ref_ctr():
            e = Cipher(algorithms.AES(key), modes.CTR(iv)).encryptor()
            return e.update(data) + e.finalize()
        add(task, "cryptography", median_time(ref_ctr, reps), size, "B")
    add(task, "parcrypt threads=1", median_time(lambda: ciphers.encrypt("ctr", key, iv, data, threads=1), reps), size, "B")
    add(task, f"parcrypt threads={cores}", median_time(lambda: ciphers.encrypt("ctr", key, iv, data), reps), size, "B")

    # The same work into a buffer allocated once: a fresh 64 MiB `bytes` per
    # call costs page faults (16,384 of them with 4 KiB pages; parcrypt asks
    # for huge pages and faults them in on all its threads), which a reused
    # buffer does not.
    out = bytearray(size + 16)
    inplace = bytearray(size + 16)
    inplace[:size] = data
    task = f"AES-256-GCM into a reused buffer, {size >> 20} MiB"
    if cryptography:
        add(task, "cryptography encrypt (new bytes)", median_time(lambda: ref.encrypt(nonce, data, None), reps), size, "B")
        if hasattr(ref, "encrypt_into"):
            add(task, "cryptography encrypt_into", median_time(lambda: ref.encrypt_into(nonce, data, None, out), reps), size, "B")
    for threads in (1, cores):
        ours = AESGCM(key, threads=threads)
        add(task, f"parcrypt encrypt_into threads={threads}",
            median_time(lambda: ours.encrypt_into(nonce, data, None, out), reps), size, "B")
        add(task, f"parcrypt encrypt_into in place threads={threads}",
            median_time(lambda: ours.encrypt_into(nonce, memoryview(inplace)[:size], None, inplace), reps), size, "B")
    out = bytearray(size + 15)
    task = f"AES-256-CTR update_into a reused buffer, {size >> 20} MiB"
    if cryptography:
        add(task, "cryptography update_into",
            median_time(lambda: Cipher(algorithms.AES(key), modes.CTR(iv)).encryptor().update_into(data, out), reps),
            size, "B")
    for threads in (1, cores):
        add(task, f"parcrypt update_into threads={threads}",
            median_time(lambda: ciphers.encryptor("ctr", key, iv, threads=threads).update_into(data, out), reps),
            size, "B")
    del out, inplace

    # age (parcrypt.age) beside pyrage (rage's Rust library; one core), X25519 recipient.
    from parcrypt import age
    me = age.Identity.generate()
    task = f"age encrypt (X25519), {size >> 20} MiB"
    if pyrage:
        their_recipient = pyrage.x25519.Recipient.from_str(str(me.to_public()))
        add(task, "pyrage", median_time(lambda: pyrage.encrypt(data, [their_recipient]), reps), size, "B")
    for threads in (1, cores):
        add(task, f"parcrypt threads={threads}",
            median_time(lambda: age.encrypt(data, [me.to_public()], threads=threads), reps), size, "B")
    sealed = age.encrypt(data, [me.to_public()])
    task = f"age decrypt (X25519), {size >> 20} MiB"
    if pyrage:
        their_identity = pyrage.x25519.Identity.from_str(str(me))
        add(task, "pyrage", median_time(lambda: pyrage.decrypt(sealed, [their_identity]), reps), size, "B")
    for threads in (1, cores):
        add(task, f"parcrypt threads={threads}",
            median_time(lambda: age.decrypt(sealed, [me], threads=threads), reps), size, "B")
    del sealed

    task = "AES-256-GCM, one 16-byte message"
    small = os.urandom(16)
    if cryptography:
        add(task, "cryptography", median_time(lambda: ref.encrypt(nonce, small, None), reps, 20000), 1, "call")
    ours = AESGCM(key)
    add(task, "parcrypt", median_time(lambda: ours.encrypt(nonce, small, None), reps, 20000), 1, "call")

    n = 100_000 if quick else 1_000_000
    leaves = [os.urandom(64) for _ in range(n)]
    flat = b"".join(leaves)
    task = f"RFC 6962 root, {n:,} leaves of 64 B"
    add(task, "hashlib, level by level", median_time(lambda: level_by_level(leaves), max(1, reps // 2)), n, "leaves")
    if InmemoryTree:
        m = min(n, 100_000)

        def pym():
            t = InmemoryTree(algorithm="sha256")
            for leaf in leaves[:m]:
                t.append_entry(leaf)
            return t.get_root() if hasattr(t, "get_root") else t.get_state()
        add(task + f" (pymerkle: first {m:,})", "pymerkle", median_time(pym, 1), m, "leaves")
    add(task, "parcrypt threads=1, list", median_time(lambda: merkle.root(leaves, threads=1), reps), n, "leaves")
    add(task, f"parcrypt threads={cores}, list", median_time(lambda: merkle.root(leaves), reps), n, "leaves")
    add(task, f"parcrypt threads={cores}, one buffer", median_time(lambda: merkle.root(flat, leaf_size=64), reps), n, "leaves")
    assert merkle.root(leaves) == level_by_level(leaves)

    count = 256 if quick else 1024
    sk = ecdsa.generate_private_key()
    msgs = [os.urandom(100) for _ in range(count)]
    items = [(sk.public_key(), msg, sk.sign(msg)) for msg in msgs]
    task = f"ECDSA P-256 verify, {count} signatures"
    if cryptography:
        from cryptography.hazmat.primitives import serialization
        ref_pub = serialization.load_pem_public_key(sk.public_key().public_bytes())

        def ref_loop():
            for _, msg, sig in items:
                ref_pub.verify(sig, msg, ref_ec.ECDSA(hashes.SHA256()))
        add(task, "cryptography, a loop", median_time(ref_loop, reps), count, "signatures")
    add(task, "parcrypt verify_batch threads=1", median_time(lambda: ecdsa.verify_batch(items, threads=1), reps), count, "signatures")
    add(task, f"parcrypt verify_batch threads={cores}", median_time(lambda: ecdsa.verify_batch(items), reps), count, "signatures")

    # Key generation times spread widely (22-219 ms for one size): many
    # samples, taken in turns so that a burst of load elsewhere on the
    # machine falls on every implementation alike rather than on one.
    keys = 5 if quick else 101
    task = f"RSA-2048 key generation (median of {keys}, in turns)"
    gens = {}
    if cryptography:
        gens["cryptography"] = lambda: ref_rsa.generate_private_key(65537, 2048)
    keygen_threads = [int(t) for t in args.keygen_threads.split(",")] if args.keygen_threads else [1, cores]
    for t in dict.fromkeys(keygen_threads):
        gens[f"parcrypt threads={t}"] = lambda t=t: rsa.generate_private_key(2048, threads=t)
    for impl, seconds in interleaved_medians(gens, keys).items():
        add(task, impl, seconds, 1, "keys")

    versions = {"python": sys.version.split()[0], "parcrypt": parcrypt.__version__,
                "cryptography": getattr(cryptography, "__version__", "absent") if cryptography else "absent"}
    if InmemoryTree:
        import importlib.metadata as md
        versions["pymerkle"] = md.version("pymerkle")
    lines = [f"Python {versions['python']}, parcrypt {versions['parcrypt']}, cryptography {versions['cryptography']}"
             + (f", pymerkle {versions['pymerkle']}" if "pymerkle" in versions else "")
             + f"; {cores} threads; medians. Ratio = the first row of the task (the peer) / this row's time, per unit.",
             "", "| task | implementation | time | rate | vs peer |", "|---|---|---|---|---|"]
    first = {}
    for task, impl, seconds, count, unit in rows:
        base = task.split(" (pymerkle")[0]
        per = seconds / count
        ref = first.setdefault(base, per)
        ratio = "peer" if per == ref and impl == next(r[1] for r in rows if r[0].split(" (pymerkle")[0] == base) else f"{ref / per:.2f}×"
        t = f"{seconds * 1e6:.2f} µs" if seconds < 1e-3 else f"{seconds * 1e3:.1f} ms"
        lines.append(f"| {task} | {impl} | {t} | {count / seconds:,.0f} {unit}/s | {ratio} |")
    for k, v in absent.items():
        lines.append(f"\nAbsent peer {k}: {v}")
    table = "\n".join(lines) + "\n"
    print(table)
    if args.markdown:
        open(args.markdown, "w").write(table)
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["task", "implementation", "seconds", "count", "unit"])
            w.writerows(rows)


if __name__ == "__main__":
    main()
