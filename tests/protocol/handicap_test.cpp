// The handicap game in the protocol: the lobby setting hero_seat (read, refused naming the field,
// printed and read back, mapped to engine settings), and `state.draft.hero_seat` in the view
// (write_state equals the tree, and its patch).

#include <catch2/catch_test_macros.hpp>
#include <string>

#include "engine/santorini/game.hpp"
#include "protocol/json/basic_json.hpp"
#include "protocol/santorini/json.hpp"
#include "protocol/santorini/view.hpp"
#include "tests/support/protocol_oracles/oracles.hpp"

using namespace protocol;
using nlohmann::json;
using santorini::PowerCategory;
using santorini::PowerId;

namespace {

json handicap(int hero_seat, const char* powers = "all") {
    return {{"game", "santorini"}, {"players", 2}, {"powers", powers}, {"hero_seat", hero_seat}};
}

SettingsError refused(const json& j) {
    auto r = read_lobby_settings(j);
    if (std::holds_alternative<LobbySettings>(r)) FAIL("accepted " << j.dump());
    return std::get<SettingsError>(r);
}

LobbySettings accepted(const json& j) {
    auto r = read_lobby_settings(j);
    if (auto* e = std::get_if<SettingsError>(&r)) FAIL("refused " << j.dump() << ": " << e->message);
    return std::get<LobbySettings>(r);
}

json merged(json j, const json& more) {
    j.update(more);
    return j;
}

bool hero(PowerId p) { return santorini::power_info(p).category == PowerCategory::Hero; }

json document(const santorini::State& s) {
    std::string out;
    JsonText w(out);
    write_state(s, nullptr, w);
    return json::parse(out);
}

}  // namespace

TEST_CASE("lobby settings: hero_seat errors name settings.hero_seat", "[variants][settings]") {
    const json bad_values[] = {2, -1, "0", 0.5, true, json::array({0})};
    for (const json& v : bad_values) {
        INFO(v.dump());
        auto e = refused(merged(handicap(0), {{"hero_seat", v}}));
        CHECK(e.field == "settings.hero_seat");
        CHECK_FALSE(e.missing);
    }
    json three = handicap(1);
    three["players"] = 3;
    CHECK(refused(three).field == "settings.hero_seat");
    json fleece = handicap(0, "simple");
    fleece["golden_fleece"] = true;
    CHECK(refused(fleece).field == "settings.hero_seat");
    for (const char* powers : {"none", "heroes"}) {
        auto e = refused(handicap(0, powers));
        CHECK(e.field == "settings.hero_seat");
        CHECK(e.message.find("gods") != std::string::npos);
    }
    // The message form (lobby.create's error) names the field too.
    auto text = lobby_settings_from_json(handicap(0, "heroes"));
    REQUIRE(std::holds_alternative<std::string>(text));
    CHECK(std::get<std::string>(text).find("settings.hero_seat") != std::string::npos);
    // Splendor has no heroes.
    CHECK(refused({{"game", "splendor"}, {"players", 2}, {"hero_seat", 0}}).field == "settings.hero_seat");
}

TEST_CASE("lobby settings: hero_seat prints back and reads as the same settings", "[variants][settings]") {
    const json samples[] = {
        handicap(0), handicap(1, "simple"),
        merged(handicap(1), {{"draft", "full"}}),
        merged(handicap(0), {{"draft", "subset"}, {"public", false}}),
        merged(handicap(0, "custom"), {{"pool", {"Apollo", "Theseus", "Nemesis"}}}),
    };
    for (const json& sample : samples) {
        INFO(sample.dump());
        LobbySettings s = accepted(sample);
        CHECK(s.hero_seat == sample["hero_seat"].get<int>());
        json printed = lobby_settings_json(s);
        CHECK(printed["hero_seat"] == sample["hero_seat"]);
        LobbySettings again = accepted(printed);
        CHECK(again.hero_seat == s.hero_seat);
        CHECK(lobby_settings_json(again) == printed);
    }
    // No handicap: null, and null reads as none.
    LobbySettings plain = accepted({{"game", "santorini"}, {"players", 2}, {"powers", "all"}});
    CHECK(plain.hero_seat == -1);
    CHECK(lobby_settings_json(plain)["hero_seat"].is_null());
    CHECK(accepted(lobby_settings_json(plain)).hero_seat == -1);
}

TEST_CASE("lobby settings: the handicap pool is the gods asked for and every hero", "[variants][settings]") {
    for (const char* powers : {"simple", "all"}) {
        INFO(powers);
        auto r = engine_settings(accepted(handicap(1, powers)), 1, 0);
        REQUIRE(std::holds_alternative<santorini::Settings>(r));
        const auto& st = std::get<santorini::Settings>(r);
        CHECK(st.hero_seat == 1);
        int heroes = 0, simple = 0, advanced = 0;
        for (PowerId p : st.pool) {
            auto c = santorini::power_info(p).category;
            heroes += c == PowerCategory::Hero;
            simple += c == PowerCategory::Simple;
            advanced += c == PowerCategory::Advanced;
        }
        CHECK(heroes == 10);
        CHECK(simple == 10);
        CHECK((advanced > 0) == (std::string(powers) == "all"));
        auto g = santorini::new_game(st);
        REQUIRE(g.ok());
        CHECK(hero(g->seat(1).power));
        CHECK_FALSE(hero(g->seat(0).power));
    }
    // A custom pool must hold a hero and a god that may face each other.
    auto e = refused(merged(handicap(0, "custom"), {{"pool", {"Theseus", "Nemesis"}}}));
    CHECK(e.field == "settings.pool");
    CHECK(e.message.find("not banned") != std::string::npos);
}

TEST_CASE("view: draft.hero_seat is written, equals the tree, and is patched", "[variants][santorini_view]") {
    santorini::Settings st;
    st.players = 2;
    st.draft = santorini::DraftMode::FullOffer;
    st.hero_seat = 1;
    santorini::State s = *santorini::new_game(st);
    json doc = document(s);
    CHECK(doc["draft"]["hero_seat"] == 1);
    CHECK(doc == state_json(s, nullptr));
    santorini::State plain = s;
    plain.setup.hero_seat = -1;
    json before = document(plain);
    CHECK(before["draft"]["hero_seat"].is_null());
    CHECK(before == state_json(plain, nullptr));
    std::string text;
    PatchText patch(text);
    write_state_patch(plain, nullptr, s, nullptr, "/state", patch);
    patch.finish();
    json applied = json{{"state", before}}.patch(json::parse(text));
    CHECK(applied["state"] == doc);
    CHECK(text.find("hero_seat") != std::string::npos);
}
