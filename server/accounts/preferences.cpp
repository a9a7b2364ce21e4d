#include "server/accounts/preferences.hpp"

#include <algorithm>
#include <string_view>

namespace server {

const std::vector<std::string>& preference_languages() {
    static const std::vector<std::string> codes{"en", "it"};
    return codes;
}

bool valid_player_id(std::string_view id) {
    if (id.size() < 3 || id.size() > 64) return false;
    if ((id[0] != 'p' && id[0] != 'c') || id[1] != '_') return false;
    return std::all_of(id.begin() + 2, id.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == '_' || c == '-';
    });
}

std::variant<Preferences, std::string> read_preferences(const nlohmann::json& body) {
    if (!body.is_object()) return std::string("body must be a JSON object");
    for (const auto& [key, value] : body.items())
        if (key != "language" && key != "chat_off" && key != "muted")
            return "unknown field \"" + key + "\"";
    Preferences out;
    const auto language = body.find("language");
    if (language == body.end())
        return std::string("expected \"language\" (a language code or null)");
    if (!language->is_null()) {
        const auto& codes = preference_languages();
        if (!language->is_string() ||
            std::find(codes.begin(), codes.end(), language->get_ref<const std::string&>()) ==
                codes.end())
            return std::string("\"language\" must be one of the client's language codes or null");
        out.language = language->get<std::string>();
    }
    const auto chat_off = body.find("chat_off");
    if (chat_off == body.end() || !chat_off->is_boolean())
        return std::string("expected \"chat_off\" as a boolean");
    out.chat_off = chat_off->get<bool>();
    const auto muted = body.find("muted");
    if (muted == body.end() || !muted->is_array())
        return std::string("expected \"muted\" as an array of player ids");
    if (muted->size() > Preferences::max_muted)
        return "at most " + std::to_string(Preferences::max_muted) + " muted players";
    for (const auto& id : *muted) {
        if (!id.is_string() || !valid_player_id(id.get_ref<const std::string&>()))
            return std::string("\"muted\" holds something that is not a player id");
        const auto& text = id.get_ref<const std::string&>();
        if (std::find(out.muted.begin(), out.muted.end(), text) == out.muted.end())
            out.muted.push_back(text);
    }
    return out;
}

nlohmann::json preferences_json(const Preferences& p) {
    return {{"language", p.language ? nlohmann::json(*p.language) : nlohmann::json(nullptr)},
            {"chat_off", p.chat_off},
            {"muted", p.muted}};
}

}  // namespace server
