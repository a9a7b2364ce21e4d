#pragma once
// Tools for the abuse tests (tests/server/abuse/*_test.cpp): an attacker that speaks raw
// WebSocket frames (what Beast's own client would never send: endless pings, empty
// continuation frames, a message that never ends) from any loopback address (127.0.0.0/8 is
// all local on Linux, so 127.0.0.2 is "another client" of a server on 127.0.0.1), and the
// measures of harm: an honest client's round trips, the process's CPU time and memory.

#include <poll.h>
#include <sys/resource.h>

#include <boost/asio/buffer.hpp>
#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>

#include "protocol/json/basic_json.hpp"

namespace abuse {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;
using json = nlohmann::json;

/// WebSocket opcodes (RFC 6455 5.2).
enum Opcode : std::uint8_t { Continuation = 0, Text = 1, Binary = 2, Close = 8, Ping = 9, Pong = 10 };

/// One client frame, masked as a client must: `fin` ends the message.
inline std::string frame(Opcode opcode, bool fin, std::string_view payload) {
    std::string out;
    out += static_cast<char>((fin ? 0x80 : 0) | opcode);
    if (payload.size() < 126) {
        out += static_cast<char>(0x80 | payload.size());
    } else {
        out += static_cast<char>(0x80 | 126);
        out += static_cast<char>((payload.size() >> 8) & 0xff);
        out += static_cast<char>(payload.size() & 0xff);
    }
    const char mask[4] = {0x12, 0x34, 0x56, 0x78};
    out.append(mask, 4);
    for (std::size_t i = 0; i < payload.size(); ++i) out += static_cast<char>(payload[i] ^ mask[i % 4]);
    return out;
}

/// A raw WebSocket connection to 127.0.0.1:`port` from the local address `from`, driven by
/// the thread that owns it. Writes never block for long: a server that stops reading makes
/// them fail (false) after a timeout.
class RawClient {
public:
    /// Connects from `from` and upgrades on /ws; throws std::runtime_error on refusal (any
    /// status but 101), with the status line in the message.
    explicit RawClient(std::uint16_t port, const std::string& from = "127.0.0.1") : socket_(io_) {
        namespace net = boost::asio;
        socket_.open(net::ip::tcp::v4());
        socket_.bind(net::ip::tcp::endpoint(net::ip::make_address(from), 0));
        socket_.connect(net::ip::tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
        socket_.set_option(net::ip::tcp::no_delay(true));
        const std::string request =
            "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n";
        net::write(socket_, net::buffer(request));
        // Non-blocking from here on: every wait below is a poll with a deadline.
        socket_.non_blocking(true);
        std::string head;
        char c = 0;
        while (head.find("\r\n\r\n") == std::string::npos) {
            if (!read_exact(&c, 1)) throw std::runtime_error("refused: " + head);
            head += c;
        }
        if (head.rfind("HTTP/1.1 101", 0) != 0) throw std::runtime_error(head.substr(0, head.find("\r\n")));
    }

    /// Writes raw bytes whole (a server that reads slowly is waited for, until `deadline`);
    /// false once the connection is gone or the deadline passed.
    bool write(std::string_view bytes, Clock::time_point deadline = Clock::now() + 5s) {
        while (!bytes.empty()) {
            boost::system::error_code ec;
            const std::size_t n = socket_.write_some(boost::asio::buffer(bytes.data(), bytes.size()), ec);
            sent_ += n;
            bytes.remove_prefix(n);
            if (ec == boost::asio::error::would_block || ec == boost::asio::error::try_again) {
                if (Clock::now() >= deadline) return false;
                wait_for(POLLOUT, deadline);
                continue;
            }
            if (ec) return false;
        }
        return true;
    }
    /// Reads what has arrived without waiting; true once a close frame (or the end) came.
    bool poll_close() {
        boost::system::error_code ec;
        while (!ended_ && socket_.available(ec) > 0 && !ec) read();
        return ended_ || ec;
    }
    /// Sends one whole text message.
    bool send(std::string_view text) { return write(frame(Text, true, text)); }

    /// One frame as it came: its opcode and payload.
    struct Frame {
        int opcode = 0;
        std::string payload;
    };
    /// The next frame of any kind, or nullopt if none begins within `wait` or the connection
    /// ends. Nothing is answered or recorded.
    std::optional<Frame> read_frame(std::chrono::milliseconds wait = 5s) {
        unsigned char h[2];
        if (!read_exact(h, 1, Clock::now() + wait)) return std::nullopt;
        if (!read_exact(h + 1, 1)) return std::nullopt;
        std::uint64_t length = h[1] & 0x7f;
        if (length == 126) {
            unsigned char l[2];
            if (!read_exact(l, 2)) return std::nullopt;
            length = (std::uint64_t{l[0]} << 8) | l[1];
        } else if (length == 127) {
            unsigned char l[8];
            if (!read_exact(l, 8)) return std::nullopt;
            length = 0;
            for (unsigned char b : l) length = (length << 8) | b;
        }
        Frame frame{h[0] & 0x0f, std::string(length, '\0')};
        if (length > 0 && !read_exact(frame.payload.data(), length)) return std::nullopt;
        return frame;
    }
    /// The next data frame's payload (control frames are skipped: a close frame ends the
    /// connection, records its code and is answered), or nullopt if none begins within `wait`
    /// or the connection ends.
    std::optional<std::string> read(std::chrono::milliseconds wait = 5s) {
        while (true) {
            std::optional<Frame> frame = read_frame(wait);
            if (!frame) return std::nullopt;
            const std::string& payload = frame->payload;
            if (frame->opcode == Close) {
                if (payload.size() >= 2)
                    close_code_ = static_cast<std::uint16_t>((static_cast<unsigned char>(payload[0]) << 8) |
                                                             static_cast<unsigned char>(payload[1]));
                ended_ = true;
                write(abuse::frame(Close, true, payload.substr(0, 2)), Clock::now() + 200ms);
                return std::nullopt;
            }
            if (frame->opcode == Ping || frame->opcode == Pong) continue;
            return payload;
        }
    }
    /// True when the server has ended the TCP connection within `wait` (what it sent before
    /// is read and dropped).
    bool stream_ends(std::chrono::milliseconds wait = 3s) {
        const auto deadline = Clock::now() + wait;
        char c = 0;
        while (Clock::now() < deadline) {
            if (!read_exact(&c, 1, deadline)) return last_error_ != boost::asio::error::timed_out;
        }
        return false;
    }
    /// The next message parsed as JSON whose type is `type` (others skipped), or nullopt.
    std::optional<json> read_type(std::string_view type) {
        while (auto text = read()) {
            json message = json::parse(*text, nullptr, false);
            if (message.is_object() && message.value("type", "") == type) return message;
        }
        return std::nullopt;
    }
    /// Reads until the connection ends (or `timeout`); the close code, if the server sent one.
    std::optional<std::uint16_t> read_close(std::chrono::milliseconds timeout = 5s) {
        const auto deadline = Clock::now() + timeout;
        while (!ended_ && Clock::now() < deadline) {
            if (!read(std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now())) && !ended_ &&
                last_error_ != boost::asio::error::timed_out)
                break;
        }
        return close_code_;
    }

