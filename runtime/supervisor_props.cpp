// Goal: under random crash sequences every supervisor type keeps its contract: restart
// decisions never exceed the intensity within a period (§6.4), one-for-one restarts only the
// failed child (§6.5), and once things settle the running children match a small model of
// the strategy (§6.3, §6.6, §6.7).
// Method: rapidcheck draws a configuration and a crash list; crashes fire from timers at
// virtual times (overlapping ones in the first property, one settled crash at a time in
// the others); the trace and children() are compared against the model.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <tuple>

#include "runtime/supervisor_testing.hpp"

namespace routesim::runtime {
namespace {

using act::SupervisorSpec;
using act::SupervisorStrategy;
using act::SupervisorType;
using testing::child_spec;
using testing::Fixture;
using testing::run_inside;
using testing::supervisor_factory;
using testing::supervisor_of;
using testing::TestSupervisor;

constexpr int child_count_max = 4;

// child selector, reason kind (0 normal, 1 shutdown, 2 abnormal, 3 kill), delay in ms.
using Crash = std::tuple<int, int, int>;

struct Config {
    SupervisorType type;
    SupervisorStrategy strategy;
    std::uint16_t intensity;
    sim::Duration period;
    bool keep_order;
    bool auto_shutdown;
    int children;
};

Config draw_config(bool any_type = true) {
    Config config{};
    config.type =
        any_type ? static_cast<SupervisorType>(*rc::gen::inRange(0, 4)) : SupervisorType::OneForOne;
    config.strategy = static_cast<SupervisorStrategy>(*rc::gen::inRange(0, 3));
    config.intensity = static_cast<std::uint16_t>(*rc::gen::inRange(1, 4));
    config.period = sim::Duration::seconds(*rc::gen::inRange(1, 4));
    config.keep_order = *rc::gen::arbitrary<bool>();
    config.auto_shutdown = *rc::gen::arbitrary<bool>();
    config.children = *rc::gen::inRange(1, child_count_max + 1);
    return config;
}

std::vector<Crash> draw_crashes(int delay_ms_max) {
    return *rc::gen::container<std::vector<Crash>>(
        rc::gen::tuple(rc::gen::inRange(0, child_count_max), rc::gen::inRange(0, 4),
                       rc::gen::inRange(0, delay_ms_max)));
}

// Spawns the supervisor; SOFO gets `children` instances of its single template.
PID build(Fixture& f, const Config& config) {
    SupervisorSpec spec;
    spec.type = config.type;
    spec.restart = {config.strategy, config.intensity, config.period, config.keep_order};
    spec.disable_auto_shutdown = !config.auto_shutdown;
    const int specs = config.type == SupervisorType::SimpleOneForOne ? 1 : config.children;
    for (int i = 0; i < specs; i++) {
        spec.children.push_back(child_spec(std::string(1, static_cast<char>('a' + i))));
    }
    const PID sup = f.node.spawn(supervisor_factory(spec, nullptr), {}, {}).value();
    f.run();
    if (config.type == SupervisorType::SimpleOneForOne) {
        for (int i = 0; i < config.children; i++) {
            run_inside(f, sup,
                       [](TestSupervisor& self) { RS_ASSERT(self.start_child(Atom("a"))); });
        }
    }
    return sup;
}

Error reason_of(int kind) {
    switch (kind) {
    case 0:
        return Error::normal();
    case 1:
        return Error::shutdown();
    default:
        return Error::text("boom");
    }
}

// Crashes the selected child (by position in children()) if it runs; false when it does not.
bool apply(Fixture& f, const PID& sup, const Crash& crash) {
    if (f.node.find(sup) == nullptr) {
        return false;
    }
    const auto children = supervisor_of(f.node, sup).children();
    const auto index = static_cast<std::size_t>(std::get<0>(crash));
    if (index >= children.size() || children[index].pid.empty()) {
        return false;
    }
    const PID pid = children[index].pid;
    if (std::get<1>(crash) == 3) {
        return f.node.kill(pid).has_value();
    }
    return f.node.send(pid, reason_of(std::get<1>(crash))).has_value();
}

// §6.4 checked on the trace: every restart fits with at most `intensity` restarts (itself
// included) in the `period` before it, and none follows an exceeded limit.
void check_intensity(const Fixture& f) {
    std::map<std::int64_t, std::vector<sim::Instant>> restarts;
    std::set<std::int64_t> exceeded;
    for (const auto& record : f.memory.records()) {
        const std::int64_t sup = record.number("sup");
        if (record.kind == "sup_intensity_exceeded") {
            exceeded.insert(sup);
        }
        if (record.kind != "sup_restart") {
            continue;
        }
        RC_ASSERT(exceeded.count(sup) == 0U);
        auto& times = restarts[sup];
        times.push_back(record.at);
        const auto period = sim::Duration::nanoseconds(record.number("period_ns"));
        std::int64_t in_window = 0;
        for (const sim::Instant at : times) {
            in_window += record.at - at <= period ? 1 : 0;
        }
        RC_ASSERT(in_window <= record.number("intensity"));
    }
}

// §6.4: random, overlapping crashes against every type never exceed the intensity.
RC_GTEST_PROP(SupervisorProps, RestartDecisionsNeverExceedIntensity, ()) {
    const Config config = draw_config();
    const std::vector<Crash> crashes = draw_crashes(1500);
    Fixture f;
    const PID sup = build(f, config);
    sim::Instant at = f.world.now();
    for (const Crash& crash : crashes) {
        at = at + sim::Duration::milliseconds(std::get<2>(crash) < 500 ? 0 : std::get<2>(crash));
        f.world.schedule_at(at, [&f, sup, crash] { (void)apply(f, sup, crash); });
    }
    const sim::RunOutcome outcome = f.run();
    RC_ASSERT(!outcome.failed());
    check_intensity(f);
}

// §6.5: with one-for-one a crash changes the crashed child's PID and no other.
RC_GTEST_PROP(SupervisorProps, OneForOneRestartsOnlyTheFailedChild, ()) {
    Config config = draw_config(false);
    config.strategy = SupervisorStrategy::Permanent;
    config.intensity = 1000;
    const std::vector<Crash> crashes = draw_crashes(100);
    Fixture f;
    const PID sup = build(f, config);
    for (const Crash& crash : crashes) {
        const auto before = supervisor_of(f.node, sup).children();
        if (!apply(f, sup, crash)) {
            continue;
        }
        f.run();
        const auto after = supervisor_of(f.node, sup).children();
        RC_ASSERT(after.size() == before.size());
        for (std::size_t i = 0; i < after.size(); i++) {
            const bool crashed = i == static_cast<std::size_t>(std::get<0>(crash));
            RC_ASSERT(!after[i].pid.empty());
            RC_ASSERT((after[i].pid == before[i].pid) != crashed);
        }
    }
}

// A small model of §6.3–6.7 for one settled crash at a time.
struct Model {
    Config config;
    bool alive = true;
    std::vector<bool> running;
    std::vector<sim::Instant> history;

