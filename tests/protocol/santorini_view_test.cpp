// write_state and write_state_patch against the tree they replace: random games over every
// pair of powers (2 players), random and fixed powers with 3 and 4 players, the Golden Fleece,
// the offer drafts and games without powers. At every step, for every seat and a spectator
// (each with its own projected view; the legal list only for the seat that must decide):
//   - write_state parses to exactly state_json's document;
//   - the patch from the previous step's view applies to the previous document and gives
//     exactly the new one (nlohmann's json::patch);
//   - the patch between a view and itself is empty;
// and now and then (and always at the end) a patch from an earlier state of the game, as a
// reconnecting viewer would need, applies the same way.
//
// About 13 s of CPU in a release build; SANTORINI_RANDOM_GAMES_PERCENT=10 plays a tenth of every
// group (see tests/engine/random_play_test.cpp) for the sanitizer builds.

#include "protocol/json/basic_json.hpp"
#include "protocol/santorini/view.hpp"

#include <algorithm>
#include <catch2/catch_test_macros.hpp>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "engine/santorini/game.hpp"
#include "engine/santorini/notation.hpp"
#include "engine/santorini/powers/card_tokens.hpp"
#include "engine/santorini/view.hpp"
#include "protocol/messages.hpp"
#include "protocol/santorini/json.hpp"
#include "support.hpp"
#include "tests/support/protocol_oracles/oracles.hpp"

using namespace santorini;
using nlohmann::json;

