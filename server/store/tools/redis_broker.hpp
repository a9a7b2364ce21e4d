#pragma once
// server::Broker on Redis pub/sub, for santorini-broker-bench only (the server does not use
// Redis: docs/scaling.md, "The broker figures"). It speaks RESP itself over plain loopback
// sockets, so the comparison needs no client library: one subscribing connection per node
// (SUBSCRIBE <prefix>_node_<id> <prefix>_fleet) read by a thread, and one publishing connection
// whose thread writes everything queued as one pipeline of PUBLISH commands and then reads
// their replies. One connection per sender keeps its messages in order, as with PostgreSQL.
// Redis takes payloads of any length, so the envelope is only "<sender>|<payload>".

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>

#include "server/fleet/broker.hpp"

namespace bench {

/// A blocking loopback TCP connection with a read buffer, enough for RESP.
class RespConnection {
  public:
    explicit RespConnection(int port) {
        fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_port = htons(static_cast<std::uint16_t>(port));
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (fd_ < 0 || ::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
            if (fd_ >= 0) ::close(fd_);
            throw std::runtime_error("redis: cannot connect to 127.0.0.1:" + std::to_string(port));
        }
        int one = 1;
        ::setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    }
    ~RespConnection() { ::close(fd_); }
    RespConnection(const RespConnection&) = delete;
    RespConnection& operator=(const RespConnection&) = delete;

    /// Wakes a thread blocked in read (stop).
    void shutdown() { ::shutdown(fd_, SHUT_RDWR); }

    void write_all(const std::string& data) {
        std::size_t done = 0;
        while (done < data.size()) {
            const auto n = ::send(fd_, data.data() + done, data.size() - done, MSG_NOSIGNAL);
            if (n <= 0) throw std::runtime_error("redis: write failed");
            done += static_cast<std::size_t>(n);
        }
    }

    /// One line without its CRLF.
    std::string line() {
        for (;;) {
            const auto end = buffer_.find("\r\n", at_);
            if (end != std::string::npos) {
                std::string l = buffer_.substr(at_, end - at_);
                at_ = end + 2;
                return l;
            }
            fill();
        }
    }
    /// `n` bytes and the CRLF after them.
    std::string bulk(std::size_t n) {
        while (buffer_.size() - at_ < n + 2) fill();
        std::string b = buffer_.substr(at_, n);
        at_ += n + 2;
        return b;
    }
    /// A command as a RESP array of bulk strings, appended to `out`.
    static void command(std::string& out, std::initializer_list<std::string_view> parts) {
        out += '*';
        out += std::to_string(parts.size());
        out += "\r\n";
        for (auto p : parts) {
            out += '$';
            out += std::to_string(p.size());
            out += "\r\n";
            out.append(p);
            out += "\r\n";
        }
    }

  private:
    void fill() {
        if (at_ > 0 && at_ == buffer_.size()) buffer_.clear(), at_ = 0;
        if (at_ > (1 << 20)) buffer_.erase(0, at_), at_ = 0;
        char chunk[65536];
        const auto n = ::recv(fd_, chunk, sizeof chunk, 0);
        if (n <= 0) throw std::runtime_error("redis: connection closed");
        buffer_.append(chunk, static_cast<std::size_t>(n));
    }

    int fd_ = -1;
    std::string buffer_;
    std::size_t at_ = 0;
};

class RedisBroker final : public server::Broker {
  public:
    RedisBroker(int port, std::string node, std::string prefix,
                std::size_t max_queued_bytes = 64 << 20)
        : port_(port),
          node_(std::move(node)),
          prefix_(std::move(prefix)),
          max_queued_bytes_(max_queued_bytes) {}
    ~RedisBroker() override { stop(); }

    const std::string& node() const override { return node_; }

    /// Returns once both channels are subscribed.
    void start(Receiver receive, GapHandler) override {
        receive_ = std::move(receive);
        sub_ = std::make_unique<RespConnection>(port_);
        pub_ = std::make_unique<RespConnection>(port_);
        std::string subscribe;
        RespConnection::command(subscribe,
                                {"SUBSCRIBE", prefix_ + "_node_" + node_, prefix_ + "_fleet"});
        sub_->write_all(subscribe);
        for (int i = 0; i < 2; ++i) read_push();  // the two confirmations
        reader_ = std::thread([this] { read_loop(); });
        writer_ = std::thread([this] { write_loop(); });
    }

