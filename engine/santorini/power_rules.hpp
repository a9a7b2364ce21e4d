#pragma once
// How a power plugs into the one step generator: a table of optional hooks. The core turn
// (rules.cpp, candidates.cpp, completion.cpp) calls them at fixed points; a power fills in only
// what its card changes.
// docs/engine.md maps all 55 powers (and the Golden Fleece) onto these hooks.

#include <cstdint>

#include "engine/santorini/state.hpp"
#include "engine/santorini/step.hpp"

namespace santorini {

/// What a power says about a win that is about to happen.
enum class WinVeto : std::uint8_t {
    Allow,      ///< no objection
    Deny,       ///< nobody wins by this (Hera on the perimeter, Dionysus' extra turn, the Abyss)
    OwnerWins,  ///< the power's owner wins instead (Moerae's Fate square)
};

/// A power's hooks; every member may be null. `seat` is always the seat holding the power
/// (with Circe, the seat using it); `mover` is the seat whose turn it is.
/// Generators only add candidates. The core then filters every candidate through the
/// restrictions of all powers in play and through the completion rule, so no generator
/// checks either.
struct PowerRules {
    // ---- the owner's own turn ----
    /// Begin phase: steps besides the normal moves (Prometheus' build before moving, Hermes'
    /// build without moving, Charon's force, Siren's song, a hero's once-per-game action).
    void (*begin_steps)(const State&, int seat, StepList&) = nullptr;
    /// Moves beyond the normal ones for `worker`, wherever the core generates normal moves for
    /// it (Apollo's swap, Minotaur's push, Bellerophon's climb).
    void (*extra_moves)(const State&, int seat, int worker, StepList&) = nullptr;
    /// AfterMove phase: steps besides the build (Artemis, Hermes, Triton: further moves;
    /// Selene: her female worker's dome; Morpheus: his stored builds).
    void (*after_move_steps)(const State&, int seat, StepList&) = nullptr;
    /// AfterMove phase: the workers (bits of worker indices) that may build; without this hook
    /// the worker that moved builds (Hermes after travelling, Graeae, Terpsichore).
    std::uint32_t (*builders)(const State&, int seat) = nullptr;
    /// True if the owner has no normal build at all (Morpheus builds only from his card).
    bool replaces_normal_build = false;
    /// Builds beyond the normal ones for `worker` (Atlas' low domes, Zeus under itself).
    void (*extra_builds)(const State&, int seat, int worker, StepList&) = nullptr;
    /// AfterBuild phase: further builds (Demeter, Hephaestus, Hestia, Terpsichore). The core
    /// adds a Pass when the turn may end here.
    void (*more_builds)(const State&, int seat, StepList&) = nullptr;
    /// End phase: end-of-turn steps (Ares, Poseidon, Aeolus, Charybdis, Talus, Nemesis, the
    /// heroes). The core adds a Pass when the turn may end here.
    void (*end_steps)(const State&, int seat, StepList&) = nullptr;
    /// After the core applied one of the owner's steps (or the owner's interrupt step):
    /// effects the card adds (Bia's removal, Prometheus' "not up", Jason's placed worker).
    void (*after_step)(State&, int seat, const Step&) = nullptr;
    /// Extra ways the owner wins by a move (Pan, Eros); `from_height` is the mover's height before.
    bool (*wins_by_move)(const State&, int seat, const Step&, int from_height) = nullptr;
    /// When the owner's turn ends: what the card remembers or does (Athena, Medusa).
    void (*own_turn_end)(State&, int seat) = nullptr;
    /// Setup: the owner's placement steps for `worker`, replacing "any unoccupied space"
    /// (Eros on opposite edges, Selene's female worker).
    void (*placement_steps)(const State&, int seat, int worker, StepList&) = nullptr;
    /// The owner's neighbours of a square, replacing the 8 around it (Urania's torus).
    Bitboard (*neighbors_of)(const State&, int seat, Square) = nullptr;
    /// Setup, after all workers are placed: the owner's setup steps (Token: Fate, Abyss;
    /// Aim: Wind, Song), applied by after_step; the core asks until the list is empty.
    void (*setup_steps)(const State&, int seat, StepList&) = nullptr;
    /// True if the owner takes another turn once `mover`'s turn ends (Dionysus); the core
    /// starts it with turn_flag::extra_turn set, before the turn-start hooks run.
    bool (*takes_extra_turn)(const State&, int seat, int mover) = nullptr;
    /// Removes from `view` what `viewer` (a seat, or -1 for spectators) may not see of the
    /// owner's secrets (Hecate's workers, Moerae's Fate, Tartarus' Abyss).
    void (*hide)(State& view, int seat, int viewer) = nullptr;

