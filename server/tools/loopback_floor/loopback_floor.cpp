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
//   loopback-floor [--pairs 1000] [--seconds 15] [--request 120] [--mover 900] [--opponent 700]

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

namespace {

struct Options {
    int pairs = 1000;
    int seconds = 15;
    std::size_t request = 120, mover = 900, opponent = 700;
};

[[noreturn]] void die(const char* what) {
    std::perror(what);
    std::exit(1);
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

/// The server: accepts 2 * pairs connections (pair i is connections 2i and 2i+1, in accept
/// order), then answers every request until the client closes. Prints its CPU per step.
void serve(int listener, const Options& o, int report_fd) {
    std::vector<int> fds;
    for (int i = 0; i < 2 * o.pairs; ++i) {
        const int fd = accept(listener, nullptr, nullptr);
        if (fd < 0) die("accept");
        no_delay(fd);
        fds.push_back(fd);
    }
    const int ep = watch_readable(fds);
    std::vector<char> in(o.request), to_mover(o.mover, 'm'), to_opponent(o.opponent, 'o');
    std::vector<epoll_event> events(512);
    long steps = 0, measured_steps = 0;
    double cpu_at_start = 0;
    bool measuring = false;
    for (;;) {
        const int n = epoll_wait(ep, events.data(), static_cast<int>(events.size()), -1);
        if (n < 0 && errno == EINTR) continue;
        for (int e = 0; e < n; ++e) {
            const std::size_t i = events[e].data.u64;
            const ssize_t got = recv(fds[i], in.data(), in.size(), MSG_WAITALL);
            if (got <= 0) {
                // The client is done: report and stop.
                const double cpu = cpu_seconds() - cpu_at_start;
                char line[160];
                const int len = std::snprintf(line, sizeof line, "%ld %.6f\n", measured_steps, cpu);
                (void)!write(report_fd, line, static_cast<std::size_t>(len));
                return;
            }
            if (in[0] == 'S' && !measuring) {  // the client's mark: setup is over
                measuring = true;
                cpu_at_start = cpu_seconds();
            }
            send(fds[i], to_mover.data(), to_mover.size(), 0);
            send(fds[i ^ 1], to_opponent.data(), to_opponent.size(), 0);
            ++steps;
            if (measuring) ++measured_steps;
        }
    }
}

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
        else {
            std::fprintf(stderr, "unknown option %s\n", k.c_str());
            return 2;
        }
    }
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
    serve(listener, o, report[1]);
    waitpid(client, nullptr, 0);
    char line[160] = {};
    (void)!read(report[0], line, sizeof line - 1);
    long steps = 0;
    double cpu = 0;
    std::sscanf(line, "%ld %lf", &steps, &cpu);
    std::printf("pairs: %d  measured: %d s  steps: %ld (%.0f/s)\n", o.pairs, o.seconds, steps,
                static_cast<double>(steps) / o.seconds);
    std::printf("server CPU: %.2f s, %.1f us per step (request %zu B, patches %zu + %zu B)\n", cpu,
                steps > 0 ? cpu * 1e6 / static_cast<double>(steps) : 0.0, o.request, o.mover,
                o.opponent);
    return 0;
}
