#include "tests/integration/support.hpp"

#include "server/store/repository.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/http/status.hpp>
#include <catch2/catch_test_macros.hpp>
#include <pqxx/pqxx>
#include <cstdio>
#include <cstdlib>
#include <pqxx/pqxx>
#include <stdexcept>
#include <thread>

namespace integration {

namespace http = boost::beast::http;

std::string database_url() {
    const char* url = std::getenv("SANTORINI_TEST_DATABASE_URL");
    if (url == nullptr || *url == '\0')
        FAIL("SANTORINI_TEST_DATABASE_URL is not set: run the tests under scripts/with-postgres");
    return url;
}

std::string fresh_schema_url(const std::string& base) {
    const std::string schema =
        "it_" + std::to_string(::getpid()) + "_" +
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

// ---- ServerProcess ----

ServerProcess::ServerProcess(std::uint16_t port, std::string database_url, std::string log,
                             std::vector<std::string> extra)
    : port_(port), url_(std::move(database_url)), log_(std::move(log)), extra_(std::move(extra)) {}

ServerProcess::~ServerProcess() { kill_now(); }

void ServerProcess::start(bool until_recovered) {
    const std::string port = std::to_string(port_);
    // Built before the fork: the child only execs.
    std::vector<std::string> args = {SANTORINI_SERVER_BINARY, "--port", port, "--database-url", url_,
                                     "--threads", "2", "--log-level", "info",
                                     "--messages-per-second", "100000", "--message-burst", "100000",
                                     "--guest-burst", "1000"};
    args.insert(args.end(), extra_.begin(), extra_.end());
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    std::fflush(nullptr);  // or the child writes the test's buffered output a second time
    const pid_t pid = ::fork();
    if (pid < 0) throw std::runtime_error("fork failed");
    if (pid == 0) {
        std::freopen("/dev/null", "w", stdout);
        std::freopen(log_.c_str(), "a", stderr);
        ::execv(SANTORINI_SERVER_BINARY, argv.data());
        std::_Exit(127);
    }
    {
        std::lock_guard lock(mutex_);
        pid_ = pid;
    }
    const auto deadline = std::chrono::steady_clock::now() + 15s;
    while (std::chrono::steady_clock::now() < deadline) {
        try {
            const auto health = test::http_request(port_, http::verb::get, "/healthz", {}, 1s);
            if (health.result() == http::status::ok &&
                (!until_recovered ||
                 !json::parse(health.body(), nullptr, false).contains("recovering"))) {
                {
                    std::lock_guard lock(mutex_);
                    ready_ = true;
                }
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

pid_t ServerProcess::pid() const {
    std::lock_guard lock(mutex_);
    return pid_;
}

bool ServerProcess::kill_if_ready() {
    std::lock_guard lock(mutex_);
    if (!ready_ || pid_ == 0) return false;
    ::kill(pid_, SIGKILL);
    ready_ = false;
    ++kills_;
    return true;
}

void ServerProcess::restart() {
    pid_t pid = 0;
    {
        std::lock_guard lock(mutex_);
        pid = pid_;
        pid_ = 0;
    }
    if (pid != 0) ::waitpid(pid, nullptr, 0);
    start();
}

int ServerProcess::kills() const {
    std::lock_guard lock(mutex_);
    return kills_;
}

void ServerProcess::wait_ready(std::chrono::steady_clock::time_point until) {
    std::unique_lock lock(mutex_);
    ready_changed_.wait_until(lock, until, [&] { return ready_ || stop_waiting_; });
}

void ServerProcess::stop_waiting() {
    {
        std::lock_guard lock(mutex_);
        stop_waiting_ = true;
    }
    ready_changed_.notify_all();
}

void ServerProcess::kill_now() {
    std::lock_guard lock(mutex_);
    if (pid_ != 0) {
        ::kill(pid_, SIGKILL);
        ::waitpid(pid_, nullptr, 0);
        pid_ = 0;
    }
    ready_ = false;
}

void ServerProcess::terminate() {
    std::lock_guard lock(mutex_);
    ready_ = false;
    if (pid_ != 0) ::kill(pid_, SIGTERM);
}

bool ServerProcess::wait_exit(std::chrono::milliseconds grace) {
    pid_t pid = 0;
    {
        std::lock_guard lock(mutex_);
        pid = pid_;
    }
    if (pid == 0) return false;
    bool exited = false;
    const auto deadline = std::chrono::steady_clock::now() + grace;
    while (!exited && std::chrono::steady_clock::now() < deadline) {
        exited = ::waitpid(pid, nullptr, WNOHANG) == pid;
        if (!exited) std::this_thread::sleep_for(10ms);
    }
    if (!exited) {
        ::kill(pid, SIGKILL);
        ::waitpid(pid, nullptr, 0);
    }
    std::lock_guard lock(mutex_);
    pid_ = 0;
    return exited;
}

bool ServerProcess::running() const {
    std::lock_guard lock(mutex_);
    return pid_ != 0;
}

// ---- players ----

namespace {
int next_ref = 0;
}

Player new_guest(std::uint16_t port, const std::string& name) {
    auto response =
        test::http_request(port, http::verb::post, "/api/guests", json{{"name", name}}.dump());
    REQUIRE(response.result() == http::status::created);
    const json body = json::parse(response.body());
    Player p;
    p.id = body["id"];
    p.token = body["token"];
    return p;
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

json request(Player& p, json message, std::vector<json>* seen) {
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

Game start_match(Player& host, int host_index, Player& guest, int guest_index,
                 const json& settings) {
    std::vector<json> seen;
    // Public unless the settings say: spectators and the replay API need no invite code then.
    json lobby_settings = settings;
    if (!lobby_settings.contains("public")) lobby_settings["public"] = true;
    REQUIRE(request(host, {{"type", "lobby.create"}, {"settings", lobby_settings}}, &seen)["type"] ==
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
    Game game;
    for (const json& m : seen)
        if (m.value("type", "") == "lobby.closed" && m.contains("match")) game.match = m["match"];
    REQUIRE(!game.match.empty());
    const json view = view_of(host, game);
    const int host_seat = view["you"];
    game.players = host_seat == 0 ? std::vector<int>{host_index, guest_index}
                                  : std::vector<int>{guest_index, host_index};
    return game;
}

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

std::pair<Player*, json> decider_view(std::vector<Player>& players, const Game& game) {
    json view = view_of(players[static_cast<std::size_t>(game.players[0])], game);
    if (view["status"] == "finished" || view["status"] == "aborted") return {nullptr, view};
    const json decider = view["state"]["decider"];
    REQUIRE(decider.is_number_integer());
    Player* p = &players[static_cast<std::size_t>(game.players[decider.get<std::size_t>()])];
    if (decider != 0) view = view_of(*p, game);
    return {p, view};
}

void check_stored_finished(const std::string& database_url, const Game& game) {
    store::Repository repo(database_url, 1);
    auto stored = repo.match(game.match);
    REQUIRE(stored.ok());
    REQUIRE(stored->steps.size() == game.steps.size());
    for (std::size_t i = 0; i < game.steps.size(); ++i) {
        CHECK(stored->steps[i].number == i + 1);
        CHECK(json::parse(stored->steps[i].step_json) == game.steps[i]);
    }
    CHECK(stored->status == "finished");
    for (const store::StoredSeat& seat : stored->seats) CHECK(seat.rating_after.has_value());
}

json pick(const json& view, std::mt19937& rng) {
    const json& legal = view["state"]["legal"];
    if (view.value("game", "santorini") == "splendor") {
        // Mostly a buy when there is one: the game ends in a few dozen turns.
        std::vector<std::size_t> buys;
        for (std::size_t i = 0; i < legal.size(); ++i)
            if (legal[i]["kind"] == "buy") buys.push_back(i);
        if (!buys.empty() && rng() % 4 != 0) return legal[buys[rng() % buys.size()]];
        return legal[std::uniform_int_distribution<std::size_t>(0, legal.size() - 1)(rng)];
    }
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

void copy_match(const std::string& url, const std::string& match, int copies) {
    pqxx::connection c(url);
    pqxx::work w(c);
    w.exec_params("INSERT INTO matches (id, game, settings, seed, status, created_at, started_at, "
                  "state_hash, owner_node) SELECT id || '_' || g, game, settings, seed, status, "
                  "created_at, started_at, state_hash, owner_node FROM matches, "
                  "generate_series(2, $2) g WHERE id = $1",
                  match, copies);
    w.exec_params("INSERT INTO seats (match_id, seat, player_id, power, team, created_at) "
                  "SELECT match_id || '_' || g, seat, player_id, power, team, created_at FROM "
                  "seats, generate_series(2, $2) g WHERE match_id = $1",
                  match, copies);
    w.exec_params("INSERT INTO steps (match_id, number, player_id, step, at, state_hash) "
                  "SELECT match_id || '_' || g, number, player_id, step, at, state_hash FROM "
                  "steps, generate_series(2, $2) g WHERE match_id = $1",
                  match, copies);
    w.commit();
}

}  // namespace integration
