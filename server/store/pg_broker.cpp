#include "server/store/pg_broker.hpp"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "server/store/broker_envelope.hpp"
#include "server/store/broker_seal.hpp"
#include "server/store/pg.hpp"
#include "server/store/stall_watch.hpp"

namespace store {

namespace envelope = broker_envelope;
using Clock = std::chrono::steady_clock;

namespace {

/// A transaction carries about this much (whole messages; a longer one goes alone).
constexpr std::size_t kBatchBytes = 1 << 20;
/// An idle listener checks its connection this often (a silent network loss shows up as a gap).
constexpr auto kListenerPing = std::chrono::seconds(5);

// The notifications of one transaction, in the order sent: pg_notify runs after the sort (a
// volatile target is computed above ORDER BY), and one sender's transactions arrive in commit
// order.
constexpr const char* kNotifySql =
    "SELECT pg_notify(c, p) FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS t(c, p, o) "
    "ORDER BY o";

bool valid_name(const std::string& s, std::size_t max, bool dash) {
    if (s.empty() || s.size() > max) return false;
    for (char c : s)
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || (dash && c == '-')))
            return false;
    return true;
}

/// `url` with connect_timeout=2 unless it sets one: connecting to an unreachable host must not
/// hold a broker thread (and stop()) for the TCP timeout.
std::string with_connect_timeout(const std::string& url) {
    if (url.find("connect_timeout") != std::string::npos) return url;
    if (url.rfind("postgres://", 0) == 0 || url.rfind("postgresql://", 0) == 0)
        return url + (url.find('?') == std::string::npos ? "?" : "&") + "connect_timeout=2";
    return url + " connect_timeout=2";
}

}  // namespace

struct PgBroker::Impl {
    explicit Impl(PgBrokerOptions o)
        : options(std::move(o)),
          url(with_connect_timeout(options.url)),
          own_channel(options.channel_prefix + "_node_" + options.node),
          fleet_channel(options.channel_prefix + "_fleet") {}

    struct Outgoing {
        std::string channel;  // empty: the fleet's
        std::string payload;
        std::uint64_t seq;
    };

    void enqueue(std::string channel, std::string payload);
    void send_loop();
    bool send_batch(std::unique_ptr<pqxx::connection>& c, std::deque<Outgoing>& batch);
    void listen_loop();
    void on_notification(const std::string& channel, const std::string& notification);
    /// The payload to send for `out` on `channel`: sealed when the fleet has a secret.
    std::string outgoing_payload(const std::string& channel, const Outgoing& out) const;
    /// Puts a message (or, with `gap`, a gap) in the inbox for the delivery thread.
    void to_inbox(std::string from, std::string payload, bool gap);
    void deliver_loop();
    /// Waits up to `d` for the stop signal; true when stopping.
    bool wait_stop(std::chrono::milliseconds d);

    const PgBrokerOptions options;
    const std::string url;
    const std::string own_channel;
    const std::string fleet_channel;

    Receiver receive;
    GapHandler gap;

    // The outgoing queue and the sender thread.
    std::mutex mutex;
    std::condition_variable queued;
    std::deque<Outgoing> queue;
    std::size_t queue_bytes = 0;
    std::uint64_t next_seq = 0;
    bool stopping = false;  ///< stop() began: send what is queued until `deadline`
    bool closed = false;    ///< stop() ran: drop every send
    Clock::time_point deadline;

    // The listener thread and what it tells start().
    std::atomic<bool> stop_listening{false};
    int wake[2] = {-1, -1};  ///< a pipe: stop() writes, the listener's poll wakes
    std::mutex listen_mutex;
    std::condition_variable listen_tried;
    bool first_attempt_done = false;
    envelope::Joiner joiner;  ///< listener thread only
    /// This broker's boot id, in every sealed message it sends.
    const std::string boot = broker_seal::new_boot_id();
    broker_seal::ReplayGuard replays;  ///< listener thread only

    std::atomic<std::uint64_t> sent{0};
    std::atomic<std::uint64_t> received{0};
    std::atomic<std::uint64_t> dropped{0};
    std::atomic<std::uint64_t> gaps{0};
    std::atomic<std::uint64_t> incomplete{0};  ///< joiner.dropped(), for other threads
    std::atomic<std::uint64_t> rejected{0};    ///< not sealed with the secret, or replayed
    std::atomic<std::size_t> queued_bytes{0};  ///< queue_bytes, for other threads

