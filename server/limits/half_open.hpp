#pragma once
// HTTP connections waiting for a request (half-open: accepted, or between two requests, and not
// done sending the next one), capped (Config::max_half_open_requests). A connection past the
// cap makes the one that has waited longest be shed: slow senders (a slowloris) cannot keep a
// prompt client out, since a prompt client is never the one waiting longest for long. Each
// waiting connection also has its own deadline (Config::http_request_timeout, in HttpSession).
// Thread-safe: sessions on any strand enter and leave.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <utility>

namespace server {

/// The connections waiting for a request, oldest first, and the cap on how many.
class HalfOpenRequests {
public:
    /// One connection's wait; it leaves the count when destroyed or reset. Move-only.
    class Ticket {
    public:
        Ticket() = default;
        Ticket(Ticket&& other) noexcept
            : requests_(std::exchange(other.requests_, nullptr)), id_(other.id_) {}
        Ticket& operator=(Ticket&& other) noexcept {
            if (this != &other) {
                reset();
                requests_ = std::exchange(other.requests_, nullptr);
                id_ = other.id_;
            }
            return *this;
        }
        Ticket(const Ticket&) = delete;
        Ticket& operator=(const Ticket&) = delete;
        ~Ticket() { reset(); }
        /// Leaves the count now (the request arrived, or the connection is closing).
        void reset() {
            if (requests_) std::exchange(requests_, nullptr)->leave(id_);
        }

    private:
        friend class HalfOpenRequests;
        Ticket(HalfOpenRequests* requests, std::uint64_t id) : requests_(requests), id_(id) {}
        HalfOpenRequests* requests_ = nullptr;
        std::uint64_t id_ = 0;
    };

    /// At most `cap` connections waiting at once (0: no cap).
    explicit HalfOpenRequests(std::size_t cap = 0) : cap_(cap) {}
    HalfOpenRequests(const HalfOpenRequests&) = delete;
    HalfOpenRequests& operator=(const HalfOpenRequests&) = delete;

    /// Counts one more connection waiting for a request. If that makes more than the cap, the
    /// one waiting longest stops counting and its `shed` is called (on this thread, outside
    /// the lock: it must only post the closing to that connection's own strand).
    Ticket enter(std::function<void()> shed) {
        std::function<void()> oldest;
        std::uint64_t id = 0;
        {
            std::lock_guard lock(mutex_);
            id = ++next_id_;
            waiting_.emplace(id, std::move(shed));
            if (cap_ > 0 && waiting_.size() > cap_) {
                auto first = waiting_.begin();
                oldest = std::move(first->second);
                waiting_.erase(first);
                ++shed_;
            }
        }
        if (oldest) oldest();
        return Ticket(this, id);
    }

    /// Connections waiting for a request now.
    std::size_t waiting() const {
        std::lock_guard lock(mutex_);
        return waiting_.size();
    }
    /// Connections shed so far.
    std::uint64_t shed() const {
        std::lock_guard lock(mutex_);
        return shed_;
    }

private:
    void leave(std::uint64_t id) {
        std::lock_guard lock(mutex_);
        waiting_.erase(id);  // nothing when it was shed already
    }

    const std::size_t cap_;
    mutable std::mutex mutex_;
    std::uint64_t next_id_ = 0;                              ///< guarded by mutex_
    std::map<std::uint64_t, std::function<void()>> waiting_;  ///< by id: oldest first; mutex_
    std::uint64_t shed_ = 0;                                  ///< guarded by mutex_
};

}  // namespace server
