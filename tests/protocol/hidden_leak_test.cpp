// Hidden information through the protocol: whole random games with Hecate (2 and 3 players),
// Moerae (2 and 3 players) and Tartarus (2 players), played through the protocol's game object
// (SantoriniGame: what a match sends). While a game runs, nothing a viewer outside the secret
// owner's side receives may depend on the secret:
//   - the state document (write_state of its view, the legal steps when it decides) and the
//     live list's fields must be exactly those of a game whose secret is elsewhere: Moerae's
//     Fate on another 2x2 square, Tartarus' Abyss on another space, Hecate's workers on other
//     spaces (and, in her turn, another starting square);
//   - the patch from its previous document must give exactly its new document;
//   - the history line of a step by the owner's side names no secret square: not the Fate's or
//     the Abyss' spaces for their setup steps, and none of the spaces Hecate's workers stand on
//     before or after her step.
// The owner's side sees its Fate or Abyss on its card (`fate`, `abyss`); a finished game's
// revealed view shows every secret (docs/rulings.md H3, H11).

#include <catch2/catch_test_macros.hpp>

#include <memory>
#include <random>
#include <string>
#include <vector>

#include "engine/santorini/game.hpp"
#include "engine/santorini/powers/card_tokens.hpp"
#include "engine/santorini/view.hpp"
#include "protocol/json/basic_json.hpp"
#include "protocol/json_text.hpp"
#include "protocol/santorini/game.hpp"
#include "protocol/santorini/json.hpp"
#include "tests/protocol/support.hpp"

using namespace santorini;
using nlohmann::json;

