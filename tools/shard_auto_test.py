#!/usr/bin/env python3
"""CLI tests of `routesim fuzz --shard auto` (issue 26): one CTest per check.

Goal: a campaign spread over job runners, each process finding its shard in its runner's
environment, merges with `fuzz --merge` into exactly the campaign one process runs alone; and
an environment that names no shard, or a bad one, is refused before any run.
Method:
  merge   runs one campaign of a planted race unsharded, then as 4 separate `--shard auto`
          processes at once, each with another runner-style environment (two Slurm arrays, a
          Kubernetes Indexed Job, GNU parallel started inside a Slurm array task), checks the
          runner and shard each one printed and wrote, merges the 4 results files and compares
          the merged document with the unsharded one run for run: the same run count, every
          run index exactly once in the slices, the same failing runs (index, seed, kind,
          name, time, explanation, trace hash, rerun command; a run absent from the failures
          passed in both) and the same coverage counts.
  errors  runs `--shard auto` with no runner variables and with bad ones: exit 2, one stderr
          line naming the variables, nothing on stdout, no results file.
The runner variables of the environment ctest itself runs in are removed first.

Usage: shard_auto_test.py CHECK ROUTESIM SOURCE_DIR SCRATCH_DIR
"""
import json
import os
import shlex
import shutil
import subprocess
import sys

CHECKS = {}
RACE = "scenarios/races/disable-races-kill.json"
NAME = "disable-races-kill"
RUNS = "20000"
RUNNER_PREFIXES = ("ROUTESIM_SHARD", "PARALLEL_", "SLURM_", "JOB_COMPLETION_INDEX")

# Shard index -> (the runner fuzz must name, the variables its environment sets, extra flags).
SHARDS = {
    0: ("Slurm job array", {"SLURM_ARRAY_TASK_ID": "10", "SLURM_ARRAY_TASK_MIN": "10",
                            "SLURM_ARRAY_TASK_MAX": "13", "SLURM_ARRAY_TASK_COUNT": "4"}, []),
    1: ("Kubernetes Indexed Job", {"JOB_COMPLETION_INDEX": "1", "ROUTESIM_SHARD_COUNT": "4"},
        ["--jobs", "2"]),
    2: ("Slurm job array", {"SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_MIN": "0",
                            "SLURM_ARRAY_TASK_MAX": "6", "SLURM_ARRAY_TASK_STEP": "2",
                            "SLURM_ARRAY_TASK_COUNT": "4"}, []),
    # GNU parallel inside a Slurm array task: parallel's variables take precedence.
    3: ("GNU parallel", {"PARALLEL_SEQ": "4", "ROUTESIM_SHARD_COUNT": "4",
                         "SLURM_ARRAY_TASK_ID": "7", "SLURM_ARRAY_TASK_MIN": "0",
                         "SLURM_ARRAY_TASK_MAX": "9"}, []),
}


def check(function):
    CHECKS[function.__name__] = function
    return function


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def clean_environment(extra):
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(RUNNER_PREFIXES)}
    env.update(extra)
    return env


def load(path):
    with open(path) as file:
        return json.load(file)


def shard_line(stdout):
    lines = [line for line in stdout.splitlines() if line.startswith("shard: ")]
    return lines[0] if len(lines) == 1 else None


