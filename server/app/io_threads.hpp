#pragma once
// The server's io threads and the io_contexts they run: one io_context that every thread runs
// (shared, the default), or one io_context per thread, each run by that thread alone.
//
// Per thread: Asio's scheduler wakes an idle thread whenever a thread takes a handler while
// more wait, so with one shared context a step in closed loop cost 4 to 7 context switches and
// 3.5 to 5.4 futex calls with two threads, about 30% of its CPU (docs/benchmarks.md, "Two
// strand turns fewer per step"). With a context per thread (concurrency hint 1), a handler
// posted on a thread to a strand of its own context runs on that thread (Asio's private
// queue, no lock taken), and a thread is woken only when another hands it work. The price:
// work placed on a thread waits for that thread even when another is free, so when other
// processes take the cores, latency grows (docs/benchmarks.md, "One io_context per io
// thread"). Server places each connection and each match on one of them (Listener, Hub).

#include <cstddef>
#include <memory>
#include <vector>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

namespace server {

/// The io threads and their io_contexts (one shared, or one per thread); stopped, shut down
/// and destroyed together.
class IoThreads {
public:
    /// `count` threads (at least one), none running yet: with `per_thread` a context for each,
    /// else one context that all of them run.
    IoThreads(int count, bool per_thread);
    /// Stops every context, then shuts every one down before any is destroyed: a handler
    /// destroyed with one context may own a timer or socket of another (a match held by a
    /// handler on the first context runs on the second), and that must still find its context.
    ~IoThreads();
    IoThreads(const IoThreads&) = delete;
    IoThreads& operator=(const IoThreads&) = delete;

    /// The first context: run by the thread that calls run() (and the others, if shared).
    boost::asio::io_context& first() { return *contexts_.front(); }
    /// Every context, the first one first.
    std::vector<boost::asio::io_context*> all() const;
    /// How many contexts there are (1 if shared).
    std::size_t size() const { return contexts_.size(); }

    /// Runs the threads, the caller's among them (the first context's), until stop(); returns
    /// once every thread has. A handler that throws is logged and its context runs on.
    void run();
    /// Stops every context (any thread): run() returns once their threads are out of their
    /// handlers. Nothing else stops them: an idle context waits for work.
    void stop();

private:
    /// An io_context whose shutdown (protected in Asio) the owner may call before destroying it.
    struct Context : boost::asio::io_context {
        using boost::asio::io_context::io_context;
        void shut_down() { shutdown(); }
    };
    using Guard = boost::asio::executor_work_guard<boost::asio::io_context::executor_type>;

    int threads_;
    std::vector<std::unique_ptr<Context>> contexts_;
    std::vector<Guard> idle_guards_;  ///< keep the contexts running while idle
};

}  // namespace server