    // What the listener read, for the delivery thread: the listener never waits for the node's
    // receiver, so PostgreSQL's queue (shared by the whole database, and kept down to its
    // slowest listener) never waits for it either. Bounded like the outgoing queue; a message
    // that does not fit is dropped and a gap reported after it.
    struct Inbound {
        std::string from;
        std::string payload;
        bool gap = false;
    };
    std::mutex inbox_mutex;
    std::condition_variable inbox_ready;
    std::deque<Inbound> inbox;
    std::size_t inbox_bytes = 0;
    bool inbox_overflowed = false;
    bool delivering = true;
    std::thread deliverer;

    std::mutex lifecycle;
    bool started = false;
    std::thread sender;
    std::thread listener;
};

namespace {

/// Hands one channel's notifications to the broker.
class ChannelReceiver final : public pqxx::notification_receiver {
  public:
    ChannelReceiver(pqxx::connection_base& c, const std::string& channel,
                    std::function<void(const std::string&)> on)
        : pqxx::notification_receiver(c, channel), on_(std::move(on)) {}
    void operator()(const std::string& payload, int) override { on_(payload); }

  private:
    std::function<void(const std::string&)> on_;
};

}  // namespace

PgBroker::PgBroker(PgBrokerOptions options) {
    if (!valid_name(options.node, 40, true))
        throw std::invalid_argument("PgBroker: a node id is 1-40 of [a-z0-9_-]: " + options.node);
    if (!valid_name(options.channel_prefix, 16, false))
        throw std::invalid_argument("PgBroker: a channel prefix is 1-16 of [a-z0-9_]: " +
                                    options.channel_prefix);
    if (!options.secret.empty() && options.secret.size() < broker_seal::kMinSecretBytes)
        throw std::invalid_argument("PgBroker: a fleet secret has at least 16 bytes");
    impl_ = std::make_unique<Impl>(std::move(options));
    if (pipe2(impl_->wake, O_CLOEXEC | O_NONBLOCK) != 0)
        throw std::runtime_error("PgBroker: cannot make a pipe");
}

PgBroker::~PgBroker() {
    stop();
    for (int fd : impl_->wake)
        if (fd >= 0) close(fd);
}

const std::string& PgBroker::node() const { return impl_->options.node; }

void PgBroker::start(Receiver receive, GapHandler gap) {
    Impl& d = *impl_;
    {
        std::lock_guard lock(d.lifecycle);
        if (d.started) return;
        d.started = true;
        d.receive = std::move(receive);
        d.gap = std::move(gap);
        d.sender = std::thread([&d] { d.send_loop(); });
        d.deliverer = std::thread([&d] { d.deliver_loop(); });
        d.listener = std::thread([&d] { d.listen_loop(); });
    }
    // Return once listening (or once the first try failed: it goes on trying), so that what a
    // node asks for right after start, such as a sync, finds it listening for the answers.
    std::unique_lock lock(d.listen_mutex);
    d.listen_tried.wait(lock, [&] { return d.first_attempt_done; });
}

void PgBroker::send(std::string_view node, std::string payload) {
    std::string to(node);
    if (!valid_name(to, 40, true)) {
        impl_->dropped++;
        return;
    }
    impl_->enqueue(impl_->options.channel_prefix + "_node_" + to, std::move(payload));
}

void PgBroker::broadcast(std::string payload) {
    impl_->enqueue(std::string(), std::move(payload));
}

void PgBroker::Impl::enqueue(std::string channel, std::string payload) {
    if (!envelope::valid_text(payload)) {
        dropped++;
        return;
    }
    const std::size_t bytes = payload.size() + channel.size() + 64;
    {
        std::lock_guard lock(mutex);
        if (closed || queue_bytes + bytes > options.max_queued_bytes) {
            dropped++;
            return;
        }
        queue.push_back({std::move(channel), std::move(payload), next_seq++});
        queue_bytes += bytes;
        queued_bytes = queue_bytes;
    }
    sent++;
    queued.notify_one();
}

void PgBroker::Impl::send_loop() {
    std::unique_ptr<pqxx::connection> c;
    std::deque<Outgoing> batch;
    for (;;) {
        {
            std::unique_lock lock(mutex);
            queued.wait(lock, [&] { return !queue.empty() || stopping; });
            if (queue.empty() || (stopping && Clock::now() >= deadline)) {
                dropped += queue.size();
                queue.clear();
                queue_bytes = 0;
                queued_bytes = 0;
                return;
            }
            std::size_t bytes = 0;
            while (!queue.empty() && (batch.empty() || bytes < kBatchBytes)) {
                bytes += queue.front().payload.size() + queue.front().channel.size() + 64;
                batch.push_back(std::move(queue.front()));
                queue.pop_front();
            }
            queue_bytes -= bytes;
            queued_bytes = queue_bytes;
        }
        while (!batch.empty()) {
            if (send_batch(c, batch)) break;
            // Not sent and still worth sending: wait, then try on a new connection.
            std::unique_lock lock(mutex);
            const auto until = Clock::now() + options.reconnect;
            queued.wait_until(lock, until, [&] { return stopping && Clock::now() >= deadline; });
            if (stopping && Clock::now() >= deadline) {
                dropped += batch.size();
                batch.clear();
            }
        }
        batch.clear();
    }
}

