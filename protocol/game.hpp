#pragma once
// The one game abstraction the server hosts games through (DESIGN.md, "One game abstraction,
// typed views"). A Game is one live game of some kind (Santorini, Splendor): its state,
// who decides, its steps read from and written as JSON, its result, and each viewer's typed
// view with the writers of that view's JSON and of the patch between two views. The server's
// Match, recovery and the store know only this interface; the kinds of game are listed in
// protocol/games.hpp.
//
// Viewers are the seats 0..seat_count()-1, `spectators` (-1) and `revealed` (-2, a finished
// game's replay). What a viewer may see is decided by the game's engine when it projects a
// view; nothing outside it looks into a view.

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "protocol/json/basic_json.hpp"
#include "protocol/json_text.hpp"
#include "protocol/step_refusal.hpp"

namespace protocol {

/// The viewer number of everyone who is not seated.
inline constexpr int spectators = -1;
/// The viewer of a finished (or aborted) game's replay: everything but the future (every seat's
/// secrets, never what is still to be drawn). Never decides; its history line for a step is
/// the line of the seat that played it (`Played::lines[seat]`).
inline constexpr int revealed = -2;

/// One viewer's typed view of a game: opaque to the server, read only by the game that made
/// it. Small and cheap to compare: a match keeps one per viewer.
class GameView {
  public:
    virtual ~GameView() = default;
};

/// How much of a step's record spectators may read, as the game's engine decides (a live
/// match's replay shows them exactly that: docs/api.md, "Replay").
enum class Readable : std::uint8_t {
    Whole,          ///< the record as it is
    Kind,           ///< only {"kind"}
    KindAndTarget,  ///< only {"kind", "to"}: the space a hidden worker built on
};

/// A step a player asked for, found among the legal steps and applied to a game.
struct Played {
    std::string
        record;  ///< the step as canonical JSON text: what the store keeps, what replays read
    /// The history line each viewer reads for it, by viewer (seats, then spectators last);
    /// the same text for everyone when nothing about the step is secret.
    std::vector<std::string> lines;
    /// What spectators may read of `record`.
    Readable by_spectators = Readable::Whole;
};

/// The part of a step's record (`record`, its JSON) that `readable` lets spectators read.
nlohmann::json readable_part(const nlohmann::json& record, Readable readable);

/// A computer player's decision in the making: it holds its own copy of what its seat may see
/// (the engine's view, never the truth), so `decide` runs on any thread, off the match's
/// strand, while the match goes on (docs/bot.md, "In the server").
class BotThinking {
  public:
    virtual ~BotThinking() = default;
    /// Searches (within the level's budget and the time limit given to `think`) and returns the
    /// step as a client would send it (the JSON `Game::play` takes). Call once.
    virtual nlohmann::json decide() = 0;
};

/// A live game of some kind. Copy it with `clone` to try a step without touching the original
/// (a match works out a step's outcome before the store has it).
class Game {
  public:
    virtual ~Game() = default;
    /// An independent copy (same state, same legal steps).
    virtual std::unique_ptr<Game> clone() const = 0;

    /// The kind of game, as the protocol and the store name it: "santorini", "splendor".
    virtual std::string_view kind() const = 0;
    virtual int seat_count() const = 0;
    /// The seat that must decide now; -1 once the game is over.
    virtual int decider() const = 0;
    bool over() const { return decider() < 0; }
    /// True once setup (drafts, placement) is done: resigning or running out of time then
    /// loses the game; before, it only ends the match without a result.
    virtual bool in_play() const = 0;
    /// True once a step was played that makes an abort impossible (the first real move).
    virtual bool committed() const = 0;
    /// Counts completed turns: the clock adds its increment when this changes.
    virtual std::uint32_t turns() const = 0;
    /// The seats that won (bits); 0 while the game goes on.
    virtual std::uint32_t winners() const = 0;
    /// Finishing places by seat once the game is over (1 = won; equal standing, equal place),
    /// for games that rank more than winners and losers (Splendor: by points, then fewest
    /// cards); empty for those that do not (the match then ranks by who went out when).
    /// Places of seats that went out are not read.
    virtual std::vector<int> places() const { return {}; }
    /// True if `seat` has lost or been eliminated.
    virtual bool out(int seat) const = 0;
    /// The side `seat` plays for: the seat itself, or its team.
    virtual int side(int seat) const = 0;
    /// "draft", "placement", "playing" or "finished" (docs/protocol.md, the view's status).
    virtual std::string_view status() const = 0;
    /// A stable hash of the whole state (16 hex digits), stored with every step so recovery can
    /// check that a replay rebuilt exactly the state the players saw.
    virtual std::string state_hash() const = 0;

