#!/usr/bin/env python3
"""CLI tests of the fuzz verdicts (issue 20): one CTest per check.

Goal: what `routesim fuzz` prints and writes can be trusted: merged campaigns count each run
once, the first line says when only schedules are explored, the progress line is the same for
--runs and --time, every printed rerun/replay command replays the same trace hash, and fuzz
output never overwrites the scenario file it reads.
Method: run the CLI on the planted races and the bundled scenarios in a scratch directory and
compare its output, exit codes and results files.

Usage: fuzz_verdicts_test.py CHECK ROUTESIM SOURCE_DIR SCRATCH_DIR
"""
import json
import os
import re
import shlex
import shutil
import subprocess
import sys

CHECKS = {}


def check(function):
    CHECKS[function.__name__] = function
    return function


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def run(command, expect=None, cwd=None):
    done = subprocess.run(command, capture_output=True, text=True, cwd=cwd)
    if expect is not None and done.returncode != expect:
        fail(f"{shlex.join(command)} exited {done.returncode}, expected {expect}\n"
             f"{done.stdout}{done.stderr}")
    return done


def load(path):
    with open(path) as file:
        return json.load(file)


def totals(document):
    """What a results document says about its runs: count, failing runs, coverage."""
    failures = sorted((f.get("scheduler"), f.get("semantics"), f["seed"], f["kind"], f["name"],
                       f.get("trace_hash")) for f in document["failures"])
    return {"runs": document["runs"], "failures": failures, "coverage": document["coverage"]}


def fuzz_results(cli, race, out, *flags):
    run([cli, "fuzz", race, "--out", out, "--shrink-max", "0", *flags])
    names = [name for name in os.listdir(out) if name.endswith(".results.json")]
    if len(names) != 1:
        fail(f"expected one results file in {out}, found {names}")
    return os.path.join(out, names[0])


@check
def merge(cli, source, scratch):
    race = os.path.join(source, "scenarios/races/kill-during-restart.json")
    whole = fuzz_results(cli, race, f"{scratch}/whole", "--runs", "300", "--scheduler", "pct")
    prefix = fuzz_results(cli, race, f"{scratch}/prefix", "--runs", "120", "--scheduler", "pct")
    shard0 = fuzz_results(cli, race, f"{scratch}/shard0", "--runs", "300", "--shard", "0/2",
                          "--scheduler", "pct", "--jobs", "2")
    shard1 = fuzz_results(cli, race, f"{scratch}/shard1", "--runs", "300", "--shard", "1/2",
                          "--scheduler", "pct")
    expected = totals(load(whole))
    if not expected["failures"]:
        fail("the campaign found no failure; the test needs failing runs to compare")
    cases = {
        "the whole campaign with itself": [whole, whole],
        "the whole campaign and a prefix of it": [prefix, whole],
        "two shards, one repeated": [shard0, shard1, shard0],
        "two shards and the whole campaign": [shard0, whole, shard1],
    }
    for what, inputs in cases.items():
        out = f"{scratch}/merged-{len(os.listdir(scratch))}"
        run([cli, "fuzz", "--merge", *inputs, "--out", out], expect=1)
        merged = totals(load(f"{out}/kill-during-restart.results.json"))
        if merged != expected:
            fail(f"merging {what}: {merged['runs']} runs, {len(merged['failures'])} failing, "
                 f"expected {expected['runs']} runs, {len(expected['failures'])} failing")
    # Runs shared but neither file holds all of the other's: refused, naming both and a seed.
    other = fuzz_results(cli, race, f"{scratch}/other", "--runs", "400", "--shard", "0/2",
                         "--scheduler", "pct")
    done = run([cli, "fuzz", "--merge", prefix, other, "--out", f"{scratch}/refused"], expect=2)
    line = done.stderr.strip()
    if "\n" in line or prefix not in line or other not in line or "run seed" not in line:
        fail(f"overlap not refused in one line naming both files and a seed: {done.stderr}")
    # Two files that disagree about one run seed: refused, naming both and the seed.
    tampered_path = f"{scratch}/tampered.results.json"
    tampered = load(whole)
    tampered["failures"][0]["trace_hash"] = "0000000000000000"
    with open(tampered_path, "w") as file:
        json.dump(tampered, file)
    done = run([cli, "fuzz", "--merge", whole, tampered_path, "--out", f"{scratch}/t"], expect=2)
    seed = str(tampered["failures"][0]["seed"])
    line = done.stderr.strip()
    if "disagree" not in line or seed not in line or whole not in line or \
            tampered_path not in line:
        fail(f"disagreement not refused naming both files and seed {seed}: {done.stderr}")


@check
def notice(cli, source, scratch):
    no_faults = os.path.join(source, "scenarios/races/call-during-pending-replace.json")
    with_faults = os.path.join(source, "tools/testdata/fuzz-small.json")
    first = run([cli, "fuzz", no_faults, "--runs", "5", "--out", scratch]).stdout.split("\n")[0]
    wanted = "fuzz: no faults section: exploring schedules only (seeds, scheduler choices)"
    if first != wanted:
        fail(f"first line without faults: {first!r}, expected {wanted!r}")
    first = run([cli, "fuzz", with_faults, "--runs", "5", "--out", scratch],
                expect=0).stdout.split("\n")[0]
    if not first.startswith("fuzz: fuzz-small, seed 1"):
        fail(f"first line with faults: {first!r}")


def progress_lines(cli, scenario, scratch, *flags):
    """The progress lines fuzz draws on a terminal (run under script(1) for a pty)."""
    if shutil.which("script") is None:
        fail("script(1) (util-linux) is needed to give fuzz a terminal")
    command = shlex.join([cli, "fuzz", scenario, "--out", scratch, *flags])
    done = run(["script", "-qec", command, "/dev/null"], expect=0)
    pieces = re.split(r"[\r\n]+", done.stdout)
    return [piece.strip() for piece in pieces if re.match(r"fuzz: \d+ runs", piece)]


