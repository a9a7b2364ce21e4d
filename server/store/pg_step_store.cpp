#include "server/store/pg_step_store.hpp"

#include <atomic>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "server/store/pg.hpp"

namespace store {

using server::MatchFinish;
using server::RatingValue;
using server::StepRecord;
using Clock = std::chrono::steady_clock;

namespace {

struct Pending {
    StepRecord record;
    std::function<void(bool)> done;
    Clock::time_point arrived;
};

// A record whose own content cannot be stored (not an outage): fails that record alone.
struct RecordError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

const char* const insert_steps = "insert_steps";
const char* const same_step = "same_step";
const char* const finish_match = "finish_match";
const char* const lock_players = "lock_players";
const char* const seat_ratings = "seat_ratings";
const char* const put_rating = "put_rating";
const char* const add_history = "add_history";
const char* const set_seat_ratings = "set_seat_ratings";

void prepare(pqxx::connection& c) {
    c.prepare(insert_steps,
              "INSERT INTO steps (match_id, number, player_id, step, at, state_hash) "
              "SELECT m, n, p, s, " +
                  pg::ms_to_timestamp("t") +
                  ", h "
                  "FROM unnest($1::text[], $2::int[], $3::text[], $4::jsonb[], $5::bigint[], "
                  "$6::text[]) AS u(m, n, p, s, t, h) "
                  "ON CONFLICT (match_id, number) DO NOTHING "
                  "RETURNING match_id, number");
    c.prepare(same_step,
              "SELECT 1 FROM steps WHERE match_id = $1 AND number = $2 "
              "AND player_id IS NOT DISTINCT FROM $3 AND step = $4::jsonb");
    // Only a live match finishes: a retried last step finds it finished and changes nothing.
    c.prepare(finish_match, "UPDATE matches SET status = $2, result = $3::jsonb, finished_at = " +
                                pg::ms_to_timestamp("$4") +
                                ", state_hash = coalesce($5, state_hash) "
                                "WHERE id = $1 AND status = 'live'");
    // Rating updates of one player are serialized by locking the player's row.
    c.prepare(lock_players,
              "SELECT p.id FROM players p JOIN seats s ON s.player_id = p.id "
              "WHERE s.match_id = $1 ORDER BY p.id FOR UPDATE OF p");
    c.prepare(seat_ratings,
              "SELECT s.seat, s.player_id, r.rating, r.deviation, r.volatility, r.games, " +
                  pg::timestamp_to_ms("r.last_rated_at") +
                  " FROM seats s LEFT JOIN ratings r ON r.player_id = s.player_id AND r.pool = $2 "
                  "WHERE s.match_id = $1 ORDER BY s.seat");
    c.prepare(put_rating,
              "INSERT INTO ratings (player_id, pool, rating, deviation, volatility, games, "
              "last_rated_at) VALUES ($1, $2, $3, $4, $5, $6, " +
                  pg::ms_to_timestamp("$7") +
                  ") "
                  "ON CONFLICT (player_id, pool) DO UPDATE SET rating = excluded.rating, "
                  "deviation = excluded.deviation, volatility = excluded.volatility, "
                  "games = excluded.games, last_rated_at = excluded.last_rated_at");
    c.prepare(add_history,
              "INSERT INTO rating_history (player_id, pool, match_id, rating, deviation, "
              "volatility, at) VALUES ($1, $2, $3, $4, $5, $6, " +
                  pg::ms_to_timestamp("$7") + ")");
    c.prepare(set_seat_ratings,
              "UPDATE seats SET rating_before = $3, rating_after = $4 "
              "WHERE match_id = $1 AND seat = $2");
}

bool is_finite_rating(const RatingValue& r) {
    return r.rated && r.deviation > 0 && r.volatility > 0 && r.games >= 0 && r.rating == r.rating;
}

// The end of a match and its rating update, inside the transaction of its last step.
void apply_finish(pqxx::work& w, const StepRecord& rec) {
    const MatchFinish& f = *rec.finish;
    if (f.status != "finished" && f.status != "aborted")
        throw RecordError("a match ends as finished or aborted, not '" + f.status + "'");
    auto updated = w.exec_prepared(finish_match, rec.match_id, f.status,
                                   f.result_json.empty() ? std::string("null") : f.result_json,
                                   rec.at_ms, pg::nullable(f.state_hash));
    if (updated.affected_rows() == 0) return;  // already over: this is a retry of the last step
    if (f.pool.empty() || !f.rate) return;
    w.exec_prepared(lock_players, rec.match_id);
    std::vector<RatingValue> before;
    std::vector<std::pair<int, std::string>> seats;
    for (const auto& row : w.exec_prepared(seat_ratings, rec.match_id, f.pool)) {
        seats.emplace_back(row[0].as<int>(), row[1].as<std::string>());
        RatingValue v;
        if (!row[2].is_null()) {
            v.rated = true;
            v.rating = row[2].as<double>();
            v.deviation = row[3].as<double>();
            v.volatility = row[4].as<double>();
            v.games = row[5].as<int>();
            v.last_rated_at_ms = row[6].is_null() ? 0 : row[6].as<std::int64_t>();
        }
        before.push_back(v);
    }
    std::vector<RatingValue> after;
    try {
        after = f.rate(before, rec.at_ms);
    } catch (const std::exception& e) {
        throw RecordError(std::string("the rating update failed: ") + e.what());
    }
    if (after.size() != before.size())
        throw RecordError("the rating update gave " + std::to_string(after.size()) +
                          " ratings for " + std::to_string(before.size()) + " seats");
    for (std::size_t i = 0; i < after.size(); ++i) {
        const RatingValue& a = after[i];
        if (!is_finite_rating(a)) throw RecordError("the rating update gave an invalid rating");
        const auto& [seat, player] = seats[i];
        w.exec_prepared(put_rating, player, f.pool, a.rating, a.deviation, a.volatility, a.games,
                        rec.at_ms);
        w.exec_prepared(add_history, player, f.pool, rec.match_id, a.rating, a.deviation,
                        a.volatility, rec.at_ms);
        if (before[i].rated)
            w.exec_prepared(set_seat_ratings, rec.match_id, seat, before[i].rating, a.rating);
        else
            w.exec_prepared(set_seat_ratings, rec.match_id, seat, nullptr, a.rating);
    }
}

}  // namespace

struct PgStepStore::Impl {
    enum class State { Connecting, Up, Down };

