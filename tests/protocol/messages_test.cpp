// The client message parser: every type of the closed set, every error path, and garbage that
// must come back as an error value, never an exception.

#include "protocol/messages.hpp"
#include "tests/protocol/random_edits.hpp"
#include "tests/support/protocol_oracles/oracles.hpp"

#include <catch2/catch_test_macros.hpp>
#include <random>
#include <string>
#include <vector>

using namespace protocol;
using nlohmann::json;

namespace {

// The parsed message; fails the test if the parser refused it.
ClientMessage ok(const std::string& text) {
    auto r = parse_client_message(text);
    if (auto* e = std::get_if<ProtocolError>(&r))
        FAIL("refused " << text << ": " << code_name(e->code) << " " << e->message);
    return std::get<ClientMessage>(std::move(r));
}

// The error for a refused message; fails the test if it parsed.
ProtocolError refused(const std::string& text) {
    auto r = parse_client_message(text);
    if (std::holds_alternative<ClientMessage>(r)) FAIL("accepted " << text);
    return std::get<ProtocolError>(std::move(r));
}

template <class T>
T body(const std::string& text) {
    auto m = ok(text);
    REQUIRE(std::holds_alternative<T>(m.body));
    return std::get<T>(m.body);
}

}  // namespace

TEST_CASE("hello carries the protocol version and the token", "[messages][hello]") {
    auto h = body<Hello>(R"({"type":"hello","protocol":1,"token":"abc123"})");
    CHECK(h.protocol == 1);
    CHECK(h.token == "abc123");
    CHECK_FALSE(h.ack_in_patch);
    // The acknowledgement in the patch: asked for with a boolean, nothing else.
    CHECK(body<Hello>(R"({"type":"hello","protocol":1,"token":"a","ack_in_patch":true})").ack_in_patch);
    CHECK_FALSE(
        body<Hello>(R"({"type":"hello","protocol":1,"token":"a","ack_in_patch":false})").ack_in_patch);
    CHECK(refused(R"({"type":"hello","protocol":1,"token":"a","ack_in_patch":1})").code ==
          ErrorCode::InvalidField);

    auto wrong = refused(R"({"type":"hello","protocol":2,"token":"abc","ref":"r1"})");
    CHECK(wrong.code == ErrorCode::ProtocolVersion);
    CHECK(wrong.ref == json("r1"));
    CHECK(refused(R"({"type":"hello","protocol":0,"token":"abc"})").code ==
          ErrorCode::ProtocolVersion);
    CHECK(refused(R"({"type":"hello","token":"abc"})").code == ErrorCode::MissingField);
    CHECK(refused(R"({"type":"hello","protocol":"1","token":"abc"})").code ==
          ErrorCode::InvalidField);
    CHECK(refused(R"({"type":"hello","protocol":1.0,"token":"abc"})").code ==
          ErrorCode::InvalidField);
    auto no_token = refused(R"({"type":"hello","protocol":1})");
    CHECK(no_token.code == ErrorCode::MissingField);
    CHECK(no_token.message.find("token") != std::string::npos);
    CHECK(refused(R"({"type":"hello","protocol":1,"token":""})").code == ErrorCode::InvalidField);
    CHECK(refused(R"({"type":"hello","protocol":1,"token":7})").code == ErrorCode::InvalidField);
    CHECK(
        refused(R"({"type":"hello","protocol":1,"token":")" + std::string(300, 'x') + "\"}").code ==
        ErrorCode::InvalidField);
}

TEST_CASE("ping and the subscriptions take no fields", "[messages]") {
    body<Ping>(R"({"type":"ping"})");
    CHECK(body<LobbiesSubscribe>(R"({"type":"lobbies.subscribe"})").on);
    CHECK_FALSE(body<LobbiesSubscribe>(R"({"type":"lobbies.unsubscribe"})").on);
    CHECK(body<MatchesSubscribe>(R"({"type":"matches.subscribe"})").on);
    CHECK_FALSE(body<MatchesSubscribe>(R"({"type":"matches.unsubscribe"})").on);
    auto extra = refused(R"({"type":"ping","extra":1})");
    CHECK(extra.code == ErrorCode::InvalidField);
    CHECK(extra.message.find("extra") != std::string::npos);
}