def run_shards(cli, race, scratch):
    """Starts the 4 shard processes at once; returns {index: (process, stdout, stderr)}."""
    started = {}
    for index, (_, variables, flags) in SHARDS.items():
        command = [cli, "fuzz", race, "--runs", RUNS, "--scheduler", "random", "--shrink-max", "0",
                   "--shard", "auto", "--out", f"{scratch}/shard{index}", *flags]
        started[index] = subprocess.Popen(command, env=clean_environment(variables), text=True,
                                          stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return {index: (process, *process.communicate()) for index, process in started.items()}


def check_shard(index, process, stdout, stderr, scratch):
    """The shard's exit, printed runner and shard, and results file; returns its path."""
    runner, variables, _ = SHARDS[index]
    what = f"shard {index} ({shlex.join(f'{k}={v}' for k, v in variables.items())})"
    if process.returncode not in (0, 1):
        fail(f"{what} exited {process.returncode}\n{stdout}{stderr}")
    line = shard_line(stdout)
    article = "a " if runner.startswith(("Slurm", "Kube")) else ""
    if line is None or not line.startswith(f"shard: {index}/4 from {article}{runner} ("):
        fail(f"{what}: expected one line 'shard: {index}/4 from {article}{runner} (...)', "
             f"got:\n{stdout}")
    if index == 3 and "ignored (lower precedence): SLURM_ARRAY_TASK_ID=7" not in line:
        fail(f"{what}: the Slurm variables are not reported as ignored: {line}")
    path = f"{scratch}/shard{index}/{NAME}.shard-{index}-of-4.results.json"
    if not os.path.exists(path):
        fail(f"{what}: no results file {path}\n{stdout}")
    campaign = load(path)["campaigns"][0]
    if (campaign["shard_index"], campaign["shard_count"]) != (index, 4):
        fail(f"{what}: the results file records shard {campaign['shard_index']}/"
             f"{campaign['shard_count']}")
    return path


def run_indices(document):
    indices = []
    for campaign in document["campaigns"]:
        for piece in campaign["slices"]:
            indices += [piece["first"] + i * piece["stride"] for i in range(piece["count"])]
    return sorted(indices)


def compare(merged, whole):
    """Fails on the first difference between the merged and the unsharded documents."""
    if merged["runs"] != whole["runs"] or run_indices(merged) != list(range(whole["runs"])):
        fail(f"merged {merged['runs']} runs (indices {run_indices(merged)[:8]}...), the single "
             f"campaign {whole['runs']}: not every run index exactly once")
    if not whole["failures"] or len(whole["failures"]) == whole["runs"]:
        fail("the campaign needs both failing and passing runs to compare run for run")
    by_seed = {item["seed"]: item for item in merged["failures"]}
    for item in whole["failures"]:
        other = by_seed.pop(item["seed"], None)
        if other != item:
            fail(f"run {item['index']} (seed {item['seed']}): single campaign {item}, "
                 f"merged shards {other}")
    if by_seed:
        fail(f"runs that fail only in the merged shards: {sorted(by_seed)[:8]}")
    if merged["failures"] != whole["failures"]:
        fail("the merged failures are in another order than the single campaign's")
    if merged["coverage"] != whole["coverage"]:
        keys = sorted(set(merged["coverage"]) | set(whole["coverage"]))
        diff = [k for k in keys if merged["coverage"].get(k) != whole["coverage"].get(k)]
        fail(f"coverage differs at {diff[:5]}")


@check
def merge(cli, source, scratch):
    race = os.path.join(source, RACE)
    single = subprocess.run([cli, "fuzz", race, "--runs", RUNS, "--scheduler", "random",
                             "--shrink-max", "0", "--out", f"{scratch}/single"],
                            env=clean_environment({}), capture_output=True, text=True)
    if single.returncode != 1:
        fail(f"the single campaign exited {single.returncode}\n{single.stdout}{single.stderr}")
    if shard_line(single.stdout) is not None:
        fail("a campaign without --shard auto printed a shard: line")
    paths = [check_shard(index, *done, scratch)
             for index, done in sorted(run_shards(cli, race, scratch).items())]
    merged_run = subprocess.run([cli, "fuzz", "--merge", *paths, "--out", f"{scratch}/merged"],
                                env=clean_environment({}), capture_output=True, text=True)
    if merged_run.returncode != 1 or "merged: 4 files" not in merged_run.stdout:
        fail(f"fuzz --merge exited {merged_run.returncode}\n{merged_run.stdout}"
             f"{merged_run.stderr}")
    whole = load(f"{scratch}/single/{NAME}.results.json")
    merged = load(f"{scratch}/merged/{NAME}.results.json")
    compare(merged, whole)
    print(f"4 shards ({', '.join(runner for runner, _, _ in SHARDS.values())}) merged: "
          f"{merged['runs']} runs, {len(merged['failures'])} failing, the same as one campaign")


ERRORS = [
    ({}, "no job runner found in the environment: looked for ROUTESIM_SHARD (K/N), "
         "PARALLEL_SEQ with ROUTESIM_SHARD_COUNT (GNU parallel), SLURM_ARRAY_TASK_ID with "
         "SLURM_ARRAY_TASK_MIN and SLURM_ARRAY_TASK_MAX (Slurm job array), JOB_COMPLETION_INDEX "
         "with ROUTESIM_SHARD_COUNT (Kubernetes Indexed Job); none of them is set (or pass "
         "--shard K/N)"),
    ({"ROUTESIM_SHARD": "4/4"},
     "ROUTESIM_SHARD=\"4/4\": expected K/N with 0 <= K < N <= 2^32 (digits only)"),
    ({"JOB_COMPLETION_INDEX": "2"},
     "Kubernetes Indexed Job: JOB_COMPLETION_INDEX=2 gives the index but not the count: set "
     "ROUTESIM_SHARD_COUNT=N (the number of shards) in the job's environment"),
    ({"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_MAX": "7",
      "SLURM_ARRAY_TASK_COUNT": "3"},
     "Slurm job array (SLURM_ARRAY_TASK_ID=3, SLURM_ARRAY_TASK_MIN=1, SLURM_ARRAY_TASK_MAX=7, "
     "SLURM_ARRAY_TASK_COUNT=3): SLURM_ARRAY_TASK_COUNT is not (MAX - MIN) / STEP + 1 = 7 (an "
     "array of one evenly spaced range, such as --array=0-7)"),
]


@check
def errors(cli, source, scratch):
    race = os.path.join(source, RACE)
    for variables, message in ERRORS:
        out = f"{scratch}/out"
        done = subprocess.run([cli, "fuzz", race, "--runs", "5", "--shard", "auto", "--out", out],
                              env=clean_environment(variables), capture_output=True, text=True)
        wanted = "routesim fuzz: --shard auto: " + message + "\n"
        if done.returncode != 2 or done.stderr != wanted or done.stdout or os.path.exists(out):
            fail(f"environment {variables}: exit {done.returncode}, stdout {done.stdout!r}, "
                 f"stderr {done.stderr!r}; expected exit 2, nothing written and the line\n"
                 f"{wanted}")
    print(f"{len(ERRORS)} bad environments refused with exit 2 and one line")


def main():
    name, cli, source, scratch = sys.argv[1:5]
    shutil.rmtree(scratch, ignore_errors=True)
    os.makedirs(scratch)
    CHECKS[name](os.path.abspath(cli), os.path.abspath(source), os.path.abspath(scratch))
    print(f"{name}: ok")


if __name__ == "__main__":
    main()
