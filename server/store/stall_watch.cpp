#include "server/store/stall_watch.hpp"

#include <sys/socket.h>

#include <algorithm>

namespace store::pg {

StallWatch& StallWatch::instance() {
    static StallWatch watch;
    return watch;
}

StallWatch::~StallWatch() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    changed_.notify_all();
    if (thread_.joinable()) thread_.join();
}

void StallWatch::set_limit(std::chrono::milliseconds limit) {
    std::lock_guard lock(mutex_);
    limit_ = std::max(limit, std::chrono::milliseconds(0));
}

std::chrono::milliseconds StallWatch::limit() const {
    std::lock_guard lock(mutex_);
    return limit_;
}

std::uint64_t StallWatch::cuts() const {
    std::lock_guard lock(mutex_);
    return cuts_;
}

StallWatch::Call StallWatch::watch(int fd) {
    std::uint64_t id = 0;
    {
        std::lock_guard lock(mutex_);
        if (fd < 0 || limit_.count() == 0 || stopping_) return {};
        id = next_id_++;
        calls_.emplace(id, Watched{fd, std::chrono::steady_clock::now() + limit_});
        if (!thread_.joinable()) thread_ = std::thread([this] { run(); });
    }
    // The watcher may be waiting with nothing to watch, or for a later due time (a lowered limit).
    changed_.notify_one();
    return Call(this, id);
}

bool StallWatch::Call::finish() {
    if (watch_) {
        cut_ = watch_->finish(id_);
        watch_ = nullptr;
    }
    return cut_;
}

bool StallWatch::finish(std::uint64_t id) {
    std::lock_guard lock(mutex_);
    const auto found = calls_.find(id);
    if (found == calls_.end()) return false;
    const bool cut = found->second.cut;
    // Removed under the lock the watcher cuts under: once this returns, the caller may close the
    // connection, and the watcher can no longer touch its descriptor (nor a new one that reuses
    // the number).
    calls_.erase(found);
    return cut;
}

void StallWatch::run() {
    std::unique_lock lock(mutex_);
    while (!stopping_) {
        auto next = std::chrono::steady_clock::time_point::max();
        for (const auto& [id, call] : calls_)
            if (!call.cut) next = std::min(next, call.due);
        if (next == std::chrono::steady_clock::time_point::max()) {
            changed_.wait(lock);
            continue;
        }
        changed_.wait_until(lock, next);
        const auto now = std::chrono::steady_clock::now();
        for (auto& [id, call] : calls_)
            if (!call.cut && call.due <= now) {
                // Both ways: the blocked recv() sees end of file at once, and libpq's next
                // send fails instead of queueing behind a server that reads nothing.
                ::shutdown(call.fd, SHUT_RDWR);
                call.cut = true;
                ++cuts_;
            }
    }
}

}  // namespace store::pg
