// santorini-broker-bench: node-to-node messages through PostgreSQL LISTEN/NOTIFY (store::PgBroker)
// against Redis pub/sub (bench::RedisBroker), on this machine. Two brokers (nodes A and B) in
// one process, so one clock stamps both ends:
//   - latency: A sends to B at a modest rate (--rate per second), the send time in the payload;
//     B takes receive - send; p50, p99, max.
//   - flood: A (or --senders nodes at once) sends --flood messages as fast as it can; messages
//     per second until B has them all.
//   - round trip: a step across nodes: A forwards a request to B, B answers A at once (two
//     hops, like `req` and `out` in docs/scaling.md); one at a time; p50, p99.
// for step-sized (300 B, like a patch) and snapshot-sized (6 KB) payloads. Redis runs only when
// `redis-server` is on PATH: the tool starts its own on a free loopback port (no persistence)
// and stops it at the end.
//
//   scripts/with-postgres sh -c 'build/release/santorini-broker-bench --url "$SANTORINI_TEST_DATABASE_URL"'
//
// Options: --url URL (default $SANTORINI_TEST_DATABASE_URL), --rate N (1000), --latency N
// messages (2000), --flood N (20000; a quarter of it for 6 KB), --senders N (4),
// --round-trips N (1000), --size BYTES (only this payload size), --idle N (more nodes that
// listen, 0), --no-redis.

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "server/store/pg_broker.hpp"
#include "server/store/tools/redis_broker.hpp"

namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

std::int64_t now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch())
        .count();
}

/// A payload of `size` bytes: kind, send time, then JSON-like filler (a patch, a snapshot).
std::string payload(char kind, std::int64_t sent_ns, std::size_t size) {
    std::string p(1, kind);
    p += std::to_string(sent_ns);
    p += "|{\"t\":\"out\",\"c\":17,\"m\":\"";
    static const char filler[] = "{\\\"op\\\":\\\"replace\\\",\\\"path\\\":\\\"/board/3/2\\\"}";
    while (p.size() + 2 < size) p += filler[p.size() % (sizeof filler - 1)];
    p += "\"}";
    return p;
}

std::int64_t sent_time(const std::string& p) { return std::strtoll(p.c_str() + 1, nullptr, 10); }

/// What one node's receiver saw, for the bench thread to wait on.
struct Sink {
    std::mutex mutex;
    std::condition_variable changed;
    std::vector<double> latencies_us;
    std::uint64_t count = 0;
    Clock::time_point last;

    void reset() {
        std::lock_guard lock(mutex);
        latencies_us.clear();
        count = 0;
    }
    void record(std::int64_t sent_ns) {
        const auto now = Clock::now();
        std::lock_guard lock(mutex);
        latencies_us.push_back(static_cast<double>(now.time_since_epoch().count() - sent_ns) /
                               1000.0);
        ++count;
        last = now;
        changed.notify_all();
    }
    bool wait_count(std::uint64_t n, std::chrono::milliseconds limit) {
        std::unique_lock lock(mutex);
        return changed.wait_for(lock, limit, [&] { return count >= n; });
    }
};

double percentile(std::vector<double> v, double p) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const auto i = static_cast<std::size_t>(p * static_cast<double>(v.size() - 1) + 0.5);
    return v[std::min(i, v.size() - 1)];
}

using Factory = std::function<std::unique_ptr<server::Broker>(const std::string& node)>;

struct Options {
    int rate = 1000;
    int latency = 2000;
    int flood = 20000;
    int senders = 4;
    int round_trips = 1000;
    std::vector<std::size_t> sizes{300, 6000};
    int idle = 0;
};