    // ---- every turn, whoever moves ----
    /// A turn starts (the owner's or another's): turn-long effects (Morpheus' stored build,
    /// Circe's theft, Hypnus' frozen worker in Turn::movable, Persephone's obligation).
    void (*on_turn_start)(State&, int seat, int mover) = nullptr;
    /// A turn ends, before the next starts (Chaos changes power after a dome was built).
    void (*on_turn_end)(State&, int seat, int mover) = nullptr;
    /// After any seat's step (Harpies' slide, Charybdis' whirlpools, Tartarus' Abyss, Gaea).
    void (*after_any_step)(State&, int seat, int mover, const Step&) = nullptr;
    /// A win condition checked after every step (Chronus' five complete towers).
    bool (*wins_now)(const State&, int seat) = nullptr;

    // ---- restrictions: the hook decides whom it binds (opponents, everyone) ----
    /// May `mover` make this move? (Athena, Hades, Aeolus' wind.)
    bool (*may_move)(const State&, int seat, int mover, const Step&) = nullptr;
    /// May `mover` make this build? (Limus.)
    bool (*may_build)(const State&, int seat, int mover, const Step&) = nullptr;
    /// What happens to a win `mover` is about to make by this move (Hera, Moerae, Dionysus).
    WinVeto (*win_veto)(const State&, int seat, int mover, const Step&) = nullptr;
    /// May `mover`'s turn end now? (Persephone, Aphrodite, Terpsichore, Adonis.) A turn that
    /// may not end must go on; the completion rule then forbids steps that lead nowhere.
    bool (*may_end_turn)(const State&, int seat, int mover) = nullptr;
    /// Squares `mover` must treat as if they held a dome (Clio's coins, Talus).
    Bitboard (*dome_like_for)(const State&, int seat, int mover) = nullptr;
    /// Steps the owner may take out of turn while State::interrupt names it (Gaea); the core
    /// adds a Pass.
    void (*interrupt_steps)(const State&, int seat, StepList&) = nullptr;
    /// True if `mover`'s step cannot happen because of something only the owner knows: the
    /// step is cancelled and the rest of that turn is lost. (A step chosen on a view that the
    /// truth does not allow, Hecate's case, the core maps or cancels itself: engine.md 3.7.)
    bool (*cancels)(const State&, int seat, int mover, const Step&) = nullptr;

    // ---- appended with the advanced gods (group C) ----
    /// A turn starts, before any on_turn_start hook: a change of who uses which card (Circe's
    /// theft), so that the turn-start hooks then run for the new holders (docs/engine.md G3).
    void (*before_turn_start)(State&, int seat, int mover) = nullptr;
    /// True if the standing win (wins_now) of `winner` may not happen now (Dionysus: nobody wins
    /// during his additional turns). Standing wins are checked after every step and at every
    /// turn start, so a denied win happens as soon as nothing denies it (G12).
    bool (*denies_standing_win)(const State&, int seat, int winner) = nullptr;
    /// Once per card when the powers are known, before placement; `card` is the seat whose card
    /// it is (Golden Fleece: 0). Chaos makes his deck and draws his first power (G2).
    void (*card_setup)(State&, int card) = nullptr;
    /// After every turn (real play), once per card in the game whoever holds it, nobody
    /// included (Golden Fleece): Chaos changes power after a turn in which a dome was built;
    /// Athena forgets a player whose turn was played without her card. Also called for the god
    /// a card acts as (Chaos' face-up god), before the card's own.
    void (*card_turn_end)(State&, int card) = nullptr;

