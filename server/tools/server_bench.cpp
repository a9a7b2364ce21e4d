// server-bench: a load generator for a running santorini-server, over real WebSockets on the
// loopback interface only.
//
// It creates 2 x N guests, pairs them in N private lobbies (no powers, no clock), and every pair
// plays random legal steps as fast as the server answers, starting a new lobby when a game ends,
// for a fixed time. Each client follows the protocol like a real one: it keeps its view by
// applying the patches, and the seat that must decide picks from the legal steps its own view
// lists. Printed: steps and full turns per second, and the latency of a step from the moment it
// is sent to the moment its patch reaches the sender ("ack") and the opponent ("broadcast"),
// p50/p90/p99/max. With --server-pid it also prints the server's resident memory before the
// matches and at their peak; with --hold-after K every pair stops after K steps of its first
// game and keeps that match live, so the memory a live match costs can be read off.
//
// The server must be started with its per-connection rate limit lifted (a bench client sends a
// step each time the server answers), e.g.
//   santorini-server --port 8090 --messages-per-second 1000000 --message-burst 1000000
//                    --guest-burst 1000000 --log-level warn   (one command line)
//   server-bench --port 8090 --matches 1000 --seconds 20 --server-pid <pid>
// (docs/benchmarks.md). The run stops by itself after --seconds.

#include <algorithm>
#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
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
#include <optional>
#include <random>
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

struct Options {
    std::uint16_t port = 8080;
    int matches = 100;
    int seconds = 20;
    int server_pid = 0;
    int hold_after = 0;  ///< > 0: each pair stops after this many steps of its first game
};

