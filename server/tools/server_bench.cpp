// server-bench: a load generator for a running santorini-server, over real WebSockets on the
// loopback interface only.
//
// It creates 2 x N guests, pairs them in N private lobbies (no clock; powers as --powers), and
// every pair plays random legal steps as fast as the server answers, starting a new lobby when a
// game ends, for a fixed time. Each client plays like a real one: it keeps its view by applying
// every patch, and the seat that must decide picks uniformly from the legal steps its own view
// lists. At the end of each game, and at the end of the run for the games still going, both
// clients re-open the match without `since` and check that their patched view equals the
// `match.snapshot` (any difference is a mismatch; the exit status is 1 if there is one).
//
// Printed: steps and full turns per second (a full turn: every step from a turn's start to the
// next seat's turn); the latency of a step from the moment it is sent to the moment its patch
// reaches the sender ("ack") and the opponent; the CPU the bench itself took over the measured
// window (getrusage) and, with --server-pid, the server's CPU (/proc/<pid>/stat), its CPU per
// full turn, and its resident memory. --hold-after K: every pair stops after K steps of its
// first game and keeps that match live, so the memory a live match costs can be read off.
// --idle-sockets N: N more guests connect, say hello and stay open (Beast answers the server's
// pings), to show how many sockets one server holds and what one costs. --rss-every S prints
// the server's RSS every S seconds (flat memory over a long run with games starting and ending).
//
// The server must be started with its per-connection and per-address limits lifted, e.g.
//   santorini-server --port 8090 --messages-per-second 1000000 --message-burst 1000000
//                    --guest-burst 1000000 --max-connections 30000 --log-level warn
//   server-bench --port 8090 --matches 1000 --seconds 10 --server-pid <pid>
// (docs/benchmarks.md). The run stops by itself after --seconds.

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;
using json = nlohmann::json;
using Clock = std::chrono::steady_clock;
using Strand = asio::strand<asio::io_context::executor_type>;

struct Options {
    std::uint16_t port = 8080;
    int matches = 100;
    int seconds = 20;
    int server_pid = 0;
    int hold_after = 0;    ///< > 0: each pair stops after this many steps of its first game
    int idle_sockets = 0;  ///< sockets that only say hello and stay open
    int rss_every = 0;     ///< > 0: print the server's RSS every this many seconds
    int threads = 1;       ///< threads running the bench's io_context (a strand per pair)
    std::string powers = "none";  ///< lobby setting: none, simple, all
};

/// Latencies in microseconds, summarised at the end.
struct Samples {
    std::vector<double> values;
    void add(Clock::duration d) {
        values.push_back(std::chrono::duration<double, std::micro>(d).count());
    }
    void merge(const Samples& other) {
        values.insert(values.end(), other.values.begin(), other.values.end());
    }
    std::string summary() {
        if (values.empty()) return "no samples";
        std::sort(values.begin(), values.end());
        auto at = [&](double q) {
            return values[std::min(values.size() - 1,
                                   static_cast<std::size_t>(q * values.size()))] /
                   1000.0;
        };
        char text[160];
        std::snprintf(text, sizeof text, "p50 %.2f ms  p90 %.2f ms  p99 %.2f ms  max %.2f ms (%zu)",
                      at(0.5), at(0.9), at(0.99), values.back() / 1000.0, values.size());
        return text;
    }
};

/// Shared by every pair (any bench thread): counters and the run's phase.
struct Totals {
    std::atomic<std::uint64_t> steps{0};
    std::atomic<std::uint64_t> turns{0};
    std::atomic<std::uint64_t> games{0};       ///< finished while measuring
    std::atomic<std::uint64_t> all_games{0};   ///< finished at any time
    std::atomic<std::uint64_t> errors{0};      ///< error messages from the server
    std::atomic<std::uint64_t> gaps{0};        ///< a patch whose version is not the next one
    std::atomic<std::uint64_t> checks{0};      ///< views compared with a snapshot
    std::atomic<std::uint64_t> mismatches{0};  ///< ... that differed (or a patch did not apply)
    std::atomic<bool> measuring{false};        ///< false while the matches are being set up
    std::atomic<bool> stopping{false};         ///< the time is up: no new steps or games
    std::atomic<int> holding{0};               ///< pairs that reached hold_after
    std::atomic<int> done{0};                  ///< pairs that made their last check
    std::atomic<int> started{0};               ///< pairs whose first match both seats opened
    int hold_after = 0;                        ///< Options::hold_after
    std::string powers;                        ///< Options::powers
};

