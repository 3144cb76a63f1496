#!/usr/bin/env python3
"""Fails when a C++ file of the tree differs from what clang-format (.clang-format) makes of it.

    format_check.py ROOT             list the files clang-format would change (exit 1 if any)
    format_check.py --selftest ROOT  mis-format a scratch copy of one file and expect it caught

Fix the tree with: clang-format -i $(git ls-files '*.cpp' '*.hpp')
"""
import os
import shutil
import subprocess
import sys
import tempfile

LAYERS = ("sim", "runtime", "properties", "scenarios", "reports", "tools")


def clang_format():
    for name in ("clang-format-14", "clang-format"):
        path = shutil.which(name)
        if path:
            return path
    sys.exit("format_check.py: clang-format not found (bash tools/dev.sh setup installs it)")


def sources(root):
    for layer in LAYERS:
        for folder, _, files in sorted(os.walk(os.path.join(root, layer))):
            for name in sorted(files):
                if name.endswith((".cpp", ".hpp")):
                    yield os.path.join(folder, name)


def unformatted(root, files):
    tool = clang_format()
    style = "--style=file:" + os.path.join(root, ".clang-format")
    bad = []
    for path in files:
        with open(path, encoding="utf-8") as source:
            text = source.read()
        formatted = subprocess.run([tool, style, "--assume-filename=" + path], input=text,
                                   capture_output=True, text=True, check=True).stdout
        if formatted != text:
            bad.append(path)
    return bad


def check(root):
    bad = unformatted(root, list(sources(root)))
    for path in bad:
        print("not clang-formatted: " + os.path.relpath(path, root))
    if bad:
        print("fix with: clang-format -i <files>  (the style is ROOT/.clang-format)")
    return 1 if bad else 0


def selftest(root):
    original = os.path.join(root, "sim", "prng.hpp")
    with tempfile.TemporaryDirectory() as scratch:
        shutil.copy(os.path.join(root, ".clang-format"), scratch)
        os.makedirs(os.path.join(scratch, "sim"))
        copy = os.path.join(scratch, "sim", "prng.hpp")
        shutil.copy(original, copy)
        if unformatted(scratch, [copy]):
            print("selftest: sim/prng.hpp is not formatted to begin with")
            return 1
        with open(copy, "a", encoding="utf-8") as out:
            out.write("namespace routesim {   int  badly_formatted ( ) ;}\n")
        if not unformatted(scratch, [copy]):
            print("selftest: a badly formatted line was not caught")
            return 1
    print("ok: a badly formatted line is caught")
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--selftest":
        sys.exit(selftest(sys.argv[2]))
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(check(sys.argv[1]))
