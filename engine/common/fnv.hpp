#pragma once
// The state hashes' arithmetic (engine/*/state_hash.cpp): FNV-1a fed one integer at a time in a
// fixed byte order, so a hash stored with a step today is the hash a replay computes on any
// machine later. Header only.

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

namespace engine_common {

/// FNV-1a over integers (each fed as its little-endian bytes) and arrays of them.
class Fnv {
  public:
    template <class T>
    void add(T value) {
        auto bits = static_cast<std::uint64_t>(value);
        for (std::size_t i = 0; i < sizeof(T); ++i) {
            hash_ ^= (bits >> (8 * i)) & 0xFFu;
            hash_ *= 0x100000001b3ull;
        }
    }
    template <class T, std::size_t N>
    void add(const std::array<T, N>& values) {
        for (const auto& v : values) add(v);
    }
    std::uint64_t value() const { return hash_; }
    /// The hash as 16 lower-case hex digits: what the store keeps.
    std::string hex() const {
        char text[17];
        std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hash_));
        return text;
    }

  private:
    std::uint64_t hash_ = 0xcbf29ce484222325ull;
};

}  // namespace engine_common
