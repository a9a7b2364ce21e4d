#include "server/accounts/password.hpp"

#include <sodium.h>

namespace server {
namespace {

// sodium_init is idempotent and thread-safe after the first call; it only fails when the
// system has no randomness, and then no password can be hashed safely.
bool sodium_ready() {
    static const bool ready = sodium_init() >= 0;
    return ready;
}

}  // namespace

std::optional<std::string> password_problem(std::string_view password) {
    if (password.size() < min_password_bytes) return "a password has at least 8 characters";
    if (password.size() > max_password_bytes) return "a password has at most 128 bytes";
    for (const char c : password) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte < 0x20 || byte == 0x7f) return "a password has no control characters";
    }
    return std::nullopt;
}

std::optional<std::string> hash_password(std::string_view password) {
    if (!sodium_ready()) return std::nullopt;
    char out[crypto_pwhash_STRBYTES];
    if (crypto_pwhash_str_alg(out, password.data(), password.size(),
                              crypto_pwhash_OPSLIMIT_INTERACTIVE,
                              crypto_pwhash_MEMLIMIT_INTERACTIVE,
                              crypto_pwhash_ALG_ARGON2ID13) != 0)
        return std::nullopt;
    return std::string(out);
}

bool verify_password(const std::string& stored, std::string_view password) {
    if (!sodium_ready()) return false;
    return crypto_pwhash_str_verify(stored.c_str(), password.data(), password.size()) == 0;
}

void verify_nothing(std::string_view password) {
    // One hash made at first use, of a password nobody has: verifying against it costs what a
    // real verification costs (same algorithm and limits).
    static const std::string decoy = hash_password("no account has this password").value_or("");
    if (!decoy.empty()) (void)verify_password(decoy, password);
}

}  // namespace server
