#pragma once
// Wall-clock time as the server stores and sends it: milliseconds since the Unix epoch, an
// int64 (step times, ratings' last games, deadlines told to clients, account times). Header only
// and without dependencies, so store/'s tools and tests use it as well as the server.

#include <chrono>
#include <cstdint>

namespace server {

/// `t` in milliseconds since the Unix epoch (whole milliseconds, rounded towards zero).
inline std::int64_t epoch_ms(std::chrono::system_clock::time_point t) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count();
}

/// Now, in milliseconds since the Unix epoch (the wall clock: it may step, so measure durations
/// with steady_clock instead).
inline std::int64_t now_epoch_ms() {
    return epoch_ms(std::chrono::system_clock::now());
}

}  // namespace server
