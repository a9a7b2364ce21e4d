// End to end over real sockets with one io_context per io thread (Config::io_context_per_thread):
// connections dealt to the two contexts in turn, so that some matches have their players on
// two threads; three whole games played side by side to their ends and watched, every viewer
// agreeing on every board; then a graceful stop.

#include <string>
#include <vector>

#include <catch2/catch_test_macros.hpp>

#include "protocol/json/basic_json.hpp"
#include "tests/server/support/e2e_support.hpp"

// Everything of this file in a namespace of its own: the server's tests are unity builds.
namespace e2e_io_contexts_test {

using e2e::json;

TEST_CASE("with an io_context per io thread, games on both threads play to their ends", "[e2e][io_threads]") {
    server::Config config = e2e::config();
    config.threads = 2;
    config.io_context_per_thread = true;
    test::RunningServer running(config);
    const std::uint16_t port = running.port();
    e2e::Traffic traffic;

    struct Table {
        std::unique_ptr<e2e::Player> a, b, watcher;
        std::string match;
        std::vector<e2e::Player*> seats;
        int steps = 0;
    };
    std::vector<Table> tables(3);
    const json settings = {{"game", "santorini"}, {"players", 2}, {"powers", "simple"}, {"draft", "random"},
                           {"clock", {{"kind", "none"}}}};
    for (std::size_t t = 0; t < tables.size(); ++t) {
        Table& table = tables[t];
        const std::string n = std::to_string(t);
        table.a = std::make_unique<e2e::Player>(port, traffic, "a" + n);
        table.b = std::make_unique<e2e::Player>(port, traffic, "b" + n);
        table.watcher = std::make_unique<e2e::Player>(port, traffic, "w" + n);
        table.a->hello(e2e::http_guest(port, "Ann " + n).token);
        table.b->hello(e2e::http_guest(port, "Bob " + n).token);
        table.watcher->hello(e2e::http_guest(port, "Wes " + n).token);
        table.match = e2e::start_private_match(*table.a, *table.b, settings).match;
        e2e::open_match(*table.watcher, table.match);
        e2e::open_match(*table.a, table.match);
        e2e::open_match(*table.b, table.match);
        e2e::sync({table.a.get(), table.b.get(), table.watcher.get()}, table.match);
        table.seats.assign(2, nullptr);
        table.seats[table.a->match(table.match).view["you"].get<std::size_t>()] = table.a.get();
        table.seats[table.b->match(table.match).view["you"].get<std::size_t>()] = table.b.get();
        REQUIRE(table.seats[0] != nullptr);
        REQUIRE(table.seats[1] != nullptr);
    }

    // A step of each unfinished game in turn.
    auto finished = [](Table& table) { return table.a->match(table.match).view["status"] == "finished"; };
    for (int round = 0; round < 1500; ++round) {
        bool all_done = true;
        for (Table& table : tables) {
            if (finished(table)) continue;
            all_done = false;
            const std::vector<e2e::Player*> everyone = {table.a.get(), table.b.get(), table.watcher.get()};
            e2e::play_first_legal(table.seats, everyone, table.match, ++table.steps);
            CHECK(table.a->match(table.match).view["state"]["board"] ==
                  table.watcher->match(table.match).view["state"]["board"]);
            CHECK(table.b->match(table.match).view["history"] == table.watcher->match(table.match).view["history"]);
        }
        if (all_done) break;
    }
    for (Table& table : tables) {
        INFO("match " << table.match << " after " << table.steps << " steps");
        CHECK(finished(table));
        CHECK(table.watcher->match(table.match).view["status"] == "finished");
    }
    running.stop();
}

}  // namespace e2e_io_contexts_test
