#pragma once
// The whole game as a value: board, workers, seats and their powers, the draft, and where the
// current turn stands. Copying it is a memcpy of a few hundred bytes.

#include <array>
#include <cstdint>

#include "engine/santorini/board.hpp"
#include "engine/santorini/card.hpp"
#include "engine/santorini/power_catalog.hpp"
#include "engine/santorini/square.hpp"

namespace santorini {

inline constexpr int max_seats = 4;
inline constexpr int max_workers = 12;

/// Where the game stands. Setup phases come first, then every turn cycles Begin -> AfterMove ->
/// AfterBuild -> End (skipping what offers nothing), with `confirm_turns` then Confirm, then
/// the next seat's Begin. The values are stored (state hashes, notation): new phases go last.
enum class Phase : std::uint8_t {
    Offer,        ///< the challenger puts powers into the offer, one step each
    Choose,       ///< the other players take a power from the offer, in seat order after the challenger
    StartPlayer,  ///< the challenger names the start player
    Place,        ///< workers are placed, one step each, in placement order
    Token,        ///< a setup token is placed (the Golden Fleece Ram; later: Abyss, Fate, Wind ...)
    Begin,        ///< a turn has started: nothing moved yet (powers may act before moving)
    AfterMove,    ///< a worker moved: more moves (powers) or the build
    AfterBuild,   ///< the build is done: optional further builds (powers)
    End,          ///< optional end-of-turn power steps
    Over,         ///< the game has ended; `winners` says who won
    /// The turn is complete and waits for its player's EndTurn step (Setup::confirm_turns), so
    /// that its last steps can still be taken back (closes_undo). After Over so that the hashes
    /// of games stored before it existed stay as they were.
    Confirm,
};

/// How the powers are dealt.
enum class DraftMode : std::uint8_t {
    None,           ///< no powers at all (2 players only)
    Fixed,          ///< powers given per seat by the settings (tests, rematches)
    Random,         ///< the powers are dealt at random from the pool
    SubsetOffer,    ///< the challenger builds the offer from a random subset of the pool
    FullOffer,      ///< the challenger builds the offer from the whole pool
};

/// A worker: its square (no_square while off the board), its side, and Selene's marker.
struct Worker {
    Square square = no_square;
    std::uint8_t side = 0;
    bool female = false;
    bool in_reserve = false;  ///< kept on a power card until a power places it (Gaea, Jason)
    friend bool operator==(const Worker&, const Worker&) = default;
};

/// Bits of `Turn::flags`.
namespace turn_flag {
inline constexpr std::uint16_t moved_up = 1 << 0;       ///< a worker of the mover moved (not was forced) up
inline constexpr std::uint16_t no_move_up = 1 << 1;     ///< the mover may not move up (Prometheus)
inline constexpr std::uint16_t level_changed = 1 << 2;  ///< a move changed level (ends Hermes' travel)
inline constexpr std::uint16_t dome_built = 1 << 3;     ///< somebody built a dome this turn (Chaos)
inline constexpr std::uint16_t built_before_move = 1 << 4;
inline constexpr std::uint16_t extra_turn = 1 << 5;     ///< a turn a power added (Dionysus): no win in it
/// The mover declined the turn ("you may": Dionysus' additional turn): it is not played, so no
/// "if possible" demand binds it (set by the power that offers the decline).
inline constexpr std::uint16_t declined = 1 << 6;
}  // namespace turn_flag

/// The part of the state that lives only for the current turn.
struct Turn {
    std::uint16_t number = 0;       ///< turns started so far (the first turn is 1)
    std::int8_t seat = 0;           ///< whose turn it is
    std::int8_t worker = -1;        ///< the selected worker: the one that moved, or built first
    Square start = no_square;       ///< where the selected worker stood when the turn began
    Square last_build = no_square;  ///< the square of the last build this turn
    std::uint8_t moves = 0;         ///< moves made this turn: 0, 1, or 2 for two or more
    std::uint8_t builds = 0;        ///< builds made after moving this turn
    std::uint16_t flags = 0;        ///< turn_flag bits
    std::uint32_t movable = 0;      ///< workers (bits of indices) the mover may move this turn
    std::uint16_t moved_workers = 0;  ///< workers that moved this turn ("unmoved worker" = not here)
    std::uint8_t extra = 0;         ///< a count a power keeps within the turn (Poseidon's builds)
    /// The loop guard: placements of the workers that moved this turn (up to two: bits a * 26 + b,
    /// 25 = none or off the board; three or more: a list, rules.cpp) passed through since the
    /// rest of this Turn (but `worker`) last changed. A move
    /// back onto one repeats a whole state of the turn and is never legal, so powers with
    /// unbounded moves (Hermes, Triton) never loop, while a worker that moved may come back.
    std::array<std::uint64_t, 11> visited{};
    /// True if no complete turn meets every "if possible" demand of the powers in play
    /// (PowerRules::if_possible): the core waives them all for this turn (set by start_turn).
    bool if_possible_waived = false;

