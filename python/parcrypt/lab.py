"""The ParalCrypto paper's experiments, re-measured from Python.

    python -m parcrypt.lab [--repeats N] [--markdown FILE]

ParalCrypto (Python: numpy, pycryptodome, ProcessPoolExecutor) timed AES-CTR
encryption, AES-ECB encryption and decryption, AES-CBC decryption and a
level-by-level Merkle tree over 32-byte blocks, on a 512×512×3 image and a
300-byte text, sequentially and in parallel (its Tables 1, 3, 4, 5). This
runs the same operations on the same input sizes through parcrypt's Python
package — one call each — and prints the paper's seconds beside ours
(medians of --repeats runs, seconds). The paper's machine is not this one;
the point is the shape: the paper's parallel Python was slower than a
library call, and inputs this small stay on one thread in parcrypt (the
parallel path must never lose). The Rust lab (`parcrypt lab`) shows the
same table from Rust; its source of the paper's numbers is
crates/parcrypt-lab/src/papers.rs, copied here.
"""

import argparse
import os
import statistics
import time
import warnings

from parcrypt import available_threads, ciphers, merkle
from parcrypt.exceptions import HazmatWarning

IMAGE = 512 * 512 * 3
TEXT = 300

# (what, mode, paper image seq, paper image parallel, paper text seq, paper text parallel), seconds.
PAPER = [
    ("CTR encryption (Table 1)", "ctr-enc", 2.6472, 2.1453, 0.0024, 0.0021),
    ("ECB encryption (Table 3)", "ecb-enc", 0.9390, 0.1288, 0.000881, 0.000896),
    ("ECB decryption (Table 3)", "ecb-dec", 0.9473, 0.1274, 0.000596, 0.000606),
    ("CBC decryption (Table 4)", "cbc-dec", 1.9588, 0.3498, 0.0013, 0.0003),
    ("Merkle tree, 32-byte blocks (Table 5)", "merkle-32", 0.6698, 0.5767, 0.00158, 0.00055),
]


def operation(kind, data, key, iv, threads):
    if kind == "ctr-enc":
        return lambda: ciphers.encrypt("ctr", key, iv, data, threads=threads)
    if kind == "ecb-enc":
        return lambda: ciphers.encrypt("ecb", key, None, data, padding=False, threads=threads)
    if kind == "ecb-dec":
        return lambda: ciphers.decrypt("ecb", key, None, data, padding=False, threads=threads)
    if kind == "cbc-dec":
        return lambda: ciphers.decrypt("cbc", key, iv, data, padding=False, threads=threads)
    if kind == "merkle-32":
        return lambda: merkle.root(data, leaf_size=32, threads=threads)
    raise ValueError(kind)


def median(fn, repeats):
    fn()
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def run(repeats=21):
    key, iv = os.urandom(32), os.urandom(16)
    # Whole blocks, as the paper's unpadded modes need (its 300-byte text padded to 304).
    inputs = {"image": os.urandom(IMAGE), "text": os.urandom(304)}
    cores = available_threads()
    rows = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", HazmatWarning)
        for what, kind, pis, pip, pts, ptp in PAPER:
            row = [what]
            for name, paper_seq, paper_par in (("image", pis, pip), ("text", pts, ptp)):
                data = inputs[name]
                one = median(operation(kind, data, key, iv, 1), repeats)
                many = median(operation(kind, data, key, iv, cores), repeats)
                row += [paper_seq, paper_par, one, many]
            rows.append(row)
    return cores, rows


def markdown(cores, rows):
    head = ("| experiment | paper image seq | paper image par | parcrypt image 1 thread | "
            f"parcrypt image {cores} threads | paper text seq | paper text par | parcrypt text 1 thread | "
            f"parcrypt text {cores} threads |")
    lines = [head, "|---" * 9 + "|"]
    for what, *cells in rows:
        lines.append(f"| {what} | " + " | ".join(f"{c:.6f}" for c in cells) + " |")
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description="ParalCrypto's experiments from Python, beside the paper's seconds")
    ap.add_argument("--repeats", type=int, default=21)
    ap.add_argument("--markdown", help="also write the table to this file")
    args = ap.parse_args()
    cores, rows = run(args.repeats)
    table = ("ParalCrypto (seconds; paper: its own machine, pycryptodome + ProcessPoolExecutor; "
             f"parcrypt: this machine, medians of {args.repeats})\n\n" + markdown(cores, rows))
    print(table)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(table)


if __name__ == "__main__":
    main()
