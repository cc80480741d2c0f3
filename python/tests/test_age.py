"""parcrypt.age: round trips on every schedule, keys, files and file objects,
hostile files; interop both ways with pyrage and with the CLI's
``parcrypt age`` (and ``ssh-keygen`` keys)."""

import io
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import PARS, pattern
from parcrypt import age
from parcrypt.exceptions import AgeError, NoIdentityError
from test_stream import cli

CHUNK = 64 << 10
SIZES = [0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 3 * CHUNK + 5, (2 << 20) + 3]
# A cheap scrypt for round trips (age writes 18; decrypting needs no setting).
FAST = 10


def require(tool: str, present: bool) -> bool:
    """A missing interop tool skips, or fails under PARCRYPT_REQUIRE_TOOLS=1 (CI)."""
    if not present:
        if os.environ.get("PARCRYPT_REQUIRE_TOOLS") == "1":
            pytest.fail(f"{tool} is required (PARCRYPT_REQUIRE_TOOLS=1)")
        pytest.skip(f"{tool} is missing")
    return True


def pyrage():
    try:
        import pyrage as module
    except ImportError:
        module = None
    require("pyrage (pip install './python[test]')", module is not None)
    return module


@pytest.mark.parametrize("size", SIZES)
def test_round_trips_on_every_schedule(size):
    data = pattern(size)
    x, pq = age.Identity.generate(), age.Identity.generate(pq=True)
    for par in PARS:
        for armor in (False, True):
            for who in ([x], [pq]):
                sealed = age.encrypt(data, [i.to_public() for i in who], armor=armor, **par)
                assert sealed.startswith(b"-----BEGIN AGE ENCRYPTED FILE-----" if armor else b"age-encryption.org/v1\n")
                assert age.decrypt(sealed, who, **par) == data
    sealed = age.encrypt(data, passphrase="pw", work_factor=FAST)
    assert age.decrypt(sealed, passphrase=b"pw") == data


def test_inputs_may_be_any_bytes_like_object():
    np = pytest.importorskip("numpy")
    me = age.Identity.generate()
    data = pattern(100_000)
    for view in (bytearray(data), memoryview(data), np.frombuffer(data, dtype=np.uint8)):
        sealed = age.encrypt(view, [me.to_public()])
        assert age.decrypt(bytearray(sealed), [me]) == data


def test_keys_parse_print_and_stay_secret():
    for pq in (False, True):
        me = age.Identity.generate(pq=pq)
        secret, public = str(me), str(me.to_public())
        assert secret.startswith("AGE-SECRET-KEY-PQ-1" if pq else "AGE-SECRET-KEY-1")
        assert public.startswith("age1pq1" if pq else "age1")
        assert me.kind == ("mlkem768x25519" if pq else "x25519")
        assert secret not in repr(me) and secret[16:40] not in repr(me)
        again = age.Identity.from_str(secret)
        assert str(again) == secret and again.to_public() == me.to_public()
        assert age.Recipient.from_str(public) == me.to_public()
        assert len({me.to_public(), again.to_public()}) == 1
        text = me.keygen_file()
        lines = text.splitlines()
        assert lines[0].startswith("# created: 20") and lines[1] == f"# public key: {public}" and lines[2] == secret
    one, two = age.Identity.generate(), age.Identity.generate(pq=True)
    text = f"# mine\n{one.keygen_file()}\r\n\n{two}\n"
    assert [str(i) for i in age.parse_identities(text)] == [str(one), str(two)]
    assert [str(i) for i in age.parse_identities(text.encode())] == [str(one), str(two)]
    recipients = age.parse_recipients(f"# team\n{one.to_public()}\n\n{two.to_public()}\n")
    assert [str(r) for r in recipients] == [str(one.to_public()), str(two.to_public())]
    for bad in ("age1nope", "AGE-SECRET-KEY-1NOPE", ""):
        with pytest.raises(ValueError):
            age.Identity.from_str(bad)
    with pytest.raises(ValueError) as e:
        age.parse_recipients(f"{one}\n")
    assert str(one) not in str(e.value)  # a secret in a recipients file is named, never quoted
    with pytest.raises(ValueError):
        age.Recipient.from_str("not a key")


