// The `state` object of the match view, at the start of a draft and in the middle of a game,
// and the views' RFC 6902 patches: each one turns a viewer's view into the next.

#include <catch2/catch_test_macros.hpp>
#include <string>

#include "engine/santorini/notation.hpp"
#include "protocol/messages.hpp"
#include "support.hpp"

using namespace santorini;
using nlohmann::json;
using protocol::state_json;

namespace {

State position(const char* notation) {
    auto r = parse_notation(notation);
    REQUIRE(r.ok());
    return *r;
}

}  // namespace

TEST_CASE("state_json at the start of a full-offer draft", "[state]") {
    Settings st;
    st.draft = DraftMode::FullOffer;
    st.challenger = 1;
    auto s = new_game(st);
    REQUIRE(s.ok());
    StepList legal;
    legal_steps(*s, legal);
    json j = state_json(view_for(*s, 1), &legal);

    CHECK(j["phase"] == "offer");
    CHECK(j["decider"] == 1);
    CHECK(j["turn"] == 0);
    CHECK(j["players"] == 2);
    CHECK(j["board"] == json(std::vector<std::string>(25, "0")));
    CHECK(j["workers"] == json::array());  // workers come once the powers are known
    CHECK(j["powers"] == json::array({nullptr, nullptr}));
    CHECK(j["out"] == json::array({false, false}));
    CHECK(j["winners"] == json::array());
    CHECK(j["memory"] == json::array({0, 0}));
    CHECK(j["fleece"].is_null());
    CHECK(j["draft"]["mode"] == "full");
    CHECK(j["draft"]["challenger"] == 1);
    CHECK(j["draft"]["start_player"].is_null());
    CHECK(j["draft"]["offer"] == json::array());
    // The pool is every power the engine plays for two players, by key.
    json pool = json::array();
    for (auto p : eligible_powers(2, false)) pool.push_back(power_info(p).key);
    CHECK(j["draft"]["pool"] == pool);
    REQUIRE(j["legal"].size() == static_cast<std::size_t>(legal.size()));
    CHECK(j["legal"][0] == json{{"kind", "offer"}, {"power", "Apollo"}});

    // The opponent's view has no legal list.
    CHECK_FALSE(state_json(view_for(*s, 0), nullptr).contains("legal"));
}

TEST_CASE("state_json follows the draft: offer, choose, start player, placement",
          "[state][draft]") {
    Settings st;
    st.draft = DraftMode::FullOffer;
    auto s = new_game(st);
    REQUIRE(s.ok());
    State g = *s;
    apply_step(g, Step::offer(PowerId::Apollo));
    apply_step(g, Step::offer(PowerId::Pan));
    json j = state_json(g, nullptr);
    CHECK(j["phase"] == "choose");
    CHECK(j["decider"] == 1);
    CHECK(j["draft"]["offer"] == json::array({"Apollo", "Pan"}));

    apply_step(g, Step::choose(PowerId::Pan));
    j = state_json(g, nullptr);
    CHECK(j["phase"] == "start_player");
    CHECK(j["decider"] == 0);
    CHECK(j["powers"] == json::array({"Apollo", "Pan"}));

    apply_step(g, Step::start_player(1));
    j = state_json(g, nullptr);
    CHECK(j["phase"] == "place");
    CHECK(j["decider"] == 1);
    CHECK(j["draft"]["start_player"] == 1);
    REQUIRE(j["workers"].size() == 4);
    CHECK(j["workers"][0] ==
          json{{"id", 0}, {"side", 0}, {"square", nullptr}, {"female", false}, {"reserve", false}});
}

