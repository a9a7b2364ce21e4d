// The kernel's floor under a step (docs/benchmarks.md, "The kernel's floor under a step"): what
// the server's CPU per step would be if the server did nothing but the system calls a step
// needs, over loopback TCP, at the server-bench's closed-loop load.
//
// A "server" process and a "client" process (forked), M pairs of connections between them.
// Per step, one player of a pair sends a frame of `--request` bytes; the server reads it (one
// recv, after epoll says the socket is readable) and sends `--mover` bytes to that player and
// `--opponent` bytes to the other (two send calls, as the real server's two patches); the client
// waits for both, then the other player steps. The server's own CPU (getrusage) per step is
// printed: no parsing, no game, no allocation, one thread, level-triggered epoll. Loopback only.
//
// With `--client-us N` the client spends N microseconds of CPU on each step before it sends the
// next request, as server-bench's client does (it parses, checks and patches every frame): the
// floor then runs at the real bench's pace, and the "server" pays for being woken as often as
// the real server is, rather than finding many sockets ready at each epoll_wait. With
// `--io-uring 1` (built where liburing is installed) the "server" uses io_uring instead of epoll
// and send calls: whether a completion ring lowers the floor.
//
//   loopback-floor [--pairs 1000] [--seconds 15] [--request 120] [--mover 900] [--opponent 700]
//                  [--client-us 0] [--io-uring 0]

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#if LOOPBACK_FLOOR_IO_URING
#include <liburing.h>
#endif

