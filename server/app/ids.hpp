#pragma once
// Random names for players, lobbies and matches, invite codes and secret tokens. All of them
// come from the operating system's CSPRNG (/dev/urandom through std::random_device), so ids
// cannot be guessed and tokens carry their full 128 bits of entropy.

#include <cstdint>
#include <string>
#include <string_view>

namespace server {

/// `prefix` followed by 16 lowercase base32 characters (80 random bits): "p_", "l_", "m_".
std::string random_id(std::string_view prefix);

/// An invite code of 8 characters from an alphabet without look-alikes (no 0/O, 1/I).
std::string invite_code();

/// Normalizes a code typed by a person: upper case; "" if it cannot be an invite code.
std::string normalize_invite_code(std::string_view text);

/// A secret token: 32 hex characters (128 random bits).
std::string secret_token();

/// 64 random bits (match seeds).
std::uint64_t random_u64();

/// A uniform integer in [0, n), n > 0 (the challenger seat).
int random_below(int n);

}  // namespace server
