#!/usr/bin/python3
"""Checks that the JSON Schema and the loader give the same verdict on every scenario file.

Every example, test input and malformed fixture is validated twice: with a real JSON Schema
validator (python3-jsonschema, draft 2020-12) against scenarios/schema/scenario.schema.json,
and with `routesim validate`. Both must accept or both must reject, except for the fixtures
that scenarios/bad/README.md lists under "loader-only" (cross-references and JSON quirks the
schema cannot express): those the loader must reject.

Usage: schema_agreement_test.py <routesim> <repository root>
"""
import json
import pathlib
import re
import subprocess
import sys

import jsonschema


def loader_only(readme: pathlib.Path) -> set:
    text = readme.read_text()
    section = text.split("## loader-only", 1)[1]
    return set(re.findall(r"`([a-z0-9-]+)`", section))


def main() -> int:
    cli, root = sys.argv[1], pathlib.Path(sys.argv[2])
    schema = json.loads((root / "scenarios/schema/scenario.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    exempt = loader_only(root / "scenarios/bad/README.md")
    files = sorted((root / "scenarios/examples").glob("*.json"))
    files += sorted((root / "scenarios/testdata").glob("*.json"))
    files += sorted((root / "scenarios/bad").glob("*.json"))
    files += sorted((root / "scenarios/races").glob("*.json"))
    failures = []
    checked = 0
    for path in files:
        loader_ok = subprocess.run([cli, "validate", str(path)], capture_output=True).returncode == 0
        try:
            document = json.loads(path.read_text())
            schema_ok = not any(True for _ in validator.iter_errors(document))
        except (json.JSONDecodeError, ValueError):
            schema_ok = False
        checked += 1
        if path.stem in exempt and path.parent.name == "bad":
            if loader_ok:
                failures.append(f"{path.name}: listed as loader-only but the loader accepts it")
            continue
        if loader_ok != schema_ok:
            failures.append(f"{path.name}: loader {'accepts' if loader_ok else 'rejects'}, "
                            f"schema {'accepts' if schema_ok else 'rejects'}")
    for failure in failures:
        print(failure)
    print(f"{checked} files checked, {len(failures)} disagreements")
    return 1 if failures or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
