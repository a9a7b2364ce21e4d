// server-bench: a load generator for a running santorini-server, over real WebSockets on the
// loopback interface only.
//
// It creates 2 x N guests, pairs them in N private lobbies (no clock; powers as --powers), and
// every pair plays random legal steps as fast as the server answers (or, with --think MIN,MAX,
// at human pace: the deciding player thinks a uniform MIN..MAX ms before each step, open loop),
// starting a new lobby when a game ends, for a fixed time. Each client plays like a real one: it
// keeps its view by applying every patch, and the seat that must decide picks uniformly from the
// legal steps its own view lists. At the end of each game, and at the end of the run for the
// games still going, both clients re-open the match without `since` and check that their patched
// view equals the `match.snapshot` (any difference is a mismatch; the exit status is 1 if there is
// one).
//
// Printed: steps and full turns per second (a full turn: every step from a turn's start to the
// next seat's turn); the latency of a step from the moment it is sent to the moment its patch
// reaches the sender ("ack") and the opponent; the CPU the bench itself took over the measured
// window (getrusage) and, with --server-pid, the server's CPU (/proc/<pid>/stat), its CPU per
// full turn, its resident memory, and the step latency the server measures itself (arrival to
// broadcast, from its GET /metrics histogram). --hold-after K: every pair stops after K steps of
// its first game and keeps that match live, so the memory a live match costs can be read off.
// --idle-sockets N: N more guests connect, say hello and stay open (Beast answers the server's
// pings), to show how many sockets one server holds and what one costs. --rss-every S prints
// the server's RSS every S seconds (flat memory over a long run with games starting and ending).
//
// The server must be started with its per-connection and per-address limits lifted, e.g.
//   santorini-server --port 8090 --messages-per-second 1000000 --message-burst 1000000
//                    --guest-burst 1000000 --max-connections 30000 --log-level warn
//   server-bench --port 8090 --matches 1000 --seconds 10 --server-pid <pid>
// (docs/benchmarks.md). The run stops by itself after --seconds.
//
// The parts, one concept a file: options (the command line), probes (CPU and memory read off
// /proc), connection (a guest and its WebSocket), pair (the match driver: two players, game
// after game, and the check against a snapshot), idle_sockets, totals (what a run counts) and
// report (what it prints). This file sets up the pairs and runs the clock of the run.

#include <algorithm>
#include <atomic>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <functional>
#include <iostream>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "server/tools/server_bench/common.hpp"
#include "server/tools/server_bench/connection.hpp"
#include "server/tools/server_bench/idle_sockets.hpp"
#include "server/tools/server_bench/options.hpp"
#include "server/tools/server_bench/pair.hpp"
#include "server/tools/server_bench/probes.hpp"
#include "server/tools/server_bench/report.hpp"
#include "server/tools/server_bench/server_metrics.hpp"
#include "server/tools/server_bench/totals.hpp"

using namespace server_bench;

