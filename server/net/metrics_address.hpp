#pragma once
// Where GET /metrics is served (Config::metrics_address, --metrics-address): the counters tell
// an outsider how busy the server is and how it fails, so an operator may keep them off the
// public port: on a listener of their own (a private interface, a port the firewall keeps in),
// or nowhere.

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

namespace server {

/// A parsed metrics address.
struct MetricsPlacement {
    enum class Where {
        MainPort,  ///< "" (the default): /metrics on the main port, beside everything else
        Off,       ///< "off": /metrics is 404 everywhere
        Own,       ///< "host:port": a listener that serves /metrics only; the main port says 404
    };
    Where where = Where::MainPort;
    std::string host;        ///< Own: the address to bind ("127.0.0.1", "::1" from "[::1]")
    std::uint16_t port = 0;  ///< Own: the port (0 picks a free one)
};

/// Reads "", "off", "host:port" or "[v6 host]:port"; otherwise says what is wrong. The host is
/// checked when it is bound (Server's constructor throws for an address it cannot bind).
std::variant<MetricsPlacement, std::string> parse_metrics_address(std::string_view text);

}  // namespace server