TEST_CASE("lobby.create reads the settings and names a bad field", "[messages][lobby]") {
    auto c = body<LobbyCreate>(
        R"({"type":"lobby.create","settings":{"game":"santorini","players":3,"powers":"simple","draft":"full",
            "clock":{"kind":"realtime","base_seconds":300,"increment_seconds":5},"public":false}})");
    CHECK(c.settings.players == 3);
    CHECK(c.settings.powers == "simple");
    CHECK(c.settings.draft == "full");
    CHECK(c.settings.clock == "realtime");
    CHECK_FALSE(c.settings.is_public);

    auto missing = refused(R"({"type":"lobby.create"})");
    CHECK(missing.code == ErrorCode::MissingField);
    CHECK(missing.message.find("settings") != std::string::npos);
    auto no_players = refused(R"({"type":"lobby.create","settings":{"game":"santorini"}})");
    CHECK(no_players.code == ErrorCode::MissingField);
    CHECK(no_players.message.find("settings.players") != std::string::npos);
    auto bad = refused(R"({"type":"lobby.create","settings":{"game":"santorini","players":5}})");
    CHECK(bad.code == ErrorCode::InvalidField);
    CHECK(bad.message.find("settings.players") != std::string::npos);
    CHECK(refused(R"({"type":"lobby.create","settings":[]})").code == ErrorCode::InvalidField);
    auto clock = refused(
        R"({"type":"lobby.create","settings":{"game":"santorini","players":2,"clock":{"kind":"turn"}}})");
    CHECK(clock.code == ErrorCode::MissingField);
    CHECK(clock.message.find("settings.clock.hours_per_move") != std::string::npos);
}

TEST_CASE("lobby.join takes a lobby id or an invite code, not both", "[messages][lobby]") {
    auto by_id = body<LobbyJoin>(R"({"type":"lobby.join","lobby":"l_abc"})");
    CHECK(by_id.lobby == "l_abc");
    CHECK(by_id.code.empty());
    auto by_code = body<LobbyJoin>(R"({"type":"lobby.join","code":"ABCD2345"})");
    CHECK(by_code.code == "ABCD2345");
    CHECK(by_code.lobby.empty());
    CHECK(refused(R"({"type":"lobby.join"})").code == ErrorCode::MissingField);
    CHECK(refused(R"({"type":"lobby.join","lobby":"l_a","code":"X"})").code ==
          ErrorCode::InvalidField);
    CHECK(refused(R"({"type":"lobby.join","code":""})").code == ErrorCode::InvalidField);
    CHECK(refused(R"({"type":"lobby.join","lobby":12})").code == ErrorCode::InvalidField);
    CHECK(refused(R"({"type":"lobby.join","code":")" + std::string(40, 'A') + "\"}").code ==
          ErrorCode::InvalidField);
}

TEST_CASE("lobby.leave, lobby.kick and lobby.start name the lobby", "[messages][lobby]") {
    CHECK(body<LobbyLeave>(R"({"type":"lobby.leave","lobby":"l_a"})").lobby == "l_a");
    CHECK(body<LobbyStart>(R"({"type":"lobby.start","lobby":"l_a"})").lobby == "l_a");
    auto kick = body<LobbyKick>(R"({"type":"lobby.kick","lobby":"l_a","player":"p_b"})");
    CHECK(kick.lobby == "l_a");
    CHECK(kick.player == "p_b");
    for (const char* t :
         {R"({"type":"lobby.leave"})", R"({"type":"lobby.start"})",
          R"({"type":"lobby.kick","lobby":"l_a"})", R"({"type":"lobby.kick","player":"p_b"})"})
        CHECK(refused(t).code == ErrorCode::MissingField);
    CHECK(refused(R"({"type":"lobby.leave","lobby":null})").code == ErrorCode::InvalidField);
    CHECK(refused(R"({"type":"lobby.start","lobby":")" + std::string(65, 'l') + "\"}").code ==
          ErrorCode::InvalidField);
    CHECK(refused(R"({"type":"lobby.kick","lobby":"l_a","player":["p_b"]})").code ==
          ErrorCode::InvalidField);
}

