// Goal: the JSON Schema stays in step with the loader: the same enum spellings, the same
// error names, and no object schema that lets unknown fields through by accident.
// Method: read scenarios/schema/scenario.schema.json with nlohmann and compare its enums with
// the model's spelling tables; walk every subschema and check `additionalProperties`.
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "scenarios/format/model.hpp"

namespace routesim::scenarios {
namespace {

const std::filesystem::path source_dir = ROUTESIM_SOURCE_DIR;

Json load_schema() {
    std::ifstream in(source_dir / "scenarios/schema/scenario.schema.json");
    return Json::parse(in, nullptr, false);
}

std::vector<std::string> names_of(Spellings table) {
    return std::vector<std::string>(table.names.begin(), table.names.end());
}

std::vector<std::string> enum_at(const Json& schema, const Json::json_pointer& pointer) {
    return schema.at(pointer).get<std::vector<std::string>>();
}

TEST(Schema, IsDraft202012AndParses) {
    const Json schema = load_schema();
    ASSERT_FALSE(schema.is_discarded());
    EXPECT_EQ(schema["$schema"], "https://json-schema.org/draft/2020-12/schema");
    EXPECT_EQ(schema["required"], Json({"name", "topology"}));
    EXPECT_EQ(schema["additionalProperties"], false);
}

TEST(Schema, EnumsMatchTheLoaderSpellings) {
    const Json schema = load_schema();
    using Pointer = Json::json_pointer;
    EXPECT_EQ(enum_at(schema, Pointer("/$defs/node_body/properties/kind/enum")),
              names_of(spellings(NodeKind{})));
    // The built-in behaviour types; a registered one is any Atom (the loader checks it).
    EXPECT_EQ(enum_at(schema, Pointer("/$defs/behavior/properties/type/anyOf/0/enum")),
              names_of(spellings(BehaviourType{})));
    EXPECT_EQ(enum_at(schema, Pointer("/$defs/behavior/allOf/3/if/properties/type/not/enum")),
              names_of(spellings(BehaviourType{})));
    EXPECT_EQ(enum_at(schema, Pointer("/$defs/supervisor_node/properties/type/enum")),
              names_of(spellings(SupervisorType{})));
    EXPECT_EQ(
        enum_at(schema,
                Pointer("/$defs/supervisor_node/properties/restart/properties/strategy/enum")),
        names_of(spellings(RestartStrategy{})));
    EXPECT_EQ(enum_at(schema, Pointer("/properties/run/properties/scheduler/enum")),
              names_of(spellings(sim::Policy{})));
    EXPECT_EQ(enum_at(schema, Pointer("/properties/run/properties/semantics/enum")),
              names_of(spellings(Semantics{})));
    EXPECT_EQ(enum_at(schema, Pointer("/$defs/expect/properties/invariants/oneOf/1/items/enum")),
              names_of(spellings(Invariant{})));
    EXPECT_EQ(enum_at(schema,
                      Pointer("/properties/faults/properties/kill/properties/targets/items/enum")),
              names_of(spellings(FaultTarget{})));
    const std::vector<std::string> errors(ergo_error_names().begin(), ergo_error_names().end());
    EXPECT_EQ(enum_at(schema, Pointer("/$defs/error_name/enum")), errors);
    std::vector<std::string> outcomes = {"ok"};
    outcomes.insert(outcomes.end(), errors.begin(), errors.end());
    EXPECT_EQ(enum_at(schema, Pointer("/$defs/outcome/enum")), outcomes);
    std::set<std::string> verbs;
    for (const Json& variant : schema.at(Pointer("/properties/timeline/items/oneOf"))) {
        verbs.insert(variant["required"][0].get<std::string>());
    }
    const std::vector<std::string> spelled = names_of(spellings(Verb{}));
    EXPECT_EQ(verbs, std::set<std::string>(spelled.begin(), spelled.end()));
}

TEST(Schema, EveryObjectSchemaClosesItsFields) {
    // Open on purpose: message payloads, the two dispatchers whose `then` branches are
    // closed per kind or type, and the registered behaviours and rules, whose knobs only the
    // loader knows (scenarios/format/registry.hpp).
    const std::set<std::string> open = {
        "/$defs/message",  "/$defs/workload_message",      "/$defs/node_body",
        "/$defs/behavior", "/$defs/behavior/allOf/3/then", "/$defs/rule/oneOf/6"};
    const Json schema = load_schema();
    std::vector<std::pair<const Json*, std::string>> stack{{&schema, ""}};
    std::size_t closed = 0;
    while (!stack.empty()) {
        const auto [value, pointer] = stack.back();
        stack.pop_back();
        const bool condition = pointer.ends_with("/if"); // a predicate, not a shape
        if (value->is_object() && value->contains("properties") &&
            (*value)["properties"].is_object() && !open.contains(pointer) && !condition) {
            EXPECT_EQ(value->value("additionalProperties", Json(true)), false) << pointer;
            closed++;
        }
        if (value->is_structured()) {
            for (const auto& item : value->items()) {
                stack.emplace_back(&item.value(), pointer + "/" + item.key());
            }
        }
    }
    EXPECT_GE(closed, 40U);
}

} // namespace
} // namespace routesim::scenarios
