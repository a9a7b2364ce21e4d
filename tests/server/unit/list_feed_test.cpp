// The subscribable lists (server/rooms/list_feed.hpp): the snapshot and the coalesced change
// events read as the JSON the protocol documents, an entry's text is shared rather than
// copied, and an unchanged text is no news even when it was written again.

#include <catch2/catch_test_macros.hpp>
#include <memory>
#include <string>

#include "protocol/json/basic_json.hpp"
#include "server/rooms/list_feed.hpp"

// A namespace of its own: server_tests is a unity build.
namespace list_feed_test {

using nlohmann::json;
using server::ListEntries;
using server::ListFeed;

namespace {

std::shared_ptr<const ListEntries> entries(const json& list) {
    return std::make_shared<const ListEntries>(server::list_entries(list));
}

json parsed(const std::shared_ptr<const std::string>& text) {
    REQUIRE(text);
    return json::parse(*text);
}

}  // namespace

TEST_CASE("list feed: the snapshot is the list under its type, as JSON") {
    ListFeed feed("matches");
    const json list = json::array({{{"id", "m_1"}, {"status", "playing"}, {"players", {"a\"b", "c"}}},
                                   {{"id", "m_2"}, {"status", "draft"}}});
    feed.update(entries(list));
    const json snapshot = parsed(feed.snapshot());
    CHECK(snapshot == json{{"type", "matches"}, {"matches", list}});
    CHECK(json::parse(server::list_text(server::list_entries(list))) == list);
    CHECK(parsed(ListFeed("lobbies").snapshot()) == json{{"type", "lobbies"}, {"lobbies", json::array()}});
}

TEST_CASE("list feed: changes carry what is new or differs, and the ids that left") {
    ListFeed feed("matches");
    feed.update(entries(json::array({{{"id", "m_1"}, {"spectators", 0}}, {{"id", "m_2"}}})));
    feed.forget_changes();
    CHECK_FALSE(feed.take_changes());

    // The same texts written again (new strings, new list) are no news.
    feed.update(entries(json::array({{{"id", "m_1"}, {"spectators", 0}}, {{"id", "m_2"}}})));
    CHECK_FALSE(feed.take_changes());

    feed.update(entries(json::array({{{"id", "m_1"}, {"spectators", 2}}, {{"id", "m_3"}}})));
    const json changes = parsed(feed.take_changes());
    CHECK(changes["type"] == "matches.changed");
    CHECK(changes["changed"] == json::array({{{"id", "m_1"}, {"spectators", 2}}, {{"id", "m_3"}}}));
    CHECK(changes["removed"] == json::array({"m_2"}));
    CHECK_FALSE(feed.take_changes());  // told once

    feed.update(entries(json::array()));
    CHECK(parsed(feed.take_changes()) ==
          json{{"type", "matches.changed"}, {"changed", json::array()}, {"removed", {"m_1", "m_3"}}});
}

TEST_CASE("list feed: an entry's text is shared by the list, its copies and what was told") {
    ListFeed feed("matches");
    auto list = entries(json::array({{{"id", "m_1"}, {"status", "playing"}}}));
    const std::weak_ptr<const std::string> text = list->front().text;
    feed.update(list);
    REQUIRE(feed.take_changes());
    list.reset();
    // The feed holds the list and what it told, and both are the one text.
    CHECK(text.use_count() == 2);
    feed.update(entries(json::array()));
    REQUIRE(feed.take_changes());
    CHECK(text.expired());
}

TEST_CASE("list feed: an entry without an id is listed under the empty id") {
    const server::ListEntry entry = server::list_entry(json{{"status", "x"}});
    CHECK(entry.id.empty());
    CHECK(json::parse(*entry.text) == json{{"status", "x"}});
    CHECK(server::list_entries(json::object()).empty());
}

}  // namespace list_feed_test
