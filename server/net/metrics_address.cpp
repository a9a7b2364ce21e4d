#include "server/net/metrics_address.hpp"

#include <charconv>

namespace server {

std::variant<MetricsPlacement, std::string> parse_metrics_address(std::string_view text) {
    if (text.empty()) return MetricsPlacement{};
    if (text == "off") return MetricsPlacement{MetricsPlacement::Where::Off, {}, 0};
    const std::size_t colon = text.rfind(':');
    if (colon == std::string_view::npos || colon == 0 || colon + 1 == text.size())
        return std::string("expected \"off\" or host:port (e.g. 127.0.0.1:9090)");
    std::string_view host = text.substr(0, colon);
    const std::string_view port_text = text.substr(colon + 1);
    if (host.front() == '[') {
        if (host.size() < 3 || host.back() != ']') return std::string("a bracketed host needs its ]");
        host = host.substr(1, host.size() - 2);
    } else if (host.find(':') != std::string_view::npos) {
        return std::string("write an IPv6 host in brackets: [::1]:9090");
    }
    unsigned port = 0;
    const auto [end, ec] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
    if (ec != std::errc{} || end != port_text.data() + port_text.size() || port > 65535)
        return std::string("the port must be a number from 0 to 65535");
    return MetricsPlacement{MetricsPlacement::Where::Own, std::string(host), static_cast<std::uint16_t>(port)};
}

}  // namespace server
