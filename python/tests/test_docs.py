"""The examples in docs/PYTHON.md run as written."""

import re
import warnings
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "PYTHON.md"


def test_every_python_example_in_the_guide_runs(tmp_path, monkeypatch):
    text = DOC.read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) >= 2
    monkeypatch.chdir(tmp_path)
    (tmp_path / "big.iso").write_bytes(b"\x01" * 100_000)
    for code in blocks:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            exec(compile(code, str(DOC), "exec"), {})
