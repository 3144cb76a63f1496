#!/usr/bin/env bash
# The product carries no mutation hook: neither the runtime library nor the CLI defines or
# calls anything of runtime/testing_mutation.hpp, while the mutation check's test executable
# does (so the search below can find what it looks for).
#   no_mutation_in_product.sh RUNTIME_ARCHIVE CLI MUTATION_TESTS
set -euo pipefail
archive=$1 cli=$2 mutant=$3
pattern='mutation_active|MutationScope'
for product in "$archive" "$cli"; do
    if nm -C "$product" 2>/dev/null | grep -E "$pattern"; then
        echo "FAIL: $product has a mutation hook (the symbols above)"
        exit 1
    fi
    echo "ok: $(basename "$product") has no mutation hook"
done
if ! nm -C "$mutant" | grep -E "$pattern" >/dev/null; then
    echo "FAIL: $mutant should have the mutation hooks; the search is broken"
    exit 1
fi
echo "ok: $(basename "$mutant") has them"
