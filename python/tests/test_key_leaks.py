"""Refusing a malformed private key frees what was parsed before the refusal.

A key that parses but has one byte after it (DER with a trailing byte, or
PEM whose base64 body decodes to that) is refused after the backend built
its key object. Loading such keys many times must not grow the process:
each form is loaded 20,000 times in a child process, after 1,000 loads of
warm-up, and the child's resident size (`/proc/self/statm`) may grow by
less than LIMIT. A key object left behind per refusal costs from about
450 bytes (P-256) to 2 KiB (RSA-2048) here, 9 to 42 MB per 20,000.
"""

import base64
import functools
import subprocess
import sys

import pytest

from parcrypt import ecdsa, rsa

LOADS = 20_000
WARMUP = 1_000
LIMIT = 4 << 20

CHILD = r"""
import base64, os, sys
from parcrypt import ecdsa, rsa

load = {"rsa": rsa.load_private_key, "ec": ecdsa.load_private_key}[sys.argv[1]]
data = base64.b64decode(sys.argv[2])
warmup, loads = int(sys.argv[3]), int(sys.argv[4])


def rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def load_all(n):
    for _ in range(n):
        try:
            load(data)
        except ValueError:
            continue
        sys.exit("a malformed key was loaded")


load_all(warmup)
before = rss()
load_all(loads)
print(rss() - before)
"""


def pem(label: str, der: bytes) -> bytes:
    body = base64.b64encode(der)
    lines = [body[i : i + 64] for i in range(0, len(body), 64)]
    return b"\n".join([f"-----BEGIN {label}-----".encode(), *lines, f"-----END {label}-----".encode(), b""])


@functools.lru_cache(maxsize=None)
def key(family: str):
    # RSA-1024 keeps 20,000 loads (each checks the key) to about 2 s.
    return rsa.generate_private_key(1024) if family == "rsa" else ecdsa.generate_private_key()


FORMS = [("rsa", "PKCS8", "PRIVATE KEY"), ("rsa", "PKCS1", "RSA PRIVATE KEY"),
         ("ec", "PKCS8", "PRIVATE KEY"), ("ec", "SEC1", "EC PRIVATE KEY")]


@pytest.mark.parametrize("encoding", ["DER", "PEM"])
@pytest.mark.parametrize("family,format,label", FORMS, ids=[f"{a}-{b}" for a, b, _ in FORMS])
def test_refused_keys_with_a_trailing_byte_do_not_leak(family, format, label, encoding):
    der = key(family).private_bytes("DER", format) + b"\0"
    data = der if encoding == "DER" else pem(label, der)
    child = subprocess.run([sys.executable, "-c", CHILD, family, base64.b64encode(data), str(WARMUP), str(LOADS)],
                           capture_output=True, text=True, timeout=300)
    assert child.returncode == 0, child.stderr[-2000:]
    grown = int(child.stdout)
    assert grown < LIMIT, f"{family} {format} {encoding}: {LOADS:,} refused loads grew the process by {grown:,} bytes"
