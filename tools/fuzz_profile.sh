#!/usr/bin/env bash
# Where a fuzz run's instructions go on the CLI path (issue 24): runs `routesim fuzz` under
# callgrind as the user runs it and prints, per run, run_scenario's inclusive cost split into
# the run's setup and teardown, the world's run and its main parts, and the allocator's share.
# Instruction counts repeat where wall clock does not, so two builds compare figure by figure.
#   tools/fuzz_profile.sh [BIN_DIR] [SCENARIO] [RUNS]
#   (default build, ../shared/bench/fuzz-small.json when present else
#   tools/testdata/fuzz-small.json, 200 runs; seed 3, --jobs 1)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-build}
scenario=${2:-}
runs=${3:-200}
if [ -z "$scenario" ]; then
    scenario=$root/../shared/bench/fuzz-small.json
    [ -f "$scenario" ] || scenario=$root/tools/testdata/fuzz-small.json
fi
cli=$bin/tools/routesim
if [ ! -x "$cli" ]; then
    echo "fuzz_profile.sh: $cli not found" >&2
    exit 2
fi
command -v valgrind >/dev/null || { echo "fuzz_profile.sh: needs valgrind" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
valgrind --tool=callgrind --callgrind-out-file="$work/cg" "$cli" fuzz "$scenario" \
    --runs "$runs" --seed 3 --jobs 1 --out "$work/fuzz" >/dev/null 2>&1
callgrind_annotate --inclusive=yes --threshold=100 "$work/cg" >"$work/inclusive" 2>/dev/null
callgrind_annotate --threshold=100 "$work/cg" >"$work/exclusive" 2>/dev/null
python3 - "$work/inclusive" "$work/exclusive" "$runs" "$scenario" <<'EOF'
import re, sys
inclusive, exclusive, runs, scenario = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
row = re.compile(r'^\s*([\d,]+) \([^)]*\)\s+(\S.*)$')

def rows(path):
    for line in open(path, errors='replace'):
        m = row.match(line)
        if m and not m.group(2).startswith('=>'):
            yield int(m.group(1).replace(',', '')), m.group(2)

def first(pattern):
    # The function's own line (file:function), the first that matches: each appears once.
    for ir, name in rows(inclusive):
        if re.search(pattern, name):
            return ir
    return 0

# (label, pattern, depth): the parts of a run, as callgrind names their functions.
parts = [
    ('run_scenario (one fuzz run)', r'scenarios::run_scenario\(', 0),
    ('setup: Runner constructor', r'detail::Runner::Runner\(', 1),
    ('setup: build the tree', r'detail::Runner::build\(\)', 1),
    ('teardown: Runner destructor', r'detail::Runner::~Runner\(\)', 1),
    ('World::run', r'sim::World::run\(std::optional', 1),
    ('monitors (properties/)', r'monitor\.cpp:.*properties::MonitorSet::on_event\(', 2),
    ('race observer (tools/fuzz)', r'fuzz::RaceObserver::on_event\(', 2),
    ('workload timers', r'workload\.cpp:.*Workload::schedule_source\(', 2),
    ('random faults fired', r'faults\.cpp:.*Faults::fire_fault\(', 2),
]
print(f'fuzz run profile: {scenario}, {runs} runs, seed 3 (callgrind, instructions per run)')
total = first(parts[0][1])
if total == 0:
    sys.exit('fuzz_profile.sh: run_scenario not found in the profile')
def line(label, ir, depth=0, note=''):
    share = 100 * ir / total
    name = '  ' * depth + label
    print(f'  {name:<34} {ir / runs / 1000:9.1f} K  {share:5.1f}%{note}')

for label, pattern, depth in parts:
    line(label, first(pattern), depth)
# The allocator: its own instructions (glibc's malloc.c, tcmalloc, the operator new/delete
# wrappers), wherever it is called from; with few runs the load's share shows.
alloc = 0
for ir, name in rows(exclusive):
    if ('malloc.c:' in name or 'tcmalloc' in name or re.search(r'operator (new|delete)', name)):
        alloc += ir
line('allocator (new, delete, malloc)', alloc, 0, ' (whole process, per run)')
EOF
