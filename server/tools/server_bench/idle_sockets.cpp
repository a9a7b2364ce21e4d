#include "server/tools/server_bench/idle_sockets.hpp"

#include <algorithm>
#include <cstdio>
#include <iostream>

#include "server/tools/server_bench/connection.hpp"
#include "server/tools/server_bench/probes.hpp"

namespace server_bench {

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
    std::printf("idle sockets: %d open (%d failed) of %d, in %.1f s\n", open.load(), failed.load(),
                options.idle_sockets, took);
    if (options.server_pid > 0 && options.idle_sockets > 0)
        std::printf(
            "server RSS: %ld KiB at start, %ld KiB with the guests (%.2f KiB per guest), "
            "%ld KiB with their sockets open (%.2f KiB per socket)\n",
            rss_start, rss_guests,
            static_cast<double>(rss_guests - rss_start) / options.idle_sockets, rss_open,
            static_cast<double>(rss_open - rss_guests) / std::max(1, open.load()));
    std::fflush(stdout);
}

}  // namespace server_bench
