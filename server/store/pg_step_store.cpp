#include "server/store/pg_step_store.hpp"

#include <atomic>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <unordered_set>
#include <variant>
#include <vector>

#include "server/store/farming.hpp"
#include "server/store/pg.hpp"
#include "server/store/stall_watch.hpp"

namespace store {

using server::ChatRecord;
using server::MatchCreation;
using server::MatchFinish;
using server::RatingValue;
using server::StepRecord;
using Clock = std::chrono::steady_clock;

namespace {

// A match that ends without a final step.
struct MatchAbort {
    std::string match_id;
    std::int64_t at_ms = 0;
};

// One queued request: a step, a creation, an abort or a chat line, answered by `done`.
struct Pending {
    std::variant<StepRecord, MatchCreation, MatchAbort, ChatRecord> record;
    std::function<void(bool)> done;
    Clock::time_point arrived;
};

// A record whose own content cannot be stored (not an outage): fails that record alone.
struct RecordError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

const char* const insert_matches = "insert_matches";
const char* const insert_seats = "insert_seats";
const char* const insert_steps = "insert_steps";
const char* const same_steps = "same_steps";
const char* const abort_matches = "abort_matches";
const char* const finish_match = "finish_match";
const char* const lock_players = "lock_players";
const char* const seat_ratings = "seat_ratings";
const char* const put_rating = "put_rating";
const char* const add_history = "add_history";
const char* const set_seat_ratings = "set_seat_ratings";
const char* const owned_matches = "owned_matches";
const char* const insert_chat = "insert_chat";

void prepare(pqxx::connection& c) {
    // A group's creations, all rows of a column in one array parameter. No ON CONFLICT: a
    // taken id fails the group, which is then retried one request at a time. $8 is a fleet
    // node's lease in ms (NULL on a single node): an owned match starts with a lease.
    c.prepare(insert_matches,
              "INSERT INTO matches (id, game, settings, seed, status, created_at, started_at, "
              "owner_node, state_hash, lease_until) SELECT i, g, s, d, 'live', " +
                  pg::ms_to_timestamp("t") + ", " + pg::ms_to_timestamp("t") +
                  ", o, h, CASE WHEN o IS NOT NULL THEN now() + $8::bigint * "
                  "interval '1 millisecond' END "
                  "FROM unnest($1::text[], $2::text[], $3::jsonb[], $4::bigint[], "
                  "$5::bigint[], $6::text[], $7::text[]) AS u(i, g, s, d, t, o, h)");
    // The fence of a fleet node: which of a group's matches it owns, their rows locked FOR
    // SHARE until the commit, so a claim (an UPDATE of the row) waits for the group and a group
    // after a claim sees the new owner. Locked in id order, as FleetStore::renew locks them.
    c.prepare(owned_matches,
              "SELECT id FROM matches WHERE id = ANY($1::text[]) AND owner_node = $2 "
              "ORDER BY id FOR SHARE");
    c.prepare(insert_seats,
              "INSERT INTO seats (match_id, seat, player_id, power, team, created_at) "
              "SELECT m, n, p, w, k, " +
                  pg::ms_to_timestamp("t") +
                  " FROM unnest($1::text[], $2::int[], $3::text[], $4::text[], $5::int[], "
                  "$6::bigint[]) AS u(m, n, p, w, k, t)");
    // Every plain step of a group in one statement. No RETURNING: when the count says all
    // rows went in (the usual case) nothing more is asked; otherwise same_steps tells which
    // records are stored as given (a retry, or the first of two equal keys in the group).
    c.prepare(insert_steps,
              "INSERT INTO steps (match_id, number, player_id, step, at, state_hash) "
              "SELECT m, n, p, s, " +
                  pg::ms_to_timestamp("t") +
                  ", h "
                  "FROM unnest($1::text[], $2::int[], $3::text[], $4::jsonb[], $5::bigint[], "
                  "$6::text[]) AS u(m, n, p, s, t, h) "
                  "ON CONFLICT (match_id, number) DO NOTHING");
    // The positions (1-based, in the arrays) of the records identical to the stored row.
    c.prepare(same_steps,
              "SELECT u.i FROM unnest($1::text[], $2::int[], $3::text[], $4::jsonb[]) "
              "WITH ORDINALITY AS u(m, n, p, s, i) JOIN steps st ON st.match_id = u.m "
              "AND st.number = u.n AND st.player_id IS NOT DISTINCT FROM u.p AND st.step = u.s");
    // A group's chat lines (docs/protocol.md, "Chat"); a retried line is already there.
    c.prepare(insert_chat,
              "INSERT INTO match_chat (match_id, number, channel, player_id, seat, name, text, at) "
              "SELECT m, n, c, p, s, w, x, " +
                  pg::ms_to_timestamp("t") +
                  " FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[], $5::int[], "
                  "$6::text[], $7::text[], $8::bigint[]) AS u(m, n, c, p, s, w, x, t) "
                  "ON CONFLICT (match_id, number) DO NOTHING");
    c.prepare(abort_matches,
              "UPDATE matches SET status = 'aborted', result = 'null'::jsonb, finished_at = " +
                  pg::ms_to_timestamp("u.t") +
                  " FROM unnest($1::text[], $2::bigint[]) AS u(i, t) "
                  "WHERE matches.id = u.i AND matches.status = 'live' RETURNING matches.id");
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
    // Anti-farming (docs/ratings.md): past the cap the match stays finished, but unrated.
    std::vector<std::string> players;
    for (const auto& seat : seats) players.push_back(seat.second);
    if (auto why = unrated_reason(w, f.pool, players, rec.at_ms)) return mark_unrated(w, rec.match_id, *why);
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
            auto c = std::make_unique<pqxx::connection>(
                pg::with_connect_timeout(options.url, std::chrono::seconds(2)));
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

    // One transaction for the whole batch: its creations, then its steps (one statement for
    // all), then the finishes among them, then its aborts. Returns each request's answer;
    // throws on a lost connection (pg::connection_lost) and RecordError/sql_error when one
    // request spoils the group.
    std::vector<bool> commit(const std::vector<Pending>& batch) {
        std::vector<bool> ok(batch.size(), true);
        std::vector<std::size_t> steps, creations, aborts, chats;
        steps.reserve(batch.size());
        // By the record's alternative: StepRecord, MatchCreation, MatchAbort, ChatRecord.
        std::vector<std::size_t>* const by_kind[] = {&steps, &creations, &aborts, &chats};
        static_assert(std::variant_size_v<decltype(Pending::record)> == 4);
        for (std::size_t i = 0; i < batch.size(); ++i) by_kind[batch[i].record.index()]->push_back(i);
        pqxx::work w(*connection);
        if (!creations.empty()) insert_creations(w, batch, creations);
        if (!options.node.empty() && (!steps.empty() || !aborts.empty()))
            fence(w, batch, steps, aborts, ok);
        if (!steps.empty()) insert_steps_of(w, batch, steps, ok);
        for (std::size_t i : steps) {
            const auto& r = std::get<StepRecord>(batch[i].record);
            if (ok[i] && r.finish) apply_finish(w, r);
        }
        if (!aborts.empty()) abort_all(w, batch, aborts, ok);
        if (!chats.empty()) insert_chat_of(w, batch, chats);
        w.commit();
        ++transactions;
        return ok;
    }

    // The match of a record: a step's or an abort's.
    static const std::string& match_of(const Pending& p) {
        if (const auto* step = std::get_if<StepRecord>(&p.record)) return step->match_id;
        return std::get<MatchAbort>(p.record).match_id;
    }

    // Keeps in `steps` and `aborts` only the records of matches this node owns (one statement
    // for the group); the others answer false, and the rest of the group commits.
    void fence(pqxx::work& w, const std::vector<Pending>& batch, std::vector<std::size_t>& steps,
               std::vector<std::size_t>& aborts, std::vector<bool>& ok) const {
        pg::ArrayLiteral ids(steps.size() + aborts.size(), 24);
        for (std::size_t i : steps) ids.text(match_of(batch[i]));
        for (std::size_t i : aborts) ids.text(match_of(batch[i]));
        std::unordered_set<std::string> owned;
        for (const auto& row : w.exec_prepared(owned_matches, ids.take(), options.node))
            owned.insert(row[0].as<std::string>());
        const auto keep = [&](std::vector<std::size_t>& which) {
            std::erase_if(which, [&](std::size_t i) {
                if (owned.count(match_of(batch[i]))) return false;
                ok[i] = false;
                return true;
            });
        };
        keep(steps);
        keep(aborts);
    }

    void insert_creations(pqxx::work& w, const std::vector<Pending>& batch,
                          const std::vector<std::size_t>& which) const {
        pg::ArrayLiteral id(which.size(), 20), game(which.size()), settings(which.size(), 64),
            seed(which.size(), 20), at(which.size(), 13), owner(which.size()),
            hash(which.size(), 16);
        pg::ArrayLiteral seat_match(which.size() * 2, 20), seat(which.size() * 2, 1),
            seat_player(which.size() * 2, 20), seat_power(which.size() * 2),
            seat_team(which.size() * 2, 1), seat_at(which.size() * 2, 13);
        for (std::size_t i : which) {
            const auto& m = std::get<MatchCreation>(batch[i].record);
            if (m.id.empty() || m.game.empty() || m.seats.empty())
                throw RecordError("a match needs an id, a game and seats");
            id.text(m.id);
            game.text(m.game);
            settings.text(m.settings_json.empty() ? std::string_view("{}") : m.settings_json);
            // The 64-bit seed keeps its bits in a signed bigint (docs/storage.md).
            seed.integer(static_cast<std::int64_t>(m.seed));
            at.integer(m.created_at_ms);
            // A fleet node owns what it creates, unless the creation names another owner (the
            // pairing authority assigns new matches to nodes).
            owner.nullable_text(m.owner_node.empty() ? options.node : m.owner_node);
            hash.nullable_text(m.state_hash);
            for (const auto& s : m.seats) {
                seat_match.text(m.id);
                seat.integer(s.seat);
                seat_player.text(s.player_id);
                seat_power.nullable_text(s.power);
                if (s.team)
                    seat_team.integer(*s.team);
                else
                    seat_team.null();
                seat_at.integer(m.created_at_ms);
            }
        }
        const std::string lease =
            options.node.empty() ? std::string() : std::to_string(options.lease.count());
        w.exec_prepared(insert_matches, id.take(), game.take(), settings.take(), seed.take(),
                        at.take(), owner.take(), hash.take(), pg::nullable(lease));
        w.exec_prepared(insert_seats, seat_match.take(), seat.take(), seat_player.take(),
                        seat_power.take(), seat_team.take(), seat_at.take());
    }

    static void insert_steps_of(pqxx::work& w, const std::vector<Pending>& batch,
                                const std::vector<std::size_t>& which, std::vector<bool>& ok) {
        const std::size_t n = which.size();
        pg::ArrayLiteral id(n, 24), number(n, 4), player(n, 24), step(n, 64), at(n, 13),
            hash(n, 16);
        for (std::size_t i : which) {
            const auto& r = std::get<StepRecord>(batch[i].record);
            id.text(r.match_id);
            number.integer(r.number);
            player.nullable_text(r.player_id);
            step.text(r.step_json);
            at.integer(r.at_ms);
            hash.nullable_text(r.state_hash);
        }
        std::string ids = id.take(), numbers = number.take(), players = player.take(),
                    step_texts = step.take();
        const auto inserted =
            w.exec_prepared(insert_steps, ids, numbers, players, step_texts, at.take(), hash.take())
                .affected_rows();
        if (inserted == n) return;
        // Some numbers were taken: a record answers true only when the stored row is the same
        // step by the same player (a retry), whoever stored it. One query for the whole group.
        std::vector<bool> same(n, false);
        for (const auto& row : w.exec_prepared(same_steps, ids, numbers, players, step_texts)) {
            const auto position = row[0].as<std::size_t>();
            if (position >= 1 && position <= n) same[position - 1] = true;
        }
        for (std::size_t k = 0; k < n; ++k) ok[which[k]] = same[k];
    }

    static void abort_all(pqxx::work& w, const std::vector<Pending>& batch,
                          const std::vector<std::size_t>& which, std::vector<bool>& ok) {
        pg::ArrayLiteral id(which.size(), 20), at(which.size(), 13);
        for (std::size_t i : which) {
            const auto& a = std::get<MatchAbort>(batch[i].record);
            id.text(a.match_id);
            at.integer(a.at_ms);
        }
        std::unordered_set<std::string> ended;
        for (const auto& row : w.exec_prepared(abort_matches, id.take(), at.take()))
            ended.insert(row[0].as<std::string>());
        // Answered false: no live match of that id (unknown, or already over).
        for (std::size_t i : which)
            ok[i] = ended.count(std::get<MatchAbort>(batch[i].record).match_id) > 0;
    }

    static void insert_chat_of(pqxx::work& w, const std::vector<Pending>& batch,
                               const std::vector<std::size_t>& which) {
        const std::size_t n = which.size();
        pg::ArrayLiteral match(n, 20), number(n, 4), channel(n, 10), player(n, 20), seat(n, 2),
            name(n, 12), text(n, 40), at(n, 13);
        for (std::size_t i : which) {
            const auto& c = std::get<ChatRecord>(batch[i].record);
            match.text(c.match_id);
            number.integer(static_cast<std::int64_t>(c.number));
            channel.text(c.channel);
            player.text(c.player_id);
            if (c.seat >= 0)
                seat.integer(c.seat);
            else
                seat.null();
            name.text(c.name);
            text.text(c.text);
            at.integer(c.at_ms);
        }
        w.exec_prepared(insert_chat, match.take(), number.take(), channel.take(), player.take(),
                        seat.take(), name.take(), text.take(), at.take());
    }

    // Stores `batch`, answers every record. Returns false when the connection was lost.
    // A commit that never answers (a frozen or partitioned database) is cut by the stall
    // watch (server/store/stall_watch.hpp): it then fails as a lost connection does, and the
    // writer reconnects.
    bool store(std::vector<Pending>& batch) {
        auto watched = pg::StallWatch::instance().watch(connection->sock());
        try {
            auto ok = commit(batch);
            answer(batch, ok);
            return !watched.finish();
        } catch (const std::exception& e) {
            if (watched.finish() || pg::connection_lost(e) || !connection->is_open()) {
                fail(batch);
                return false;
            }
        }
        // One record spoiled the group: store each alone, so only that one fails.
        for (std::size_t i = 0; i < batch.size(); ++i) {
            std::vector<Pending> one;
            one.push_back(std::move(batch[i]));
            auto watched = pg::StallWatch::instance().watch(connection->sock());
            bool lost = false;
            try {
                auto ok = commit(one);
                answer(one, ok);
                lost = watched.finish();
            } catch (const std::exception& e) {
                fail(one);
                lost = watched.finish() || pg::connection_lost(e) || !connection->is_open();
            }
            if (lost) {
                // The connection is gone: the records not tried yet fail with it (each is
                // answered, or its match would wait for ever).
                std::vector<Pending> rest(std::make_move_iterator(batch.begin() + static_cast<std::ptrdiff_t>(i) + 1),
                                          std::make_move_iterator(batch.end()));
                fail(rest);
                return false;
            }
        }
        return true;
    }

    // Queues one request, or answers it false at once when the database is known to be down.
    void enqueue(Pending p) {
        std::vector<Pending> failing;
        {
            std::lock_guard lock(mutex);
            const auto now = Clock::now();
            p.arrived = now;
            const bool stalled =
                busy_since != Clock::time_point{} && now - busy_since > options.stall_timeout;
            if (!stopping && state != State::Down && !stalled) {
                queue.push_back(std::move(p));
                if (queue.size() == 1 || queue.size() >= options.max_batch) wake.notify_one();
                return;
            }
            // Known down: answer now rather than keep the caller waiting for a reconnect.
            if (stalled) failing = take_all();
            failing.push_back(std::move(p));
        }
        fail(failing);
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
    impl_->enqueue(Pending{std::move(record), std::move(done), {}});
}

void PgStepStore::create(server::MatchCreation match, std::function<void(bool)> done) {
    impl_->enqueue(Pending{std::move(match), std::move(done), {}});
}

void PgStepStore::abort(std::string match_id, std::int64_t at_ms, std::function<void(bool)> done) {
    impl_->enqueue(Pending{MatchAbort{std::move(match_id), at_ms}, std::move(done), {}});
}

void PgStepStore::chat(server::ChatRecord record, std::function<void(bool)> done) {
    impl_->enqueue(Pending{std::move(record), std::move(done), {}});
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
