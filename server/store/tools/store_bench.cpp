// store-bench: how many steps per second PgStepStore makes durable, and what it adds to a step.
//
// N simulated matches play at once, each in a closed loop: append step k, wait for done(true),
// append step k+1 (like a match strand, which stores one action at a time). Prints durable
// steps/s, transactions, steps per transaction, and the added latency (append -> done) at p50,
// p99 and max. It creates its own players and matches in the database it is given (after
// applying migrations/), so run it against a throwaway cluster:
//
//   scripts/with-postgres sh -c 'build/release/store-bench --url "$SANTORINI_TEST_DATABASE_URL"'
//
// Options: --url URL (default $SANTORINI_TEST_DATABASE_URL), --matches N (100),
// --steps N per match (200), --window-us N (300), --migrations DIR (migrations), --create (the
// matches are created through the step store, timed, each right before its first step, as the
// server does; without it they are made beforehand through the repository), --node ID (the
// store fences every step as a fleet node does, docs/scaling.md; the matches made beforehand
// are claimed by that node through FleetStore).

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "server/store/fleet_store.hpp"
#include "server/store/migrations.hpp"
#include "server/store/pg_step_store.hpp"
#include "server/store/repository.hpp"
#include "server/time/epoch_ms.hpp"

namespace {

using Clock = std::chrono::steady_clock;

struct Bench {
    store::PgStepStore* store = nullptr;
    int steps_per_match = 0;
    std::vector<std::string> match_ids;
    std::vector<std::string> players;
    std::mutex mutex;
    std::condition_variable finished;
    int matches_left = 0;
    int failures = 0;
    std::vector<double> latencies_us;
    std::vector<double> creations_us;

    // Creates match `match` through the store (as the server does), then plays its steps.
    void create(std::size_t match) {
        server::MatchCreation m;
        m.id = match_ids[match];
        m.settings_json = "{}";
        m.seats = {{0, players[0], "", {}}, {1, players[1], "", {}}};
        const auto start = Clock::now();
        store->create(std::move(m), [this, match, start](bool ok) {
            {
                std::lock_guard lock(mutex);
                creations_us.push_back(
                    std::chrono::duration<double, std::micro>(Clock::now() - start).count());
                if (!ok) {
                    ++failures;
                    if (--matches_left == 0) finished.notify_all();
                    return;
                }
            }
            play(match, 1);
        });
    }

    void play(std::size_t match, std::uint32_t number) {
        server::StepRecord r;
        r.match_id = match_ids[match];
        r.number = number;
        r.player_id = players[(match * 2 + number) % players.size()];
        r.step_json = R"({"kind":"move","worker":0,"from":"c3","to":"d4"})";
        r.at_ms = server::now_epoch_ms();
        const auto start = Clock::now();
        store->append(std::move(r), [this, match, number, start](bool ok) {
            const double us =
                std::chrono::duration<double, std::micro>(Clock::now() - start).count();
            bool last = false;
            {
                std::lock_guard lock(mutex);
                latencies_us.push_back(us);
                if (!ok) ++failures;
                last = !ok || static_cast<int>(number) == steps_per_match;
                if (last && --matches_left == 0) finished.notify_all();
            }
            if (!last) play(match, number + 1);
        });
    }
};

const char* arg_value(int& i, int argc, char** argv) {
    if (i + 1 >= argc) {
        std::fprintf(stderr, "store-bench: %s needs a value\n", argv[i]);
        std::exit(2);
    }
    return argv[++i];
}

}  // namespace

