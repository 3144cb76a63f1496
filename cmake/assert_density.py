#!/usr/bin/env python3
"""Asserts per function in sim/ and runtime/ (STYLE.md, issue 22: aim for two RS_ASSERTs in
every function of ten lines or more). A ratchet: fails when the share of such functions
with no assert rises above NONE_MAX or the asserts per function fall below PER_FUNCTION_MIN,
the figures measured when the floor was last raised. Raise the floor as asserts are added.

Functions are found as function_length.py finds them (comments and strings blanked first);
tests, benchmarks, property suites and the test runtime's switch are not counted.

    assert_density.py ROOT              exit 1 below the floor; print the figures
    assert_density.py --list N ROOT     also list the N functions with the fewest asserts
    assert_density.py --selftest ROOT   plant functions without asserts in a scratch tree
                                        and expect the ratchet to fail there
"""
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from function_length import blank, bodies  # noqa: E402

LAYERS = ("sim", "runtime")
MIN_LINES = 10
# The floor, as measured on main (functions >= 10 lines: 162, with no assert: 85).
NONE_MAX = 0.53
PER_FUNCTION_MIN = 0.70
ASSERT = re.compile(r"\bRS_ASSERT\w*\s*\(")
SKIP = ("_test.", "_bench.", "_props.", "testing")


def scan(root):
    """(asserts, lines, path:line, head) of every function of MIN_LINES lines or more."""
    rows = []
    for layer in LAYERS:
        for folder, _, files in sorted(os.walk(os.path.join(root, layer))):
            for name in sorted(files):
                if not name.endswith((".cpp", ".hpp")) or any(s in name for s in SKIP):
                    continue
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8") as source:
                    text = blank(source.read())
                for start, end, head in bodies(text):
                    lines = text.count("\n", start, end) - 1
                    if lines >= MIN_LINES:
                        where = f"{os.path.relpath(path, root)}:{text.count(chr(10), 0, start) + 1}"
                        rows.append((len(ASSERT.findall(text[start:end])), lines, where,
                                     " ".join(head.split())[-70:]))
    return rows


def check(root, listed=0):
    rows = scan(root)
    if not rows:
        print(f"no function of {MIN_LINES} lines or more under {root}")
        return 1
    none = sum(1 for n, *_ in rows if n == 0)
    per = sum(n for n, *_ in rows) / len(rows)
    print(f"functions >= {MIN_LINES} lines: {len(rows)}; asserts per function {per:.2f} "
          f"(floor {PER_FUNCTION_MIN:.2f}); with none {none} = {none / len(rows):.2f} "
          f"(ceiling {NONE_MAX:.2f}); with two or more {sum(1 for n, *_ in rows if n >= 2)}")
    for n, lines, where, head in sorted(rows, key=lambda r: (r[0], -r[1]))[:listed]:
        print(f"  {n} asserts, {lines:3d} lines  {where}  {head}")
    ok = per >= PER_FUNCTION_MIN and none / len(rows) <= NONE_MAX
    if not ok:
        print("assert density fell below the floor: add RS_ASSERTs on the invariants of the "
              "functions listed by --list")
    return 0 if ok else 1


def selftest():
    body = "\n".join(f"    total += {k};" for k in range(MIN_LINES + 2))
    with tempfile.TemporaryDirectory() as scratch:
        os.makedirs(os.path.join(scratch, "sim"))
        with open(os.path.join(scratch, "sim", "planted.cpp"), "w", encoding="utf-8") as out:
            out.write("int bare(int total) {\n" + body + "\n    return total;\n}\n"
                      "int checked(int total) {\n    RS_ASSERT(total >= 0);\n" + body +
                      "\n    return total;\n}\n")
        rows = scan(scratch)
        verdict = check(scratch)
    counts = sorted(n for n, *_ in rows)
    if counts != [0, 1] or verdict != 1:
        print(f"selftest: expected asserts [0, 1] and a failing ratchet, got {counts}, {verdict}")
        return 1
    print("ok: functions are found, their asserts counted, and a tree below the floor fails")
    return 0


if __name__ == "__main__":
    args = sys.argv[1:]
    if args[:1] == ["--selftest"] and len(args) == 2:
        sys.exit(selftest())
    if args[:1] == ["--list"] and len(args) == 3:
        sys.exit(check(args[2], int(args[1])))
    if len(args) != 1:
        sys.exit(__doc__)
    sys.exit(check(args[0]))