    friend bool operator==(const Turn&, const Turn&) = default;
};

/// A player at the table. What the player's power card remembers is not here but on the
/// card (`State::cards`), so it follows the card when Circe takes it or Chaos changes god.
struct Seat {
    PowerId power = PowerId::None;  ///< the power card in front of this player
    std::uint8_t side = 0;          ///< who owns the workers this player moves (4p: the team)
    bool out = false;               ///< lost (3p: eliminated; removed with workers and power)
    friend bool operator==(const Seat&, const Seat&) = default;
};

/// Draft and setup bookkeeping.
struct Setup {
    DraftMode mode = DraftMode::None;
    bool golden_fleece = false;
    std::int8_t challenger = 0;
    std::int8_t start_player = -1;        ///< the seat that places first (named by the challenger)
    std::uint8_t offer_size = 0;          ///< powers in the offer so far
    std::array<PowerId, max_seats> offer{};  ///< the powers the challenger offered, in order
    std::uint64_t pool = 0;               ///< bit n = power n may be offered
    std::array<std::int8_t, max_seats> placement_order{-1, -1, -1, -1};  ///< seats, in placing order
    std::uint8_t placer = 0;              ///< index into placement_order of who places now
    std::uint8_t token_cursor = 0;        ///< setup tokens: how many seats (from the start player) are done
    /// The handicap game (2 players): the seat dealt, offered and choosing a hero, while the other
    /// seat gets a god; -1: no handicap. Hashed only when set (older stored hashes stay valid).
    std::int8_t hero_seat = -1;
    bool confirm_turns = false;           ///< a complete turn waits in Phase::Confirm (Settings::confirm_turns)
    friend bool operator==(const Setup&, const Setup&) = default;
};

/// The game. A plain value: equal states behave identically.
struct State {
    Board board;
    std::array<Worker, max_workers> workers{};
    std::uint8_t worker_count = 0;
    std::array<Seat, max_seats> seats{};
    std::uint8_t seat_count = 2;
    std::uint8_t side_count = 2;
    Phase phase = Phase::Begin;
    Turn turn;
    Setup setup;
    PowerId fleece_power = PowerId::None;  ///< the Golden Fleece power beside the board
    Square ram = no_square;                ///< the Ram figure (Golden Fleece)
    std::uint8_t fleece_holders = 0;       ///< seats touching the Ram at this turn's start (bits)
    std::uint8_t winners = 0;              ///< seats that won (bits), once phase is Over
    std::int8_t interrupt = -1;            ///< a seat that must decide out of turn (Gaea), or -1
    std::array<std::int8_t, max_seats> holder{0, 1, 2, 3};  ///< who uses each seat's card (Circe)
    std::array<PowerId, max_seats> acting_as{};  ///< the power a card gives now, if not its own (Chaos)
    /// What each power card keeps, indexed by the seat whose card it is (Golden Fleece: the
    /// fleece card's on 0), whoever uses it (card.hpp).
    std::array<Card, max_seats> cards{};
    std::uint64_t rng = 0;                 ///< deterministic random state, seeded at creation

    friend bool operator==(const State&, const State&) = default;

    /// Squares holding a worker.
    Bitboard worker_squares() const {
        Bitboard b = 0;
        for (int i = 0; i < worker_count; ++i)
            if (workers[static_cast<std::size_t>(i)].square != no_square) b |= bit(workers[static_cast<std::size_t>(i)].square);
        return b;
    }
    /// Squares holding a worker of `side`.
    Bitboard side_squares(int side) const {
        Bitboard b = 0;
        for (int i = 0; i < worker_count; ++i) {
            const auto& w = workers[static_cast<std::size_t>(i)];
            if (w.side == side && w.square != no_square) b |= bit(w.square);
        }
        return b;
    }
    /// The index of the worker on `s`, or -1.
    int worker_at(Square s) const {
        for (int i = 0; i < worker_count; ++i)
            if (workers[static_cast<std::size_t>(i)].square == s) return i;
        return -1;
    }
    const Worker& worker(int i) const { return workers[static_cast<std::size_t>(i)]; }
    Worker& worker(int i) { return workers[static_cast<std::size_t>(i)]; }
    const Seat& seat(int i) const { return seats[static_cast<std::size_t>(i)]; }
    Seat& seat(int i) { return seats[static_cast<std::size_t>(i)]; }
    /// The card lying on seat `i` (its state, whoever uses it: card_seat finds `i`).
    const Card& card(int i) const { return cards[static_cast<std::size_t>(i)]; }
    Card& card(int i) { return cards[static_cast<std::size_t>(i)]; }
    /// The seat whose turn it is (or who must act in setup: see `decider`).
    int current_seat() const { return turn.seat; }
    bool over() const { return phase == Phase::Over; }
};

}  // namespace santorini

// Keys (perft, hashing) read these as bytes: no padding allowed.
static_assert(sizeof(santorini::Worker) == 4);
static_assert(sizeof(santorini::Seat) == 3);