namespace {

constexpr int step_bound = 400;

int games(int n) { return protocol_test::random_games(n); }

std::string state_text(const State& view, const StepList* legal) {
    std::string out;
    protocol::JsonText w(out);
    protocol::write_state(view, legal, w);
    return out;
}

std::string patch_text(const State& from, const StepList* from_legal, const State& to,
                       const StepList* to_legal) {
    std::string out;
    protocol::PatchText patch(out);
    protocol::write_state_patch(from, from_legal, to, to_legal, "/state", patch);
    patch.finish();
    return out;
}

struct Outcome {
    int games = 0;
    long steps = 0;
    long views = 0;    // documents checked
    long patches = 0;  // patches applied
    long ops = 0;      // operations in them
    std::vector<std::string> failures;
    int failure_count = 0;
    std::vector<std::string> engine_findings;  // stuck games (not this file's subject)
};

std::string describe(const Settings& st) {
    std::string out = "players=" + std::to_string(st.players) +
                      " draft=" + std::to_string(static_cast<int>(st.draft)) +
                      " seed=" + std::to_string(st.seed) + (st.golden_fleece ? " fleece" : "") +
                      " powers=";
    for (auto p : st.powers) out += std::string(power_info(p).key) + ",";
    return out;
}

void fail(Outcome& o, const Settings& st, int step, int viewer, const std::string& what) {
    if (++o.failure_count <= 5)
        o.failures.push_back(describe(st) + " step " + std::to_string(step) + " viewer " +
                             std::to_string(viewer) + ": " + what.substr(0, 1500));
}

// What a viewer was shown at one point: its typed view, its legal list (if it decides), and
// the document as the tree oracle builds it.
struct Shown {
    State view;
    bool decides = false;
    StepList legal;
    std::shared_ptr<const json> doc;
    const StepList* legal_ptr() const { return decides ? &legal : nullptr; }
};

Shown shown(const State& s, const StepList& legal, int viewer) {
    Shown v;
    v.view = view_for(s, viewer);
    v.decides = viewer >= 0 && viewer == decider(s);
    if (v.decides) v.legal = legal;
    v.doc =
        std::make_shared<const json>(json{{"state", protocol::state_json(v.view, v.legal_ptr())}});
    return v;
}

// Applies the patch from `a` to `b` to a's document; empty if it gives b's, else why not.
std::string check_patch(const Shown& a, const Shown& b, Outcome& o) {
    const std::string text = patch_text(a.view, a.legal_ptr(), b.view, b.legal_ptr());
    json ops;
    try {
        ops = json::parse(text);
    } catch (const std::exception& e) {
        return std::string("patch does not parse: ") + e.what() + " in " + text;
    }
    json doc = *a.doc;
    try {
        doc.patch_inplace(ops);
    } catch (const std::exception& e) {
        return std::string("patch does not apply: ") + e.what() + " patch " + text;
    }
    ++o.patches;
    o.ops += static_cast<long>(ops.size());
    if (doc != *b.doc)
        return "patch gives another document; still to do: " + protocol::diff(doc, *b.doc).dump() +
               " patch " + text;
    if (*a.doc == *b.doc && ops.size() != 0) return "ops for an unchanged document: " + text;
    return "";
}

std::string check_view(const Shown& v, Outcome& o) {
    ++o.views;
    const std::string text = state_text(v.view, v.legal_ptr());
    json parsed;
    try {
        parsed = json::parse(text);
    } catch (const std::exception& e) {
        return std::string("write_state does not parse: ") + e.what() + " in " + text;
    }
    if (parsed != (*v.doc)["state"])
        return "write_state differs from state_json: " +
               protocol::diff((*v.doc)["state"], parsed).dump();
    if (const std::string same = patch_text(v.view, v.legal_ptr(), v.view, v.legal_ptr());
        same != "[]")
        return "a patch between equal views: " + same;
    return "";
}

// Plays one random game from `st`, checking every viewer's document and patch at each step.
// Now and then a seat concedes instead of a step being played.
void play_game(const Settings& st, std::mt19937_64& rng, Outcome& o) {
    ++o.games;
    auto created = new_game(st);
    if (!created.ok()) {
        fail(o, st, -1, -2, "new_game refused: " + created.error().message);
        return;
    }
    std::vector<State> states{*created};
    std::vector<int> viewers{spectator};
    for (int seat = 0; seat < created->seat_count; ++seat) viewers.push_back(seat);

    StepList legal;
    legal_steps(states.back(), legal);
    std::vector<Shown> first, last;
    for (int viewer : viewers) {
        last.push_back(shown(states.back(), legal, viewer));
        if (auto e = check_view(last.back(), o); !e.empty()) fail(o, st, 0, viewer, e);
    }
    first = last;

    // A patch from an earlier state of this game to the current one, for one viewer.
    auto check_from_earlier = [&](std::size_t k, std::size_t vi) {
        StepList earlier_legal;
        legal_steps(states[k], earlier_legal);
        const Shown a = k == 0 ? first[vi] : shown(states[k], earlier_legal, viewers[vi]);
        if (auto e = check_patch(a, last[vi], o); !e.empty())
            fail(o, st, static_cast<int>(states.size()) - 1, viewers[vi],
                 "from state " + std::to_string(k) + ": " + e);
    };

    bool conceded = false;
    while (!states.back().over() && static_cast<int>(states.size()) <= step_bound) {
        State next = states.back();
        if (legal.empty()) {
            // Seen once a seat conceded in the middle of another's turn with 3 players: an
            // engine matter, reported apart; the views up to here were checked.
            if (o.engine_findings.size() < 3)
                o.engine_findings.push_back(describe(st) +
                                            (conceded ? " (after a concession)" : "") +
                                            ": no legal step in " + to_notation(next));
            break;
        }
        if (in_play(next) && rng() % 50 == 0) {
            const int seat = static_cast<int>(rng() % next.seat_count);
            if (concede(next, seat)) continue;  // already out: play on
            conceded = true;
        } else {
            apply_step(next,
                       legal[static_cast<int>(rng() % static_cast<std::uint64_t>(legal.size()))]);
        }
        states.push_back(next);
        ++o.steps;
        legal_steps(next, legal);
        const int index = static_cast<int>(states.size()) - 1;
        // viewers[0] is the spectator. A seat that neither decides nor sees more than the
        // spectator, now and at the previous step, has the spectator's inputs: its document
        // and patch were checked already (both functions depend on their arguments alone).
        std::vector<bool> was_spectator_like(viewers.size(), false);
        for (std::size_t vi = 1; vi < viewers.size(); ++vi)
            was_spectator_like[vi] = !last[vi].decides && last[vi].view == last[0].view;
        for (std::size_t vi = 0; vi < viewers.size(); ++vi) {
            if (was_spectator_like[vi] && decider(next) != viewers[vi] &&
                view_for(next, viewers[vi]) == last[0].view) {
                last[vi] = last[0];  // last[0] is already the spectator's view of `next`
                continue;
            }
            Shown now = shown(next, legal, viewers[vi]);
            if (auto e = check_view(now, o); !e.empty()) fail(o, st, index, viewers[vi], e);
            if (auto e = check_patch(last[vi], now, o); !e.empty())
                fail(o, st, index, viewers[vi], e);
            last[vi] = std::move(now);
        }
        if (rng() % 16 == 0)
            check_from_earlier(static_cast<std::size_t>(rng() % states.size()),
                               static_cast<std::size_t>(rng() % viewers.size()));
        if (o.failure_count > 5) return;
    }
    for (std::size_t vi = 0; vi < viewers.size(); ++vi) check_from_earlier(0, vi);
}

void report(const Outcome& o, const char* group) {
    for (const auto& f : o.failures) UNSCOPED_INFO(f);
    for (const auto& f : o.engine_findings) WARN("engine: " << f);
    CHECK(o.failure_count == 0);
    WARN(group << ": " << o.games << " games, " << o.steps << " steps, " << o.views
               << " documents, " << o.patches << " patches (" << o.ops << " operations), "
               << o.failure_count << " failures");
    CHECK(o.games > 0);
    CHECK(o.patches > o.steps);
}

Settings base(std::mt19937_64& rng, int players, DraftMode draft) {
    Settings st;
    st.players = players;
    st.draft = draft;
    st.challenger = static_cast<int>(rng() % static_cast<std::uint64_t>(players));
    st.start_player =
        rng() % 2 ? static_cast<int>(rng() % static_cast<std::uint64_t>(players)) : -1;
    st.seed = rng();
    return st;
}

}  // namespace

