#pragma once
// What a non-blocking socket call's error means to a WebSocket session (websocket_session*.cpp).

#include <string_view>

#include <boost/asio/error.hpp>
#include <boost/system/error_code.hpp>

namespace server::ws {

/// True if the call found nothing to read or no room to write: try again when the socket is ready.
inline bool would_block(const boost::system::error_code& ec) {
    return ec == boost::asio::error::would_block || ec == boost::asio::error::try_again;
}

/// Why a connection ended after `ec`, in one word for the log line: "aborted", "dropped" (the
/// peer went away) or "error".
inline std::string_view end_reason(const boost::system::error_code& ec) {
    namespace error = boost::asio::error;
    if (ec == error::operation_aborted) return "aborted";
    if (ec == error::eof || ec == error::connection_reset || ec == error::broken_pipe) return "dropped";
    return "error";
}

}  // namespace server::ws
