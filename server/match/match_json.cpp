#include "server/match/match_json.hpp"

#include "server/match/match.hpp"
#include "server/bots/bot_players.hpp"

#include <cstdio>
#include <ctime>

#include "protocol/json_text.hpp"
#include "server/rating/rating.hpp"

namespace server {

using nlohmann::json;

namespace {

json parsed_or_null(const std::string& text) {
    if (text.empty()) return nullptr;
    json value = json::parse(text, nullptr, false);
    return value.is_discarded() ? json(nullptr) : value;
}

// The game's own members of `seat` in `view` (Game::write_seat) as a JSON object.
json seat_members(const protocol::Game& game, const protocol::GameView& view, int seat) {
    std::string text;
    protocol::JsonText out(text);
    out.begin_object();
    game.write_seat(view, seat, out);
    out.end_object();
    return json::parse(text);
}

// {rating, deviation} before and after a rated game; null when the seat was not rated.
std::pair<json, json> seat_ratings(const store::StoredSeat& seat) {
    if (!seat.rating_after) return {nullptr, nullptr};
    const rating::Parameters initial;
    json before = {{"rating", seat.rating_before.value_or(initial.initial_rating)},
                   {"deviation", seat.deviation_before.value_or(initial.initial_deviation)}};
    json after = {{"rating", *seat.rating_after},
                  {"deviation", seat.deviation_after ? json(*seat.deviation_after) : json(nullptr)}};
    return {std::move(before), std::move(after)};
}

rating::Rating rating_of(const RatingValue& v) {
    return rating::Rating{v.rating, v.deviation, v.volatility, v.last_rated_at_ms, v.games};
}

// The stored record's JSON, or of a secret step of a live match what spectators may read.
json step_shown(const store::StoredStep& step, protocol::Readable readable) {
    return protocol::readable_part(parsed_or_null(step.step_json), readable);
}

// A seat's player as the protocol shows one: {id, name}, and `bot` for a computer player.
json player_json(const store::StoredSeat& seat) {
    json player = {{"id", seat.player_id}, {"name", seat.display_name}};
    if (auto level = bot_level_of(seat.player_id)) player["bot"] = {{"level", *level}};
    return player;
}

}  // namespace

json iso8601(std::int64_t ms) {
    if (ms == 0) return nullptr;
    const std::time_t seconds = static_cast<std::time_t>(ms >= 0 ? ms / 1000 : (ms - 999) / 1000);
    const int millis = static_cast<int>(ms - static_cast<std::int64_t>(seconds) * 1000);
    std::tm utc{};
    gmtime_r(&seconds, &utc);
    char text[64];  // room for any int the compiler cannot rule out
    std::snprintf(text, sizeof text, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", utc.tm_year + 1900,
                  utc.tm_mon + 1, utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec, millis);
    return std::string(text);
}

bool is_live(const store::StoredMatch& match) {
    return match.status == "live";
}

json match_pool(const store::StoredMatch& match) {
    auto settings = read_stored_settings(match.settings_json);
    if (std::holds_alternative<std::string>(settings)) return nullptr;
    const auto& lobby = std::get<StoredSettings>(settings).lobby;
    if (!lobby.rated) return nullptr;  // a casual match counts in no pool
    return rating_pool(lobby);
}

namespace {

// Why a match that ended changed no rating (docs/ratings.md): "casual", "aborted", or the store's
// reason ("farming_cap", merged into the result); null when it was rated, or is still live.
json unrated_reason(const store::StoredMatch& match, const json& pool, const json& result) {
    if (is_live(match)) return nullptr;
    if (pool.is_null()) return "casual";
    if (match.status == "aborted") return "aborted";
    if (result.is_object() && result.contains("unrated") && result["unrated"].is_string())
        return result["unrated"];
    return nullptr;
}

}  // namespace

std::unique_ptr<protocol::GameView> shown_view(const store::StoredMatch& match,
                                               const protocol::Game& game) {
    return game.view(is_live(match) ? protocol::spectators : protocol::revealed, false);
}

json match_header(const store::StoredMatch& match, const protocol::Game* final_game) {
    std::unique_ptr<protocol::GameView> shown;
    if (final_game) shown = shown_view(match, *final_game);
    json seats = json::array();
    for (const store::StoredSeat& seat : match.seats) {
        json power = seat.power.empty() ? json(nullptr) : json(seat.power);
        json points = nullptr;  // games that score (Splendor): as the shown view has them
        if (shown && seat.seat >= 0 && seat.seat < final_game->seat_count()) {
            json members = seat_members(*final_game, *shown, seat.seat);
            if (members.contains("power")) power = std::move(members["power"]);
            if (members.contains("points")) points = std::move(members["points"]);
        }
        auto [before, after] = seat_ratings(seat);
        json entry = {{"seat", seat.seat},
                      {"team", seat.team ? json(*seat.team) : json(nullptr)},
                      {"player", player_json(seat)},
                      {"power", std::move(power)},
                      {"rating_before", std::move(before)},
                      {"rating_after", std::move(after)}};
        if (!points.is_null()) entry["points"] = std::move(points);
        seats.push_back(std::move(entry));
    }
    const json settings = parsed_or_null(match.settings_json);
    json result = is_live(match) ? json(nullptr) : parsed_or_null(match.result_json);
    json pool = match_pool(match);
    json unrated = unrated_reason(match, pool, result);
    const bool rated = !is_live(match) && unrated.is_null();
    return {{"id", match.id},
            {"game", match.game},
            {"status", match.status},
            {"live", is_live(match)},
            {"settings", settings.is_object() ? settings.value("lobby", json()) : json(nullptr)},
            {"created_at", iso8601(match.created_at_ms)},
            {"finished_at", iso8601(match.finished_at_ms)},
            {"seats", std::move(seats)},
            {"result", std::move(result)},
            {"pool", std::move(pool)},
            {"rated", rated},
            {"unrated", std::move(unrated)},
            {"steps", match.step_count}};
}

json replay_json(const store::StoredMatch& match, const ReplayPosition* replayed) {
    const bool live = is_live(match);
    json steps = json::array();
    for (std::size_t i = 0; i < match.steps.size(); ++i) {
        const store::StoredStep& step = match.steps[i];
        const bool known = replayed && i < replayed->seats.size();
        json seat = nullptr;
        if (known) {
            seat = replayed->seats[i];
        } else {
            const json value = parsed_or_null(step.step_json);
            if (value.is_object() && value.contains("seat") && value["seat"].is_number_integer())
                seat = value["seat"];
            else
                for (const store::StoredSeat& s : match.seats)
                    if (s.player_id == step.player_id) seat = s.seat;
        }
        // While live, a step shows what spectators may read of it; a step the replay could not
        // place shows only its kind (it cannot be judged safe).
        const protocol::Readable readable = !live ? protocol::Readable::Whole
                                            : known ? replayed->by_spectators[i]
                                                    : protocol::Readable::Kind;
        steps.push_back({{"number", step.number},
                         {"seat", std::move(seat)},
                         {"player", step.player_id.empty() ? json(nullptr) : json(step.player_id)},
                         {"step", step_shown(step, readable)},
                         {"at", iso8601(step.at_ms)}});
    }
    // The chat of a finished match, both channels (docs/api.md "Replay"); while the match is
    // live its players and spectators read their own channels in the live views only.
    json chat = json::array();
    if (!live)
        for (const server::ChatRecord& line : match.chat)
            chat.push_back({{"n", line.number},
                            {"channel", line.channel},
                            {"seat", line.seat >= 0 ? json(line.seat) : json(nullptr)},
                            {"player", line.player_id},
                            {"name", line.name},
                            {"text", line.text},
                            {"at_ms", line.at_ms}});
    return {{"match", match_header(match, replayed ? replayed->game.get() : nullptr)},
            {"steps", std::move(steps)},
            {"chat", std::move(chat)}};
}

json view_after_json(const store::StoredMatch& match, const ReplayPosition& at) {
    const bool live = is_live(match);
    const protocol::Game& game = *at.game;
    const std::unique_ptr<protocol::GameView> seen = shown_view(match, game);
    const bool last = at.records == match.steps.size();
    json seats = json::array();
    for (const store::StoredSeat& seat : match.seats) {
        // A stored seat the game does not have (a damaged row) shows only who sat there.
        json entry = seat.seat >= 0 && seat.seat < game.seat_count()
                         ? seat_members(game, *seen, seat.seat)
                         : json::object();
        entry["seat"] = seat.seat;
        entry["player"] = player_json(seat);
        seats.push_back(std::move(entry));
    }
    std::string state_text;
    protocol::JsonText state_out(state_text);
    game.write_state(*seen, state_out);
    std::string status = at.aborted ? "aborted" : std::string(game.status());
    if (last && !live) status = match.status;  // an abort without a record (recovery_failed)
    return {{"match", match.id},
            {"game", match.game},
            {"status", status},
            {"seats", std::move(seats)},
            {"result", last && !live ? parsed_or_null(match.result_json) : json(nullptr)},
            {"history", live ? at.spectator_history : at.revealed_history},
            {"state", json::parse(state_text)}};
}

bool established(const RatingValue& value, std::int64_t now_ms) {
    return value.rated && !rating::provisional(rating_of(value), now_ms);
}

json pool_rating_json(const store::PoolRating& r, std::int64_t now_ms) {
    const rating::Rating now = rating::at(rating_of(r.value), now_ms);
    return {{"pool", r.pool},
            {"rating", now.rating},
            {"deviation", now.deviation},
            {"volatility", now.volatility},
            {"games", r.value.games},
            {"provisional", !established(r.value, now_ms)}};
}

json player_json(const store::Player& player, const std::vector<store::PoolRating>& ratings,
                 const std::vector<store::StoredMatch>& recent, std::int64_t now_ms) {
    json pools = json::array();
    for (const auto& r : ratings) pools.push_back(pool_rating_json(r, now_ms));
    json matches = json::array();
    for (const auto& m : recent) matches.push_back(match_header(m));
    return {{"id", player.id},
            {"name", player.display_name},
            {"created_at", iso8601(player.created_at_ms)},
            {"ratings", std::move(pools)},
            {"recent_matches", std::move(matches)}};
}

json rating_history_json(const std::string& player_id, const std::string& pool,
                         const std::vector<store::RatingChange>& newest_first) {
    json history = json::array();
    for (auto it = newest_first.rbegin(); it != newest_first.rend(); ++it)
        history.push_back({{"rating", it->rating},
                           {"deviation", it->deviation},
                           {"volatility", it->volatility},
                           {"match", it->match_id},
                           {"at", iso8601(it->at_ms)}});
    return {{"player", player_id}, {"pool", pool}, {"history", std::move(history)}};
}

json leaderboard_json(const std::string& pool, const std::vector<store::LeaderboardEntry>& entries,
                      std::int64_t now_ms) {
    json lines = json::array();
    for (const auto& e : entries) {
        const rating::Rating now = rating::at(rating_of(e.value), now_ms);
        lines.push_back({{"rank", e.rank},
                         {"player", {{"id", e.player_id}, {"name", e.display_name}}},
                         {"rating", now.rating},
                         {"deviation", now.deviation},
                         {"games", e.value.games}});
    }
    return {{"pool", pool}, {"entries", std::move(lines)}};
}

}  // namespace server