TEST_CASE("match.open takes an optional non-negative since", "[messages][match]") {
    auto open = body<MatchOpen>(R"({"type":"match.open","match":"m_a"})");
    CHECK(open.match == "m_a");
    CHECK_FALSE(open.since);
    CHECK(body<MatchOpen>(R"({"type":"match.open","match":"m_a","since":12})").since == 12u);
    CHECK(body<MatchOpen>(R"({"type":"match.open","match":"m_a","since":0})").since == 0u);
    CHECK(refused(R"({"type":"match.open"})").code == ErrorCode::MissingField);
    for (const char* since : {"-1", "1.5", "\"3\"", "null", "true"}) {
        auto e =
            refused(std::string(R"({"type":"match.open","match":"m_a","since":)") + since + "}");
        CHECK(e.code == ErrorCode::InvalidField);
        CHECK(e.message.find("since") != std::string::npos);
    }
}

TEST_CASE("match.close, match.resign and match.abort name the match", "[messages][match]") {
    CHECK(body<MatchClose>(R"({"type":"match.close","match":"m_a"})").match == "m_a");
    CHECK(body<MatchResign>(R"({"type":"match.resign","match":"m_a"})").match == "m_a");
    CHECK(body<MatchAbort>(R"({"type":"match.abort","match":"m_a"})").match == "m_a");
    for (const char* t : {"match.close", "match.resign", "match.abort"}) {
        CHECK(refused(std::string(R"({"type":")") + t + "\"}").code == ErrorCode::MissingField);
        CHECK(refused(std::string(R"({"type":")") + t + R"(","match":""})").code ==
              ErrorCode::InvalidField);
        CHECK(refused(std::string(R"({"type":")") + t + R"(","match":"m_a","lobby":"l_a"})").code ==
              ErrorCode::InvalidField);
    }
}

TEST_CASE("match.rematch names the match and whether the sender accepts", "[messages][match]") {
    auto r = body<MatchRematch>(R"({"type":"match.rematch","match":"m_a","accept":true})");
    CHECK(r.match == "m_a");
    CHECK(r.accept);
    CHECK_FALSE(body<MatchRematch>(R"({"type":"match.rematch","match":"m_a","accept":false})").accept);
    CHECK(refused(R"({"type":"match.rematch","match":"m_a"})").code == ErrorCode::MissingField);
    CHECK(refused(R"({"type":"match.rematch","accept":true})").code == ErrorCode::MissingField);
    for (const char* bad : {R"("accept":1)", R"("accept":"yes")", R"("accept":null)",
                            R"("accept":true,"seat":1)"})
        CHECK(refused(std::string(R"({"type":"match.rematch","match":"m_a",)") + bad + "}").code ==
              ErrorCode::InvalidField);
}

TEST_CASE("match.chat names the match and carries the text as sent", "[messages][match][chat]") {
    auto c = body<MatchChat>(R"({"type":"match.chat","match":"m_a","text":"  gg <b>wp</b> ","ref":"c"})");
    CHECK(c.match == "m_a");
    CHECK(c.text == "  gg <b>wp</b> ");  // trimmed and judged by the server (chat_text.hpp)
    CHECK(body<MatchChat>(R"({"type":"match.chat","match":"m_a","text":"\u00e9\ud83d\ude00"})").text ==
          "\xc3\xa9\xf0\x9f\x98\x80");
    CHECK(refused(R"({"type":"match.chat","match":"m_a"})").code == ErrorCode::MissingField);
    CHECK(refused(R"({"type":"match.chat","text":"hi"})").code == ErrorCode::MissingField);
    for (const std::string& bad :
         {std::string(R"("text":1)"), std::string(R"("text":null)"), std::string(R"("text":["hi"])"),
          std::string(R"("text":"hi","channel":"players")"),
          R"("text":")" + std::string(2049, 'a') + "\""})
        CHECK(refused(R"({"type":"match.chat","match":"m_a",)" + bad + "}").code ==
              ErrorCode::InvalidField);
    // The longest text the parser lets through: the server counts its characters.
    CHECK(body<MatchChat>(R"({"type":"match.chat","match":"m_a","text":")" + std::string(2048, 'a') +
                          "\"}")
              .text.size() == 2048);
}

TEST_CASE("lobby.chat names the lobby and carries the text as sent", "[messages][lobby][chat]") {
    auto c = body<LobbyChat>(R"({"type":"lobby.chat","lobby":"l_a","text":"  hi <i>all</i> ","ref":1})");
    CHECK(c.lobby == "l_a");
    CHECK(c.text == "  hi <i>all</i> ");  // trimmed and judged by the server (chat_text.hpp)
    CHECK(refused(R"({"type":"lobby.chat","lobby":"l_a"})").code == ErrorCode::MissingField);
    CHECK(refused(R"({"type":"lobby.chat","text":"hi"})").code == ErrorCode::MissingField);
    for (const std::string& bad :
         {std::string(R"("text":1)"), std::string(R"("text":"hi","match":"m_a")"),
          R"("text":")" + std::string(2049, 'a') + "\""})
        CHECK(refused(R"({"type":"lobby.chat","lobby":"l_a",)" + bad + "}").code ==
              ErrorCode::InvalidField);
}

