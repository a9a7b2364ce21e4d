#pragma once
// Santorini as a protocol::Game: the engine's state and legal steps behind the one game
// interface the server hosts games through. Views are the engine's projection of the state
// for a viewer (santorini::view_for), written and diffed by protocol/santorini/view.

#include <cstdint>
#include <memory>
#include <vector>

#include "engine/santorini/state.hpp"
#include "engine/santorini/step.hpp"
#include "protocol/game.hpp"
#include "protocol/turn_undo.hpp"

namespace protocol {

/// A live Santorini game. Its value is the engine's state and the states its deciding seat may
/// go back to within the turn (`undo`: docs/protocol.md, "Taking back a step").
class SantoriniGame final : public Game {
  public:
    /// Takes over a game at its first decision point (santorini::new_game).
    explicit SantoriniGame(santorini::State state);

    std::unique_ptr<Game> clone() const override;
    std::string_view kind() const override { return "santorini"; }
    int seat_count() const override { return state_.seat_count; }
    int decider() const override;
    bool in_play() const override;
    bool committed() const override { return committed_; }
    std::uint32_t turns() const override { return state_.turn.number; }
    std::uint32_t winners() const override { return state_.winners; }
    bool out(int seat) const override { return state_.seat(seat).out; }
    int side(int seat) const override { return state_.seat(seat).side; }
    std::string_view status() const override;
    std::string state_hash() const override;

    std::variant<Played, StepRefusal> play(const nlohmann::json& step) override;
    std::optional<std::string> concede(int seat) override;

    std::unique_ptr<GameView> view(int viewer, bool deciding = true) const override;
    bool same(const GameView& a, const GameView& b) const override;
    void write_state(const GameView& view, JsonText& out) const override;
    void write_seat(const GameView& view, int seat, JsonText& out) const override;
    void write_patch(const GameView& from, const GameView& to, PatchText& patch) const override;
    std::unique_ptr<GameView> undecided(const GameView& view) const override;
    std::uint64_t decision(const GameView& view) const override;
    void write_decision_patch(std::uint64_t decision, const GameView& to,
                              PatchText& patch) const override;
    void write_live_fields(JsonText& out) const override;
    std::unique_ptr<BotThinking> think(int seat, int level, std::uint64_t seed,
                                       std::chrono::milliseconds time_limit) const override;

    /// The whole state (tests, recovery checks).
    const santorini::State& state() const { return state_; }

  private:
    /// Lists the legal steps of the state as it is now (with `undo` when one is possible);
    /// bumps the epoch views carry.
    void changed();
    /// The legal steps as the engine's list type.
    santorini::StepList legal_list() const;

    santorini::State state_;
    /// The states before the turn's steps that may be taken back (santorini::closes_undo).
    TurnUndo<santorini::State> undo_;
    /// The legal steps, at their own size: a StepList holds 256 in place (1.3 KiB), and every
    /// live match keeps its game, so the list is copied out (legal_list) where one is needed.
    std::vector<santorini::Step> legal_;
    /// The projection view() made last, which the next may share (views are taken for every
    /// viewer in turn, and most of them see alike). Written by the const view(): like the rest
    /// of a game, used on one strand at a time.
    mutable std::shared_ptr<const santorini::State> last_seen_;
    std::uint32_t epoch_ =
        0;  ///< counts changes of the state: views of one epoch share its legal list
    bool committed_ = false;  ///< a worker has moved (an undo does not take it back: the
                              ///< players have started the game)
};

}  // namespace protocol
