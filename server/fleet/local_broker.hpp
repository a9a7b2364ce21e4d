#pragma once
// server::Broker in one process, for unit tests of several nodes (docs/scaling.md): the nodes
// share a LocalExchange, each has a LocalBroker with a delivery thread of its own. Same
// semantics as store::PgBroker: in order per sender, at most once, a node receives its own
// broadcasts and what it sends to itself, a message to a node that is not listening is lost,
// and what waits for a node is bounded in bytes. simulate_gap() stands for a listener that lost
// its connection.

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>

#include "server/fleet/broker.hpp"

namespace server {

class LocalBroker;

/// The brokers of one in-process fleet, by node id. Must outlive its brokers.
class LocalExchange {
  public:
    LocalExchange() = default;
    LocalExchange(const LocalExchange&) = delete;
    LocalExchange& operator=(const LocalExchange&) = delete;

  private:
    friend class LocalBroker;
    // Held while a message is put into its receivers' inboxes, so that every receiver sees
    // every sender's messages in the order sent (broadcasts and sends alike).
    std::mutex mutex_;
    std::map<std::string, LocalBroker*, std::less<>> listening_;
};

/// One node's broker on a LocalExchange.
class LocalBroker final : public Broker {
  public:
    /// `max_queued_bytes` bounds what waits for delivery to this node; beyond, the sender drops.
    LocalBroker(LocalExchange& exchange, std::string node, std::size_t max_queued_bytes = 64 << 20)
        : exchange_(exchange), node_(std::move(node)), max_queued_bytes_(max_queued_bytes) {}
    ~LocalBroker() override { stop(); }
    LocalBroker(const LocalBroker&) = delete;
    LocalBroker& operator=(const LocalBroker&) = delete;

    const std::string& node() const override { return node_; }

    /// Listens from now on (a second node with the same id replaces the first).
    void start(Receiver receive, GapHandler gap) override {
        std::lock_guard life(lifecycle_);
        if (started_) return;
        started_ = true;
        receive_ = std::move(receive);
        gap_ = std::move(gap);
        thread_ = std::thread([this] { deliver_loop(); });
        std::lock_guard lock(exchange_.mutex_);
        exchange_.listening_[node_] = this;
    }

    /// Puts `payload` in `node`'s inbox now (lost when it is not listening).
    void send(std::string_view node, std::string payload) override {
        {
            std::lock_guard lock(mutex_);
            if (closed_) {
                ++stats_.dropped;
                return;
            }
            ++stats_.sent;
        }
        std::lock_guard lock(exchange_.mutex_);
        auto it = exchange_.listening_.find(node);
        if (it != exchange_.listening_.end()) put(*it->second, payload);
    }

    /// Puts `payload` in every listening node's inbox, this one's included.
    void broadcast(std::string payload) override {
        {
            std::lock_guard lock(mutex_);
            if (closed_) {
                ++stats_.dropped;
                return;
            }
            ++stats_.sent;
        }
        std::lock_guard lock(exchange_.mutex_);
        for (auto& [id, broker] : exchange_.listening_) put(*broker, payload);
    }

    /// Stops listening at once; what waits in the inbox is dropped (sends are immediate here, so
    /// nothing of this node's waits to be sent). Not from the receiver.
    void stop() override {
        std::lock_guard life(lifecycle_);
        {
            std::lock_guard lock(exchange_.mutex_);
            auto it = exchange_.listening_.find(node_);
            if (it != exchange_.listening_.end() && it->second == this)
                exchange_.listening_.erase(it);
        }
        {
            std::lock_guard lock(mutex_);
            if (closed_) return;
            closed_ = true;
            stats_.dropped += inbox_.size();
            inbox_.clear();
            stats_.queued_bytes = 0;
        }
        ready_.notify_all();
        if (thread_.joinable()) thread_.join();
    }

    /// The counters; queued_bytes is what waits for delivery to this node.
    BrokerStats stats() const override {
        std::lock_guard lock(mutex_);
        return stats_;
    }

    /// As if the listener lost its connection and listens again: what waits for this node is
    /// lost, and the gap handler is called on the broker's thread.
    void simulate_gap() {
        {
            std::lock_guard lock(mutex_);
            if (closed_) return;
            stats_.dropped += inbox_.size();
            inbox_.clear();
            stats_.queued_bytes = 0;
            inbox_.push_back({std::string(), std::string(), true});
        }
        ready_.notify_all();
    }

  private:
    struct Entry {
        std::string from;
        std::string payload;
        bool gap = false;
    };

    /// Called with the exchange's lock held.
    void put(LocalBroker& to, const std::string& payload) {
        bool delivered = false;
        {
            std::lock_guard lock(to.mutex_);
            if (!to.closed_ && to.stats_.queued_bytes + payload.size() <= to.max_queued_bytes_) {
                to.inbox_.push_back({node_, payload, false});
                to.stats_.queued_bytes += payload.size();
                delivered = true;
            }
        }
        if (delivered) {
            to.ready_.notify_one();
        } else {
            std::lock_guard lock(mutex_);
            ++stats_.dropped;
        }
    }

    void deliver_loop() {
        std::unique_lock lock(mutex_);
        for (;;) {
            ready_.wait(lock, [&] { return closed_ || !inbox_.empty(); });
            if (closed_) return;
            Entry e = std::move(inbox_.front());
            inbox_.pop_front();
            stats_.queued_bytes -= e.payload.size();
            if (!e.gap) ++stats_.received;
            if (e.gap) ++stats_.gaps;
            lock.unlock();
            try {
                if (e.gap) {
                    if (gap_) gap_();
                } else if (receive_) {
                    receive_(e.from, std::move(e.payload));
                }
            } catch (...) {
                // A failing receiver must not stop the broker (as with PgBroker).
            }
            lock.lock();
        }
    }

    LocalExchange& exchange_;
    const std::string node_;
    const std::size_t max_queued_bytes_;

    std::mutex lifecycle_;  ///< start() and stop()
    bool started_ = false;
    Receiver receive_;
    GapHandler gap_;
    std::thread thread_;

    mutable std::mutex mutex_;  ///< the inbox, the counters, closed_
    std::condition_variable ready_;
    std::deque<Entry> inbox_;
    bool closed_ = false;
    BrokerStats stats_;
};

}  // namespace server
