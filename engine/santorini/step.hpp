#pragma once
// A step: the atomic decision a player makes (place, move, build, use a power, pass, draft).

#include <array>
#include <cassert>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "engine/santorini/power_catalog.hpp"
#include "engine/santorini/square.hpp"

namespace santorini {

struct State;

/// What a step does. The meaning of a Step's fields per kind:
///
/// | kind        | worker         | from            | to                  | aux                      |
/// |-------------|----------------|-----------------|---------------------|--------------------------|
/// | Place       | worker placed  | -               | square              | 1 = female (Selene)      |
/// | Move        | mover          | its square      | destination         | where a displaced worker goes (Apollo: `from`, Minotaur: beyond), or no_square |
/// | Build       | builder        | its square      | square built on     | 1 = before moving (Prometheus) |
/// | Dome        | builder        | its square      | square domed        | 1 = before moving        |
/// | Force       | power's worker or -1 | forced from | forced to           | forced worker's index    |
/// | Remove      | power's worker | its square      | block removed       | -                        |
/// | Pass        | -              | -               | -                   | -                        |
/// | Offer       | -              | -               | -                   | power (challenger's pick for the offer) |
/// | Choose      | -              | -               | -                   | power taken from the offer |
/// | StartPlayer | -              | -               | -                   | seat named start player  |
/// | Token       | power's worker or -1 | token's square or - | square      | token kind (0 = the Ram; powers number theirs) |
/// | Aim         | -              | -               | -                   | direction 0-7 (Aeolus' wind, Siren's song) |
/// | Select      | chosen worker  | its square      | -                   | what the choice is for (power-defined) |
/// | Capture     | power's worker | its square      | removed worker's square | removed worker's index (Bia, Medusa, Theseus) |
/// | Undo        | -              | -               | -                   | -                        |
/// | EndTurn     | -              | -               | -                   | -                        |
///
/// Place, Move, Build, Dome, Force, Remove, Capture and Pass are applied by the core; Token,
/// Aim and Select during a turn are applied by the owning power's after_step hook. EndTurn ends
/// a turn waiting in Phase::Confirm. Undo takes back the mover's last step; the engine keeps no
/// history, so it never lists or applies one: the game host does (protocol/turn_undo.hpp), asking
/// `closes_undo` which steps may be taken back. Kinds are stored by number: new ones go last.
/// Unused fields hold -1 / 0 so that steps compare equal exactly when they mean the same.
enum class StepKind : std::uint8_t {
    Place, Move, Build, Dome, Force, Remove, Pass, Offer, Choose, StartPlayer, Token, Aim, Select, Capture,
    Undo, EndTurn
};

/// One step; 5 bytes, trivially copyable, compared field by field.
struct Step {
    StepKind kind = StepKind::Pass;
    std::int8_t worker = -1;
    Square from = no_square;
    Square to = no_square;
    std::int8_t aux = -1;

    friend bool operator==(const Step&, const Step&) = default;