TEST_CASE("match.claim names the match, the away seat and what the rule does", "[messages][match]") {
    auto c = body<MatchClaim>(R"({"type":"match.claim","match":"m_a","seat":1,"what":"win"})");
    CHECK(c.match == "m_a");
    CHECK(c.seat == 1);
    CHECK(c.what == MatchClaim::What::Win);
    CHECK(body<MatchClaim>(R"({"type":"match.claim","match":"m_a","seat":0,"what":"abort"})").what ==
          MatchClaim::What::Abort);
    CHECK(refused(R"({"type":"match.claim","match":"m_a","seat":1})").code == ErrorCode::MissingField);
    CHECK(refused(R"({"type":"match.claim","match":"m_a","what":"win"})").code ==
          ErrorCode::MissingField);
    for (const char* bad : {R"("seat":4,"what":"win")", R"("seat":-1,"what":"win")",
                            R"("seat":"1","what":"win")", R"("seat":1,"what":"draw")",
                            R"("seat":1,"what":"win","extra":1)"})
        CHECK(refused(std::string(R"({"type":"match.claim","match":"m_a",)") + bad + "}").code ==
              ErrorCode::InvalidField);
}

TEST_CASE("match.step carries the step object for the match to judge", "[messages][match]") {
    auto s = body<MatchStep>(
        R"({"type":"match.step","match":"m_a","step":{"kind":"move","from":"B2","to":"C3"}})");
    CHECK(s.match == "m_a");
    CHECK(s.step == json{{"kind", "move"}, {"from", "B2"}, {"to", "C3"}});
    // A well-formed step that is illegal everywhere still parses: only the match can judge it.
    CHECK(body<MatchStep>(
              R"({"type":"match.step","match":"m_a","step":{"kind":"move","from":"A1","to":"E5"}})")
              .match == "m_a");
    CHECK(refused(R"({"type":"match.step","match":"m_a"})").code == ErrorCode::MissingField);
    CHECK(refused(R"({"type":"match.step","step":{"kind":"pass"}})").code ==
          ErrorCode::MissingField);
    // The step is opaque here: whether it is a step of the match's game at all, and legal, is
    // one judgement of that game's (Game::play), so even what no game could read passes on.
    for (const char* step :
         {R"("move B2 C3")", "[]", "{}", R"({"kind":3})", "null", R"({"kind":"teleport"})",
          R"({"kind":"move","from":"B2"})", R"({"kind":"move","from":"B2","to":"Z9"})",
          R"({"kind":"pass","worker":"B2"})", R"({"kind":"offer","power":"Nobody"})"}) {
        INFO(step);
        CHECK(body<MatchStep>(std::string(R"({"type":"match.step","match":"m_a","step":)") +
                              step + "}")
                  .step == json::parse(step));
    }
}

TEST_CASE("ref is a short string or an integer and is echoed in errors", "[messages][ref]") {
    CHECK(ok(R"({"type":"ping","ref":"abc"})").ref == json("abc"));
    CHECK(ok(R"({"type":"ping","ref":42})").ref == json(42));
    CHECK(ok(R"({"type":"ping","ref":-7})").ref == json(-7));
    CHECK_FALSE(ok(R"({"type":"ping"})").ref);
    CHECK(ok(R"({"type":"ping","ref":")" + std::string(64, 'r') + "\"}").ref);
    for (std::string bad :
         {"\"" + std::string(65, 'r') + "\"", std::string("1.5"), std::string("null"),
          std::string("{}"), std::string("[1]"), std::string("true")}) {
        auto e = refused(R"({"type":"ping","ref":)" + bad + "}");
        CHECK(e.code == ErrorCode::InvalidField);
        CHECK(e.message.find("ref") != std::string::npos);
        CHECK_FALSE(e.ref);  // an invalid ref is never echoed
    }
    // A valid ref is echoed even when the rest of the message is wrong.
    CHECK(refused(R"({"type":"nope","ref":9})").ref == json(9));
    CHECK(refused(R"({"ref":"x"})").ref == json("x"));
    CHECK(refused(R"({"type":"match.open","ref":"q"})").ref == json("q"));
}

