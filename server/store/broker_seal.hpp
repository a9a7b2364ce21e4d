#pragma once
// Broker messages signed with the fleet's shared secret (docs/scaling.md, "Signed broker
// messages"), so that a database user who can NOTIFY on the fleet's channels cannot make a node
// act: no I/O here, so sealing, opening and the replay check are tested alone.
//
// A sealed payload is "s1:<boot>:<at_ms>:<mac>:<payload>". `boot` is a random id the sending
// broker picks when it starts, `at_ms` the sender's wall clock, and `mac` the HMAC-SHA256 (64
// hex digits) under the secret of the channel, the sender, the envelope's sequence number, boot,
// at_ms and the payload: a message cannot be moved to another channel or node, or altered.
// A copy sent again (a replay) is refused by the ReplayGuard: within one boot the sequence
// numbers only grow; a new boot is taken only from a message sent moments ago.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace store::broker_seal {

/// The shortest secret accepted: 16 bytes (128 bits).
constexpr std::size_t kMinSecretBytes = 16;
/// How far a message that starts a new boot of its sender may be from the receiver's clock.
constexpr std::chrono::milliseconds kFreshness{30'000};

/// The HMAC-SHA256 of `data` under `key`, as 64 lowercase hex digits.
std::string hmac_sha256_hex(std::string_view key, std::string_view data);

/// A random boot id (16 hex digits) from the system's random source.
std::string new_boot_id();

/// Where a sealed message comes from and goes: what its MAC binds besides the payload.
struct Route {
    std::string_view channel;  ///< the NOTIFY channel it travels on
    std::string_view sender;   ///< the sending node's id
    std::uint64_t seq = 0;     ///< the envelope's sequence number
};

/// `payload` sealed under `secret`.
std::string seal(std::string_view secret, const Route& route, std::string_view boot,
                 std::int64_t at_ms, std::string_view payload);

/// A sealed payload whose MAC was right; the views point into the sealed text.
struct Opened {
    std::string_view boot;
    std::int64_t at_ms = 0;
    std::string_view payload;
};

/// The payload of `sealed` when its MAC under `secret` is right for `route`, else nothing (not
/// sealed, malformed, another secret, another route, altered). The MAC is compared in constant
/// time.
std::optional<Opened> open(std::string_view secret, const Route& route, std::string_view sealed);

/// Refuses opened messages seen before. One per receiver; not thread-safe.
class ReplayGuard {
  public:
    /// True (and remembered) when the message is new: from the sender's current boot, a higher
    /// sequence number than any before; from another boot, `at_ms` within kFreshness of
    /// `now_ms` (then that boot becomes the sender's current one).
    bool admit(std::string_view sender, std::string_view boot, std::uint64_t seq,
               std::int64_t at_ms, std::int64_t now_ms);

  private:
    struct Last {
        std::string boot;
        std::uint64_t seq = 0;
    };
    /// One entry per sending node; bounded by kMaxSenders (only authenticated senders get in).
    std::map<std::string, Last, std::less<>> last_;
    static constexpr std::size_t kMaxSenders = 1024;
};

}  // namespace store::broker_seal
