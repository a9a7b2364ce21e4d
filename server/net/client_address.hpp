#pragma once
// Who a client is, for the limits that count per client: its address, the network it belongs
// to, and whether a proxy in front of the server may speak for it (X-Forwarded-For).
//
// One person easily holds a whole IPv6 /64 (and often several IPv4 addresses of a /24), so the
// limits on creating things count per network: the /24 of an IPv4 address, the /64 of an IPv6
// one. Connection caps count per address, but an IPv6 address only by its /64.
// X-Forwarded-For is believed only when the peer is a configured trusted proxy (a load
// balancer); anyone else could write any address there.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace server {

/// A network: an address and how many of its leading bits count (IPv4 in IPv6-mapped form).
struct AddressPrefix {
    std::array<std::uint8_t, 16> bytes{};
    int bits = 0;
    /// True when `address` (textual IPv4 or IPv6) lies in this network.
    bool contains(std::string_view address) const;
};

/// Parses "10.0.0.0/8", "2001:db8::/32" or a bare address (all its bits); nullopt if malformed.
std::optional<AddressPrefix> parse_prefix(std::string_view text);

/// The proxies whose X-Forwarded-For is believed (Config::trusted_proxies).
class TrustedProxies {
public:
    /// Parses a comma-separated list of addresses or prefixes; nullopt if one is malformed.
    static std::optional<TrustedProxies> parse(std::string_view list);
    /// True when `address` is one of the proxies.
    bool contains(std::string_view address) const;
    /// True when no proxy is configured.
    bool empty() const { return prefixes_.empty(); }

private:
    std::vector<AddressPrefix> prefixes_;
};

/// The client of a request that arrived from `peer`: `peer` itself, unless `peer` is a trusted
/// proxy, then the nearest address of X-Forwarded-For (read from the right) that is not a
/// trusted proxy itself. A malformed or empty header leaves `peer`.
std::string client_address(std::string_view peer, std::string_view forwarded_for,
                           const TrustedProxies& proxies);

/// The key connection caps count by: an IPv4 address as it is, an IPv6 address by its /64.
std::string connection_key(std::string_view address);
/// The key creation limits count by: the /24 of an IPv4 address, the /64 of an IPv6 one.
/// Anything that is not an address is its own key.
std::string network_key(std::string_view address);

}  // namespace server
