// santorini-server: one process serving HTTP and WebSocket on one port.
//
// Settings come from Config's defaults, then the environment (SANTORINI_PORT, ...), then the
// command line (--port 8080 or --port=8080). SIGINT/SIGTERM stop it gracefully; a second
// signal stops it at once.

#include <algorithm>
#include <charconv>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <variant>
#include <vector>

#include <malloc.h>
#include <sys/resource.h>

#include <boost/asio/signal_set.hpp>
#include <boost/system/system_error.hpp>
#include <spdlog/sinks/stdout_color_sinks.h>

#include "server/app/config.hpp"
#include "server/log/log.hpp"
#include "server/net/metrics_address.hpp"
#include "server/app/server.hpp"
#include "server/store/migrations.hpp"

namespace {

template <class T>
bool parse_number(std::string_view text, T& out) {
    T value{};
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc{} || end != text.data() + text.size()) return false;
    out = value;
    return true;
}

template <class T>
bool parse_positive(std::string_view text, T& out) {
    T value{};
    if (!parse_number(text, value) || !(value > T{})) return false;
    out = value;
    return true;
}

bool parse_ms(std::string_view text, std::chrono::milliseconds& out) {
    long ms = 0;
    if (!parse_positive(text, ms)) return false;
    out = std::chrono::milliseconds(ms);
    return true;
}

struct Option {
    std::string_view flag;  ///< --flag
    std::string_view env;   ///< SANTORINI_...
    std::string_view help;
    std::function<bool(std::string_view)> set;  ///< false: the value is not valid
};

