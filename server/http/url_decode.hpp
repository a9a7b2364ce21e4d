#pragma once
// Decoding of URL parts, shared by the static files (paths) and the API (query strings).

#include <optional>
#include <string>
#include <string_view>

namespace server {

/// `text` with its %XX escapes decoded; with `plus_is_space` (query strings, as
/// application/x-www-form-urlencoded says) '+' is a space too. Nullopt for a cut or non-hex
/// escape.
std::optional<std::string> url_decode(std::string_view text, bool plus_is_space);

}  // namespace server
