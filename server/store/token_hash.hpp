#pragma once
// Player tokens are stored only as their SHA-256, so whoever reads the database cannot act as a
// player. The token is hashed here, in the process: it never travels to the database.

#include <string>
#include <string_view>

namespace store {

/// The SHA-256 of `bytes`, as 64 lowercase hex digits.
std::string sha256_hex(std::string_view bytes);

/// The SHA-256 of `token`, as 64 lowercase hex digits: what the players table keeps.
inline std::string token_sha256(std::string_view token) {
    return sha256_hex(token);
}

}  // namespace store
