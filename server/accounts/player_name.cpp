#include "server/accounts/player_name.hpp"

#include "server/text/utf8.hpp"

namespace server {

std::optional<std::string> name_problem(std::string_view name) {
    if (name.empty()) return "a name cannot be empty";
    std::size_t count = 0;
    bool visible = false;
    for (std::size_t at = 0; at < name.size();) {
        const auto cp = utf8::next_code_point(name, at);
        if (!cp) return "a name must be valid UTF-8";
        if (utf8::is_control(*cp)) return "a name cannot contain control characters";
        if (utf8::is_invisible(*cp))
            return "a name cannot contain bidirectional, zero-width or other invisible characters";
        if (*cp != ' ') visible = true;
        if (++count > max_name_code_points)
            return "a name has at most " + std::to_string(max_name_code_points) + " characters";
    }
    if (!visible) return "a name cannot be only spaces";
    return std::nullopt;
}

}  // namespace server
