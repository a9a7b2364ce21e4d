#include "server/net/websocket_frame.hpp"

#include <cstring>

namespace server::ws {

HeaderStatus read_header(std::span<const unsigned char> bytes, FrameHeader& header) {
    if (bytes.size() < 2) return HeaderStatus::Incomplete;
    const unsigned char first = bytes[0];
    const unsigned char second = bytes[1];
    if ((first & 0x70) != 0) return HeaderStatus::ProtocolError;  // RSV1-3: no extension was agreed
    const auto opcode = static_cast<Opcode>(first & 0x0F);
    switch (opcode) {
        case Opcode::Continuation:
        case Opcode::Text:
        case Opcode::Binary:
        case Opcode::Close:
        case Opcode::Ping:
        case Opcode::Pong: break;
        default: return HeaderStatus::ProtocolError;
    }
    if ((second & 0x80) == 0) return HeaderStatus::ProtocolError;  // a client's frames are masked
    header.fin = (first & 0x80) != 0;
    header.opcode = opcode;
    std::size_t at = 2;
    std::uint64_t length = second & 0x7F;
    if (length == 126) {
        if (bytes.size() < at + 2) return HeaderStatus::Incomplete;
        length = (std::uint64_t{bytes[2]} << 8) | bytes[3];
        at += 2;
        if (length < 126) return HeaderStatus::ProtocolError;  // not the shortest form
    } else if (length == 127) {
        if (bytes.size() < at + 8) return HeaderStatus::Incomplete;
        length = 0;
        for (std::size_t i = 0; i < 8; ++i) length = (length << 8) | bytes[at + i];
        at += 8;
        if (length < 65536 || (length >> 63) != 0) return HeaderStatus::ProtocolError;
    }
    if (is_control(opcode) && (!header.fin || length > max_control_payload)) return HeaderStatus::ProtocolError;
    if (bytes.size() < at + 4) return HeaderStatus::Incomplete;
    std::memcpy(header.mask.data(), bytes.data() + at, 4);
    header.length = length;
    header.size = at + 4;
    return HeaderStatus::Complete;
}

void unmask(std::span<unsigned char> payload, const std::array<unsigned char, 4>& mask, std::size_t offset) {
    std::size_t i = 0;
    // Byte by byte up to a key boundary, then eight bytes at a time with the key repeated.
    for (; i < payload.size() && ((offset + i) & 3) != 0; ++i) payload[i] ^= mask[(offset + i) & 3];
    if (i + 8 <= payload.size()) {
        std::uint32_t key4;
        std::memcpy(&key4, mask.data(), 4);
        const std::uint64_t key8 = (std::uint64_t{key4} << 32) | key4;
        for (; i + 8 <= payload.size(); i += 8) {
            std::uint64_t word;
            std::memcpy(&word, payload.data() + i, 8);
            word ^= key8;
            std::memcpy(payload.data() + i, &word, 8);
        }
    }
    for (; i < payload.size(); ++i) payload[i] ^= mask[(offset + i) & 3];
}

std::size_t write_header(unsigned char* out, Opcode opcode, std::uint64_t length) {
    out[0] = static_cast<unsigned char>(0x80 | static_cast<std::uint8_t>(opcode));
    if (length < 126) {
        out[1] = static_cast<unsigned char>(length);
        return 2;
    }
    if (length <= 0xFFFF) {
        out[1] = 126;
        out[2] = static_cast<unsigned char>(length >> 8);
        out[3] = static_cast<unsigned char>(length);
        return 4;
    }
    out[1] = 127;
    for (int i = 0; i < 8; ++i) out[2 + i] = static_cast<unsigned char>(length >> (56 - 8 * i));
    return 10;
}

bool is_utf8(std::string_view text) {
    const auto* s = reinterpret_cast<const unsigned char*>(text.data());
    const std::size_t n = text.size();
    std::size_t i = 0;
    while (i < n) {
        // ASCII, eight bytes at a time: nearly all of our JSON.
        if (i + 8 <= n) {
            std::uint64_t word;
            std::memcpy(&word, s + i, 8);
            if ((word & 0x8080808080808080ULL) == 0) {
                i += 8;
                continue;
            }
        }
        const unsigned char c = s[i];
        if (c < 0x80) {
            ++i;
            continue;
        }
        std::size_t extra;
        unsigned char low = 0x80, high = 0xBF;  // the second byte's range
        if (c >= 0xC2 && c <= 0xDF) {
            extra = 1;
        } else if (c >= 0xE0 && c <= 0xEF) {
            extra = 2;
            if (c == 0xE0) low = 0xA0;        // overlong
            else if (c == 0xED) high = 0x9F;  // surrogates
        } else if (c >= 0xF0 && c <= 0xF4) {
            extra = 3;
            if (c == 0xF0) low = 0x90;        // overlong
            else if (c == 0xF4) high = 0x8F;  // above U+10FFFF
        } else {
            return false;  // a continuation byte first, an overlong 0xC0/0xC1, or 0xF5 and above
        }
        if (i + extra >= n) return false;  // cut short
        if (s[i + 1] < low || s[i + 1] > high) return false;
        for (std::size_t k = 2; k <= extra; ++k) {
            if ((s[i + k] & 0xC0) != 0x80) return false;
        }
        i += extra + 1;
    }
    return true;
}

namespace {

// Codes a peer may put in a close frame (RFC 6455 7.4.1 and the IANA registry): not 1004-1006
// or 1015 (reserved, or only for reporting), nothing unassigned below 3000, nothing from 5000.
bool may_send(std::uint16_t code) {
    if (code >= 3000 && code <= 4999) return true;
    if (code < 1000 || code > 1014) return false;
    return code != 1004 && code != 1005 && code != 1006;
}

}  // namespace

std::optional<CloseFrame> read_close(std::span<const unsigned char> payload) {
    CloseFrame frame;
    if (payload.empty()) return frame;
    if (payload.size() == 1) return std::nullopt;
    frame.code = static_cast<std::uint16_t>((payload[0] << 8) | payload[1]);
    if (!may_send(frame.code)) return std::nullopt;
    frame.reason = std::string_view(reinterpret_cast<const char*>(payload.data()) + 2, payload.size() - 2);
    if (!is_utf8(frame.reason)) return std::nullopt;
    return frame;
}

std::string close_payload(std::uint16_t code, std::string_view reason) {
    if (reason.size() > max_control_payload - 2) {
        reason = reason.substr(0, max_control_payload - 2);
        // Not in the middle of a character: drop continuation bytes and the lead byte before them.
        while (!reason.empty() && !is_utf8(reason)) reason.remove_suffix(1);
    }
    std::string payload;
    payload.reserve(2 + reason.size());
    payload.push_back(static_cast<char>(code >> 8));
    payload.push_back(static_cast<char>(code & 0xFF));
    payload.append(reason);
    return payload;
}

}  // namespace server::ws
