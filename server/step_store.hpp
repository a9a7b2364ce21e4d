#pragma once
// Where a match's steps become durable before anyone is told about them (DESIGN.md,
// "Durability"). In memory for now; the PostgreSQL store implements the same interface.

#include <cstdint>
#include <functional>
#include <string>

namespace server {

/// One accepted step, as it will be stored.
struct StepRecord {
    std::string match_id;
    std::uint32_t number = 0;    ///< 1, 2, ... within the match
    std::string player_id;       ///< who played it ("" for the server: timeouts)
    std::string step_json;       ///< the step as protocol JSON
    std::int64_t at_ms = 0;      ///< wall-clock time, ms since the epoch
};

/// Appends steps durably. `done(true)` is called once the record is stored (possibly on
/// another thread: callers post back to their own strand); `done(false)` if it could not be,
/// in which case the step must not be acknowledged.
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
