#!/usr/bin/env bash
# CTest `deb-package-installs` (nightly, issue 26): the Debian package of this build.
#   1. `cpack -G DEB` writes routesim_<version>_<arch>.deb, whose control fields name the
#      package, the version, its dependencies and the -dev packages the library recommends,
#      and which holds the CLI, the examples, the schema and the library (stripped archives,
#      headers, CMake package) under /usr;
#   2. as root: `apt-get install -y ./routesim_<version>_<arch>.deb` installs it, the installed
#      /usr/bin/routesim prints its version and help, validates every installed example and
#      runs one; the example project tools/examples/custom-router builds against the installed
#      library (find_package with no prefix) and passes its tests; then the package is removed
#      and /usr/bin/routesim is gone.
# MODE build does step 1 only (the default suite's `deb-package-builds`); MODE install both.
# Not root: step 2 is skipped (exit 77, CTest's SKIP_RETURN_CODE) after step 1, saying so;
# a routesim package already installed on the machine is left alone the same way.
# Usage: deb_package_test.sh build|install CPACK BUILD_DIR VERSION SCRATCH_DIR
set -euo pipefail
mode=$1 cpack=$2 build=$3 version=$4 scratch=$5

fail() {
    echo "FAIL: $*"
    exit 1
}

rm -rf "$scratch"
mkdir -p "$scratch"
arch=$(dpkg --print-architecture)
deb="$scratch/routesim_${version}_${arch}.deb"
if ! "$cpack" --config "$build/CPackConfig.cmake" -G DEB -B "$scratch" >"$scratch/cpack.log" 2>&1; then
    cat "$scratch/cpack.log"
    fail "cpack -G DEB failed"
fi
[ -f "$deb" ] || fail "cpack wrote no $(basename "$deb"): $(ls "$scratch")"

field() { dpkg-deb --field "$deb" "$1"; }
[ "$(field Package)" = routesim ] || fail "Package: $(field Package)"
[ "$(field Version)" = "$version" ] || fail "Version: $(field Version), expected $version"
[ "$(field Architecture)" = "$arch" ] || fail "Architecture: $(field Architecture)"
[ -n "$(field Maintainer)" ] || fail "no Maintainer field"
depends=$(field Depends)
for lib in libc6 libstdc++6; do
    [[ "$depends" == *"$lib"* ]] || fail "Depends lacks $lib: $depends"
done
recommends=$(field Recommends)
for dev in nlohmann-json3-dev libboost-graph-dev; do
    [[ "$recommends" == *"$dev"* ]] || fail "Recommends lacks $dev (the CMake package finds it): $recommends"
done
# The archives are stripped of debug sections (cmake/package_strip_archives.cmake): unstripped,
# a RelWithDebInfo package holds about 380 MB.
size=$(field Installed-Size)
[ "$size" -lt 100000 ] || fail "Installed-Size is $size KiB: are the static libraries unstripped?"
contents=$(dpkg-deb --contents "$deb")
for path in ./usr/bin/routesim ./usr/share/routesim/examples/content-dispatch.json \
    ./usr/share/routesim/schema/scenario.schema.json ./usr/lib/libroutesim_scenarios.a \
    ./usr/lib/cmake/routesim/routesimConfig.cmake ./usr/include/routesim/runtime/router.hpp; do
    grep -q " $path\$" <<<"$contents" || fail "the package lacks $path:
$contents"
done
echo "built $(basename "$deb"): Depends: $depends"
if [ "$mode" = build ]; then
    exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
    echo "SKIPPED: installing the package needs root (apt-get install); built and inspected only"
    exit 77
fi
if dpkg-query -W -f='${Status}' routesim 2>/dev/null | grep -q "install ok installed"; then
    echo "SKIPPED: a routesim package is already installed on this machine; not replacing it"
    exit 77
fi

remove() {
    DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq routesim >"$scratch/remove.log" 2>&1 ||
        cat "$scratch/remove.log"
}
trap remove EXIT
(cd "$scratch" && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    "./$(basename "$deb")") >"$scratch/install.log" 2>&1 || {
    cat "$scratch/install.log"
    fail "apt-get install ./$(basename "$deb") failed"
}
cli=/usr/bin/routesim
[ -x "$cli" ] || fail "$cli is not installed"
out=$("$cli" --version) || fail "$cli --version exited $?"
[[ "$out" =~ ^routesim\ ${version//./\\.}\ \(trace-hash\ scheme\ [0-9]+\)$ ]] ||
    fail "$cli --version printed: $out"
"$cli" --help >"$scratch/help.txt" || fail "$cli --help exited $?"
grep -q "fuzz" "$scratch/help.txt" || fail "$cli --help lists no fuzz command"
examples=(/usr/share/routesim/examples/*.json)
"$cli" validate "${examples[@]}" >"$scratch/validate.txt" 2>&1 || {
    cat "$scratch/validate.txt"
    fail "$cli validate on the ${#examples[@]} installed examples exited non-zero"
}
"$cli" run /usr/share/routesim/examples/content-dispatch.json >"$scratch/run.txt" 2>&1 || {
    cat "$scratch/run.txt"
    fail "$cli run content-dispatch.json (installed) exited non-zero"
}
grep -q "^trace-hash: [0-9a-f]\{16\}$" "$scratch/run.txt" || fail "no trace-hash line from run"
# The library from the package: the example project (tools/examples/custom-router) finds it
# under /usr with no prefix given, builds, and passes its own tests.
example=$(cd "$(dirname "$0")/.." && pwd)/tools/examples/custom-router
{ cmake -S "$example" -B "$scratch/example" -DCMAKE_BUILD_TYPE=Release &&
    cmake --build "$scratch/example" -j "$(nproc)" &&
    ctest --test-dir "$scratch/example" --output-on-failure; } >"$scratch/example.log" 2>&1 || {
    cat "$scratch/example.log"
    fail "the example project did not build or pass against the installed package"
}
grep -q "^routesim_DIR:PATH=/usr/lib/cmake/routesim$" "$scratch/example/CMakeCache.txt" ||
    fail "the example found routesim elsewhere: $(grep routesim_DIR "$scratch/example/CMakeCache.txt")"
trap - EXIT
remove
[ ! -e "$cli" ] || fail "$cli is still there after apt-get remove routesim"
echo "installed with apt-get, ran $out, validated ${#examples[@]} examples, built and tested the example project against it, removed"
