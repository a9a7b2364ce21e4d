#include "tests/fleet/fleet.hpp"

#include <boost/beast/http/status.hpp>
#include <catch2/catch_test_case_info.hpp>
#include <catch2/reporters/catch_reporter_event_listener.hpp>
#include <catch2/reporters/catch_reporter_registrars.hpp>
#include <deque>
#include <fstream>
#include <iostream>
#include <pqxx/pqxx>
#include <set>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "protocol/json/basic_json.hpp"

namespace fleet {

namespace http = boost::beast::http;
using json = nlohmann::json;
using namespace std::chrono_literals;

namespace {
std::vector<std::string> current_logs;  ///< the running test case's fleet logs
}

Fleet::Fleet(const std::string& name, std::chrono::milliseconds node_lease)
    : lease_(node_lease),
      url_(integration::fresh_schema_url(integration::database_url())) {
    std::vector<std::pair<std::string, std::uint16_t>> backends;
    for (int i = 0; i < node_count; ++i) {
        ports_.push_back(integration::free_port());
        logs_.push_back(std::string(FLEET_LOG_DIR) + "/fleet_" + name + "_" + node_id(i) + ".log");
        std::ofstream(logs_.back(), std::ios::trunc);  // this run's log only
        nodes_.push_back(std::make_unique<integration::ServerProcess>(
            ports_.back(), url_, logs_.back(),
            std::vector<std::string>{"--node-id", node_id(i), "--node-url",
                                     "http://127.0.0.1:" + std::to_string(ports_.back()),
                                     "--lease-ms", std::to_string(lease_.count()),
                                     // Signed broker messages, as a real fleet should run.
                                     "--fleet-secret", "the fleet test's shared secret"}));
        backends.emplace_back(node_id(i), ports_.back());
        current_logs.push_back(logs_.back());
    }
    const std::string prefix = std::string(FLEET_LOG_DIR) + "/fleet_" + name + "_haproxy";
    std::ofstream(prefix + ".log", std::ios::trunc);
    current_logs.push_back(prefix + ".log");
    proxy_ = std::make_unique<HaProxy>(std::move(backends), prefix + ".cfg", prefix + ".log");
}

Fleet::~Fleet() {
    proxy_->stop();
    for (auto& node : nodes_) node->kill_now();
}

void Fleet::start() {
    for (auto& node : nodes_) node->start();
    proxy_->start();
    wait_formed();
}

void Fleet::wait_formed() {
    std::set<std::string> running;
    for (int i = 0; i < node_count; ++i)
        if (nodes_[static_cast<std::size_t>(i)]->running()) running.insert(node_id(i));
    const auto deadline = std::chrono::steady_clock::now() + 10s;
    std::string last;
    while (std::chrono::steady_clock::now() < deadline) {
        std::set<std::string> leaders;
        bool formed = true;
        for (int i = 0; i < node_count && formed; ++i) {
            if (!running.count(node_id(i))) continue;
            try {
                const auto response =
                    test::http_request(port(i), http::verb::get, "/healthz", {}, 1s);
                const json fleet = json::parse(response.body()).value("fleet", json());
                last = node_id(i) + ": " + response.body();
                const auto alive = fleet.value("nodes", json::array()).get<std::set<std::string>>();
                formed = alive == running && !fleet.value("leader", "").empty();
                leaders.insert(fleet.value("leader", ""));
            } catch (const std::exception&) {
                formed = false;
            }
        }
        if (formed && leaders.size() == 1) return;
        std::this_thread::sleep_for(50ms);
    }
    throw std::runtime_error("the fleet did not form within 10 s; last /healthz: " + last);
}

int Fleet::index_of(const std::string& id) const {
    for (int i = 0; i < node_count; ++i)
        if (node_id(i) == id) return i;
    return -1;
}

std::string tails(const std::vector<std::string>& paths, std::size_t lines) {
    std::ostringstream out;
    for (const std::string& path : paths) {
        std::ifstream in(path);
        std::deque<std::string> tail;
        for (std::string line; std::getline(in, line);) {
            tail.push_back(line);
            if (tail.size() > lines) tail.pop_front();
        }
        out << "---- " << path << "\n";
        for (const std::string& line : tail) out << line << "\n";
    }
    return out.str();
}

// After a failed test case, the end of its fleet's logs (the Fleet is gone by then, its
// files are not): a Catch2 listener, so every test gets it without asking.
namespace {

class LogTails : public Catch::EventListenerBase {
  public:
    using Catch::EventListenerBase::EventListenerBase;
    void testCaseStarting(const Catch::TestCaseInfo&) override { current_logs.clear(); }
    void testCaseEnded(const Catch::TestCaseStats& stats) override {
        if (!stats.totals.assertions.allOk() && !current_logs.empty())
            std::cerr << "The fleet's logs, last lines:\n" << tails(current_logs, 25) << std::flush;
        current_logs.clear();
    }
};

}  // namespace

CATCH_REGISTER_LISTENER(LogTails)

std::string Fleet::leader() const {
    pqxx::connection connection(url_);
    pqxx::nontransaction work(connection);
    // A killed leader's row stays (with leader = true) until it is old: only a live one counts.
    const auto rows =
        work.exec("SELECT id FROM nodes WHERE leader AND heartbeat_at > now() - interval '" +
                  std::to_string(lease_.count()) + " milliseconds' ORDER BY heartbeat_at DESC");
    return rows.empty() ? std::string() : rows[0][0].as<std::string>();
}

}  // namespace fleet
