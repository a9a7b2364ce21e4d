// A lobby's chat (docs/protocol.md, "Lobby chat"): the log's bounds and order, the book's rules
// (members only, the text rules of a match's chat, the per-person rate), and through the hub who
// receives a line: the members' connections, nobody else.

#include <catch2/catch_test_macros.hpp>
#include <chrono>
#include <string>

#include "server/rooms/lobby.hpp"
#include "server/rooms/lobby_chat.hpp"
#include "tests/server/support/hub_harness.hpp"

// Everything of this file in a namespace of its own: server_tests is a unity build
// (CMakeLists.txt), and other sources of its batch have helpers of the same names.
namespace lobby_chat_test {

using namespace server;
using namespace server::test;

namespace {

LobbyChatLine said(const std::string& text, std::int64_t at_ms = 1) {
    return LobbyChatLine{0, at_ms, "p_ann", "Ann", text};
}

std::string lobby_of(const std::variant<const Lobby*, LobbyError>& made) {
    REQUIRE(std::holds_alternative<const Lobby*>(made));
    return std::get<const Lobby*>(made)->id;
}

protocol::LobbySettings two_players() {
    protocol::LobbySettings settings;
    settings.players = 2;
    return settings;
}

bool received_text(const FakeParticipant& conn, const std::string& text) {
    for (const auto& m : conn.messages())
        if (m.dump().find(text) != std::string::npos) return true;
    return false;
}

}  // namespace

TEST_CASE("lobby chat log: numbered in order, the newest 30 lines kept", "[lobby][chat][unit]") {
    LobbyChatLog log;
    CHECK(log.to_json() == json::array());
    for (int i = 1; i <= 40; ++i) CHECK(log.add(said("line " + std::to_string(i))).n == static_cast<std::uint64_t>(i));
    REQUIRE(log.lines().size() == LobbyChatLog::max_lines);
    CHECK(log.lines().front().text == "line 11");
    CHECK(log.lines().back().text == "line 40");
    CHECK(log.lines().front().n == 11);
    const json all = log.to_json();
    REQUIRE(all.size() == 30);
    CHECK(all[29] == json{{"n", 40}, {"at_ms", 1}, {"player", "p_ann"}, {"name", "Ann"},
                          {"text", "line 40"}});
    std::size_t bytes = 0;
    for (const json& line : all) bytes += line.dump().size();
    CHECK(log.bytes() == bytes);
}

TEST_CASE("lobby chat log: at most 8 KiB of lines, oldest dropped first", "[lobby][chat][unit]") {
    LobbyChatLog log;
    const std::string long_text(1000, 'x');  // about 1 KiB a line: the bytes bind before the lines
    for (int i = 0; i < 20; ++i) log.add(said(long_text + std::to_string(i)));
    CHECK(log.bytes() <= LobbyChatLog::max_bytes);
    CHECK(log.lines().size() < 10);
    CHECK(log.lines().back().text == long_text + "19");
    CHECK(log.lines().back().n == 20);
    for (std::size_t i = 1; i < log.lines().size(); ++i)
        CHECK(log.lines()[i].n == log.lines()[i - 1].n + 1);
}

TEST_CASE("lobby book chat: members only, checked text, 5 at once then 1 a second",
          "[lobby][chat][unit]") {
    LobbyBook book;
    const std::string id = lobby_of(book.create(Member{"p_ann", "Ann"}, two_players()));
    const std::string other = lobby_of(book.create(Member{"p_cy", "Cy"}, two_players()));
    auto t0 = std::chrono::steady_clock::now();
    auto code = [](const std::variant<LobbyChatLine, LobbyError>& r) {
        return std::holds_alternative<LobbyError>(r) ? std::get<LobbyError>(r).code
                                                     : protocol::ErrorCode{};
    };
    CHECK(code(book.chat("l_nope", "p_ann", "hi", 1, t0)) == protocol::ErrorCode::UnknownLobby);
    CHECK(code(book.chat(other, "p_ann", "hi", 1, t0)) == protocol::ErrorCode::NotAuthorized);
    CHECK(code(book.chat(id, "p_bob", "hi", 1, t0)) == protocol::ErrorCode::NotAuthorized);
    CHECK(code(book.chat(id, "p_ann", "   ", 1, t0)) == protocol::ErrorCode::InvalidField);
    CHECK(code(book.chat(id, "p_ann", "a\nb", 1, t0)) == protocol::ErrorCode::InvalidField);
    CHECK(code(book.chat(id, "p_ann", std::string(281, 'a'), 1, t0)) ==
          protocol::ErrorCode::InvalidField);

    auto first = book.chat(id, "p_ann", "  hello  ", 42, t0);
    REQUIRE(std::holds_alternative<LobbyChatLine>(first));
    const LobbyChatLine& line = std::get<LobbyChatLine>(first);
    CHECK(line.n == 1);
    CHECK(line.text == "hello");
    CHECK(line.name == "Ann");
    CHECK(line.at_ms == 42);
    for (int i = 0; i < 4; ++i)
        CHECK(std::holds_alternative<LobbyChatLine>(book.chat(id, "p_ann", "more", 43, t0)));
    CHECK(code(book.chat(id, "p_ann", "one too many", 44, t0)) == protocol::ErrorCode::RateLimited);
    // Refused lines are not numbered; a second later one more goes through.
    auto later = book.chat(id, "p_ann", "later", 45, t0 + std::chrono::milliseconds(1000));
    REQUIRE(std::holds_alternative<LobbyChatLine>(later));
    CHECK(std::get<LobbyChatLine>(later).n == 6);
    // The rate is the person's, not the lobby's: another member is not slowed down.
    REQUIRE(std::holds_alternative<const Lobby*>(book.join(id, Member{"p_bob", "Bob"})));
    CHECK(std::holds_alternative<LobbyChatLine>(book.chat(id, "p_bob", "hi", 46, t0)));
    // Members read the chat with the lobby; the public list never carries it.
    CHECK(book.find(id)->to_json(true)["chat"].size() == 7);
    CHECK_FALSE(book.find(id)->to_json(false).contains("chat"));
    CHECK(book.public_json()[0].dump().find("later") == std::string::npos);
}

TEST_CASE("lobby chat through the hub reaches the members' connections and nobody else",
          "[lobby][chat]") {
    Harness h;
    auto ann = h.guest("Ann"), bob = h.guest("Bob"), cy = h.guest("Cy"), wes = h.guest("Wes");
    auto ann_tab = h.tab(ann);
    h.send(wes.conn, {{"type", "lobbies.subscribe"}});
    h.send(ann.conn, {{"type", "lobby.create"}, {"settings", settings_json(2)}});
    const std::string id = ann.conn->last("lobby")["lobby"]["id"];
    CHECK(ann.conn->last("lobby")["lobby"]["chat"] == json::array());
    h.send(bob.conn, {{"type", "lobby.join"}, {"lobby", id}});
    h.send(cy.conn, {{"type", "lobby.create"}, {"settings", settings_json(2)}});

    h.send(bob.conn, {{"type", "lobby.chat"}, {"lobby", id}, {"text", "secret 1234"}, {"ref", "c"}});
    CHECK(bob.conn->last("ack")["ref"] == "c");
    for (const auto& conn : {ann.conn, ann_tab, bob.conn}) {
        auto m = conn->last("lobby.chat");
        CHECK(m["lobby"] == id);
        CHECK(m["line"]["text"] == "secret 1234");
        CHECK(m["line"]["name"] == "Bob");
        CHECK(m["line"]["player"] == bob.id);
        CHECK(m["line"]["n"] == 1);
    }
    h.send(cy.conn, {{"type", "lobby.chat"}, {"lobby", id}, {"text", "let me in"}});
    CHECK(cy.conn->last("error")["code"] == "not_authorized");

    // A reload (a new connection) reads the conversation in its `lobby` event.
    auto bob_tab = h.tab(bob);
    h.settle();
    CHECK(bob_tab->last("lobby")["lobby"]["chat"][0]["text"] == "secret 1234");

    // Kicked: no more lines; the lobby closing takes its chat along.
    h.send(ann.conn, {{"type", "lobby.kick"}, {"lobby", id}, {"player", bob.id}});
    h.send(ann.conn, {{"type", "lobby.chat"}, {"lobby", id}, {"text", "after the kick 99"}});
    CHECK(ann.conn->last("lobby.chat")["line"]["text"] == "after the kick 99");
    CHECK_FALSE(received_text(*bob.conn, "after the kick 99"));
    CHECK_FALSE(received_text(*bob_tab, "after the kick 99"));
    h.send(ann.conn, {{"type", "lobby.leave"}, {"lobby", id}});
    h.send(ann.conn, {{"type", "lobby.chat"}, {"lobby", id}, {"text", "anyone?"}});
    CHECK(ann.conn->last("error")["code"] == "unknown_lobby");

    for (const auto& conn : {cy.conn, wes.conn}) CHECK_FALSE(received_text(*conn, "secret 1234"));
    CHECK(h.hub.public_lobbies().dump().find("chat") == std::string::npos);
}

}  // namespace lobby_chat_test
