#include "server/bots/bot_pool.hpp"
#include "server/log/log.hpp"

#include <exception>

namespace server {

BotPool::BotPool(int threads, std::size_t queue_limit) : queue_limit_(queue_limit) {
    const int count = threads < 1 ? 1 : threads;
    threads_.reserve(static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i) threads_.emplace_back([this] { run(); });
}

BotPool::~BotPool() { stop(); }

bool BotPool::submit(std::function<void()> job) {
    {
        std::lock_guard lock(mutex_);
        if (stopped_ || jobs_.size() >= queue_limit_) return false;
        jobs_.push_back(std::move(job));
    }
    wake_.notify_one();
    return true;
}

void BotPool::stop() {
    {
        std::lock_guard lock(mutex_);
        if (stopped_ && threads_.empty()) return;
        stopped_ = true;
        jobs_.clear();
    }
    wake_.notify_all();
    for (auto& t : threads_)
        if (t.joinable() && t.get_id() != std::this_thread::get_id()) t.join();
    std::lock_guard lock(mutex_);
    threads_.clear();
}

std::size_t BotPool::waiting() const {
    std::lock_guard lock(mutex_);
    return jobs_.size();
}

void BotPool::run() {
    for (;;) {
        std::function<void()> job;
        {
            std::unique_lock lock(mutex_);
            wake_.wait(lock, [this] { return stopped_ || !jobs_.empty(); });
            if (stopped_) return;
            job = std::move(jobs_.front());
            jobs_.pop_front();
        }
        // A job catches its own failures (Match::bot_turn); this is the last line, so one bad
        // search never takes a thread, or the server, with it.
        try {
            job();
        } catch (const std::exception& e) {
            spdlog::error("event=bot_job_failed error=\"{}\"", e.what());
        } catch (...) {
            spdlog::error("event=bot_job_failed error=unknown");
        }
    }
}

}  // namespace server