/// Sends `batch` in one transaction. True when it is done with it (sent, or dropped and
/// counted); false to try again: there is no connection.
bool PgBroker::Impl::send_batch(std::unique_ptr<pqxx::connection>& c,
                                std::deque<Outgoing>& batch) {
    try {
        if (!c || !c->is_open()) c = std::make_unique<pqxx::connection>(url);
    } catch (const std::exception&) {
        c.reset();
        return false;
    }
    try {
        pg::ArrayLiteral channels(batch.size(), 24);
        pg::ArrayLiteral payloads(batch.size(), 300);
        for (const Outgoing& out : batch) {
            const std::string& channel = out.channel.empty() ? fleet_channel : out.channel;
            envelope::split(options.node, out.seq, outgoing_payload(channel, out),
                            [&](const std::string& notification) {
                                channels.text(channel);
                                payloads.text(notification);
                            });
        }
        // One statement outside BEGIN/COMMIT is a transaction of its own: one round trip
        // instead of three (about 100 us less per hop, measured).
        // Watched (pg::StallWatch): on a database host gone dark the send is cut at the stall
        // limit instead of pinning the sender, and counts as lost.
        auto watched = pg::StallWatch::instance().watch(c->sock());
        pqxx::nontransaction w(*c);
        w.exec_params(kNotifySql, channels.take(), payloads.take());
        return true;
    } catch (const std::exception& e) {
        // Lost while the statement ran, it may or may not have committed: at most once means
        // not sending it again. (A database that went away also cut the listeners, which
        // report gaps.) Refused by the database, sending it again would not help either.
        if (pg::connection_lost(e)) c.reset();
        dropped += batch.size();
        return true;
    }
}

bool PgBroker::Impl::wait_stop(std::chrono::milliseconds d) {
    pollfd p{wake[0], POLLIN, 0};
    poll(&p, 1, static_cast<int>(d.count()));
    return stop_listening;
}

void PgBroker::Impl::listen_loop() {
    bool listened = false;
    bool lost = false;  // a connection was lost or could not be made: the next listen is a gap
    auto tried = [&] {
        std::lock_guard lock(listen_mutex);
        if (!first_attempt_done) {
            first_attempt_done = true;
            listen_tried.notify_all();
        }
    };
    while (!stop_listening) {
        std::unique_ptr<pqxx::connection> c;
        std::unique_ptr<ChannelReceiver> own, fleet;
        try {
            c = std::make_unique<pqxx::connection>(url);
            own = std::make_unique<ChannelReceiver>(
                *c, own_channel, [this](const std::string& n) { on_notification(own_channel, n); });
            fleet = std::make_unique<ChannelReceiver>(*c, fleet_channel, [this](const std::string& n) {
                on_notification(fleet_channel, n);
            });
        } catch (const std::exception&) {
            fleet.reset();
            own.reset();
            c.reset();
            lost = true;
            tried();
            if (wait_stop(options.reconnect)) break;
            continue;
        }
        if (listened && lost) {
            joiner.clear();
            incomplete = joiner.dropped();
            to_inbox({}, {}, true);
        }
        listened = true;
        lost = false;
        tried();
        // libpqxx 6 may reconnect by itself, quietly (and listen again): a new backend means
        // a gap all the same.
        const int backend = c->backendpid();
        auto last_heard = Clock::now();
        while (!stop_listening) {
            const int sock = c->sock();
            if (sock < 0 || !c->is_open()) break;
            pollfd fds[2] = {{sock, POLLIN, 0}, {wake[0], POLLIN, 0}};
            poll(fds, 2, 1000);
            if (stop_listening) break;
            try {
                if (fds[0].revents != 0) {
                    c->get_notifs();
                    last_heard = Clock::now();
                } else if (Clock::now() - last_heard >= kListenerPing) {
                    // Watched, like every call: a dark link is cut at the stall limit and
                    // reported as a gap, rather than noticed only when TCP gives up.
                    auto watched = pg::StallWatch::instance().watch(sock);
                    pqxx::nontransaction n(*c);
                    n.exec("SELECT 1");
                    n.commit();
                    c->get_notifs();
                    last_heard = Clock::now();
                }
            } catch (const std::exception&) {
                break;
            }
            if (!c->is_open() || c->backendpid() != backend) break;
        }
        if (stop_listening) break;
        lost = true;
        // The receivers' destructors UNLISTEN on an open connection; a broken one says nothing.
        try {
            fleet.reset();
            own.reset();
        } catch (...) {
        }
        c.reset();
        if (wait_stop(options.reconnect)) break;
    }
    tried();
}