    bool exceeded(sim::Instant now) {
        history.push_back(now);
        if (history.size() <= config.intensity) {
            return false;
        }
        std::erase_if(history, [&](sim::Instant at) { return now - at > config.period; });
        return history.size() > config.intensity;
    }

    void crash(std::size_t index, int kind, sim::Instant now) {
        const bool restart = config.strategy == SupervisorStrategy::Permanent ||
                             (config.strategy == SupervisorStrategy::Transient && kind >= 2);
        const bool sofo = config.type == SupervisorType::SimpleOneForOne;
        if (!restart) {
            if (sofo) {
                running.pop_back(); // instances are interchangeable: one fewer
                return;
            }
            running[index] = false;
            const bool none =
                std::none_of(running.begin(), running.end(), [](bool r) { return r; });
            alive = !(none && config.auto_shutdown);
            return;
        }
        if (exceeded(now)) {
            alive = false;
            return;
        }
        std::size_t from = index;
        if (config.type == SupervisorType::AllForOne) {
            from = 0;
        }
        const std::size_t to =
            config.type == SupervisorType::OneForOne || sofo ? index + 1 : running.size();
        for (std::size_t i = from; i < to; i++) {
            running[i] = true;
        }
    }
};

// §6.3, §6.6, §6.7: after each settled crash the supervisor's liveness and its running
// children match the model.
RC_GTEST_PROP(SupervisorProps, RunningChildrenMatchTheStrategyModel, ()) {
    const Config config = draw_config();
    const std::vector<Crash> crashes = draw_crashes(2000);
    Fixture f;
    const PID sup = build(f, config);
    Model model{
        config, true, std::vector<bool>(static_cast<std::size_t>(config.children), true), {}};
    for (const Crash& crash : crashes) {
        const sim::Instant at = f.world.now() + sim::Duration::milliseconds(std::get<2>(crash));
        bool applied = false;
        f.world.schedule_at(at, [&] { applied = apply(f, sup, crash); });
        f.run();
        if (applied) {
            model.crash(static_cast<std::size_t>(std::get<0>(crash)), std::get<1>(crash), at);
        }
        RC_ASSERT((f.node.find(sup) != nullptr) == model.alive);
        if (!model.alive) {
            break;
        }
        const auto children = supervisor_of(f.node, sup).children();
        if (config.type == SupervisorType::SimpleOneForOne) {
            RC_ASSERT(children.size() == model.running.size());
            continue;
        }
        for (std::size_t i = 0; i < children.size(); i++) {
            RC_ASSERT(!children[i].pid.empty() == model.running[i]);
        }
    }
}

// §6.4 is a pure function of the exit times: the same crashes give the same trace.
RC_GTEST_PROP(SupervisorProps, SameCrashesGiveTheSameTrace, ()) {
    const Config config = draw_config();
    const std::vector<Crash> crashes = draw_crashes(1500);
    std::uint64_t hashes[2] = {0, 0};
    for (std::uint64_t& hash : hashes) {
        Fixture f;
        const PID sup = build(f, config);
        sim::Instant at = f.world.now();
        for (const Crash& crash : crashes) {
            at = at + sim::Duration::milliseconds(std::get<2>(crash) / 3);
            f.world.schedule_at(at, [&f, sup, crash] { (void)apply(f, sup, crash); });
        }
        f.run();
        hash = f.world.trace().hash();
    }
    RC_ASSERT(hashes[0] == hashes[1]);
}

} // namespace
} // namespace routesim::runtime
