#pragma once
// The server's list of connections (Beast's "shared registry"): a count of every open TCP
// connection, checked against Config::max_connections and, per client address, against
// Config::max_connections_per_address (so one address cannot take every place); the
// WebSocket sessions each player holds (Config::max_connections_per_player); and weak
// references to the live WebSocket sessions so that a graceful stop can close each with 1001.
// Thread-safe: sessions on any strand open and close entries.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

#include "server/limits/half_open.hpp"

namespace server {

class WebsocketSession;

/// Connection count and live WebSocket sessions of one server.
class SessionRegistry {
public:
    /// Holds one of the `max_connections` places while it lives. Move-only; the place is given
    /// back when the holder (an HTTP or WebSocket session) is destroyed.
    class Slot {
    public:
        Slot() = default;
        Slot(Slot&& other) noexcept
            : registry_(std::exchange(other.registry_, nullptr)), address_(std::move(other.address_)) {}
        Slot& operator=(Slot&& other) noexcept;
        Slot(const Slot&) = delete;
        Slot& operator=(const Slot&) = delete;
        ~Slot();

    private:
        friend class SessionRegistry;
        Slot(SessionRegistry* registry, std::string address)
            : registry_(registry), address_(std::move(address)) {}
        SessionRegistry* registry_ = nullptr;
        std::string address_;  ///< connection_key of the client ("" when not counted)
    };

    /// A registry allowing at most `max_connections` open connections at once, at most
    /// `per_address` of them from one client address, at most `per_player` WebSocket
    /// sessions of one player and at most `half_open` HTTP connections waiting for a request
    /// (0: no cap).
    explicit SessionRegistry(std::size_t max_connections, std::size_t per_address = 0,
                             std::size_t per_player = 0, std::size_t half_open = 0);
    SessionRegistry(const SessionRegistry&) = delete;
    SessionRegistry& operator=(const SessionRegistry&) = delete;

    /// Why try_open refused a place.
    enum class Refusal { Full, AddressFull };
    /// A place for one more connection from `address` (a connection_key; "" counts only
    /// globally: a trusted proxy), or why not.
    std::variant<Slot, Refusal> try_open(const std::string& address = {});
    /// Connections open from `address` now.
    std::size_t connections_from(const std::string& address) const;
    /// Connections (HTTP and WebSocket) holding a place now.
    std::size_t connections() const { return connections_.load(std::memory_order_relaxed); }

    /// A number never handed out before in this process (connection ids start at 1).
    static std::uint64_t next_connection_id();

    /// Starts tracking a WebSocket session (after its handshake). False once close_all has
    /// been called: the server is stopping and the session must close itself.
    bool add(const std::shared_ptr<WebsocketSession>& session);
    /// Stops tracking the session with this connection id (it has finished).
    void remove(std::uint64_t connection_id);
    /// Counts one more WebSocket session of `player`; false (nothing counted) when the player
    /// holds `per_player` already.
    bool join_player(const std::string& player);
    /// Gives back a place taken by join_player.
    void leave_player(const std::string& player);
    /// The live WebSocket sessions (tests and shutdown use this).
    std::vector<std::shared_ptr<WebsocketSession>> sessions() const;
    /// How many WebSocket sessions are tracked.
    std::size_t session_count() const;
    /// Asks every live session to flush its queue and close with `code` (graceful stop);
    /// sessions that finish their handshake later are refused by `add`.
    void close_all(std::uint16_t code, const std::string& reason);
    /// The HTTP connections waiting for a request (Config::max_half_open_requests).
    HalfOpenRequests& half_open() { return half_open_; }

private:
    void release(const std::string& address);

    const std::size_t max_connections_;
    const std::size_t per_address_;
    const std::size_t per_player_;
    std::unordered_map<std::string, std::size_t> by_address_;  ///< guarded by mutex_
    std::unordered_map<std::string, std::size_t> by_player_;   ///< guarded by mutex_
    std::atomic<std::size_t> connections_{0};
    mutable std::mutex mutex_;
    std::unordered_map<std::uint64_t, std::weak_ptr<WebsocketSession>> sessions_;
    bool closing_all_ = false;
    HalfOpenRequests half_open_;
};

}  // namespace server