/// Runs every measurement on one kind of broker and prints its rows.
void run(const char* name, const Factory& make, const Options& o) {
    Sink at_a, at_b;
    auto a = make("a");
    auto b = make("b");
    server::Broker* b_raw = b.get();
    // Nodes that listen but are never addressed: PostgreSQL makes every listening backend read
    // every notification of the database, so they show what more nodes cost.
    std::vector<std::unique_ptr<server::Broker>> idle;
    for (int i = 0; i < o.idle; ++i) {
        idle.push_back(make("idle" + std::to_string(i)));
        idle.back()->start({}, {});
    }
    // A: answers of round trips. B: answers requests at once, records everything else.
    a->start([&](std::string_view, std::string p) { at_a.record(sent_time(p)); }, {});
    b->start(
        [&](std::string_view from, std::string p) {
            if (p[0] == 'R') {
                p[0] = 'A';
                b_raw->send(from, std::move(p));
            } else {
                at_b.record(sent_time(p));
            }
        },
        {});

    for (std::size_t size : o.sizes) {
        // Latency at a modest rate.
        at_b.reset();
        const auto period = std::chrono::nanoseconds(1'000'000'000 / o.rate);
        const auto start = Clock::now();
        for (int i = 0; i < o.latency; ++i) {
            std::this_thread::sleep_until(start + i * period);
            a->send("b", payload('L', now_ns(), size));
        }
        const bool all = at_b.wait_count(static_cast<std::uint64_t>(o.latency), 30s);
        std::vector<double> lat;
        {
            std::lock_guard lock(at_b.mutex);
            lat = at_b.latencies_us;
        }

        // Flood from one node, then from several at once.
        auto flood = [&](int senders) {
            const int total = size > 1000 ? o.flood / 4 : o.flood;
            std::vector<std::unique_ptr<server::Broker>> extra;
            std::vector<server::Broker*> from{a.get()};
            for (int s = 1; s < senders; ++s) {
                extra.push_back(make("f" + std::to_string(s)));
                extra.back()->start({}, {});
                from.push_back(extra.back().get());
            }
            at_b.reset();
            std::uint64_t dropped_before = 0;
            for (auto* f : from) dropped_before += f->stats().dropped;
            const auto t0 = Clock::now();
            std::vector<std::thread> threads;
            for (auto* f : from)
                threads.emplace_back([&, f] {
                    const std::string p = payload('F', now_ns(), size);
                    for (int i = 0; i < total / senders; ++i) f->send("b", p);
                });
            for (auto& t : threads) t.join();
            std::uint64_t dropped = 0;
            for (auto* f : from) dropped += f->stats().dropped;
            dropped -= dropped_before;
            const auto expected =
                static_cast<std::uint64_t>(total / senders * senders) - dropped;
            at_b.wait_count(expected, 60s);
            std::lock_guard lock(at_b.mutex);
            const double seconds = std::chrono::duration<double>(at_b.last - t0).count();
            const double rate = seconds > 0 ? static_cast<double>(at_b.count) / seconds : 0;
            for (auto& e : extra) e->stop();
            return std::tuple{rate, at_b.count, dropped};
        };
        const auto [rate1, got1, dropped1] = flood(1);
        const auto [rate_n, got_n, dropped_n] = flood(o.senders);

        std::printf("| %-8s | %5zu B | %7.0f | %7.0f | %7.0f | %9.0f | %9.0f | %s%s\n", name,
                    size, percentile(lat, 0.5), percentile(lat, 0.99),
                    lat.empty() ? 0.0 : *std::max_element(lat.begin(), lat.end()), rate1, rate_n,
                    all ? "" : "latency run incomplete; ",
                    dropped1 + dropped_n
                        ? ("flood dropped " + std::to_string(dropped1 + dropped_n) + " (queue bound)")
                              .c_str()
                        : "");
        std::fprintf(stderr, "%s %zu B: flood received %llu + %llu\n", name, size,
                     static_cast<unsigned long long>(got1), static_cast<unsigned long long>(got_n));
        std::fflush(stdout);
    }

    // Round trips, one at a time.
    at_a.reset();
    for (int i = 0; i < o.round_trips; ++i) {
        a->send("b", payload('R', now_ns(), 300));
        if (!at_a.wait_count(static_cast<std::uint64_t>(i + 1), 5s)) break;
    }
    std::vector<double> rtt;
    {
        std::lock_guard lock(at_a.mutex);
        rtt = at_a.latencies_us;
    }
    std::printf("| %-8s | round trip A->B->A, 300 B, one at a time: p50 %.0f us, p99 %.0f us, "
                "max %.0f us (%zu of %d)\n",
                name, percentile(rtt, 0.5), percentile(rtt, 0.99),
                rtt.empty() ? 0.0 : *std::max_element(rtt.begin(), rtt.end()), rtt.size(),
                o.round_trips);
    std::fflush(stdout);
    a->stop();
    b->stop();
    for (auto& i : idle) i->stop();
}

/// A free loopback port (bound then released: good enough on a quiet machine).
int free_port() {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
    socklen_t len = sizeof addr;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
    ::close(fd);
    return ntohs(addr.sin_port);
}

/// A redis-server of our own: no persistence, loopback only, a pub/sub output buffer large
/// enough for the flood. Stopped (SIGTERM) by the destructor.
struct RedisServer {
    pid_t pid = -1;
    int port = 0;

    bool start() {
        port = free_port();
        const std::string port_text = std::to_string(port);
        pid = fork();
        if (pid == 0) {
            // Its start-up banner and warnings would be mixed into the table.
            const int null = open("/dev/null", O_WRONLY);
            if (null >= 0) dup2(null, 1), dup2(null, 2);
            execlp("redis-server", "redis-server", "--port", port_text.c_str(), "--bind",
                   "127.0.0.1", "--save", "", "--appendonly", "no", "--daemonize", "no",
                   "--loglevel", "warning", "--client-output-buffer-limit",
                   "pubsub 256mb 64mb 60", static_cast<char*>(nullptr));
            _exit(127);
        }
        if (pid < 0) return false;
        for (int i = 0; i < 100; ++i) {
            int status;
            if (waitpid(pid, &status, WNOHANG) == pid) {
                pid = -1;
                return false;
            }
            try {
                bench::RespConnection probe(port);
                return true;
            } catch (const std::exception&) {
                std::this_thread::sleep_for(50ms);
            }
        }
        return false;
    }
    ~RedisServer() {
        if (pid > 0) {
            kill(pid, SIGTERM);
            waitpid(pid, nullptr, 0);
        }
    }
};

const char* arg_value(int& i, int argc, char** argv) {
    if (i + 1 >= argc) {
        std::fprintf(stderr, "santorini-broker-bench: %s needs a value\n", argv[i]);
        std::exit(2);
    }
    return argv[++i];
}

}  // namespace