namespace {

struct Options {
    int pairs = 1000;
    int seconds = 15;
    std::size_t request = 120, mover = 900, opponent = 700;
    int client_us = 0;  ///< the client's own CPU per step (busy), before its next request
    bool io_uring = false;  ///< the server on io_uring rather than epoll and send
};

[[noreturn]] void die(const char* what) {
    std::perror(what);
    std::exit(1);
}

/// Keeps the CPU busy for `us` microseconds (the client's stand-in for a real client's work).
void spin(int us) {
    if (us <= 0) return;
    const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(us);
    while (std::chrono::steady_clock::now() < until) {
    }
}

double cpu_seconds() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

void no_delay(int fd) {
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

/// An epoll instance (level-triggered) that reports fds[i] readable as event data i.
int watch_readable(const std::vector<int>& fds) {
    const int ep = epoll_create1(0);
    for (std::size_t i = 0; i < fds.size(); ++i) {
        epoll_event ev{};
        ev.events = EPOLLIN;
        ev.data.u64 = i;
        epoll_ctl(ep, EPOLL_CTL_ADD, fds[i], &ev);
    }
    return ep;
}

/// Reads exactly `n` bytes (blocking socket).
bool read_all(int fd, char* buf, std::size_t n) {
    while (n > 0) {
        const ssize_t got = recv(fd, buf, n, 0);
        if (got <= 0) return false;
        buf += got;
        n -= static_cast<std::size_t>(got);
    }
    return true;
}

/// Accepts 2 * pairs connections: pair i is connections 2i and 2i+1, in accept order.
std::vector<int> accept_pairs(int listener, int pairs) {
    std::vector<int> fds;
    for (int i = 0; i < 2 * pairs; ++i) {
        const int fd = accept(listener, nullptr, nullptr);
        if (fd < 0) die("accept");
        no_delay(fd);
        fds.push_back(fd);
    }
    return fds;
}

/// Tells main() the steps measured and the server's CPU seconds over them.
void report(int report_fd, long steps, double cpu) {
    char line[160];
    const int len = std::snprintf(line, sizeof line, "%ld %.6f\n", steps, cpu);
    (void)!write(report_fd, line, static_cast<std::size_t>(len));
}

/// The server: accepts 2 * pairs connections (pair i is connections 2i and 2i+1, in accept
/// order), then answers every request until the client closes. Prints its CPU per step.
void serve(int listener, const Options& o, int report_fd) {
    const std::vector<int> fds = accept_pairs(listener, o.pairs);
    const int ep = watch_readable(fds);
    std::vector<char> in(o.request), to_mover(o.mover, 'm'), to_opponent(o.opponent, 'o');
    std::vector<epoll_event> events(512);
    long measured_steps = 0;
    double cpu_at_start = 0;
    bool measuring = false;
    for (;;) {
        const int n = epoll_wait(ep, events.data(), static_cast<int>(events.size()), -1);
        if (n < 0 && errno == EINTR) continue;
        for (int e = 0; e < n; ++e) {
            const std::size_t i = events[e].data.u64;
            const ssize_t got = recv(fds[i], in.data(), in.size(), MSG_WAITALL);
            if (got <= 0) {  // the client is done
                report(report_fd, measured_steps, cpu_seconds() - cpu_at_start);
                return;
            }
            if (in[0] == 'S' && !measuring) {  // the client's mark: setup is over
                measuring = true;
                cpu_at_start = cpu_seconds();
            }
            send(fds[i], to_mover.data(), to_mover.size(), 0);
            send(fds[i ^ 1], to_opponent.data(), to_opponent.size(), 0);
            if (measuring) ++measured_steps;
        }
    }
}

#if LOOPBACK_FLOOR_IO_URING
/// The server on io_uring (--io-uring 1): a receive of each socket stays submitted; a completed
/// one queues the two sends and the socket's next receive, and one io_uring_enter both submits
/// what the completions queued and waits for the next: no epoll and no send call of its own, one
/// system call per batch of completions instead of about four per step.
void serve_uring(int listener, const Options& o, int report_fd) {
    const std::vector<int> fds = accept_pairs(listener, o.pairs);
    io_uring ring{};
    io_uring_params params{};
    params.flags = IORING_SETUP_CQSIZE | IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_COOP_TASKRUN;
    params.cq_entries = 16384;
    // SINGLE_ISSUER and COOP_TASKRUN (Linux 6.0 and 5.19): completions are run when this thread
    // enters the kernel anyway, not by interrupting it.
    if (const int rc = io_uring_queue_init_params(4096, &ring, &params); rc != 0) {
        errno = -rc;
        die("io_uring_queue_init_params");
    }
    std::vector<std::vector<char>> in(fds.size(), std::vector<char>(o.request));
    std::vector<char> to_mover(o.mover, 'm'), to_opponent(o.opponent, 'o');
    auto get_sqe = [&] {
        io_uring_sqe* sqe = io_uring_get_sqe(&ring);
        if (!sqe) {
            io_uring_submit(&ring);
            sqe = io_uring_get_sqe(&ring);
        }
        return sqe;
    };
    auto receive = [&](std::size_t i) {
        io_uring_sqe* sqe = get_sqe();
        io_uring_prep_recv(sqe, fds[i], in[i].data(), in[i].size(), MSG_WAITALL);
        io_uring_sqe_set_data64(sqe, i << 1);
    };
    auto send_to = [&](std::size_t i, const std::vector<char>& b) {
        io_uring_sqe* sqe = get_sqe();
        io_uring_prep_send(sqe, fds[i], b.data(), b.size(), 0);
        io_uring_sqe_set_data64(sqe, (i << 1) | 1);
    };
    for (std::size_t i = 0; i < fds.size(); ++i) receive(i);
    long measured_steps = 0;
    double cpu_at_start = 0;
    bool measuring = false;
    for (;;) {
        io_uring_submit_and_wait(&ring, 1);
        io_uring_cqe* cqe = nullptr;
        unsigned head = 0, seen = 0;
        bool done = false;
        io_uring_for_each_cqe(&ring, head, cqe) {
            ++seen;
            const std::uint64_t data = io_uring_cqe_get_data64(cqe);
            const std::size_t i = data >> 1;
            if (data & 1) {
                if (cqe->res < 0) die("send");
                continue;
            }
            if (cqe->res <= 0) {
                done = true;
                break;
            }
            if (in[i][0] == 'S' && !measuring) {
                measuring = true;
                cpu_at_start = cpu_seconds();
            }
            send_to(i, to_mover);
            send_to(i ^ 1, to_opponent);
            receive(i);
            if (measuring) ++measured_steps;
        }
        io_uring_cq_advance(&ring, seen);
        if (done) {  // the client is done
            report(report_fd, measured_steps, cpu_seconds() - cpu_at_start);
            return;
        }
    }
}

#endif

/// The client: connects the pairs, then keeps every pair stepping for `seconds`.
void play(const sockaddr_in& address, const Options& o) {
    std::vector<int> fds;
    for (int i = 0; i < 2 * o.pairs; ++i) {
        const int fd = socket(AF_INET, SOCK_STREAM, 0);
        if (connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0)
            die("connect");
        no_delay(fd);
        fds.push_back(fd);
    }
    const int ep = watch_readable(fds);
    // Per pair: who steps next, and how many of the step's two answers arrived.
    std::vector<int> mover(static_cast<std::size_t>(o.pairs), 0), answers(mover.size(), 0);
    std::vector<char> request(o.request, 'r'), buf(std::max(o.mover, o.opponent));
    for (int p = 0; p < o.pairs; ++p) send(fds[2 * static_cast<std::size_t>(p)], request.data(), request.size(), 0);
    const auto warm_until = std::chrono::steady_clock::now() + std::chrono::seconds(2);
    const auto end = warm_until + std::chrono::seconds(o.seconds);
    bool marked = false;
    std::vector<epoll_event> events(512);
    while (std::chrono::steady_clock::now() < end) {
        const int n = epoll_wait(ep, events.data(), static_cast<int>(events.size()), 100);
        for (int e = 0; e < n; ++e) {
            const std::size_t i = events[e].data.u64;
            const std::size_t pair = i / 2;
            const bool is_mover = static_cast<int>(i % 2) == mover[pair];
            if (!read_all(fds[i], buf.data(), is_mover ? o.mover : o.opponent)) die("read");
            if (++answers[pair] < 2) continue;
            answers[pair] = 0;
            mover[pair] ^= 1;
            spin(o.client_us);
            if (!marked && std::chrono::steady_clock::now() >= warm_until) {
                marked = true;
                request[0] = 'S';
                send(fds[2 * pair + static_cast<std::size_t>(mover[pair])], request.data(), request.size(), 0);
                request[0] = 'r';
                continue;
            }
            send(fds[2 * pair + static_cast<std::size_t>(mover[pair])], request.data(), request.size(), 0);
        }
    }
    for (int fd : fds) close(fd);
}

}  // namespace

int main(int argc, char** argv) {
    Options o;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string k = argv[i];
        const long v = std::strtol(argv[i + 1], nullptr, 10);
        if (k == "--pairs") o.pairs = static_cast<int>(v);
        else if (k == "--seconds") o.seconds = static_cast<int>(v);
        else if (k == "--request") o.request = static_cast<std::size_t>(v);
        else if (k == "--mover") o.mover = static_cast<std::size_t>(v);
        else if (k == "--opponent") o.opponent = static_cast<std::size_t>(v);
        else if (k == "--client-us") o.client_us = static_cast<int>(v);
        else if (k == "--io-uring") o.io_uring = v != 0;
        else {
            std::fprintf(stderr, "unknown option %s\n", k.c_str());
            return 2;
        }
    }
#if !LOOPBACK_FLOOR_IO_URING
    if (o.io_uring) {
        std::fprintf(stderr, "--io-uring: built without liburing (install liburing-dev)\n");
        return 2;
    }
#endif
    const int listener = socket(AF_INET, SOCK_STREAM, 0);
    int one = 1;
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);  // loopback only
    if (bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) die("bind");
    socklen_t len = sizeof address;
    getsockname(listener, reinterpret_cast<sockaddr*>(&address), &len);
    if (listen(listener, 4096) != 0) die("listen");
    int report[2];
    if (pipe(report) != 0) die("pipe");
    const pid_t client = fork();
    if (client == 0) {
        close(listener);
        play(address, o);
        return 0;
    }
#if LOOPBACK_FLOOR_IO_URING
    if (o.io_uring) serve_uring(listener, o, report[1]);
    else serve(listener, o, report[1]);
#else
    serve(listener, o, report[1]);
#endif
    waitpid(client, nullptr, 0);
    char line[160] = {};
    (void)!read(report[0], line, sizeof line - 1);
    long steps = 0;
    double cpu = 0;
    std::sscanf(line, "%ld %lf", &steps, &cpu);
    std::printf("pairs: %d  measured: %d s  steps: %ld (%.0f/s)\n", o.pairs, o.seconds, steps,
                static_cast<double>(steps) / o.seconds);
    std::printf("server CPU: %.2f s, %.1f us per step (request %zu B, patches %zu + %zu B, client "
                "%d us per step, %s)\n",
                cpu, steps > 0 ? cpu * 1e6 / static_cast<double>(steps) : 0.0, o.request, o.mover,
                o.opponent, o.client_us, o.io_uring ? "io_uring" : "epoll");
    return 0;
}
