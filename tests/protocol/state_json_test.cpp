// The `state` object of the match view, at the start of a draft and in the middle of a game,
// and the views' RFC 6902 patches: each one turns a viewer's view into the next.

#include <catch2/catch_test_macros.hpp>
#include <string>

#include "engine/santorini/notation.hpp"
#include "protocol/messages.hpp"
#include "support.hpp"
#include "tests/support/protocol_oracles/oracles.hpp"

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
    const int games = protocol_test::random_games(3);  // one per setting under the sanitizers
    for (const auto& base : protocol_test::varied_settings())
        for (int game = 0; game < games; ++game, ++seed) {
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

TEST_CASE("cards show each power's state in its own terms", "[state][cards]") {
    // Athena remembers a move up; Circe (A) holds B's card.
    State athena = position(
        "00000/00000/00000/00000/00000 A:A1,E5 B:C5,E1 A powers=Circe,Athena memory=0,1 "
        "holder=A,A");
    json j = state_json(view_for(athena, 0), nullptr);
    REQUIRE(j["cards"].size() == 2);
    CHECK(j["cards"][0] == json{{"seat", 0},
                                {"holder", 0},
                                {"power", "Circe"},
                                {"acting_as", nullptr},
                                {"memory", 0},
                                {"counter", 0},
                                {"tokens", json::array()}});
    CHECK(j["cards"][1]["holder"] == 0);  // Circe uses Athena's card until her next turn
    CHECK(j["cards"][1]["moved_up"] == true);
    CHECK(j["memory"] == json::array({0, 1}));  // the old field stays

    // Dionysus owes a turn and is taking it.
    State dionysus = position(
        "00000/00000/00000/00000/00000 A:A1,E5 B:C5,E1 A powers=Dionysus,Pan counter=1,0 "
        "extra_turn=1");
    j = state_json(view_for(dionysus, spectator), nullptr);
    CHECK(j["cards"][0]["extra_turns"] == 1);
    CHECK(j["this_turn"]["extra_turn"] == true);
    CHECK_FALSE(j["cards"][1].contains("extra_turns"));
}

TEST_CASE("Morpheus' card counts this turn's piece while his turn lasts", "[state][cards]") {
    State s =
        position("00000/00000/00000/00000/00000 A:A1,E5 B:C5,E1 A powers=Morpheus,Pan counter=2,0");
    CHECK(state_json(s, nullptr)["cards"][0]["stored_builds"] == 3);
    apply_step(s, Step::move(0, 0, 6));
    apply_step(s, Step::build(0, 6, 12));
    CHECK(state_json(s, nullptr)["cards"][0]["stored_builds"] == 2);
    apply_step(s, Step::pass());
    REQUIRE(s.turn.seat == 1);
    json j = state_json(s, nullptr);
    CHECK(j["cards"][0]["stored_builds"] == 2);  // kept on the card for his next turn
    CHECK(j["cards"][0]["counter"] == 2);
}

TEST_CASE("Chaos shows his god and discards, never what his deck holds", "[state][cards]") {
    State s = position(
        "00000/00000/00000/00000/00000 A:A1,E5 B:C5,E1 A powers=Chaos,Pan chaos=Artemis "
        "deck=Atlas,Demeter discards=Hephaestus");
    for (int viewer : {spectator, 0, 1}) {
        json j = state_json(view_for(s, viewer), nullptr);
        const json& card = j["cards"][0];
        CHECK(card["acting_as"] == "Artemis");
        CHECK(card["deck_size"] == 2);
        CHECK(card["discards"] == json::array({"Hephaestus"}));
        // The deck is face down: no field names its powers.
        CHECK(j.dump().find("Atlas") == std::string::npos);
        CHECK(j.dump().find("Demeter") == std::string::npos);
    }
}

TEST_CASE("Aphrodite's card names the workers bound this turn", "[state][cards]") {
    // B's worker on B2 neighbours A's worker on A1 when A's turn starts; E5 is far from D3.
    State s = position("00000/00000/00000/00000/00000 A:A1,E5 B:B2,D4 B powers=Pan,Aphrodite");
    apply_step(s, Step::move(3, 18, 13));  // D4 -> D3
    apply_step(s, Step::build(3, 13, 14));
    REQUIRE(s.turn.seat == 0);
    json j = state_json(view_for(s, 0), nullptr);
    CHECK(j["cards"][1]["bound"] == json::array({0}));
    CHECK_FALSE(j["cards"][0].contains("bound"));
}

TEST_CASE("this_turn follows the turn, and tokens are listed by square", "[state][turn]") {
    State s = position("00000/00000/00000/00000/00000 A:A1,E5 B:C5,E1 A powers=Prometheus,Pan");
    json j = state_json(s, nullptr);
    CHECK(j["this_turn"] == json{{"seat", 0},
                                 {"worker", nullptr},
                                 {"start", nullptr},
                                 {"moved", json::array()},
                                 {"moves", 0},
                                 {"builds", 0},
                                 {"last_build", nullptr},
                                 {"moved_up", false},
                                 {"no_move_up", false},
                                 {"dome_built", false},
                                 {"built_before_move", false},
                                 {"extra_turn", false}});
    apply_step(s, Step::build(0, 0, 1, false, true));  // Prometheus builds first
    apply_step(s, Step::move(0, 0, 5));
    j = state_json(s, nullptr);
    CHECK(j["this_turn"]["worker"] == 0);
    CHECK(j["this_turn"]["start"] == "A1");
    CHECK(j["this_turn"]["moved"] == json::array({0}));
    CHECK(j["this_turn"]["moves"] == 1);
    CHECK(j["this_turn"]["built_before_move"] == true);
    CHECK(j["this_turn"]["no_move_up"] == true);
    // Demeter may build again, not on the same space: the view says which that was.
    State demeter = position("00000/00000/00000/00000/00000 A:A1,E5 B:C5,E1 A powers=Demeter,Pan");
    apply_step(demeter, Step::move(0, 0, 5));
    apply_step(demeter, Step::build(0, 5, 10));
    REQUIRE(demeter.phase == Phase::AfterBuild);
    j = state_json(demeter, nullptr);
    CHECK(j["this_turn"]["last_build"] == "A3");
    CHECK(j["this_turn"]["builds"] == 1);

    // No power places tokens yet; the field reads State::tokens of the card's seat.
    s.card(1).tokens = bit(12) | bit(0);
    CHECK(state_json(s, nullptr)["cards"][1]["tokens"] == json::array({"A1", "C3"}));

    // During setup there is no turn.
    Settings st;
    st.draft = DraftMode::FullOffer;
    auto draft = new_game(st);
    REQUIRE(draft.ok());
    CHECK(state_json(*draft, nullptr)["this_turn"].is_null());
}
