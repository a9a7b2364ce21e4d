#pragma once
// Who is who, as this node knows it (one of the hub's parts, README "Layout"): the guests and
// signed-in players whose tokens it has seen, and the display name of every player it has met
// (lobby members, seats of restored matches, remote connections). Read by every session's hello, so
// behind a reader-writer lock rather than a strand. The database is the authority; this is
// what memory knows of it.

#include <functional>
#include <optional>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <unordered_map>

#include "server/app/guarded.hpp"
#include "server/limits/address_limiter.hpp"
#include "server/app/hub.hpp"
#include "server/rooms/lobby.hpp"

namespace server {

class Identity {
  public:
    /// Identities whose new guests are limited per network: `guests_per_minute`, `guest_burst`
    /// (Config).
    Identity(double guests_per_minute, double guest_burst)
        : new_guests_(guests_per_minute, guest_burst) {}

    /// Whether a new guest may be made from network `key` now (spends one of its tokens).
    bool allow_new_guest(std::string_view key) { return new_guests_.allow(key); }
    /// A guest called `name` with a fresh id and token that nobody known has (the name is not
    /// checked here). Not yet known: add() makes it so.
    Guest fresh(std::string_view name) const;
    /// `guest` is known: its token identifies it. `rename`: its name replaces the one known
    /// (a signed-in player may have renamed); else a name known already stays.
    void add(const Guest& guest, bool rename);
    /// The guest `token` belongs to, if memory knows it.
    std::optional<Guest> find(const std::string& token) const;
    /// The token identifies nobody any more (signed out).
    void forget_token(std::string_view token);
    /// Every token of `player_id` but `keep` identifies nobody any more.
    void forget_tokens_of(std::string_view player_id, std::string_view keep);
    /// Every token of `player_id` for which `revoked(token)` holds identifies nobody any more.
    void forget_tokens_where(std::string_view player_id,
                             const std::function<bool(std::string_view token)>& revoked);

    /// The player with their display name (their id when the name is unknown).
    Member member(const std::string& player_id) const;
    /// `player_id` is called `name` (replacing a name known before).
    void set_name(const std::string& player_id, const std::string& name);
    /// `player_id` is called `name`, unless a name is known already.
    void learn_name(const std::string& player_id, const std::string& name);

  private:
    struct State {
        std::unordered_map<std::string, Guest> by_token;
        std::unordered_map<std::string, std::string> names;  ///< player id -> name
    };
    Guarded<State, std::shared_mutex> state_;
    AddressLimiter new_guests_;  ///< new guests per network (its own lock)
};

}  // namespace server
