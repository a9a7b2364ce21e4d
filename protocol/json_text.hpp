#pragma once
// JSON written straight as text, without building a tree: the views and patches of a match are
// written once per step for every viewer, so they go to a string with no allocation per node.
//
// JsonText keeps the commas: values, keys and containers are appended in document order and a
// comma goes before every member or element but the first. PatchText writes an RFC 6902 patch
// as text, one operation at a time; the caller writes each operation's value through the
// JsonText it gets back.

#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>

namespace protocol {

/// Appends JSON text to a string. Nesting is at most 64 levels (asserted); the caller keeps
/// the document well formed (a key before every member, containers closed in order).
class JsonText {
  public:
    /// Appends to `out` (which keeps what it already holds).
    explicit JsonText(std::string& out) : out_(out) {}

    JsonText& begin_object() { return open('{'); }
    JsonText& end_object() { return close('}'); }
    JsonText& begin_array() { return open('['); }
    JsonText& end_array() { return close(']'); }
    /// A member's key inside an object: `"k":` (with the comma before it when needed).
    JsonText& key(std::string_view k);
    /// A string value, escaped as RFC 8259 requires (control characters as \u00XX).
    JsonText& string(std::string_view s);
    JsonText& number(std::int64_t n);
    JsonText& boolean(bool b);
    JsonText& null();
    /// A value that is already JSON text (trusted: written by this program).
    JsonText& raw(std::string_view json);

    /// The string written to.
    std::string& out() { return out_; }

  private:
    // PatchText writes an operation's fixed members as one piece of text (below).
    friend class PatchText;

    JsonText& open(char c);
    JsonText& close(char c);
    void before_value();
    void quoted(std::string_view s);
    /// Opens an object whose members so far were appended as text by the caller and whose
    /// last one is a key: the next value is that member's, and a comma goes before the next.
    void opened_after_key();

    std::string& out_;
    std::uint64_t has_items_ = 0;  ///< bit d: the container at depth d has an item already
    int depth_ = 0;
    bool after_key_ = false;  ///< the next value is a member's value: no comma before it
};

/// An RFC 6902 patch written as text: `[{"op":"replace","path":"/a","value":1},...]`.
class PatchText {
  public:
    /// Starts the patch's array at the end of `out`.
    explicit PatchText(std::string& out);
    /// Starts an `add` at `path` and returns the writer for its value (write exactly one).
    JsonText& add(std::string_view path) { return op(R"({"op":"add","path":)", path); }
    /// Starts a `replace` at `path` and returns the writer for its value (write exactly one).
    JsonText& replace(std::string_view path) { return op(R"({"op":"replace","path":)", path); }
    /// A `remove` of `path`.
    void remove(std::string_view path);
    /// Appends `count` operations already written as text, separated by commas and without
    /// the brackets (what one patch shares with another).
    void append(std::string_view ops, int count);
    /// The operations written so far as text, without the brackets (only after finish()).
    static std::string_view body(std::string_view finished_patch);
    /// Closes the last operation and the array; the patch is complete after this.
    void finish();
    /// Operations written so far.
    int size() const { return ops_; }

  private:
    /// Starts an operation: `head` is its text up to the path's value, e.g.
    /// `{"op":"add","path":`, written whole rather than key by key (a step writes about twenty
    /// operations per viewer: docs/benchmarks.md, "The patch operations' heads as one text").
    JsonText& op(std::string_view head, std::string_view path);
    void end_op();

    JsonText json_;
    int ops_ = 0;
    bool open_op_ = false;
};

/// JSON pointers under a prefix (e.g. "/state"), built in one reused buffer for the patch
/// writers: `at` starts a path below the prefix, `key` and `index` extend it, `mark` / `back`
/// return to a saved parent.
class JsonPointer {
  public:
    explicit JsonPointer(std::string_view prefix) {
        buf_.reserve(prefix.size() + 48);
        buf_.assign(prefix);
        prefix_ = buf_.size();
    }
    JsonPointer& at(std::string_view k) {
        buf_.resize(prefix_);
        return key(k);
    }
    JsonPointer& key(std::string_view k) {
        buf_.push_back('/');
        buf_.append(k);
        return *this;
    }
    JsonPointer& index(int i) {
        char digits[12];
        auto [end, ec] = std::to_chars(digits, digits + sizeof digits, i);
        (void)ec;
        buf_.push_back('/');
        buf_.append(digits, end);
        return *this;
    }
    std::size_t mark() const { return buf_.size(); }
    JsonPointer& back(std::size_t m) {
        buf_.resize(m);
        return *this;
    }
    operator std::string_view() const { return buf_; }

  private:
    std::string buf_;
    std::size_t prefix_ = 0;
};

}  // namespace protocol
