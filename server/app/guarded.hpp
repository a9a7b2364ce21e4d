#pragma once
// State whose guard is part of its type: a value behind a mutex that can only be reached with the
// mutex held (Guarded), and a value that belongs to a strand and may only be reached by functions
// running on it (StrandOwned). Which lock guards what is then said by the compiler, not by a
// comment beside the member.

#include <cassert>
#include <mutex>
#include <shared_mutex>
#include <type_traits>
#include <utility>

namespace server {

/// A `T` behind its own mutex: every access is a call of with() (or read()), which holds the
/// mutex for exactly the duration of the call. Never hand a reference out of the callback.
template <class T, class Mutex = std::mutex>
class Guarded {
  public:
    /// Constructs the value from `args`.
    template <class... Args>
    explicit Guarded(Args&&... args) : value_(std::forward<Args>(args)...) {}

    Guarded(const Guarded&) = delete;
    Guarded& operator=(const Guarded&) = delete;

    /// Calls `f(value)` with the mutex held exclusively and returns what it returns.
    template <class F>
    decltype(auto) with(F&& f) {
        std::lock_guard lock(mutex_);
        return std::forward<F>(f)(value_);
    }
    /// Calls `f(const value)` with the mutex held (shared, when the mutex allows it).
    template <class F>
    decltype(auto) read(F&& f) const {
        if constexpr (std::is_same_v<Mutex, std::shared_mutex>) {
            std::shared_lock lock(mutex_);
            return std::forward<F>(f)(std::as_const(value_));
        } else {
            std::lock_guard lock(mutex_);
            return std::forward<F>(f)(std::as_const(value_));
        }
    }

  private:
    mutable Mutex mutex_;
    T value_;
};

/// A `T` that belongs to a strand: only functions running on that strand may reach it (checked
/// by an assert in debug builds; the strand, not a lock, is what keeps it consistent). The
/// strand (an Asio strand, or anything with running_in_this_thread()) outlives this.
template <class T, class Strand>
class StrandOwned {
  public:
    /// Constructs the value from `args`, owned by `strand`.
    template <class... Args>
    explicit StrandOwned(const Strand& strand, Args&&... args)
        : strand_(strand), value_(std::forward<Args>(args)...) {}

    StrandOwned(const StrandOwned&) = delete;
    StrandOwned& operator=(const StrandOwned&) = delete;

    /// The value; call only on the strand.
    T& get() {
        assert(strand_.running_in_this_thread());
        return value_;
    }
    /// The value, read-only; call only on the strand.
    const T& get() const {
        assert(strand_.running_in_this_thread());
        return value_;
    }
    /// The strand that owns the value (to post to it).
    const Strand& strand() const { return strand_; }

  private:
    const Strand& strand_;
    T value_;
};

}  // namespace server
