#include "server/session_registry.hpp"

#include <utility>

#include "server/websocket_session.hpp"

namespace server {

SessionRegistry::Slot& SessionRegistry::Slot::operator=(Slot&& other) noexcept {
    if (this != &other) {
        if (registry_ != nullptr) registry_->release();
        registry_ = std::exchange(other.registry_, nullptr);
    }
    return *this;
}

SessionRegistry::Slot::~Slot() {
    if (registry_ != nullptr) registry_->release();
}

SessionRegistry::SessionRegistry(std::size_t max_connections) : max_connections_(max_connections) {}

std::optional<SessionRegistry::Slot> SessionRegistry::try_open() {
    std::size_t open = connections_.load(std::memory_order_relaxed);
    do {
        if (open >= max_connections_) return std::nullopt;
    } while (!connections_.compare_exchange_weak(open, open + 1, std::memory_order_relaxed));
    return Slot(this);
}

void SessionRegistry::release() { connections_.fetch_sub(1, std::memory_order_relaxed); }

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