TEST_CASE("write_step writes step_json's document for every kind", "[santorini_view]") {
    State s = *new_game(Settings{});
    std::vector<Step> steps = {
        Step::place(0, 12),
        Step::place(1, 3, true),
        Step::move(0, 12, 13),
        Step::move(0, 12, 13, 14),
        Step::build(0, 1, 2),
        Step::build(0, 1, 2, true, true),
        Step::build(0, 1, 2, false, true),
        Step::pass(),
        Step::offer(PowerId::Apollo),
        Step::choose(PowerId::Chaos),
        Step::start_player(1),
        {StepKind::Force, -1, 7, 8, 2},
        {StepKind::Remove, 0, 7, 8, -1},
        {StepKind::Capture, 0, 7, 8, 1},
        {StepKind::Token, -1, no_square, 24, 0},
        {StepKind::Token, 1, 3, 4, 2},
        {StepKind::Token, -1, no_square, 0, -1},
        {StepKind::Aim, -1, no_square, no_square, 5},
        {StepKind::Select, 1, 6, no_square, 0},
    };
    for (const Step& step : steps) {
        std::string out;
        protocol::JsonText w(out);
        protocol::write_step(s, step, w);
        INFO(to_text(step) << " -> " << out);
        CHECK(json::parse(out) == protocol::step_json(s, step));
    }
}

TEST_CASE("write_state_patch: the legal list comes, changes and goes", "[santorini_view]") {
    Settings st;
    st.draft = DraftMode::FullOffer;
    State s = *new_game(st);
    StepList legal;
    legal_steps(s, legal);
    const State v = view_for(s, 0);
    json doc = {{"state", protocol::state_json(v, nullptr)}};
    // Appears, then goes again.
    json with = doc;
    with.patch_inplace(json::parse(patch_text(v, nullptr, v, &legal)));
    CHECK(with["state"] == protocol::state_json(v, &legal));
    with.patch_inplace(json::parse(patch_text(v, &legal, v, nullptr)));
    CHECK(with == doc);
    // Nothing seen changed: no operation at all.
    CHECK(patch_text(v, &legal, v, &legal) == "[]");
}

