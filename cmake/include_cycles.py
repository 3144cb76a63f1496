#!/usr/bin/env python3
"""Fails when the project's headers include each other in a circle.

Reads every `#include "..."` of the layer folders (sim, runtime, properties, scenarios,
reports, tools), builds the graph of file -> included file, and prints each cycle it finds
(a depth-first search; the first cycle through each file is enough to act on).

    include_cycles.py ROOT             check the tree at ROOT (exit 1 on a cycle)
    include_cycles.py --selftest ROOT  plant a cycle in a scratch copy and expect it found
"""
import os
import re
import shutil
import sys
import tempfile

LAYERS = ("sim", "runtime", "properties", "scenarios", "reports", "tools")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def graph(root):
    edges = {}
    for layer in LAYERS:
        for folder, _, files in os.walk(os.path.join(root, layer)):
            for name in sorted(files):
                if not name.endswith((".hpp", ".cpp", ".h")):
                    continue
                path = os.path.relpath(os.path.join(folder, name), root)
                with open(os.path.join(root, path), encoding="utf-8") as text:
                    targets = INCLUDE.findall(text.read())
                edges[path] = [t for t in targets if os.path.exists(os.path.join(root, t))]
    return edges


def cycles(edges):
    found = []
    state = {}  # 1 on the stack, 2 done

    def visit(node, stack):
        state[node] = 1
        stack.append(node)
        for target in edges.get(node, []):
            if state.get(target) == 1:
                found.append(stack[stack.index(target):] + [target])
            elif target not in state:
                visit(target, stack)
        stack.pop()
        state[node] = 2

    for node in sorted(edges):
        if node not in state:
            visit(node, [])
    return found


def check(root):
    found = cycles(graph(root))
    for cycle in found:
        print("include cycle: " + " -> ".join(cycle))
    return 1 if found else 0


def selftest(root):
    with tempfile.TemporaryDirectory() as scratch:
        for layer in LAYERS:
            if os.path.isdir(os.path.join(root, layer)):
                shutil.copytree(os.path.join(root, layer), os.path.join(scratch, layer))
        if check(scratch) != 0:
            print("selftest: the clean tree already has a cycle")
            return 1
        with open(os.path.join(scratch, "runtime/gen.hpp"), "a", encoding="utf-8") as text:
            text.write('\n#include "runtime/node.hpp"\n')
        found = cycles(graph(scratch))
        if not any("runtime/gen.hpp" in cycle for cycle in found):
            print("selftest: a planted cycle through runtime/gen.hpp was not found")
            return 1
        print("ok: a planted cycle is found: " + " -> ".join(found[0]))
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--selftest":
        sys.exit(selftest(sys.argv[2]))
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(check(sys.argv[1]))
