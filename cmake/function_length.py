#!/usr/bin/env python3
"""Fails when a function body is longer than 70 lines (STYLE.md, issue 22).

Scans every .cpp/.hpp of the layer folders. Comments, strings and character literals are
blanked first (digit separators such as 1'000 are not literals); then each `{` whose head
(the text since the previous `;`, `{` or `}`) has a parameter list and is not a control
statement, a type, a namespace or a lambda opens a function body, and the lines strictly
between its braces are counted. Bodies nested in a function (lambdas, local classes) count
toward their function. TEST/RC_GTEST_PROP bodies are functions too.

    function_length.py ROOT             exit 1 and list every body over the limit
    function_length.py --selftest ROOT  plant a 71-line function (and a 70-line one) in a
                                        scratch file and expect exactly the long one flagged
"""
import os
import re
import sys
import tempfile

LAYERS = ("sim", "runtime", "properties", "scenarios", "reports", "tools")
LIMIT = 70
CONTROL = re.compile(r"^\s*(if|for|while|switch|catch|do|else|try)\b")
TYPE_HEAD = re.compile(r"\b(namespace|class|struct|enum|union)\b")
LAMBDA = re.compile(r"(=|return|\(|,|\{)\s*\[[^\]]*\]\s*(\([^)]*\))?[^;{}]*$")


def blank(source):
    out = []
    i, n = 0, len(source)
    while i < n:
        if source.startswith("//", i):
            j = source.find("\n", i)
            j = n if j < 0 else j
        elif source.startswith("/*", i):
            j = source.find("*/", i + 2)
            j = n if j < 0 else j + 2
        elif source.startswith('R"', i) and re.match(r'R"([^(]*)\(', source[i:]):
            delimiter = re.match(r'R"([^(]*)\(', source[i:]).group(1)
            j = source.find(")" + delimiter + '"', i) + len(delimiter) + 2
        elif source[i] == '"' or (source[i] == "'" and not (i > 0 and source[i - 1].isalnum())):
            quote, j = source[i], i + 1
            while j < n and source[j] != quote:
                j += 2 if source[j] == "\\" else 1
            j += 1
        else:
            out.append(source[i])
            i += 1
            continue
        out.append(re.sub(r"[^\n]", " ", source[i:j]))
        i = j
    return "".join(out)


def bodies(text):
    """(start, end, head) of each outermost function body in blanked `text`: the offsets of its
    braces and the text before the opening one. assert_density.py finds functions this way too."""
    found = []
    stack = []  # (opens a function body, offset, head)
    last = 0
    for i, c in enumerate(text):
        if c == "{":
            head = text[last:i].strip()
            tail = head.split("\n")[-1]
            opens = (")" in head and not CONTROL.match(tail)
                     and not TYPE_HEAD.search(head.split("(")[0]) and not LAMBDA.search(head)
                     and not head.endswith("=") and not any(f for f, _, _ in stack))
            stack.append((opens, i, head))
            last = i + 1
        elif c == "}":
            if stack:
                opens, start, head = stack.pop()
                if opens:
                    found.append((start, i, head))
            last = i + 1
        elif c == ";":
            last = i + 1
    return found


def long_bodies(path, text):
    found = []
    for start, end, head in bodies(text):
        lines = text.count("\n", start, end) - 1
        if lines > LIMIT:
            line = text.count("\n", 0, start) + 1
            found.append((path, line, lines, " ".join(head.split())[-90:]))
    return found


def scan(root):
    found = []
    for layer in LAYERS:
        for folder, _, files in sorted(os.walk(os.path.join(root, layer))):
            for name in sorted(files):
                if name.endswith((".cpp", ".hpp")):
                    path = os.path.join(folder, name)
                    with open(path, encoding="utf-8") as source:
                        found += long_bodies(os.path.relpath(path, root), blank(source.read()))
    return found


def check(root):
    found = scan(root)
    for path, line, lines, head in found:
        print(f"{path}:{line}: {lines} lines (limit {LIMIT}): {head}")
    return 1 if found else 0


def selftest():
    body = "\n".join(f"    total += {k}; // '{{' \"}}\"" for k in range(LIMIT))
    text = ("int seventy(int total) {\n" + body + "\n}\n"
            "int seventy_one(int total) {\n    total += 1'000;\n" + body + "\n}\n")
    with tempfile.TemporaryDirectory() as scratch:
        os.makedirs(os.path.join(scratch, "sim"))
        with open(os.path.join(scratch, "sim", "planted.cpp"), "w", encoding="utf-8") as out:
            out.write(text)
        found = scan(scratch)
    names = [head for _, _, _, head in found]
    if len(found) != 1 or "seventy_one" not in names[0]:
        print(f"selftest: expected only seventy_one flagged, got {names}")
        return 1
    print("ok: a 71-line function is flagged and a 70-line one is not")
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--selftest":
        sys.exit(selftest())
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(check(sys.argv[1]))
