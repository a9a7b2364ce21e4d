#pragma once
// The WebSocket wire format (RFC 6455, section 5) as the server speaks it: frames a client sends
// are parsed and checked here, frames the server sends are framed here. No I/O: the session
// (websocket_session.hpp) reads and writes, this file only says what the bytes mean.
//
// What a client's frame must be (anything else fails the connection with 1002):
//   - RSV1-3 clear (no extension is ever negotiated: no permessage-deflate, whose zlib state
//     would cost hundreds of KiB a socket);
//   - a known opcode: continuation, text, binary, close, ping, pong;
//   - masked (section 5.1: a client masks every frame);
//   - a control frame (close, ping, pong) final and at most 125 bytes;
//   - its length in the shortest form (a 16-bit length of at least 126, a 64-bit one of at
//     least 65,536 with its top bit clear).
// The server's own frames are final and unmasked, one frame per message.

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace server::ws {

/// A frame's opcode (RFC 6455, 5.2).
enum class Opcode : std::uint8_t {
    Continuation = 0x0,
    Text = 0x1,
    Binary = 0x2,
    Close = 0x8,
    Ping = 0x9,
    Pong = 0xA,
};

/// Whether `opcode` is a control frame's (close, ping, pong).
constexpr bool is_control(Opcode opcode) {
    return (static_cast<std::uint8_t>(opcode) & 0x8) != 0;
}

/// Close codes the server sends or checks (RFC 6455, 7.4.1).
namespace close_code {
inline constexpr std::uint16_t normal = 1000;
inline constexpr std::uint16_t going_away = 1001;
inline constexpr std::uint16_t protocol_error = 1002;
inline constexpr std::uint16_t no_status = 1005;        ///< a close frame without a code (never sent)
inline constexpr std::uint16_t bad_payload = 1007;      ///< a text message that is not UTF-8
inline constexpr std::uint16_t policy_error = 1008;
inline constexpr std::uint16_t too_big = 1009;
inline constexpr std::uint16_t service_restart = 1012;
}  // namespace close_code

/// The longest header a client's frame can have: 2 bytes, 8 of length, 4 of mask.
inline constexpr std::size_t max_client_header_bytes = 14;
/// The longest header the server writes: 2 bytes and 8 of length (no mask).
inline constexpr std::size_t max_server_header_bytes = 10;
/// The longest payload of a control frame.
inline constexpr std::size_t max_control_payload = 125;

/// A client's frame header, as read off the wire.
struct FrameHeader {
    bool fin = false;
    Opcode opcode = Opcode::Continuation;
    std::uint64_t length = 0;               ///< payload bytes
    std::array<unsigned char, 4> mask{};    ///< the masking key
    std::size_t size = 0;                   ///< header bytes (6, 8 or 14)
};

/// What read_header found.
enum class HeaderStatus {
    Complete,       ///< `header` holds a valid client frame header
    Incomplete,     ///< fewer bytes than the header needs: read more
    ProtocolError,  ///< not a frame a client may send (see the file comment)
};

/// Reads the header of a client's frame from the start of `bytes`.
HeaderStatus read_header(std::span<const unsigned char> bytes, FrameHeader& header);

/// Unmasks (or masks: the operation is its own inverse) `payload` in place with `mask`; `offset`
/// is the position of payload[0] within the frame's payload.
void unmask(std::span<unsigned char> payload, const std::array<unsigned char, 4>& mask, std::size_t offset = 0);

/// A server frame's header (final, unmasked) for a payload of `length` bytes, written at `out`;
/// returns its size (2, 4 or 10 bytes).
std::size_t write_header(unsigned char* out, Opcode opcode, std::uint64_t length);

/// Whether `text` is well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing
/// above U+10FFFF), as RFC 6455 requires of every text message and close reason.
bool is_utf8(std::string_view text);

/// A close frame's payload, read.
struct CloseFrame {
    std::uint16_t code = close_code::no_status;  ///< no_status when the frame had no payload
    std::string_view reason;                     ///< within the payload
};

/// Reads a client's close payload; nullopt when it is invalid (one byte, a code a peer may not
/// send, a reason that is not UTF-8): the connection then fails with 1002.
std::optional<CloseFrame> read_close(std::span<const unsigned char> payload);

/// The payload of a close frame the server sends: the code, then `reason` cut to fit the 125
/// bytes of a control frame (on a character boundary).
std::string close_payload(std::uint16_t code, std::string_view reason);

}  // namespace server::ws