def test_bad_arguments():
    me = age.Identity.generate()
    pq = age.Identity.generate(pq=True)
    with pytest.raises(ValueError, match="mixed"):
        age.encrypt(b"x", [me.to_public(), pq.to_public()])
    with pytest.raises(ValueError, match="only recipient"):
        age.encrypt(b"x", [me.to_public()], passphrase="pw")
    with pytest.raises(ValueError):
        age.encrypt(b"x", [])
    with pytest.raises(ValueError):
        age.encrypt(b"x", passphrase="")
    with pytest.raises(TypeError):
        age.encrypt(b"x", str(me.to_public()))  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        age.encrypt("text", [me.to_public()])  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        age.decrypt(b"x", [])


def test_hostile_files_raise_and_return_nothing():
    me, other = age.Identity.generate(), age.Identity.generate()
    data = pattern(3 * CHUNK + 100)
    sealed = age.encrypt(data, [me.to_public()])
    with pytest.raises(NoIdentityError):
        age.decrypt(sealed, [other])
    assert isinstance(NoIdentityError(), AgeError)
    cases = [sealed[:n] for n in (0, 10, 100, len(sealed) - 1, len(sealed) - CHUNK)]
    for at in (5, 60, 200, len(sealed) // 2, len(sealed) - 3):
        flipped = bytearray(sealed)
        flipped[at] ^= 1
        cases.append(bytes(flipped))
    cases.append(sealed + b"x")
    cases.append(b"not an age file")
    for bad in cases:
        with pytest.raises(AgeError):
            age.decrypt(bad, [me])
    armored = age.encrypt(data, [me.to_public()], armor=True)
    with pytest.raises(AgeError):
        age.decrypt(armored.replace(b"\n", b"\r\n", 3)[:-40], [me])
    # A passphrase file asking for more scrypt work than allowed: refused before any work.
    costly = age.encrypt(b"x", passphrase="pw", work_factor=21)
    with pytest.raises(ValueError, match="work factor"):
        age.decrypt(costly, passphrase="pw")
    with pytest.raises(NoIdentityError):
        age.decrypt(age.encrypt(b"x", passphrase="pw", work_factor=FAST), passphrase="wrong")


def test_files_are_written_safely_and_file_objects_stream(tmp_path):
    me = age.Identity.generate()
    data = pattern((3 << 20) + 11)
    src = tmp_path / "plain"
    src.write_bytes(data)
    for par in PARS[:2]:
        sealed, back = tmp_path / "f.age", tmp_path / "back"
        for p in (sealed, back):
            p.unlink(missing_ok=True)
        assert age.encrypt_file(src, sealed, [me.to_public()], **par) == len(data)
        assert age.decrypt(sealed.read_bytes(), [me]) == data
        assert age.decrypt_file(sealed, back, [me], **par) == len(data)
        assert back.read_bytes() == data
    # An existing dst is kept unless overwrite=True.
    with pytest.raises(FileExistsError):
        age.encrypt_file(src, tmp_path / "f.age", [me.to_public()])
    age.encrypt_file(src, tmp_path / "f.age", [me.to_public()], armor=True, overwrite=True)
    assert (tmp_path / "f.age").read_bytes().startswith(b"-----BEGIN AGE ENCRYPTED FILE-----")
    # File objects both ways, and a range.
    out = io.BytesIO()
    with open(src, "rb") as f:
        assert age.encrypt_file(f, out, passphrase="pw", work_factor=FAST) == len(data)
    restored = io.BytesIO()
    assert age.decrypt_file(io.BytesIO(out.getvalue()), restored, passphrase="pw") == len(data)
    assert restored.getvalue() == data
    (tmp_path / "p.age").write_bytes(out.getvalue())
    for start, length in ((0, 0), (CHUNK - 1, 2), (100, 2 * CHUNK), (len(data) - 1, 1)):
        part = io.BytesIO()
        assert age.decrypt_file(tmp_path / "p.age", part, passphrase="pw", range=(start, length)) == length
        assert part.getvalue() == data[start:start + length]
    with pytest.raises(ValueError):
        age.decrypt_file(tmp_path / "p.age", io.BytesIO(), passphrase="pw", range=(len(data), 1))
    # A damaged file leaves no dst and no temporary file.
    damaged = bytearray(out.getvalue())
    damaged[-100] ^= 1
    (tmp_path / "bad.age").write_bytes(bytes(damaged))
    before = sorted(os.listdir(tmp_path))
    with pytest.raises(AgeError):
        age.decrypt_file(tmp_path / "bad.age", tmp_path / "never", passphrase="pw")
    assert sorted(os.listdir(tmp_path)) == before


def test_pyrage_reads_ours_and_we_read_pyrages():
    rage = pyrage()
    data = pattern(3 * CHUNK + 7)
    theirs = rage.x25519.Identity.generate()
    ours = age.Identity.generate()
    for armor in (False, True):
        # Ours → pyrage, to their key and ours.
        sealed = age.encrypt(data, [str(theirs.to_public()), ours.to_public()], armor=armor)
        assert rage.decrypt(sealed, [theirs]) == data
        assert rage.decrypt(sealed, [rage.x25519.Identity.from_str(str(ours))]) == data
        # pyrage → ours.
        sealed = rage.encrypt(data, [theirs.to_public(), rage.x25519.Recipient.from_str(str(ours.to_public()))],
                              armored=armor)
        assert age.decrypt(sealed, [str(theirs)]) == data
        assert age.decrypt(sealed, [ours]) == data
    # Passphrases both ways (age's work factor).
    assert rage.passphrase.decrypt(age.encrypt(data, passphrase="correct horse"), "correct horse") == data
    assert age.decrypt(rage.passphrase.encrypt(data, "correct horse"), passphrase="correct horse") == data


def test_pyrage_ssh_keys_both_ways(tmp_path):
    rage = pyrage()
    require("ssh-keygen", shutil.which("ssh-keygen") is not None)
    data = pattern(CHUNK + 1)
    for kind, extra in (("ed25519", []), ("rsa", ["-b", "2048"])):
        key = tmp_path / f"id_{kind}"
        subprocess.run(["ssh-keygen", "-q", "-t", kind, "-N", "", "-f", str(key), *extra], check=True)
        public = key.with_suffix(".pub").read_text().strip()
        ours = age.parse_identities(key.read_bytes())
        assert ours[0].kind == "ssh" and str(ours[0].to_public()).split()[:2] == public.split()[:2]
        theirs = rage.ssh.Identity.from_buffer(key.read_bytes())
        sealed = age.encrypt(data, [public])
        assert rage.decrypt(sealed, [theirs]) == data
        sealed = rage.encrypt(data, [rage.ssh.Recipient.from_str(public)])
        assert age.decrypt(sealed, ours) == data


def test_cli_reads_python_files_and_python_reads_cli_files(tmp_path):
    parcrypt = cli()
    data = pattern((2 << 20) + 77)
    (tmp_path / "plain").write_bytes(data)
    # A key made by Python, used by the CLI; a key made by the CLI, used by Python.
    mine = age.Identity.generate(pq=True)
    (tmp_path / "mine.txt").write_text(mine.keygen_file())
    subprocess.run([parcrypt, "age", "keygen", "-o", str(tmp_path / "cli.txt")], check=True, capture_output=True)
    theirs = age.parse_identities((tmp_path / "cli.txt").read_bytes())
    age.encrypt_file(tmp_path / "plain", tmp_path / "py.age", [mine.to_public()], armor=True)
    subprocess.run([parcrypt, "age", "-d", "-i", str(tmp_path / "mine.txt"), "-o", str(tmp_path / "cli.out"),
                    str(tmp_path / "py.age")], check=True)
    assert (tmp_path / "cli.out").read_bytes() == data
    public = str(theirs[0].to_public())
    subprocess.run([parcrypt, "age", "-r", public, "-o", str(tmp_path / "cli.age"), str(tmp_path / "plain")],
                   check=True)
    assert age.decrypt_file(tmp_path / "cli.age", tmp_path / "py.out", theirs) == len(data)
    assert (tmp_path / "py.out").read_bytes() == data
    # The CLI's range and Python's agree.
    got = subprocess.run([parcrypt, "age", "-d", "-i", str(tmp_path / "cli.txt"), "--range", "65530:20",
                          str(tmp_path / "cli.age")], check=True, capture_output=True).stdout
    part = io.BytesIO()
    age.decrypt_file(tmp_path / "cli.age", part, theirs, range=(65530, 20))
    assert got == part.getvalue() == data[65530:65550]


def test_the_module_documents_what_it_exports():
    for name in age.__all__:
        assert hasattr(age, name), name
    assert age.Identity.__module__ == "parcrypt.age" and age.Identity.__name__ == "Identity"
    assert Path(age.__file__).name == "age.py"


# A plugin that "wraps" the file key in the clear (stanza type `toy`) and
# unwraps it back, after a message and, with ASK set, a PIN request: the
# plugin protocol through parcrypt.age's callbacks, without any tool.
TOY_PLUGIN = r"""#!/bin/sh
b64() { printf '%s' "$1" | base64 | tr -d '=\n'; }
send() { printf '%s\n' "$@"; }
answer() { IFS= read -r reply; IFS= read -r body; }
refuse() { send '-> error internal' "$(b64 "$1")"; answer; exit 3; }
ask() {
  send '-> msg' "$(b64 'hello from toy')"; answer
  if [ -n "$ASK" ]; then
    send '-> request-secret' "$(b64 'Toy PIN:')"; answer
    [ "$reply" = "-> ok" ] || refuse 'no PIN: the client refused'
    [ "$body" = "$(b64 1234)" ] || refuse 'wrong PIN'
  fi
}
key=""; next=""
case "$1" in
--age-plugin=recipient-v1)
  while IFS= read -r line; do
    [ "$next" = key ] && key="$line"; next=""
    case "$line" in "-> wrap-file-key") next=key;; "-> done") IFS= read -r line; break;; esac
  done
  ask
  send '-> recipient-stanza 0 toy' "$key"; answer
  send '-> done' '';;
--age-plugin=identity-v1)
  while IFS= read -r line; do
    [ "$next" = key ] && key="$line"; next=""
    case "$line" in "-> recipient-stanza 0 toy") next=key;; "-> done") IFS= read -r line; break;; esac
  done
  if [ -n "$key" ]; then ask; send '-> file-key 0' "$key"; answer; fi
  send '-> done' '';;
esac
"""


class Callbacks:
    """pyrage's plugin.Callbacks shape, recording what the plugin asked."""

    def __init__(self, pin=None):
        self.pin = pin
        self.seen = []

    def display_message(self, message):
        self.seen.append(("msg", message))

    def confirm(self, message, yes, no):
        self.seen.append(("confirm", message))
        return True

    def request_public_string(self, description):
        self.seen.append(("public", description))
        return None

    def request_passphrase(self, description):
        self.seen.append(("secret", description))
        return self.pin


def test_plugins_run_from_path_with_callbacks(tmp_path, monkeypatch):
    plugin = tmp_path / "age-plugin-toy"
    plugin.write_text(TOY_PLUGIN)
    plugin.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    calls = Callbacks()
    me = age.Identity.default_for_plugin("toy", callbacks=calls)
    assert me.kind == "plugin"
    native = age.Identity.generate()
    data = pattern(3 * CHUNK + 1)
    sealed = age.encrypt(data, [me.to_public(), native.to_public()])
    assert age.decrypt(sealed, [me]) == data
    assert age.decrypt(sealed, [native]) == data
    assert calls.seen == [("msg", "hello from toy"), ("msg", "hello from toy")]
    # Identity files name plugins too.
    [parsed] = age.parse_identities(f"# toy\n{_toy_identity_line()}\n", callbacks=calls)
    assert parsed.kind == "plugin"
    assert age.decrypt(sealed, [parsed]) == data
    # A PIN through request_passphrase; none (or a wrong one): the plugin's own error.
    monkeypatch.setenv("ASK", "1")
    asker = Callbacks(pin="1234")
    sealed = age.encrypt(b"pin", [age.Identity.default_for_plugin("toy", callbacks=asker).to_public()])
    assert ("secret", "Toy PIN:") in asker.seen
    with pytest.raises(AgeError, match="toy plugin: no PIN: the client refused"):
        age.decrypt(sealed, [age.Identity.default_for_plugin("toy")])
    with pytest.raises(AgeError, match="toy plugin: wrong PIN"):
        age.decrypt(sealed, [age.Identity.default_for_plugin("toy", callbacks=Callbacks(pin="0000"))])
    assert age.decrypt(sealed, [age.Identity.default_for_plugin("toy", callbacks=asker)]) == b"pin"
    # No such plugin.
    with pytest.raises(AgeError, match='"nothere" plugin not found'):
        age.encrypt(b"x", [age.Identity.default_for_plugin("nothere").to_public()])


# A plugin that exits at once, leaving a child that holds its output open
# (issue #48): the call must fail at once, saying the plugin exited, and
# end with no child and no helper thread left behind.
STRAY_PLUGIN = r"""#!/bin/sh
sleep 100 &
echo $! >> "$STRAY_PIDS"
exit 0
"""


def _running(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _threads():
    return len(os.listdir("/proc/self/task"))


def test_a_plugin_that_exits_leaving_a_child_is_not_waited_for(tmp_path, monkeypatch):
    plugin = tmp_path / "age-plugin-stray"
    plugin.write_text(STRAY_PLUGIN)
    plugin.chmod(0o755)
    pids = tmp_path / "pids"
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("STRAY_PIDS", str(pids))
    sealed = age.encrypt(b"secret", [age.Identity.generate().to_public()])
    stray = age.Identity.default_for_plugin("stray")

    def attempt():
        with pytest.raises(AgeError, match=r"stray plugin: the plugin exited \(exit status: 0\)"):
            age.decrypt(sealed, [stray])

    attempt()  # the first call also starts the thread pools
    before = _threads()
    for _ in range(3):
        attempt()
    # Each call's reader and writer threads ended with it (they stayed
    # blocked on the child's pipe before), and every child is gone.
    assert _threads() == before
    for pid in pids.read_text().split():
        assert not _running(pid), f"the plugin's child {pid} still runs"


def _toy_identity_line():
    """AGE-PLUGIN-TOY-1… (no data) as an identity file holds it: Bech32 of
    the human-readable part alone, computed here (BIP 173's checksum)."""
    charset = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
    hrp = "age-plugin-toy-"

    def polymod(values):
        gen = [0x3B6A57B2, 0x26508E6D, 0x1EA119FA, 0x3D4233DD, 0x2A1462B3]
        chk = 1
        for v in values:
            top = chk >> 25
            chk = (chk & 0x1FFFFFF) << 5 ^ v
            for i in range(5):
                chk ^= gen[i] if ((top >> i) & 1) else 0
        return chk

    expanded = [ord(c) >> 5 for c in hrp] + [0] + [ord(c) & 31 for c in hrp]
    pm = polymod(expanded + [0] * 6) ^ 1
    checksum = [(pm >> 5 * (5 - i)) & 31 for i in range(6)]
    return (hrp + "1" + "".join(charset[d] for d in checksum)).upper()
