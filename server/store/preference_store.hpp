#pragma once
// A player's preferences in the database (migrations/0007_preferences.sql): the language, the
// chat switched off, the players muted. The values are checked by the caller
// (server/accounts/preferences.hpp); the table's checks are the last line.
//
// Threading: blocking, like AccountStore (a round trip per call, on a small pool of its own
// connections): call it only from a blocking pool, never from a strand or a network thread.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "server/store/result.hpp"

namespace store {

/// A player's preferences as stored.
struct StoredPreferences {
    std::optional<std::string> language;  ///< nullopt: follow the browser
    bool chat_off = false;
    std::vector<std::string> muted;  ///< player ids, none with a comma
};

/// Preferences on a connection pool (see the header comment).
class PreferenceStore {
  public:
    /// Connects lazily, at most `connections` at a time, to `url`.
    explicit PreferenceStore(std::string url, std::size_t connections = 2);
    ~PreferenceStore();
    PreferenceStore(const PreferenceStore&) = delete;
    PreferenceStore& operator=(const PreferenceStore&) = delete;

    /// The preferences of `player_id`; nullopt when it never stored any.
    Result<std::optional<StoredPreferences>> of_player(std::string_view player_id);
    /// Replaces the preferences of `player_id` (inserting the row the first time). Invalid
    /// for an id with a comma among `muted`; a player unknown to the database fails there.
    Result<Done> put(std::string_view player_id, const StoredPreferences& preferences,
                     std::int64_t at_ms);

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace store