/// The server's resident set in KiB (from /proc), or 0.
long resident_kib(int pid) {
    if (pid <= 0) return 0;
    std::ifstream status("/proc/" + std::to_string(pid) + "/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind("VmRSS:", 0) == 0) return std::atol(line.c_str() + 6);
    return 0;
}

/// A process's CPU time (user + system) in seconds, from /proc/<pid>/stat, or 0.
double process_cpu_seconds(int pid) {
    if (pid <= 0) return 0;
    std::ifstream file("/proc/" + std::to_string(pid) + "/stat");
    std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    const auto paren = text.rfind(')');
    if (paren == std::string::npos) return 0;
    std::istringstream fields(text.substr(paren + 2));
    std::string field;
    unsigned long long utime = 0, stime = 0;
    for (int i = 3; i <= 15 && fields >> field; ++i) {  // field 3 is the state
        if (i == 14) utime = std::stoull(field);
        if (i == 15) stime = std::stoull(field);
    }
    return static_cast<double>(utime + stime) / static_cast<double>(sysconf(_SC_CLK_TCK));
}

/// This process's CPU time: user and system seconds.
std::pair<double, double> own_cpu_seconds() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    auto seconds = [](const timeval& t) { return t.tv_sec + t.tv_usec / 1e6; };
    return {seconds(usage.ru_utime), seconds(usage.ru_stime)};
}

/// The whole machine's busy and total CPU ticks (from /proc/stat).
std::pair<double, double> machine_ticks() {
    std::ifstream file("/proc/stat");
    std::string cpu;
    double value = 0, total = 0, idle = 0;
    file >> cpu;
    for (int i = 0; i < 8 && file >> value; ++i) {
        total += value;
        if (i == 3 || i == 4) idle += value;  // idle, iowait
    }
    return {total - idle, total};
}

/// The soft limit on open files raised to the hard one; the new soft limit.
rlim_t raise_open_files() {
    rlimit files{};
    if (getrlimit(RLIMIT_NOFILE, &files) != 0) return 0;
    files.rlim_cur = files.rlim_max;
    setrlimit(RLIMIT_NOFILE, &files);
    getrlimit(RLIMIT_NOFILE, &files);
    return files.rlim_cur;
}

/// POST /api/guests, synchronously (before the load starts): the guest's id and token.
std::pair<std::string, std::string> create_guest(asio::io_context& io, std::uint16_t port,
                                                 const std::string& name) {
    beast::tcp_stream stream(io);
    stream.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port));
    http::request<http::string_body> request{http::verb::post, "/api/guests", 11};
    request.set(http::field::host, "127.0.0.1");
    request.set(http::field::content_type, "application/json");
    request.body() = json{{"name", name}}.dump();
    request.prepare_payload();
    http::write(stream, request);
    beast::flat_buffer buffer;
    http::response<http::string_body> response;
    http::read(stream, buffer, response);
    if (response.result() != http::status::created)
        throw std::runtime_error("POST /api/guests: " + std::to_string(response.result_int()) +
                                 " " + response.body());
    const json body = json::parse(response.body());
    return {body.at("id"), body.at("token")};
}