int main(int argc, char** argv) {
    const char* env = std::getenv("SANTORINI_TEST_DATABASE_URL");
    std::string url = env ? env : "";
    Options o;
    bool redis = true;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--url"))
            url = arg_value(i, argc, argv);
        else if (!std::strcmp(argv[i], "--rate"))
            o.rate = std::max(1, std::atoi(arg_value(i, argc, argv)));
        else if (!std::strcmp(argv[i], "--latency"))
            o.latency = std::max(1, std::atoi(arg_value(i, argc, argv)));
        else if (!std::strcmp(argv[i], "--flood"))
            o.flood = std::max(4, std::atoi(arg_value(i, argc, argv)));
        else if (!std::strcmp(argv[i], "--senders"))
            o.senders = std::max(1, std::atoi(arg_value(i, argc, argv)));
        else if (!std::strcmp(argv[i], "--round-trips"))
            o.round_trips = std::max(1, std::atoi(arg_value(i, argc, argv)));
        else if (!std::strcmp(argv[i], "--size"))
            o.sizes = {static_cast<std::size_t>(std::max(40, std::atoi(arg_value(i, argc, argv))))};
        else if (!std::strcmp(argv[i], "--idle"))
            o.idle = std::max(0, std::atoi(arg_value(i, argc, argv)));
        else if (!std::strcmp(argv[i], "--no-redis"))
            redis = false;
        else {
            std::fprintf(stderr, "santorini-broker-bench: unknown argument %s (see the source)\n",
                         argv[i]);
            return 2;
        }
    }
    if (url.empty()) {
        std::fprintf(stderr, "santorini-broker-bench: --url or SANTORINI_TEST_DATABASE_URL\n");
        return 2;
    }
    std::printf("latency: %d messages at %d/s; flood: %d (300 B) and %d (6 KB) messages, from 1 "
                "and from %d nodes at once; %d round trips; %d idle nodes listening\n\n",
                o.latency, o.rate, o.flood, o.flood / 4, o.senders, o.round_trips, o.idle);
    std::printf("| broker   | payload | p50 us  | p99 us  | max us  | flood/s 1 | flood/s %d |\n",
                o.senders);
    std::printf("|----------|---------|---------|---------|---------|-----------|-----------|\n");

    // Channels of their own, so the bench can share a database with anything.
    const std::string prefix = "bench" + std::to_string(std::random_device{}() % 100000);
    try {
        run("postgres",
            [&](const std::string& node) {
                store::PgBrokerOptions po;
                po.url = url;
                po.node = node;
                po.channel_prefix = prefix;
                return std::make_unique<store::PgBroker>(po);
            },
            o);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "santorini-broker-bench: postgres: %s\n", e.what());
        return 1;
    }
    if (redis) {
        RedisServer server;
        if (!server.start()) {
            std::printf("| redis    | (no redis-server on PATH, or it did not start: skipped)\n");
            return 0;
        }
        try {
            run("redis",
                [&](const std::string& node) {
                    return std::make_unique<bench::RedisBroker>(server.port, node, prefix);
                },
                o);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "santorini-broker-bench: redis: %s\n", e.what());
            return 1;
        }
    }
    return 0;
}