@check
def progress(cli, source, scratch):
    scenario = os.path.join(source, "tools/testdata/fuzz-small.json")
    shape = re.compile(r"^fuzz: (\d+) runs, \d+ runs/s, \d+ failures, coverage (\d+)/(\d+) "
                       r"windows, (\d+) \(route state, event\) pairs$")
    seen = {}
    for mode, flags in {"--runs": ["--runs", "3000"], "--time": ["--time", "1s"]}.items():
        for jobs in ["1", "2"]:
            lines = progress_lines(cli, scenario, scratch, *flags, "--jobs", jobs)
            if not lines:
                fail(f"{mode} --jobs {jobs}: no progress line on a terminal")
            for line in lines:
                match = shape.match(line)
                if match is None:
                    fail(f"{mode} --jobs {jobs}: progress line {line!r} has another shape")
                if int(match.group(1)) > 0 and int(match.group(2)) == 0:
                    fail(f"{mode} --jobs {jobs}: {line!r} shows runs but no coverage")
            seen[(mode, jobs)] = shape.sub(r"\3", lines[-1])
    if len(set(seen.values())) != 1:
        fail(f"the progress lines differ between modes: {seen}")


def field(text, name):
    match = re.search(r"^ *" + re.escape(name) + r": (.+)$", text, re.M)
    return match.group(1) if match else None


@check
def replay(cli, source, scratch):
    race = os.path.join(source, "scenarios/races/kill-during-restart.json")
    for flags in [["--scheduler", "pct", "--semantics", "upstream"],
                  ["--scheduler", "random", "--seed", "7"]]:
        out = f"{scratch}/out-{flags[1]}"
        done = run([cli, "fuzz", race, "--runs", "200", "--out", out, *flags], expect=1)
        rerun, rerun_hash = field(done.stdout, "rerun"), field(done.stdout, "rerun-trace-hash")
        replay_command, replay_hash = field(done.stdout, "replay"), field(done.stdout, "trace-hash")
        if None in (rerun, rerun_hash, replay_command, replay_hash):
            fail(f"no rerun/replay commands with trace hashes in:\n{done.stdout}")
        for flag in flags[:2] + (["--semantics", "upstream"] if "upstream" in flags else []):
            if flag not in rerun.split():
                fail(f"rerun command {rerun!r} lacks {flag}")
        for command, hash_wanted in [(rerun, rerun_hash), (replay_command, replay_hash)]:
            words = shlex.split(command)
            if words[0] != "routesim":
                fail(f"not a routesim command: {command!r}")
            again = run([cli, *words[1:]] + (["--out", f"{out}/again"] if words[1] == "fuzz"
                                             else []), expect=1)
            if field(again.stdout, "trace-hash") != hash_wanted:
                fail(f"{command!r} gave trace hash {field(again.stdout, 'trace-hash')}, "
                     f"the fuzzer printed {hash_wanted}")
        results = load(f"{out}/kill-during-restart.results.json")
        for item in results["failures"]:
            words = shlex.split(item["rerun"])
            again = run([cli, *words[1:], "--shrink-max", "0"], expect=1)
            if field(again.stdout, "trace-hash") != item["trace_hash"]:
                fail(f"results rerun {item['rerun']!r} gave another trace hash")
        if not any("replay" in item for item in results["failures"]):
            fail("the results file records no replay command of the shrunk failure")


@check
def out(cli, source, scratch):
    race = os.path.join(source, "scenarios/races/kill-during-restart.json")
    os.makedirs(f"{scratch}/dir", exist_ok=True)
    scenario = f"{scratch}/dir/kill-during-restart.json"
    shutil.copy(race, scenario)
    original = open(scenario).read()
    repro_named = f"{scratch}/dir/kill-during-restart-123.repro.json"
    shutil.copy(race, repro_named)
    link = f"{scratch}/links/kill-during-restart-5.repro.json"
    os.makedirs(f"{scratch}/links", exist_ok=True)
    os.symlink(scenario, link)
    results_link = f"{scratch}/rlinks/kill-during-restart.results.json"
    os.makedirs(f"{scratch}/rlinks", exist_ok=True)
    os.link(scenario, results_link)
    cases = [
        (scenario, scenario, "the --out directory is the scenario file"),
        (repro_named, f"{scratch}/dir", "the scenario is named like a reproducer in --out"),
        (scenario, f"{scratch}/links", "a reproducer name in --out links to the scenario"),
        (scenario, f"{scratch}/rlinks", "the results file is a hard link of the scenario"),
    ]
    for file, out_dir, what in cases:
        done = run([cli, "fuzz", file, "--runs", "200", "--out", out_dir], expect=2)
        line = done.stderr.strip()
        if "\n" in line or file not in line or not line.startswith("routesim fuzz: --out: "):
            fail(f"{what}: not refused in one line naming the scenario file: {done.stderr!r}")
        if done.stdout:
            fail(f"{what}: fuzz printed before refusing:\n{done.stdout}")
        if open(scenario).read() != original or open(file).read() != original:
            fail(f"{what}: the scenario file changed")
    # The same scenario with a safe --out fuzzes normally.
    run([cli, "fuzz", scenario, "--runs", "200", "--out", f"{scratch}/safe"], expect=1)


def main():
    name, cli, source, scratch = sys.argv[1:5]
    shutil.rmtree(scratch, ignore_errors=True)
    os.makedirs(scratch)
    CHECKS[name](os.path.abspath(cli), os.path.abspath(source), os.path.abspath(scratch))
    print(f"{name}: ok")


if __name__ == "__main__":
    main()
