import os
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[2] / "crates" / "parcrypt" / "tests" / "data"

# Sizes around the library's parallel thresholds (AES: 2 MiB grain, 1 MiB tasks;
# trees: ~512 KiB), odd sizes, and sizes that are not whole blocks.
SIZES = [0, 1, 15, 16, 17, 4095, 4096, 65537, (2 << 20) - 1, 2 << 20, (2 << 20) + 17, (5 << 20) + 3]
PARS = [dict(threads=1, strategy="seq"), dict(threads=2, strategy="static"), dict(threads=3, strategy="steal"),
        dict(threads=8, strategy="steal"), dict()]


def pattern(n: int) -> bytes:
    """The repository's test input: byte i is i % 251."""
    return bytes(i % 251 for i in range(251)) * (n // 251) + bytes(i % 251 for i in range(n % 251))


@pytest.fixture(scope="session")
def data_dir() -> Path:
    return DATA


def random_bytes(n: int) -> bytes:
    return os.urandom(n)