    // ---- appended with the advanced gods (group B) ----
    /// An "if possible" demand on `mover`'s turn (Persephone): true once the turn so far meets
    /// it. Like may_end_turn, a turn ends only where every demand is met (a game that ends in
    /// the turn too: a win ends the turn); but when, at the turn's start (after every
    /// on_turn_start hook), no complete turn meets them all, the core waives them for the whole
    /// turn (Turn::if_possible_waived) instead of the mover losing.
    bool (*if_possible)(const State&, int seat, int mover) = nullptr;

    // ---- appended with the Golden Fleece gods ----
    /// True if the notation does not write the card's `Card::data`: the power rebuilds it at
    /// every turn start (Aphrodite's bound workers), or writes it in readable fields of its own
    /// (Chaos' deck). A position is read at a turn start, so either way nothing is lost.
    bool data_not_in_notation = false;
    /// After any seat's step, after every completes_move hook (Charybdis' pull) and before every
    /// after_any_step hook, unless the game is over: effects that move workers after a move
    /// (Harpies' slide). Hooks that judge where workers stand (Tartarus' Abyss, Gaea) are
    /// after_any_step hooks, so they see the workers where the movements left them, whichever
    /// seat sits first (G13).
    void (*after_any_move)(State&, int seat, int mover, const Step&) = nullptr;

    // ---- appended with the core's shortcuts (docs/engine.md 3.2) ----
    /// The step kinds (step_kinds bits) after which `after_step` may do anything; the core calls
    /// it only after those. Most cards act after their own power's steps only (Ares after a
    /// Remove): saying so lets a turn's other steps keep the core's shortcuts (docs/engine.md 3.2).
    std::uint32_t after_step_kinds = ~0u;

    // ---- appended with the heroes' spending ----
    /// True if the owner's step, judged before the core applies it, is a step of the use of a
    /// hero's once-per-game power: the core spends the card (powers/hero.hpp) before applying
    /// the step, so a use whose step ends the game (Atalanta's winning second move,
    /// Bellerophon's winning climb), which runs none of the owner's later hooks, is spent too
    /// (docs/rulings.md, "Heroes: Jason to Theseus"). It only marks the card, which no power
    /// reads again within the use's turn, so the core's shortcuts need not know of it.
    bool (*hero_use)(const State&, int seat, const Step&) = nullptr;

    // ---- appended with the whirlpools' place among the movements ----
    /// After any seat's step, before every after_any_move hook: what completes the move itself
    /// (Charybdis' pull: "must immediately move", "considered to be in the same direction as
    /// the previous move"), so that the movements that follow a move (Harpies' slide) start
    /// from where it ended, whichever seat sits first (docs/rulings.md T18).
    void (*completes_move)(State&, int seat, int mover, const Step&) = nullptr;

    // ---- appended with the demands' shortcut (docs/engine.md 3.2) ----
    /// True if no build can change whether `if_possible` is met, and only a move or a placement
    /// of a worker can meet it: it judges the turn's moves or where workers stand, never the
    /// board (Persephone's move up, Adonis' charmed worker next to his).
    /// After a build that ends the turn, the turn then meets the demand exactly when the state
    /// before the build does, which lets counting and the completion rule skip playing it.
    bool if_possible_ignores_builds = false;
    /// True if, once the owner has moved in its turn, none of its own steps or hooks for the
    /// rest of the turn (steps after moving, extra and further builds, end-of-turn steps,
    /// after_step) moves or places a worker (removing one or building under one is no move).
    /// A demand that no build changes and only a move or a placement can meet (Persephone's,
    /// Adonis') then stays unmet for the rest of a turn that has moved without meeting it, and
    /// the core need not play that rest (demands_failed_after_move, turn_shortcuts.hpp).
    bool moves_no_worker_after_moving = false;

