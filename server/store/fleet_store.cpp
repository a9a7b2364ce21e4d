#include "server/store/fleet_store.hpp"

#include <algorithm>
#include <mutex>

#include "server/store/pg.hpp"
#include "server/store/stall_watch.hpp"

namespace store {

using pg::text_or_empty;

using Kind = StoreError::Kind;

namespace {

// The pairing authority is a session advisory lock on two int4 keys, ("SANT" in ASCII, hash of
// the schema): the fleet is the set of nodes sharing one schema's tables, so fleets in different
// schemas of one database (every store test has its own) do not share an authority. Locks on
// two int4 keys never collide with the migration runner's one-bigint lock.
const std::string lock_key = "(1396788820, hashtext(current_schema()))";

// Every statement on `c` fails after `deadline` (SQLSTATE 57014) instead of waiting on a lock or
// a hung server for ever.
void set_deadline(pqxx::connection& c, std::chrono::milliseconds deadline) {
    pqxx::nontransaction n(c);
    n.exec("SET statement_timeout = " + std::to_string(std::max<long long>(1, deadline.count())));
}

// A cancelled statement (our own deadline) leaves its connection usable; anything else that
// pg::connection_lost reports does not.
bool session_broken(const std::exception& e) {
    if (auto* sql = dynamic_cast<const pqxx::sql_error*>(&e); sql && sql->sqlstate() == "57014")
        return false;
    return pg::connection_lost(e);
}


std::vector<std::string> ids_of(const pqxx::result& r) {
    std::vector<std::string> ids;
    ids.reserve(r.size());
    for (const auto& row : r) ids.push_back(row[0].as<std::string>());
    return ids;
}

std::string id_array(const std::vector<std::string>& ids) {
    pg::ArrayLiteral a(ids.size(), 24);
    for (const auto& id : ids) a.text(id);
    return a.take();
}

// now() + the lease, the lease in ms as parameter `param`.
std::string lease_end(const std::string& param) {
    return "now() + " + param + "::bigint * interval '1 millisecond'";
}

// Claimable by any node: live, and nobody holds a valid lease on it. (claim() also takes a live
// match this node already owns, whatever its lease.)
const std::string claimable =
    "status = 'live' AND (owner_node IS NULL OR lease_until IS NULL OR lease_until <= now())";

}  // namespace

struct FleetStore::Impl {
    explicit Impl(const FleetStoreOptions& o)
        : url(pg::with_connect_timeout(o.url, o.deadline)),
          deadline(o.deadline),
          lease(o.lease),
          pool(url, 1, [d = o.deadline](pqxx::connection& c) { set_deadline(c, d); }) {}

    const std::string url;
    const std::chrono::milliseconds deadline;
    const std::chrono::milliseconds lease;
    pg::ConnectionPool pool;  // one connection for the calls, remade when it breaks

    std::mutex lock_mutex;  // guards the lock session and `held`
    std::unique_ptr<pqxx::connection> lock_session;
    bool held = false;

    // Runs `f(connection)` on the pool (pg::run); a cancelled statement (our own deadline)
    // keeps its connection.
    template <class T, class F>
    Result<T> run(F&& f) {
        return pg::run<T>(pool, std::forward<F>(f), &session_broken);
    }

    // Runs `f(nontransaction)` on the lock session, watched (pg::StallWatch): on a database host
    // gone dark the call is cut at the stall limit instead of pinning the heartbeat in recv()
    // until TCP gives up; the cut session throws, and the caller drops it with the lock.
    template <class F>
    auto on_lock_session(F&& f) {
        auto watched = pg::StallWatch::instance().watch(lock_session->sock());
        pqxx::nontransaction n(*lock_session);
        return f(n);
    }