std::vector<Option> options(server::Config& config, std::string& log_level) {
    return {
        {"--address", "SANTORINI_ADDRESS", "address to listen on (default 127.0.0.1)",
         [&](std::string_view v) { config.address = std::string(v); return !v.empty(); }},
        {"--port", "SANTORINI_PORT", "TCP port (default 8080; 0 picks a free one)",
         [&](std::string_view v) { return parse_number(v, config.port); }},
        {"--threads", "SANTORINI_THREADS", "io threads (default 0: one per core)",
         [&](std::string_view v) { return parse_number(v, config.threads) && config.threads >= 0; }},
        {"--io-contexts", "SANTORINI_IO_CONTEXTS",
         "shared (default): the io threads run one io_context; per-thread: one each, a connection "
         "on one in turn, a match on its first player's (less CPU a step, more latency when other "
         "processes take the cores)",
         [&](std::string_view v) {
             if (v != "shared" && v != "per-thread") return false;
             config.io_context_per_thread = v == "per-thread";
             return true;
         }},
        {"--web-root", "SANTORINI_WEB_ROOT", "folder of the browser client (default web)",
         [&](std::string_view v) { config.web_root = std::string(v); return !v.empty(); }},
        {"--max-connections", "SANTORINI_MAX_CONNECTIONS", "open TCP connections at most",
         [&](std::string_view v) { return parse_positive(v, config.max_connections); }},
        {"--max-frame-bytes", "SANTORINI_MAX_FRAME_BYTES", "largest WebSocket message accepted",
         [&](std::string_view v) { return parse_positive(v, config.max_frame_bytes); }},
        {"--messages-per-second", "SANTORINI_MESSAGES_PER_SECOND", "token bucket refill per connection",
         [&](std::string_view v) { return parse_positive(v, config.messages_per_second); }},
        {"--message-burst", "SANTORINI_MESSAGE_BURST", "token bucket size per connection",
         [&](std::string_view v) { return parse_positive(v, config.message_burst); }},
        {"--rate-strikes", "SANTORINI_RATE_STRIKES", "rate-limited messages before closing with 1008",
         [&](std::string_view v) { return parse_positive(v, config.rate_strikes_before_close); }},
        {"--max-queued-messages", "SANTORINI_MAX_QUEUED_MESSAGES", "outgoing queue per socket before 4000",
         [&](std::string_view v) { return parse_positive(v, config.max_queued_messages); }},
        {"--idle-timeout", "SANTORINI_IDLE_TIMEOUT", "seconds without traffic before a socket is dropped",
         [&](std::string_view v) {
             long seconds = 0;
             if (!parse_positive(v, seconds)) return false;
             config.idle_timeout = std::chrono::seconds(seconds);
             return true;
         }},
        {"--max-http-body", "SANTORINI_MAX_HTTP_BODY", "largest HTTP request body",
         [&](std::string_view v) { return parse_positive(v, config.max_http_body); }},
        {"--http-request-timeout-ms", "SANTORINI_HTTP_REQUEST_TIMEOUT_MS",
         "ms an HTTP connection has to send a whole request, idle keep-alive included (default 30000)",
         [&](std::string_view v) { return parse_ms(v, config.http_request_timeout); }},
        {"--max-half-open-requests", "SANTORINI_MAX_HALF_OPEN_REQUESTS",
         "HTTP connections waiting for a request at once; past it the longest waiting is closed "
         "(0: no cap; default 0)",
         [&](std::string_view v) { return parse_number(v, config.max_half_open_requests); }},
        {"--history-per-match", "SANTORINI_HISTORY_PER_MATCH", "patches kept for resuming viewers",
         [&](std::string_view v) { return parse_positive(v, config.history_per_match); }},
        {"--history-bytes", "SANTORINI_HISTORY_BYTES",
         "bytes of patches kept per viewer for resuming (default 2048)",
         [&](std::string_view v) { return parse_positive(v, config.history_bytes_per_viewer); }},
        {"--lobby-seat-grace", "SANTORINI_LOBBY_SEAT_GRACE",
         "seconds a player with no connection keeps a lobby seat (default 60)",
         [&](std::string_view v) {
             long seconds = 0;
             if (!parse_positive(v, seconds)) return false;
             config.lobby_seat_grace = std::chrono::seconds(seconds);
             return true;
         }},
        {"--guests-per-minute", "SANTORINI_GUESTS_PER_MINUTE",
         "new guests per client address and minute (burst: --guest-burst)",
         [&](std::string_view v) { return parse_positive(v, config.guests_per_minute); }},
        {"--guest-burst", "SANTORINI_GUEST_BURST", "new guests per client address at once",
         [&](std::string_view v) { return parse_positive(v, config.guest_burst); }},
        // The account limits (docs/api.md, "Accounts").
        {"--sign-ins-per-username", "SANTORINI_SIGN_INS_PER_USERNAME",
         "sign-in attempts per username and minute, from anywhere (default 5)",
         [&](std::string_view v) { return parse_positive(v, config.sign_ins_per_username_per_minute); }},
        {"--sign-in-burst-per-username", "SANTORINI_SIGN_IN_BURST_PER_USERNAME",
         "sign-in attempts per username at once (default 5)",
         [&](std::string_view v) { return parse_positive(v, config.sign_in_burst_per_username); }},
        {"--sign-ins-per-address", "SANTORINI_SIGN_INS_PER_ADDRESS",
         "sign-in attempts per client address and minute, any username (default 20)",
         [&](std::string_view v) { return parse_positive(v, config.sign_ins_per_address_per_minute); }},
        {"--sign-in-burst-per-address", "SANTORINI_SIGN_IN_BURST_PER_ADDRESS",
         "sign-in attempts per client address at once (default 20)",
         [&](std::string_view v) { return parse_positive(v, config.sign_in_burst_per_address); }},
        {"--max-pending-account-requests", "SANTORINI_MAX_PENDING_ACCOUNT_REQUESTS",
         "account requests queued or running at once; beyond: 503 (default 32)",
         [&](std::string_view v) { return parse_positive(v, config.max_pending_account_requests); }},
        {"--max-sessions-per-account", "SANTORINI_MAX_SESSIONS_PER_ACCOUNT",
         "signed-in devices kept per account; a sign-in beyond signs the oldest out (default 50)",
         [&](std::string_view v) { return parse_positive(v, config.max_sessions_per_account); }},
        {"--bot-threads", "SANTORINI_BOT_THREADS",
         "threads searching for the computer players (default 1)",
         [&](std::string_view v) { return parse_positive(v, config.bot_threads); }},
        {"--bot-time-limit-ms", "SANTORINI_BOT_TIME_LIMIT_MS",
         "the cap on one computer decision, in ms (default 1500)",
         [&](std::string_view v) {
             long ms = 0;
             if (!parse_positive(v, ms)) return false;
             config.bot_time_limit = std::chrono::milliseconds(ms);
             return true;
         }},
        {"--bot-delay-ms", "SANTORINI_BOT_DELAY_MS",
         "least ms from a computer's turn to its step (default 400; 0: at once)",
         [&](std::string_view v) {
             long ms = 0;
             if (!parse_number(v, ms) || ms < 0) return false;
             config.bot_delay = std::chrono::milliseconds(ms);
             return true;
         }},
        // One hostile client never hurts the others (docs/protocol.md "Limits", deploy/README.md).
        {"--max-queued-bytes", "SANTORINI_MAX_QUEUED_BYTES", "outgoing queue bytes per socket before 4000",
         [&](std::string_view v) { return parse_positive(v, config.max_queued_bytes); }},
        {"--read-bytes-per-second", "SANTORINI_READ_BYTES_PER_SECOND",
         "bytes a WebSocket client may send per second (default 65536)",
         [&](std::string_view v) { return parse_positive(v, config.read_bytes_per_second); }},
        {"--fragment-timeout-ms", "SANTORINI_FRAGMENT_TIMEOUT_MS",
         "ms a fragmented WebSocket message may take to complete (default 5000)",
         [&](std::string_view v) { return parse_ms(v, config.fragment_timeout); }},
        {"--max-connections-per-address", "SANTORINI_MAX_CONNECTIONS_PER_ADDRESS",
         "open connections per client address (IPv6: per /64; 0: no cap; default 256)",
         [&](std::string_view v) { return parse_number(v, config.max_connections_per_address); }},
        {"--max-connections-per-player", "SANTORINI_MAX_CONNECTIONS_PER_PLAYER",
         "WebSocket connections per player (0: no cap; default 16)",
         [&](std::string_view v) { return parse_number(v, config.max_connections_per_player); }},
        {"--max-live-matches-per-player", "SANTORINI_MAX_LIVE_MATCHES_PER_PLAYER",
         "live matches a player may sit in at once (0: no cap; default 20)",
         [&](std::string_view v) { return parse_number(v, config.max_live_matches_per_player); }},
        {"--trusted-proxies", "SANTORINI_TRUSTED_PROXIES",
         "addresses or CIDR prefixes whose X-Forwarded-For is believed (comma-separated)",
         [&](std::string_view v) {
             auto proxies = server::TrustedProxies::parse(v);
             if (!proxies) return false;
             config.trusted_proxies = std::move(*proxies);
             return true;
         }},
        {"--api-requests-per-second", "SANTORINI_API_REQUESTS_PER_SECOND",
         "stored-data API requests per client address and second (burst: --api-burst)",
         [&](std::string_view v) { return parse_positive(v, config.api_requests_per_second); }},
        {"--api-burst", "SANTORINI_API_BURST", "stored-data API requests per client address at once",
         [&](std::string_view v) { return parse_positive(v, config.api_burst); }},
        {"--api-in-flight-per-client", "SANTORINI_API_IN_FLIGHT_PER_CLIENT",
         "stored-data API requests of one client address in progress at once (default 8)",
         [&](std::string_view v) { return parse_positive(v, config.api_in_flight_per_client); }},
        {"--list-interval-ms", "SANTORINI_LIST_INTERVAL_MS",
         "ms between two updates of the match and lobby lists (default 500)",
         [&](std::string_view v) { return parse_ms(v, config.list_interval); }},
        {"--database-url", "SANTORINI_DATABASE_URL",
         "PostgreSQL URL (libpq); empty (default): keep everything in memory",
         [&](std::string_view v) { config.database_url = std::string(v); return true; }},
        {"--migrations", "SANTORINI_MIGRATIONS", "folder of the SQL migrations (default migrations)",
         [&](std::string_view v) { config.migrations_dir = std::string(v); return !v.empty(); }},
        {"--database-deadline-ms", "SANTORINI_DATABASE_DEADLINE_MS",
         "a request's database call answers unavailable after this many ms (default 2000)",
         [&](std::string_view v) {
             long ms = 0;
             if (!parse_positive(v, ms)) return false;
             config.database_deadline = std::chrono::milliseconds(ms);
             return true;
         }},
        {"--database-stall-ms", "SANTORINI_DATABASE_STALL_MS",
         "a database call with no answer after this many ms has its connection cut, freeing its "
         "thread (default 15000; 0: never)",
         [&](std::string_view v) {
             long ms = 0;
             if (!parse_number(v, ms) || ms < 0) return false;
             config.database_stall = std::chrono::milliseconds(ms);
             return true;
         }},
        {"--abandon-seconds", "SANTORINI_ABANDON_SECONDS",
         "a seat nobody has open this long is abandoned, real-time and no-clock games (default "
         "300; 0: never)",
         [&](std::string_view v) {
             double seconds = 0;
             if (!parse_number(v, seconds) || !(seconds >= 0)) return false;
             config.abandon = std::chrono::milliseconds(static_cast<long long>(seconds * 1000));
             return true;
         }},
        {"--abandon-days", "SANTORINI_ABANDON_DAYS",
         "the same for games with a per-move clock (default 7; 0: never)",
         [&](std::string_view v) {
             double days = 0;
             if (!parse_number(v, days) || !(days >= 0)) return false;
             config.abandon_turn =
                 std::chrono::milliseconds(static_cast<long long>(days * 86400 * 1000));
             return true;
         }},
        {"--node-id", "SANTORINI_NODE_ID",
         "this node's id in a fleet of nodes on one database (1-40 of a-z 0-9 _ -; default "
         "empty: a single node; docs/scaling.md)",
         [&](std::string_view v) {
             config.node_id = std::string(v);
             return v.size() <= 40 && std::all_of(v.begin(), v.end(), [](char c) {
                        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
                               c == '-';
                    });
         }},
        {"--fleet-secret", "SANTORINI_FLEET_SECRET",
         "the fleet's shared secret (at least 16 bytes; the same on every node): node-to-node "
         "messages are signed with it and unsigned ones refused. Prefer the environment variable: "
         "a flag shows in the process list",
         [&](std::string_view v) {
             config.fleet_secret = std::string(v);
             return v.size() >= 16;
         }},
        {"--node-url", "SANTORINI_NODE_URL", "how operators reach this node (informational)",
         [&](std::string_view v) { config.node_url = std::string(v); return true; }},
        {"--lease-ms", "SANTORINI_LEASE_MS",
         "a fleet node's lease on its matches, in ms (default 10000; renewed every third)",
         [&](std::string_view v) {
             long ms = 0;
             if (!parse_positive(v, ms) || ms < 300) return false;
             config.lease = std::chrono::milliseconds(ms);
             return true;
         }},
        {"--metrics-address", "SANTORINI_METRICS_ADDRESS",
         "where GET /metrics is served: empty (default) on --port, off, or host:port alone",
         [&](std::string_view v) {
             config.metrics_address = std::string(v);
             return std::holds_alternative<server::MetricsPlacement>(server::parse_metrics_address(v));
         }},
        {"--log-level", "SANTORINI_LOG_LEVEL", "trace, debug, info, warn, error (default info)",
         [&](std::string_view v) {
             log_level = std::string(v);
             return spdlog::level::from_str(log_level) != spdlog::level::off || v == "off";
         }},
    };
}

