#pragma once
// The anti-farming check of a match's rating update (server/rating/farming.hpp), inside the
// transaction of the match's last step (internal to the store: it includes <pqxx>).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <pqxx/pqxx>

namespace store {

/// Why the match ending at `at_ms` must not be rated in `pool`, or nullopt: "farming_cap" when
/// two of `players` have already had rating::rated_matches_per_pair rated matches together in
/// the pool within rating::farming_window_ms. Reads rating_history; the caller has locked the
/// players' rows, so two matches ending together are counted one after the other.
std::optional<std::string> unrated_reason(pqxx::work& w, const std::string& pool,
                                          const std::vector<std::string>& players,
                                          std::int64_t at_ms);

/// Records in the match's stored result that it was not rated and why
/// ({"rated": false, "unrated": reason} merged into the result object).
void mark_unrated(pqxx::work& w, const std::string& match_id, const std::string& reason);

}  // namespace store
