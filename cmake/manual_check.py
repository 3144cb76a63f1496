#!/usr/bin/env python3
"""Checks that the manual in the repository agrees with the code (issue 21).

Usage: manual_check.py ROOT CHECK, CHECK one of:
  format-fields     every property name of scenarios/schema/scenario.schema.json is documented
                    in scenarios/FORMAT.md, and every field FORMAT.md documents is in the schema
  rule-citations    every rule cited in code, tests and example scenarios (R22, §6.4, A12) is
                    an anchor of runtime/SEMANTICS.md, and every R-rule there is cited by a test
  invariant-names   every invariant the loader and the monitors know is in
                    properties/INVARIANTS.md
  links             every relative link of the repository's Markdown files resolves inside the
                    repository (a file or folder; with a #fragment, an anchor of that file),
                    and no explicit anchor is defined twice in one file
Prints one line per problem and exits 1 when there is one, else prints a summary and exits 0.
"""
import json
import os
import re
import sys

# Fields FORMAT.md documents as `<a id="f-PATH">`; PATH's last segment is the schema property.
FIELD_ANCHOR = re.compile(r'<a id="f-([^"]+)"></a>')
# Fields the format defines but the loader does not accept yet (issue 25): documented as
# `<a id="planned-PATH">` and deliberately absent from the schema.
PLANNED_ANCHOR = re.compile(r'<a id="planned-([^"]+)"></a>')

CODE_DIRS = ["sim", "runtime", "properties", "scenarios", "reports", "tools"]
CODE_EXTS = (".cpp", ".hpp", ".cmake", ".py", ".json", ".sh")
TEST_SUFFIXES = ("_test.cpp", "_props.cpp")
# A rule citation: R<n>, A<n> (not part of a longer word) or §<n>[.<n>...].
CITATION = re.compile(r"(?<![A-Za-z0-9_])(R\d+|A\d+)(?![A-Za-z0-9_])|§(\d+(?:\.\d+)*)")
TEST_NAME_RULE = re.compile(r"\bTEST(?:_F|_P)?\(\s*(\w+)")
# A-notes look like other things (hex digits, "A1" as a test value); only these forms count:
# a comment or string mentioning "A<n>" next to a rule word, or in parentheses, or after "//".
A_CONTEXT = re.compile(r"(\(A\d+\b|\bA\d+\)|//\s*A\d+\b|\bA\d+[:,]|, A\d+\b|\bA\d+ [a-z])")

# R-rules that no test (*_test.cpp, *_props.cpp) cites today, each with the reason. The check
# fails when a rule listed here gets a test (remove it then) or a rule not listed has none.
UNCITED_R_RULES = {
}


def read(path):
    with open(path, encoding="utf-8", errors="replace") as handle:
        return handle.read()


def slug_anchors(text):
    """The anchors of a Markdown text: explicit ids plus GitHub-style heading slugs."""
    anchors = set(re.findall(r'<a id="([^"]+)"', text))
    anchors.update(re.findall(r'\bid="([^"]+)"', text))
    in_code = False
    for line in text.splitlines():
        if line.startswith("```"):
            in_code = not in_code
            continue
        if in_code:
            continue
        match = re.match(r"#{1,6}\s+(.*)", line)
        if match:
            title = re.sub(r"<[^>]+>", "", match.group(1)).strip().lower()
            title = re.sub(r"[^\w\- ]", "", title)
            anchors.add(title.replace(" ", "-"))
    return anchors


def schema_property_names(schema):
    names = set()

    def walk(node):
        if isinstance(node, dict):
            props = node.get("properties")
            if isinstance(props, dict):
                for key, value in props.items():
                    names.add(key)
                    walk(value)
            for key, value in node.items():
                if key != "properties":
                    walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(schema)
    return names


def last_segment(path):
    return path.split(".")[-1].replace("[]", "")


