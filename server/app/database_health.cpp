#include "server/app/database_health.hpp"

#include <thread>

namespace server {

namespace {

std::int64_t steady_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

}  // namespace

DatabaseHealth::DatabaseHealth(std::function<bool()> ping, std::chrono::milliseconds interval,
                               std::chrono::milliseconds deadline)
    : state_(std::make_shared<State>()) {
    state_->ping = std::move(ping);
    state_->interval = interval;
    state_->deadline = deadline;
    std::thread([state = state_] {
        for (;;) {
            state->waiting_since = steady_ns();
            const bool ok = state->ping();
            state->answered = ok;
            state->waiting_since = 0;
            std::unique_lock lock(state->mutex);
            if (state->wake.wait_for(lock, state->interval, [&] { return state->stop; })) return;
        }
    }).detach();
}

DatabaseHealth::~DatabaseHealth() {
    {
        std::lock_guard lock(state_->mutex);
        state_->stop = true;
    }
    state_->wake.notify_all();
}

bool DatabaseHealth::reachable() const {
    const std::int64_t since = state_->waiting_since;
    if (since != 0 &&
        steady_ns() - since >
            std::chrono::duration_cast<std::chrono::nanoseconds>(state_->deadline).count())
        return false;
    return state_->answered;
}

}  // namespace server
