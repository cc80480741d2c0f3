#!/usr/bin/env python3
"""One ML-DSA / ML-KEM operation at a time: parcrypt against pyca/cryptography.

    python python/bench/pq_single.py [--rounds N] [--block-ms MS] [--only TEXT]

Issue #51 asks that one sign / verify / keygen / encapsulate / decapsulate
through `parcrypt.mldsa` / `parcrypt.mlkem` be within 1.1x of pyca's
(`cryptography.hazmat.primitives.asymmetric.mldsa` / `mlkem`, 50 or later).
In one process, for each operation, the two implementations run in turns:
each round times a block of calls of one, then of the other (the order
alternating round to round, so neither always runs first), on the same key
(both made from the same seed) and the same message; the per-call time is
the block's time over its calls. The table gives each side's median over
the rounds and the median of the rounds' ratios parcrypt / pyca (each
round's two turns run back to back; <= 1.10 meets the line, < 1 is
parcrypt faster). ML-KEM-512 has no pyca class: its rows show parcrypt
alone.

Needs a release build of the package (`pip install ./python` builds one)
and cryptography >= 50 in the same environment. Timing on a loaded machine
is indicative only: the header prints the load average before and after.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import time
from typing import Callable

import parcrypt
from parcrypt import mldsa as p_mldsa
from parcrypt import mlkem as p_mlkem

try:
    import cryptography
    from cryptography.hazmat.primitives.asymmetric import mldsa as c_mldsa
    from cryptography.hazmat.primitives.asymmetric import mlkem as c_mlkem
except ImportError as e:  # pragma: no cover - the bench's own precondition
    sys.exit(f"pq_single.py needs pyca/cryptography >= 50 (mldsa, mlkem): {e}")

MESSAGE = b"a 32-byte message signed once..."
CONTEXT = None

Op = Callable[[], object]


def cpu_model() -> str:
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return platform.processor() or "unknown CPU"
    fields = {}
    for line in out.splitlines():
        key, _, value = line.partition(":")
        fields[key.strip()] = value.strip()
    return (
        f'"{fields.get("Model name", "?")}" family {fields.get("CPU family", "?")} '
        f'model {fields.get("Model", "?")}, {fields.get("CPU(s)", "?")} CPUs'
    )


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def per_call(op: Op, calls: int) -> float:
    t = time.perf_counter()
    for _ in range(calls):
        op()
    return (time.perf_counter() - t) / calls


def calls_for(op: Op, block_s: float) -> int:
    """How many calls make a block of about `block_s` seconds."""
    op()  # warm: first-call costs (imports, lazy tables) are not timed
    n = 1
    while True:
        t = per_call(op, n) * n
        if t >= block_s / 4 or n >= 1 << 20:
            return max(1, int(n * block_s / max(t, 1e-9)))
        n *= 4


def paired(ours: Op, theirs: Op | None, rounds: int, block_s: float) -> tuple[float, float | None, float | None]:
    """Median per-call seconds of each, timed in alternating turns, and the
    median of the rounds' ratios (ours / theirs): each round's two turns run
    back to back, so a round's ratio is little moved by what else the
    machine did meanwhile, where the medians of the times are."""
    n_ours = calls_for(ours, block_s)
    n_theirs = calls_for(theirs, block_s) if theirs else 0
    a: list[float] = []
    b: list[float] = []
    for r in range(rounds):
        if theirs is not None and r % 2:
            b.append(per_call(theirs, n_theirs))
            a.append(per_call(ours, n_ours))
        else:
            a.append(per_call(ours, n_ours))
            if theirs is not None:
                b.append(per_call(theirs, n_theirs))
    if not b:
        return statistics.median(a), None, None
    ratios = [x / y for x, y in zip(a, b)]
    return statistics.median(a), statistics.median(b), statistics.median(ratios)


def mldsa_ops(n: int) -> list[tuple[str, Op, Op | None]]:
    ours_priv = getattr(p_mldsa, f"MLDSA{n}PrivateKey")
    ours_pub = getattr(p_mldsa, f"MLDSA{n}PublicKey")
    theirs_priv = getattr(c_mldsa, f"MLDSA{n}PrivateKey")
    theirs_pub = getattr(c_mldsa, f"MLDSA{n}PublicKey")
    seed = bytes(range(32))
    ours = ours_priv.from_seed_bytes(seed)
    theirs = theirs_priv.from_seed_bytes(seed)
    assert ours.public_key().public_bytes_raw() == theirs.public_key().public_bytes_raw()
    ours_pk, theirs_pk = ours.public_key(), theirs.public_key()
    raw_pk = ours_pk.public_bytes_raw()
    ours_sig = ours.sign(MESSAGE, CONTEXT)
    theirs_sig = theirs.sign(MESSAGE, CONTEXT)
    # Each verifies the other's: the bench times the same work on both sides.
    ours_pk.verify(theirs_sig, MESSAGE, CONTEXT)
    theirs_pk.verify(ours_sig, MESSAGE, CONTEXT)
    name = f"ML-DSA-{n}"
    return [
        (f"{name} generate", ours_priv.generate, theirs_priv.generate),
        (f"{name} from_seed_bytes", lambda: ours_priv.from_seed_bytes(seed), lambda: theirs_priv.from_seed_bytes(seed)),
        (f"{name} sign", lambda: ours.sign(MESSAGE, CONTEXT), lambda: theirs.sign(MESSAGE, CONTEXT)),
        (f"{name} verify", lambda: ours_pk.verify(ours_sig, MESSAGE, CONTEXT), lambda: theirs_pk.verify(ours_sig, MESSAGE, CONTEXT)),
        (f"{name} from_public_bytes", lambda: ours_pub.from_public_bytes(raw_pk), lambda: theirs_pub.from_public_bytes(raw_pk)),
        (f"{name} private_bytes_raw", ours.private_bytes_raw, theirs.private_bytes_raw),
        (f"{name} public_bytes_raw", ours_pk.public_bytes_raw, theirs_pk.public_bytes_raw),
    ]


def mlkem_ops(n: int) -> list[tuple[str, Op, Op | None]]:
    ours_priv = getattr(p_mlkem, f"MLKEM{n}PrivateKey")
    ours_pub = getattr(p_mlkem, f"MLKEM{n}PublicKey")
    theirs_priv = getattr(c_mlkem, f"MLKEM{n}PrivateKey", None)
    theirs_pub = getattr(c_mlkem, f"MLKEM{n}PublicKey", None)
    seed = bytes(range(64))
    ours = ours_priv.from_seed_bytes(seed)
    ours_pk = ours.public_key()
    raw_pk = ours_pk.public_bytes_raw()
    _, ct = ours_pk.encapsulate()
    name = f"ML-KEM-{n}"
    if theirs_priv is None:
        return [
            (f"{name} generate", ours_priv.generate, None),
            (f"{name} from_seed_bytes", lambda: ours_priv.from_seed_bytes(seed), None),
            (f"{name} encapsulate", ours_pk.encapsulate, None),
            (f"{name} decapsulate", lambda: ours.decapsulate(ct), None),
            (f"{name} from_public_bytes", lambda: ours_pub.from_public_bytes(raw_pk), None),
        ]
    theirs = theirs_priv.from_seed_bytes(seed)
    theirs_pk = theirs.public_key()
    assert theirs_pk.public_bytes_raw() == raw_pk
    ss, ct2 = theirs_pk.encapsulate()
    assert ours.decapsulate(ct2) == ss
    return [
        (f"{name} generate", ours_priv.generate, theirs_priv.generate),
        (f"{name} from_seed_bytes", lambda: ours_priv.from_seed_bytes(seed), lambda: theirs_priv.from_seed_bytes(seed)),
        (f"{name} encapsulate", ours_pk.encapsulate, theirs_pk.encapsulate),
        (f"{name} decapsulate", lambda: ours.decapsulate(ct), lambda: theirs.decapsulate(ct)),
        (f"{name} from_public_bytes", lambda: ours_pub.from_public_bytes(raw_pk), lambda: theirs_pub.from_public_bytes(raw_pk)),
        (f"{name} private_bytes_raw", ours.private_bytes_raw, theirs.private_bytes_raw),
    ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=11, help="timed turns of each (default 11; medians)")
    ap.add_argument("--block-ms", type=float, default=40.0, help="each turn's length in ms (default 40)")
    ap.add_argument("--only", default="", help="rows whose name contains this text (e.g. ML-KEM-768)")
    args = ap.parse_args()
    if args.rounds < 1 or args.block_ms <= 0:
        ap.error("--rounds must be >= 1 and --block-ms > 0")

    before = load()
    ops = [op for n in (44, 65, 87) for op in mldsa_ops(n)]
    ops += [op for n in (512, 768, 1024) for op in mlkem_ops(n)]
    ops = [op for op in ops if args.only in op[0]]
    rows = []
    for name, ours, theirs in ops:
        rows.append((name, *paired(ours, theirs, args.rounds, args.block_ms / 1000)))

    print(f"parcrypt {parcrypt.__version__} | cryptography {cryptography.__version__} "
          f"| Python {platform.python_version()} | {cpu_model()}")
    print(f"load average before: {before}; after: {load()}; {args.rounds} rounds of "
          f"~{args.block_ms:g} ms each, interleaved; medians per call")
    print(f"command: {sys.executable} {' '.join(sys.argv)}")
    print()
    print("| operation | parcrypt µs | pyca µs | parcrypt ÷ pyca |")
    print("|---|---:|---:|---:|")
    worst = 0.0
    for name, a, b, ratio in rows:
        if b is None or ratio is None:
            print(f"| {name} | {a * 1e6:.1f} | – | – |")
            continue
        if not name.endswith("_raw"):
            worst = max(worst, ratio)
        print(f"| {name} | {a * 1e6:.1f} | {b * 1e6:.1f} | {ratio:.2f} |")
    print()
    print(f"worst ratio of generate/sign/verify/encapsulate/decapsulate/from_*: {worst:.2f} "
          f"(issue #51: within 1.10)")


if __name__ == "__main__":
    main()
