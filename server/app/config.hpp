#pragma once
// Server settings, each with a sane default; the command line and environment override them.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>

#include "server/net/client_address.hpp"

namespace server {

struct Config {
    std::string address = "127.0.0.1";
    std::uint16_t port = 8080;
    int threads = 0;                          ///< 0: one per core
    /// false: the io threads share one io_context (any thread runs any connection's or match's
    /// work). true: one io_context per io thread (server/app/io_threads.hpp): less CPU per step
    /// (no thread woken to share the queue), but a thread's work waits for that thread, which
    /// costs latency when other processes take the cores (docs/benchmarks.md, "One io_context
    /// per io thread").
    bool io_context_per_thread = false;
    std::string web_root = "web";             ///< static files for the browser client
    // Limits on what comes in (each tested in tests/server).
    std::size_t max_frame_bytes = 16 * 1024;  ///< larger WebSocket messages close the socket (1009)
    double messages_per_second = 20;          ///< token bucket refill rate per connection
    double message_burst = 40;                ///< token bucket size
    int rate_strikes_before_close = 20;       ///< rate-limited messages in a row before disconnecting (1008)
    std::size_t max_queued_messages = 256;    ///< outgoing queue per socket; beyond: close 4000, resume later
    /// The kernel's send buffer (SO_SNDBUF) of each accepted socket, in bytes; 0: the kernel
    /// sizes it itself (Linux grows it with the connection's rate). A fixed size bounds what a
    /// client that stops reading holds in the kernel, so that its queue above fills at once.
    std::size_t socket_send_buffer = 0;
    /// ... and its bytes (a shared list or patch counts in full for every queue holding it).
    std::size_t max_queued_bytes = 1024 * 1024;
    /// Bytes a connection may send per second, frame headers and control frames included
    /// (bursts up to twice this): beyond it the server just reads slower. Frames Beast handles
    /// by itself (empty continuations) cost at most this much work.
    std::size_t read_bytes_per_second = 64 * 1024;
    /// A message whose first fragment arrived must be complete within this (else close 1008).
    std::chrono::milliseconds fragment_timeout{5000};
    std::chrono::seconds idle_timeout{30};    ///< no pong/traffic for this long closes the socket
    std::size_t max_connections = 10000;
    /// Where GET /metrics is served (server/net/metrics_address.hpp): "" on this port, "off"
    /// nowhere, "host:port" on a listener of its own (then not on this port).
    std::string metrics_address;
    /// Set by the server on the copy its metrics listener uses: that port answers /metrics only.
    bool metrics_only = false;
    /// Open connections (HTTP and WebSocket, requests half sent included) from one client
    /// address (one IPv6 /64), below max_connections; 0: no cap. Trusted proxies are exempt.
    std::size_t max_connections_per_address = 256;
    /// WebSocket connections of one player at once (tabs, devices); the next one is closed
    /// with 1008 after its hello. 0: no cap.
    std::size_t max_connections_per_player = 16;
    /// Live matches a player may sit in at once; starting another is refused
    /// (too_many_matches). 0: no cap.
    std::size_t max_live_matches_per_player = 20;
    /// The proxies in front of the server (--trusted-proxies: addresses or CIDR prefixes,
    /// comma-separated): only from them is X-Forwarded-For believed, and they are exempt from
    /// max_connections_per_address (server/net/client_address.hpp). Empty: nobody.
    TrustedProxies trusted_proxies;
    /// The stored-data API per client address: requests per second (refill) and at once ...
    double api_requests_per_second = 20;
    double api_burst = 40;
    /// ... and at most this many of its requests waiting for or running on the API's pool.
    std::size_t api_in_flight_per_client = 8;
    /// Match and lobby lists (matches/lobbies subscriptions) go out at most this often (0: at
    /// once after each change, for tests).
    std::chrono::milliseconds list_interval{500};
    /// A match's spectator count alone goes out at most this often (with the next patch if one
    /// comes sooner): spectators coming and going must not cost the players. 0: at once.
    std::chrono::milliseconds spectators_interval{1000};
    std::size_t max_http_body = 64 * 1024;
    /// An HTTP connection must deliver each whole request (headers and body) within this of
    /// starting to wait for it, an idle keep-alive connection too; else it is closed.
    std::chrono::milliseconds http_request_timeout{30000};
    /// HTTP connections waiting for a request at once (half-open: opened, or between two
    /// requests, and not done sending the next). Past it the one waiting longest is closed, so
    /// slow senders cannot keep a prompt client out. 0: no cap of its own (max_connections).
    std::size_t max_half_open_requests = 0;
    double guests_per_minute = 10;           ///< POST /api/guests per client address, refill
    double guest_burst = 20;                 ///< ... and at once; beyond: 429
    /// Sign-in attempts for one username from anywhere, per minute (a right password gives its
    /// attempt back; a password change counts here too) ...
    double sign_ins_per_username_per_minute = 5;
    double sign_in_burst_per_username = 5;  ///< ... and at once; beyond: 429 with Retry-After
    /// Sign-in attempts from one client address (one IPv6 /64), any username, per minute ...
    double sign_ins_per_address_per_minute = 20;
    double sign_in_burst_per_address = 20;  ///< ... and at once; beyond: 429 with Retry-After
    /// Account requests (each an Argon2id hash or a database call) queued or running at once;
    /// beyond: 503 with Retry-After.
    std::size_t max_pending_account_requests = 32;
    /// Signed-in devices kept per account: a sign-in beyond revokes the oldest session.
    std::size_t max_sessions_per_account = 50;
    std::size_t history_per_match = 64;      ///< patches kept for resuming viewers, at most
    std::size_t history_bytes_per_viewer = 2048;  ///< and at most this many bytes of them per
                                                  ///< viewer (the newest is always kept)
    /// A player with no connection left gives up their lobby seats after this long (a reload
    /// or a dropped mobile connection comes back well within it).
    std::chrono::milliseconds lobby_seat_grace{60000};
    /// A finished match stays in the hub this long after its last patch went out (requests
    /// already in flight finish, a player reconnecting at once catches up), then it leaves:
    /// with a database only its stored record remains (the HTTP API serves it).
    std::chrono::milliseconds finished_match_keep{10 * 1000};
    /// Without a database: how many finished matches stay in memory after finished_match_keep
    /// (the oldest goes first), so GET /api/matches/{id} and match.open still find the latest.
    std::size_t finished_matches_in_memory = 16;
    /// PostgreSQL (libpq connection string or URI). Empty: nothing is stored and everything
    /// lives in memory (the unit tests). With it the server migrates, stores guests, matches and
    /// every step before acknowledging it, and reloads live matches at start (docs/storage.md).
    std::string database_url;
    std::string migrations_dir = "migrations";  ///< the numbered SQL files store::migrate applies
    /// Every database call a request waits for answers `unavailable` (503 over HTTP, with
    /// Retry-After) after this long, whatever the database does (docs/storage.md, "Deadlines").
    std::chrono::milliseconds database_deadline{2000};
    /// A database call that has had no answer this long has its connection cut, so a frozen or
    /// partitioned database host cannot pin the thread that made it (store::pg::StallWatch;
    /// docs/storage.md, "Deadlines"). Zero: never cut.
    std::chrono::milliseconds database_stall{15000};
    /// Abandonment (docs/protocol.md): a seat whose player has not had the match open this
    /// long is abandoned; real-time and no-clock games (0: never).
    std::chrono::milliseconds abandon{300 * 1000};
    /// ... and games with a per-move clock (days, not minutes: their players come and go).
    std::chrono::milliseconds abandon_turn{std::chrono::hours(24 * 7)};

    // ---- computer players (docs/bot.md, "In the server") ----
    /// Threads that search for the computer players, apart from the io threads.
    int bot_threads = 1;
    /// The cap on one computer decision's search (the level's own budget is often smaller).
    std::chrono::milliseconds bot_time_limit{1500};
    /// The least time from a computer's turn to its step, so people see the moves (0 in tests).
    std::chrono::milliseconds bot_delay{400};

    // ---- a fleet: several nodes on one database (docs/scaling.md) ----
    /// This node's id in a fleet (1-40 of [a-z0-9_-]; needs database_url). Empty: a single
    /// node, which owns every match and restores every live match at start (the default).
    std::string node_id;
    /// How operators reach this node (stored in `nodes.url`, informational only).
    std::string node_url;
    /// The fleet's shared secret: every node-to-node message is sealed with it (HMAC-SHA256),
    /// and what is not is refused (docs/scaling.md, "Signed broker messages"). Empty: none.
    std::string fleet_secret;
    /// A match's lease: its owner renews it every lease/3, and another node takes the match
    /// over once it has run out. A node whose heartbeat (every lease/5) is older is dead.
    std::chrono::milliseconds lease{10000};
};

}  // namespace server
