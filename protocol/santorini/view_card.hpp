#pragma once
// A power card as a Santorini view shows it (docs/protocol.md, "cards"): read out of a state
// projected for its viewer into a plain value, written as the card's members, and patched
// member by member between two views. The writer writes the value and the patch compares two
// of them, so what is written and what is compared cannot drift apart. Internal to
// protocol/santorini (view.cpp writes the cards and the Golden Fleece's through it).

#include <cstdint>

#include "engine/santorini/state.hpp"
#include "protocol/json_text.hpp"

namespace protocol::santorini_view {

using santorini::Bitboard;
using santorini::PowerId;
using santorini::Square;

/// A power card as the table sees it (the test oracle's card_state_json builds the same).
/// `extras` has a bit per key the card has beyond the common ones (view_card.cpp).
struct Card {
    PowerId power = PowerId::None;
    PowerId acting_as = PowerId::None;
    int memory = 0;
    int counter = 0;
    Bitboard tokens = 0;
    unsigned extras = 0;
    bool moved_up = false;
    std::uint32_t bound = 0;
    int deck_size = 0;
    std::uint64_t discards = 0;
    int extra_turns = 0;
    int stored_builds = 0;
    int direction = -1;              // Aeolus' wind or Siren's song (-1: not set)
    Bitboard marks = 0;              // whirlpools, coins or the Fate on the board
    int on_card = 0;                 // whirlpools or coins still on the card
    Square square = santorini::no_square;  // Talus or the Abyss
    int reserve = 0;
    bool spent = false;
    int charmed = -1;
};

/// The card lying on seat `card` (Golden Fleece: the card beside the board keeps its state on
/// seat 0) carrying `power`, in `view` (a state projected for its viewer).
Card card_of(const santorini::State& view, int card, PowerId power);
/// Writes the card's members inside its object (the caller opens and closes it).
void write_card_members(JsonText& out, const Card& c);
/// Appends the operations that turn card `a`'s members into `b`'s, under `path`.
void patch_card(const Card& a, const Card& b, JsonPointer& path, PatchText& patch);

}  // namespace protocol::santorini_view