int main(int argc, char** argv) {
    Options options;
    try {
        options = parse(argc, argv);
    } catch (const std::exception& e) {
        std::cerr << e.what() << "\n" << usage() << "\n";
        return 2;
    }
    const rlim_t open_files = raise_open_files();
    if (open_files < static_cast<rlim_t>(2 * options.matches + options.idle_sockets + 64))
        std::cerr << "warning: the open-file limit (" << open_files
                  << ") is below the sockets asked for\n";
    asio::io_context io(options.threads);
    Totals totals;
    totals.hold_after = options.hold_after;
    totals.powers = options.powers;
    totals.step_refs = options.acks != "none";
    totals.think_min_ms = options.think_min_ms;
    totals.think_max_ms = options.think_max_ms;

    std::vector<std::shared_ptr<IdleSocket>> idle;
    std::atomic<int> idle_open{0}, idle_failed{0};
    std::vector<std::unique_ptr<Pair>> pairs;
    Measured measured;
    try {
        if (options.idle_sockets > 0) open_idle_sockets(io, options, idle, idle_open, idle_failed);
        measured.rss_before = resident_kib(options.server_pid);
        for (int m = 0; m < options.matches; ++m) {
            auto pair = std::make_unique<Pair>(asio::make_strand(io), totals,
                                               static_cast<std::uint32_t>(m + 1));
            for (int i = 0; i < 2; ++i) {
                auto [id, token] = create_guest(io, options.port, "B" + std::to_string(2 * m + i));
                pair->players[i] = std::make_shared<Connection>(pair->strand(), *pair, i, token);
                pair->players[i]->ack_in_patch = options.acks == "patch";
            }
            pairs.push_back(std::move(pair));
        }
    } catch (const std::exception& e) {
        std::cerr << "setup failed: " << e.what() << "\n";
        return 1;
    }
    for (auto& pair : pairs)
        for (auto& c : pair->players) c->start(options.port);

    // The measured time runs once every pair has its first match open (at most a minute of
    // setup). At its end every pair checks its game in progress against a snapshot (up to 10 s).
    measured.idle_peak = idle_open;
    const auto setup_limit = Clock::now() + std::chrono::seconds(60);
    auto setup_end = setup_limit;
    auto end = setup_end + std::chrono::seconds(options.seconds);
    auto check_deadline = end + std::chrono::seconds(10);
    auto last_rss_print = setup_end;
    std::uint64_t last_rss_steps = 0;
    asio::steady_timer tick(io);
    std::function<void()> on_tick = [&] {
        measured.rss_peak = std::max(measured.rss_peak, resident_kib(options.server_pid));
        measured.idle_peak = std::max(measured.idle_peak, idle_open.load());
        const auto now = Clock::now();
        if (!totals.measuring && !totals.stopping &&
            (now >= setup_limit || totals.started == static_cast<int>(pairs.size()))) {
            setup_end = last_rss_print = now;
            end = setup_end + std::chrono::seconds(options.seconds);
            check_deadline = end + std::chrono::seconds(10);
            std::printf("setup: %d of %zu pairs have their match open\n", totals.started.load(),
                        pairs.size());
            measured.own_start = own_cpu_seconds();
            measured.server_start = process_cpu_seconds(options.server_pid);
            measured.machine_start = machine_ticks();
            measured.server_steps_start = scrape_step_latency(io, options.port);
            totals.measuring = true;
        }
        if (options.rss_every > 0 && totals.measuring &&
            now - last_rss_print >= std::chrono::seconds(options.rss_every)) {
            const double dt = std::chrono::duration<double>(now - last_rss_print).count();
            const std::uint64_t steps = totals.steps;
            std::printf("t=%5.0f s  server RSS %ld KiB  games finished %llu  steps/s %.0f\n",
                        std::chrono::duration<double>(now - setup_end).count(),
                        resident_kib(options.server_pid),
                        static_cast<unsigned long long>(totals.all_games.load()),
                        (steps - last_rss_steps) / dt);
            std::fflush(stdout);
            last_rss_print = now;
            last_rss_steps = steps;
        }
        if (now >= end && !totals.stopping) {
            measured.own_end = own_cpu_seconds();
            measured.server_end = process_cpu_seconds(options.server_pid);
            measured.machine_end = machine_ticks();
            measured.server_steps_end = scrape_step_latency(io, options.port);
            totals.measuring = false;
            totals.stopping = true;
            for (auto& pair : pairs) asio::post(pair->strand(), [p = pair.get()] { p->finish(); });
        }
        if (totals.stopping &&
            (totals.done == static_cast<int>(pairs.size()) || now >= check_deadline)) {
            io.stop();
            return;
        }
        tick.expires_after(std::chrono::milliseconds(250));
        tick.async_wait([&](beast::error_code) { on_tick(); });
    };
    on_tick();
    std::thread guard([&] {  // the run always stops by itself
        std::this_thread::sleep_until(setup_limit + std::chrono::seconds(options.seconds + 15));
        io.stop();
    });
    std::vector<std::thread> threads;
    for (int t = 1; t < options.threads; ++t) threads.emplace_back([&] { io.run(); });
    io.run();
    for (auto& t : threads) t.join();
    guard.detach();

    Samples ack, broadcast;
    for (auto& pair : pairs) {
        ack.merge(pair->ack);
        broadcast.merge(pair->broadcast);
    }
    measured.idle_open = idle_open;
    print_report(options, totals, ack, broadcast, pairs.size(), measured);
    // Connections may still be open; the numbers are out.
    std::_Exit(totals.mismatches > 0 || totals.gaps > 0 ? 1 : 0);
}