TEST_CASE("the Golden Fleece gods' cards: write_state and its patches equal the tree",
          "[santorini_view][cards]") {
    namespace pw = santorini::powers;
    // Each pair's cards before their marks are set, with them, and with them moved on: every
    // viewer's document and the patches between the three (and from the first to the last).
    const char* pairs[] = {"Aeolus,Siren", "Charybdis,Clio", "EuropaTalus,Gaea", "Moerae,Hades",
                           "Hades,Tartarus"};
    for (const char* powers : pairs) {
        INFO(powers);
        auto parsed = parse_notation(std::string("00000/00000/00000/00000/00000 A:A1,E5 B:C5,E1 A powers=") + powers);
        REQUIRE(parsed.ok());
        std::vector<State> states{*parsed};
        auto mark = [&](int step) {
            State s = states.back();
            for (int card = 0; card < 2; ++card) {
                switch (s.seat(card).power) {
                    case PowerId::Aeolus: pw::set_wind(s, card, step == 1 ? 1 : 6); break;
                    case PowerId::Siren: pw::set_song(s, card, step == 1 ? 4 : 0); break;
                    case PowerId::Charybdis:
                        s.card(card).tokens = step == 1 ? bit(12) : bit(12) | bit(7);
                        break;
                    case PowerId::Clio:
                        s.card(card).tokens = step == 1 ? bit(3) : bit(3) | bit(8) | bit(9);
                        s.card(card).counter = step == 1 ? 1 : 3;
                        break;
                    case PowerId::EuropaTalus: s.card(card).tokens = bit(step == 1 ? 6 : 17); break;
                    case PowerId::Moerae:
                        set_card_data(s.card(card), pw::FateCard{step == 1 ? bit(0) | bit(1) | bit(5) | bit(6)
                                                                          : bit(18) | bit(19) | bit(23) | bit(24)});
                        break;
                    case PowerId::Tartarus:
                        set_card_data(s.card(card), pw::AbyssCard{static_cast<std::uint8_t>(step == 1 ? 13 : 1)});
                        break;
                    case PowerId::Gaea:
                        // Her two workers on her card, then one of them on the board.
                        if (step == 1) {
                            for (int i = 0; i < 2; ++i) {
                                Worker w;
                                w.side = s.seat(card).side;
                                w.in_reserve = true;
                                s.worker(s.worker_count++) = w;
                            }
                        } else {
                            s.worker(s.worker_count - 1).in_reserve = false;
                            s.worker(s.worker_count - 1).square = 11;
                        }
                        break;
                    default: break;
                }
            }
            states.push_back(s);
        };
        mark(1);
        mark(2);
        Outcome o;
        for (int viewer : {spectator, 0, 1}) {
            std::vector<Shown> seen;
            for (const State& s : states) {
                StepList legal;
                legal_steps(s, legal);
                seen.push_back(shown(s, legal, viewer));
                CHECK(check_view(seen.back(), o) == "");
            }
            CHECK(check_patch(seen[0], seen[1], o) == "");
            CHECK(check_patch(seen[1], seen[2], o) == "");
            CHECK(check_patch(seen[0], seen[2], o) == "");
            CHECK(check_patch(seen[2], seen[0], o) == "");
        }
    }
}

