#pragma once
// What every game's view shares for Game::undecided, Game::decision and
// Game::write_decision_patch: a view type with `bool decides` (the viewer decides, so the view
// carries the legal steps) and `std::uint32_t epoch` (the game's state those steps are of).

#include <cstdint>
#include <memory>

#include "protocol/game.hpp"

namespace protocol {

/// A copy of `view` without legal steps.
template <class View>
std::unique_ptr<GameView> undecided_view(const View& view) {
    auto v = std::make_unique<View>(view);
    v->decides = false;
    return v;
}

/// 0 when `view` carries no legal steps, else its epoch + 1.
template <class View>
std::uint64_t decision_of(const View& view) {
    return view.decides ? std::uint64_t{view.epoch} + 1 : 0;
}

/// `to` with the legal steps `decision` (as decision_of gave it) numbers instead of its own:
/// the view whose patch to `to` is Game::write_decision_patch's.
template <class View>
View with_decision(const View& to, std::uint64_t decision) {
    View had(to);
    had.decides = decision != 0;
    had.epoch = decision != 0 ? static_cast<std::uint32_t>(decision - 1) : 0;
    return had;
}

}  // namespace protocol
