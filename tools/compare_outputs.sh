#!/usr/bin/env bash
# Writes every user-visible output of a build into one folder: each example's and race's
# summary, --json result, trace (JSON Lines) and report, and fuzz campaigns with fixed seeds
# (results, reproducers, printed lines). Run it with the old and the new build and compare the
# two folders with `diff -r`: a refactor that changes no behaviour leaves them byte-identical.
#   tools/compare_outputs.sh BUILD_DIR OUT_DIR
set -u
build=${1:?usage: compare_outputs.sh BUILD_DIR OUT_DIR}
out=${2:?usage: compare_outputs.sh BUILD_DIR OUT_DIR}
root=$(cd "$(dirname "$0")/.." && pwd)
cli="$(cd "$build" && pwd)/tools/routesim"
rm -rf "$out" && mkdir -p "$out"
cd "$root"
for f in scenarios/examples/*.json scenarios/races/*.json; do
    n=$(basename "$(dirname "$f")")-$(basename "$f" .json)
    "$cli" run "$f" >"$out/$n.txt" 2>&1; echo "exit $?" >>"$out/$n.txt"
    "$cli" run --json "$f" >"$out/$n.json" 2>&1
    "$cli" run --trace "$out/$n.jsonl" --report "$out/$n.report" "$f" >/dev/null 2>&1
    "$cli" run --seed 7 --scheduler random "$f" >"$out/$n.seed7.txt" 2>&1
done
for f in scenarios/races/*.json ../shared/bench/fuzz-small.json; do
    n=fuzz-$(basename "$f" .json)
    (cd "$out" && "$cli" fuzz "$root/$f" --runs 3000 --seed 11 --jobs 1 \
        --out "$n.out" >"$n.txt" 2>&1; echo "exit $?" >>"$n.txt") 2>/dev/null || true
done
# Paths printed in outputs name the folder; make them relative.
grep -rl "$out" "$out" 2>/dev/null | xargs -r sed -i "s#$out#OUT#g"
grep -rl "$root" "$out" 2>/dev/null | xargs -r sed -i "s#$root#ROOT#g"
# Wall-clock figures (fuzz throughput) differ from run to run; blank them.
grep -rlE "runs/s|elapsed|wall| s$" "$out" 2>/dev/null | xargs -r sed -i -E \
    -e 's#in [0-9.e+-]+ s \([0-9]+ runs/s\)#in T s (R runs/s)#g' \
    -e 's#in [0-9.e+-]+ s$#in T s#' \
    -e 's#"(elapsed|wall)[a-z_]*": *[0-9.e+-]+#"\1": T#g'
echo "wrote $out"