    /// A normal or power move of `worker` from `from` to `to`; `displaced_to` receives the
    /// worker standing on `to`, if any.
    static Step move(int worker, Square from, Square to, Square displaced_to = no_square) {
        return {StepKind::Move, static_cast<std::int8_t>(worker), from, to, displaced_to};
    }
    /// A block (or, with `dome`, a dome) built by `worker` standing on `from`.
    static Step build(int worker, Square from, Square to, bool dome = false, bool before_move = false) {
        return {dome ? StepKind::Dome : StepKind::Build, static_cast<std::int8_t>(worker), from, to,
                static_cast<std::int8_t>(before_move ? 1 : 0)};
    }
    /// Places `worker` on `to` during setup.
    static Step place(int worker, Square to, bool female = false) {
        return {StepKind::Place, static_cast<std::int8_t>(worker), no_square, to, static_cast<std::int8_t>(female ? 1 : 0)};
    }
    /// Declines whatever optional steps remain in this part of the turn.
    static Step pass() { return {}; }
    /// Takes back the mover's last step of this turn (never listed by the engine: see StepKind).
    static Step undo() { return {StepKind::Undo, -1, no_square, no_square, -1}; }
    /// Ends a turn that waits in Phase::Confirm.
    static Step end_turn() { return {StepKind::EndTurn, -1, no_square, no_square, -1}; }
    /// Draft: the challenger adds `p` to the offer.
    static Step offer(PowerId p) { return {StepKind::Offer, -1, no_square, no_square, static_cast<std::int8_t>(p)}; }
    /// Draft: the deciding player takes `p` from the offer.
    static Step choose(PowerId p) { return {StepKind::Choose, -1, no_square, no_square, static_cast<std::int8_t>(p)}; }
    /// Draft: the challenger names `seat` start player.
    static Step start_player(int seat) {
        return {StepKind::StartPlayer, -1, no_square, no_square, static_cast<std::int8_t>(seat)};
    }
    /// The power named by an Offer or Choose step.
    PowerId power() const { return static_cast<PowerId>(aux); }
};

/// The legal steps at one decision point. Fixed capacity: the largest decision point of any
/// power (a draft from all 55, or Morpheus' builds) stays far below it.
class StepList {
public:
    static constexpr int capacity = 256;
    StepList() {}  // slots stay uninitialized: lists are made per probe, and zeroing 256
                   // slots each time was most of the engine's time under the sanitizers
    StepList(const StepList& other) : size_(other.size_) {
        for (int i = 0; i < size_; ++i) slot(i) = other[i];
    }
    StepList& operator=(const StepList& other) {
        size_ = other.size_;
        for (int i = 0; i < size_; ++i) slot(i) = other[i];
        return *this;
    }
    void push_back(Step s) {
        assert(size_ < capacity);
        slot(size_++) = s;
    }
    int size() const { return size_; }
    bool empty() const { return size_ == 0; }
    const Step& operator[](int i) const { return slots_[static_cast<std::size_t>(i)].step; }
    const Step* begin() const { return &slots_[0].step; }
    const Step* end() const { return &slots_[0].step + size_; }
    void clear() { size_ = 0; }
    /// Keeps only the steps for which `keep` is true, in order.
    template <class Pred>
    void filter(Pred keep) {
        int n = 0;
        // Steps are copied only once one was dropped: the generators have just written them
        // byte by byte, and reading one back whole stalls the CPU (most lists keep them all).
        for (int i = 0; i < size_; ++i)
            if (keep((*this)[i])) {
                if (n != i) slot(n) = (*this)[i];
                ++n;
            }
        size_ = n;
    }
    /// True if `s` is in the list.
    bool contains(const Step& s) const {
        for (const auto& x : *this)
            if (x == s) return true;
        return false;
    }

private:
    union Slot {
        Slot() {}
        Step step;
    };
    static_assert(sizeof(Slot) == sizeof(Step), "slots are laid out as a Step array");
    Step& slot(int i) { return slots_[static_cast<std::size_t>(i)].step; }
    std::array<Slot, capacity> slots_;
    int size_ = 0;
};

/// A step in text: "move B2 C3", "build C3 D4", "dome C3 D4", "place C3", "place C3 female",
/// "force C3 D4" (the worker on C3 is forced to D4), "remove C3 D4", "capture C3 D4",
/// "aim NE", "select C3", "pass", "undo", "end turn", "offer Apollo", "choose Apollo", "start B", "token C3"
/// (the Ram; a power's own token kinds add their number: "token C3 2"). Squares name workers by where they stand, so the text needs the state to read.
std::string to_text(const Step& step);

/// Reads step text against `state`: the result, if any, must still be checked for legality.
/// "undo" always reads as Step::undo() (the engine never lists it; its host decides).
std::optional<Step> parse_step(const State& state, std::string_view text);

}  // namespace santorini