TEST_CASE("type is required, a string, and one of the closed set", "[messages]") {
    CHECK(refused(R"({})").code == ErrorCode::MissingField);
    CHECK(refused(R"({"type":1})").code == ErrorCode::InvalidField);
    CHECK(refused(R"({"type":null})").code == ErrorCode::InvalidField);
    for (const char* t :
         {"welcome", "pong", "error", "ack", "lobby", "match.patch", "Ping", "", "match.step "}) {
        auto e = refused(std::string(R"({"type":")") + t + "\"}");
        CHECK(e.code == ErrorCode::UnknownType);
    }
    // An unknown type's name is echoed only in part.
    auto long_type = refused(R"({"type":")" + std::string(5000, 'z') + "\"}");
    CHECK(long_type.code == ErrorCode::UnknownType);
    CHECK(long_type.message.size() < 200);
}

TEST_CASE("anything but a JSON object is malformed_json", "[messages]") {
    for (const char* t :
         {"", " ", "{", "}", "[]", "[1,2]", "42", "\"ping\"", "null", "true", "{\"type\":\"ping\"",
          "{\"type\":\"ping\"}{}", "{'type':'ping'}", "{\"type\":\"ping\",}", "\xff\xfe", "NaN"})
        CHECK(refused(t).code == ErrorCode::MalformedJson);
    // Invalid UTF-8 inside a string.
    CHECK(refused("{\"type\":\"ping\",\"ref\":\"\xc3\x28\"}").code == ErrorCode::MalformedJson);
    // Deep nesting is bounded by the frame size, and must neither crash nor throw.
    std::string deep = std::string(100000, '[') + std::string(100000, ']');
    CHECK(refused(deep).code == ErrorCode::MalformedJson);
    std::string deep_field =
        R"({"type":"ping","ref":)" + std::string(50000, '[') + std::string(50000, ']') + "}";
    CHECK(refused(deep_field).code == ErrorCode::InvalidField);
}

TEST_CASE("every error code has its snake_case name", "[messages]") {
    CHECK(code_name(ErrorCode::MalformedJson) == "malformed_json");
    CHECK(code_name(ErrorCode::UnknownType) == "unknown_type");
    CHECK(code_name(ErrorCode::MissingField) == "missing_field");
    CHECK(code_name(ErrorCode::InvalidField) == "invalid_field");
    CHECK(code_name(ErrorCode::ProtocolVersion) == "protocol_version");
    CHECK(code_name(ErrorCode::NotAuthenticated) == "not_authenticated");
    CHECK(code_name(ErrorCode::WrongPhase) == "wrong_phase");
    CHECK(code_name(ErrorCode::NotYourTurn) == "not_your_turn");
    CHECK(code_name(ErrorCode::IllegalStep) == "illegal_step");
    CHECK(code_name(ErrorCode::UnknownLobby) == "unknown_lobby");
    CHECK(code_name(ErrorCode::UnknownMatch) == "unknown_match");
    CHECK(code_name(ErrorCode::NotAuthorized) == "not_authorized");
    CHECK(code_name(ErrorCode::LobbyFull) == "lobby_full");
    CHECK(code_name(ErrorCode::RateLimited) == "rate_limited");
    CHECK(code_name(ErrorCode::FrameTooLarge) == "frame_too_large");
    CHECK(code_name(ErrorCode::Busy) == "busy");
    CHECK(code_name(ErrorCode::Unavailable) == "unavailable");
    CHECK(code_name(ErrorCode::AlreadyInGame) == "already_in_game");
    CHECK(code_name(ErrorCode::AlreadyQueued) == "already_queued");
    CHECK(code_name(ErrorCode::UnknownQueue) == "unknown_queue");
    CHECK(code_name(ErrorCode::TooManyMatches) == "too_many_matches");
    CHECK(code_name(ErrorCode::NotClaimable) == "not_claimable");
    CHECK(last_error_code == ErrorCode::NotClaimable);
}

