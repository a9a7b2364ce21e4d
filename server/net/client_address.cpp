#include "server/net/client_address.hpp"

#include <boost/asio/ip/address.hpp>

namespace server {

namespace {

// The 16 bytes of an address, IPv4 mapped into IPv6 (::ffff:a.b.c.d), or nullopt.
std::optional<std::array<std::uint8_t, 16>> bytes_of(std::string_view text) {
    boost::system::error_code ec;
    const auto address = boost::asio::ip::make_address(std::string(text), ec);
    if (ec) return std::nullopt;
    if (address.is_v4())
        return boost::asio::ip::make_address_v6(boost::asio::ip::v4_mapped, address.to_v4()).to_bytes();
    const auto v6 = address.to_v6();
    return v6.to_bytes();
}

bool is_mapped_v4(const std::array<std::uint8_t, 16>& b) {
    for (int i = 0; i < 10; ++i)
        if (b[static_cast<std::size_t>(i)] != 0) return false;
    return b[10] == 0xff && b[11] == 0xff;
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

// The address with only its first `bits` bits, as text ("203.0.113.0/24", "2001:db8:1:2::/64").
std::string masked(std::string_view address, int v4_bits, int v6_bits) {
    auto bytes = bytes_of(address);
    if (!bytes) return std::string(address);
    const bool v4 = is_mapped_v4(*bytes);
    const int bits = v4 ? 96 + v4_bits : v6_bits;
    for (int i = 0; i < 16; ++i) {
        const int keep = bits - i * 8;
        auto& byte = (*bytes)[static_cast<std::size_t>(i)];
        if (keep <= 0) byte = 0;
        else if (keep < 8) byte = static_cast<std::uint8_t>(byte & (0xff << (8 - keep)));
    }
    const boost::asio::ip::address_v6 v6(*bytes);
    if (v4) return boost::asio::ip::make_address_v4(boost::asio::ip::v4_mapped, v6).to_string() + "/" +
                   std::to_string(v4_bits);
    return v6.to_string() + "/" + std::to_string(v6_bits);
}

}  // namespace

bool AddressPrefix::contains(std::string_view address) const {
    const auto b = bytes_of(address);
    if (!b) return false;
    for (int i = 0; i < 16; ++i) {
        const int keep = bits - i * 8;
        if (keep <= 0) break;
        const int mask = keep >= 8 ? 0xff : (0xff << (8 - keep)) & 0xff;
        if (((*b)[static_cast<std::size_t>(i)] & mask) != (bytes[static_cast<std::size_t>(i)] & mask)) return false;
    }
    return true;
}

std::optional<AddressPrefix> parse_prefix(std::string_view text) {
    text = trim(text);
    const auto slash = text.find('/');
    const auto b = bytes_of(text.substr(0, slash));
    if (!b) return std::nullopt;
    const bool v4 = is_mapped_v4(*b) && text.find(':') == std::string_view::npos;
    AddressPrefix prefix{*b, 128};
    if (slash != std::string_view::npos) {
        const std::string_view digits = text.substr(slash + 1);
        if (digits.empty() || digits.size() > 3) return std::nullopt;
        int n = 0;
        for (char c : digits) {
            if (c < '0' || c > '9') return std::nullopt;
            n = n * 10 + (c - '0');
        }
        if (n > (v4 ? 32 : 128)) return std::nullopt;
        prefix.bits = v4 ? 96 + n : n;
    }
    return prefix;
}

std::optional<TrustedProxies> TrustedProxies::parse(std::string_view list) {
    TrustedProxies proxies;
    while (!trim(list).empty()) {
        const auto comma = list.find(',');
        const auto item = trim(list.substr(0, comma));
        auto prefix = parse_prefix(item);
        if (!prefix) return std::nullopt;
        proxies.prefixes_.push_back(*prefix);
        if (comma == std::string_view::npos) break;
        list.remove_prefix(comma + 1);
    }
    return proxies;
}

bool TrustedProxies::contains(std::string_view address) const {
    for (const auto& prefix : prefixes_)
        if (prefix.contains(address)) return true;
    return false;
}

std::string client_address(std::string_view peer, std::string_view forwarded_for,
                           const TrustedProxies& proxies) {
    if (proxies.empty() || !proxies.contains(peer)) return std::string(peer);
    // Each proxy appends the address it saw: read from the right, the first one that is not
    // a proxy of ours is the client (anything left of it the client may have written itself).
    std::string_view rest = forwarded_for;
    while (!trim(rest).empty()) {
        const auto comma = rest.rfind(',');
        const std::string_view item = trim(comma == std::string_view::npos ? rest : rest.substr(comma + 1));
        if (!bytes_of(item)) return std::string(peer);  // malformed: believe only the socket
        if (!proxies.contains(item)) return std::string(item);
        if (comma == std::string_view::npos) break;
        rest = rest.substr(0, comma);
    }
    return std::string(peer);
}

std::string connection_key(std::string_view address) {
    const auto b = bytes_of(address);
    if (!b || is_mapped_v4(*b)) return std::string(address);
    return masked(address, 32, 64);
}

std::string network_key(std::string_view address) { return masked(address, 24, 64); }

}  // namespace server