std::string PgBroker::Impl::outgoing_payload(const std::string& channel,
                                             const Outgoing& out) const {
    if (options.secret.empty()) return out.payload;
    const auto now = std::chrono::system_clock::now().time_since_epoch();
    return broker_seal::seal(options.secret, {channel, options.node, out.seq}, boot,
                             std::chrono::duration_cast<std::chrono::milliseconds>(now).count(),
                             out.payload);
}

void PgBroker::Impl::on_notification(const std::string& channel,
                                     const std::string& notification) {
    auto part = envelope::parse(notification);
    if (!part) return;  // not ours: someone else's NOTIFY on our channel
    auto message = joiner.add(*part);
    incomplete = joiner.dropped();
    if (!message) return;
    if (options.secret.empty()) {
        to_inbox(std::move(message->sender), std::move(message->payload), false);
        return;
    }
    // Whoever can NOTIFY on the database can write on these channels: only what a node of the
    // fleet sealed, once, is delivered.
    const auto opened =
        broker_seal::open(options.secret, {channel, message->sender, message->seq}, message->payload);
    const auto now = std::chrono::system_clock::now().time_since_epoch();
    if (!opened || !replays.admit(message->sender, opened->boot, message->seq, opened->at_ms,
                                  std::chrono::duration_cast<std::chrono::milliseconds>(now).count())) {
        rejected++;
        return;
    }
    to_inbox(std::move(message->sender), std::string(opened->payload), false);
}

void PgBroker::Impl::to_inbox(std::string from, std::string payload, bool is_gap) {
    {
        std::lock_guard lock(inbox_mutex);
        if (!delivering) return;
        const std::size_t bytes = from.size() + payload.size() + 64;
        if (!is_gap && inbox_bytes + bytes > options.max_queued_bytes) {
            dropped++;
            inbox_overflowed = true;
            return;
        }
        if (inbox_overflowed && !is_gap) {
            // Messages were lost before this one: the node hears of it in order.
            inbox.push_back({{}, {}, true});
            gaps++;
        }
        if (is_gap) gaps++;
        inbox_overflowed = false;
        inbox.push_back({std::move(from), std::move(payload), is_gap});
        inbox_bytes += bytes;
    }
    inbox_ready.notify_one();
}

void PgBroker::Impl::deliver_loop() {
    std::unique_lock lock(inbox_mutex);
    for (;;) {
        inbox_ready.wait(lock, [&] { return !delivering || !inbox.empty(); });
        if (!delivering) return;
        Inbound in = std::move(inbox.front());
        inbox.pop_front();
        inbox_bytes -= in.from.size() + in.payload.size() + 64;
        lock.unlock();
        try {
            if (in.gap) {
                if (gap) gap();
            } else {
                received++;
                if (receive) receive(in.from, std::move(in.payload));
            }
        } catch (...) {
            // The node's handlers failing must not stop the broker.
        }
        lock.lock();
    }
}

void PgBroker::stop() {
    Impl& d = *impl_;
    std::lock_guard lock(d.lifecycle);
    {
        std::lock_guard q(d.mutex);
        if (d.closed) return;
        d.stopping = true;
        d.deadline = Clock::now() + d.options.stop_wait;
    }
    d.queued.notify_all();
    if (d.sender.joinable()) d.sender.join();
    {
        std::lock_guard q(d.mutex);
        d.closed = true;
        d.dropped += d.queue.size();  // never started: nothing was sent
        d.queue.clear();
        d.queue_bytes = 0;
        d.queued_bytes = 0;
    }
    d.stop_listening = true;
    const char byte = 1;
    [[maybe_unused]] auto n = write(d.wake[1], &byte, 1);
    if (d.listener.joinable()) d.listener.join();
    {
        std::lock_guard in(d.inbox_mutex);
        d.delivering = false;
        d.dropped += d.inbox.size();  // read but not delivered: stop() does not wait for them
        d.inbox.clear();
        d.inbox_bytes = 0;
    }
    d.inbox_ready.notify_all();
    if (d.deliverer.joinable()) d.deliverer.join();
}

server::BrokerStats PgBroker::stats() const {
    server::BrokerStats s;
    s.sent = impl_->sent;
    s.received = impl_->received;
    s.dropped = impl_->dropped + impl_->incomplete;
    s.gaps = impl_->gaps;
    s.rejected = impl_->rejected;
    s.queued_bytes = impl_->queued_bytes;
    return s;
}

}  // namespace store
