// The fast match.step reader (protocol/step_frame.hpp) against the tree parser: wherever it
// reads a frame, the message must be the tree's; it must read every frame a client writes of a
// real step; and anything else it must leave to the tree.

#include "protocol/json/basic_json.hpp"
#include "protocol/step_frame.hpp"

#include <catch2/catch_test_macros.hpp>
#include <random>
#include <string>
#include <vector>

#include "protocol/messages.hpp"
#include "tests/protocol/random_edits.hpp"
#include "tests/protocol/support.hpp"

namespace step_frame_test {

using nlohmann::json;
using protocol::ClientMessage;
using protocol::MatchStep;
using protocol::ProtocolError;

/// Whether the fast reader agrees with the tree on `text`: it read it as the tree did (the
/// same match, step, ref and the ref's JSON type), or it left it. Counts what it read.
bool agrees(const std::string& text, int& read) {
    const auto fast = protocol::read_step_frame(text);
    if (!fast) return true;
    ++read;
    const auto tree = protocol::parse_client_message_by_tree(text);
    const auto* message = std::get_if<ClientMessage>(&tree);
    if (message == nullptr) {
        UNSCOPED_INFO("the tree refused what the fast reader read: " << text);
        return false;
    }
    const auto* a = std::get_if<MatchStep>(&fast->body);
    const auto* b = std::get_if<MatchStep>(&message->body);
    const bool same =
        a != nullptr && b != nullptr && a->match == b->match && a->step == b->step &&
        a->step.dump() == b->step.dump() && fast->ref.has_value() == message->ref.has_value() &&
        (!fast->ref || (*fast->ref == *message->ref && fast->ref->type() == message->ref->type() &&
                        fast->ref->dump() == message->ref->dump()));
    if (!same) UNSCOPED_INFO("the fast reader and the tree differ on: " << text);
    return same;
}

/// Every step's JSON of some random games with powers, as a client copies it from `legal`.
std::vector<json> real_steps() {
    std::vector<json> steps;
    std::uint64_t seed = 7;
    auto settings = protocol_test::varied_settings();
    const auto powers = protocol_test::every_power_settings();
    settings.insert(settings.end(), powers.begin(), powers.end());
    for (const auto& s : settings) {
        const auto game = protocol_test::play_random(s, ++seed, 60);
        for (std::size_t i = 0; i < game.steps.size(); ++i)
            steps.push_back(protocol::step_json(game.states[i], game.steps[i]));
    }
    return steps;
}

/// `steps` as match.step frames, written the ways clients write them: members in any order,
/// with or without a ref of either kind, compact or with whitespace.
std::vector<std::string> frames_of(const std::vector<json>& steps, std::mt19937& rng) {
    std::vector<std::string> frames;
    for (const json& step : steps) {
        std::vector<std::pair<std::string, std::string>> members = {
            {"type", "\"match.step\""}, {"match", "\"m_Ab3-x9\""}, {"step", step.dump()}};
        switch (rng() % 4) {
            case 0:
                break;
            case 1:
                members.push_back({"ref", std::to_string(rng() % 100000)});
                break;
            case 2:
                members.push_back({"ref", "\"r" + std::to_string(rng() % 1000) + "\""});
                break;
            default:
                members.push_back({"ref", "-" + std::to_string(rng() % 1000)});
                break;
        }
        std::shuffle(members.begin(), members.end(), rng);
        const bool spaced = rng() % 3 == 0;
        std::string text = spaced ? " {\n" : "{";
        for (std::size_t i = 0; i < members.size(); ++i) {
            if (i > 0) text += spaced ? " ,\t" : ",";
            text += "\"" + members[i].first + "\"" + (spaced ? " : " : ":") + members[i].second;
        }
        text += spaced ? "\r\n} " : "}";
        frames.push_back(text);
    }
    return frames;
}

TEST_CASE("the fast reader reads every real step's frame as the tree does",
          "[messages][step_frame]") {
    std::mt19937 rng(31);
    const auto frames = frames_of(real_steps(), rng);
    REQUIRE(frames.size() > 500);
    int read = 0;
    for (const auto& text : frames) CHECK(agrees(text, read));
    // Every one of them has the plain shape: the fast reader must not leave any to the tree.
    CHECK(read == static_cast<int>(frames.size()));
    // And parse_client_message gives the same message by either road.
    const auto message = protocol::parse_client_message(frames.front());
    REQUIRE(std::holds_alternative<ClientMessage>(message));
    CHECK(std::holds_alternative<MatchStep>(std::get<ClientMessage>(message).body));
}

TEST_CASE("the fast reader leaves every frame off the plain shape to the tree",
          "[messages][step_frame]") {
    // Each is valid JSON or close to it, and each differs from the plain shape in one way.
    const std::vector<std::string> left = {
        R"({"type":"match.step","match":"m","step":{"kind":"move"},"ref":1.5})",
        R"({"type":"match.step","match":"m","step":{"kind":"move"},"ref":1e3})",
        R"({"type":"match.step","match":"m","step":{"kind":"move"},"ref":01})",
        R"({"type":"match.step","match":"m","step":{"kind":"move"},"ref":-})",
        R"({"type":"match.step","match":"m","step":{"kind":"move"},"ref":1234567890123456789})",
        R"({"type":"match.step","match":"m","step":{"kind":"move"},"ref":true})",
        R"({"type":"match.step","match":"m","step":{"kind":"move"},"ref":null})",
        R"({"type":"match.step","match":"m","step":{"kind":"move"},"ref":"0123456789012345678901234567890123456789012345678901234567890123x"})",
        R"({"type":"match.step","match":"m","step":{"kind":"move"},"ref":1,"ref":2})",
        R"({"type":"match.step","match":"","step":{"kind":"move"}})",
        R"({"type":"match.step","match":"0123456789012345678901234567890123456789012345678901234567890123x","step":{}})",
        R"({"type":"match.step","match":"m\u0041","step":{"kind":"move"}})",
        R"({"type":"match.step","match":"m\"","step":{"kind":"move"}})",
        "{\"type\":\"match.step\",\"match\":\"m\xc3\xa9\",\"step\":{\"kind\":\"move\"}}",
        "{\"type\":\"match.step\",\"match\":\"m\x01\",\"step\":{\"kind\":\"move\"}}",
        R"({"type":"match.step","match":"m","match":"n","step":{"kind":"move"}})",
        R"({"type":"match.step","type":"match.step","match":"m","step":{"kind":"move"}})",
        R"({"type":"match.open","match":"m","step":{"kind":"move"}})",
        R"({"type":"match.step","match":"m"})",
        R"({"match":"m","step":{"kind":"move"}})",
        R"({"type":"match.step","step":{"kind":"move"}})",
        R"({"type":"match.step","match":"m","step":{"kind":"move"},"extra":1})",
        R"({"type":"match.step","match":"m","step":"move"})",
        R"({"type":"match.step","match":"m","step":[1]})",
        R"({"type":"match.step","match":"m","step":{"kind":{"a":1}}})",
        R"({"type":"match.step","match":"m","step":{"to":["B2"]}})",
        R"({"type":"match.step","match":"m","step":{"kind":"move","kind":"build"}})",
        R"({"type":"match.step","match":"m","step":{"token":2.0}})",
        R"({"type":"match.step","match":"m","step":{"female":truex}})",
        R"({"type":"match.step","match":"m","step":{"female":tru}})",
        R"({"type":"match.step","match":"m","step":{"kind":"mo\nve"}})",
        R"({"type":"match.step","match":"m","step":{"kind":"move",}})",
        R"({"type":"match.step","match":"m","step":{"kind":"move"},})",
        R"({"type":"match.step","match":"m","step":{"kind":"move"}} x)",
        R"({"type":"match.step","match":"m","step":{"kind":"move"}}})",
        R"({"type":"match.step","match":"m","step":{"kind":"move"})",
        R"([{"type":"match.step","match":"m","step":{"kind":"move"}}])",
        "\xef\xbb\xbf{\"type\":\"match.step\",\"match\":\"m\",\"step\":{\"kind\":\"move\"}}",
        "{\"type\":\"match.step\",\"match\":\"m\",\"step\":{\"kind\":\"move\"}}\f",
        "",
        "{",
    };
    for (const auto& text : left) {
        INFO(text);
        CHECK_FALSE(protocol::read_step_frame(text).has_value());
    }
    // The edges that are the plain shape, read as the tree reads them.
    const std::vector<std::string> read = {
        R"({"type":"match.step","match":"m","step":{}})",
        R"({"step":{"a":-0,"b":0,"c":true,"d":false,"e":null,"f":""},"match":"m","type":"match.step"})",
        R"({"type":"match.step","match":"m","step":{"kind":"move"},"ref":123456789012345678})",
        R"({"type":"match.step","match":"m","step":{"kind":"move"},"ref":-123456789012345678})",
        R"({"type":"match.step","match":"m","step":{"kind":"move"},"ref":""})",
        R"({"type":"match.step","match":"0123456789012345678901234567890123456789012345678901234567890123","step":{"":1}})",
    };
    int count = 0;
    for (const auto& text : read) CHECK(agrees(text, count));
    CHECK(count == static_cast<int>(read.size()));
}

TEST_CASE("mutated step frames: where the fast reader reads one, the tree reads it alike",
          "[messages][step_frame][fuzz]") {
    std::mt19937 rng(20261201);
    auto steps = real_steps();
    const auto frames = frames_of(steps, rng);
    const std::string alphabet =
        "{}[]\":,0123456789.-+eEtruefalsnl \t\n\\/\x01\xff\xc3"
        "abcxyz_";
    auto pick = [&](std::size_t n) { return static_cast<std::size_t>(rng() % n); };
    int read = 0, tried = 0;
    const int rounds = protocol_test::random_games(40000);
    for (int i = 0; i < rounds; ++i) {
        std::string text = frames[pick(frames.size())];
        protocol_test::edit_at_random(text, rng, alphabet, {3, 3, true});
        ++tried;
        CHECK(agrees(text, read));
    }
    // Some mutants keep the plain shape (a changed square, a digit more in a ref): the reader
    // must have been put to the test on them, not only on the ones it leaves.
    CHECK(read > tried / 20);
}

}  // namespace step_frame_test