/// Whether a view kept by patches equals a snapshot's, apart from what may move between the
/// two messages: a running clock's `remaining_ms` (a server may compute it when it sends).
/// Everything else, presence (`connected`) and the spectator count included, must be equal.
bool same_view(const json& patched, const json& snapshot) {
    if (!patched.is_object() || !snapshot.is_object() || patched.size() != snapshot.size())
        return patched == snapshot;
    for (auto it = patched.begin(); it != patched.end(); ++it) {
        const auto other = snapshot.find(it.key());
        if (other == snapshot.end()) return false;
        if (it.key() == "clock" && it->is_object() && other->is_object()) {
            json a = *it, b = *other;
            a.erase("remaining_ms");
            b.erase("remaining_ms");
            if (a != b) return false;
        } else if (*it != *other) {
            return false;
        }
    }
    return true;
}

class Pair;

/// One player's WebSocket, on its pair's strand.
class Connection : public std::enable_shared_from_this<Connection> {
  public:
    Connection(Strand strand, Pair& pair, int index, std::string token)
        : ws_(strand), pair_(pair), index_(index), token_(std::move(token)) {}

    void start(std::uint16_t port) {
        ws_.next_layer().async_connect(
            tcp::endpoint(asio::ip::make_address("127.0.0.1"), port),
            [self = shared_from_this()](beast::error_code ec) {
                if (ec) return self->fail("connect", ec);
                self->ws_.next_layer().socket().set_option(tcp::no_delay(true));
                self->ws_.async_handshake("127.0.0.1", "/ws", [self](beast::error_code ec2) {
                    if (ec2) return self->fail("handshake", ec2);
                    self->send({{"type", "hello"}, {"protocol", 1}, {"token", self->token_}});
                    self->read();
                });
            });
    }

    void send(const json& message) {
        outbox_.push_back(message.dump());
        if (outbox_.size() == 1) write();
    }

    json view;                  ///< this seat's view of the current match
    std::uint64_t version = 0;  ///< its version

  private:
    void write() {
        ws_.async_write(asio::buffer(outbox_.front()),
                        [self = shared_from_this()](beast::error_code ec, std::size_t) {
                            if (ec) return self->fail("write", ec);
                            self->outbox_.pop_front();
                            if (!self->outbox_.empty()) self->write();
                        });
    }
    void read() {
        ws_.async_read(buffer_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
            if (ec) return self->fail("read", ec);
            const auto data = self->buffer_.cdata();
            const char* text = static_cast<const char*>(data.data());
            const json message = json::parse(text, text + data.size(), nullptr, false);
            self->buffer_.consume(self->buffer_.size());
            self->deliver(message);
            self->read();
        });
    }
    void deliver(const json& message);
    void fail(const char* what, beast::error_code ec);

    websocket::stream<beast::tcp_stream> ws_;
    beast::flat_buffer buffer_;
    std::deque<std::string> outbox_;
    Pair& pair_;
    int index_;
    std::string token_;
    bool failed_ = false;
};

/// Two players who play game after game against each other, on one strand.
class Pair {
  public:
    Pair(Strand strand, Totals& totals, std::uint32_t seed)
        : strand_(strand), totals_(totals), rng_(seed) {}

    Strand strand() const { return strand_; }
    std::shared_ptr<Connection> players[2];
    Samples ack;        ///< step -> the sender's patch, while measuring
    Samples broadcast;  ///< step -> the opponent's patch, while measuring

    /// The time is up (on the strand): check the game in progress, if any, then stop.
    void finish() {
        if (done_ || pending_ || checking_ > 0) return;  // act() or the check ends it
        if (players[0]->view.is_null() || players[1]->view.is_null()) return mark_done();
        act();
    }

