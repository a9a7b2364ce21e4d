// Crash recovery against a real PostgreSQL (SANTORINI_TEST_DATABASE_URL, see
// scripts/with-postgres): the santorini-server binary runs as a child process on a free loopback
// port, several games are played at once by WebSocket clients taking random legal steps, the server
// is SIGKILLed at random moments (a bounded number of times) and restarted, and after every restart
// each step a client saw acknowledged must be stored, in order; then every game is played to its
// end and must be stored finished and rated.

#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/http/status.hpp>
#include <catch2/catch_test_macros.hpp>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <pqxx/pqxx>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "server/store/repository.hpp"
#include "tests/server/ws_client.hpp"

namespace {

using json = nlohmann::json;
using namespace std::chrono_literals;
namespace http = boost::beast::http;

constexpr int game_count = 4;
constexpr int kill_count = 3;
constexpr auto test_deadline = 50s;  // the whole test stops by itself well before a minute

std::string database_url() {
    const char* url = std::getenv("SANTORINI_TEST_DATABASE_URL");
    if (url == nullptr || *url == '\0')
        FAIL("SANTORINI_TEST_DATABASE_URL is not set: run the tests under scripts/with-postgres");
    return url;
}

/// A fresh schema of the test database, and a URL whose search_path puts it first.
std::string fresh_schema_url(const std::string& base) {
    const std::string schema =
        "crash_" + std::to_string(::getpid()) + "_" +
        std::to_string(std::chrono::steady_clock::now().time_since_epoch().count() % 1000000007);
    pqxx::connection connection(base);
    pqxx::nontransaction work(connection);
    work.exec("CREATE SCHEMA " + schema);
    return base + (base.find('?') == std::string::npos ? "?" : "&") + "options=-csearch_path%3D" +
           schema;
}

std::uint16_t free_port() {
    boost::asio::io_context io;
    boost::asio::ip::tcp::acceptor acceptor(io, {boost::asio::ip::make_address("127.0.0.1"), 0});
    return acceptor.local_endpoint().port();
}

/// The server binary as a child process.
class ServerProcess {
  public:
    ServerProcess(std::uint16_t port, std::string url) : port_(port), url_(std::move(url)) {}
    ~ServerProcess() { kill_now(); }

    void start() {
        const std::string port = std::to_string(port_);
        std::fflush(nullptr);  // or the child writes the test's buffered output a second time
        const pid_t pid = ::fork();
        if (pid < 0) throw std::runtime_error("fork failed");
        if (pid == 0) {
            std::freopen("/dev/null", "w", stdout);
            // The server's log goes to a file beside the build for a failing run's post-mortem.
            std::freopen(SANTORINI_SERVER_LOG, "a", stderr);
            ::execl(SANTORINI_SERVER_BINARY, SANTORINI_SERVER_BINARY, "--port", port.c_str(),
                    "--database-url", url_.c_str(), "--threads", "2", "--log-level", "info",
                    "--messages-per-second", "100000", "--message-burst", "100000", "--guest-burst",
                    "1000", static_cast<char*>(nullptr));
            std::_Exit(127);
        }
        {
            std::lock_guard lock(mutex_);
            pid_ = pid;
        }
        const auto deadline = std::chrono::steady_clock::now() + 15s;
        while (std::chrono::steady_clock::now() < deadline) {
            try {
                if (test::http_request(port_, http::verb::get, "/api/lobbies", {}, 1s).result() ==
                    http::status::ok) {
                    ready_ = true;
                    ready_changed_.notify_all();
                    return;
                }
            } catch (const std::exception&) {
            }
            int status = 0;
            if (::waitpid(pid, &status, WNOHANG) == pid) {
                std::lock_guard lock(mutex_);
                pid_ = 0;
                throw std::runtime_error("the server exited at start");
            }
            std::this_thread::sleep_for(20ms);
        }
        throw std::runtime_error("the server did not become ready");
    }

