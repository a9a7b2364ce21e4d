// server-bench --idle-sockets: guests that connect, say hello and stay open, to show how many
// sockets one server holds and what one costs.
#pragma once

#include <atomic>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "server/tools/server_bench/common.hpp"
#include "server/tools/server_bench/options.hpp"

namespace server_bench {

/// A socket that authenticates and then only reads (Beast answers the server's pings).
class IdleSocket : public std::enable_shared_from_this<IdleSocket> {
  public:
    IdleSocket(asio::io_context& io, std::string token, std::atomic<int>& open,
               std::atomic<int>& failed)
        : ws_(asio::make_strand(io)), token_(std::move(token)), open_(open), failed_(failed) {}

    void start(std::uint16_t port) {
        ws_.next_layer().async_connect(
            tcp::endpoint(asio::ip::make_address("127.0.0.1"), port),
            [self = shared_from_this()](beast::error_code ec) {
                if (ec) return self->fail("connect", ec);
                self->ws_.async_handshake("127.0.0.1", "/ws", [self](beast::error_code ec2) {
                    if (ec2) return self->fail("handshake", ec2);
                    self->hello_ =
                        json{{"type", "hello"}, {"protocol", 1}, {"token", self->token_}}.dump();
                    self->ws_.async_write(asio::buffer(self->hello_),
                                          [self](beast::error_code ec3, std::size_t) {
                                              if (ec3) self->fail("write", ec3);
                                          });
                    self->read();
                });
            });
    }

  private:
    void read() {
        ws_.async_read(buffer_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
            if (ec) return self->fail("read", ec);
            if (!self->welcomed_) {
                self->welcomed_ = true;  // the first message after hello: welcome
                ++self->open_;
            }
            self->buffer_.consume(self->buffer_.size());
            self->read();
        });
    }
    void fail(const char* what, beast::error_code ec) {
        if (welcomed_) --open_;
        welcomed_ = false;
        if (++failed_ <= 5) std::cerr << "idle socket " << what << ": " << ec.message() << "\n";
    }

    websocket::stream<beast::tcp_stream> ws_;
    beast::flat_buffer buffer_;
    std::string token_;
    std::string hello_;
    bool welcomed_ = false;
    std::atomic<int>& open_;
    std::atomic<int>& failed_;
};

/// Opens the idle sockets and waits (up to a minute) until each is welcomed or has failed;
/// prints the count and the server's memory before and after.
void open_idle_sockets(asio::io_context& io, const Options& options,
                       std::vector<std::shared_ptr<IdleSocket>>& sockets, std::atomic<int>& open,
                       std::atomic<int>& failed);

}  // namespace server_bench
