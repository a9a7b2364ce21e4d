#include "server/store/farming.hpp"

#include "server/rating/farming.hpp"
#include "server/store/pg.hpp"

namespace store {

std::optional<std::string> unrated_reason(pqxx::work& w, const std::string& pool,
                                          const std::vector<std::string>& players,
                                          std::int64_t at_ms) {
    const std::int64_t since = at_ms - rating::farming_window_ms;
    for (std::size_t i = 0; i < players.size(); ++i)
        for (std::size_t j = i + 1; j < players.size(); ++j) {
            if (players[i] == players[j]) continue;
            // Both players have a history row of the same match: they were rated together.
            const auto together = w.exec_params1(
                "SELECT count(*) FROM rating_history a JOIN rating_history b "
                "ON b.match_id = a.match_id AND b.player_id = $2 "
                "WHERE a.player_id = $1 AND a.pool = $3 AND a.at > " +
                    pg::ms_to_timestamp("$4"),
                players[i], players[j], pool, since);
            if (together[0].as<int>() >= rating::rated_matches_per_pair) return "farming_cap";
        }
    return std::nullopt;
}

void mark_unrated(pqxx::work& w, const std::string& match_id, const std::string& reason) {
    w.exec_params0(
        "UPDATE matches SET result = CASE WHEN jsonb_typeof(result) = 'object' THEN result "
        "ELSE '{}'::jsonb END || jsonb_build_object('rated', false, 'unrated', $2::text) "
        "WHERE id = $1",
        match_id, reason);
}

}  // namespace store
