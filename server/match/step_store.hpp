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

/// One chat line, as it will be stored (docs/protocol.md, "Chat").
struct ChatRecord {
    std::string match_id;
    std::uint64_t number = 0;  ///< 1, 2, ... within the match, both channels together
    std::string channel;       ///< "players" or "spectators"
    std::string player_id;     ///< who wrote it
    int seat = -1;             ///< their seat, -1 for a spectator
    std::string name;          ///< their display name when they wrote it
    std::string text;
    std::int64_t at_ms = 0;
};

/// A seat of a match to create.
struct SeatCreation {
    int seat = 0;
    std::string player_id;
    std::string power;        ///< "" without powers
    std::optional<int> team;  ///< none when nobody plays in teams
};

/// A match to create, live from the start, with its seats (the row its steps refer to).
struct MatchCreation {
    std::string id;  ///< "m_..."
    std::string game = "santorini";
    std::string settings_json;  ///< whatever the server needs to rebuild the game (with the seed)
    std::uint64_t seed = 0;
    std::string owner_node;  ///< "" when unset
    std::string state_hash;  ///< hash of the initial state ("": none)
    std::int64_t created_at_ms = 0;
    std::vector<SeatCreation> seats;
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
    /// Stores a new live match and its seats, in the same ordered pipeline as the steps: a
    /// creation is committed no later than any step appended after it, so a match's first step
    /// may be appended as soon as `done(true)` came (or even before, on the same store).
    /// `done(false)`: not stored (a taken id, an unknown player, the database unreachable).
    /// The default keeps nothing and answers true (stores that keep no matches: test fakes).
    virtual void create(MatchCreation, std::function<void(bool stored)> done) { done(true); }
    /// Ends a live match that has no final step (made, but never played) as aborted, at `at_ms`.
    /// `done(false)` when it could not be stored, or when no live match has this id. The
    /// default keeps nothing and answers true.
    virtual void abort(std::string /*match_id*/, std::int64_t /*at_ms*/,
                       std::function<void(bool stored)> done) {
        done(true);
    }
    /// Stores a chat line; `done(false)` when it could not be (nobody must be shown it then).
    /// The default keeps nothing and answers true (the chat lives in memory only).
    virtual void chat(ChatRecord, std::function<void(bool stored)> done) { done(true); }
};

/// Keeps nothing beyond the process: acknowledges appends, creations and aborts at once.
class MemoryStepStore final : public StepStore {
  public:
    void append(StepRecord, std::function<void(bool)> done) override { done(true); }
};

}  // namespace server