    void on_message(int index, const json& message) {
        const std::string type = message.value("type", "");
        if (type == "welcome") {
            if (++welcomed_ == 2) new_lobby();
        } else if (type == "lobby" && index == 0 && !joined_) {
            const json& lobby = message["lobby"];
            if (!lobby.contains("code")) return;
            joined_ = true;
            lobby_ = lobby["id"];
            players[1]->send({{"type", "lobby.join"}, {"code", lobby["code"]}});
        } else if (type == "lobby" && index == 0 &&
                   message["lobby"].value("status", "") == "full") {
            players[0]->send({{"type", "lobby.start"}, {"lobby", lobby_}});
        } else if (type == "lobby.closed" && message.contains("match")) {
            if (done_) return;
            match_ = message["match"];
            players[index]->send({{"type", "match.open"}, {"match", match_}});
        } else if (type == "match.snapshot" && message.value("match", "") == match_) {
            if (checking_ > 0) return check(index, message);
            players[index]->view = message["view"];
            players[index]->version = message["version"];
            if (!started_ && !players[0]->view.is_null() && !players[1]->view.is_null()) {
                started_ = true;
                ++totals_.started;
            }
            act();
        } else if (type == "match.patch" && message.value("match", "") == match_) {
            on_patch(index, message);
        } else if (type == "error") {
            if (++totals_.errors <= 5) std::cerr << "server error: " << message.dump() << "\n";
        }
    }

  private:
    static std::size_t history_length(const json& view) {
        const auto it = view.find("history");
        return it != view.end() && it->is_array() ? it->size() : 0;
    }

    void on_patch(int index, const json& message) {
        Connection& c = *players[index];
        if (c.view.is_null()) return;  // the snapshot comes later and holds it
        const auto version = message["version"].get<std::uint64_t>();
        if (version <= c.version) return;  // a duplicate
        if (version != c.version + 1) ++totals_.gaps;  // a gap: the server skipped a version
        try {
            c.view.patch_inplace(message["patch"]);
        } catch (const json::exception& e) {
            if (++totals_.mismatches <= 5)
                std::cerr << "patch did not apply: " << e.what() << "\n";
        }
        c.version = version;
        if (!pending_) return act();
        // The step's patch is the one that lengthens the history (others change a seat's
        // connection or the spectator count).
        const auto latency = Clock::now() - pending_sent_;
        const bool has_step = history_length(c.view) > pending_history_;
        const bool measuring = totals_.measuring.load(std::memory_order_relaxed);
        if (index == pending_index_ && has_step && !got_own_) {
            got_own_ = true;
            if (measuring) ack.add(latency);
        } else if (index != pending_index_ && has_step && !got_other_) {
            got_other_ = true;
            if (measuring) broadcast.add(latency);
        }
        if (got_own_ && got_other_) {
            pending_ = false;
            if (measuring) {
                ++totals_.steps;
                if (players[pending_index_]->view["state"].value("decider", json()) !=
                    pending_decider_)
                    ++totals_.turns;
            }
            act();
        }
    }

    /// The seat that must decide sends a random legal step, once both views are current; a
    /// game that is over (or the end of the run) starts the check against a snapshot.
    void act() {
        if (pending_ || checking_ > 0 || done_) return;
        const json& view = players[0]->view;
        if (view.is_null() || players[1]->view.is_null()) return;
        const std::string status = view.value("status", "");
        if (status == "finished" || status == "aborted") {
            ++totals_.all_games;
            if (totals_.measuring) ++totals_.games;
            return start_check();
        }
        if (totals_.stopping) return start_check();
        if (totals_.hold_after > 0 && steps_in_game_ >= totals_.hold_after) {
            if (!holding_) ++totals_.holding;
            holding_ = true;
            return;  // a live match, left as it is, to measure what it costs to keep
        }
        const json decider = view["state"].value("decider", json());
        if (!decider.is_number_integer()) return;
        for (int i = 0; i < 2; ++i) {
            Connection& c = *players[i];
            if (c.view.value("you", -1) != decider.get<int>()) continue;
            const json& legal = c.view["state"]["legal"];
            if (!legal.is_array() || legal.empty()) return;
            const json& step =
                legal[std::uniform_int_distribution<std::size_t>(0, legal.size() - 1)(rng_)];
            pending_ = true;
            ++steps_in_game_;
            got_own_ = got_other_ = false;
            pending_index_ = i;
            pending_history_ = history_length(c.view);
            pending_decider_ = decider;
            pending_sent_ = Clock::now();
            c.send({{"type", "match.step"}, {"match", match_}, {"step", step}});
            return;
        }
    }

