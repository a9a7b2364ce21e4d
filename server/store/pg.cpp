#include "server/store/pg.hpp"

#include <poll.h>

#include <algorithm>
#include <charconv>

namespace store::pg {

std::string with_connect_timeout(const std::string& url, std::chrono::milliseconds deadline) {
    if (url.find("connect_timeout") != std::string::npos) return url;
    const long long seconds = std::max<long long>(2, (deadline.count() + 999) / 1000);
    if (url.rfind("postgres://", 0) == 0 || url.rfind("postgresql://", 0) == 0) {
        const char sep = url.find('?') == std::string::npos ? '?' : '&';
        return url + sep + "connect_timeout=" + std::to_string(seconds);
    }
    return url + " connect_timeout=" + std::to_string(seconds);
}


StoreError error_from(const std::exception& e) {
    using Kind = StoreError::Kind;
    if (connection_lost(e))
        return {Kind::Unavailable, std::string("database unavailable: ") + e.what()};
    if (dynamic_cast<const pqxx::unique_violation*>(&e)) return {Kind::Conflict, e.what()};
    if (dynamic_cast<const pqxx::foreign_key_violation*>(&e)) return {Kind::NotFound, e.what()};
    if (dynamic_cast<const pqxx::sql_error*>(&e)) return {Kind::Invalid, e.what()};
    if (dynamic_cast<const pqxx::usage_error*>(&e) ||
        dynamic_cast<const pqxx::conversion_error*>(&e))
        return {Kind::Invalid, e.what()};
    return {Kind::Unavailable, e.what()};
}

bool connection_lost(const std::exception& e) {
    if (dynamic_cast<const pqxx::broken_connection*>(&e) ||
        dynamic_cast<const pqxx::in_doubt_error*>(&e))
        return true;
    // The server going down (admin shutdown, crash) reaches an open transaction as an SQL error
    // of class 57 (operator intervention) or 08 (connection exception).
    if (auto* sql = dynamic_cast<const pqxx::sql_error*>(&e)) {
        const std::string& state = sql->sqlstate();
        return state.rfind("57", 0) == 0 || state.rfind("08", 0) == 0;
    }
    return false;
}

namespace {

/// True when the server ended `c` while it sat idle in a pool: a restarting or stopped server,
/// or a cut path to it, closes the socket (after a goodbye message, at most), and nothing else
/// arrives on an idle connection that listens to nothing. libpq notices only when the next
/// statement fails, so without this look (no round trip: a poll that does not wait) each such
/// connection would fail one caller after the database is back.
bool ended_while_idle(const pqxx::connection& c) {
    pollfd socket{c.sock(), POLLIN, 0};
    // Readable (a goodbye, or the end of the stream), hung up, in error, or poll failed.
    return ::poll(&socket, 1, 0) != 0;
}

void append_quoted(std::string& out, const std::string& s) {
    out.push_back('"');
    for (char c : s) {
        if (c == '"' || c == '\\') out.push_back('\\');
        out.push_back(c);
    }
    out.push_back('"');
}

}  // namespace

std::string text_array(const std::vector<const std::string*>& items, bool empty_is_null) {
    std::string out = "{";
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (i) out.push_back(',');
        if (empty_is_null && items[i]->empty())
            out += "NULL";
        else
            append_quoted(out, *items[i]);
    }
    out.push_back('}');
    return out;
}

std::string int_array(const std::vector<std::int64_t>& items) {
    std::string out = "{";
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (i) out.push_back(',');
        out += std::to_string(items[i]);
    }
    out.push_back('}');
    return out;
}

ArrayLiteral::ArrayLiteral(std::size_t elements, std::size_t typical_size) {
    out_.reserve(2 + elements * (typical_size + 3));
}

void ArrayLiteral::separate() {
    if (out_.size() > 1) out_.push_back(',');
}

void ArrayLiteral::text(std::string_view s) {
    separate();
    out_.push_back('"');
    // Copy the runs between characters that need a backslash in one go.
    std::size_t from = 0;
    for (std::size_t i = 0; i < s.size(); ++i)
        if (s[i] == '"' || s[i] == '\\') {
            out_.append(s.data() + from, i - from);
            out_.push_back('\\');
            from = i;
        }
    out_.append(s.data() + from, s.size() - from);
    out_.push_back('"');
}

void ArrayLiteral::nullable_text(std::string_view s) {
    if (s.empty())
        null();
    else
        text(s);
}

void ArrayLiteral::integer(std::int64_t i) {
    separate();
    char buffer[24];
    const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, i);
    (void)ec;  // 24 characters always hold an int64
    out_.append(buffer, end);
}

void ArrayLiteral::null() {
    separate();
    out_ += "NULL";
}

std::string ArrayLiteral::take() {
    out_.push_back('}');
    std::string done = std::move(out_);
    out_ = "{";
    return done;
}

StoreError stalled_error() {
    return {StoreError::Kind::Unavailable,
            "the database did not answer within " + std::to_string(StallWatch::instance().limit().count()) +
                " ms; its connection was cut"};
}

ConnectionPool::ConnectionPool(std::string url, std::size_t size, Setup setup)
    : url_(std::move(url)), size_(size == 0 ? 1 : size), setup_(std::move(setup)) {}

ConnectionPool::~ConnectionPool() = default;

ConnectionPool::Lease ConnectionPool::lease() {
    std::unique_lock lock(mutex_);
    freed_.wait(lock, [&] { return !idle_.empty() || out_ < size_; });
    ++out_;
    if (!idle_.empty()) {
        auto c = std::move(idle_.back());
        idle_.pop_back();
        if (c->is_open() && !ended_while_idle(*c)) return Lease(*this, std::move(c));
    }
    lock.unlock();
    try {
        auto c = std::make_unique<pqxx::connection>(url_);
        if (setup_) setup_(*c);
        return Lease(*this, std::move(c));
    } catch (...) {
        give_back(nullptr);
        throw;
    }
}

void ConnectionPool::give_back(std::unique_ptr<pqxx::connection> c) {
    {
        std::lock_guard lock(mutex_);
        --out_;
        // A connection that saw its server go away is dropped: the next lease makes a new one.
        if (c && c->is_open()) idle_.push_back(std::move(c));
    }
    freed_.notify_one();
}

}  // namespace store::pg
