#pragma once
// One WebSocket connection: the Participant that rooms talk to.
//
// The WebSocket protocol is spoken here on a plain TCP socket (RFC 6455; frames in
// websocket_frame.hpp, the opening handshake in websocket_handshake.hpp), not through Beast's
// websocket::stream, for the memory of a live match: Beast keeps a fixed 1.5 KiB read buffer,
// a TCP stream with three timers and a pending composed read of about 0.75 KiB in every
// socket, about 5 KiB a socket in all. Here an idle socket holds no buffer at all: a readable
// socket is read into its io thread's buffer (read_chunk_bytes), complete frames are handled
// where they lie, and only a frame cut off by the end of a read is kept (`inbox_`). One timer
// serves every deadline of the connection. Writes go out at once when the socket takes them
// (no completion handler, no wake-up of another thread); several queued messages leave in one
// gathered write.
//
// Everything happens on the connection's own strand; other threads only post into it
// (deliver, close). Incoming text messages go through the limits (frame size, token bucket),
// then protocol::parse_client_message; the first message must be hello, everything after it
// goes to Hub::handle. Outgoing messages wait in a bounded queue; a client that lets the queue
// pass Config::max_queued_messages or Config::max_queued_bytes is closed with 4000.
//
// Frames no message shows are limited too: control frames (pings, pongs) take a token of the
// same bucket as messages; the bytes a client may send per second are bounded
// (Config::read_bytes_per_second, server/limits/read_budget.hpp), which bounds the work of frames
// nobody sees (empty continuations); a message whose first fragment arrived must be complete
// within Config::fragment_timeout.
//
// Close codes sent by the server:
//   1001 going away          graceful stop (after the queued messages are written)
//   1002 protocol error      a frame a client may not send (websocket_frame.hpp)
//   1007 bad payload         a text message or close reason that is not UTF-8
//   1008 policy violation    too many rate-limited messages or control frames, bytes beyond the
//                            budget for starved_before_close seconds, a fragmented
//                            message not completed in time, no hello in time, or a player
//                            over Config::max_connections_per_player
//   1009 message too big     a message over Config::max_frame_bytes
//   1012 service restart     the node hands its matches to another (after the queued messages)
//   4000 "too slow"          the outgoing queue overflowed (queue dropped; resume with since:)
//   4001 "signed out"        the token it said hello with was revoked (sign-out, password change)
// A client's close frame is answered with its own code. After a close frame both ways (or
// after 1002, 1007, 1009, which do not wait for an answer) the server shuts its side of the TCP
// connection and reads until the client's end; a client that lingers is cut after cut_timeout.
// The idle timeout: after idle_timeout/2 without any data from the client the server sends a
// ping; after another idle_timeout/2 without data it closes the TCP connection without a close
// frame (the client sees the stream end, not a close code). A closing handshake the client
// does not finish within handshake_timeout is cut the same way.
//
// Metrics: open_sockets (after the handshake), messages_in/out, and rejected{reason} for every
// error sent back, plus frame_too_large (1009), busy (4000) and not_authenticated (no hello
// within handshake_timeout: 1008). Hub::disconnected is called once, when the connection ends,
// for sessions that said hello (the hub never saw the others). Tokens are never logged.

#include <array>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/system/error_code.hpp>

#include "protocol/messages.hpp"
#include "server/app/config.hpp"
#include "server/app/hub.hpp"
#include "server/app/metrics.hpp"
#include "server/limits/rate_limiter.hpp"
#include "server/limits/read_budget.hpp"
#include "server/net/participant.hpp"
#include "server/net/session_registry.hpp"
#include "server/net/websocket_frame.hpp"