    /// The one judgement of `step` (a client's JSON, any value): applies the legal step it
    /// names, for the decider; or says, changing nothing, why not: malformed (not a step of this
    /// kind of game at all) or illegal (a step of it, not in the legal list now).
    virtual std::variant<Played, StepRefusal> play(const nlohmann::json& step) = 0;
    /// `seat` resigns or runs out of time while `in_play()`: it loses (or, with more players,
    /// is eliminated). Returns why not, changing nothing.
    virtual std::optional<std::string> concede(int seat) = 0;

    /// The typed view of `viewer` (a seat, `spectators` or `revealed`), with the legal steps when `viewer`
    /// is the seat that decides and `deciding` (false once the match ended without the game
    /// ending: an abort).
    virtual std::unique_ptr<GameView> view(int viewer, bool deciding = true) const = 0;
    /// True if the two views write the same JSON (so their viewers may share one message).
    virtual bool same(const GameView& a, const GameView& b) const = 0;
    /// The view's `state` object (any viewer's view, `revealed` included).
    virtual void write_state(const GameView& view, JsonText& out) const = 0;
    /// The game's own members of `seats[seat]` in the view (Santorini: power, side, out),
    /// written inside that seat's object (any viewer's view, `revealed` included). The API's
    /// match headers read `power` from them when the game has one.
    virtual void write_seat(const GameView& view, int seat, JsonText& out) const = 0;
    /// Appends the operations turning the JSON of `from` into that of `to` (views of the same
    /// viewer): the `state` object's under `/state`, the seats' members under `/seats/N`.
    /// `to` must be a view of this game as it is now (its legal steps are read from here).
    virtual void write_patch(const GameView& from, const GameView& to, PatchText& patch) const = 0;
    /// The same view as its viewer would have it without deciding: without legal steps. A
    /// match's resume history keeps the patches between such views, so that a seat that
    /// decides shares the spectators' messages there when it sees what they see.
    virtual std::unique_ptr<GameView> undecided(const GameView& view) const = 0;
    /// Which legal steps the view carries: 0 for none, else a number that is the same for two
    /// views exactly when their legal steps are (while the game's state has not changed).
    virtual std::uint64_t decision(const GameView& view) const = 0;
    /// Appends the operations that turn the legal steps a viewer had, as `decision` numbered
    /// them, into those of `to` (a view of the game as it is now), in a document that is
    /// otherwise `to`'s: nothing when they are the same.
    virtual void write_decision_patch(std::uint64_t decision, const GameView& to,
                                      PatchText& patch) const = 0;
    /// Writes what the live list shows of the game beyond players and status, as one JSON
    /// object (Santorini: the powers, Splendor: the points). Its text is what the match
    /// compares at every step to tell whether its list entry changed, so it builds no tree.
    virtual void write_live_fields(JsonText& out) const = 0;
    /// The same as a tree.
    nlohmann::json live_fields() const {
        std::string text;
        JsonText out(text);
        write_live_fields(out);
        return nlohmann::json::parse(text);
    }

    /// The computer's decision for `seat`, which must be the decider: captures the seat's view
    /// now and searches later, in `decide`, at `level` (1-5) with `seed`, stopping after
    /// `time_limit` (zero: the level's budget alone).
    virtual std::unique_ptr<BotThinking> think(int seat, int level, std::uint64_t seed,
                                               std::chrono::milliseconds time_limit) const = 0;
};

}  // namespace protocol