    /// Both players re-open the match without `since`: each gets a snapshot to compare.
    void start_check() {
        checking_ = 2;
        for (auto& c : players) c->send({{"type", "match.open"}, {"match", match_}});
    }

    void check(int index, const json& snapshot) {
        const Connection& c = *players[index];
        ++totals_.checks;
        const auto version = snapshot.value("version", std::uint64_t{0});
        if (version != c.version || !same_view(c.view, snapshot["view"])) {
            if (++totals_.mismatches <= 5)
                std::cerr << "mismatch in " << match_ << " seat " << index << ": version "
                          << c.version << " patched, " << version << " in the snapshot; diff "
                          << json::diff(c.view, snapshot["view"]).dump().substr(0, 600) << "\n";
        }
        if (--checking_ > 0) return;
        const std::string status = c.view.value("status", "");
        if (status == "finished" || status == "aborted") {
            // Done with it, as a client leaving the game's page.
            for (auto& p : players) p->send({{"type", "match.close"}, {"match", match_}});
            if (totals_.stopping) return mark_done();
            return new_lobby();
        }
        mark_done();  // the run's end: the game in progress was checked
    }

    void mark_done() {
        if (done_) return;
        done_ = true;
        ++totals_.done;
    }

    void new_lobby() {
        if (totals_.stopping) return mark_done();
        joined_ = false;
        steps_in_game_ = 0;
        match_.clear();
        players[0]->view = json();
        players[1]->view = json();
        players[0]->send({{"type", "lobby.create"},
                          {"settings",
                           {{"game", "santorini"},
                            {"players", 2},
                            {"powers", totals_.powers},
                            {"public", false},
                            {"clock", {{"kind", "none"}}}}}});
    }

    Strand strand_;
    Totals& totals_;
    std::mt19937 rng_;
    int welcomed_ = 0;
    bool joined_ = false;
    std::string lobby_;
    std::string match_;
    // The step in flight: sent by pending_index_, done when both players have its patch.
    bool pending_ = false;
    bool got_own_ = false;
    bool got_other_ = false;
    int pending_index_ = -1;
    std::size_t pending_history_ = 0;  ///< steps in the history when it was sent
    json pending_decider_;
    Clock::time_point pending_sent_;
    int checking_ = 0;  ///< snapshots still awaited for the check
    int steps_in_game_ = 0;
    bool holding_ = false;
    bool done_ = false;
    bool started_ = false;
};

void Connection::deliver(const json& message) {
    if (message.is_object()) pair_.on_message(index_, message);
}

void Connection::fail(const char* what, beast::error_code ec) {
    if (failed_) return;
    failed_ = true;
    std::cerr << "connection " << what << ": " << ec.message() << "\n";
}

/// A socket that authenticates and then only reads (Beast answers the server's pings).
class IdleSocket : public std::enable_shared_from_this<IdleSocket> {
  public:
    IdleSocket(asio::io_context& io, std::string token, std::atomic<int>& open,
               std::atomic<int>& failed)
        : ws_(asio::make_strand(io)), token_(std::move(token)), open_(open), failed_(failed) {}

    void start(std::uint16_t port) {
        ws_.next_layer().async_connect(
            tcp::endpoint(asio::ip::make_address("127.0.0.1"), port),
            [self = shared_from_this()](beast::error_code ec) {
                if (ec) return self->fail("connect", ec);
                self->ws_.async_handshake("127.0.0.1", "/ws", [self](beast::error_code ec2) {
                    if (ec2) return self->fail("handshake", ec2);
                    self->hello_ = json{{"type", "hello"}, {"protocol", 1}, {"token", self->token_}}
                                       .dump();
                    self->ws_.async_write(asio::buffer(self->hello_),
                                          [self](beast::error_code ec3, std::size_t) {
                                              if (ec3) self->fail("write", ec3);
                                          });
                    self->read();
                });
            });
    }