    void send(std::string_view node, std::string payload) override {
        enqueue(prefix_ + "_node_" + std::string(node), std::move(payload));
    }
    void broadcast(std::string payload) override {
        enqueue(prefix_ + "_fleet", std::move(payload));
    }

    void stop() override {
        {
            std::lock_guard lock(mutex_);
            if (stopping_) return;
            stopping_ = true;
        }
        queued_.notify_all();
        if (writer_.joinable()) writer_.join();
        if (sub_) sub_->shutdown();
        if (reader_.joinable()) reader_.join();
    }

    server::BrokerStats stats() const override {
        std::lock_guard lock(mutex_);
        server::BrokerStats s;
        s.sent = sent_;
        s.received = received_;
        s.dropped = dropped_;
        s.queued_bytes = queue_bytes_;
        return s;
    }

  private:
    void enqueue(std::string channel, std::string payload) {
        {
            std::lock_guard lock(mutex_);
            const std::size_t bytes = channel.size() + payload.size() + 64;
            if (stopping_ || queue_bytes_ + bytes > max_queued_bytes_) {
                ++dropped_;
                return;
            }
            queue_bytes_ += bytes;
            ++sent_;
            queue_.push_back({std::move(channel), std::move(payload)});
        }
        queued_.notify_one();
    }

    void write_loop() {
        std::deque<std::pair<std::string, std::string>> batch;
        std::string out;
        for (;;) {
            {
                std::unique_lock lock(mutex_);
                queued_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
                if (queue_.empty()) return;  // stopping, all sent
                std::size_t bytes = 0;
                while (!queue_.empty() && bytes < (1 << 20)) {
                    bytes += queue_.front().first.size() + queue_.front().second.size() + 64;
                    batch.push_back(std::move(queue_.front()));
                    queue_.pop_front();
                }
                queue_bytes_ -= bytes;
            }
            out.clear();
            std::string body;
            for (const auto& [channel, payload] : batch) {
                body.assign(node_);
                body += '|';
                body += payload;
                RespConnection::command(out, {"PUBLISH", channel, body});
            }
            try {
                pub_->write_all(out);
                for (std::size_t i = 0; i < batch.size(); ++i) pub_->line();  // ":<listeners>"
            } catch (const std::exception&) {
                std::lock_guard lock(mutex_);
                dropped_ += batch.size();
            }
            batch.clear();
        }
    }

    /// Reads one pushed array; delivers it when it is a message.
    void read_push() {
        const std::string header = sub_->line();  // *3
        if (header.empty() || header[0] != '*') throw std::runtime_error("redis: bad reply");
        const int n = std::stoi(header.substr(1));
        std::string items[3];
        for (int i = 0; i < n; ++i) {
            const std::string h = sub_->line();
            std::string item = h[0] == '$' ? sub_->bulk(std::stoul(h.substr(1))) : h.substr(1);
            if (i < 3) items[i] = std::move(item);
        }
        if (items[0] != "message") return;
        const auto bar = items[2].find('|');
        if (bar == std::string::npos) return;
        {
            std::lock_guard lock(mutex_);
            ++received_;
        }
        if (receive_) receive_(std::string_view(items[2]).substr(0, bar), items[2].substr(bar + 1));
    }

    void read_loop() {
        try {
            for (;;) read_push();
        } catch (const std::exception&) {
            // stop() shut the socket down
        }
    }

    const int port_;
    const std::string node_;
    const std::string prefix_;
    const std::size_t max_queued_bytes_;
    Receiver receive_;
    std::unique_ptr<RespConnection> sub_, pub_;
    std::thread reader_, writer_;

    mutable std::mutex mutex_;
    std::condition_variable queued_;
    std::deque<std::pair<std::string, std::string>> queue_;
    std::size_t queue_bytes_ = 0;
    bool stopping_ = false;
    std::uint64_t sent_ = 0, received_ = 0, dropped_ = 0;
};

}  // namespace bench