void usage(std::ostream& out, const std::vector<Option>& all) {
    out << "usage: santorini-server [migrate] [--option value]...\n"
           "  migrate: apply the pending migrations to --database-url and exit\n\n";
    for (const Option& option : all) {
        out << "  " << option.flag << " (env " << option.env << ")\n      " << option.help << "\n";
    }
}

/// Fills `config` from the environment, then the arguments; nullopt to go on, else an exit code.
std::optional<int> configure(int argc, char** argv, server::Config& config, std::string& log_level,
                             bool& migrate_only) {
    const std::vector<Option> all = options(config, log_level);
    for (const Option& option : all) {
        const char* value = std::getenv(std::string(option.env).c_str());
        if (value == nullptr) continue;
        if (!option.set(value)) {
            std::cerr << "santorini-server: bad value for " << option.env << ": '" << value << "'\n";
            return 2;
        }
    }
    int first = 1;
    if (argc > 1 && std::string_view(argv[1]) == "migrate") {
        migrate_only = true;
        first = 2;
    }
    for (int i = first; i < argc; ++i) {
        std::string_view arg = argv[i];
        if (arg == "-h" || arg == "--help") {
            usage(std::cout, all);
            return 0;
        }
        std::optional<std::string_view> value;
        if (const std::size_t eq = arg.find('='); eq != std::string_view::npos) {
            value = arg.substr(eq + 1);
            arg = arg.substr(0, eq);
        }
        const Option* option = nullptr;
        for (const Option& candidate : all) {
            if (candidate.flag == arg) option = &candidate;
        }
        if (option == nullptr) {
            std::cerr << "santorini-server: unknown option '" << arg << "'\n";
            usage(std::cerr, all);
            return 2;
        }
        if (!value) {
            if (i + 1 >= argc) {
                std::cerr << "santorini-server: " << arg << " needs a value\n";
                return 2;
            }
            value = argv[++i];
        }
        if (!option->set(*value)) {
            std::cerr << "santorini-server: bad value for " << arg << ": '" << *value << "'\n";
            return 2;
        }
    }
    return std::nullopt;
}

