#pragma once
// Each client's share of a shared capacity: how many of one client's requests may be in
// progress at once (the stored-data API's pool, Config::api_in_flight_per_client), so one
// client cannot fill the whole capacity and make everyone else's requests fail. Thread-safe.

#include <cstddef>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>

namespace server {

/// Counts requests in progress per client key; at most `per_client` each.
class ClientShare {
public:
    /// One request's place; given back when destroyed. Move-only.
    class Ticket {
    public:
        Ticket(Ticket&& other) noexcept : share_(std::exchange(other.share_, nullptr)), key_(std::move(other.key_)) {}
        Ticket& operator=(Ticket&&) = delete;
        Ticket(const Ticket&) = delete;
        Ticket& operator=(const Ticket&) = delete;
        ~Ticket() {
            if (share_) share_->release(key_);
        }

    private:
        friend class ClientShare;
        Ticket(ClientShare* share, std::string key) : share_(share), key_(std::move(key)) {}
        ClientShare* share_;
        std::string key_;
    };

    /// At most `per_client` places per key (0: no cap).
    explicit ClientShare(std::size_t per_client) : per_client_(per_client) {}

    /// A place for one more request of `key`, or nullopt when it holds its share already.
    std::optional<Ticket> try_take(const std::string& key) {
        std::lock_guard lock(mutex_);
        std::size_t& held = held_[key];
        if (per_client_ != 0 && held >= per_client_) return std::nullopt;
        ++held;
        return Ticket(this, key);
    }

    /// Requests of `key` in progress now.
    std::size_t held(const std::string& key) const {
        std::lock_guard lock(mutex_);
        auto it = held_.find(key);
        return it == held_.end() ? 0 : it->second;
    }

private:
    void release(const std::string& key) {
        std::lock_guard lock(mutex_);
        // Clients with nothing in progress are forgotten: the map is as big as the work.
        if (auto it = held_.find(key); it != held_.end() && --it->second == 0) held_.erase(it);
    }

    std::size_t per_client_;
    mutable std::mutex mutex_;
    std::unordered_map<std::string, std::size_t> held_;
};

}  // namespace server
