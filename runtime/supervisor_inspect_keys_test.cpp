// Goal: every supervisor type's Inspect map has exactly the keys of runtime/inspect_keys.hpp,
// the table the scenario loader checks expect.inspect keys against.
// Method: spawn a supervisor of each type with two child specs and compare the key sets.
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "runtime/inspect_keys.hpp"
#include "runtime/supervisor_testing.hpp"

namespace routesim::runtime {
namespace {

using act::SupervisorSpec;
using act::SupervisorType;
using testing::child_spec;
using testing::Fixture;
using testing::supervisor_factory;

std::set<std::string> keys_of(SupervisorType type) {
    Fixture f;
    SupervisorSpec spec;
    spec.type = type;
    spec.children = {child_spec("a"), child_spec("b")};
    const PID sup = f.node.spawn(supervisor_factory(spec, nullptr), {}, {}).value();
    f.run();
    std::set<std::string> keys;
    const Inspection inspection = f.node.inspect(sup).value();
    for (const auto& [key, value] : inspection) {
        keys.insert(key);
    }
    return keys;
}

template <class Table>
void add(std::set<std::string>& keys, const Table& table) {
    keys.insert(table.begin(), table.end());
}

TEST(SupervisorInspectKeys, NamedTypesHaveTheTableKeys) {
    for (SupervisorType type :
         {SupervisorType::OneForOne, SupervisorType::AllForOne, SupervisorType::RestForOne}) {
        std::set<std::string> expected;
        add(expected, inspect_keys::supervisor);
        add(expected, inspect_keys::supervisor_named);
        if (type != SupervisorType::OneForOne) {
            expected.insert(std::string(inspect_keys::supervisor_keep_order));
        }
        EXPECT_EQ(keys_of(type), expected) << static_cast<int>(type);
    }
}

TEST(SupervisorInspectKeys, SimpleOneForOneHasTheTableKeysAndOneKeyPerSpec) {
    std::set<std::string> expected;
    add(expected, inspect_keys::supervisor);
    add(expected, inspect_keys::supervisor_simple);
    for (const char* name : {"a", "b"}) {
        expected.insert(std::string(inspect_keys::supervisor_simple_child_prefix) + name);
    }
    EXPECT_EQ(keys_of(SupervisorType::SimpleOneForOne), expected);
}

} // namespace
} // namespace routesim::runtime
