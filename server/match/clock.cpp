#include "server/match/clock.hpp"

#include <algorithm>

#include "protocol/json_text.hpp"
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
    return nlohmann::json::parse(text(now, wall_now));
}

std::string Clock::text(SteadyTime now, WallTime wall_now) const {
    // Members in the order nlohmann writes an object's (by key), as the views always had them.
    std::string text;
    protocol::JsonText out(text);
    out.begin_object();
    switch (control_.kind) {
        case TimeControl::Kind::Realtime:
            out.key("kind").string("realtime");
            out.key("remaining_ms").begin_array();
            for (int s = 0; s < seats_; ++s) out.number(remaining(s, now).count());
            out.end_array();
            out.key("running");
            if (running_ >= 0)
                out.number(running_);
            else
                out.null();
            break;
        case TimeControl::Kind::Turn:
            out.key("deadline_ms");
            if (running_ >= 0)
                out.number(epoch_ms(wall_now + duration_cast<WallTime::duration>(deadline_ - now)));
            else
                out.null();
            out.key("hours_per_move")
                .number(std::chrono::duration_cast<std::chrono::hours>(control_.per_move).count());
            out.key("kind").string("turn");
            break;
        case TimeControl::Kind::None:
            out.key("kind").string("none");
            break;
    }
    out.end_object();
    return text;
}

}  // namespace server
