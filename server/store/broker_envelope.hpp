#pragma once
// The envelope of a broker message in PostgreSQL NOTIFY payloads (store::PgBroker): no I/O, so
// splitting and joining are tested alone.
//
// One notification is "<sender>:<seq>:<i>:<n>:<data>": the sending node, its sequence number
// for the message (it also makes equal payloads distinct, since PostgreSQL folds identical
// notifications of one transaction into one), and part i (from 0) of n. A payload longer than
// kPartBytes is cut into parts at UTF-8 character boundaries (every part must be valid text).

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace store::broker_envelope {

/// Data bytes per notification: PostgreSQL takes payloads shorter than 8000 bytes, and the
/// header takes at most 40 + 20 + 2 * 10 + 4 = 84 of them.
constexpr std::size_t kPartBytes = 7900;
/// The most parts a receiver joins into one message (about 79 MB); longer ones are dropped.
constexpr std::uint32_t kMaxParts = 10000;
/// The most senders with a message half received at once (one per node in a fleet).
constexpr std::size_t kMaxPendingSenders = 1024;

/// True when `s` is valid UTF-8 without NUL, i.e. PostgreSQL accepts it as text.
bool valid_text(std::string_view s);

/// Calls `part(notification)` for each notification of one message, in order.
template <class Part>
void split(std::string_view sender, std::uint64_t seq, std::string_view payload, Part&& part);

/// One notification, parsed; the views point into the notification text.
struct Part {
    std::string_view sender;
    std::uint64_t seq = 0;
    std::uint32_t index = 0;
    std::uint32_t count = 1;
    std::string_view data;
};

/// The parts of a notification, or nothing when it is not an envelope of ours.
std::optional<Part> parse(std::string_view notification);

/// A whole message: who sent it and what.
struct Message {
    std::string sender;
    std::uint64_t seq = 0;  ///< the sender's sequence number for it
    std::string payload;
};

/// Joins the parts of each sender's messages. One sender's parts arrive one message after the
/// other (its notifications keep their order), so one message in progress per sender is enough;
/// a part that does not continue it (a lost part, a sender that restarted) drops it.
class Joiner {
  public:
    /// The message `part` completes, if it does.
    std::optional<Message> add(const Part& part);
    /// Forgets every message in progress (after the listener reconnected: parts were lost).
    void clear();
    /// Messages dropped incomplete so far.
    std::uint64_t dropped() const { return dropped_; }
    /// Bytes held in messages in progress.
    std::size_t pending_bytes() const;

  private:
    struct Pending {
        std::uint64_t seq = 0;
        std::uint32_t next = 0;
        std::uint32_t count = 0;
        std::string data;
    };
    std::map<std::string, Pending, std::less<>> pending_;
    std::uint64_t dropped_ = 0;
};

/// Appends the header of a part to `out`.
void append_header(std::string& out, std::string_view sender, std::uint64_t seq,
                   std::uint32_t index, std::uint32_t count);

/// The text of `s` up to its next ':' (consumed with it), or nothing when there is none: the
/// headers here and the seals of broker_seal.hpp are colon-separated fields.
std::optional<std::string_view> next_field(std::string_view& s);

/// Where a part that starts at `from` ends: at most kPartBytes on, not inside a character.
std::size_t part_end(std::string_view payload, std::size_t from);

template <class PartFn>
void split(std::string_view sender, std::uint64_t seq, std::string_view payload, PartFn&& part) {
    // Count first (cheap) so each header carries n.
    std::uint32_t count = 0;
    for (std::size_t from = 0;;) {
        ++count;
        from = part_end(payload, from);
        if (from >= payload.size()) break;
    }
    std::string notification;
    std::size_t from = 0;
    for (std::uint32_t i = 0; i < count; ++i) {
        const std::size_t end = part_end(payload, from);
        notification.clear();
        append_header(notification, sender, seq, i, count);
        notification.append(payload.data() + from, end - from);
        part(notification);
        from = end;
    }
}

}  // namespace store::broker_envelope