    // ---- appended with the demands' shortcut on every seat's turn (docs/engine.md 3.2) ----
    /// True if the owner's hooks on every seat's turn (completes_move, after_any_move,
    /// after_any_step), after a step that itself moves and places no worker (a build, a
    /// removal, a token, a pass), move or place no worker and make no seat lose, and start an
    /// out-of-turn decision only after the kinds of interrupt_after_kinds (Clio's coins,
    /// Harpies' slide after moves, Aphrodite's judgement of moves, Tartarus' Abyss, Gaea's
    /// decision after a dome). A turn that moved without meeting a demand of
    /// demands_failed_after_move's kind, with only such steps to come and no decision, then
    /// stays as unmet with these hooks in play as without them, and the core need not play its rest.
    bool any_step_hooks_act_after_moves_only = false;
    /// True if only a move up meets `if_possible`: it judges turn_flag::moved_up, which only a
    /// Move step up sets (do_move; Charybdis' pull completes a move, an every-turn hook that
    /// turns the shortcut off). A move that is not up then leaves such a demand unmet, and where
    /// nothing after it moves a worker the core skips it without playing it (Persephone's).
    bool if_possible_only_by_moving_up = false;
    /// For a power with interrupt_steps: the step kinds (step_kinds bits) after which its hooks
    /// may start its out-of-turn decision (State::interrupt). Gaea decides after domes only, so
    /// a turn in which no dome can come has none (demands_failed_after_move).
    std::uint32_t interrupt_after_kinds = ~0u;
    /// True if, once the owner has moved in its turn, none of its own steps for the rest of the
    /// turn is a Move step, though they may force or place workers (Nemesis' swaps). A demand
    /// that only a move up meets (if_possible_only_by_moving_up) then stays unmet for the rest
    /// of a turn that moved without meeting it. Implied by moves_no_worker_after_moving.
    bool makes_no_move_after_moving = false;
    /// For a power whose steps after moving may be Move steps: true once none of them can come
    /// for the rest of the owner's turn (Terpsichore once all her workers moved or one built,
    /// Artemis after her second move or once she built). Where only a move up meets the
    /// demands, a turn that has moved without meeting them is then a dead end there.
    bool (*moves_over)(const State&, int seat) = nullptr;
    /// True if, whatever the position, the owner's end-of-turn steps leave its turn exactly one
    /// way from the End phase to its end: at each point one step and no Pass, or none and its
    /// may_end_turn lets the turn end; those steps (and its after_step on them) move or place no
    /// worker; and its may_end_turn judges only its own turns (Medusa's mandatory captures,
    /// listed one at a time). A build that ends the rest of the turn then counts one full turn
    /// (or none, by a demand no build and no such step changes) without being played.
    bool end_steps_one_way = false;
    /// True if no build, and no step that moves and places no worker, changes what
    /// `may_end_turn` says: it judges the turn's moves and where workers stand (Aphrodite's
    /// bound workers). A build that ends the rest of the turn then ends it exactly when the
    /// state before it may end, which lets counting skip playing it.
    bool may_end_turn_ignores_builds = false;

