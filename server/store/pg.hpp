#pragma once
// Internal to the store (the only code that includes <pqxx>): connections, errors, literals.

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <pqxx/pqxx>
#include <string>
#include <string_view>
#include <vector>

#include "server/store/result.hpp"
#include "server/store/stall_watch.hpp"

namespace store::pg {

/// Turns what libpqxx threw into a StoreError: a lost or unreachable server is Unavailable, a
/// unique violation a Conflict, a foreign key violation NotFound, other SQL errors Invalid.
StoreError error_from(const std::exception& e);

/// True when `e` means the connection is gone (or its last commit's outcome is unknown).
bool connection_lost(const std::exception& e);

/// `url` with libpq's connect_timeout set to `deadline` in whole seconds (at least 2, libpq's
/// minimum), unless it names one already: reaching a server that does not answer (stopped,
/// partitioned) then fails instead of waiting for TCP to give up.
std::string with_connect_timeout(const std::string& url, std::chrono::milliseconds deadline);

/// The text of a field, or "" when it is NULL.
inline std::string text_or_empty(const pqxx::field& f) {
    return f.is_null() ? std::string() : f.as<std::string>();
}

/// A PostgreSQL array literal of text ("{\"a\",NULL}"), passed as one parameter and cast in SQL
/// (`$1::text[]`); an empty string becomes NULL when `empty_is_null`.
std::string text_array(const std::vector<const std::string*>& items, bool empty_is_null);

/// A PostgreSQL array literal of integers ("{1,2}").
std::string int_array(const std::vector<std::int64_t>& items);

/// Builds one PostgreSQL array literal element by element, for a whole group of rows passed as
/// one parameter (`$1::text[]`) and `unnest`ed in SQL: one string per column instead of a
/// parameter per row, and no intermediate vectors.
class ArrayLiteral {
  public:
    /// Room for about `elements` elements of `typical_size` characters each.
    explicit ArrayLiteral(std::size_t elements = 0, std::size_t typical_size = 8);
    /// A text element, quoted and escaped (so JSON, with its quotes, is safe too).
    void text(std::string_view s);
    /// A text element, or NULL when `s` is empty.
    void nullable_text(std::string_view s);
    /// An integer element.
    void integer(std::int64_t i);
    /// A NULL element.
    void null();
    /// The literal ("{...}"); the builder is empty afterwards.
    std::string take();

  private:
    void separate();
    std::string out_ = "{";
};

/// NULL for "", else the string: for nullable text parameters.
inline const char* nullable(const std::string& s) {
    return s.empty() ? nullptr : s.c_str();
}

/// SQL that turns ms since the epoch (a bigint parameter) into timestamptz, and back.
inline std::string ms_to_timestamp(const std::string& param) {
    return "to_timestamp(" + param + "::bigint / 1000.0)";
}
inline std::string timestamp_to_ms(const std::string& column) {
    return "(extract(epoch FROM " + column + ") * 1000)::bigint";
}

/// A bounded set of connections to one database, shared by threads. A connection found broken
/// is dropped and a new one made on the next lease, and so is an idle one whose server closed
/// it meanwhile (looked at without a round trip), so the pool heals when the server returns.
class ConnectionPool {
  public:
    /// Runs on every new connection before its first lease (e.g. SET statement_timeout); what
    /// it throws fails that lease as a failed connect would.
    using Setup = std::function<void(pqxx::connection&)>;

    ConnectionPool(std::string url, std::size_t size, Setup setup = {});
    ~ConnectionPool();

    /// One connection, exclusively, until the lease dies.
    class Lease {
      public:
        Lease(ConnectionPool& pool, std::unique_ptr<pqxx::connection> c)
            : pool_(&pool), c_(std::move(c)) {}
        Lease(Lease&& other) noexcept : pool_(other.pool_), c_(std::move(other.c_)) {}
        Lease& operator=(Lease&&) = delete;
        ~Lease() { pool_->give_back(std::move(c_)); }
        pqxx::connection& operator*() { return *c_; }
        pqxx::connection* operator->() { return c_.get(); }
        /// Forgets the connection (it saw its server go away): the pool makes a new one.
        void drop() { c_.reset(); }

      private:
        ConnectionPool* pool_;
        std::unique_ptr<pqxx::connection> c_;
    };

    /// Waits for a free connection (connecting if needed). Throws pqxx::broken_connection when
    /// the database cannot be reached.
    Lease lease();

  private:
    void give_back(std::unique_ptr<pqxx::connection> c);

    const std::string url_;
    const std::size_t size_;
    const Setup setup_;
    std::mutex mutex_;
    std::condition_variable freed_;
    std::vector<std::unique_ptr<pqxx::connection>> idle_;
    std::size_t out_ = 0;  ///< leased or being made
};

/// The error of a call the stall watch cut (StallWatch): Unavailable, saying so.
StoreError stalled_error();

/// Runs `f(connection)` on a connection leased from `pool`: what libpqxx throws becomes a
/// StoreError (error_from), and a connection for which `lost(e)` says its server is gone is
/// dropped from the pool, so the next lease connects afresh. The call is watched by the
/// process's StallWatch: one that runs past its limit has its connection cut, answers
/// Unavailable and leaves the pool.
template <class T, class F>
Result<T> run(ConnectionPool& pool, F&& f, bool (*lost)(const std::exception&) = &connection_lost) {
    try {
        auto lease = pool.lease();
        auto watched = StallWatch::instance().watch(lease->sock());
        try {
            auto result = f(*lease);
            if (watched.finish()) {
                // Cut just as it answered: the answer stands, the connection does not.
                lease.drop();
            }
            return result;
        } catch (const std::exception& e) {
            const bool cut = watched.finish();
            if (cut || lost(e)) lease.drop();
            if (cut) return stalled_error();
            throw;
        }
    } catch (const std::exception& e) {
        return error_from(e);
    }
}

}  // namespace store::pg
