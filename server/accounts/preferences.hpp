#pragma once
// A player's preferences (docs/api.md, "Preferences"): what the player chose for themselves and
// the server remembers on their player id, so an account carries them to every device.
//
//   {"language": "en" | "it" | null, "chat_off": bool, "muted": ["p_...", ...]}
//
// `language` null: the client follows the browser (or this device's own pick). `muted`: the
// players whose match-chat lines this player does not see (docs/protocol.md, "Chat"); the
// server only keeps the list, each client hides the lines. The object is closed: all three
// fields, nothing else.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "protocol/json/basic_json.hpp"

namespace server {

/// One player's preferences; the defaults are a player who never chose anything.
struct Preferences {
    std::optional<std::string> language;  ///< one of preference_languages(); nullopt: the browser's
    bool chat_off = false;
    std::vector<std::string> muted;  ///< valid player ids, no duplicates, at most max_muted

    bool operator==(const Preferences&) const = default;

    static constexpr std::size_t max_muted = 200;
    /// A PUT body over this many bytes is refused before it is parsed (200 ids of 64 bytes fit).
    static constexpr std::size_t max_body = 16 * 1024;
};

/// The language codes a preference may name: the client's languages (web/js/i18n/).
const std::vector<std::string>& preference_languages();

/// Whether `id` can be a player's id: "p_" or "c_" then 1-62 letters, digits, `_` or `-`.
bool valid_player_id(std::string_view id);

/// The preferences a JSON body says, or why it cannot (for the 400 answer). Duplicated ids in
/// `muted` are kept once, in their first place.
std::variant<Preferences, std::string> read_preferences(const nlohmann::json& body);

/// The JSON of `preferences`, the shape read_preferences reads.
nlohmann::json preferences_json(const Preferences& preferences);

}  // namespace server
