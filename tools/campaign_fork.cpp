// Campaign worker processes: each forked worker runs one slice and writes JSON lines to a
// pipe ({"line": "progress" | "failure" | "summary", ...}); the parent polls the pipes,
// merges by run index, and keeps the progress line. Also the progress line itself.
// Part of tools/: may use every layer's public headers.
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "tools/campaign_detail.hpp"
#include "tools/fuzz/race_observer.hpp"

namespace routesim::tools::detail {

using nlohmann::json;

// -- progress -----------------------------------------------------------------------------

void Progress::draw(std::uint64_t runs, std::size_t failures,
                    const std::map<std::string, CoverageCount>& coverage) {
    std::size_t pairs = 0;
    std::size_t windows = 0;
    for (const auto& [key, count] : coverage) {
        (key.starts_with("window:") ? windows : pairs)++;
    }
    const double elapsed = clock_.seconds();
    const double rate = elapsed > 0 ? static_cast<double>(runs) / elapsed : 0.0;
    static const std::size_t windows_known = fuzz::coverage_windows().size();
    std::fprintf(stderr,
                 "\rfuzz: %llu runs, %.0f runs/s, %zu failures, coverage %zu/%zu windows, "
                 "%zu (route state, event) pairs   ",
                 static_cast<unsigned long long>(runs), rate, failures, windows, windows_known,
                 pairs);
    std::fflush(stderr);
    drawn_ = true;
}

void Progress::update(std::uint64_t runs, std::size_t failures,
                      const std::map<std::string, CoverageCount>& coverage) {
    if (!enabled_) {
        return;
    }
    const double now = clock_.seconds();
    if (now - last_ < 0.2) {
        return;
    }
    last_ = now;
    draw(runs, failures, coverage);
}

void Progress::finish(std::uint64_t runs, std::size_t failures,
                      const std::map<std::string, CoverageCount>& coverage) {
    if (!enabled_) {
        return;
    }
    draw(runs, failures, coverage);
    std::fprintf(stderr, "\n");
}

namespace {

/// Writes whole lines to a pipe (retrying short writes and EINTR).
void write_line(int fd, const json& line) {
    const std::string text = line.dump() + "\n";
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t wrote = ::write(fd, text.data() + done, text.size() - done);
        if (wrote < 0 && errno == EINTR) {
            continue;
        }
        if (wrote <= 0) {
            return; // the parent went away; nothing left to tell
        }
        done += static_cast<std::size_t>(wrote);
    }
}

/// A worker's sink: failures at once, progress (with the coverage so far, so that the progress
/// line shows it as a single process does) at most 5 times a second, a summary at the end.
class PipeSink final : public SliceSink {
public:
    PipeSink(int fd, std::vector<ProbeCount> probes) : fd_(fd), probes_(std::move(probes)) {}
    void on_run(const scenarios::RunResult& result) override {
        runs_++;
        coverage_.add(result.coverage);
        count_probes(probes_, result.probes);
        if (clock_.seconds() - last_ >= 0.2) {
            last_ = clock_.seconds();
            write_line(fd_, json{{"line", "progress"},
                                 {"runs", runs_},
                                 {"failures", failures_},
                                 {"coverage", coverage_json(coverage_.as_map())}});
        }
    }
    void on_failure(FailureRecord record) override {
        failures_++;
        json line = failure_json(record);
        line["line"] = "failure";
        write_line(fd_, line);
    }
    void on_done() override {
        write_line(fd_, json{{"line", "summary"},
                             {"runs", runs_},
                             {"coverage", coverage_json(coverage_.as_map())},
                             {"probes", probes_json(probes_)}});
    }

private:
    int fd_;
    std::uint64_t runs_ = 0;
    std::uint64_t failures_ = 0;
    CoverageTally coverage_;
    std::vector<ProbeCount> probes_;
    Stopwatch clock_;
    double last_ = 0;
};

struct Worker {
    pid_t pid = -1;
    int fd = -1;
    std::string pending; // an incomplete line
    std::uint64_t runs = 0;
    std::uint64_t failures = 0;
    bool summarised = false;
    /// The coverage of the worker's latest progress line (for the progress line only).
    std::map<std::string, CoverageCount> coverage;
};

void take_line(const std::string& text, Worker& worker, CampaignResult& result) {
    const json line = json::parse(text, nullptr, false);
    if (line.is_discarded() || !line.is_object()) {
        return;
    }
    const std::string kind = line.value("line", "");
    if (kind == "progress") {
        worker.runs = line.value("runs", std::uint64_t{0});
        worker.failures = line.value("failures", std::uint64_t{0});
        worker.coverage.clear();
        add_coverage(worker.coverage, line.value("coverage", json::object()));
    } else if (kind == "failure") {
        result.failures.push_back(failure_from_json(line));
        worker.failures++;
    } else if (kind == "summary") {
        worker.runs = line.value("runs", std::uint64_t{0});
        add_coverage(result.coverage, line["coverage"]);
        add_probes(result.probes, line.value("probes", json::array()));
        worker.coverage.clear(); // now in result.coverage
        worker.summarised = true;
    }
}

/// Reads what is available; false at end of file.
bool drain(Worker& worker, CampaignResult& result) {
    char buffer[65536];
    const ssize_t got = ::read(worker.fd, buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) {
        return true;
    }
    if (got <= 0) {
        return false;
    }
    worker.pending.append(buffer, static_cast<std::size_t>(got));
    std::size_t newline = 0;
    while ((newline = worker.pending.find('\n')) != std::string::npos) {
        take_line(worker.pending.substr(0, newline), worker, result);
        worker.pending.erase(0, newline + 1);
    }
    return true;
}

std::vector<Worker> start_workers(const scenarios::Scenario& scenario,
                                  const CampaignOptions& options) {
    std::vector<Worker> workers;
    std::fflush(stdout);
    std::fflush(stderr);
    for (std::uint32_t job = 0; job < options.jobs; job++) {
        int fds[2];
        if (::pipe(fds) != 0) {
            std::perror("routesim fuzz: pipe");
            break;
        }
        const pid_t pid = ::fork();
        if (pid == 0) {
            ::close(fds[0]);
            for (const Worker& other : workers) {
                ::close(other.fd);
            }
            PipeSink sink(fds[1], probe_counts(scenario));
            run_slice(scenario, options, Slice{job, options.jobs}, sink);
            ::close(fds[1]);
            std::_Exit(0);
        }
        ::close(fds[1]);
        if (pid < 0) {
            std::perror("routesim fuzz: fork");
            ::close(fds[0]);
            break;
        }
        workers.push_back(Worker{pid, fds[0], {}, 0, 0, false, {}});
    }
    return workers;
}

/// The progress line over all workers: finished ones' coverage and the others' latest.
void draw_progress(const std::vector<Worker>& workers, const CampaignResult& result,
                   Progress& progress) {
    std::uint64_t runs = 0;
    std::uint64_t failures = 0;
    std::map<std::string, CoverageCount> coverage = result.coverage;
    for (const Worker& worker : workers) {
        runs += worker.runs;
        failures += worker.failures;
        for (const auto& [key, count] : worker.coverage) {
            coverage[key].runs += count.runs;
            coverage[key].events += count.events;
        }
    }
    progress.update(runs, static_cast<std::size_t>(failures), coverage);
}

} // namespace

