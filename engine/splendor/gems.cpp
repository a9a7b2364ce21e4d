#include "engine/splendor/gems.hpp"

#include <array>

namespace splendor {
namespace {
constexpr std::array<std::string_view, token_kinds> names{"white", "blue",  "green",
                                                          "red",   "black", "gold"};
}  // namespace

std::string_view gem_name(Gem gem) {
    return names[static_cast<std::size_t>(gem)];
}

std::optional<Gem> gem_from_name(std::string_view name) {
    for (int k = 0; k < token_kinds; ++k)
        if (names[static_cast<std::size_t>(k)] == name) return static_cast<Gem>(k);
    return std::nullopt;
}

}  // namespace splendor
