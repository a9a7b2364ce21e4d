#pragma once
// Deadlines on blocking work (docs/storage.md, "Deadlines"). A database that hangs (its server
// stopped, not gone: TCP stays up, so neither libpq nor statement_timeout notice) must not keep
// a request waiting: the request is answered "unavailable" when its deadline passes, and what
// the stuck call returns later is dropped. The stuck thread itself cannot be freed; it carries
// on when the database does.

#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <utility>

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/thread_pool.hpp>

namespace server {

/// An answer that counts once: the first call of the returned function passes its value to
/// `done` and returns true, and when `deadline` passes first (a timer on `io`), `done` gets
/// nullopt; later calls do nothing and return false (the caller may undo what came too late).
/// `done` runs on the thread of the winning call.
template <class T>
std::function<bool(std::optional<T>)> first_answer(boost::asio::io_context& io,
                                                   std::chrono::milliseconds deadline,
                                                   std::function<void(std::optional<T>)> done) {
    struct State {
        std::mutex mutex;
        std::function<void(std::optional<T>)> done;
        boost::asio::steady_timer timer;
        explicit State(boost::asio::io_context& io) : timer(io) {}
    };
    auto state = std::make_shared<State>(io);
    state->done = std::move(done);
    auto answer = [state](std::optional<T> value) {
        std::function<void(std::optional<T>)> once;
        {
            std::lock_guard lock(state->mutex);
            once = std::move(state->done);
            state->done = nullptr;
        }
        if (!once) return false;
        once(std::move(value));
        return true;
    };
    state->timer.expires_after(deadline);
    // The timer keeps the state until it fires (at most `deadline`), answered or not; it is not
    // cancelled from the answering thread, which would touch it from two threads at once.
    state->timer.async_wait([answer](const boost::system::error_code& ec) {
        if (!ec) answer(std::nullopt);
    });
    return answer;
}

/// Runs `work` on `pool` and calls `done` with its value, or with nullopt if `deadline`
/// passes first (first_answer). `done` is called exactly once while `io` runs.
template <class T>
void call_with_deadline(boost::asio::thread_pool& pool, boost::asio::io_context& io,
                        std::chrono::milliseconds deadline, std::function<T()> work,
                        std::function<void(std::optional<T>)> done) {
    auto answer = first_answer<T>(io, deadline, std::move(done));
    boost::asio::post(pool, [work = std::move(work), answer = std::move(answer)] {
        answer(work());
    });
}

}  // namespace server