int main(int argc, char** argv) {
    const char* env = std::getenv("SANTORINI_TEST_DATABASE_URL");
    std::string url = env ? env : "";
    std::string migrations = "migrations";
    int matches = 100, steps = 200, window_us = 300;
    bool create_through_store = false;
    std::string node;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--url"))
            url = arg_value(i, argc, argv);
        else if (!std::strcmp(argv[i], "--matches"))
            matches = std::atoi(arg_value(i, argc, argv));
        else if (!std::strcmp(argv[i], "--steps"))
            steps = std::atoi(arg_value(i, argc, argv));
        else if (!std::strcmp(argv[i], "--window-us"))
            window_us = std::atoi(arg_value(i, argc, argv));
        else if (!std::strcmp(argv[i], "--create"))
            create_through_store = true;
        else if (!std::strcmp(argv[i], "--node"))
            node = arg_value(i, argc, argv);
        else if (!std::strcmp(argv[i], "--migrations"))
            migrations = arg_value(i, argc, argv);
        else {
            std::fprintf(stderr, "store-bench: unknown argument %s (see the source's header)\n",
                         argv[i]);
            return 2;
        }
    }
    if (url.empty() || matches < 1 || steps < 1 || window_us < 0) {
        std::fprintf(stderr,
                     "store-bench: need --url (or SANTORINI_TEST_DATABASE_URL), "
                     "--matches >= 1, --steps >= 1, --window-us >= 0\n");
        return 2;
    }
    auto migrated = store::migrate(url, migrations);
    if (!migrated) {
        std::fprintf(stderr, "store-bench: %s\n", migrated.error().message.c_str());
        return 1;
    }

    // Fresh players and matches, so the bench can run again on the same database.
    const auto tag = std::to_string(std::chrono::system_clock::now().time_since_epoch().count());
    store::Repository repo(url, 2);
    Bench bench;
    bench.steps_per_match = steps;
    bench.matches_left = matches;
    for (int p = 0; p < 2; ++p) {
        const std::string id = "p_bench" + std::to_string(p) + "_" + tag;
        if (auto r = repo.create_guest({id, "bench", "token" + id, 0}); !r) {
            std::fprintf(stderr, "store-bench: %s\n", r.error().message.c_str());
            return 1;
        }
        bench.players.push_back(id);
    }
    for (int m = 0; m < matches; ++m) {
        store::NewMatch nm;
        nm.id = "m_bench" + std::to_string(m) + "_" + tag;
        nm.settings_json = "{}";
        nm.seats = {{0, bench.players[0], "", {}}, {1, bench.players[1], "", {}}};
        bench.match_ids.push_back(nm.id);
        if (create_through_store) continue;
        if (auto r = repo.create_match(nm); !r) {
            std::fprintf(stderr, "store-bench: %s\n", r.error().message.c_str());
            return 1;
        }
    }

    if (!node.empty() && !create_through_store) {
        store::FleetStoreOptions fleet_options;
        fleet_options.url = url;
        fleet_options.node = node;
        store::FleetStore fleet(fleet_options);
        for (const auto& id : bench.match_ids)
            if (auto c = fleet.claim(id); !c || *c != store::Claim::Claimed) {
                std::fprintf(stderr, "store-bench: node %s cannot claim %s\n", node.c_str(),
                             id.c_str());
                return 1;
            }
    }

    store::PgStepStoreOptions options;
    options.url = url;
    options.node = node;
    options.window = std::chrono::microseconds(window_us);
    store::PgStepStore step_store(options);
    if (!step_store.wait_available(std::chrono::seconds(10))) {
        std::fprintf(stderr, "store-bench: cannot connect\n");
        return 1;
    }
    bench.store = &step_store;
    const auto start = Clock::now();
    for (int m = 0; m < matches; ++m) {
        if (create_through_store)
            bench.create(static_cast<std::size_t>(m));
        else
            bench.play(static_cast<std::size_t>(m), 1);
    }
    {
        std::unique_lock lock(bench.mutex);
        bench.finished.wait(lock, [&] { return bench.matches_left == 0; });
    }
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    const auto stats = step_store.stats();

    std::lock_guard lock(bench.mutex);
    auto& l = bench.latencies_us;
    std::sort(l.begin(), l.end());
    auto at = [&](double q) {
        return l[std::min(l.size() - 1, static_cast<std::size_t>(q * l.size()))];
    };
    std::printf("matches %d, steps per match %d, window %d us%s%s\n", matches, steps, window_us,
                node.empty() ? "" : ", fenced as node ", node.c_str());
    // The store counts creations among what it stored; the steps are the rest.
    const auto creations = static_cast<std::uint64_t>(bench.creations_us.size());
    const std::uint64_t steps_stored = stats.stored - std::min(stats.stored, creations);
    std::printf("durable steps: %llu in %.2f s = %.0f steps/s (failed: %d)\n",
                static_cast<unsigned long long>(steps_stored), seconds,
                static_cast<double>(steps_stored) / seconds, bench.failures);
    if (creations > 0) {
        auto& c = bench.creations_us;
        std::sort(c.begin(), c.end());
        std::printf("match creations through the store: %llu, p50 %.0f us, max %.0f us\n",
                    static_cast<unsigned long long>(creations), c[c.size() / 2], c.back());
    }
    std::printf("transactions: %llu (%.1f steps per transaction)\n",
                static_cast<unsigned long long>(stats.transactions),
                static_cast<double>(steps_stored) /
                    static_cast<double>(std::max<std::uint64_t>(1, stats.transactions)));
    std::printf("added latency: p50 %.0f us, p99 %.0f us, max %.0f us\n", at(0.50), at(0.99),
                l.back());
    return bench.failures == 0 ? 0 : 1;
}