TEST_CASE("the Golden Fleece gods' cards say their tokens in the card's own terms", "[state][cards]") {
    namespace pw = santorini::powers;
    auto at = [](const char* powers) {
        auto parsed = parse_notation(std::string("00000/00000/00000/00000/00000 A:A1,E5 B:C5,E1 A powers=") + powers);
        REQUIRE(parsed.ok());
        return *parsed;
    };
    State s = at("Aeolus,Siren");
    json j = protocol::state_json(s, nullptr);
    CHECK(j["cards"][0]["wind"] == nullptr);  // not set before his setup step
    CHECK_FALSE(j["cards"][0].contains("song"));
    pw::set_wind(s, 0, 1);
    pw::set_song(s, 1, 7);
    j = protocol::state_json(s, nullptr);
    CHECK(j["cards"][0]["wind"] == "NE");
    CHECK(j["cards"][1]["song"] == "NW");

    s = at("Charybdis,Clio");
    s.card(0).tokens = bit(12);
    s.card(1).tokens = bit(3) | bit(9);
    s.card(1).counter = 3;  // a third coin was placed and is gone
    j = protocol::state_json(s, nullptr);
    CHECK(j["cards"][0]["whirlpools"] == json::array({"C3"}));
    CHECK(j["cards"][0]["whirlpools_on_card"] == 1);
    CHECK(j["cards"][1]["coins"] == json::array({"D1", "E2"}));
    CHECK(j["cards"][1]["coins_on_card"] == 0);

    s = at("EuropaTalus,Tartarus");
    j = protocol::state_json(s, nullptr);
    CHECK(j["cards"][0]["talus"] == nullptr);  // on her card
    CHECK(j["cards"][1]["abyss"] == nullptr);
    s.card(0).tokens = bit(7);
    set_card_data(s.card(1), pw::AbyssCard{25});
    j = protocol::state_json(s, nullptr);
    CHECK(j["cards"][0]["talus"] == "C2");
    CHECK(j["cards"][1]["abyss"] == "E5");

    s = at("Moerae,Gaea");
    set_card_data(s.card(0), pw::FateCard{bit(0) | bit(1) | bit(5) | bit(6)});
    Worker w;
    w.side = s.seat(1).side;
    w.in_reserve = true;
    s.worker(s.worker_count++) = w;
    j = protocol::state_json(s, nullptr);
    CHECK(j["cards"][0]["fate"] == json::array({"A1", "B1", "A2", "B2"}));
    CHECK(j["cards"][1]["reserve"] == 1);
}

TEST_CASE("write_state and its patches equal the tree in random games without powers",
          "[santorini_view][random]") {
    std::mt19937_64 rng(11);
    Outcome o;
    for (int g = 0; g < games(150); ++g) play_game(base(rng, 2, DraftMode::None), rng, o);
    report(o, "2p without powers");
}

TEST_CASE("write_state and its patches equal the tree for every pair of powers",
          "[santorini_view][random]") {
    std::mt19937_64 rng(12);
    const auto eligible = eligible_powers(2, false);
    Outcome o;
    // Every pair in both seat orders; the percentage keeps a spread across the pairs.
    std::vector<std::pair<PowerId, PowerId>> pairs;
    for (auto a : eligible)
        for (auto b : eligible)
            if (a != b && !banned_pair(a, b)) pairs.emplace_back(a, b);
    REQUIRE(!pairs.empty());
    const int n = games(static_cast<int>(pairs.size()));
    for (int g = 0; g < n; ++g) {
        auto [a, b] =
            pairs[static_cast<std::size_t>(g) * pairs.size() / static_cast<std::size_t>(n)];
        Settings st = base(rng, 2, DraftMode::Fixed);
        st.powers = {a, b};
        play_game(st, rng, o);
    }
    report(o, "2p fixed pairs");
}

TEST_CASE("write_state and its patches equal the tree with 3 and 4 players",
          "[santorini_view][random]") {
    std::mt19937_64 rng(13);
    Outcome o;
    for (int players : {3, 4})
        for (int g = 0; g < games(120); ++g)
            play_game(base(rng, players, DraftMode::Random), rng, o);
    // Every power in play at least once with 3 and 4 players.
    for (Settings st : protocol_test::every_power_settings()) {
        if (st.players == 2) continue;
        st.seed = rng();
        play_game(st, rng, o);
    }
    report(o, "3p/4p");
}

TEST_CASE("write_state and its patches equal the tree with the Golden Fleece and the drafts",
          "[santorini_view][random]") {
    std::mt19937_64 rng(14);
    Outcome o;
    for (auto p : eligible_powers(2, true))
        for (int g = 0; g < games(3); ++g) {
            Settings st = base(rng, 2, DraftMode::Fixed);
            st.golden_fleece = true;
            st.powers = {p};
            play_game(st, rng, o);
        }
    for (int g = 0; g < games(30); ++g) {
        Settings st = base(rng, 2, DraftMode::FullOffer);
        st.golden_fleece = true;
        play_game(st, rng, o);
    }
    for (int players : {2, 3, 4})
        for (DraftMode mode : {DraftMode::FullOffer, DraftMode::SubsetOffer})
            for (int g = 0; g < games(20); ++g) play_game(base(rng, players, mode), rng, o);
    report(o, "fleece and offer drafts");
}

