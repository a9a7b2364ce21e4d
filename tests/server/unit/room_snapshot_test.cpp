// The leader's rooms as a document (server/rooms/room_snapshot.hpp): what a fleet's leader saves
// and a new leader puts back, lobbies by LobbyBook::restore and queue places with their joining
// time.

#include "server/rooms/room_snapshot.hpp"

#include <catch2/catch_test_macros.hpp>

using namespace server;
using nlohmann::json;

namespace {

protocol::LobbySettings snapshot_settings(bool is_public) {
    protocol::LobbySettings s;
    s.is_public = is_public;
    s.rated = is_public;
    return s;
}

}  // namespace

TEST_CASE("Lobbies and queue places come back from their document as they were", "[rooms][fleet]") {
    LobbyBook book;
    auto made = book.create(Member{"p_host", "Host", 0}, snapshot_settings(false));
    REQUIRE(std::holds_alternative<const Lobby*>(made));
    const Lobby original = *std::get<const Lobby*>(made);
    REQUIRE(std::holds_alternative<const Lobby*>(
        book.join_by_code(original.code, {"p_guest", "Guest", 0})));
    auto other = book.create(Member{"p_solo", "Solo", 0}, snapshot_settings(true));
    REQUIRE(std::holds_alternative<const Lobby*>(other));
    const std::string other_id = std::get<const Lobby*>(other)->id;
    REQUIRE(std::holds_alternative<Departure>(book.kick(original.id, "p_host", "p_guest")));
    REQUIRE(std::holds_alternative<const Lobby*>(book.join(original.id, {"p_third", "Third", 0})));
    REQUIRE(std::holds_alternative<LobbyChatLine>(book.chat(original.id, "p_host", "hello", 5)));
    REQUIRE(std::holds_alternative<LobbyChatLine>(book.chat(original.id, "p_third", "hi ✓", 6)));
    const json chat_before = book.find(original.id)->chat.to_json();

    const auto now = std::chrono::steady_clock::now();
    const std::int64_t now_ms = 1'000'000;
    QueueEntry waiting{"p_q", QueueKey{"santorini", 300, 3}, 1612.5, 80.25, {}, now_ms - 4000};
    const json document = room_snapshot_json(book, {waiting});
    // Through text, as the database keeps it.
    auto read = read_room_snapshot(json::parse(document.dump()), now, now_ms);
    REQUIRE(std::holds_alternative<RoomSnapshot>(read));
    RoomSnapshot rooms = std::get<RoomSnapshot>(std::move(read));
    REQUIRE(rooms.lobbies.size() == 2);
    CHECK(rooms.lobbies[0].id == original.id);  // creation order
    CHECK(rooms.lobbies[1].id == other_id);

    LobbyBook fresh;
    for (Lobby& l : rooms.lobbies) CHECK(fresh.restore(std::move(l)));
    const Lobby* back = fresh.find(original.id);
    REQUIRE(back);
    CHECK(back->code == original.code);
    CHECK(back->host == "p_host");
    CHECK(back->seats.size() == 2);
    CHECK(back->seats[1].id == "p_third");
    CHECK(back->seats[1].name == "Third");
    CHECK(back->kicked.count("p_guest") == 1);
    // The chat as it was, numbers and all; the next line follows on.
    CHECK(back->chat.to_json() == chat_before);
    auto next = fresh.chat(original.id, "p_host", "again", 7);
    REQUIRE(std::holds_alternative<LobbyChatLine>(next));
    CHECK(std::get<LobbyChatLine>(next).n == 3);
    CHECK(fresh.find(other_id)->chat.to_json().empty());
    CHECK(back->to_json(false)["settings"] == protocol::lobby_settings_json(original.settings));
    CHECK(fresh.lobby_of("p_third") == back);
    // The invite code still finds it, and the kicked player stays out.
    CHECK(std::holds_alternative<LobbyError>(
        fresh.join_by_code(original.code, {"p_guest", "Guest", 0})));
    CHECK(fresh.public_json().size() == 1);

    REQUIRE(rooms.queue.size() == 1);
    const QueueEntry& q = rooms.queue[0];
    CHECK(q.player == "p_q");
    CHECK(q.key == waiting.key);
    CHECK(q.rating == 1612.5);
    CHECK(q.deviation == 80.25);
    CHECK(q.since_ms == now_ms - 4000);
    // Waited 4 s already: its window has widened for those waves.
    CHECK(q.joined == now - std::chrono::milliseconds(4000));
}

TEST_CASE("A lobby that clashes with one already here is not restored", "[rooms][fleet]") {
    LobbyBook book;
    auto made = book.create(Member{"p_host", "Host", 0}, snapshot_settings(false));
    REQUIRE(std::holds_alternative<const Lobby*>(made));
    Lobby copy = *std::get<const Lobby*>(made);
    CHECK_FALSE(book.restore(copy));  // same id
    copy.id = "l_other";
    CHECK_FALSE(book.restore(copy));  // same code
    copy.code = "ZZZZZZ";
    CHECK_FALSE(book.restore(copy));  // its host waits in the first lobby
    copy.seats = {Member{"p_new", "New", 0}};
    copy.host = "p_new";
    CHECK(book.restore(copy));
    CHECK(book.size() == 2);
}

TEST_CASE("A malformed rooms document is an error, not an exception", "[rooms][fleet]") {
    const auto now = std::chrono::steady_clock::now();
    for (const json& bad :
         {json(nullptr), json{{"version", 2}, {"lobbies", json::array()}, {"queue", json::array()}},
          json{{"version", 1},
               {"lobbies", json::array({{{"id", "l_x"}}})},
               {"queue", json::array()}},
          json{{"version", 1},
               {"lobbies", json::array()},
               {"queue", json::array({{{"player", 3}}})}}}) {
        INFO(bad.dump());
        CHECK(std::holds_alternative<std::string>(read_room_snapshot(bad, now, 0)));
    }
}
