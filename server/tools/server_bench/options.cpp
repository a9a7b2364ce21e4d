#include "server/tools/server_bench/options.hpp"

#include <stdexcept>
#include <string>
#include <string_view>

namespace server_bench {

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
        else if (arg == "--acks")
            options.acks = text();
        else if (arg == "--think") {
            // MIN,MAX in milliseconds, or one figure for a fixed time.
            const std::string range = text();
            const auto comma = range.find(',');
            options.think_min_ms = std::stoi(range.substr(0, comma));
            options.think_max_ms = comma == std::string::npos ? options.think_min_ms
                                                              : std::stoi(range.substr(comma + 1));
        } else
            throw std::invalid_argument("unknown argument " + std::string(arg));
    }
    if (options.matches < 0 || options.seconds < 1 || options.threads < 1 ||
        options.idle_sockets < 0 || options.rss_every < 0 || options.think_min_ms < 0 ||
        options.think_max_ms < options.think_min_ms)
        throw std::invalid_argument("--seconds and --threads need >= 1, the others >= 0");
    if (options.think_max_ms > 0 && options.hold_after > 0)
        throw std::invalid_argument("--think and --hold-after do not go together");
    if (options.acks != "none" && options.acks != "ack" && options.acks != "patch")
        throw std::invalid_argument("--acks: none, ack or patch");
    if (options.powers != "none" && options.powers != "simple" && options.powers != "all")
        throw std::invalid_argument("--powers: none, simple or all");
    return options;
}

const char* usage() {
    return "usage: server-bench [--port P] [--matches N] [--seconds S]"
           " [--server-pid PID] [--hold-after STEPS] [--idle-sockets N]"
           " [--rss-every S] [--threads N] [--powers none|simple|all]"
           " [--think MIN_MS,MAX_MS] [--acks none|ack|patch]"
           "   (127.0.0.1 only)";
}

}  // namespace server_bench
