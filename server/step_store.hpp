#pragma once
// Where a match's steps become durable before anyone is told about them (DESIGN.md,
// "Durability"). MemoryStepStore keeps nothing (unit tests); store::PgStepStore (server/store/)
// is the PostgreSQL one.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace server {

/// A player's rating in one pool (Glicko scale: 1500 / 350), as the store keeps it.
struct RatingValue {
    bool rated = false;  ///< false: no rating in this pool yet (the other fields are 0)
    double rating = 0;
    double deviation = 0;
    double volatility = 0;
    int games = 0;                      ///< rated games in this pool
    std::int64_t last_rated_at_ms = 0;  ///< 0 when never rated
};

/// What a match's last step commits together with it, in the same transaction: the result,
/// and the rating update of every seat (DESIGN.md: "A finished match's rating update commits in
/// the same transaction as its last action").
struct MatchFinish {
    std::string status = "finished";  ///< "finished" or "aborted"
    std::string result_json;          ///< the result as JSON ("null" for an abort)
    std::string state_hash;           ///< the final state's hash ("": none)
    std::string pool;                 ///< the rating pool; "" when the match is not rated
    /// Only for a rated match: given every seat's current rating in `pool` (in seat order, read
    /// and locked inside the transaction, so two matches of one player cannot lose an update),
    /// returns every seat's new rating in the same order. Runs on the store's thread: it must be
    /// quick and must not block. Throwing, or a vector of the wrong size, fails the append.
    std::function<std::vector<RatingValue>(const std::vector<RatingValue>& before,
                                           std::int64_t now_ms)>
        rate;
};

/// One accepted step, as it will be stored.
struct StepRecord {
    std::string match_id;
    std::uint32_t number = 0;           ///< 1, 2, ... within the match
    std::string player_id;              ///< who played it ("" for the server: timeouts)
    std::string step_json;              ///< the step as protocol JSON
    std::int64_t at_ms = 0;             ///< wall-clock time, ms since the epoch
    std::string state_hash;             ///< hash of the state after this step ("": not checked)
    std::optional<MatchFinish> finish;  ///< set on the match's last step only
};

/// Appends steps durably. `done(true)` is called once the record is stored (possibly on
/// another thread, or inline when the answer is already known: callers post back to their own
/// strand); `done(false)` if it could not be, in which case the step must not be acknowledged.
/// Appending a record identical to one already stored (same match, number, player and step)
/// answers true: a retry after an uncertain failure is safe. A different record under a number
/// already taken answers false. With `finish`, the step is stored only together with the end of
/// the match and its rating update, or none of them is.
class StepStore {
  public:
    virtual ~StepStore() = default;
    virtual void append(StepRecord record, std::function<void(bool stored)> done) = 0;
};

/// Keeps nothing beyond the process: acknowledges at once (until PostgreSQL arrives).
class MemoryStepStore final : public StepStore {
  public:
    void append(StepRecord, std::function<void(bool)> done) override { done(true); }
};

}  // namespace server
