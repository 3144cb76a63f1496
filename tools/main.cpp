// The routesim binary: the library's command line (tools/cli.hpp), with the built-in
// behaviours and rules only.
// Part of tools/.
#include "tools/cli.hpp"

int main(int argc, char** argv) {
    return routesim::cli_main(argc, argv);
}
