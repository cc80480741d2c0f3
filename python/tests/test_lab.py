import subprocess
import sys


def test_paralcrypto_lab_runs_and_prints_every_experiment(tmp_path):
    out = tmp_path / "t.md"
    r = subprocess.run([sys.executable, "-m", "parcrypt.lab", "--repeats", "3", "--markdown", str(out)],
                       capture_output=True, text=True, check=True)
    text = out.read_text()
    for what in ("CTR encryption", "ECB encryption", "ECB decryption", "CBC decryption", "Merkle tree"):
        assert what in text and what in r.stdout
    # 5 experiments × 8 numbers, every one a positive time.
    cells = [line.split("|")[2:-1] for line in text.splitlines() if line.startswith("| ") and "Table" in line]
    assert len(cells) == 5 and all(float(c) > 0 for row in cells for c in row)
