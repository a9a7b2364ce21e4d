#include "server/app/ids.hpp"

#include <random>

namespace server {
namespace {

constexpr std::string_view base32_alphabet = "abcdefghijklmnopqrstuvwxyz234567";
constexpr std::string_view code_alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
constexpr std::string_view hex_digits = "0123456789abcdef";

// std::random_device is not guaranteed to be safe to share between threads, so each thread
// keeps its own handle on /dev/urandom.
std::uint32_t random_u32() {
    thread_local std::random_device device{"/dev/urandom"};
    return static_cast<std::uint32_t>(device());
}

// `count` characters from a 32-letter alphabet, 5 random bits each.
std::string random_chars(std::string_view alphabet, int count) {
    std::string out;
    out.reserve(static_cast<std::size_t>(count));
    std::uint32_t bits = 0;
    int available = 0;
    for (int i = 0; i < count; ++i) {
        if (available < 5) {
            bits = random_u32();
            available = 32;
        }
        out += alphabet[bits & 31u];
        bits >>= 5;
        available -= 5;
    }
    return out;
}

}  // namespace

std::string random_id(std::string_view prefix) {
    return std::string(prefix) + random_chars(base32_alphabet, 16);
}

std::string invite_code() {
    return random_chars(code_alphabet, 8);
}

std::string normalize_invite_code(std::string_view text) {
    if (text.size() != 8) return {};
    std::string out;
    for (char c : text) {
        char u = (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c;
        if (code_alphabet.find(u) == std::string_view::npos) return {};
        out += u;
    }
    return out;
}

std::string secret_token() {
    std::string out;
    out.reserve(32);
    for (int word = 0; word < 4; ++word) {
        std::uint32_t bits = random_u32();
        for (int i = 0; i < 8; ++i, bits >>= 4) out += hex_digits[bits & 15u];
    }
    return out;
}

std::uint64_t random_u64() {
    return (std::uint64_t{random_u32()} << 32) | random_u32();
}

int random_below(int n) {
    // Rejection sampling keeps the seat choice exactly uniform.
    const std::uint32_t limit = UINT32_MAX - UINT32_MAX % static_cast<std::uint32_t>(n);
    std::uint32_t x = 0;
    do x = random_u32();
    while (x >= limit);
    return static_cast<int>(x % static_cast<std::uint32_t>(n));
}

}  // namespace server
