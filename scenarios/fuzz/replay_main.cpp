// Replay driver for the loader fuzz target (built with g++ in the default test suite): feeds
// every file of the given directories to the same body libFuzzer drives, and checks each
// file's verdict against its group.
//
// Usage: routesim_loader_fuzz_replay <group>:<dir> ...
//   ok:<dir>    every *.json must load (and build when small)
//   bad:<dir>   every *.json must be rejected
//   any:<dir>   every file (any name) may load or be rejected; only crashes fail
// Exit 0 when every file gave its group's verdict and at least one file was read per group.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "scenarios/fuzz/loader_fuzz.hpp"

namespace {

using routesim::scenarios::fuzz::Verdict;

std::vector<std::uint8_t> read_bytes(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

const char* name_of(Verdict verdict) {
    switch (verdict) {
    case Verdict::Rejected:
        return "rejected";
    case Verdict::Loaded:
        return "loaded";
    case Verdict::Built:
        return "built";
    }
    return "?";
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s <ok|bad|any>:<dir> ...\n", argv[0]);
        return 2;
    }
    int failures = 0;
    for (int i = 1; i < argc; i++) {
        const std::string arg = argv[i];
        const std::size_t colon = arg.find(':');
        const std::string group = colon == std::string::npos ? "" : arg.substr(0, colon);
        if (group != "ok" && group != "bad" && group != "any") {
            std::fprintf(stderr, "bad argument %s (expected ok:, bad: or any: and a dir)\n",
                         arg.c_str());
            return 2;
        }
        const std::filesystem::path dir = arg.substr(colon + 1);
        std::vector<std::filesystem::path> files;
        std::error_code error;
        for (const auto& entry : std::filesystem::directory_iterator(dir, error)) {
            if (entry.is_regular_file() &&
                (group == "any" || entry.path().extension() == ".json")) {
                files.push_back(entry.path());
            }
        }
        std::sort(files.begin(), files.end());
        if (error || files.empty()) {
            std::fprintf(stderr, "FAIL %s: no input files\n", arg.c_str());
            failures++;
            continue;
        }
        std::size_t counts[3] = {0, 0, 0};
        for (const auto& path : files) {
            const std::vector<std::uint8_t> bytes = read_bytes(path);
            const Verdict verdict =
                routesim::scenarios::fuzz::fuzz_loader_one(bytes.data(), bytes.size());
            counts[static_cast<int>(verdict)]++;
            const bool ok = group == "any" || (group == "ok") == (verdict != Verdict::Rejected);
            if (!ok) {
                std::fprintf(stderr, "FAIL %s: %s\n", path.c_str(), name_of(verdict));
                failures++;
            }
        }
        std::printf("%s: %zu files: %zu rejected, %zu loaded, %zu built\n", arg.c_str(),
                    files.size(), counts[0], counts[1], counts[2]);
    }
    return failures == 0 ? 0 : 1;
}
