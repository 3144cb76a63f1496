#!/usr/bin/python3
"""Checks an installed include tree: every quoted include of an installed header
(#include "layer/file.hpp") names a header that is installed too, and no private header is
installed (the mutation switch of the runtime's tests, the layers' own test support).

Usage: installed_headers_check.py <prefix>/include/routesim
"""
import pathlib
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)
# The layers' own test support; tools/testing/ is the public testing library.
PRIVATE = re.compile(r"^(?!tools/testing/).*(testing_mutation|mutation_hook|_testing|router_rig)\.hpp$")


def main() -> int:
    root = pathlib.Path(sys.argv[1])
    headers = sorted(root.rglob("*.hpp"))
    problems = []
    for header in headers:
        relative = header.relative_to(root).as_posix()
        if PRIVATE.search(relative):
            problems.append(f"{relative}: a private header is installed")
        for included in INCLUDE.findall(header.read_text()):
            if not (root / included).is_file():
                problems.append(f"{relative}: includes \"{included}\", which is not installed")
    for problem in problems:
        print(problem)
    print(f"{len(headers)} installed headers checked, {len(problems)} problems")
    return 1 if problems or not headers else 0


if __name__ == "__main__":
    sys.exit(main())
