// Lobby settings (lobby_settings.hpp): what a client may ask for in lobby.create, checked field
// by field so errors can name the field; Santorini's then checked as a whole against the rules
// data by santorini::validate, so a lobby never promises a game the engine would refuse to start.

#include <algorithm>
#include <set>
#include <string_view>

#include "engine/santorini/power_catalog.hpp"
#include "protocol/lobby_settings.hpp"
#include "protocol/santorini/json.hpp"

namespace protocol {

using nlohmann::json;
using santorini::PowerCategory;
using santorini::PowerId;

namespace {

// Time control limits: long enough for correspondence play, short enough that a seat cannot
// be held hostage for weeks, and never zero.
constexpr int min_base_seconds = 10, max_base_seconds = 3 * 60 * 60;
constexpr int max_increment_seconds = 180;
constexpr int min_hours_per_move = 1, max_hours_per_move = 7 * 24;

SettingsError missing(const std::string& field) {
    return {field, true, "missing field '" + field + "'"};
}
SettingsError invalid(const std::string& field, const std::string& why) {
    return {field, false, "invalid field '" + field + "': " + why};
}

// Rejects fields outside `allowed`: a misspelt option must not silently become its default.
std::optional<SettingsError> only_fields(const json& obj, const std::string& path,
                                         std::initializer_list<std::string_view> allowed) {
    for (const auto& item : obj.items())
        if (std::find(allowed.begin(), allowed.end(), item.key()) == allowed.end())
            return invalid(path + "." + item.key(), "unknown field");
    return std::nullopt;
}

// Reads an integer field in [lo, hi]; absent fields leave `out` alone unless `required`.
std::optional<SettingsError> int_field(const json& obj, const std::string& path, const char* key,
                                       bool required, int lo, int hi, int& out) {
    auto it = obj.find(key);
    const std::string field = path + "." + key;
    if (it == obj.end()) return required ? std::optional(missing(field)) : std::nullopt;
    if (!it->is_number_integer() || it->get<std::int64_t>() < lo || it->get<std::int64_t>() > hi)
        return invalid(
            field, "must be an integer from " + std::to_string(lo) + " to " + std::to_string(hi));
    out = static_cast<int>(it->get<std::int64_t>());
    return std::nullopt;
}

// Reads a string field that must be one of `choices`.
std::optional<SettingsError> choice_field(const json& obj, const std::string& path, const char* key,
                                          bool required,
                                          std::initializer_list<std::string_view> choices,
                                          std::string& out) {
    auto it = obj.find(key);
    const std::string field = path + "." + key;
    if (it == obj.end()) return required ? std::optional(missing(field)) : std::nullopt;
    if (it->is_string() &&
        std::find(choices.begin(), choices.end(), it->get<std::string>()) != choices.end()) {
        out = it->get<std::string>();
        return std::nullopt;
    }
    std::string list;
    for (auto c : choices) list += (list.empty() ? "" : ", ") + std::string(c);
    return invalid(field, "must be one of " + list);
}

std::optional<SettingsError> bool_field(const json& obj, const std::string& path, const char* key,
                                        bool& out) {
    auto it = obj.find(key);
    if (it == obj.end()) return std::nullopt;
    if (!it->is_boolean()) return invalid(path + "." + key, "must be true or false");
    out = it->get<bool>();
    return std::nullopt;
}

std::optional<SettingsError> read_clock(const json& settings, LobbySettings& out) {
    auto it = settings.find("clock");
    if (it == settings.end()) return std::nullopt;  // no clock
    const std::string path = "settings.clock";
    if (!it->is_object()) return invalid(path, "must be an object");
    if (auto e = choice_field(*it, path, "kind", true, {"none", "realtime", "turn"}, out.clock))
        return e;
    if (out.clock == "none") return only_fields(*it, path, {"kind"});
    if (out.clock == "realtime") {
        if (auto e = only_fields(*it, path, {"kind", "base_seconds", "increment_seconds"}))
            return e;
        if (auto e = int_field(*it, path, "base_seconds", true, min_base_seconds, max_base_seconds,
                               out.base_seconds))
            return e;
        return int_field(*it, path, "increment_seconds", true, 0, max_increment_seconds,
                         out.increment_seconds);
    }
    if (auto e = only_fields(*it, path, {"kind", "hours_per_move"})) return e;
    return int_field(*it, path, "hours_per_move", true, min_hours_per_move, max_hours_per_move,
                     out.hours_per_move);
}

std::optional<SettingsError> read_pool(const json& settings, LobbySettings& out) {
    auto it = settings.find("pool");
    if (out.powers != "custom") {
        if (it != settings.end()) return invalid("settings.pool", "only with powers \"custom\"");
        return std::nullopt;
    }
    if (it == settings.end()) return missing("settings.pool");
    if (!it->is_array() || it->empty() ||
        it->size() > static_cast<std::size_t>(santorini::power_count))
        return invalid("settings.pool", "must be a non-empty list of power names");
    std::set<PowerId> seen;
    for (const auto& name : *it) {
        auto p = name.is_string() ? santorini::find_power(name.get<std::string>()) : std::nullopt;
        if (!p) return invalid("settings.pool", "unknown power " + name.dump());
        if (!seen.insert(*p).second)
            return invalid("settings.pool", "lists " + name.get<std::string>() + " twice");
        out.pool.push_back(*p);
    }
    return std::nullopt;
}

// The rules about combinations that name a field of their own, checked before the engine's
// validation (whose messages can only blame the settings as a whole).
std::optional<SettingsError> check_combination(const LobbySettings& s) {
    if (s.powers == "none" && s.players != 2)
        return invalid("settings.powers", "3 and 4 players must play with powers");
    if (s.powers == "heroes" && s.players != 2)
        return invalid("settings.powers", "heroes are for 2 players only");
    if (s.golden_fleece && s.players != 2)
        return invalid("settings.golden_fleece", "the Golden Fleece is for 2 players only");
    if (s.golden_fleece && s.powers == "none")
        return invalid("settings.golden_fleece", "the Golden Fleece needs powers");
    if (s.hero_seat >= 0 && s.players != 2)
        return invalid("settings.hero_seat", "heroes are for 2 players only");
    if (s.hero_seat >= 0 && s.golden_fleece)
        return invalid("settings.hero_seat", "heroes are never used with the Golden Fleece");
    if (s.hero_seat >= 0 && (s.powers == "none" || s.powers == "heroes"))
        return invalid("settings.hero_seat",
                       "the handicap game needs gods in \"powers\" (simple, all or custom)");
    return std::nullopt;
}

// A lobby that does not say is rated when public and casual when private (friends trying
// things out should not move ratings by accident; docs/ratings.md, section 1, "Pools").
void default_rated(const json& j, LobbySettings& s) {
    if (!j.contains("rated")) s.rated = s.is_public && s.bots == 0;  // computers: never rated (read_bots)
}

// The computer players: `bots` seats out of `players` (never the host's), at `bot_level`. A
// lobby with bots is casual: `rated` left out means false, and `rated: true` is refused
// (ratings measure people against people; docs/ratings.md).
std::optional<SettingsError> read_bots(const json& j, LobbySettings& s) {
    const std::string path = "settings";
    if (auto e = int_field(j, path, "bots", false, 0, s.players - 1, s.bots)) return e;
    if (auto e = int_field(j, path, "bot_level", false, 1, 5, s.bot_level)) return e;
    if (s.bots == 0) return std::nullopt;
    if (j.contains("rated") && s.rated)
        return invalid("settings.rated", "a game with computer players is never rated");
    s.rated = false;
    return std::nullopt;
}

// Splendor's settings: the fields every game has, nothing else (no powers, no variants).
std::optional<SettingsError> read_splendor(const json& j, LobbySettings& s) {
    const std::string path = "settings";
    if (auto e = only_fields(j, path,
                             {"game", "players", "rated", "clock", "public", "confirm_turns",
                              "bots", "bot_level"}))
        return e;
    if (auto e = int_field(j, path, "players", true, 2, 4, s.players)) return e;
    if (auto e = bool_field(j, path, "rated", s.rated)) return e;
    if (auto e = read_bots(j, s)) return e;
    if (auto e = bool_field(j, path, "confirm_turns", s.confirm_turns)) return e;
    if (auto e = read_clock(j, s)) return e;
    if (auto e = bool_field(j, path, "public", s.is_public)) return e;
    default_rated(j, s);
    return std::nullopt;
}

}  // namespace

std::variant<LobbySettings, SettingsError> read_lobby_settings(const json& j) {
    const std::string path = "settings";
    if (!j.is_object()) return invalid(path, "must be an object");
    LobbySettings s;
    if (auto e = choice_field(j, path, "game", true, {"santorini", "splendor"}, s.game)) return *e;
    if (s.game == "splendor") {
        if (auto e = read_splendor(j, s)) return *e;
        return s;
    }
    if (auto e = only_fields(j, path,
                             {"game", "players", "rated", "powers", "pool", "draft",
                              "golden_fleece", "hero_seat", "confirm_turns", "clock", "public",
                              "bots", "bot_level"}))
        return *e;
    if (auto e = int_field(j, path, "players", true, 2, 4, s.players)) return *e;
    if (auto e = bool_field(j, path, "rated", s.rated)) return *e;
    if (auto e = read_bots(j, s)) return *e;
    if (auto e = choice_field(j, path, "powers", false,
                              {"none", "simple", "all", "heroes", "custom"}, s.powers))
        return *e;
    if (auto e = read_pool(j, s)) return *e;
    if (auto e = choice_field(j, path, "draft", false, {"random", "subset", "full"}, s.draft))
        return *e;
    if (auto e = bool_field(j, path, "golden_fleece", s.golden_fleece)) return *e;
    if (auto it = j.find("hero_seat"); it != j.end() && !it->is_null())
        if (auto e = int_field(j, path, "hero_seat", false, 0, 1, s.hero_seat)) return *e;
    if (auto e = bool_field(j, path, "confirm_turns", s.confirm_turns)) return *e;
    if (auto e = read_clock(j, s)) return *e;
    if (auto e = bool_field(j, path, "public", s.is_public)) return *e;
    default_rated(j, s);
    if (auto e = check_combination(s)) return *e;
    auto engine = engine_settings(s, 0, 0);
    if (auto* error = std::get_if<std::string>(&engine))
        return invalid(s.powers == "custom" ? "settings.pool"
                       : s.hero_seat >= 0   ? "settings.hero_seat"  // the heroes the pool lacks
                                            : "settings.powers",
                       *error);
    return s;
}

std::variant<LobbySettings, std::string> lobby_settings_from_json(const json& j) {
    auto r = read_lobby_settings(j);
    if (auto* e = std::get_if<SettingsError>(&r)) return e->message;
    return std::get<LobbySettings>(std::move(r));
}

json lobby_settings_json(const LobbySettings& s) {
    json j = {{"game", s.game}, {"players", s.players}, {"rated", s.rated},
              {"confirm_turns", s.confirm_turns}, {"bots", s.bots}, {"bot_level", s.bot_level}};
    if (s.game == "santorini") {
        j["powers"] = s.powers;
        if (s.powers == "custom") {
            json pool = json::array();
            for (auto p : s.pool) pool.push_back(std::string(santorini::power_info(p).key));
            j["pool"] = std::move(pool);
        }
        j["draft"] = s.draft;
        j["golden_fleece"] = s.golden_fleece;
        j["hero_seat"] = s.hero_seat >= 0 ? json(s.hero_seat) : json(nullptr);
    }
    if (s.clock == "realtime")
        j["clock"] = {{"kind", "realtime"},
                      {"base_seconds", s.base_seconds},
                      {"increment_seconds", s.increment_seconds}};
    else if (s.clock == "turn")
        j["clock"] = {{"kind", "turn"}, {"hours_per_move", s.hours_per_move}};
    else
        j["clock"] = {{"kind", "none"}};
    j["public"] = s.is_public;
    return j;
}

std::variant<santorini::Settings, std::string> engine_settings(const LobbySettings& s,
                                                               std::uint64_t seed, int challenger) {
    santorini::Settings st;
    st.players = s.players;
    st.golden_fleece = s.golden_fleece;
    st.challenger = challenger;
    st.start_player = -1;  // the challenger names it, as a step of the game
    st.seed = seed;
    st.confirm_turns = s.confirm_turns;
    st.hero_seat = s.hero_seat;
    if (s.powers == "none") {
        st.draft = santorini::DraftMode::None;
    } else {
        if (s.draft == "random")
            st.draft = santorini::DraftMode::Random;
        else if (s.draft == "subset")
            st.draft = santorini::DraftMode::SubsetOffer;
        else if (s.draft == "full")
            st.draft = santorini::DraftMode::FullOffer;
        else
            return "unknown draft \"" + s.draft + "\"";

        if (s.powers == "custom") {
            st.pool = s.pool;
        } else {
            auto wanted = [&](PowerCategory c) {
                // The handicap game's pool holds the gods asked for and every hero (first:
                // "simple" would otherwise leave the heroes out).
                if (s.hero_seat >= 0 && c == PowerCategory::Hero) return true;
                if (s.powers == "simple") return c == PowerCategory::Simple;
                if (s.powers == "all") return c != PowerCategory::Hero;
                if (s.powers == "heroes") return c == PowerCategory::Hero;
                return false;
            };
            if (s.powers != "simple" && s.powers != "all" && s.powers != "heroes")
                return "unknown powers \"" + s.powers + "\"";
            for (PowerId p : santorini::eligible_powers(s.players, s.golden_fleece))
                if (wanted(santorini::power_info(p).category)) st.pool.push_back(p);
        }
        // An empty pool means "every eligible power" to the engine; here it means none is
        // playable yet (heroes today), which must be refused rather than widened.
        if (st.pool.empty()) {
            const std::string what = s.powers == "heroes"   ? "hero"
                                     : s.powers == "simple" ? "simple god"
                                                            : "power";
            return "no " + what + " is playable yet with these settings";
        }
        const bool has_hero = std::any_of(st.pool.begin(), st.pool.end(), [](PowerId p) {
            return santorini::power_info(p).category == PowerCategory::Hero;
        });
        if (s.hero_seat >= 0 && s.powers != "custom" && !has_hero)
            return "no hero is playable yet with these settings";
    }
    if (auto e = santorini::validate(st)) return *e;
    return st;
}

}  // namespace protocol
