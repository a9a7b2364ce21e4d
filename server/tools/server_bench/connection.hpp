// A player's side of server-bench: a guest created over HTTP, and its WebSocket to the server.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <utility>

#include "server/tools/server_bench/common.hpp"

namespace server_bench {

/// POST /api/guests, synchronously (before the load starts): the guest's id and token.
std::pair<std::string, std::string> create_guest(asio::io_context& io, std::uint16_t port,
                                                 const std::string& name);

class Pair;

/// One player's WebSocket, on its pair's strand.
class Connection : public std::enable_shared_from_this<Connection> {
  public:
    Connection(Strand strand, Pair& pair, int index, std::string token)
        : ws_(strand), pair_(pair), index_(index), token_(std::move(token)) {}

    /// Connects to 127.0.0.1:port, says hello with the token, then reads until the socket fails.
    void start(std::uint16_t port);

    /// Queues a message; one write is in flight at a time.
    void send(const json& message);

    bool ack_in_patch = false;  ///< say hello with ack_in_patch (--acks patch)
    json view;                  ///< this seat's view of the current match
    std::uint64_t version = 0;  ///< its version

  private:
    void write();
    void read();
    void deliver(const json& message);
    void fail(const char* what, beast::error_code ec);

    websocket::stream<beast::tcp_stream> ws_;
    beast::flat_buffer buffer_;
    std::deque<std::string> outbox_;
    Pair& pair_;
    int index_;
    std::string token_;
    bool failed_ = false;
};

}  // namespace server_bench
