#include "tests/fleet/haproxy.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/beast/http/status.hpp>
#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <thread>

#include "tests/integration/support.hpp"
#include "tests/server/support/ws_client.hpp"

namespace fleet {

namespace http = boost::beast::http;
using namespace std::chrono_literals;

std::string haproxy_binary() {
    for (const char* path : {"/usr/sbin/haproxy", "/usr/bin/haproxy", "/usr/local/sbin/haproxy"})
        if (::access(path, X_OK) == 0) return path;
    return {};
}

HaProxy::HaProxy(std::vector<std::pair<std::string, std::uint16_t>> nodes, std::string config_path,
                 std::string log_path)
    : nodes_(std::move(nodes)),
      config_path_(std::move(config_path)),
      log_path_(std::move(log_path)) {}

HaProxy::~HaProxy() {
    stop();
}

void HaProxy::start() {
    const std::string binary = haproxy_binary();
    if (binary.empty())
        throw std::runtime_error(
            "haproxy is not installed (apt-get install -y haproxy; scripts/setup installs it)");
    port_ = integration::free_port();
    {
        // Timeouts: a WebSocket is a tunnel once upgraded (timeout tunnel); the server pings
        // idle sockets well within it. A refused connection (a killed node) is retried on
        // another node (redispatch), before the checks have noticed it is down.
        std::ofstream out(config_path_);
        out << "global\n"
               "    maxconn 512\n"
               "defaults\n"
               "    mode http\n"
               "    timeout connect 1s\n"
               "    timeout client 30s\n"
               "    timeout server 30s\n"
               "    timeout tunnel 60s\n"
               "    retries 3\n"
               "    option redispatch 1\n"
               "frontend fleet\n"
               "    bind 127.0.0.1:"
            << port_
            << "\n"
               "    default_backend nodes\n"
               "backend nodes\n"
               "    balance roundrobin\n"
               "    option httpchk\n"
               "    http-check send meth GET uri /healthz\n"
               "    http-check expect status 200\n"
               "    default-server check inter 500ms fall 2 rise 1\n";
        for (const auto& [name, port] : nodes_)
            out << "    server " << name << " 127.0.0.1:" << port << "\n";
        if (!out) throw std::runtime_error("cannot write " + config_path_);
    }
    std::fflush(nullptr);
    const pid_t pid = ::fork();
    if (pid < 0) throw std::runtime_error("fork failed");
    if (pid == 0) {
        std::freopen("/dev/null", "r", stdin);
        std::freopen(log_path_.c_str(), "a", stdout);
        std::freopen(log_path_.c_str(), "a", stderr);
        // -db: in the foreground, not a daemon, so it is our child to stop.
        ::execl(binary.c_str(), binary.c_str(), "-db", "-f", config_path_.c_str(),
                static_cast<char*>(nullptr));
        std::_Exit(127);
    }
    pid_ = pid;
    // Ready once a request through it reaches a node, and stays ready: every node answers
    // several requests in a row (round robin takes them in turn).
    const auto deadline = std::chrono::steady_clock::now() + 10s;
    std::size_t in_a_row = 0;
    while (std::chrono::steady_clock::now() < deadline) {
        int status = 0;
        if (::waitpid(pid_, &status, WNOHANG) == pid_) {
            pid_ = 0;
            throw std::runtime_error("haproxy exited at start (see " + log_path_ + ")");
        }
        try {
            if (test::http_request(port_, http::verb::get, "/healthz", {}, 1s).result() ==
                http::status::ok) {
                if (++in_a_row >= 2 * nodes_.size()) return;
                continue;
            }
        } catch (const std::exception&) {
        }
        in_a_row = 0;
        std::this_thread::sleep_for(50ms);
    }
    throw std::runtime_error("haproxy did not become ready (see " + log_path_ + ")");
}

void HaProxy::stop() {
    if (pid_ == 0) return;
    ::kill(pid_, SIGTERM);
    const auto deadline = std::chrono::steady_clock::now() + 1s;
    while (std::chrono::steady_clock::now() < deadline) {
        if (::waitpid(pid_, nullptr, WNOHANG) == pid_) {
            pid_ = 0;
            return;
        }
        std::this_thread::sleep_for(10ms);
    }
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
    pid_ = 0;
}

}  // namespace fleet