def check_format_fields(root):
    problems = []
    manual = read(os.path.join(root, "scenarios", "FORMAT.md"))
    schema = json.loads(read(os.path.join(root, "scenarios", "schema", "scenario.schema.json")))
    in_schema = schema_property_names(schema)
    documented = {}
    for path in FIELD_ANCHOR.findall(manual):
        documented.setdefault(last_segment(path), []).append(path)
    for name in sorted(in_schema - set(documented)):
        problems.append(f"scenarios/FORMAT.md: schema property {name!r} is not documented "
                        f"(expected a field anchor <a id=\"f-...{name}\"></a>)")
    for name in sorted(set(documented) - in_schema):
        problems.append(f"scenarios/FORMAT.md: documents {documented[name]} but the schema has "
                        f"no property {name!r} (mark a field the loader does not accept yet "
                        f"<a id=\"planned-...\">)")
    for path in PLANNED_ANCHOR.findall(manual):
        if last_segment(path) in in_schema and path.split(".")[0] in ("run", "expect"):
            section = schema["properties"][path.split(".")[0]]
            props = section.get("properties", {}) if path.startswith("run.") else \
                schema["$defs"]["expect"].get("properties", {})
            if last_segment(path) in props:
                problems.append(f"scenarios/FORMAT.md: {path} is marked planned but the schema "
                                f"has it now (document it as a field, <a id=\"f-{path}\">)")
    summary = f"{len(in_schema)} schema properties, {len(FIELD_ANCHOR.findall(manual))} fields"
    return problems, summary


# The one citation form: R22, §6.4, A12 (anchors of runtime/SEMANTICS.md). The spec files these
# were adapted from live outside the repository, so code must not send a reader there.
OUTSIDE_REFERENCES = re.compile(r"\b(ergo-semantics\.md|scenario-format\.md)")


def code_files(root):
    for top in CODE_DIRS:
        for folder, _, files in os.walk(os.path.join(root, top)):
            for name in sorted(files):
                if name.endswith(CODE_EXTS):
                    yield os.path.join(folder, name)


def citations_in(text):
    """(kind, name) pairs: ("R", "R22"), ("A", "A12"), ("S", "6.4")."""
    found = set()
    # Test names carry rule numbers glued to the suite name: TEST(RouterR8, ...).
    for match in TEST_NAME_RULE.finditer(text):
        for number in re.findall(r"R(\d+)", match.group(1)):
            found.add(("R", "R" + number))
    for match in CITATION.finditer(text):
        if match.group(1):
            name = match.group(1)
            if name.startswith("A"):
                start = max(0, match.start() - 3)
                window = text[start:match.end() + 2]
                if not A_CONTEXT.search(window):
                    continue
            found.add((name[0], name))
        else:
            found.add(("S", match.group(2)))
    return found


def check_rule_citations(root):
    problems = []
    manual = read(os.path.join(root, "runtime", "SEMANTICS.md"))
    anchors = set(re.findall(r'<a id="([^"]+)"', manual))
    cited_by_test = set()
    sites = {}
    for path in code_files(root):
        if os.path.basename(path) == "manual_check.py":
            continue
        text = read(path)
        relative = os.path.relpath(path, root)
        for outside in OUTSIDE_REFERENCES.findall(text):
            problems.append(f"{relative}: cites {outside}, a file outside the repository (cite "
                            f"rules as R22, §6.4 or A12, defined in runtime/SEMANTICS.md, and the "
                            f"format as scenarios/FORMAT.md)")
        for kind, name in citations_in(text):
            anchor = "s" + name if kind == "S" else name
            sites.setdefault(anchor, relative)
            if kind == "R" and path.endswith(TEST_SUFFIXES):
                cited_by_test.add(name)
    for anchor in sorted(sites):
        if anchor not in anchors:
            shown = "§" + anchor[1:] if anchor.startswith("s") else anchor
            problems.append(f"{sites[anchor]}: cites {shown}, which runtime/SEMANTICS.md does "
                            f"not define (expected <a id=\"{anchor}\"></a>)")
    rules = sorted((a for a in anchors if re.fullmatch(r"R\d+", a)), key=lambda a: int(a[1:]))
    for rule in rules:
        if rule not in cited_by_test and rule not in UNCITED_R_RULES:
            problems.append(f"runtime/SEMANTICS.md: {rule} is cited by no test "
                            f"(*_test.cpp, *_props.cpp); add one, or list it in "
                            f"UNCITED_R_RULES with the reason")
        if rule in cited_by_test and rule in UNCITED_R_RULES:
            problems.append(f"cmake/manual_check.py: {rule} is listed in UNCITED_R_RULES but a "
                            f"test cites it now; remove it from the list")
    allowed = ", ".join(sorted(UNCITED_R_RULES, key=lambda a: int(a[1:]))) or "none"
    summary = (f"{len(sites)} cited rules resolve; {len(rules)} R-rules, "
               f"{len(rules) - len(UNCITED_R_RULES)} cited by tests, allowed uncited: {allowed}")
    return problems, summary