    explicit Impl(PgStepStoreOptions o) : options(std::move(o)) {}

    const PgStepStoreOptions options;

    mutable std::mutex mutex;
    mutable std::condition_variable wake;     // the writer: new work or stop
    mutable std::condition_variable changed;  // wait_available
    std::deque<Pending> queue;
    State state = State::Connecting;
    bool stopping = false;
    Clock::time_point busy_since{};  // when the running commit began; {} when idle

    std::atomic<std::uint64_t> transactions{0}, stored{0}, failed{0}, connects{0};

    std::unique_ptr<pqxx::connection> connection;  // the writer's only
    std::thread writer;

    void answer(std::vector<Pending>& batch, const std::vector<bool>& ok) {
        for (std::size_t i = 0; i < batch.size(); ++i) {
            (ok[i] ? stored : failed)++;
            if (batch[i].done) batch[i].done(ok[i]);
        }
    }

    void fail(std::vector<Pending>& batch) {
        answer(batch, std::vector<bool>(batch.size(), false));
    }

    // Takes the whole queue (under the lock).
    std::vector<Pending> take_all() {
        std::vector<Pending> out(std::make_move_iterator(queue.begin()),
                                 std::make_move_iterator(queue.end()));
        queue.clear();
        return out;
    }

    void set_state(State s) {
        std::vector<Pending> dropped;
        {
            std::lock_guard lock(mutex);
            state = s;
            if (s == State::Down) dropped = take_all();
        }
        changed.notify_all();
        fail(dropped);
    }

    bool connect() {
        try {
            auto c = std::make_unique<pqxx::connection>(options.url);
            prepare(*c);
            connection = std::move(c);
            ++connects;
            set_state(State::Up);
            return true;
        } catch (const std::exception&) {
            connection.reset();
            set_state(State::Down);
            return false;
        }
    }

    // One transaction for the whole batch. Returns each record's answer; throws on a lost
    // connection (pg::connection_lost) and RecordError/sql_error when one record spoils it.
    std::vector<bool> commit(const std::vector<Pending>& batch) {
        std::vector<const std::string*> ids, players, steps, hashes;
        std::vector<std::int64_t> numbers, times;
        for (const auto& p : batch) {
            ids.push_back(&p.record.match_id);
            numbers.push_back(p.record.number);
            players.push_back(&p.record.player_id);
            steps.push_back(&p.record.step_json);
            times.push_back(p.record.at_ms);
            hashes.push_back(&p.record.state_hash);
        }
        pqxx::work w(*connection);
        auto inserted_rows =
            w.exec_prepared(insert_steps, pg::text_array(ids, false), pg::int_array(numbers),
                            pg::text_array(players, true), pg::text_array(steps, false),
                            pg::int_array(times), pg::text_array(hashes, true));
        std::set<std::pair<std::string, std::int64_t>> inserted;
        for (const auto& row : inserted_rows)
            inserted.emplace(row[0].as<std::string>(), row[1].as<std::int64_t>());
        std::vector<bool> ok(batch.size(), true);
        for (std::size_t i = 0; i < batch.size(); ++i) {
            const StepRecord& r = batch[i].record;
            // Inserted by this statement: only the first of two equal keys in one batch was.
            if (inserted.erase({r.match_id, r.number})) continue;
            ok[i] = !w.exec_prepared(same_step, r.match_id, r.number, pg::nullable(r.player_id),
                                     r.step_json)
                         .empty();
        }
        for (std::size_t i = 0; i < batch.size(); ++i)
            if (ok[i] && batch[i].record.finish) apply_finish(w, batch[i].record);
        w.commit();
        ++transactions;
        return ok;
    }

