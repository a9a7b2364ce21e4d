#include "server/match/clock.hpp"

#include <algorithm>

#include "server/time/epoch_ms.hpp"

namespace server {

using std::chrono::duration_cast;
using std::chrono::milliseconds;

TimeControl TimeControl::from_settings(const protocol::LobbySettings& settings) {
    TimeControl tc;
    if (settings.clock == "realtime") {
        tc.kind = Kind::Realtime;
        tc.base = std::chrono::seconds(settings.base_seconds);
        tc.increment = std::chrono::seconds(settings.increment_seconds);
    } else if (settings.clock == "turn") {
        tc.kind = Kind::Turn;
        tc.per_move = std::chrono::hours(settings.hours_per_move);
    }
    return tc;
}

Clock::Clock(TimeControl control, int seats) : control_(control), seats_(std::clamp(seats, 0, 4)) {
    remaining_.fill(control_.base);
}

void Clock::switch_to(int seat, bool new_turn, SteadyTime now) {
    if (control_.kind == TimeControl::Kind::None) return;
    if (seat == running_ && !new_turn) return;
    if (running_ >= 0 && control_.kind == TimeControl::Kind::Realtime) {
        auto& left = remaining_[static_cast<std::size_t>(running_)];
        left = std::max(milliseconds{0}, left - duration_cast<milliseconds>(now - since_));
        // A seat that ran out is settled by the timeout, not rewarded with an increment.
        if (left > milliseconds{0}) left += control_.increment;
    }
    running_ = seat;
    since_ = now;
    deadline_ = now + control_.per_move;
}

void Clock::stop(SteadyTime now) {
    if (running_ >= 0 && control_.kind == TimeControl::Kind::Realtime) {
        auto& left = remaining_[static_cast<std::size_t>(running_)];
        left = std::max(milliseconds{0}, left - duration_cast<milliseconds>(now - since_));
    }
    running_ = -1;
}

std::optional<SteadyTime> Clock::expiry() const {
    if (running_ < 0) return std::nullopt;
    switch (control_.kind) {
        case TimeControl::Kind::Realtime:
            return since_ + remaining_[static_cast<std::size_t>(running_)];
        case TimeControl::Kind::Turn:
            return deadline_;
        case TimeControl::Kind::None:
            break;
    }
    return std::nullopt;
}

bool Clock::expired(SteadyTime now) const {
    auto at = expiry();
    return at && now >= *at;
}

milliseconds Clock::remaining(int seat, SteadyTime now) const {
    if (seat < 0 || seat >= seats_) return milliseconds{0};
    milliseconds left = remaining_[static_cast<std::size_t>(seat)];
    if (seat == running_) left -= duration_cast<milliseconds>(now - since_);
    return std::max(milliseconds{0}, left);
}

nlohmann::json Clock::to_json(SteadyTime now, WallTime wall_now) const {
    using nlohmann::json;
    switch (control_.kind) {
        case TimeControl::Kind::Realtime: {
            json left = json::array();
            for (int s = 0; s < seats_; ++s) left.push_back(remaining(s, now).count());
            return {{"kind", "realtime"},
                    {"remaining_ms", std::move(left)},
                    {"running", running_ >= 0 ? json(running_) : json(nullptr)}};
        }
        case TimeControl::Kind::Turn: {
            json deadline = nullptr;
            if (running_ >= 0) {
                auto at = wall_now + duration_cast<WallTime::duration>(deadline_ - now);
                deadline = epoch_ms(at);
            }
            return {{"kind", "turn"},
                    {"deadline_ms", std::move(deadline)},
                    {"hours_per_move",
                     std::chrono::duration_cast<std::chrono::hours>(control_.per_move).count()}};
        }
        case TimeControl::Kind::None:
            break;
    }
    return {{"kind", "none"}};
}

}  // namespace server
