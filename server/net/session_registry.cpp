#include "server/net/session_registry.hpp"

#include <utility>

#include "server/net/websocket_session.hpp"

namespace server {

SessionRegistry::Slot& SessionRegistry::Slot::operator=(Slot&& other) noexcept {
    if (this != &other) {
        if (registry_ != nullptr) registry_->release(address_);
        registry_ = std::exchange(other.registry_, nullptr);
        address_ = std::move(other.address_);
    }
    return *this;
}

SessionRegistry::Slot::~Slot() {
    if (registry_ != nullptr) registry_->release(address_);
}

SessionRegistry::SessionRegistry(std::size_t max_connections, std::size_t per_address, std::size_t per_player,
                                 std::size_t half_open)
    : max_connections_(max_connections), per_address_(per_address), per_player_(per_player), half_open_(half_open) {}

std::variant<SessionRegistry::Slot, SessionRegistry::Refusal> SessionRegistry::try_open(const std::string& address) {
    std::size_t open = connections_.load(std::memory_order_relaxed);
    do {
        if (open >= max_connections_) return Refusal::Full;
    } while (!connections_.compare_exchange_weak(open, open + 1, std::memory_order_relaxed));
    if (per_address_ == 0 || address.empty()) return Slot(this, {});
    {
        const std::lock_guard lock(mutex_);
        std::size_t& from = by_address_[address];
        if (from < per_address_) {
            ++from;
            return Slot(this, address);
        }
    }
    connections_.fetch_sub(1, std::memory_order_relaxed);
    return Refusal::AddressFull;
}

std::size_t SessionRegistry::connections_from(const std::string& address) const {
    const std::lock_guard lock(mutex_);
    auto it = by_address_.find(address);
    return it == by_address_.end() ? 0 : it->second;
}

void SessionRegistry::release(const std::string& address) {
    if (!address.empty()) {
        const std::lock_guard lock(mutex_);
        // Addresses with nothing open are forgotten: the map is as big as the open connections.
        if (auto it = by_address_.find(address); it != by_address_.end() && --it->second == 0)
            by_address_.erase(it);
    }
    connections_.fetch_sub(1, std::memory_order_relaxed);
}

bool SessionRegistry::join_player(const std::string& player) {
    const std::lock_guard lock(mutex_);
    std::size_t& held = by_player_[player];
    if (per_player_ != 0 && held >= per_player_) return false;
    ++held;
    return true;
}

void SessionRegistry::leave_player(const std::string& player) {
    const std::lock_guard lock(mutex_);
    if (auto it = by_player_.find(player); it != by_player_.end() && --it->second == 0) by_player_.erase(it);
}

std::uint64_t SessionRegistry::next_connection_id() {
    static std::atomic<std::uint64_t> next{1};
    return next.fetch_add(1, std::memory_order_relaxed);
}

bool SessionRegistry::add(const std::shared_ptr<WebsocketSession>& session) {
    const std::lock_guard lock(mutex_);
    if (closing_all_) return false;
    sessions_[session->connection_id()] = session;
    return true;
}

void SessionRegistry::remove(std::uint64_t connection_id) {
    const std::lock_guard lock(mutex_);
    sessions_.erase(connection_id);
}

std::vector<std::shared_ptr<WebsocketSession>> SessionRegistry::sessions() const {
    std::vector<std::shared_ptr<WebsocketSession>> live;
    const std::lock_guard lock(mutex_);
    live.reserve(sessions_.size());
    for (const auto& [id, weak] : sessions_) {
        if (auto session = weak.lock()) live.push_back(std::move(session));
    }
    return live;
}

std::size_t SessionRegistry::session_count() const {
    const std::lock_guard lock(mutex_);
    return sessions_.size();
}

void SessionRegistry::close_all(std::uint16_t code, const std::string& reason) {
    {
        const std::lock_guard lock(mutex_);
        closing_all_ = true;
    }
    // Outside the lock: close() only posts, but a session may finish (and call remove) at once.
    for (const auto& session : sessions()) session->close(code, reason, /*flush=*/true);
}

}  // namespace server