TEST_CASE("queue.join names a queue and a real-time clock", "[messages][queue]") {
    auto m = ok(R"({"type":"queue.join","ref":"q","queue":"santorini_simple",)"
                R"("clock":{"kind":"realtime","base_seconds":300,"increment_seconds":3}})");
    REQUIRE(std::holds_alternative<QueueJoin>(m.body));
    const auto& join = std::get<QueueJoin>(m.body);
    CHECK(join.queue == "santorini_simple");
    CHECK(join.base_seconds == 300);
    CHECK(join.increment_seconds == 3);
    CHECK(m.ref == json("q"));
    // Any queue name parses: whether it exists is the server's to say (unknown_queue).
    CHECK(body<QueueJoin>(R"({"type":"queue.join","queue":"chess",)"
                          R"("clock":{"kind":"realtime","base_seconds":60,"increment_seconds":0}})")
              .queue == "chess");

    struct Bad {
        const char* text;
        ErrorCode code;
        const char* names;
    };
    for (const Bad& bad : {
             Bad{R"({"type":"queue.join","clock":{"kind":"realtime","base_seconds":180,"increment_seconds":2}})",
                 ErrorCode::MissingField, "'queue'"},
             Bad{R"({"type":"queue.join","queue":"santorini"})", ErrorCode::MissingField, "'clock'"},
             Bad{R"({"type":"queue.join","queue":"","clock":{"kind":"realtime","base_seconds":180,"increment_seconds":2}})",
                 ErrorCode::InvalidField, "'queue'"},
             Bad{R"({"type":"queue.join","queue":7,"clock":{"kind":"realtime","base_seconds":180,"increment_seconds":2}})",
                 ErrorCode::InvalidField, "'queue'"},
             Bad{R"({"type":"queue.join","queue":"santorini","clock":"3+2"})", ErrorCode::InvalidField,
                 "'clock'"},
             Bad{R"({"type":"queue.join","queue":"santorini","clock":{"base_seconds":180,"increment_seconds":2}})",
                 ErrorCode::MissingField, "'clock.kind'"},
             Bad{R"({"type":"queue.join","queue":"santorini","clock":{"kind":"turn","hours_per_move":24}})",
                 ErrorCode::InvalidField, "'clock.kind'"},
             Bad{R"({"type":"queue.join","queue":"santorini","clock":{"kind":"realtime","increment_seconds":2}})",
                 ErrorCode::MissingField, "'clock.base_seconds'"},
             Bad{R"({"type":"queue.join","queue":"santorini","clock":{"kind":"realtime","base_seconds":180}})",
                 ErrorCode::MissingField, "'clock.increment_seconds'"},
             Bad{R"({"type":"queue.join","queue":"santorini","clock":{"kind":"realtime","base_seconds":1.5,"increment_seconds":2}})",
                 ErrorCode::InvalidField, "'clock.base_seconds'"},
             Bad{R"({"type":"queue.join","queue":"santorini","clock":{"kind":"realtime","base_seconds":180,"increment_seconds":-1}})",
                 ErrorCode::InvalidField, "'clock.increment_seconds'"},
             Bad{R"({"type":"queue.join","queue":"santorini","clock":{"kind":"realtime","base_seconds":180,"increment_seconds":2,"delay":1}})",
                 ErrorCode::InvalidField, "'clock.delay'"},
             Bad{R"({"type":"queue.join","queue":"santorini","rated":true,"clock":{"kind":"realtime","base_seconds":180,"increment_seconds":2}})",
                 ErrorCode::InvalidField, "'rated'"},
         }) {
        INFO(bad.text);
        auto e = refused(bad.text);
        CHECK(e.code == bad.code);
        CHECK(e.message.find(bad.names) != std::string::npos);
    }
}

TEST_CASE("queue.leave takes no fields", "[messages][queue]") {
    auto m = ok(R"({"type":"queue.leave","ref":4})");
    CHECK(std::holds_alternative<QueueLeave>(m.body));
    CHECK(m.ref == json(4));
    CHECK(refused(R"({"type":"queue.leave","queue":"santorini"})").code == ErrorCode::InvalidField);
}