namespace {

struct Outcome {
    int games = 0;
    long steps = 0;
    long checks = 0;
    int finished = 0;
    std::vector<std::string> failures;
    int failure_count = 0;
};

std::string describe(const Settings& st) {
    std::string out = "players=" + std::to_string(st.players) + " seed=" + std::to_string(st.seed) + " powers=";
    for (auto p : st.powers) out += std::string(power_info(p).key) + ",";
    return out;
}

void fail(Outcome& o, const Settings& st, int step, int viewer, const std::string& what) {
    if (++o.failure_count <= 5)
        o.failures.push_back(describe(st) + " step " + std::to_string(step) + " viewer " +
                             std::to_string(viewer) + ": " + what.substr(0, 1500));
}

// The seat whose card is `secret` (its owner's side keeps the secret).
int owner_of(const State& s, PowerId secret) {
    for (int i = 0; i < s.seat_count; ++i)
        if (s.seat(i).power == secret) return i;
    return -1;
}

// The squares that are the secret now: the Fate's, the Abyss', Hecate's workers'.
Bitboard secret_squares(const State& s, PowerId secret, int owner) {
    switch (secret) {
        case PowerId::Moerae: return powers::fate(s, owner);
        case PowerId::Tartarus: {
            Square a = powers::abyss(s, owner);
            return a == no_square ? 0 : bit(a);
        }
        default: {
            Bitboard b = 0;
            for (int w = 0; w < s.worker_count; ++w)
                if (s.worker(w).side == s.seat(owner).side && s.worker(w).square != no_square) b |= bit(s.worker(w).square);
            return b;
        }
    }
}

Square random_square(Bitboard among, std::mt19937_64& rng) {
    int n = count(among);
    int k = static_cast<int>(rng() % static_cast<std::uint64_t>(n));
    while (k-- > 0) pop_first(among);
    return first_square(among);
}

// The same game with its secret elsewhere: what a viewer who may not know it cannot tell apart.
State elsewhere(State s, PowerId secret, int owner, std::mt19937_64& rng) {
    switch (secret) {
        case PowerId::Moerae: {
            if (powers::fate(s, owner) == 0) return s;
            for (;;) {
                Square corner = make_square(static_cast<int>(rng() % 4), static_cast<int>(rng() % 4));
                Bitboard f = powers::fate_from_corner(corner);
                if (f != powers::fate(s, owner)) {
                    powers::set_fate(s, owner, f);
                    return s;
                }
            }
        }
        case PowerId::Tartarus: {
            Square a = powers::abyss(s, owner);
            Bitboard free = all_squares & ~s.worker_squares() & ~(a == no_square ? 0 : bit(a));
            if (a == no_square || !free) return s;
            powers::set_abyss(s, owner, random_square(free, rng));
            return s;
        }
        default: {
            const int side = s.seat(owner).side;
            Bitboard others = 0;
            for (int w = 0; w < s.worker_count; ++w)
                if (s.worker(w).side != side && s.worker(w).square != no_square) others |= bit(s.worker(w).square);
            Bitboard free = all_squares & ~others & ~s.board.domes();
            for (int w = 0; w < s.worker_count; ++w) {
                if (s.worker(w).side != side || s.worker(w).square == no_square || !free) continue;
                Square to = random_square(free, rng);
                s.worker(w).square = to;
                free &= ~bit(to);
            }
            if (in_play(s) && s.seat(s.turn.seat).side == side) {
                s.turn.start = random_square(all_squares, rng);
                s.turn.visited = {};
                s.turn.moved_workers = static_cast<std::uint16_t>(rng() & 0xF);
                s.turn.movable = 0;
                s.turn.flags ^= turn_flag::moved_up;
            }
            return s;
        }
    }
}

std::string document(const protocol::SantoriniGame& g, int viewer) {
    std::string out;
    protocol::JsonText w(out);
    g.write_state(*g.view(viewer), w);
    return out;
}

// The document without `undo` in its legal steps: the game with the secret elsewhere is made
// afresh, with no step of the turn to take back (whether one may be taken back is the same
// wherever the secret is: a step the secret answered ends the turn or shows the secret anyway).
std::string document_but_undo(const protocol::SantoriniGame& g, int viewer) {
    json doc = json::parse(document(g, viewer));
    if (auto legal = doc.find("legal"); legal != doc.end()) {
        json kept = json::array();
        for (auto& st : *legal)
            if (st != json{{"kind", "undo"}}) kept.push_back(st);
        *legal = kept;
    }
    return doc.dump();
}

std::vector<std::string> square_names(Bitboard b) {
    std::vector<std::string> out;
    while (b) out.push_back(square_name(pop_first(b)));
    return out;
}

void play_game(const Settings& st, PowerId secret, std::mt19937_64& rng, Outcome& o) {
    ++o.games;
    auto created = new_game(st);
    if (!created.ok()) {
        fail(o, st, -1, -1, "new_game refused: " + created.error().message);
        return;
    }
    protocol::SantoriniGame game(*created);
    const int owner = owner_of(game.state(), secret);
    const int owner_side = game.state().seat(owner).side;
    std::vector<int> outsiders{protocol::spectators};
    for (int i = 0; i < game.state().seat_count; ++i)
        if (game.state().seat(i).side != owner_side) outsiders.push_back(i);
    std::vector<std::unique_ptr<protocol::GameView>> before_views(outsiders.size());
    std::vector<std::string> before_docs(outsiders.size());
    for (std::size_t i = 0; i < outsiders.size(); ++i) {
        before_views[i] = game.view(outsiders[i]);
        before_docs[i] = document(game, outsiders[i]);
    }
    for (int index = 0; index < 400 && !game.state().over(); ++index) {
        const State before = game.state();
        StepList legal;
        legal_steps(before, legal);
        if (legal.empty()) {
            fail(o, st, index, -1, "no legal step while the game goes on");
            return;
        }
        const Step step = legal[static_cast<int>(rng() % static_cast<std::uint64_t>(legal.size()))];
        const int actor = game.decider();
        auto played = game.play(protocol::step_json(before, step));
        if (auto* refused = std::get_if<protocol::StepRefusal>(&played)) {
            fail(o, st, index, actor, "a listed step was refused: " + refused->why);
            return;
        }
        ++o.steps;
        const auto& lines = std::get<protocol::Played>(played).lines;
        // The owner's steps: no secret square in the lines outsiders read.
        // (Moerae's and Tartarus' other steps are public: only their setup step places a secret.)
        const bool secret_step = secret == PowerId::Hecate || step.kind == StepKind::Token;
        if (actor >= 0 && before.seat(actor).side == owner_side && secret_step) {
            Bitboard secret_now = secret_squares(before, secret, owner);
            if (!game.state().over()) secret_now |= secret_squares(game.state(), secret, owner);
            if (step.kind == StepKind::Token) secret_now |= bit(step.to);
            if (step.kind == StepKind::Build || step.kind == StepKind::Dome) secret_now &= ~bit(step.to);
            for (int viewer : outsiders) {
                const std::string& line = viewer < 0 ? lines.back() : lines[static_cast<std::size_t>(viewer)];
                ++o.checks;
                for (const std::string& name : square_names(secret_now))
                    if (line.find(name) != std::string::npos)
                        fail(o, st, index, viewer, "history line '" + line + "' names the secret square " + name);
            }
        }
        if (game.state().over()) break;
        // The documents and the live fields do not depend on where the secret is.
        const protocol::SantoriniGame other(elsewhere(game.state(), secret, owner, rng));
        for (std::size_t i = 0; i < outsiders.size(); ++i) {
            const int viewer = outsiders[i];
            const std::string doc = document(game, viewer);
            ++o.checks;
            if (document_but_undo(game, viewer) != document_but_undo(other, viewer))
                fail(o, st, index, viewer, "the document depends on the secret: " + doc + " vs " + document(other, viewer));
            auto now = game.view(viewer);
            std::string patch_out;
            protocol::PatchText patch(patch_out);
            game.write_patch(*before_views[i], *now, patch);
            patch.finish();
            json old_doc = json{{"state", json::parse(before_docs[i])}};  // patches address /state
            try {
                json ops = json::array();  // the seats' power, side and out are no secret
                for (auto& op : json::parse(patch_out))
                    if (!op["path"].get<std::string>().starts_with("/seats/")) ops.push_back(op);
                old_doc.patch_inplace(ops);
            } catch (const std::exception& e) {
                fail(o, st, index, viewer, std::string("patch does not apply: ") + e.what());
            }
            if (old_doc != json{{"state", json::parse(doc)}}) fail(o, st, index, viewer, "the patch gives another document: " + patch_out);
            before_views[i] = std::move(now);
            before_docs[i] = doc;
        }
        // Its owner sees it (the Fate, the Abyss once set).
        if (secret != PowerId::Hecate && secret_squares(game.state(), secret, owner) != 0) {
            ++o.checks;
            const json mine = json::parse(document(game, owner))["cards"][static_cast<std::size_t>(owner)];
            const json shown = secret == PowerId::Moerae ? mine["fate"] : json::array({mine["abyss"]});
            if (shown != json(square_names(secret_squares(game.state(), secret, owner))))
                fail(o, st, index, owner, "the owner does not see its secret: " + mine.dump());
        }
        ++o.checks;
        if (game.live_fields() != other.live_fields()) fail(o, st, index, -1, "the live fields depend on the secret");
    }
    if (!game.state().over()) return;
    ++o.finished;
    // A finished game's replay shows everything.
    const State revealed = revealed_view(game.state());
    ++o.checks;
    const json card = json::parse(document(game, protocol::revealed))["cards"][static_cast<std::size_t>(owner)];
    switch (secret) {
        case PowerId::Moerae:
            if (powers::fate(revealed, owner) == 0) fail(o, st, -1, -2, "the revealed view lost the Fate");
            if (card["fate"] != json(square_names(powers::fate(revealed, owner))))
                fail(o, st, -1, -2, "the revealed document does not show the Fate: " + card.dump());
            break;
        case PowerId::Tartarus:
            if (powers::abyss(revealed, owner) == no_square) fail(o, st, -1, -2, "the revealed view lost the Abyss");
            if (card["abyss"] != json(square_name(powers::abyss(revealed, owner))))
                fail(o, st, -1, -2, "the revealed document does not show the Abyss: " + card.dump());
            break;
        default: {
            const std::string doc = document(game, protocol::revealed);
            for (const std::string& name : square_names(secret_squares(game.state(), secret, owner)))
                if (doc.find("\"" + name + "\"") == std::string::npos)
                    fail(o, st, -1, -2, "the revealed document does not show Hecate's worker on " + name);
        }
    }
}

void report(const Outcome& o, const char* group) {
    INFO(group << ": " << o.games << " games, " << o.finished << " finished, " << o.steps << " steps, " << o.checks
               << " checks, " << o.failure_count << " failures");
    for (const auto& f : o.failures) UNSCOPED_INFO(f);
    CHECK(o.failure_count == 0);
    CHECK(o.finished > o.games / 2);
}

// Random games of `secret` against each implemented power it may meet (and, with 3 players,
// random third powers), `per` games each; SANTORINI_RANDOM_GAMES_PERCENT (the sanitizer job)
// plays that percentage of all those games, spread evenly over the opponents.
Outcome play_all(PowerId secret, int players, int per, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    Outcome o;
    auto eligible = eligible_powers(players, false);
    std::vector<PowerId> opponents;
    for (PowerId other : eligible)
        if (other != secret && !banned_pair(secret, other))
            for (int g = 0; g < per; ++g) opponents.push_back(other);
    const std::size_t games =
        static_cast<std::size_t>(protocol_test::random_games(static_cast<int>(opponents.size())));
    for (std::size_t i = 0; i < games; ++i) {
        const PowerId other = opponents[i * opponents.size() / games];
        Settings st;
        st.players = players;
        st.draft = DraftMode::Fixed;
        st.seed = rng();
        st.start_player = static_cast<int>(rng() % static_cast<std::uint64_t>(players));
        st.powers = {secret, other};
        if (players == 3) {
            PowerId third = PowerId::None;
            for (int tries = 0; tries < 100 && third == PowerId::None; ++tries) {
                PowerId c = eligible[rng() % eligible.size()];
                if (c != secret && c != other && !banned_pair(c, secret) && !banned_pair(c, other)) third = c;
            }
            if (third == PowerId::None) continue;
            st.powers.push_back(third);
        }
        // The secret's owner sits on a random seat.
        std::shuffle(st.powers.begin(), st.powers.end(), rng);
        play_game(st, secret, rng, o);
    }
    return o;
}

}  // namespace

TEST_CASE("hidden information: Hecate's workers reach no other viewer (2 and 3 players)", "[hidden][hecate]") {
    report(play_all(PowerId::Hecate, 2, 3, 11), "Hecate 2p");
    report(play_all(PowerId::Hecate, 3, 2, 12), "Hecate 3p");
}

TEST_CASE("hidden information: Moerae's Fate reaches no other viewer (2 and 3 players)", "[hidden][moerae]") {
    report(play_all(PowerId::Moerae, 2, 3, 21), "Moerae 2p");
    report(play_all(PowerId::Moerae, 3, 2, 22), "Moerae 3p");
}

TEST_CASE("hidden information: Tartarus' Abyss reaches no other viewer", "[hidden][tartarus]") {
    report(play_all(PowerId::Tartarus, 2, 4, 31), "Tartarus 2p");
}
