#pragma once
// Errors as values: what the engine returns for bad input from outside.

#include <string>
#include <utility>
#include <variant>

namespace santorini {

/// Why something from outside (settings, notation, a step) was refused.
struct Error {
    std::string message;
};

/// Either a value or an Error (std::expected arrives with C++23).
template <class T>
class Result {
public:
    Result(T value) : v_(std::move(value)) {}
    Result(Error error) : v_(std::move(error)) {}
    bool ok() const { return v_.index() == 0; }
    explicit operator bool() const { return ok(); }
    T& value() { return std::get<0>(v_); }
    const T& value() const { return std::get<0>(v_); }
    T& operator*() { return value(); }
    const T& operator*() const { return value(); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    const Error& error() const { return std::get<1>(v_); }

private:
    std::variant<T, Error> v_;
};

}  // namespace santorini