namespace {

// Mean microseconds per call of `f` over enough calls to take ~0.2 s.
template <class F>
double micros(F f) {
    using clock = std::chrono::steady_clock;
    long n = 0;
    const auto start = clock::now();
    auto now = start;
    do {
        for (int i = 0; i < 64; ++i) f();
        n += 64;
        now = clock::now();
    } while (now - start < std::chrono::milliseconds(200));
    return std::chrono::duration<double, std::micro>(now - start).count() / static_cast<double>(n);
}

// A position mid-game: the first turn start at turn 8 or later of a random game with `powers`,
// and the state after one random step from it.
std::pair<State, State> mid_game(std::vector<PowerId> powers, std::uint64_t seed) {
    Settings st;
    st.draft = DraftMode::Fixed;
    st.powers = std::move(powers);
    st.seed = seed;
    std::mt19937_64 rng(seed);
    for (;;) {
        State s = *new_game(st);
        StepList legal;
        while (!s.over()) {
            legal_steps(s, legal);
            if (s.phase == Phase::Begin && s.turn.number >= 8 && legal.size() >= 8) {
                State next = s;
                apply_step(
                    next,
                    legal[static_cast<int>(rng() % static_cast<std::uint64_t>(legal.size()))]);
                return {s, next};
            }
            apply_step(s,
                       legal[static_cast<int>(rng() % static_cast<std::uint64_t>(legal.size()))]);
        }
        st.seed = rng();
    }
}

void bench(const char* what, const State& a, const State& b) {
    StepList la, lb;
    legal_steps(a, la);
    legal_steps(b, lb);
    const int seat = decider(a);
    const State va = view_for(a, seat), vb = view_for(b, seat);
    const StepList* pa = &la;
    const StepList* pb = decider(b) == seat ? &lb : nullptr;
    std::string out;
    out.reserve(1 << 14);
    std::size_t sink = 0;
    const double text = micros([&] {
        out.clear();
        protocol::JsonText w(out);
        protocol::write_state(va, pa, w);
        sink += out.size();
    });
    const std::size_t text_size = out.size();
    const double patch = micros([&] {
        out.clear();
        protocol::PatchText p(out);
        protocol::write_state_patch(va, pa, vb, pb, "/state", p);
        p.finish();
        sink += out.size();
    });
    const std::size_t patch_size = out.size();
    const double tree = micros([&] { sink += protocol::state_json(va, pa).size(); });
    const json ja = protocol::state_json(va, pa), jb = protocol::state_json(vb, pb);
    const double diff = micros([&] { sink += protocol::diff(ja, jb).dump().size(); });
    const double spectator_patch = micros([&] {
        const State sa = view_for(a, spectator), sb = view_for(b, spectator);
        out.clear();
        protocol::PatchText p(out);
        protocol::write_state_patch(sa, nullptr, sb, nullptr, "/state", p);
        p.finish();
        sink += out.size();
    });
    std::cout << what << " (decider's view, " << la.size() << " -> " << (pb ? lb.size() : 0)
              << " legal steps):\n"
              << "  write_state        " << text << " us (" << text_size << " bytes)\n"
              << "  write_state_patch  " << patch << " us (" << patch_size << " bytes)\n"
              << "  spectator: view_for x2 + write_state_patch " << spectator_patch << " us\n"
              << "  state_json (tree)  " << tree << " us\n"
              << "  protocol::diff + dump of two trees " << diff << " us\n"
              << "  (sink " << sink % 10 << ")\n";
}

}  // namespace

TEST_CASE("write_state and write_state_patch against the tree: microseconds", "[.][bench]") {
    auto [a, b] = mid_game({PowerId::Apollo, PowerId::Athena}, 7);
    bench("mid-game, Apollo v Athena", a, b);
    auto [c, d] = mid_game({PowerId::Chaos, PowerId::Morpheus}, 9);
    bench("mid-game, Chaos v Morpheus", c, d);
    Settings st;
    st.draft = DraftMode::FullOffer;
    State draft = *new_game(st);
    StepList legal;
    legal_steps(draft, legal);
    State offered = draft;
    apply_step(offered, legal[0]);
    bench("full-offer draft, first offer", draft, offered);
}