    /// SIGKILL, if it runs and is ready; false if it was not (the killer waits for a restart).
    bool kill_if_ready() {
        std::lock_guard lock(mutex_);
        if (!ready_ || pid_ == 0) return false;
        ::kill(pid_, SIGKILL);
        ready_ = false;
        ++kills_;
        return true;
    }
    /// Reaps a killed server and starts a new one. Only when kills() says one was killed.
    void restart() {
        pid_t pid = 0;
        {
            std::lock_guard lock(mutex_);
            pid = pid_;
            pid_ = 0;
        }
        if (pid != 0) ::waitpid(pid, nullptr, 0);
        start();
    }
    int kills() const {
        std::lock_guard lock(mutex_);
        return kills_;
    }
    /// Blocks until the server is ready again, `until` passes, or stop_waiting() is called.
    void wait_ready(std::chrono::steady_clock::time_point until) {
        std::unique_lock lock(mutex_);
        ready_changed_.wait_until(lock, until, [&] { return ready_ || stop_waiting_; });
    }
    /// Releases wait_ready() for good (the test is ending, maybe by a failure).
    void stop_waiting() {
        {
            std::lock_guard lock(mutex_);
            stop_waiting_ = true;
        }
        ready_changed_.notify_all();
    }
    void kill_now() {
        std::lock_guard lock(mutex_);
        if (pid_ != 0) {
            ::kill(pid_, SIGKILL);
            ::waitpid(pid_, nullptr, 0);
            pid_ = 0;
        }
        ready_ = false;
    }

  private:
    std::uint16_t port_;
    std::string url_;
    mutable std::mutex mutex_;
    std::condition_variable ready_changed_;
    pid_t pid_ = 0;
    bool ready_ = false;
    bool stop_waiting_ = false;
    int kills_ = 0;
};

struct Player {
    std::string id;
    std::string token;
    std::unique_ptr<test::WsClient> ws;
};

struct Game {
    std::string match;
    std::vector<int> players;  ///< player index by seat
    std::vector<json> steps;   ///< every step known to be stored, in order
    bool over = false;
};

/// Thrown when the connection to the server is lost (it was killed).
struct Lost {};

int next_ref = 0;

/// A legal step of the decider's view: a winning move up to level 3 when there is one (so the
/// games end in a bounded time), else a random one.
json pick(const json& view, std::mt19937& rng) {
    const json& legal = view["state"]["legal"];
    const json& board = view["state"]["board"];
    auto height = [&](const json& square) {
        if (!square.is_string()) return -1;
        const std::string sq = square;
        const std::string cell = board[static_cast<std::size_t>((sq[0] - 'A') + (sq[1] - '1') * 5)];
        return cell.find('D') != std::string::npos ? 9 : cell[0] - '0';
    };
    for (const auto& s : legal)
        if (s["kind"] == "move" && height(s.value("to", json())) == 3 &&
            height(s.value("from", json())) == 2)
            return s;
    return legal[std::uniform_int_distribution<std::size_t>(0, legal.size() - 1)(rng)];
}

/// Sends `message` with a fresh ref and reads until the reply to it; throws Lost if the server
/// is gone. Messages on the way go to `seen`.
json request(Player& p, json message, std::vector<json>* seen = nullptr) {
    const int ref = ++next_ref;
    message["ref"] = ref;
    if (!p.ws || p.ws->ended() || !p.ws->send_json(message)) throw Lost{};
    const auto deadline = std::chrono::steady_clock::now() + 5s;
    while (std::chrono::steady_clock::now() < deadline) {
        auto reply = p.ws->read_json(2s);
        if (!reply) {
            if (p.ws->ended()) throw Lost{};
            continue;
        }
        if (reply->contains("ref") && (*reply)["ref"] == ref) return *reply;
        if (seen) seen->push_back(*reply);
    }
    throw Lost{};  // a live server answers within the deadline
}

void connect(Player& p, std::uint16_t port) {
    p.ws.reset();
    try {
        p.ws = std::make_unique<test::WsClient>(port);
    } catch (const std::exception&) {
        throw Lost{};
    }
    if (!p.ws->send_json({{"type", "hello"}, {"protocol", 1}, {"token", p.token}})) throw Lost{};
    auto welcome = p.ws->read_json(5s);
    if (!welcome) throw Lost{};
    REQUIRE((*welcome)["type"] == "welcome");
    REQUIRE((*welcome)["player"]["id"] == p.id);
}

/// The view of `game` as its seat `seat` sees it (a fresh snapshot).
json view_of(Player& p, const Game& game) {
    std::vector<json> seen;
    const json reply = request(p, {{"type", "match.open"}, {"match", game.match}}, &seen);
    INFO(reply.dump());
    REQUIRE(reply["type"] == "ack");
    for (auto it = seen.rbegin(); it != seen.rend(); ++it)
        if (it->value("type", "") == "match.snapshot" && (*it)["match"] == game.match)
            return (*it)["view"];
    FAIL("no snapshot before the ack of match.open");
    return {};
}

/// Checks that what the clients saw acknowledged is stored, in order, and adopts the stored
/// steps as the truth (a step may be stored without its acknowledgement having arrived).
void check_stored(store::Repository& repo, std::vector<Game>& games) {
    for (Game& game : games) {
        auto stored = repo.match(game.match);
        INFO("match " << game.match);
        REQUIRE(stored.ok());
        REQUIRE(stored->steps.size() >= game.steps.size());
        std::vector<json> steps;
        for (std::size_t i = 0; i < stored->steps.size(); ++i) {
            REQUIRE(stored->steps[i].number == i + 1);
            REQUIRE(!stored->steps[i].state_hash.empty());
            steps.push_back(json::parse(stored->steps[i].step_json));
            if (i < game.steps.size()) CHECK(steps[i] == game.steps[i]);
        }
        game.steps = std::move(steps);
    }
}

}  // namespace

