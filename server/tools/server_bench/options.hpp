// server-bench's command line.
#pragma once

#include <cstdint>
#include <string>

namespace server_bench {

/// What one run does; the defaults are those of a run without arguments.
struct Options {
    std::uint16_t port = 8080;
    int matches = 100;
    int seconds = 20;
    int server_pid = 0;
    int hold_after = 0;           ///< > 0: each pair stops after this many steps of its first game
    int idle_sockets = 0;         ///< sockets that only say hello and stay open
    int rss_every = 0;            ///< > 0: print the server's RSS every this many seconds
    int threads = 1;              ///< threads running the bench's io_context (a strand per pair)
    std::string powers = "none";  ///< lobby setting: none, simple, all
    /// Human pace (open loop): > 0, the deciding player waits a uniform think_min_ms ..
    /// think_max_ms before each step (from the moment it may act); 0: steps at once (closed loop).
    /// How a step is acknowledged: "none" (no ref, as a bench client needs none), "ack" (a ref,
    /// a separate ack as browsers get), "patch" (a ref, hello with ack_in_patch).
    std::string acks = "none";
    int think_min_ms = 0;
    int think_max_ms = 0;
};

/// The options on the command line; throws std::invalid_argument on an unknown or bad one.
Options parse(int argc, char** argv);

/// The one-line usage printed after a bad command line.
const char* usage();

}  // namespace server_bench
