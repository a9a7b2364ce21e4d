#pragma once
// One WebSocket connection: the Participant that rooms talk to (Beast's websocket_session).
//
// Everything happens on the connection's own strand; other threads only post into it
// (deliver, close). Incoming text frames go through the limits (frame size, token bucket),
// then protocol::parse_client_message; the first message must be hello, everything after it
// goes to Hub::handle. Outgoing messages wait in a bounded queue with exactly one write in
// flight; a client that lets the queue pass Config::max_queued_messages or
// Config::max_queued_bytes is closed with 4000.
//
// What Beast handles by itself is limited too: control frames (pings, pongs) take a token of
// the same bucket as messages; the bytes a client may send per second are bounded
// (Config::read_bytes_per_second, server/limits/read_budget.hpp), which bounds the work of frames
// nobody sees (empty continuations); a message whose first fragment arrived must be complete
// within Config::fragment_timeout.
//
// Close codes sent by the server:
//   1001 going away          graceful stop (after the queued messages are written)
//   1008 policy violation    too many rate-limited messages or control frames, bytes beyond the
//                            budget for starved_before_close seconds, a fragmented
//                            message not completed in time, no hello in time, or a player
//                            over Config::max_connections_per_player
//   1009 message too big     a frame over Config::max_frame_bytes (Beast sends it)
//   4000 "too slow"          the outgoing queue overflowed (queue dropped; resume with since:)
//   4001 "signed out"        the token it said hello with was revoked (sign-out, password change)
// The idle timeout is Beast's: after idle_timeout/2 without any data from the client Beast
// sends a ping; after another idle_timeout/2 without data it closes the TCP connection without
// a close frame (the client sees the stream end, not a close code).
// A closing handshake the client does not finish within handshake_timeout is cut the same way.
//
// Metrics: open_sockets (after the handshake), messages_in/out, and rejected{reason} for every
// error sent back, plus frame_too_large (1009), busy (4000) and not_authenticated (no hello
// within handshake_timeout: 1008). Hub::disconnected is called once, when the connection ends,
// for sessions that said hello (the hub never saw the others). Tokens are never logged.

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/basic_stream.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/websocket/rfc6455.hpp>
#include <boost/beast/websocket/stream.hpp>

#include "protocol/messages.hpp"
#include "server/app/config.hpp"
#include "server/app/hub.hpp"
#include "server/app/metrics.hpp"
#include "server/net/participant.hpp"
#include "server/limits/rate_limiter.hpp"
#include "server/limits/read_budget.hpp"
#include "server/net/session_registry.hpp"

namespace server {

/// Close codes of our own (RFC 6455 leaves 4000-4999 to applications).
namespace close_codes {
inline constexpr std::uint16_t too_slow = 4000;  ///< the outgoing queue overflowed
inline constexpr std::uint16_t signed_out = 4001;  ///< the session's token was revoked
}

/// One WebSocket connection after the upgrade; lives as long as an operation or a room holds it.
class WebsocketSession final : public Participant, public std::enable_shared_from_this<WebsocketSession> {
public:
    /// Time allowed for the WebSocket handshake, for the hello after it, and for the closing
    /// handshake (after which the socket is closed hard).
    static constexpr std::chrono::seconds handshake_timeout{10};
    /// Reads that had to wait for the byte budget (about one a second while a client sends
    /// beyond Config::read_bytes_per_second and its burst) before the client is closed (1008).
    static constexpr int starved_before_close = 3;
    /// How long a client closed for abuse (floods, an unfinished message) has to answer the
    /// close frame before its socket is closed.
    static constexpr std::chrono::seconds cut_timeout{1};
    /// The read buffer an idle connection holds: the first piece of each message is read into
    /// at most this many bytes (a step, a hello fit), the rest of a longer one after it.
    static constexpr std::size_t first_read_bytes = 256;

    /// Takes over an accepted socket (whose executor is its strand) and its connection slot.
    WebsocketSession(boost::asio::ip::tcp::socket&& socket, Hub& hub, Metrics& metrics, const Config& config,
                     SessionRegistry& registry, SessionRegistry::Slot slot);
    ~WebsocketSession() override;
    WebsocketSession(const WebsocketSession&) = delete;
    WebsocketSession& operator=(const WebsocketSession&) = delete;

    /// Accepts the upgrade `request` (already read by http_session) and starts reading.
    void run(boost::beast::http::request<boost::beast::http::string_body> request);

    /// Queues one message for sending (any thread). Dropped once the session is closing.
    void deliver(std::shared_ptr<const std::string> message) override;
    /// A number unique to this connection for the life of the process.
    std::uint64_t connection_id() const override { return id_; }
    /// The authenticated player's id ("" before hello).
    const std::string& player_id() const override { return player_id_; }

