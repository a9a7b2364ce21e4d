#include "tests/fleet/fleet_play.hpp"

#include <algorithm>
#include <catch2/catch_test_macros.hpp>
#include <pqxx/pqxx>
#include <thread>

#include "tests/fleet/fleet.hpp"

namespace fleet {

json plain_settings() {
    return {{"game", "santorini"}, {"players", 2},           {"powers", "none"},
            {"public", true},      {"confirm_turns", false}, {"clock", {{"kind", "none"}}},
            {"rated", true}};  // a lobby with rated games (the test checks ratings)
}

std::vector<Client*> everyone(const Game& game) {
    std::vector<Client*> all = game.seats;
    all.insert(all.end(), game.watchers.begin(), game.watchers.end());
    return all;
}

Game start_lobby_game(Client& host, Client& guest, const json& settings, unsigned seed) {
    json reply = host.request({{"type", "lobby.create"}, {"settings", settings}});
    INFO(host.label() << " lobby.create: " << reply.dump());
    REQUIRE(reply["type"] == "ack");
    auto lobby = host.take([](const json& m) { return m.value("type", "") == "lobby"; });
    REQUIRE(lobby);
    const std::string lobby_id = (*lobby)["lobby"]["id"];
    const std::string code = (*lobby)["lobby"]["code"];
    reply = guest.request({{"type", "lobby.join"}, {"code", code}});
    INFO(guest.label() << " lobby.join: " << reply.dump());
    REQUIRE(reply["type"] == "ack");
    reply = host.request({{"type", "lobby.start"}, {"lobby", lobby_id}});
    INFO(host.label() << " lobby.start: " << reply.dump());
    REQUIRE(reply["type"] == "ack");
    auto is_closed = [](const json& m) {
        return m.value("type", "") == "lobby.closed" && m.contains("match");
    };
    auto closed = host.take(is_closed);
    REQUIRE(closed);
    auto guest_closed = guest.take(is_closed);
    REQUIRE(guest_closed);
    Game game;
    game.match = (*closed)["match"];
    CHECK((*guest_closed)["match"] == game.match);
    game.rng.seed(seed);
    game.seats.assign(2, nullptr);
    for (Client* c : {&host, &guest}) {
        reply = c->open(game.match);
        INFO(c->label() << " match.open: " << reply.dump());
        REQUIRE(reply["type"] == "ack");
        const json& you = c->match(game.match).view["you"];
        REQUIRE(you.is_number_integer());
        game.seats.at(you.get<std::size_t>()) = c;
    }
    REQUIRE(game.seats[0] != nullptr);
    REQUIRE(game.seats[1] != nullptr);
    return game;
}

namespace {

bool finished(const json& view) {
    return view["status"] == "finished" || view["status"] == "aborted";
}

std::uint64_t top_version(const Game& game) {
    std::uint64_t top = 0;
    for (const Client* c : everyone(game)) top = std::max(top, c->version_of(game.match));
    return top;
}

bool contains(const json& legal, const json& step) {
    return std::find(legal.begin(), legal.end(), step) != legal.end();
}

}  // namespace

void play_strict(Game& game) {
    const std::uint64_t top = top_version(game);
    for (Client* c : everyone(game)) {
        INFO(c->label() << " reaching version " << top << " of " << game.match);
        REQUIRE(c->until_version(game.match, top));
    }
    if (finished(game.seats[0]->match(game.match).view)) {
        game.over = true;
        return;
    }
    const json& decider = game.seats[0]->match(game.match).view["state"]["decider"];
    REQUIRE(decider.is_number_integer());
    Client& mover = *game.seats.at(decider.get<std::size_t>());
    const json view = mover.match(game.match).view;
    REQUIRE(view["state"]["legal"].is_array());
    REQUIRE_FALSE(view["state"]["legal"].empty());
    const json step = integration::pick(view, game.rng);
    const int number = static_cast<int>(view["history"].size()) + 1;
    const json reply =
        mover.request({{"type", "match.step"}, {"match", game.match}, {"step", step}});
    INFO(mover.label() << " step " << number << " " << step.dump() << ": " << reply.dump());
    REQUIRE(reply["type"] == "ack");
    game.acked.emplace_back(number, step);
    for (Client* c : everyone(game)) {
        INFO(c->label() << " reaching version " << top + 1 << " of " << game.match);
        REQUIRE(c->until_version(game.match, top + 1));
    }
}

namespace {

/// How long a resilient player waits for an answer before it counts as lost: longer than a
/// lease, within which a home that forwarded the request to a dead owner counts it dead and
/// closes the connection (1012); not much longer, since the games are played one step at a
/// time in turn and every wait delays all of them.
constexpr std::chrono::milliseconds answer_within = 2 * lease;

/// Connects `c` again through HAProxy and reopens its matches; retries (briefly) until it
/// worked. False if it did not within a few seconds (the caller tries again later).
bool reconnect(Client& c, std::uint16_t proxy_port, Trouble& trouble) {
    if (c.close_code() == std::optional<std::uint16_t>(1012)) ++trouble.closed_1012;
    const auto until = std::chrono::steady_clock::now() + 3s;
    while (std::chrono::steady_clock::now() < until) {
        try {
            c.connect(proxy_port);
            ++trouble.reconnects;
            if (c.reopen_all(answer_within)) return true;
        } catch (const integration::Lost&) {
        }
        std::this_thread::sleep_for(100ms);
    }
    return false;
}

}  // namespace

void play_resilient(Game& game, std::uint16_t proxy_port, Trouble& trouble) {
    try {
        for (Client* c : game.seats) {
            if (!c->connected()) {
                if (!reconnect(*c, proxy_port, trouble)) return;
            } else if (c->match(game.match).stale) {
                if (c->open(game.match, c->version_of(game.match), answer_within)["type"] != "ack")
                    return;
            }
        }
        const std::uint64_t top = top_version(game);
        for (Client* c : game.seats)
            if (!c->until_version(game.match, top, answer_within)) throw integration::Lost{};
        const json& seen = game.seats[0]->match(game.match).view;
        if (finished(seen)) {
            game.over = true;
            return;
        }
        const json& decider = seen["state"]["decider"];
        REQUIRE(decider.is_number_integer());
        Client& mover = *game.seats.at(decider.get<std::size_t>());
        const json view = mover.match(game.match).view;
        const json& legal = view["state"]["legal"];
        REQUIRE(legal.is_array());
        REQUIRE_FALSE(legal.empty());
        const int number = static_cast<int>(view["history"].size()) + 1;
        json step;
        if (game.pending && game.pending->first == number &&
            contains(legal, game.pending->second)) {
            step = game.pending->second;  // not stored: send it again
            ++game.resent;
        } else {
            if (game.pending && game.pending->first < number) ++game.stored_unacked;
            step = integration::pick(view, game.rng);
        }
        game.pending.emplace(number, step);
        const json reply = mover.request(
            {{"type", "match.step"}, {"match", game.match}, {"step", step}}, answer_within);
        if (reply["type"] == "ack") {
            game.acked.emplace_back(number, step);
            game.pending.reset();
        } else {
            ++game.errors[reply.value("code", "?")];
            // The view may be behind (a step of ours stored, its ack lost): resync.
            mover.match(game.match).stale = true;
            std::this_thread::sleep_for(50ms);
        }
    } catch (const integration::Lost&) {
        ++trouble.lost;
        // A connection that is up but did not answer twice in a row: give up on it (a client's
        // own liveness check), its home may be waiting for a dead owner.
        for (Client* c : game.seats)
            if (c->connected() && c->match(game.match).stale) {
                c->drop();
                ++trouble.dropped;
            } else if (c->connected()) {
                c->match(game.match).stale = true;
            }
    }
}

void check_database(const std::string& url, const std::vector<Game>& games) {
    pqxx::connection connection(url);
    pqxx::nontransaction work(connection);
    // Every stored match: steps 1..n, no gap, no duplicate (the primary key forbids those).
    for (const auto& row : work.exec(
             "SELECT m.id, count(s.number), coalesce(min(s.number), 1), coalesce(max(s.number), 0) "
             "FROM matches m LEFT JOIN steps s ON s.match_id = m.id GROUP BY m.id")) {
        INFO("match " << row[0].as<std::string>());
        CHECK(row[2].as<long>() == 1);
        CHECK(row[1].as<long>() == row[3].as<long>());
    }
    for (const Game& game : games) {
        INFO("match " << game.match);
        std::map<int, json> stored;
        for (const auto& row : work.exec_params(
                 "SELECT number, step::text FROM steps WHERE match_id = $1 ORDER BY number",
                 game.match))
            stored[row[0].as<int>()] = json::parse(row[1].as<std::string>());
        for (const auto& [number, step] : game.acked) {
            INFO("acknowledged step " << number << " " << step.dump());
            REQUIRE(stored.count(number) == 1);
            CHECK(stored[number] == step);
        }
        const json& view = game.seats[0]->match(game.match).view;
        CHECK(view["history"].size() == stored.size());
        const auto m = work.exec_params1(
            "SELECT status, result IS NOT NULL, coalesce(settings->>'rated', 'true'), "
            "(SELECT count(*) FROM seats WHERE match_id = $1), "
            "(SELECT count(*) FROM seats WHERE match_id = $1 AND rating_after IS NOT NULL) "
            "FROM matches WHERE id = $1",
            game.match);
        CHECK(m[0].as<std::string>() == "finished");
        CHECK(m[1].as<bool>());
        if (m[2].as<std::string>() != "false") CHECK(m[4].as<long>() == m[3].as<long>());
    }
    // Every finished rated match: exactly one rating change per seat.
    for (const auto& row : work.exec(
             "SELECT m.id, (SELECT count(*) FROM seats s WHERE s.match_id = m.id), "
             "(SELECT count(*) FROM rating_history r WHERE r.match_id = m.id), "
             "(SELECT count(DISTINCT r.player_id) FROM rating_history r WHERE r.match_id = m.id) "
             "FROM matches m WHERE m.status = 'finished' AND coalesce(m.settings->>'rated', "
             "'true') <> 'false'")) {
        INFO("finished match " << row[0].as<std::string>());
        CHECK(row[2].as<long>() == row[1].as<long>());
        CHECK(row[3].as<long>() == row[1].as<long>());
    }
}

std::string owner_of(const std::string& url, const std::string& match) {
    pqxx::connection connection(url);
    pqxx::nontransaction work(connection);
    const auto row =
        work.exec_params1("SELECT coalesce(owner_node, '') FROM matches WHERE id = $1", match);
    return row[0].as<std::string>();
}

}  // namespace fleet
