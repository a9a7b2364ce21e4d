#pragma once
// Splendor as a protocol::Game: the engine's state and legal steps behind the one game
// interface the server hosts games through. Views are the engine's projection of the state
// for a viewer (splendor::view_for: another seat's card reserved from a deck is masked),
// written and diffed by protocol/splendor/view.

#include <cstdint>
#include <memory>

#include "engine/splendor/state.hpp"
#include "engine/splendor/step.hpp"
#include "protocol/game.hpp"
#include "protocol/turn_undo.hpp"

namespace protocol {

/// A live Splendor game. Its player may take back the steps of the current turn (`undo`,
/// docs/protocol.md "Taking back a step") until splendor::closes_undo shuts the door; an undo
/// is played and recorded like any step, so replaying the records rebuilds the same game.
class SplendorGame final : public Game {
  public:
    /// Takes over a game at its first turn (splendor::new_game).
    explicit SplendorGame(const splendor::State& state);

    std::unique_ptr<Game> clone() const override;
    std::string_view kind() const override { return "splendor"; }
    int seat_count() const override { return state_.players; }
    int decider() const override;
    /// There is no setup: the game is in play from its first turn.
    bool in_play() const override { return true; }
    bool committed() const override { return committed_; }
    std::uint32_t turns() const override { return state_.turn; }
    std::uint32_t winners() const override { return state_.winners; }
    std::vector<int> places() const override;
    bool out(int seat) const override { return state_.seat(seat).out; }
    int side(int seat) const override { return seat; }
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
    /// {"points": [per seat]}: what the live list shows.
    void write_live_fields(JsonText& out) const override;
    std::unique_ptr<BotThinking> think(int seat, int level, std::uint64_t seed,
                                       std::chrono::milliseconds time_limit) const override;

    /// The whole state (tests, recovery checks).
    const splendor::State& state() const { return state_; }
    /// The legal steps now (empty once the game is over): the engine's, then Undo when a step
    /// of this turn can be taken back.
    const splendor::StepList& legal() const { return legal_; }
    /// How many steps of the current turn can be taken back now.
    std::size_t undoable() const { return undo_.size(); }

  private:
    /// Lists the legal steps of the state as it is now; bumps the epoch views carry.
    void changed();

    splendor::State state_;
    TurnUndo<splendor::State> undo_;  ///< the states before this turn's undoable steps
    splendor::StepList legal_;
    std::uint32_t epoch_ =
        0;  ///< counts changes of the state: views of one epoch share its legal list
    bool committed_ = false;  ///< a step has been played
};

}  // namespace protocol
