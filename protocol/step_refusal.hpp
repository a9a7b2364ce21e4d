#pragma once
// A client's step that a game will not play, and why. One judgement decides it (Game::play,
// which matches the step against the legal list); the match only turns the verdict into the
// error the client reads (docs/protocol.md, "match.step").

#include <string>
#include <utility>

namespace protocol {

/// Why a game refused a step. `Malformed`: it cannot be a step of this kind of game at all
/// (not an object, unknown kind, unknown or missing field, bad value: `invalid_field`);
/// `Illegal`: it is one, but not in the legal list now (`illegal_step`). `why` is the text the
/// client reads ("unknown step kind 'take'", "not legal now: move B2 C3").
struct StepRefusal {
    enum class Kind { Malformed, Illegal };
    Kind kind = Kind::Malformed;
    std::string why;

    /// A refusal of the kind named.
    static StepRefusal malformed(std::string why) { return {Kind::Malformed, std::move(why)}; }
    static StepRefusal illegal(std::string why) { return {Kind::Illegal, std::move(why)}; }
};

}  // namespace protocol