  private:
    void read() {
        ws_.async_read(buffer_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
            if (ec) return self->fail("read", ec);
            if (!self->welcomed_) {
                self->welcomed_ = true;  // the first message after hello: welcome
                ++self->open_;
            }
            self->buffer_.consume(self->buffer_.size());
            self->read();
        });
    }
    void fail(const char* what, beast::error_code ec) {
        if (welcomed_) --open_;
        welcomed_ = false;
        if (++failed_ <= 5) std::cerr << "idle socket " << what << ": " << ec.message() << "\n";
    }

    websocket::stream<beast::tcp_stream> ws_;
    beast::flat_buffer buffer_;
    std::string token_;
    std::string hello_;
    bool welcomed_ = false;
    std::atomic<int>& open_;
    std::atomic<int>& failed_;
};

Options parse(int argc, char** argv) {
    Options options;
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        auto text = [&]() -> std::string {
            if (i + 1 >= argc) throw std::invalid_argument(std::string(arg) + " needs a value");
            return argv[++i];
        };
        auto value = [&]() -> int { return std::stoi(text()); };
        if (arg == "--port")
            options.port = static_cast<std::uint16_t>(value());
        else if (arg == "--matches")
            options.matches = value();
        else if (arg == "--seconds")
            options.seconds = value();
        else if (arg == "--server-pid")
            options.server_pid = value();
        else if (arg == "--hold-after")
            options.hold_after = value();
        else if (arg == "--idle-sockets")
            options.idle_sockets = value();
        else if (arg == "--rss-every")
            options.rss_every = value();
        else if (arg == "--threads")
            options.threads = value();
        else if (arg == "--powers")
            options.powers = text();
        else
            throw std::invalid_argument("unknown argument " + std::string(arg));
    }
    if (options.matches < 0 || options.seconds < 1 || options.threads < 1 ||
        options.idle_sockets < 0 || options.rss_every < 0)
        throw std::invalid_argument("--seconds and --threads need >= 1, the others >= 0");
    if (options.powers != "none" && options.powers != "simple" && options.powers != "all")
        throw std::invalid_argument("--powers: none, simple or all");
    return options;
}

