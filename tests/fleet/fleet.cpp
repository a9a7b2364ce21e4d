#include "tests/fleet/fleet.hpp"

#include <deque>
#include <fstream>
#include <sstream>

namespace fleet {

Fleet::Fleet(const std::string& name) : url_(integration::fresh_schema_url(integration::database_url())) {
    std::vector<std::pair<std::string, std::uint16_t>> backends;
    for (int i = 0; i < node_count; ++i) {
        ports_.push_back(integration::free_port());
        logs_.push_back(std::string(FLEET_LOG_DIR) + "/fleet_" + name + "_" + node_id(i) + ".log");
        std::ofstream(logs_.back(), std::ios::trunc);  // this run's log only
        nodes_.push_back(std::make_unique<integration::ServerProcess>(
            ports_.back(), url_, logs_.back(),
            std::vector<std::string>{"--node-id", node_id(i), "--node-url",
                                     "http://127.0.0.1:" + std::to_string(ports_.back()),
                                     "--lease-ms", std::to_string(lease.count())}));
        backends.emplace_back(node_id(i), ports_.back());
    }
    const std::string prefix = std::string(FLEET_LOG_DIR) + "/fleet_" + name + "_haproxy";
    std::ofstream(prefix + ".log", std::ios::trunc);
    proxy_ = std::make_unique<HaProxy>(std::move(backends), prefix + ".cfg", prefix + ".log");
}

Fleet::~Fleet() {
    proxy_->stop();
    for (auto& node : nodes_) node->kill_now();
}

void Fleet::start() {
    for (auto& node : nodes_) node->start();
    proxy_->start();
}

int Fleet::index_of(const std::string& id) const {
    for (int i = 0; i < node_count; ++i)
        if (node_id(i) == id) return i;
    return -1;
}

std::string Fleet::log_tails(std::size_t lines) const {
    std::ostringstream out;
    for (int i = 0; i < node_count; ++i) {
        std::ifstream in(log(i));
        std::deque<std::string> tail;
        for (std::string line; std::getline(in, line);) {
            tail.push_back(line);
            if (tail.size() > lines) tail.pop_front();
        }
        out << "---- " << node_id(i) << " (" << log(i) << ")\n";
        for (const std::string& line : tail) out << line << "\n";
    }
    return out.str();
}

}  // namespace fleet
