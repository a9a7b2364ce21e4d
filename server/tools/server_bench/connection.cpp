#include "server/tools/server_bench/connection.hpp"

#include <boost/asio/connect.hpp>
#include <iostream>
#include <stdexcept>

#include "server/tools/server_bench/pair.hpp"

namespace server_bench {

std::pair<std::string, std::string> create_guest(asio::io_context& io, std::uint16_t port,
                                                 const std::string& name) {
    beast::tcp_stream stream(io);
    stream.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port));
    http::request<http::string_body> request{http::verb::post, "/api/guests", 11};
    request.set(http::field::host, "127.0.0.1");
    request.set(http::field::content_type, "application/json");
    request.body() = json{{"name", name}}.dump();
    request.prepare_payload();
    http::write(stream, request);
    beast::flat_buffer buffer;
    http::response<http::string_body> response;
    http::read(stream, buffer, response);
    if (response.result() != http::status::created)
        throw std::runtime_error("POST /api/guests: " + std::to_string(response.result_int()) +
                                 " " + response.body());
    const json body = json::parse(response.body());
    return {body.at("id"), body.at("token")};
}

void Connection::start(std::uint16_t port) {
    ws_.next_layer().async_connect(
        tcp::endpoint(asio::ip::make_address("127.0.0.1"), port),
        [self = shared_from_this()](beast::error_code ec) {
            if (ec) return self->fail("connect", ec);
            self->ws_.next_layer().socket().set_option(tcp::no_delay(true));
            self->ws_.async_handshake("127.0.0.1", "/ws", [self](beast::error_code ec2) {
                if (ec2) return self->fail("handshake", ec2);
                json hello{{"type", "hello"}, {"protocol", 1}, {"token", self->token_}};
                if (self->ack_in_patch) hello["ack_in_patch"] = true;
                self->send(hello);
                self->read();
            });
        });
}

void Connection::send(const json& message) {
    outbox_.push_back(message.dump());
    if (outbox_.size() == 1) write();
}

void Connection::write() {
    ws_.async_write(asio::buffer(outbox_.front()),
                    [self = shared_from_this()](beast::error_code ec, std::size_t) {
                        if (ec) return self->fail("write", ec);
                        self->outbox_.pop_front();
                        if (!self->outbox_.empty()) self->write();
                    });
}

void Connection::read() {
    ws_.async_read(buffer_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
        if (ec) return self->fail("read", ec);
        const auto data = self->buffer_.cdata();
        const char* text = static_cast<const char*>(data.data());
        const json message = json::parse(text, text + data.size(), nullptr, false);
        self->buffer_.consume(self->buffer_.size());
        self->deliver(message);
        self->read();
    });
}

void Connection::deliver(const json& message) {
    if (message.is_object()) pair_.on_message(index_, message);
}

void Connection::fail(const char* what, beast::error_code ec) {
    if (failed_) return;
    failed_ = true;
    std::cerr << "connection " << what << ": " << ec.message() << "\n";
}

}  // namespace server_bench