    /// hello with `token`; true when the answer is welcome.
    bool hello(const std::string& token) {
        send(json{{"type", "hello"}, {"protocol", 1}, {"token", token}}.dump());
        auto welcome = read_type("welcome");
        return welcome.has_value();
    }
    /// A ping message's round trip (nullopt if no pong came).
    std::optional<Clock::duration> round_trip() {
        const auto start = Clock::now();
        if (!send(R"({"type":"ping","ref":"rt"})")) return std::nullopt;
        if (!read_type("pong")) return std::nullopt;
        return Clock::now() - start;
    }

    /// True once the server closed (a close frame or the stream's end).
    bool ended() const { return ended_; }
    /// Bytes written so far.
    std::size_t sent() const { return sent_; }
    /// The underlying socket (to shut it down, say).
    boost::asio::ip::tcp::socket& socket() { return socket_; }

private:
    // Waits (at most 50 ms, and not past `deadline`) for the socket to be ready for `events`.
    void wait_for(short events, Clock::time_point deadline) {
        pollfd fd{socket_.native_handle(), events, 0};
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
        ::poll(&fd, 1, static_cast<int>(std::clamp<long long>(left, 0, 50)));
    }

    // Reads exactly `n` bytes, waiting until `deadline` (the socket's own timeout is short, so
    // a wait is a loop of them); false on timeout (last_error_ timed_out), error or end.
    bool read_exact(void* into, std::size_t n, Clock::time_point deadline = Clock::now() + 5s) {
        auto* at = static_cast<char*>(into);
        while (n > 0) {
            boost::system::error_code ec;
            const std::size_t got = socket_.read_some(boost::asio::buffer(at, n), ec);
            at += got;
            n -= got;
            if (ec == boost::asio::error::would_block || ec == boost::asio::error::try_again) {
                if (Clock::now() >= deadline) {
                    last_error_ = boost::asio::error::timed_out;
                    return false;
                }
                wait_for(POLLIN, deadline);
                continue;
            }
            if (ec) {
                last_error_ = ec;
                ended_ = true;
                return false;
            }
        }
        return true;
    }

    boost::asio::io_context io_;
    boost::asio::ip::tcp::socket socket_;
    bool ended_ = false;
    std::optional<std::uint16_t> close_code_;
    boost::system::error_code last_error_;
    std::size_t sent_ = 0;
};

/// CPU time (user + system) of the whole process so far.
inline std::chrono::duration<double> process_cpu() {
    rusage usage{};
    ::getrusage(RUSAGE_SELF, &usage);
    return std::chrono::duration<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec +
                                         (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6);
}

/// CPU time of the calling thread so far.
inline std::chrono::duration<double> thread_cpu() {
    rusage usage{};
    ::getrusage(RUSAGE_THREAD, &usage);
    return std::chrono::duration<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec +
                                         (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6);
}

/// The process's resident memory now (VmRSS), in bytes. (Under AddressSanitizer, whose
/// quarantine keeps freed memory resident a while, the tests that bound memory use
/// memory_in_use instead.)
inline std::size_t resident_bytes() {
    std::ifstream status("/proc/self/status");
    std::string key;
    while (status >> key) {
        if (key == "VmRSS:") {
            std::size_t kib = 0;
            status >> kib;
            return kib * 1024;
        }
        status.ignore(4096, '\n');
    }
    return 0;
}

#if defined(__SANITIZE_ADDRESS__)
#define ABUSE_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ABUSE_ASAN 1
#endif
#endif

}  // namespace abuse

#ifdef ABUSE_ASAN
extern "C" std::size_t __sanitizer_get_current_allocated_bytes();
#endif

namespace abuse {

/// Memory the process holds now: the resident set, or under ASan the live heap.
inline std::size_t memory_in_use() {
#ifdef ABUSE_ASAN
    return __sanitizer_get_current_allocated_bytes();
#else
    return resident_bytes();
#endif
}

/// True in a sanitizer build (everything is several times slower: time bounds are wider).
inline constexpr bool sanitized =
#ifdef ABUSE_ASAN
    true;
#else
    false;
#endif

}  // namespace abuse