TEST_CASE("garbage and mutated messages never throw", "[messages][fuzz]") {
    const std::vector<std::string> seeds = {
        R"({"type":"hello","protocol":1,"token":"abc","ref":1})",
        R"({"type":"lobby.create","settings":{"game":"santorini","players":2,"powers":"custom","pool":["Apollo","Pan"],"draft":"full","golden_fleece":false,"clock":{"kind":"turn","hours_per_move":24},"public":true},"ref":"c"})",
        R"({"type":"lobby.join","code":"ABCD2345"})",
        R"({"type":"lobby.kick","lobby":"l_a","player":"p_b"})",
        R"({"type":"match.open","match":"m_a","since":12})",
        R"({"type":"match.step","match":"m_a","step":{"kind":"build","from":"C3","to":"D4","before_move":true}})",
    };
    const std::string alphabet =
        "{}[]\":,0123456789.-+eEtruefalsnl \\/\x01\xff\xc3"
        "abcxyz_";
    std::mt19937 rng(20240601);
    auto pick = [&](std::size_t n) { return static_cast<std::size_t>(rng() % n); };
    int accepted = 0, refused_count = 0;
    for (int i = 0; i < 6000; ++i) {
        std::string text;
        if (i % 3 == 0) {
            // Pure noise.
            const std::size_t n = pick(80);
            for (std::size_t k = 0; k < n; ++k) text += alphabet[pick(alphabet.size())];
        } else {
            // A real message with a few bytes changed, inserted or cut.
            text = seeds[pick(seeds.size())];
            protocol_test::edit_at_random(text, rng, alphabet);
        }
        std::variant<ClientMessage, ProtocolError> r;
        REQUIRE_NOTHROW(r = parse_client_message(text));
        if (std::holds_alternative<ClientMessage>(r)) {
            ++accepted;
        } else {
            ++refused_count;
            // The reply must be serializable whatever the client sent.
            REQUIRE_NOTHROW(json::parse(error_message(std::get<ProtocolError>(r))));
        }
    }
    CHECK(refused_count > 0);
    CHECK(accepted + refused_count == 6000);
}

TEST_CASE("server messages have the documented shape", "[messages][builders]") {
    auto e =
        json::parse(error_message(ErrorCode::IllegalStep, "not legal now: move A1 A2", json("r7")));
    CHECK(e == json{{"type", "error"},
                    {"code", "illegal_step"},
                    {"message", "not legal now: move A1 A2"},
                    {"ref", "r7"}});
    auto no_ref = json::parse(error_message(ProtocolError{ErrorCode::Busy, "later", std::nullopt}));
    CHECK(no_ref == json{{"type", "error"}, {"code", "busy"}, {"message", "later"}});
    // Client text with invalid UTF-8 inside an error message is replaced, not thrown on.
    CHECK_NOTHROW(
        json::parse(error_message(ErrorCode::UnknownType, "bad \xff\xfe name", std::nullopt)));

    CHECK(json::parse(ack_message(json(5))) == json{{"type", "ack"}, {"ref", 5}});
    CHECK(json::parse(pong_message(std::nullopt)) == json{{"type", "pong"}});
    CHECK(json::parse(pong_message(json("p"))) == json{{"type", "pong"}, {"ref", "p"}});
    CHECK(json::parse(welcome_message("p_1", "Ann")) ==
          json{{"type", "welcome"}, {"protocol", 1}, {"player", {{"id", "p_1"}, {"name", "Ann"}}}});
    json view = {{"a", 1}};
    CHECK(json::parse(snapshot_message("m_1", 3, view)) ==
          json{{"type", "match.snapshot"}, {"match", "m_1"}, {"version", 3}, {"view", view}});
    json patch = json::array({{{"op", "replace"}, {"path", "/a"}, {"value", 2}}});
    CHECK(json::parse(patch_message("m_1", 4, patch)) ==
          json{{"type", "match.patch"}, {"match", "m_1"}, {"version", 4}, {"patch", patch}});
    CHECK(json::parse(event_message("lobby.closed", {{"lobby", "l_1"}, {"reason", "kicked"}})) ==
          json{{"type", "lobby.closed"}, {"lobby", "l_1"}, {"reason", "kicked"}});
    CHECK(json::parse(event_message("lobbies", {{"lobbies", json::array()}})) ==
          json{{"type", "lobbies"}, {"lobbies", json::array()}});
    CHECK(diff(view, json{{"a", 2}}) == patch);
}

TEST_CASE("a hello with a ref round-trips through the error builder", "[messages][builders]") {
    auto e = refused(R"({"type":"hello","protocol":3,"token":"t","ref":"h1"})");
    auto reply = json::parse(error_message(e));
    CHECK(reply["code"] == "protocol_version");
    CHECK(reply["ref"] == "h1");
}
