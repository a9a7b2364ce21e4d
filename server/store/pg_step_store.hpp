#pragma once
// The PostgreSQL StepStore, with group commit.
//
// Appends, match creations and aborts from any thread go into one queue. One writer thread,
// with its own connection, takes everything that arrived within `window` of the oldest waiting
// request (or `max_batch` of them) and commits it in one transaction: the creations (one
// INSERT for the matches, one for their seats), one INSERT of all the steps, the finish of any
// match whose last step is among them, the aborts, then COMMIT; only then is each done called.
// While a commit runs, new appends gather for the next one, so under load a transaction carries
// many steps and the fsync per commit is shared (docs/storage.md, docs/benchmarks.md).
//
// When the database is unreachable, appends answer done(false) at once (inline, on the caller's
// thread), every queued append is failed, and the writer reconnects by itself, with backoff,
// until the database is back. Nothing is ever acknowledged that has not committed: a commit
// whose outcome is unknown (the connection died during COMMIT) answers false, and a retry of
// the identical record then answers true. A record that cannot be stored (another step under
// its number, an unknown match, a finish that fails) answers false without failing the others
// stored with it: a failed group is retried one record per transaction.

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "server/match/step_store.hpp"

namespace store {

/// How a PgStepStore connects and groups.
struct PgStepStoreOptions {
    std::string url;                              ///< libpq connection string or URI
    std::chrono::microseconds window{300};        ///< how long an append may wait for company
    std::size_t max_batch = 1000;                 ///< at most this many records per transaction
    std::chrono::milliseconds min_backoff{50};    ///< first wait between reconnect attempts
    std::chrono::milliseconds max_backoff{2000};  ///< the wait doubles up to this
    /// A commit still running after this long counts as an outage: new appends fail at once.
    std::chrono::milliseconds stall_timeout{2000};
    /// A fleet node's id (docs/scaling.md); empty: a single node, no fencing. With it, a match
    /// created here is stored with owner_node = node and a lease of `lease` from now, and a
    /// step is stored only while its match's owner_node is this node (read FOR SHARE in the
    /// step's transaction): a step of a match taken over by another node answers false.
    std::string node{};  // {}: designated initializers may leave it out (-Wmissing-field-initializers)
    std::chrono::milliseconds lease{10000};
};

/// Counters, for tests, metrics and the benchmark.
struct PgStepStoreStats {
    std::uint64_t transactions = 0;  ///< committed group transactions
    std::uint64_t stored = 0;        ///< requests (appends, creations, aborts) answered true
    std::uint64_t failed = 0;        ///< requests answered false
    std::uint64_t connects = 0;      ///< successful (re)connections of the writer
};

/// StepStore on PostgreSQL (the `steps` table of migrations/0001_initial.sql).
class PgStepStore final : public server::StepStore {
  public:
    /// Starts the writer thread, which connects in the background; appends made before the
    /// first connection attempt has finished wait for it.
    explicit PgStepStore(PgStepStoreOptions options);
    /// Stores what is queued (if the database is up; fails it otherwise), then stops the writer.
    /// Every done has been called when it returns.
    ~PgStepStore() override;
    PgStepStore(const PgStepStore&) = delete;
    PgStepStore& operator=(const PgStepStore&) = delete;

    /// Queues `record`; see StepStore::append. `done` runs on the writer thread, or inline when
    /// the database is known to be down. It must not block for long (it delays other commits).
    void append(server::StepRecord record, std::function<void(bool stored)> done) override;
    /// Queues the creation of `match` and its seats; see StepStore::create. It commits in the
    /// group it lands in, before that group's steps; `done` runs as append's does.
    void create(server::MatchCreation match, std::function<void(bool stored)> done) override;
    /// Queues the abort of a live match without a final step; see StepStore::abort. It commits
    /// after the steps of its group; `done` runs as append's does.
    void abort(std::string match_id, std::int64_t at_ms,
               std::function<void(bool stored)> done) override;

    /// Queues a chat line; see StepStore::chat. It commits in the group it lands in, after
    /// that group's steps; `done` runs as append's does.
    void chat(server::ChatRecord record, std::function<void(bool stored)> done) override;

    /// True while the writer is connected (a "temporarily unavailable" answer otherwise).
    bool available() const;
    /// Waits until available(), at most `timeout`; returns available().
    bool wait_available(std::chrono::milliseconds timeout) const;
    /// The counters so far.
    PgStepStoreStats stats() const;

    struct Impl;

  private:
    std::unique_ptr<Impl> impl_;
};

}  // namespace store