TEST_CASE("SIGKILLed server: every acknowledged step survives and every game finishes",
          "[integration][postgres]") {
    const std::string url = fresh_schema_url(database_url());
    const std::uint16_t port = free_port();
    std::fclose(std::fopen(SANTORINI_SERVER_LOG, "w"));  // this run's log only
    ServerProcess server(port, url);
    server.start();
    store::Repository repo(url, 2);
    const auto deadline = std::chrono::steady_clock::now() + test_deadline;

    std::vector<Player> players(2 * game_count);
    for (std::size_t i = 0; i < players.size(); ++i) {
        auto response = test::http_request(port, http::verb::post, "/api/guests",
                                           json{{"name", "P" + std::to_string(i)}}.dump());
        REQUIRE(response.result() == http::status::created);
        const json body = json::parse(response.body());
        players[i].id = body["id"];
        players[i].token = body["token"];
        connect(players[i], port);
    }

    // Half the games without powers, half with simple powers (two rating pools).
    std::vector<Game> games(game_count);
    for (int g = 0; g < game_count; ++g) {
        Player& host = players[static_cast<std::size_t>(2 * g)];
        Player& guest = players[static_cast<std::size_t>(2 * g + 1)];
        const json settings = {
            {"game", "santorini"}, {"players", 2},    {"powers", g % 2 ? "simple" : "none"},
            {"draft", "random"},   {"public", false}, {"clock", {{"kind", "none"}}}};
        std::vector<json> seen;
        REQUIRE(request(host, {{"type", "lobby.create"}, {"settings", settings}}, &seen)["type"] ==
                "ack");
        std::string lobby, code;
        for (const json& m : seen)
            if (m.value("type", "") == "lobby") {
                lobby = m["lobby"]["id"];
                code = m["lobby"]["code"];
            }
        REQUIRE(!code.empty());
        REQUIRE(request(guest, {{"type", "lobby.join"}, {"code", code}})["type"] == "ack");
        seen.clear();
        const json started = request(host, {{"type", "lobby.start"}, {"lobby", lobby}}, &seen);
        INFO(started.dump());
        REQUIRE(started["type"] == "ack");
        Game& game = games[static_cast<std::size_t>(g)];
        for (const json& m : seen)
            if (m.value("type", "") == "lobby.closed" && m.contains("match"))
                game.match = m["match"];
        REQUIRE(!game.match.empty());
        const json view = view_of(host, game);
        const int host_seat = view["you"];
        game.players = host_seat == 0 ? std::vector<int>{2 * g, 2 * g + 1}
                                      : std::vector<int>{2 * g + 1, 2 * g};
    }

    // The killer: SIGKILL at random moments while the games are played, a bounded number of
    // times, each time waiting for the restart before the next. The moments are tied to the
    // play, not to the clock (a fast server finishes these games in well under a second): each
    // kill waits for a random number of acknowledged steps, then a random few milliseconds, so
    // it lands between steps or in the middle of one.
    std::atomic<bool> done{false};
    std::atomic<int> steps_played{0};
    std::thread killer([&] {
        std::mt19937 rng(std::random_device{}());
        std::uniform_int_distribution<int> steps_between(3, 40);
        std::uniform_int_distribution<int> pause_us(0, 3000);
        int next_kill_at = 0;
        for (int k = 0; k < kill_count && !done; ++k) {
            next_kill_at = steps_played + steps_between(rng);
            while (!done && steps_played < next_kill_at &&
                   std::chrono::steady_clock::now() < deadline)
                std::this_thread::sleep_for(100us);
            std::this_thread::sleep_for(std::chrono::microseconds(pause_us(rng)));
            server.wait_ready(deadline);
            if (done) break;
            server.kill_if_ready();
        }
    });
    struct JoinKiller {
        std::atomic<bool>& done;
        std::thread& thread;
        ServerProcess& server;
        ~JoinKiller() {
            done = true;
            server.stop_waiting();
            thread.join();
        }
    } join_killer{done, killer, server};

    std::mt19937 rng(12345);
    int restarts = 0;
    bool reconnect = false;
    auto all_over = [&] {
        for (const Game& g : games)
            if (!g.over) return false;
        return true;
    };
    while (!all_over()) {
        REQUIRE(std::chrono::steady_clock::now() < deadline);
        try {
            // After a restart: what was acknowledged is stored; then everyone reconnects. (Inside
            // the try: the killer may strike again while they do.)
            if (reconnect) {
                check_stored(repo, games);
                for (Player& p : players) connect(p, port);
                reconnect = false;
            }
            for (Game& game : games) {
                if (game.over) continue;
                // Who decides: seat 0's view says; the decider's own view lists its legal steps.
                json view = view_of(players[static_cast<std::size_t>(game.players[0])], game);
                if (view["status"] == "finished" || view["status"] == "aborted") {
                    game.over = true;
                    continue;
                }
                const json decider = view["state"]["decider"];
                REQUIRE(decider.is_number_integer());
                Player& p =
                    players[static_cast<std::size_t>(game.players[decider.get<std::size_t>()])];
                if (decider != 0) view = view_of(p, game);
                const json legal = view["state"]["legal"];
                REQUIRE(legal.is_array());
                REQUIRE(!legal.empty());
                const json step = pick(view, rng);
                const json reply =
                    request(p, {{"type", "match.step"}, {"match", game.match}, {"step", step}});
                if (reply["type"] == "ack") {
                    game.steps.push_back(step);
                    ++steps_played;
                } else {
                    INFO(reply.dump());
                    // The database may be catching up after a restart: try again.
                    REQUIRE(reply["code"] == "unavailable");
                }
            }
        } catch (const Lost&) {
            // The server is gone: it must have been killed (never by itself).
            REQUIRE(server.kills() > restarts);
            server.restart();
            ++restarts;
            reconnect = true;
        }
    }
    done = true;
    INFO("steps " << steps_played.load() << ", restarts " << restarts);
    check_stored(repo, games);
    for (const Game& game : games) {
        auto stored = repo.match(game.match);
        REQUIRE(stored.ok());
        CHECK(stored->status == "finished");
        CHECK(!stored->result_json.empty());
        CHECK(!stored->state_hash.empty());
        for (const store::StoredSeat& seat : stored->seats) CHECK(seat.rating_after.has_value());
    }
    // A final restart with nothing live recovers nothing and loses nothing.
    if (server.kill_if_ready()) server.restart();
    check_stored(repo, games);
    CHECK(restarts >= 1);
    SUCCEED();
}
