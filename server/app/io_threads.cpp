#include "server/app/io_threads.hpp"
#include "server/log/log.hpp"

#include <exception>
#include <thread>

namespace server {

namespace net = boost::asio;

IoThreads::IoThreads(int count, bool per_thread) : threads_(count > 0 ? count : 1) {
    for (int i = 0; i < (per_thread ? threads_ : 1); ++i) {
        // One thread each: hint 1 lets a handler posted from the context's own thread skip
        // the scheduler's lock and wake-up (its private queue). Shared: the thread count.
        contexts_.push_back(std::make_unique<Context>(per_thread ? 1 : threads_));
        // Every context runs until stop(), idle or not: a connection or a match may be dealt
        // to one at any time.
        idle_guards_.push_back(net::make_work_guard(*contexts_.back()));
    }
}

IoThreads::~IoThreads() {
    stop();
    idle_guards_.clear();
    for (const auto& context : contexts_) context->shut_down();
    // Destroyed now, each after all of them were shut down.
    contexts_.clear();
}

std::vector<net::io_context*> IoThreads::all() const {
    std::vector<net::io_context*> out;
    out.reserve(contexts_.size());
    for (const auto& context : contexts_) out.push_back(context.get());
    return out;
}

void IoThreads::run() {
    // A handler that throws must not take the whole process down with it.
    auto work = [](net::io_context& io) {
        for (;;) {
            try {
                io.run();
                return;
            } catch (const std::exception& e) {
                spdlog::error("event=handler_exception what=\"{}\"", e.what());
            }
        }
    };
    std::vector<std::thread> threads;
    threads.reserve(static_cast<std::size_t>(threads_ - 1));
    for (int i = 1; i < threads_; ++i) {
        // Thread i runs context i, or the one shared context.
        net::io_context& io = contexts_.size() > 1 ? *contexts_[static_cast<std::size_t>(i)] : first();
        threads.emplace_back([&work, &io] { work(io); });
    }
    work(*contexts_.front());
    for (std::thread& thread : threads) thread.join();
}

void IoThreads::stop() {
    for (const auto& context : contexts_) context->stop();
}

}  // namespace server