def string_array(text, name):
    match = re.search(name + r"\s*=\s*\{(.*?)\};", text, re.S)
    return re.findall(r'"([a-z_]+)"', match.group(1)) if match else []


def check_invariant_names(root):
    problems = []
    manual = read(os.path.join(root, "properties", "INVARIANTS.md"))
    anchors = set(re.findall(r'<a id="([^"]+)"', manual))
    model = read(os.path.join(root, "scenarios", "format", "model.cpp"))
    known = set(string_array(model, "invariant_names"))
    monitors = set(string_array(read(os.path.join(root, "properties", "monitors.cpp")), "names"))
    if not known or not monitors:
        problems.append("cmake/manual_check.py: could not read invariant_names "
                        "(scenarios/format/model.cpp) or names (properties/monitors.cpp)")
    for name in sorted(known | monitors):
        if name not in anchors:
            problems.append(f"properties/INVARIANTS.md: invariant {name!r} is not documented "
                            f"(expected <a id=\"{name}\"></a>)")
    return problems, f"{len(known | monitors)} invariants documented"


def markdown_files(root):
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if not d.startswith(".") and d != "build"
                   and not d.startswith("build-")]
        for name in sorted(files):
            if name.endswith(".md"):
                yield os.path.join(folder, name)


LINK = re.compile(r"(?<!\!)\[[^\]]*\]\(([^)\s]+)\)|\!\[[^\]]*\]\(([^)\s]+)\)")


def check_links(root):
    problems = []
    count = 0
    root_real = os.path.realpath(root)
    for path in markdown_files(root):
        text = read(path)
        stripped = re.sub(r"```.*?```", "", text, flags=re.S)
        stripped = re.sub(r"`[^`\n]*`", "", stripped)
        relative = os.path.relpath(path, root)
        ids = re.findall(r'<a id="([^"]+)"', text)
        for anchor in sorted({a for a in ids if ids.count(a) > 1}):
            problems.append(f"{relative}: anchor {anchor!r} is defined twice")
        for match in LINK.finditer(stripped):
            target = match.group(1) or match.group(2)
            if re.match(r"[a-z]+:", target):
                continue  # http:, https:, mailto:
            count += 1
            file_part, _, fragment = target.partition("#")
            resolved = os.path.realpath(os.path.join(os.path.dirname(path), file_part)) \
                if file_part else os.path.realpath(path)
            if not (resolved == root_real or resolved.startswith(root_real + os.sep)):
                problems.append(f"{relative}: link {target!r} leaves the repository")
                continue
            if not os.path.exists(resolved):
                problems.append(f"{relative}: link {target!r} names nothing")
                continue
            if fragment and resolved.endswith(".md") and \
                    fragment not in slug_anchors(read(resolved)):
                problems.append(f"{relative}: link {target!r}: no anchor {fragment!r} there")
    return problems, f"{count} relative links resolve"


CHECKS = {
    "format-fields": check_format_fields,
    "rule-citations": check_rule_citations,
    "invariant-names": check_invariant_names,
    "links": check_links,
}


def main(argv):
    if len(argv) != 3 or argv[2] not in CHECKS:
        print(__doc__)
        return 2
    problems, summary = CHECKS[argv[2]](argv[1])
    for problem in problems:
        print(problem)
    if problems:
        return 1
    print(f"{argv[2]}: ok ({summary})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