    /// Runs `work` on this session's strand.
    void post(std::function<void()> work) override;
    /// Closes with 1012 (service restart) after the queued messages.
    void restart() override;
    bool signed_in_with(std::string_view token) const override;
    std::string session_sha256() const override;
    bool ack_in_patch() const override { return ack_in_patch_; }
    void signed_out() override;

    /// Closes with `code` and `reason` (any thread). With `flush` the messages already queued
    /// are written first; without, they are dropped. The first close asked for wins.
    void close(std::uint16_t code, std::string reason, bool flush);

    /// Test hook: messages waiting behind the one being written.
    std::size_t queued() const { return queued_.load(std::memory_order_relaxed); }
    /// Test hook: the most messages that ever waited at once (never above max_queued_messages + 1).
    std::size_t peak_queued() const { return peak_queued_.load(std::memory_order_relaxed); }
    /// Test hook: the most bytes that ever waited at once (never above max_queued_bytes plus
    /// one message).
    std::size_t peak_queued_bytes() const { return peak_queued_bytes_.load(std::memory_order_relaxed); }

private:
    void on_accept(boost::beast::error_code ec);
    void do_read();
    void on_read(boost::beast::error_code ec, std::size_t bytes);
    /// A control frame arrived (Beast's control_callback, on the strand inside a read).
    void on_control(boost::beast::websocket::frame_type kind);
    /// Handles one message; false: reading waits (a hello is being looked up).
    bool on_message(std::string_view text);
    bool on_hello(const protocol::Hello& hello, const protocol::Ref& ref);
    void on_identified(const std::variant<Guest, IdentityError>& identified, const protocol::Ref& ref);
    void reject(protocol::ErrorCode code, std::string_view message, const protocol::Ref& ref);
    void send(std::string text);
    void enqueue(std::shared_ptr<const std::string> message);
    void do_write();
    void on_write(boost::beast::error_code ec, std::size_t bytes);
    void start_close(std::uint16_t code, std::string reason, bool flush);
    void do_close();
    void on_close(boost::beast::error_code ec);
    /// What deadline_ waits for.
    enum class Deadline { Hello, Fragment, Closing };
    void arm_deadline(std::chrono::steady_clock::duration after, Deadline what);
    void finish(boost::beast::error_code ec);
    void update_queue_size();

    using Stream = boost::beast::basic_stream<boost::asio::ip::tcp, boost::asio::any_io_executor, ReadBudget>;
    boost::beast::websocket::stream<Stream> ws_;
    /// The hello deadline, then a fragmented message's, then the closing handshake's.
    boost::asio::steady_timer deadline_;
    boost::beast::flat_buffer buffer_;
    Hub& hub_;
    Metrics& metrics_;
    const Config& config_;
    SessionRegistry& registry_;
    SessionRegistry::Slot slot_;
    const std::uint64_t id_;
    std::string remote_;     ///< peer address, for logs
    std::string player_id_;  ///< set once, at hello, before the hub ever sees this session
    /// The token of the hello being answered, then of the one that succeeded: written on the
    /// strand before Hub::connected publishes this session, read by the hub after.
    std::string token_;
    TokenBucket<> bucket_;
    int strikes_ = 0;        ///< rate-limited messages in a row
    int control_strikes_ = 0;  ///< control frames beyond the bucket
    int starved_ = 0;          ///< seconds in which reads waited for the byte budget (ReadBudget)
    std::chrono::steady_clock::time_point last_starved_{};  ///< when starved_ last counted
    bool cut_ = false;         ///< closed for abuse: the closing handshake waits cut_timeout only
    bool in_message_ = false;  ///< a fragmented message has begun and not yet ended
    bool counted_player_ = false;  ///< holds a place of SessionRegistry::join_player
    std::size_t queued_bytes_ = 0;  ///< bytes of the messages in queue_
    bool opened_ = false;    ///< the handshake succeeded (counted in open_sockets, registered)
    bool authenticated_ = false;
    bool ack_in_patch_ = false;  ///< set by the hello that authenticates, before any room sees it
    bool finished_ = false;
    bool close_sent_ = false;
    std::optional<boost::beast::websocket::close_reason> pending_close_;
    std::shared_ptr<const std::string> writing_;  ///< the one write in flight
    /// Waiting behind `writing_`, oldest first. A vector, not a deque: libstdc++'s deque
    /// allocates ~600 bytes even when empty, and this queue is empty nearly always.
    std::vector<std::shared_ptr<const std::string>> queue_;
    std::atomic<std::size_t> queued_{0};
    std::atomic<std::size_t> peak_queued_{0};
    std::atomic<std::size_t> peak_queued_bytes_{0};
};

}  // namespace server
