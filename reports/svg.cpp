// Running Graphviz for the topology picture.
// Part of reports/: uses the standard library and POSIX process spawning.
#include "reports/svg.hpp"

#include <spawn.h>
#include <sys/wait.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <vector>

extern char** environ; // POSIX: the environment passed on to Graphviz (PATH, fonts)

namespace routesim::reports {

SvgRender render_svg(const std::filesystem::path& dot_file, const std::filesystem::path& svg_file) {
    std::string program = "dot";
    std::string format = "-Tsvg";
    std::string output = "-o" + svg_file.string();
    std::string input = dot_file.string();
    std::vector<char*> argv{program.data(), format.data(), output.data(), input.data(), nullptr};
    pid_t child = 0;
    const int spawned = posix_spawnp(&child, "dot", nullptr, nullptr, argv.data(), environ);
    if (spawned != 0) {
        if (spawned == ENOENT) {
            return {false, "",
                    "Graphviz (the dot program) was not found on PATH; install "
                    "graphviz to get the topology picture."};
        }
        return {false, "", std::string("running Graphviz dot failed: ") + std::strerror(spawned)};
    }
    int status = 0;
    while (waitpid(child, &status, 0) < 0) {
        if (errno != EINTR) {
            return {false, "",
                    std::string("waiting for Graphviz dot failed: ") + std::strerror(errno)};
        }
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        return {false, "",
                "Graphviz dot failed (exit status " +
                    std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) +
                    "); topology.dot is still there to read."};
    }
    std::ifstream in(svg_file, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    if (!in || text.str().empty()) {
        return {false, "", "Graphviz dot wrote no SVG to " + svg_file.string() + "."};
    }
    return {true, text.str(), ""};
}

std::string inline_svg(const std::string& document) {
    const std::size_t begin = document.find("<svg");
    const std::size_t end = document.rfind("</svg>");
    if (begin == std::string::npos || end == std::string::npos || end < begin) {
        return "";
    }
    return document.substr(begin, end + 6 - begin);
}

} // namespace routesim::reports