void setup_logging(const std::string& level) {
    auto logger = spdlog::stderr_color_mt("server");
    spdlog::set_default_logger(logger);
    // One line per event: ts=... level=... event=... key=value ...
    spdlog::set_pattern("ts=%Y-%m-%dT%H:%M:%S.%e%z level=%l %v");
    spdlog::set_level(spdlog::level::from_str(level));
    spdlog::flush_on(spdlog::level::info);
}

}  // namespace

int main(int argc, char** argv) {
    // One malloc arena for every thread, unless MALLOC_ARENA_MAX (or GLIBC_TUNABLES) says
    // otherwise: glibc gives threads arenas of their own, and a live match's memory, allocated
    // and freed by both io threads, then lies spread over several, each with its own free space
    // (about 6 KiB more per live match; docs/benchmarks.md, "Less memory per live match"). Small
    // blocks go through each thread's tcache, so the one arena's lock is seldom taken.
    if (std::getenv("MALLOC_ARENA_MAX") == nullptr && std::getenv("GLIBC_TUNABLES") == nullptr)
        mallopt(M_ARENA_MAX, 1);
    // One descriptor per socket: allow as many as the hard limit does (10,000 sockets and more).
    if (rlimit files{}; getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < files.rlim_max) {
        files.rlim_cur = files.rlim_max;
        setrlimit(RLIMIT_NOFILE, &files);
    }
    server::Config config;
    std::string log_level = "info";
    bool migrate_only = false;
    if (const std::optional<int> exit_code = configure(argc, argv, config, log_level, migrate_only))
        return *exit_code;
    setup_logging(log_level);
    if (!config.node_id.empty() && config.database_url.empty()) {
        std::cerr << "santorini-server: --node-id (a fleet) needs --database-url\n";
        return 2;
    }
    if (!config.fleet_secret.empty() && config.node_id.empty()) {
        std::cerr << "santorini-server: --fleet-secret is for a fleet: it needs --node-id\n";
        return 2;
    }
    if (migrate_only) {
        if (config.database_url.empty()) {
            std::cerr << "santorini-server: migrate needs --database-url (or SANTORINI_DATABASE_URL)\n";
            return 2;
        }
        auto report = store::migrate(config.database_url, config.migrations_dir);
        if (!report) {
            spdlog::critical("event=migrate_failed error=\"{}\"", report.error().message);
            return 1;
        }
        for (const auto& name : report->applied) spdlog::info("event=migration_applied name={}", name);
        spdlog::info("event=migrate_done applied={} present={}", report->applied.size(), report->present.size());
        return 0;
    }

    try {
        server::Server server(config);

        boost::asio::signal_set signals(server.context(), SIGINT, SIGTERM);
        std::function<void(const boost::system::error_code&, int)> on_signal =
            [&](const boost::system::error_code& ec, int signal_number) {
                if (ec) return;
                static bool stopping = false;
                if (!stopping) {
                    stopping = true;
                    spdlog::info("event=signal signal={} action=graceful_stop", signal_number);
                    server.stop();
                    signals.async_wait(on_signal);
                } else {
                    spdlog::warn("event=signal signal={} action=immediate_stop", signal_number);
                    server.halt();
                }
            };
        signals.async_wait(on_signal);

        const std::string host =
            config.address.find(':') != std::string::npos ? "[" + config.address + "]" : config.address;
        // The one line a person starting the server needs (logs go to stderr).
        std::cout << "santorini-server: open http://" << host << ":" << server.port()
                  << "/  (WebSocket: ws://" << host << ":" << server.port() << "/ws)" << std::endl;
        server.run();
    } catch (const boost::system::system_error& e) {
        spdlog::critical("event=startup_failed address={} port={} error=\"{}\"", config.address, config.port,
                         e.what());
        return 1;
    } catch (const std::exception& e) {
        spdlog::critical("event=fatal error=\"{}\"", e.what());
        return 1;
    }
    return 0;
}