    // ---- appended with the shared rest of a turn after its build (docs/engine.md 3.2) ----
    /// True if, after a build after moving that ends the mover's building (no further builds
    /// come), nothing of the power for the rest of that turn depends on which build it was:
    /// its hooks then read the board only where workers stand (not Turn::last_build nor
    /// turn_flag::dome_built), its end-of-turn steps move or place no worker onto a space
    /// where none stood, its hooks on every seat's turn read the board only where workers
    /// stand or act only after Move steps, and it starts no out-of-turn decision but after the
    /// build kinds of interrupt_after_kinds, after which it may read anything (the core then
    /// shares no build of those kinds; the same for a standing win and wins_now_after_kinds). (Nemesis' swaps, Medusa's and Theseus' captures, Adonis'
    /// choice, Persephone's and Aphrodite's judgements of moves, Limus' builds next to his
    /// workers, Gaea's decision after domes.) Where every power in play says
    /// so, the full turns after each such build of a state are as many as after any other on
    /// a space without a worker, and the core plays only one of them (count_from).
    bool rest_of_turn_ignores_builds = false;
    /// The same for the turns of the other seats only: the power's hooks on every seat's turn
    /// and its restrictions say so there, though its own turns may depend on their builds
    /// (Charybdis: her pull comes after moves and her whirlpools' return after builds, which no
    /// later step of another's turn reads; her own placements avoid domes).
    bool rest_of_others_turns_ignores_builds = false;
    /// For a power with more_builds: true if, after the owner's `build` (a build after moving,
    /// a candidate of its turn now), its more_builds offer nothing for the rest of the turn
    /// (Demeter's, Hestia's and Hephaestus' second build, or his first where no block can go
    /// on top; Terpsichore's last worker to build). That build then ends the building as a
    /// build without further builds does (docs/engine.md 3.2).
    bool (*builds_over_after)(const State&, int seat, const Step& build) = nullptr;
    /// For a power with wins_now: the step kinds (step_kind_bit) after which what it says may
    /// turn from false to true within a turn (Chronus: Dome steps, the only ones that complete
    /// a tower). A turn that meets the demands may end by such a win whatever a may_end_turn
    /// says, so the core judges those before a build only where no such win can come.
    std::uint32_t wins_now_after_kinds = ~0u;
};

/// The bit of a step kind in PowerRules::after_step_kinds.
constexpr std::uint32_t step_kind_bit(StepKind k) { return 1u << static_cast<unsigned>(k); }

/// The hooks of a power (an empty table for None).
const PowerRules& rules_of(PowerId id);

/// The powers a seat uses this turn: its own card (unless out, or Circe holds it), a card it
/// holds for another seat (Circe), the Golden Fleece power while touching the Ram. A card
/// acting as another power (Chaos) gives both: its own hooks and the current power's.
/// `cards[i]` is the seat whose card gives `ids[i]`: per-card state (Card::counter,
/// State::cards) lives on that seat, whoever uses the card.
struct ActivePowers {
    PowerId ids[2 * max_seats] = {};
    std::int8_t cards[2 * max_seats] = {};
    int size = 0;
};
ActivePowers powers_in_effect(const State& state, int seat);

// ---- the kit: core rules that powers build on ----

/// Squares `mover` may neither enter nor build on: domes, the Ram, and what powers make count
/// as a dome for that seat.
Bitboard dome_like(const State& state, int mover);
/// Squares occupied for `mover`: workers and dome-like squares.
inline Bitboard occupied(const State& state, int mover) { return state.worker_squares() | dome_like(state, mover); }
/// The same for the seat whose turn it is.
inline Bitboard occupied(const State& state) { return occupied(state, state.turn.seat); }
/// True if seats a and b play against each other (different sides).
inline bool opponents(const State& state, int a, int b) { return state.seat(a).side != state.seat(b).side; }
/// True if the worker on `s` belongs to an opponent of `seat`.
bool opponent_worker_on(const State& state, int seat, Square s);
/// The neighbours of `s` for the seat whose turn it is (8 around it, or a power's own).
Bitboard neighbors_for(const State& state, Square s);
/// Adds the normal moves of `worker` (one step to an unoccupied neighbour, at most one up).
void add_normal_moves(const State& state, int worker, StepList& out);
/// Adds the normal builds of `worker`: a block below height 3, a dome on height 3.
void add_normal_builds(const State& state, int worker, StepList& out, bool before_move = false);
/// `seat` loses: its side is out with its workers; the last side standing wins.
void lose(State& state, int seat);
/// The seats of `side` win; the game is over.
void declare_winner(State& state, int side);
/// True if the current turn can still be brought to an end from this state.
bool turn_can_complete(const State& state);
/// True if every power in play lets `mover` make this build (the restriction filter's test,
/// for builds a power makes inside a step of its own: Medusa's).
bool build_allowed(const State& state, int mover, const Step& build);
/// True if `move` passes the restriction filter for `mover` (Turn::movable, Prometheus' "not
/// up", every may_move in play): for moves a power makes inside a step of its own.
bool move_allowed(const State& state, int mover, const Step& move);
/// The seat whose card gives `seat` the power `id` this turn (itself, or Circe's victim);
/// -1 if `seat` does not use `id`.
int card_seat(const State& state, int seat, PowerId id);
/// True if some power in play keeps secrets (legal steps are then made on the decider's view).
bool secrets_in_play(const State& state);

}  // namespace santorini