/// Latencies in microseconds, summarised at the end.
struct Samples {
    std::vector<double> values;
    void add(Clock::duration d) {
        values.push_back(std::chrono::duration<double, std::micro>(d).count());
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

struct Totals {
    std::uint64_t steps = 0;
    std::uint64_t turns = 0;
    std::uint64_t games = 0;
    std::uint64_t errors = 0;
    Samples ack;
    Samples broadcast;
    bool measuring = false;  ///< false while the matches are being set up
    bool stopping = false;   ///< the time is up: no new steps or games
    int hold_after = 0;      ///< Options::hold_after
    int holding = 0;         ///< pairs that reached hold_after
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

class Pair;

/// One player's WebSocket, driven by the single bench thread.
class Connection : public std::enable_shared_from_this<Connection> {
  public:
    Connection(asio::io_context& io, Pair& pair, int index, std::string token)
        : ws_(io), pair_(pair), index_(index), token_(std::move(token)) {}

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

    void close() {
        closed_ = true;
        ws_.async_close(websocket::close_code::normal,
                        [self = shared_from_this()](beast::error_code) {});
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
            const json message =
                json::parse(beast::buffers_to_string(self->buffer_.data()), nullptr, false);
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
    bool closed_ = false;
};

/// Two players who play game after game against each other.
class Pair {
  public:
    Pair(Totals& totals, std::uint32_t seed) : totals_(totals), rng_(seed) {}

    std::shared_ptr<Connection> players[2];

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
            match_ = message["match"];
            players[index]->send({{"type", "match.open"}, {"match", match_}});
        } else if (type == "match.snapshot" && message.value("match", "") == match_) {
            players[index]->view = message["view"];
            players[index]->version = message["version"];
            act();
        } else if (type == "match.patch" && message.value("match", "") == match_) {
            Connection& c = *players[index];
            if (message["version"].get<std::uint64_t>() != c.version + 1) {
                ++totals_.errors;  // a gap: the server skipped a version
                return;
            }
            c.view = c.view.patch(message["patch"]);
            c.version = message["version"];
            if (!pending_) return act();
            // The step's patch is the one that lengthens the history (others change a seat's
            // connection or the spectator count).
            const auto latency = Clock::now() - pending_sent_;
            const bool has_step = history_length(c.view) > pending_history_;
            if (index == pending_index_ && has_step && !got_own_) {
                got_own_ = true;
                if (totals_.measuring) totals_.ack.add(latency);
            } else if (index != pending_index_ && has_step && !got_other_) {
                got_other_ = true;
                if (totals_.measuring) totals_.broadcast.add(latency);
            }
            if (got_own_ && got_other_) {
                pending_ = false;
                if (totals_.measuring) {
                    ++totals_.steps;
                    if (players[pending_index_]->view["state"].value("decider", json()) !=
                        pending_decider_)
                        ++totals_.turns;
                }
                act();
            }
        } else if (type == "error") {
            ++totals_.errors;
            if (totals_.errors <= 5) std::cerr << "server error: " << message.dump() << "\n";
        }
    }

  private:
    static std::size_t history_length(const json& view) {
        const auto it = view.find("history");
        return it != view.end() && it->is_array() ? it->size() : 0;
    }

    /// The seat that must decide sends a random legal step, once both views are current.
    void act() {
        if (pending_ || totals_.stopping) return;
        if (totals_.hold_after > 0 && steps_in_game_ >= totals_.hold_after) {
            if (!holding_) ++totals_.holding;
            holding_ = true;
            return;  // a live match, left as it is, to measure what it costs to keep
        }
        const json& view = players[0]->view;
        if (view.is_null() || players[1]->view.is_null()) return;
        const std::string status = view.value("status", "");
        if (status == "finished" || status == "aborted") {
            if (finished_match_ != match_) {
                finished_match_ = match_;
                if (totals_.measuring) ++totals_.games;
                new_lobby();
            }
            return;
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

    void new_lobby() {
        if (totals_.stopping) return;
        joined_ = false;
        steps_in_game_ = 0;
        match_.clear();
        players[0]->view = json();
        players[1]->view = json();
        players[0]->send({{"type", "lobby.create"},
                          {"settings",
                           {{"game", "santorini"},
                            {"players", 2},
                            {"powers", "none"},
                            {"public", false},
                            {"clock", {{"kind", "none"}}}}}});
    }

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
    std::string finished_match_;
    int steps_in_game_ = 0;
    bool holding_ = false;
};

void Connection::deliver(const json& message) {
    if (message.is_object()) pair_.on_message(index_, message);
}

void Connection::fail(const char* what, beast::error_code ec) {
    if (closed_) return;
    closed_ = true;
    std::cerr << "connection " << what << ": " << ec.message() << "\n";
}

Options parse(int argc, char** argv) {
    Options options;
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        auto value = [&]() -> int {
            if (i + 1 >= argc) throw std::invalid_argument(std::string(arg) + " needs a value");
            return std::stoi(argv[++i]);
        };
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
        else
            throw std::invalid_argument("unknown argument " + std::string(arg));
    }
    if (options.matches < 1 || options.seconds < 1) throw std::invalid_argument("need >= 1");
    return options;
}

}  // namespace

int main(int argc, char** argv) {
    Options options;
    try {
        options = parse(argc, argv);
    } catch (const std::exception& e) {
        std::cerr << e.what() << "\nusage: server-bench [--port P] [--matches N] [--seconds S]"
                  << " [--server-pid PID] [--hold-after STEPS]   (127.0.0.1 only)\n";
        return 2;
    }
    asio::io_context io(1);
    Totals totals;
    totals.hold_after = options.hold_after;
    const long rss_before = resident_kib(options.server_pid);
    std::vector<std::unique_ptr<Pair>> pairs;
    try {
        for (int m = 0; m < options.matches; ++m) {
            auto pair = std::make_unique<Pair>(totals, static_cast<std::uint32_t>(m + 1));
            for (int i = 0; i < 2; ++i) {
                auto [id, token] = create_guest(io, options.port, "B" + std::to_string(2 * m + i));
                pair->players[i] = std::make_shared<Connection>(io, *pair, i, token);
            }
            pairs.push_back(std::move(pair));
        }
    } catch (const std::exception& e) {
        std::cerr << "setup failed: " << e.what() << "\n";
        return 1;
    }
    for (auto& pair : pairs)
        for (auto& c : pair->players) c->start(options.port);

    // Setup (hello, lobby, first open) gets up to ten seconds, then the measured time runs.
    long rss_peak = 0;
    const auto setup_end =
        Clock::now() + std::chrono::seconds(std::min(10, 1 + options.matches / 100));
    const auto end = setup_end + std::chrono::seconds(options.seconds);
    asio::steady_timer tick(io);
    std::function<void()> on_tick = [&] {
        rss_peak = std::max(rss_peak, resident_kib(options.server_pid));
        const auto now = Clock::now();
        if (!totals.measuring && now >= setup_end) totals.measuring = true;
        if (now >= end) {
            totals.stopping = true;
            for (auto& pair : pairs)
                for (auto& c : pair->players) c->close();
            return;
        }
        tick.expires_after(std::chrono::milliseconds(250));
        tick.async_wait([&](beast::error_code) { on_tick(); });
    };
    on_tick();
    std::thread guard([&] {  // the run always stops by itself
        std::this_thread::sleep_until(end + std::chrono::seconds(10));
        io.stop();
    });
    io.run();
    guard.detach();

    const double seconds = options.seconds;
    std::printf("matches: %d   measured: %d s\n", options.matches, options.seconds);
    std::printf("steps/s: %.0f   full turns/s: %.0f   games finished: %llu   errors: %llu\n",
                totals.steps / seconds, totals.turns / seconds,
                static_cast<unsigned long long>(totals.games),
                static_cast<unsigned long long>(totals.errors));
    std::printf("step -> own patch (ack):        %s\n", totals.ack.summary().c_str());
    std::printf("step -> opponent's patch:       %s\n", totals.broadcast.summary().c_str());
    if (options.hold_after > 0)
        std::printf("pairs holding a live match after %d steps: %d of %d\n", options.hold_after,
                    totals.holding, options.matches);
    if (options.server_pid > 0)
        std::printf("server RSS: %ld KiB before, %ld KiB peak: %.1f KiB per live match\n",
                    rss_before, rss_peak,
                    static_cast<double>(rss_peak - rss_before) / options.matches);
    std::fflush(stdout);
    std::_Exit(0);  // connections may still be closing; the numbers are out
}