/// Opens the idle sockets and waits (up to a minute) until each is welcomed or has failed;
/// prints the count and the server's memory before and after.
void open_idle_sockets(asio::io_context& io, const Options& options,
                       std::vector<std::shared_ptr<IdleSocket>>& sockets, std::atomic<int>& open,
                       std::atomic<int>& failed) {
    const long rss_start = resident_kib(options.server_pid);
    std::vector<std::string> tokens;
    for (int i = 0; i < options.idle_sockets; ++i)
        tokens.push_back(create_guest(io, options.port, "I" + std::to_string(i)).second);
    const long rss_guests = resident_kib(options.server_pid);
    const auto started = Clock::now();
    for (auto& token : tokens) {
        sockets.push_back(std::make_shared<IdleSocket>(io, std::move(token), open, failed));
        sockets.back()->start(options.port);
    }
    const auto deadline = started + std::chrono::seconds(60);
    while (open + failed < options.idle_sockets && Clock::now() < deadline)
        io.run_for(std::chrono::milliseconds(100));
    const double took = std::chrono::duration<double>(Clock::now() - started).count();
    io.run_for(std::chrono::milliseconds(500));  // the server settles
    const long rss_open = resident_kib(options.server_pid);
    std::printf("idle sockets: %d open (%d failed) of %d, in %.1f s\n", open.load(),
                failed.load(), options.idle_sockets, took);
    if (options.server_pid > 0 && options.idle_sockets > 0)
        std::printf("server RSS: %ld KiB at start, %ld KiB with the guests (%.2f KiB per guest), "
                    "%ld KiB with their sockets open (%.2f KiB per socket)\n",
                    rss_start, rss_guests,
                    static_cast<double>(rss_guests - rss_start) / options.idle_sockets, rss_open,
                    static_cast<double>(rss_open - rss_guests) / std::max(1, open.load()));
    std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
    Options options;
    try {
        options = parse(argc, argv);
    } catch (const std::exception& e) {
        std::cerr << e.what() << "\nusage: server-bench [--port P] [--matches N] [--seconds S]"
                  << " [--server-pid PID] [--hold-after STEPS] [--idle-sockets N]"
                  << " [--rss-every S] [--threads N] [--powers none|simple|all]"
                  << "   (127.0.0.1 only)\n";
        return 2;
    }
    const rlim_t open_files = raise_open_files();
    if (open_files < static_cast<rlim_t>(2 * options.matches + options.idle_sockets + 64))
        std::cerr << "warning: the open-file limit (" << open_files
                  << ") is below the sockets asked for\n";
    asio::io_context io(options.threads);
    Totals totals;
    totals.hold_after = options.hold_after;
    totals.powers = options.powers;

    std::vector<std::shared_ptr<IdleSocket>> idle;
    std::atomic<int> idle_open{0}, idle_failed{0};
    std::vector<std::unique_ptr<Pair>> pairs;
    long rss_before = 0;
    try {
        if (options.idle_sockets > 0) open_idle_sockets(io, options, idle, idle_open, idle_failed);
        rss_before = resident_kib(options.server_pid);
        for (int m = 0; m < options.matches; ++m) {
            auto pair = std::make_unique<Pair>(asio::make_strand(io), totals,
                                               static_cast<std::uint32_t>(m + 1));
            for (int i = 0; i < 2; ++i) {
                auto [id, token] = create_guest(io, options.port, "B" + std::to_string(2 * m + i));
                pair->players[i] = std::make_shared<Connection>(pair->strand(), *pair, i, token);
            }
            pairs.push_back(std::move(pair));
        }
    } catch (const std::exception& e) {
        std::cerr << "setup failed: " << e.what() << "\n";
        return 1;
    }
    for (auto& pair : pairs)
        for (auto& c : pair->players) c->start(options.port);

    // The measured time runs once every pair has its first match open (at most a minute of
    // setup). At its end every pair checks its game in progress against a snapshot (up to 10 s).
    long rss_peak = 0;
    int idle_peak = idle_open;
    const auto setup_limit = Clock::now() + std::chrono::seconds(60);
    auto setup_end = setup_limit;
    auto end = setup_end + std::chrono::seconds(options.seconds);
    auto check_deadline = end + std::chrono::seconds(10);
    std::pair<double, double> own_start{}, own_end{}, machine_start{}, machine_end{};
    double server_start = 0, server_end = 0;
    auto last_rss_print = setup_end;
    std::uint64_t last_rss_steps = 0;
    asio::steady_timer tick(io);
    std::function<void()> on_tick = [&] {
        rss_peak = std::max(rss_peak, resident_kib(options.server_pid));
        idle_peak = std::max(idle_peak, idle_open.load());
        const auto now = Clock::now();
        if (!totals.measuring && !totals.stopping &&
            (now >= setup_limit || totals.started == static_cast<int>(pairs.size()))) {
            setup_end = last_rss_print = now;
            end = setup_end + std::chrono::seconds(options.seconds);
            check_deadline = end + std::chrono::seconds(10);
            std::printf("setup: %d of %zu pairs have their match open\n", totals.started.load(),
                        pairs.size());
            own_start = own_cpu_seconds();
            server_start = process_cpu_seconds(options.server_pid);
            machine_start = machine_ticks();
            totals.measuring = true;
        }
        if (options.rss_every > 0 && totals.measuring &&
            now - last_rss_print >= std::chrono::seconds(options.rss_every)) {
            const double dt = std::chrono::duration<double>(now - last_rss_print).count();
            const std::uint64_t steps = totals.steps;
            std::printf("t=%5.0f s  server RSS %ld KiB  games finished %llu  steps/s %.0f\n",
                        std::chrono::duration<double>(now - setup_end).count(),
                        resident_kib(options.server_pid),
                        static_cast<unsigned long long>(totals.all_games.load()),
                        (steps - last_rss_steps) / dt);
            std::fflush(stdout);
            last_rss_print = now;
            last_rss_steps = steps;
        }
        if (now >= end && !totals.stopping) {
            own_end = own_cpu_seconds();
            server_end = process_cpu_seconds(options.server_pid);
            machine_end = machine_ticks();
            totals.measuring = false;
            totals.stopping = true;
            for (auto& pair : pairs) asio::post(pair->strand(), [p = pair.get()] { p->finish(); });
        }
        if (totals.stopping &&
            (totals.done == static_cast<int>(pairs.size()) || now >= check_deadline)) {
            io.stop();
            return;
        }
        tick.expires_after(std::chrono::milliseconds(250));
        tick.async_wait([&](beast::error_code) { on_tick(); });
    };
    on_tick();
    std::thread guard([&] {  // the run always stops by itself
        std::this_thread::sleep_until(setup_limit + std::chrono::seconds(options.seconds + 15));
        io.stop();
    });
    std::vector<std::thread> threads;
    for (int t = 1; t < options.threads; ++t) threads.emplace_back([&] { io.run(); });
    io.run();
    for (auto& t : threads) t.join();
    guard.detach();

    Samples ack, broadcast;
    for (auto& pair : pairs) {
        ack.merge(pair->ack);
        broadcast.merge(pair->broadcast);
    }
    const double seconds = options.seconds;
    std::printf("matches: %d   measured: %d s   powers: %s   bench threads: %d\n",
                options.matches, options.seconds, options.powers.c_str(), options.threads);
    std::printf("steps/s: %.0f   full turns/s: %.0f   games finished: %llu   errors: %llu\n",
                totals.steps / seconds, totals.turns / seconds,
                static_cast<unsigned long long>(totals.games.load()),
                static_cast<unsigned long long>(totals.errors.load()));
    std::printf("step -> own patch (ack):        %s\n", ack.summary().c_str());
    std::printf("step -> opponent's patch:       %s\n", broadcast.summary().c_str());
    std::printf("views checked against a snapshot: %llu, mismatches: %llu, version gaps: %llu, "
                "pairs done: %d of %zu\n",
                static_cast<unsigned long long>(totals.checks.load()),
                static_cast<unsigned long long>(totals.mismatches.load()),
                static_cast<unsigned long long>(totals.gaps.load()), totals.done.load(),
                pairs.size());
    const double own_user = own_end.first - own_start.first;
    const double own_sys = own_end.second - own_start.second;
    std::printf("bench CPU: %.2f s user + %.2f s sys = %.0f%% of one core\n", own_user, own_sys,
                100 * (own_user + own_sys) / seconds);
    const double machine_busy = machine_end.first - machine_start.first;
    const double machine_total = machine_end.second - machine_start.second;
    if (machine_total > 0)
        std::printf("machine: %.0f%% busy on %u cores (everything, other users included)\n",
                    100 * machine_busy / machine_total, std::thread::hardware_concurrency());
    if (options.server_pid > 0) {
        const double server_cpu = server_end - server_start;
        std::printf("server CPU: %.2f s = %.0f%% of one core; %.1f us per full turn, %.1f us per "
                    "step\n",
                    server_cpu, 100 * server_cpu / seconds,
                    totals.turns ? 1e6 * server_cpu / totals.turns : 0.0,
                    totals.steps ? 1e6 * server_cpu / totals.steps : 0.0);
    }
    if (options.hold_after > 0)
        std::printf("pairs holding a live match after %d steps: %d of %d\n", options.hold_after,
                    totals.holding.load(), options.matches);
    if (options.idle_sockets > 0)
        std::printf("idle sockets open: %d at the peak, %d at the end\n", idle_peak,
                    idle_open.load());
    if (options.server_pid > 0 && options.matches > 0)
        std::printf("server RSS: %ld KiB before the matches, %ld KiB peak: %.1f KiB per %s\n",
                    rss_before, rss_peak,
                    static_cast<double>(rss_peak - rss_before) / options.matches,
                    options.hold_after > 0 ? "live match"
                                           : "pair (with the finished matches the server keeps)");
    std::fflush(stdout);
    // Connections may still be open; the numbers are out.
    std::_Exit(totals.mismatches > 0 || totals.gaps > 0 ? 1 : 0);
}