    // A new lock session. Besides the deadline, its backend ends when it has heard nothing for
    // a lease (idle_session_timeout): a node uses it at every heartbeat, so only a node frozen
    // or cut off from the database without a reset goes quiet that long, and then the server
    // frees the lock for the next leader (the other nodes count such a node dead after a lease
    // too). Without it the backend of a partitioned leader would hold the lock until TCP
    // keepalives give up, and nobody could lead meanwhile.
    void open_lock_session() {
        lock_session = std::make_unique<pqxx::connection>(url);
        set_deadline(*lock_session, deadline);
        pqxx::nontransaction n(*lock_session);
        n.exec("SET idle_session_timeout = " + std::to_string(std::max<long long>(1, lease.count())));
    }

    // Whether the lock session still answers; forgets it (and the lock with it) when not.
    bool session_alive() {
        try {
            on_lock_session([](pqxx::nontransaction& n) { return n.exec("SELECT 1"); });
            return true;
        } catch (const std::exception&) {
            drop_lock();
            return false;
        }
    }

    // Closing the session is what surely frees a session advisory lock, whatever state the
    // session was in.
    void drop_lock() {
        lock_session.reset();
        held = false;
    }

    // A graceful stop: the server frees the lock of a closed session only when its backend gets
    // round to exiting, so the lock is released first, and the next node can take it at once.
    void resign() {
        if (held && lock_session) {
            try {
                on_lock_session([](pqxx::nontransaction& n) {
                    return n.exec("SELECT pg_advisory_unlock" + lock_key);
                });
            } catch (const std::exception&) {
                // Closing the session below frees it anyway.
            }
        }
        drop_lock();
    }
};

FleetStore::FleetStore(FleetStoreOptions options)
    : options_(std::move(options)), impl_(std::make_unique<Impl>(options_)) {}

FleetStore::~FleetStore() {
    std::lock_guard guard(impl_->lock_mutex);
    impl_->resign();
}

Result<std::vector<NodeInfo>> FleetStore::heartbeat(int matches, std::chrono::milliseconds alive) {
    if (options_.node.empty()) return StoreError{Kind::Invalid, "a fleet node needs an id"};
    const bool leader = leading();
    return impl_->run<std::vector<NodeInfo>>([&](pqxx::connection& c) {
        const std::string age =
            "greatest(0, (extract(epoch FROM now() - heartbeat_at) * 1000))"
            "::bigint";
        pqxx::nontransaction n(c);
        const auto rows = n.exec_params(
            "WITH me AS (INSERT INTO nodes (id, url, matches, leader) VALUES ($1, $2, $3, $4) "
            "ON CONFLICT (id) DO UPDATE SET url = excluded.url, heartbeat_at = now(), "
            "matches = excluded.matches, leader = excluded.leader "
            "RETURNING id, url, matches, leader, heartbeat_at) "
            "SELECT id, url, matches, leader, " +
                age +
                " FROM me UNION ALL "
                "SELECT id, url, matches, leader, " +
                age +
                " FROM nodes WHERE id <> $1 AND heartbeat_at > now() - $5::bigint * "
                "interval '1 millisecond' ORDER BY 1",
            options_.node, options_.node_url, matches, leader,
            static_cast<long long>(alive.count()));
        std::vector<NodeInfo> nodes;
        for (const auto& r : rows)
            nodes.push_back(NodeInfo{r[0].as<std::string>(), r[1].as<std::string>(), r[2].as<int>(),
                                     r[3].as<bool>(), r[4].as<std::int64_t>()});
        return nodes;
    });
}

Result<std::string> FleetStore::channel_prefix() {
    return impl_->run<std::string>([&](pqxx::connection& c) {
        pqxx::nontransaction n(c);
        // "f" and 8 hex digits of the schema's hash: the fleet is the nodes of one schema.
        return n.exec("SELECT 'f' || lpad(to_hex(hashtext(current_schema())), 8, '0')")[0][0]
            .as<std::string>();
    });
}

Result<Done> FleetStore::leave() {
    return impl_->run<Done>([&](pqxx::connection& c) {
        pqxx::nontransaction n(c);
        n.exec_params("DELETE FROM nodes WHERE id = $1", options_.node);
        return Done{};
    });
}

Result<Done> FleetStore::assign(std::string_view match_id, std::string_view owner) {
    if (owner.empty()) return StoreError{Kind::Invalid, "a match is assigned to a node"};
    return impl_->run<Done>([&](pqxx::connection& c) -> Result<Done> {
        pqxx::nontransaction n(c);
        const auto r =
            n.exec_params("UPDATE matches SET owner_node = $2, lease_until = " + lease_end("$3") +
                              " WHERE id = $1",
                          std::string(match_id), std::string(owner),
                          static_cast<long long>(options_.lease.count()));
        if (r.affected_rows() == 0)
            return StoreError{Kind::NotFound, "no match " + std::string(match_id)};
        return Done{};
    });
}

namespace {

Result<Ownership> read_owner(pqxx::connection& c, const std::string& match_id) {
    pqxx::nontransaction n(c);
    const auto r = n.exec_params(
        "SELECT status, owner_node, coalesce(lease_until > now(), false) FROM matches "
        "WHERE id = $1",
        match_id);
    if (r.empty()) return StoreError{Kind::NotFound, "no match " + match_id};
    return Ownership{r[0][0].as<std::string>(), text_or_empty(r[0][1]), r[0][2].as<bool>()};
}

}  // namespace

Result<Claim> FleetStore::claim(std::string_view match_id, Ownership* seen) {
    if (options_.node.empty()) return StoreError{Kind::Invalid, "a fleet node needs an id"};
    const std::string id(match_id);
    return impl_->run<Claim>([&](pqxx::connection& c) -> Result<Claim> {
        // The UPDATE waits for the row lock of a step insert in flight (the fence's FOR SHARE)
        // and then re-checks its condition on the row as that transaction left it. When it
        // changes nothing, the row says why; a lease that ran out in between is tried again.
        for (int attempt = 0; attempt < 3; ++attempt) {
            {
                pqxx::nontransaction n(c);
                const auto r = n.exec_params(
                    "UPDATE matches SET owner_node = $2, lease_until = " + lease_end("$3") +
                        " WHERE id = $1 AND ((owner_node = $2 AND status = 'live') OR (" +
                        claimable + "))",
                    id, options_.node, static_cast<long long>(options_.lease.count()));
                if (r.affected_rows() == 1) {
                    if (seen) *seen = Ownership{"live", options_.node, true};
                    return Claim::Claimed;
                }
            }
            auto owner = read_owner(c, id);
            if (!owner) {
                if (owner.error().kind == Kind::NotFound) return Claim::NotFound;
                return owner.error();
            }
            if (seen) *seen = *owner;
            if (owner->status != "live") return Claim::NotLive;
            if (owner->lease_valid && owner->owner != options_.node) return Claim::OwnedElsewhere;
        }
        return Claim::OwnedElsewhere;
    });
}

Result<Ownership> FleetStore::owner_of(std::string_view match_id) {
    return impl_->run<Ownership>(
        [&](pqxx::connection& c) { return read_owner(c, std::string(match_id)); });
}

Result<std::vector<std::string>> FleetStore::renew(const std::vector<std::string>& held) {
    if (held.empty()) return std::vector<std::string>{};
    return impl_->run<std::vector<std::string>>([&](pqxx::connection& c) {
        // Rows are locked in id order, as the step fence locks them: two multi-row lockers of
        // one node never wait on each other in a cycle.
        pqxx::nontransaction n(c);
        return ids_of(n.exec_params(
            "WITH mine AS (SELECT id FROM matches WHERE id = ANY($1::text[]) AND owner_node = $2 "
            "AND status = 'live' ORDER BY id FOR UPDATE) "
            "UPDATE matches m SET lease_until = " +
                lease_end("$3") + " FROM mine WHERE m.id = mine.id RETURNING m.id",
            id_array(held), options_.node, static_cast<long long>(options_.lease.count())));
    });
}

Result<std::vector<std::string>> FleetStore::claim_expired(int limit) {
    if (options_.node.empty()) return StoreError{Kind::Invalid, "a fleet node needs an id"};
    if (limit <= 0) return std::vector<std::string>{};
    return impl_->run<std::vector<std::string>>([&](pqxx::connection& c) {
        // SKIP LOCKED: a row another node is claiming (or whose step insert is in flight) is
        // left for this time; the next scan sees how it ended.
        pqxx::nontransaction n(c);
        return ids_of(n.exec_params(
            "WITH picked AS (SELECT id FROM matches WHERE " + claimable +
                " ORDER BY lease_until LIMIT $2 FOR UPDATE SKIP LOCKED) "
                "UPDATE matches m SET owner_node = $1, lease_until = " +
                lease_end("$3") + " FROM picked WHERE m.id = picked.id RETURNING m.id",
            options_.node, limit, static_cast<long long>(options_.lease.count())));
    });
}

Result<Done> FleetStore::release(const std::vector<std::string>& ids) {
    if (ids.empty()) return Done{};
    return impl_->run<Done>([&](pqxx::connection& c) {
        // -infinity rather than now(): a claim whose statement began before this commit
        // compares with its own, earlier now(), and must still see the lease over.
        pqxx::nontransaction n(c);
        n.exec_params(
            "WITH mine AS (SELECT id FROM matches WHERE id = ANY($1::text[]) AND owner_node = $2 "
            "ORDER BY id FOR UPDATE) "
            "UPDATE matches m SET lease_until = '-infinity' FROM mine WHERE m.id = mine.id",
            id_array(ids), options_.node);
        return Done{};
    });
}

bool FleetStore::try_lead() {
    std::lock_guard guard(impl_->lock_mutex);
    if (impl_->held && impl_->session_alive()) return true;
    try {
        if (!impl_->lock_session || !impl_->lock_session->is_open()) impl_->open_lock_session();
        impl_->held = impl_->on_lock_session([](pqxx::nontransaction& n) {
            return n.exec("SELECT pg_try_advisory_lock" + lock_key)[0][0].as<bool>();
        });
    } catch (const std::exception&) {
        // Whether the lock was taken is unknown: closing the session makes it surely not.
        impl_->drop_lock();
    }
    return impl_->held;
}

bool FleetStore::leading() {
    std::lock_guard guard(impl_->lock_mutex);
    return impl_->held && impl_->session_alive();
}

void FleetStore::resign_lead() {
    std::lock_guard guard(impl_->lock_mutex);
    impl_->resign();
}

Result<Done> FleetStore::save_rooms(const std::string& rooms) {
    std::lock_guard guard(impl_->lock_mutex);
    if (!impl_->held || !impl_->lock_session)
        return StoreError{Kind::Invalid, "this node does not lead"};
    try {
        // The lock's session is the fence: it is the lock. A cancelled statement (our deadline)
        // keeps it; a broken one loses it, and with it the lock.
        impl_->on_lock_session([&](pqxx::nontransaction& n) {
            return n.exec_params(
                "INSERT INTO leader_rooms (one, node, rooms, saved_at) VALUES (true, $1, "
                "$2::jsonb, now()) ON CONFLICT (one) DO UPDATE SET node = excluded.node, rooms = "
                "excluded.rooms, saved_at = excluded.saved_at",
                options_.node, rooms);
        });
        return Done{};
    } catch (const std::exception& e) {
        if (session_broken(e)) impl_->drop_lock();
        return StoreError{Kind::Unavailable, e.what()};
    }
}

Result<std::string> FleetStore::load_rooms() {
    return impl_->run<std::string>([&](pqxx::connection& c) {
        pqxx::nontransaction n(c);
        const auto rows = n.exec("SELECT rooms::text FROM leader_rooms WHERE one");
        return rows.empty() ? std::string() : rows[0][0].as<std::string>();
    });
}

}  // namespace store
