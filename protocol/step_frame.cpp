// A match.step frame of the plain shape, read in one pass over its bytes (step_frame.hpp).
// Every "not the plain shape" is a nullopt, never an error: the tree parser answers those.

#include "protocol/step_frame.hpp"

#include <cstdint>
#include <string>

namespace protocol {

namespace {

constexpr std::size_t max_digits = 18;  // fits int64 and uint64 whatever the digits

/// A cursor over the frame's bytes; each reader returns false where the shape stops being
/// plain, and the whole read then gives up.
class Cursor {
  public:
    explicit Cursor(std::string_view text) : at_(text.data()), end_(text.data() + text.size()) {}

    bool at_end() const { return at_ == end_; }

    void skip_space() {
        while (at_ != end_ && (*at_ == ' ' || *at_ == '\t' || *at_ == '\n' || *at_ == '\r')) ++at_;
    }

    /// The next token is `c` (after whitespace).
    bool take(char c) {
        skip_space();
        if (at_ == end_ || *at_ != c) return false;
        ++at_;
        return true;
    }

    char peek() {
        skip_space();
        return at_ == end_ ? '\0' : *at_;
    }

    /// A string of printable ASCII without escapes; `out` views its characters.
    bool string(std::string_view& out) {
        if (!take('"')) return false;
        const char* start = at_;
        while (at_ != end_) {
            const auto c = static_cast<unsigned char>(*at_);
            if (c == '"') {
                out = std::string_view(start, static_cast<std::size_t>(at_ - start));
                ++at_;
                return true;
            }
            if (c < 0x20 || c > 0x7e || c == '\\') return false;
            ++at_;
        }
        return false;
    }

    /// An integer as JSON writes one (no leading zero, no fraction, no exponent), of at most
    /// max_digits digits: the JSON value the tree parser makes of it (unsigned when not
    /// negative, as nlohmann does).
    bool integer(nlohmann::json& out) {
        skip_space();
        const bool negative = at_ != end_ && *at_ == '-';
        if (negative) ++at_;
        const char* start = at_;
        std::uint64_t value = 0;
        while (at_ != end_ && *at_ >= '0' && *at_ <= '9') {
            value = value * 10 + static_cast<std::uint64_t>(*at_ - '0');
            ++at_;
        }
        const auto digits = static_cast<std::size_t>(at_ - start);
        if (digits == 0 || digits > max_digits || (digits > 1 && *start == '0')) return false;
        if (at_ != end_ && (*at_ == '.' || *at_ == 'e' || *at_ == 'E')) return false;
        if (negative)
            out = -static_cast<std::int64_t>(value);
        else
            out = value;
        return true;
    }

    /// `word` (true, false, null) spelled out; what follows it is checked by the caller's
    /// next take(), so "truex" is refused there.
    bool word(std::string_view w) {
        if (static_cast<std::size_t>(end_ - at_) < w.size() || std::string_view(at_, w.size()) != w)
            return false;
        at_ += w.size();
        return true;
    }

    /// A scalar member value of a step: a string, an integer, true, false or null.
    bool scalar(nlohmann::json& out) {
        switch (peek()) {
            case '"': {
                std::string_view s;
                if (!string(s)) return false;
                out = std::string(s);
                return true;
            }
            case 't':
                out = true;
                return word("true");
            case 'f':
                out = false;
                return word("false");
            case 'n':
                out = nullptr;
                return word("null");
            default:
                return integer(out);
        }
    }

    /// The step: an object of scalar members with distinct keys.
    bool step(nlohmann::json& out) {
        if (!take('{')) return false;
        out = nlohmann::json::object();
        if (take('}')) return true;
        do {
            std::string_view key;
            nlohmann::json value;
            if (!string(key) || !take(':') || !scalar(value)) return false;
            if (!out.emplace(std::string(key), std::move(value)).second) return false;
        } while (take(','));
        return take('}');
    }

  private:
    const char* at_;
    const char* end_;
};

}  // namespace

std::optional<ClientMessage> read_step_frame(std::string_view text) {
    Cursor in(text);
    if (!in.take('{')) return std::nullopt;
    bool has_type = false, has_step = false, has_ref = false;
    MatchStep body;
    Ref ref;
    do {
        std::string_view key;
        if (!in.string(key) || !in.take(':')) return std::nullopt;
        if (key == "type") {
            std::string_view type;
            if (has_type || !in.string(type) || type != "match.step") return std::nullopt;
            has_type = true;
        } else if (key == "match") {
            std::string_view match;
            if (!body.match.empty() || !in.string(match) || match.empty() ||
                match.size() > max_id_length)
                return std::nullopt;
            body.match = std::string(match);
        } else if (key == "step") {
            if (has_step || !in.step(body.step)) return std::nullopt;
            has_step = true;
        } else if (key == "ref") {
            if (has_ref) return std::nullopt;
            has_ref = true;
            if (in.peek() == '"') {
                std::string_view r;
                if (!in.string(r) || r.size() > max_ref_length) return std::nullopt;
                ref = std::string(r);
            } else {
                nlohmann::json n;
                if (!in.integer(n)) return std::nullopt;
                ref = std::move(n);
            }
        } else {
            return std::nullopt;
        }
    } while (in.take(','));
    if (!in.take('}') || !has_type || body.match.empty() || !has_step) return std::nullopt;
    in.skip_space();
    if (!in.at_end()) return std::nullopt;
    return ClientMessage{ClientBody{std::move(body)}, std::move(ref)};
}

}  // namespace protocol