TEST_CASE("state_json of a game in progress", "[state]") {
    State s = position(
        "0D1000/02310/0123D0/21003/00000 A:B2,C3 B:D4,E1 B powers=Atlas,Athena memory=0,1");
    StepList legal;
    legal_steps(s, legal);
    json j = state_json(view_for(s, 1), &legal);
    CHECK(j["phase"] == "begin");
    CHECK(j["decider"] == 1);
    CHECK(j["players"] == 2);
    // Index = square, A1..E1 first: the notation's last row comes first.
    const std::vector<std::string> board = {"0", "0", "0",  "0", "0",  "2", "1", "0", "0",
                                            "3", "0", "1",  "2", "3D", "0", "0", "2", "3",
                                            "1", "0", "0D", "1", "0",  "0", "0"};
    CHECK(j["board"] == json(board));
    REQUIRE(j["workers"].size() == 4);
    CHECK(j["workers"][0] ==
          json{{"id", 0}, {"side", 0}, {"square", "B2"}, {"female", false}, {"reserve", false}});
    CHECK(j["workers"][1]["square"] == "C3");
    CHECK(j["workers"][2] ==
          json{{"id", 2}, {"side", 1}, {"square", "D4"}, {"female", false}, {"reserve", false}});
    CHECK(j["workers"][3]["square"] == "E1");
    CHECK(j["powers"] == json::array({"Atlas", "Athena"}));
    CHECK(j["memory"] == json::array({0, 1}));
    CHECK(j["draft"]["mode"] == "fixed");  // notation deals powers as fixed
    CHECK(j["winners"] == json::array());
    // The legal list is the engine's, in its order, and holds only moves at the turn's start.
    REQUIRE(j["legal"].size() == static_cast<std::size_t>(legal.size()));
    for (std::size_t i = 0; i < j["legal"].size(); ++i) {
        CHECK(j["legal"][i] == protocol::step_json(s, legal[static_cast<int>(i)]));
        CHECK(j["legal"][i]["kind"] == "move");
    }
}

TEST_CASE("state_json of a finished game and of three players with one out", "[state]") {
    // A moves up to level 3 and wins.
    State s = position("00000/00000/00000/00230/00000 A:C2,A5 B:E5,E1 A");
    apply_step(s, Step::move(0, 7, 8));
    json j = state_json(s, nullptr);
    CHECK(j["phase"] == "over");
    CHECK(j["decider"].is_null());
    CHECK(j["winners"] == json::array({0}));

    State three = position("00000/00000/00000/00000/00000 A:A1,B1 B:D4,E5 C:-  A out=C");
    json t = state_json(three, nullptr);
    CHECK(t["players"] == 3);
    CHECK(t["out"] == json::array({false, false, true}));
    CHECK(t["powers"] == json::array({nullptr, nullptr, nullptr}));
}

TEST_CASE("state_json with the Golden Fleece shows the fleece power and the Ram",
          "[state][fleece]") {
    Settings st;
    st.draft = DraftMode::FullOffer;
    st.golden_fleece = true;
    auto s = new_game(st);
    REQUIRE(s.ok());
    json j = state_json(*s, nullptr);
    CHECK(j["fleece"]["power"].is_null());
    CHECK(j["fleece"]["ram"].is_null());
    CHECK(j["fleece"]["holders"] == json::array());
    State g = *s;
    StepList legal;
    for (int i = 0; i < 40 && g.ram == no_square; ++i) {
        legal.clear();
        legal_steps(g, legal);
        apply_step(g, legal[0]);
    }
    REQUIRE(g.ram != no_square);
    j = state_json(g, nullptr);
    CHECK(j["fleece"]["power"].is_string());
    CHECK(j["fleece"]["ram"] == square_name(g.ram));
    CHECK(j["powers"] == json::array({nullptr, nullptr}));  // the fleece power is nobody's card
    CHECK(j["fleece"]["card"]["power"] == j["fleece"]["power"]);
    CHECK(j["cards"][0]["power"].is_null());
    CHECK(j["cards"][0]["acting_as"].is_null());  // the fleece's Chaos god is the fleece's
}

TEST_CASE("each viewer's patch turns its view into the next one", "[state][patch]") {
    int patches = 0, empty = 0;
    std::uint64_t seed = 100;
    for (const auto& base : protocol_test::varied_settings())
        for (int game = 0; game < 3; ++game, ++seed) {
            auto settings = base;
            settings.seed = seed;
            auto g = protocol_test::play_random(settings, seed);
            REQUIRE(g.states.size() > 1);
            for (int viewer = spectator; viewer < settings.players; ++viewer) {
                std::vector<std::string> history;
                json view = protocol_test::match_view(g.states[0], viewer, history);
                // What the client holds: the snapshot, then every patch applied in order.
                json client = json::parse(view.dump());
                for (std::size_t i = 0; i + 1 < g.states.size(); ++i) {
                    history.push_back(to_text(g.steps[i]));
                    json next = protocol_test::match_view(g.states[i + 1], viewer, history);
                    json patch = json::parse(protocol::diff(view, next).dump());
                    REQUIRE(view.patch(patch) == next);
                    client = client.patch(patch);
                    ++patches;
                    if (patch.empty()) ++empty;
                    view = std::move(next);
                }
                CHECK(client == view);
            }
        }
    INFO(patches << " patches, " << empty << " empty");
    CHECK(patches > 1000);
}
