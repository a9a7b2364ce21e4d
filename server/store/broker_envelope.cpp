#include "server/store/broker_envelope.hpp"

#include <charconv>

#include "server/text/utf8.hpp"

namespace store::broker_envelope {

bool valid_text(std::string_view s) {
    return s.find('\0') == std::string_view::npos && utf8::valid(s);
}

std::size_t part_end(std::string_view payload, std::size_t from) {
    std::size_t end = from + kPartBytes;
    if (end >= payload.size()) return payload.size();
    // Back off to the first byte of a character (continuation bytes are 10xxxxxx).
    while (end > from && utf8::is_continuation(static_cast<unsigned char>(payload[end]))) --end;
    return end;
}

void append_header(std::string& out, std::string_view sender, std::uint64_t seq,
                   std::uint32_t index, std::uint32_t count) {
    char buffer[24];
    out.append(sender);
    out.push_back(':');
    out.append(buffer, std::to_chars(buffer, buffer + sizeof buffer, seq).ptr);
    out.push_back(':');
    out.append(buffer, std::to_chars(buffer, buffer + sizeof buffer, index).ptr);
    out.push_back(':');
    out.append(buffer, std::to_chars(buffer, buffer + sizeof buffer, count).ptr);
    out.push_back(':');
}

std::optional<std::string_view> next_field(std::string_view& s) {
    const auto colon = s.find(':');
    if (colon == std::string_view::npos) return std::nullopt;
    auto f = s.substr(0, colon);
    s.remove_prefix(colon + 1);
    return f;
}

namespace {

template <class Int>
bool number(std::string_view s, Int& out) {
    if (s.empty()) return false;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc{} && end == s.data() + s.size();
}

}  // namespace

std::optional<Part> parse(std::string_view notification) {
    Part part;
    auto sender = next_field(notification);
    auto seq = next_field(notification);
    auto index = next_field(notification);
    auto count = next_field(notification);
    if (!sender || sender->empty() || !seq || !index || !count) return std::nullopt;
    if (!number(*seq, part.seq) || !number(*index, part.index) || !number(*count, part.count))
        return std::nullopt;
    if (part.count == 0 || part.index >= part.count) return std::nullopt;
    part.sender = *sender;
    part.data = notification;
    return part;
}

std::optional<Message> Joiner::add(const Part& part) {
    auto it = pending_.find(part.sender);
    if (part.index == 0 && it != pending_.end()) {
        // A new message while one was in progress: its rest was lost.
        ++dropped_;
        pending_.erase(it);
        it = pending_.end();
    }
    if (part.count == 1)
        return Message{std::string(part.sender), part.seq, std::string(part.data)};
    if (part.index == 0) {
        if (part.count > kMaxParts || pending_.size() >= kMaxPendingSenders) {
            ++dropped_;
            return std::nullopt;
        }
        Pending p{part.seq, 1, part.count, std::string(part.data)};
        pending_.emplace(std::string(part.sender), std::move(p));
        return std::nullopt;
    }
    if (it == pending_.end()) return std::nullopt;  // its start was lost: already counted, or
                                                     // a message over the bounds
    Pending& p = it->second;
    if (p.seq != part.seq || p.next != part.index || p.count != part.count) {
        ++dropped_;
        pending_.erase(it);
        return std::nullopt;
    }
    p.data.append(part.data);
    if (++p.next < p.count) return std::nullopt;
    Message done{it->first, p.seq, std::move(p.data)};
    pending_.erase(it);
    return done;
}

void Joiner::clear() {
    dropped_ += pending_.size();
    pending_.clear();
}

std::size_t Joiner::pending_bytes() const {
    std::size_t bytes = 0;
    for (const auto& [sender, p] : pending_) bytes += p.data.size();
    return bytes;
}

}  // namespace store::broker_envelope
