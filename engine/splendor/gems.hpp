#pragma once
// Gem colours and token counts: the vocabulary every other Splendor file speaks.

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace splendor {

/// The five gem colours, then gold (the joker). Order is the rulebook's card-cost order and
/// the order of every per-colour array in the engine and the protocol.
enum Gem : std::uint8_t { White, Blue, Green, Red, Black, Gold };

inline constexpr int gem_colours = 5;  ///< White..Black: colours a card costs or gives
inline constexpr int token_kinds = 6;  ///< the colours and gold: kinds of token in a supply

/// Counts by colour (the five colours; card costs, bonuses, noble requirements).
using Colours = std::array<std::int8_t, gem_colours>;
/// Counts by token kind (the five colours and gold; supplies, hands, payments).
using Tokens = std::array<std::int8_t, token_kinds>;

/// The protocol's and the notation's word for a token kind: "white" ... "black", "gold".
std::string_view gem_name(Gem gem);
/// The token kind a word names, if any.
std::optional<Gem> gem_from_name(std::string_view name);

/// The sum of all counts.
template <std::size_t N>
constexpr int total(const std::array<std::int8_t, N>& counts) {
    int sum = 0;
    for (auto c : counts) sum += c;
    return sum;
}

}  // namespace splendor
