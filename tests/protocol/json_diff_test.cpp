// protocol::diff against nlohmann::json::diff: its patches turn one document into the other;
// it matches nlohmann's operation for operation except where it replaces a mostly changed array
// whole, and then it is never longer.

#include <catch2/catch_test_macros.hpp>
#include <random>
#include <string>

#include "protocol/json/basic_json.hpp"
#include "protocol/messages.hpp"
#include "tests/support/protocol_oracles/oracles.hpp"

namespace {

using json = nlohmann::json;

/// A random document: objects with a few keys from a small set (some with '/' and '~'), arrays,
/// strings, numbers of each kind, booleans and null; small enough to differ often.
json random_document(std::mt19937& rng, int depth) {
    std::uniform_int_distribution<int> kind(0, depth > 0 ? 8 : 5);
    switch (kind(rng)) {
        case 0:
            return nullptr;
        case 1:
            return std::uniform_int_distribution<int>(0, 1)(rng) == 1;
        case 2:
            return std::uniform_int_distribution<int>(-2, 2)(rng);
        case 3:
            return static_cast<unsigned>(std::uniform_int_distribution<int>(0, 2)(rng));
        case 4:
            return std::uniform_int_distribution<int>(0, 2)(rng) * 0.5;
        case 5:
            return std::string(
                1, static_cast<char>('a' + std::uniform_int_distribution<int>(0, 2)(rng)));
        case 6:
        case 7: {
            static const char* keys[] = {"a", "b", "c/d", "e~f", "history", "legal"};
            json object = json::object();
            const int n = std::uniform_int_distribution<int>(0, 4)(rng);
            for (int i = 0; i < n; ++i)
                object[keys[std::uniform_int_distribution<int>(0, 5)(rng)]] =
                    random_document(rng, depth - 1);
            return object;
        }
        default: {
            json array = json::array();
            const int n = std::uniform_int_distribution<int>(0, 4)(rng);
            for (int i = 0; i < n; ++i) array.push_back(random_document(rng, depth - 1));
            return array;
        }
    }
}

/// `doc` with a few random changes, so pairs share most of their structure like views do.
json mutated(json doc, std::mt19937& rng) {
    if (doc.is_object() && !doc.empty() && std::uniform_int_distribution<int>(0, 3)(rng) > 0) {
        auto it = doc.begin();
        std::advance(it, std::uniform_int_distribution<std::size_t>(0, doc.size() - 1)(rng));
        *it = mutated(*it, rng);
        return doc;
    }
    if (doc.is_array() && !doc.empty() && std::uniform_int_distribution<int>(0, 3)(rng) > 0) {
        auto& item = doc[std::uniform_int_distribution<std::size_t>(0, doc.size() - 1)(rng)];
        item = mutated(item, rng);
        if (std::uniform_int_distribution<int>(0, 2)(rng) == 0) doc.push_back(1);
        return doc;
    }
    return random_document(rng, 2);
}

/// Whether `patch` replaces an array of `doc` whole (where it departs from nlohmann's diff).
bool replaces_an_array(const json& patch, const json& doc) {
    for (const json& op : patch) {
        if (op["op"] != "replace") continue;
        const json::json_pointer at(op["path"].get<std::string>());
        if (doc.contains(at) && doc.at(at).is_array() && op["value"].is_array()) return true;
    }
    return false;
}

}  // namespace

TEST_CASE("diff: patches that apply, as nlohmann's json::diff or shorter", "[protocol]") {
    std::mt19937 rng(20261122);
    for (int i = 0; i < 20000; ++i) {
        const json from = random_document(rng, 4);
        const json to = i % 2 ? mutated(from, rng) : random_document(rng, 4);
        const json ours = protocol::diff(from, to);
        const json reference = json::diff(from, to);
        INFO("from " << from.dump() << "\nto " << to.dump() << "\nours " << ours.dump());
        REQUIRE(from.patch(ours) == to);
        REQUIRE(ours.size() <= reference.size());
        if (!replaces_an_array(ours, from)) REQUIRE(ours == reference);
    }
}

TEST_CASE("diff: equal documents give an empty patch; numbers compare by value", "[protocol]") {
    const json view = {{"a", json::array({1, 2, 3})}, {"b", {{"c", "x"}}}};
    CHECK(protocol::diff(view, view) == json::array());
    CHECK(protocol::diff(json(1), json(1u)) == json::array());
    CHECK(protocol::diff(json(1), json(1.5)) ==
          json::array({{{"op", "replace"}, {"path", ""}, {"value", 1.5}}}));
    // Keys are escaped as JSON Pointer tokens.
    CHECK(protocol::diff(json{{"a/b~", 1}}, json{{"a/b~", 2}}) ==
          json::array({{{"op", "replace"}, {"path", "/a~1b~0"}, {"value", 2}}}));
    // Surplus array elements go from the last one down; new ones are appended with "-".
    CHECK(protocol::diff(json::array({1, 2, 3}), json::array({1})) ==
          json::array({{{"op", "remove"}, {"path", "/2"}}, {{"op", "remove"}, {"path", "/1"}}}));
    CHECK(protocol::diff(json::array({1}), json::array({1, 2})) ==
          json::array({{{"op", "add"}, {"path", "/-"}, {"value", 2}}}));
    // A list most of whose elements changed (legal moves that became legal builds) is replaced
    // whole; one changed element of many is patched in place.
    const json moves =
        json::array({{{"kind", "move"}, {"to", "B2"}}, {{"kind", "move"}, {"to", "C3"}}});
    const json builds =
        json::array({{{"kind", "build"}, {"to", "B2"}}, {{"kind", "build"}, {"to", "C4"}}});
    CHECK(protocol::diff(json{{"legal", moves}}, json{{"legal", builds}}) ==
          json::array({{{"op", "replace"}, {"path", "/legal"}, {"value", builds}}}));
    CHECK(protocol::diff(json::array({1, 2, 3}), json::array({1, 5, 3})) ==
          json::array({{{"op", "replace"}, {"path", "/1"}, {"value", 5}}}));
}
