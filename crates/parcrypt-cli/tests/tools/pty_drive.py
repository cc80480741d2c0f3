#!/usr/bin/env python3
"""Runs a command with a new pseudo-terminal as its controlling terminal
(what /dev/tty opens) and answers its prompts there, as a person would.

    pty_drive.py TRANSCRIPT [--stdout-tty] [EXPECT SEND]... -- COMMAND [ARG]...

The command's standard input, output and error are this script's (pipes or
files), unless --stdout-tty makes its standard output the terminal too. For
each EXPECT/SEND pair, waits (30 s at most, or PTY_DRIVE_TIMEOUT seconds) until
EXPECT has appeared on the terminal, then types SEND ("\\n" in it is a newline). Everything the
command wrote to the terminal is saved to TRANSCRIPT. Exits with the
command's status (128 + N if signal N ended it; 124 on a timeout).

The parcrypt CLI tests use it to drive `age -p` and `parcrypt age -p`.
"""

import fcntl
import os
import select
import subprocess
import sys
import termios
import time

# A hang guard, not a timing assertion: under emulation (the CLI tests'
# qemu-aarch64 runner) scrypt alone takes tens of seconds, so the tests
# raise it there through PTY_DRIVE_TIMEOUT.
TIMEOUT = float(os.environ.get("PTY_DRIVE_TIMEOUT", "30"))


def main() -> int:
    argv = sys.argv[1:]
    transcript_path = argv.pop(0)
    stdout_tty = False
    if argv and argv[0] == "--stdout-tty":
        stdout_tty = True
        argv.pop(0)
    split = argv.index("--")
    pairs = argv[:split]
    command = argv[split + 1 :]
    dialogue = list(zip(pairs[0::2], pairs[1::2]))

    master, slave = os.openpty()

    def controlling_terminal() -> None:
        os.setsid()
        fcntl.ioctl(slave, termios.TIOCSCTTY, 0)

    child = subprocess.Popen(
        command,
        stdout=slave if stdout_tty else None,
        preexec_fn=controlling_terminal,
        pass_fds=(slave,),
    )
    os.close(slave)
    seen = b""
    deadline = time.monotonic() + TIMEOUT
    timed_out = False

    def pump(wait: float) -> bool:
        nonlocal seen
        ready, _, _ = select.select([master], [], [], wait)
        if not ready:
            return True
        try:
            data = os.read(master, 65536)
        except OSError:  # EIO: every holder of the terminal closed it
            return False
        if not data:
            return False
        seen += data
        return True

    pos = 0  # what was answered already: the same prompt twice needs two answers
    for expect, send in dialogue:
        want = expect.encode()
        while seen.find(want, pos) < 0:
            if time.monotonic() > deadline:
                timed_out = True
                break
            if not pump(0.1) and child.poll() is not None:
                break
        else:
            pos = seen.find(want, pos) + len(want)
            os.write(master, send.encode().replace(b"\\n", b"\n"))
            continue
        break
    while child.poll() is None and time.monotonic() < deadline:
        if not pump(0.1):
            time.sleep(0.05)
    while pump(0.05) and select.select([master], [], [], 0)[0]:
        pass
    if child.poll() is None:
        child.kill()
        timed_out = True
    status = child.wait()
    with open(transcript_path, "wb") as f:
        f.write(seen)
    if timed_out:
        return 124
    return status if status >= 0 else 128 - status


if __name__ == "__main__":
    sys.exit(main())
