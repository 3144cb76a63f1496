// Goal: the field positions of properties/event_layout.hpp are where the real emitters put
// those fields, with the same key objects, so that monitors read them with one comparison.
// A wrong position would not give a wrong answer (find_field falls back to a scan) but would
// silently cost every checked run; this test is what notices.
// Method: every bundled example and the fuzz benchmark scenario run with a sink that checks
// each listed field of each event of a listed kind; every kind must have been seen.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "properties/event_layout.hpp"
#include "runtime/events.hpp"
#include "scenarios/format/loader.hpp"
#include "scenarios/run/runner.hpp"

namespace routesim::scenarios {
namespace {

namespace layout = properties::layout;
namespace trace = runtime::trace;

// The same key object: a FieldAt's key is the typed event's own constant.
bool same_key(const sim::TraceKey& emitted, const properties::FieldAt& at) {
    return &emitted == &at.key;
}

class LayoutCheck final : public sim::TraceSink {
public:
    struct Kind {
        const sim::TraceKey& kind;
        std::vector<const properties::FieldAt*> fields;
        std::size_t seen = 0;
    };

    void on_event(const sim::TraceEvent& event) override {
        for (Kind& expected : kinds) {
            if (!properties::is_kind(event, expected.kind)) {
                continue;
            }
            expected.seen++;
            for (const properties::FieldAt* at : expected.fields) {
                if (at->position >= event.field_count ||
                    !same_key(event.fields[at->position].key, *at)) {
                    misplaced.push_back(std::string(event.kind.name) + "." +
                                        std::string(at->key.name) + " is not field " +
                                        std::to_string(at->position) + " of " +
                                        properties::describe_event(event));
                }
            }
        }
    }

    std::vector<Kind> kinds{
        {trace::send,
         {&layout::send::id, &layout::send::from, &layout::send::to, &layout::send::queue}},
        {trace::take,
         {&layout::take::pid, &layout::take::id, &layout::take::queue, &layout::take::type,
          &layout::take::from}},
        {trace::forward,
         {&layout::forward::id, &layout::forward::by, &layout::forward::to, &layout::forward::from,
          &layout::forward::queue}},
        {trace::drop, {&layout::drop::pid, &layout::drop::id, &layout::drop::reason}},
        {trace::route,
         {&layout::route::router, &layout::route::id, &layout::route::name,
          &layout::route::resolution, &layout::route::worker}},
        {properties::route_key,
         {&layout::route_key::router, &layout::route_key::key, &layout::route_key::name}},
    };
    std::vector<std::string> misplaced;
};

std::vector<std::filesystem::path> scenario_files() {
    const std::filesystem::path source_dir(ROUTESIM_SOURCE_DIR);
    std::vector<std::filesystem::path> files{source_dir / "tools/testdata/fuzz-small.json"};
    for (const auto& entry :
         std::filesystem::directory_iterator(source_dir / "scenarios/examples")) {
        if (entry.path().extension() == ".json") {
            files.push_back(entry.path());
        }
    }
    std::sort(files.begin() + 1, files.end());
    return files;
}

TEST(EventLayout, PositionsAreWhereTheEmittersPutTheFields) {
    LayoutCheck check;
    for (const std::filesystem::path& file : scenario_files()) {
        auto loaded = load_scenario_file(file.string());
        ASSERT_TRUE(loaded.has_value()) << loaded.error().to_string();
        RunSettings settings;
        settings.extra_sinks.push_back(&check);
        (void)run_scenario(*loaded, settings);
    }
    for (const LayoutCheck::Kind& kind : check.kinds) {
        EXPECT_GT(kind.seen, 0U) << kind.kind.name << " never seen: its layout is untested";
    }
    EXPECT_TRUE(check.misplaced.empty())
        << check.misplaced.size() << " misplaced, first: " << check.misplaced.front();
}

} // namespace
} // namespace routesim::scenarios
