// The example's routesim CLI: routesim's own command line, knowing sticky_user and
// session_counter.
#include "sessions.hpp"
#include "tools/cli.hpp"

int main(int argc, char** argv) {
    sessions::register_all();
    return routesim::cli_main(argc, argv);
}
