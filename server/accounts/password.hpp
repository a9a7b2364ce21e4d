#pragma once
// Account passwords: libsodium's Argon2id (crypto_pwhash_str), a memory-hard hash with its own
// salt and limits in the stored string. Hashing and verifying take tens of milliseconds and 64
// MiB each (OPSLIMIT_INTERACTIVE, MEMLIMIT_INTERACTIVE): call them only off the network threads,
// from a pool that bounds how many run at once (server/accounts/accounts.hpp). A password is never
// logged, stored or copied beyond the call.

#include <optional>
#include <string>
#include <string_view>

namespace server {

/// Shortest and longest password accepted, in bytes (UTF-8).
inline constexpr std::size_t min_password_bytes = 8;
inline constexpr std::size_t max_password_bytes = 128;

/// Why a password is refused, or nullopt: 8-128 bytes, no NUL and no other control character.
std::optional<std::string> password_problem(std::string_view password);

/// The Argon2id string of `password` ("$argon2id$..."), or nullopt if libsodium fails (out of
/// memory). Blocks for the hash's time.
std::optional<std::string> hash_password(std::string_view password);

/// True when `password` matches `stored` (a string from hash_password). Blocks like it.
bool verify_password(const std::string& stored, std::string_view password);

/// Spends the time of one verification without any account: a sign-in for an unknown username
/// answers as slowly as a wrong password, so timing does not tell which usernames exist.
void verify_nothing(std::string_view password);

}  // namespace server