    // Stores `batch`, answers every record. Returns false when the connection was lost.
    bool store(std::vector<Pending>& batch) {
        try {
            auto ok = commit(batch);
            answer(batch, ok);
            return true;
        } catch (const std::exception& e) {
            if (pg::connection_lost(e) || !connection->is_open()) {
                fail(batch);
                return false;
            }
        }
        // One record spoiled the group: store each alone, so only that one fails.
        for (auto& p : batch) {
            std::vector<Pending> one;
            one.push_back(std::move(p));
            try {
                auto ok = commit(one);
                answer(one, ok);
            } catch (const std::exception& e) {
                fail(one);
                if (pg::connection_lost(e) || !connection->is_open()) return false;
            }
        }
        return true;
    }

    void run() {
        auto backoff = options.min_backoff;
        for (;;) {
            if (!connection) {
                if (!connect()) {
                    std::unique_lock lock(mutex);
                    if (stopping) break;
                    wake.wait_for(lock, backoff, [&] { return stopping; });
                    if (stopping) break;
                    backoff = std::min(backoff * 2, options.max_backoff);
                    continue;
                }
                backoff = options.min_backoff;
            }
            std::vector<Pending> batch;
            {
                std::unique_lock lock(mutex);
                wake.wait(lock, [&] { return stopping || !queue.empty(); });
                if (queue.empty()) break;  // stopping, nothing left
                // Wait for company: until the oldest has waited `window`, or the batch is full.
                const auto deadline = queue.front().arrived + options.window;
                wake.wait_until(lock, deadline,
                                [&] { return stopping || queue.size() >= options.max_batch; });
                const std::size_t n = std::min(queue.size(), options.max_batch);
                for (std::size_t i = 0; i < n; ++i) {
                    batch.push_back(std::move(queue.front()));
                    queue.pop_front();
                }
                busy_since = Clock::now();
            }
            const bool connected = store(batch);
            {
                std::lock_guard lock(mutex);
                busy_since = {};
            }
            if (!connected) {
                connection.reset();
                set_state(State::Down);  // fails everything queued meanwhile
                // Try again at once: often only this connection was lost, not the server.
            }
        }
        std::vector<Pending> left;
        {
            std::lock_guard lock(mutex);
            left = take_all();
        }
        fail(left);
        connection.reset();
    }
};

PgStepStore::PgStepStore(PgStepStoreOptions options)
    : impl_(std::make_unique<Impl>(std::move(options))) {
    impl_->writer = std::thread([impl = impl_.get()] { impl->run(); });
}

PgStepStore::~PgStepStore() {
    {
        std::lock_guard lock(impl_->mutex);
        impl_->stopping = true;
    }
    impl_->wake.notify_all();
    impl_->writer.join();
}

void PgStepStore::append(server::StepRecord record, std::function<void(bool)> done) {
    std::vector<Pending> failing;
    {
        std::lock_guard lock(impl_->mutex);
        const auto now = Clock::now();
        const bool stalled = impl_->busy_since != Clock::time_point{} &&
                             now - impl_->busy_since > impl_->options.stall_timeout;
        if (impl_->stopping || impl_->state == Impl::State::Down || stalled) {
            // Known down: answer now rather than keep the caller waiting for a reconnect.
            if (stalled) failing = impl_->take_all();
            failing.push_back(Pending{std::move(record), std::move(done), now});
        } else {
            impl_->queue.push_back(Pending{std::move(record), std::move(done), now});
            if (impl_->queue.size() == 1 || impl_->queue.size() >= impl_->options.max_batch)
                impl_->wake.notify_one();
            return;
        }
    }
    impl_->fail(failing);
}

bool PgStepStore::available() const {
    std::lock_guard lock(impl_->mutex);
    return impl_->state == Impl::State::Up;
}

bool PgStepStore::wait_available(std::chrono::milliseconds timeout) const {
    std::unique_lock lock(impl_->mutex);
    return impl_->changed.wait_for(lock, timeout, [&] { return impl_->state == Impl::State::Up; });
}

PgStepStoreStats PgStepStore::stats() const {
    return {impl_->transactions.load(), impl_->stored.load(), impl_->failed.load(),
            impl_->connects.load()};
}

}  // namespace store