namespace server {

/// Close codes of our own (RFC 6455 leaves 4000-4999 to applications).
namespace close_codes {
inline constexpr std::uint16_t too_slow = 4000;  ///< the outgoing queue overflowed
inline constexpr std::uint16_t signed_out = 4001;  ///< the session's token was revoked
}

/// One WebSocket connection after the upgrade; lives as long as an operation or a room holds it.
class WebsocketSession final : public Participant, public std::enable_shared_from_this<WebsocketSession> {
public:
    /// Time allowed for the hello after the upgrade, and for the closing handshake (after which
    /// the socket is closed hard).
    static constexpr std::chrono::seconds handshake_timeout{10};
    /// Reads that had to wait for the byte budget (about one a second while a client sends
    /// beyond Config::read_bytes_per_second and its burst) before the client is closed (1008).
    static constexpr int starved_before_close = 3;
    /// How long a client closed for abuse (floods, an unfinished message, a protocol error) has
    /// to read its close frame, and any client to end the TCP connection once the closing
    /// handshake is over, before its socket is closed.
    static constexpr std::chrono::seconds cut_timeout{1};
    /// How long a read that found the byte budget spent waits before it asks again.
    static constexpr std::chrono::seconds budget_retry{1};
    /// The most bytes read from a socket at once, into its io thread's buffer.
    static constexpr std::size_t read_chunk_bytes = 16 * 1024;
    /// The most queued messages written together, in one gathered write.
    static constexpr std::size_t max_batch = 8;

    /// Takes over an accepted socket (whose executor is its strand) and its connection slot.
    WebsocketSession(boost::asio::ip::tcp::socket&& socket, Hub& hub, Metrics& metrics, const Config& config,
                     SessionRegistry& registry, SessionRegistry::Slot slot);
    ~WebsocketSession() override;
    WebsocketSession(const WebsocketSession&) = delete;
    WebsocketSession& operator=(const WebsocketSession&) = delete;

    /// Accepts the upgrade `request` (read by http_session and checked by ws::refuse_upgrade)
    /// and starts reading, first `early` (bytes the client sent after the request, already read).
    void run(const boost::beast::http::request<boost::beast::http::string_body>& request, std::string early = {});

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
    boost::asio::io_context* io_home() const override { return home_; }
    void signed_out() override;

    /// Closes with `code` and `reason` (any thread). With `flush` the messages already queued
    /// are written first; without, they are dropped. The first close asked for wins.
    void close(std::uint16_t code, std::string reason, bool flush);

    /// Test hook: messages waiting behind the ones being written.
    std::size_t queued() const { return queued_.load(std::memory_order_relaxed); }
    /// Test hook: the most messages that ever waited at once (never above max_queued_messages + 1).
    std::size_t peak_queued() const { return peak_queued_.load(std::memory_order_relaxed); }
    /// Test hook: the most bytes that ever waited at once (never above max_queued_bytes plus
    /// one message).
    std::size_t peak_queued_bytes() const { return peak_queued_bytes_.load(std::memory_order_relaxed); }

private:
    /// A frame waiting to be written: a message, a control frame, or (`raw`) the 101 response.
    struct Outgoing {
        std::shared_ptr<const std::string> payload;
        ws::Opcode opcode = ws::Opcode::Text;
        bool raw = false;
    };
    /// What the deadline waits for.
    enum class Deadline { Hello, Fragment, Closing };

    // Reading.
    void read_now();
    void read_soon();
    void starved();
    void wait_readable();
    void resume_reading();
    /// Handles `fresh` bytes after those inbox_ kept; false when reading stops for this turn.
    bool feed(std::span<unsigned char> fresh);
    std::size_t consume(std::span<unsigned char> bytes);
    void on_frame(const ws::FrameHeader& header, std::span<unsigned char> payload);
    void on_data(std::string_view text);
    void on_control(ws::Opcode opcode, std::span<const unsigned char> payload);
    void on_close_frame(std::span<const unsigned char> payload);
    /// Handles one message; false: reading waits (a hello is being looked up).
    bool on_message(std::string_view text);
    bool on_hello(const protocol::Hello& hello, const protocol::Ref& ref);
    void on_identified(const std::variant<Guest, IdentityError>& identified, const protocol::Ref& ref);
    void reject(protocol::ErrorCode code, std::string_view message, const protocol::Ref& ref);

    // Writing.
    void send(std::string text);
    void enqueue(std::shared_ptr<const std::string> message);
    void push(Outgoing frame);
    void push_control(ws::Opcode opcode, std::string payload);
    void write_now();
    void on_written(boost::system::error_code ec);
    void written();
    bool over_limits() const;
    void too_slow();

    // Closing.
    void start_close(std::uint16_t code, std::string reason, bool flush);
    void fail(std::uint16_t code, std::string_view reason, std::string_view why);
    void queue_close();
    void begin_drain();
    void cut(std::uint16_t code, std::string reason);

