#pragma once
// What the store's synchronous functions return: a value, or why there is none. libpqxx throws;
// its exceptions stop in the store (STYLE.md) and come out as a StoreError.

#include <string>
#include <utility>
#include <variant>

namespace store {

/// Why a store call failed.
struct StoreError {
    enum class Kind {
        Unavailable,  ///< the database cannot be reached now; retrying later may work
        NotFound,     ///< no such row (an unknown id)
        Conflict,     ///< the write contradicts what is stored (a duplicate id, number, token)
        Invalid,      ///< bad input, or a migration that cannot be applied
    };
    Kind kind = Kind::Unavailable;
    std::string message;
};

/// A value or a StoreError.
template <class T>
class Result {
  public:
    Result(T value) : v_(std::move(value)) {}
    Result(StoreError error) : v_(std::move(error)) {}

    /// True when there is a value.
    bool ok() const { return v_.index() == 0; }
    explicit operator bool() const { return ok(); }
    /// The value; requires ok().
    T& operator*() { return std::get<0>(v_); }
    const T& operator*() const { return std::get<0>(v_); }
    T* operator->() { return &std::get<0>(v_); }
    const T* operator->() const { return &std::get<0>(v_); }
    /// The error; requires !ok().
    const StoreError& error() const { return std::get<1>(v_); }

  private:
    std::variant<T, StoreError> v_;
};

/// The value of a call that returns nothing but success.
struct Done {};

}  // namespace store
