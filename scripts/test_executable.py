#!/usr/bin/env python3
"""Prints the path of one test executable cargo built.

    scripts/test_executable.py TESTS.json PACKAGE-DIR KIND NAME

TESTS.json is the output of `cargo test --no-run --message-format=json`
(or `cargo build --tests --message-format=json`); PACKAGE-DIR the
package's directory relative to the workspace root (`crates/parcrypt`),
KIND the target kind (`lib`, `bin`, `test`), NAME the target's name (`it`).
Exactly one executable must match: none or several is an error, so that a
renamed target cannot silently run nothing. .ci/run and
scripts/test-aarch64.sh run test executables directly with it, where a new
`cargo test -p …` would resolve features anew and rebuild the library.
"""

import json
import os
import sys


def main() -> int:
    if len(sys.argv) != 5:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    path, package_dir, kind, name = sys.argv[1:]
    want = os.path.realpath(package_dir)
    found = []
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            try:
                message = json.loads(line)
            except json.JSONDecodeError:
                continue
            if message.get("reason") != "compiler-artifact" or not message.get("executable"):
                continue
            target = message["target"]
            if not message["profile"]["test"] or kind not in target["kind"] or target["name"] != name:
                continue
            if os.path.realpath(os.path.dirname(message["manifest_path"])) == want:
                found.append(message["executable"])
    found = sorted(set(found))
    if len(found) != 1:
        print(f"test_executable: {len(found)} test executables for {package_dir} {kind} {name} in {path}: {found}", file=sys.stderr)
        return 1
    print(found[0])
    return 0


if __name__ == "__main__":
    sys.exit(main())