    // The one timer.
    void arm_deadline(std::chrono::steady_clock::duration after, Deadline what);
    void cancel_deadline(Deadline what);
    void on_deadline(Deadline what);
    std::chrono::steady_clock::time_point idle_due() const;
    void schedule();
    void on_timer(boost::system::error_code ec);

    void finish(std::string_view why);
    /// Drops the frames waiting behind the write in flight.
    void drop_waiting();
    void update_queue_size();

    boost::asio::ip::tcp::socket socket_;
    /// Every deadline of the connection: the hello's, a fragmented message's, the closing
    /// handshake's, the idle ping and timeout, and the byte budget's retry (schedule()).
    boost::asio::steady_timer timer_;
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
    std::string inbox_;      ///< bytes read and not yet handled: a frame cut off, or held by a hello
    std::string message_;    ///< a fragmented message's frames so far
    boost::asio::io_context* home_ = nullptr;  ///< the context of the socket's strand
    TokenBucket<> bucket_;
    ReadBudget budget_;
    std::chrono::steady_clock::time_point last_heard_;   ///< when the client last sent anything
    std::chrono::steady_clock::time_point deadline_at_;  ///< when `deadline_` falls due
    std::chrono::steady_clock::time_point budget_at_{};  ///< when a starved read asks again ({}: none)
    std::chrono::steady_clock::time_point timer_at_{};   ///< what the timer waits for, when armed
    std::chrono::steady_clock::time_point last_starved_{};  ///< when starved_ last counted
    std::optional<Deadline> deadline_;
    int strikes_ = 0;          ///< rate-limited messages in a row
    int control_strikes_ = 0;  ///< control frames beyond the bucket
    int starved_ = 0;          ///< seconds in which reads waited for the byte budget
    std::uint16_t close_code_ = 0;      ///< the close code sent (or to send), 0: none yet
    std::uint16_t received_code_ = 0;   ///< the client's close code, 0: none received
    std::string_view end_why_ = "dropped";  ///< the log's reason once the connection ends
    bool message_text_ = false;  ///< the message being assembled began as a text frame
    bool in_message_ = false;    ///< a fragmented message has begun and not yet ended
    bool paused_ = false;        ///< reading waits for a hello's answer
    bool waiting_ = false;       ///< a wait for the socket to be readable is pending
    bool drained_ = false;       ///< the last read emptied the socket; no readiness since
    bool reading_ = false;       ///< inside read_now()
    bool yield_ = false;         ///< a message went to the hub: read on in a later strand turn
    bool timer_armed_ = false;
    bool pinged_ = false;        ///< an idle ping was sent since the client last sent anything
    bool cut_ = false;           ///< closed for abuse: the closing handshake waits cut_timeout only
    bool counted_player_ = false;  ///< holds a place of SessionRegistry::join_player
    bool opened_ = false;        ///< the 101 was queued (counted in open_sockets, registered)
    bool authenticated_ = false;
    bool ack_in_patch_ = false;  ///< set by the hello that authenticates, before any room sees it
    bool finished_ = false;
    bool writing_ = false;       ///< an asynchronous write is in flight
    bool close_queued_ = false;  ///< the close frame is queued or written
    bool close_written_ = false;
    bool close_received_ = false;
    bool failed_ = false;        ///< the close does not wait for the client's answer
    bool draining_ = false;      ///< our side is shut: reading only waits for the client's end
    std::size_t queued_bytes_ = 0;  ///< bytes of the messages in queue_
    std::string close_reason_;      ///< the close frame's reason, until it is queued
    /// The frames to write, oldest first; the first `in_flight_` are being written (an
    /// asynchronous write's buffers point into them and into `headers_`). A vector, not a
    /// deque: libstdc++'s deque allocates ~600 bytes even when empty, and this queue is empty
    /// nearly always.
    std::vector<Outgoing> queue_;
    std::size_t in_flight_ = 0;
    std::string headers_;  ///< the frame headers of the write in flight
    std::atomic<std::size_t> queued_{0};
    std::atomic<std::size_t> peak_queued_{0};
    std::atomic<std::size_t> peak_queued_bytes_{0};
};

}  // namespace server
