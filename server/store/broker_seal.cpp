#include "server/store/broker_seal.hpp"

#include <openssl/crypto.h>
#include <openssl/hmac.h>

#include <array>
#include <charconv>
#include <random>
#include <stdexcept>

#include "server/store/broker_envelope.hpp"

namespace store::broker_seal {

namespace {

constexpr std::string_view kPrefix = "s1:";
constexpr std::size_t kMacHex = 64;
constexpr char kHex[] = "0123456789abcdef";

/// What the MAC covers, each field on a line of its own (channels, node ids and boot ids hold
/// no newline, so the fields cannot be shifted into one another).
std::string signed_text(const Route& route, std::string_view boot, std::int64_t at_ms,
                        std::string_view payload) {
    char number[24];
    std::string text;
    text.reserve(64 + route.channel.size() + route.sender.size() + boot.size() + payload.size());
    text.append("santorini-broker-1\n").append(route.channel).push_back('\n');
    text.append(route.sender).push_back('\n');
    text.append(number, std::to_chars(number, number + sizeof number, route.seq).ptr);
    text.push_back('\n');
    text.append(boot).push_back('\n');
    text.append(number, std::to_chars(number, number + sizeof number, at_ms).ptr);
    text.push_back('\n');
    text.append(payload);
    return text;
}

}  // namespace

std::string hmac_sha256_hex(std::string_view key, std::string_view data) {
    std::array<unsigned char, EVP_MAX_MD_SIZE> mac{};
    unsigned int size = 0;
    if (HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
             reinterpret_cast<const unsigned char*>(data.data()), data.size(), mac.data(),
             &size) == nullptr)
        throw std::runtime_error("HMAC-SHA256 failed");  // only without memory
    std::string out;
    out.reserve(size * 2);
    for (unsigned int i = 0; i < size; ++i) {
        out.push_back(kHex[mac[i] >> 4]);
        out.push_back(kHex[mac[i] & 0xf]);
    }
    return out;
}

std::string new_boot_id() {
    std::random_device random;
    std::string id;
    for (int i = 0; i < 4; ++i) {
        const unsigned int word = random();
        for (int shift = 12; shift >= 0; shift -= 4) id.push_back(kHex[(word >> shift) & 0xf]);
    }
    return id;
}

std::string seal(std::string_view secret, const Route& route, std::string_view boot,
                 std::int64_t at_ms, std::string_view payload) {
    const std::string mac = hmac_sha256_hex(secret, signed_text(route, boot, at_ms, payload));
    char number[24];
    std::string out;
    out.reserve(kPrefix.size() + boot.size() + 24 + kMacHex + 3 + payload.size());
    out.append(kPrefix).append(boot).push_back(':');
    out.append(number, std::to_chars(number, number + sizeof number, at_ms).ptr);
    out.push_back(':');
    out.append(mac).push_back(':');
    out.append(payload);
    return out;
}

std::optional<Opened> open(std::string_view secret, const Route& route, std::string_view sealed) {
    if (sealed.substr(0, kPrefix.size()) != kPrefix) return std::nullopt;
    sealed.remove_prefix(kPrefix.size());
    const auto boot = broker_envelope::next_field(sealed);
    const auto at = broker_envelope::next_field(sealed);
    const auto mac = broker_envelope::next_field(sealed);
    if (!boot || boot->empty() || boot->size() > 32 || !at || !mac || mac->size() != kMacHex)
        return std::nullopt;
    for (char c : *boot)
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return std::nullopt;
    Opened opened{*boot, 0, sealed};
    const auto [end, ec] = std::from_chars(at->data(), at->data() + at->size(), opened.at_ms);
    if (at->empty() || ec != std::errc{} || end != at->data() + at->size()) return std::nullopt;
    const std::string expected =
        hmac_sha256_hex(secret, signed_text(route, opened.boot, opened.at_ms, opened.payload));
    if (CRYPTO_memcmp(expected.data(), mac->data(), kMacHex) != 0) return std::nullopt;
    return opened;
}

bool ReplayGuard::admit(std::string_view sender, std::string_view boot, std::uint64_t seq,
                        std::int64_t at_ms, std::int64_t now_ms) {
    auto it = last_.find(sender);
    if (it != last_.end() && it->second.boot == boot) {
        if (seq <= it->second.seq) return false;
        it->second.seq = seq;
        return true;
    }
    // A sender heard of for the first time, or started again: only a message sent just now.
    const std::int64_t skew = at_ms > now_ms ? at_ms - now_ms : now_ms - at_ms;
    if (skew > kFreshness.count()) return false;
    if (it == last_.end()) {
        if (last_.size() >= kMaxSenders) last_.clear();  // never in a fleet of real size
        last_.emplace(std::string(sender), Last{std::string(boot), seq});
    } else {
        it->second = Last{std::string(boot), seq};
    }
    return true;
}

}  // namespace store::broker_seal