void run_forked(const scenarios::Scenario& scenario, const CampaignOptions& options,
                CampaignResult& result, Progress& progress) {
    std::vector<Worker> workers = start_workers(scenario, options);
    std::size_t open = workers.size();
    while (open > 0) {
        std::vector<pollfd> polls;
        std::vector<std::size_t> owners;
        for (std::size_t i = 0; i < workers.size(); i++) {
            if (workers[i].fd >= 0) {
                polls.push_back(pollfd{workers[i].fd, POLLIN, 0});
                owners.push_back(i);
            }
        }
        if (::poll(polls.data(), polls.size(), 200) < 0 && errno != EINTR) {
            break;
        }
        for (std::size_t p = 0; p < polls.size(); p++) {
            Worker& worker = workers[owners[p]];
            if ((polls[p].revents & (POLLIN | POLLHUP | POLLERR)) != 0 && !drain(worker, result)) {
                ::close(worker.fd);
                worker.fd = -1;
                open--;
            }
        }
        if (progress.due()) {
            draw_progress(workers, result, progress);
        }
    }
    for (std::size_t job = 0; job < workers.size(); job++) {
        Worker& worker = workers[job];
        int status = 0;
        ::waitpid(worker.pid, &status, 0);
        result.runs += worker.runs;
        // Worker `job` takes positions job, job + J, ... of the shard's indices K, K + N, ...
        result.slices.push_back(IndexSlice{options.shard_index + job * options.shard_count,
                                           options.shard_count * options.jobs, worker.runs});
        if (!worker.summarised || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            std::fprintf(stderr,
                         "routesim fuzz: worker %d ended abnormally (status %d) after %llu "
                         "runs; its last run is lost (an RS_ASSERT above names its seed)\n",
                         static_cast<int>(worker.pid), status,
                         static_cast<unsigned long long>(worker.runs));
            result.worker_crashed = true;
        }
    }
}

} // namespace routesim::tools::detail
