#include "protocol/json_text.hpp"

#include <array>
#include <cassert>
#include <charconv>
#include <cstring>

namespace protocol {

void JsonText::before_value() {
    if (after_key_) {
        after_key_ = false;
        return;
    }
    if (depth_ > 0) {
        const std::uint64_t bit = std::uint64_t{1} << (depth_ - 1);
        if (has_items_ & bit) out_.push_back(',');
        has_items_ |= bit;
    }
}

JsonText& JsonText::open(char c) {
    before_value();
    out_.push_back(c);
    assert(depth_ < 64);
    ++depth_;
    has_items_ &= ~(std::uint64_t{1} << (depth_ - 1));
    return *this;
}

void JsonText::opened_after_key() {
    assert(depth_ < 64);
    ++depth_;
    has_items_ |= std::uint64_t{1} << (depth_ - 1);
    after_key_ = true;
}

JsonText& JsonText::close(char c) {
    assert(depth_ > 0);
    --depth_;
    out_.push_back(c);
    return *this;
}

JsonText& JsonText::key(std::string_view k) {
    before_value();
    quoted(k);
    out_.push_back(':');
    after_key_ = true;
    return *this;
}

JsonText& JsonText::string(std::string_view s) {
    before_value();
    quoted(s);
    return *this;
}

namespace {

// The bytes a JSON string must escape (RFC 8259): the controls, the quote and the backslash.
constexpr std::array<bool, 256> must_escape = [] {
    std::array<bool, 256> table{};
    for (std::size_t c = 0; c < 0x20; ++c) table[c] = true;
    table['"'] = true;
    table['\\'] = true;
    return table;
}();

}  // namespace

void JsonText::quoted(std::string_view s) {
    // Nearly every string written has nothing to escape (keys, pointers, squares, step kinds,
    // names), and a step's patches write hundreds of them: such a string is looked over with a
    // table and appended with its quotes at once (docs/benchmarks.md, "Less CPU per step in
    // closed loop").
    const auto* bytes = reinterpret_cast<const unsigned char*>(s.data());
    std::size_t i = 0;
    while (i < s.size() && !must_escape[bytes[i]]) ++i;
    if (i == s.size()) {
        const std::size_t at = out_.size();
        out_.append(s.size() + 2, '"');
        if (!s.empty()) std::memcpy(out_.data() + at + 1, s.data(), s.size());
        return;
    }
    out_.push_back('"');
    static constexpr char hex[] = "0123456789abcdef";
    std::size_t plain = 0;  // start of the run of characters that need no escape
    for (; i < s.size(); ++i) {
        const unsigned char c = bytes[i];
        if (!must_escape[c]) continue;
        out_.append(s.data() + plain, i - plain);
        plain = i + 1;
        switch (c) {
            case '"':
                out_.append("\\\"");
                break;
            case '\\':
                out_.append("\\\\");
                break;
            case '\n':
                out_.append("\\n");
                break;
            case '\r':
                out_.append("\\r");
                break;
            case '\t':
                out_.append("\\t");
                break;
            case '\b':
                out_.append("\\b");
                break;
            case '\f':
                out_.append("\\f");
                break;
            default: {
                const char esc[] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
                out_.append(esc, sizeof esc);
            }
        }
    }
    out_.append(s.data() + plain, s.size() - plain);
    out_.push_back('"');
}

JsonText& JsonText::number(std::int64_t n) {
    before_value();
    char buf[24];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, n);
    (void)ec;
    out_.append(buf, end);
    return *this;
}

JsonText& JsonText::boolean(bool b) {
    before_value();
    out_.append(b ? "true" : "false");
    return *this;
}

JsonText& JsonText::null() {
    before_value();
    out_.append("null");
    return *this;
}

JsonText& JsonText::raw(std::string_view json) {
    before_value();
    out_.append(json);
    return *this;
}

PatchText::PatchText(std::string& out) : json_(out) {
    json_.begin_array();
}

void PatchText::end_op() {
    if (open_op_) json_.end_object();
    open_op_ = false;
}

JsonText& PatchText::op(std::string_view head, std::string_view path) {
    end_op();
    json_.before_value();
    json_.out_.append(head);
    json_.quoted(path);
    json_.out_.append(",\"value\":");
    json_.opened_after_key();
    open_op_ = true;
    ++ops_;
    return json_;
}

void PatchText::remove(std::string_view path) {
    end_op();
    json_.before_value();
    json_.out_.append(R"({"op":"remove","path":)");
    json_.quoted(path);
    json_.out_.push_back('}');
    ++ops_;
}

void PatchText::append(std::string_view ops, int count) {
    if (ops.empty()) return;
    end_op();
    json_.raw(ops);
    ops_ += count;
}

std::string_view PatchText::body(std::string_view finished_patch) {
    assert(finished_patch.size() >= 2);
    return finished_patch.substr(1, finished_patch.size() - 2);
}

void PatchText::finish() {
    end_op();
    json_.end_array();
}

}  // namespace protocol
