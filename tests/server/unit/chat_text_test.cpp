// A chat line's text (server/text/chat_text.hpp; docs/protocol.md, "Chat"): trimmed, 1-280
// characters, one line, something visible.

#include <catch2/catch_test_macros.hpp>
#include <string>

#include "server/text/chat_text.hpp"

namespace {

bool chat_refused(const std::string& text) {
    return std::holds_alternative<utf8::ChatProblem>(utf8::chat_line(text));
}

std::string chat_kept(const std::string& text) {
    auto line = utf8::chat_line(text);
    REQUIRE(std::holds_alternative<std::string>(line));
    return std::get<std::string>(line);
}

}  // namespace

TEST_CASE("a chat line is trimmed and keeps what it says", "[chat][unit]") {
    CHECK(chat_kept("  gg  ") == "gg");
    CHECK(chat_kept("<b>x</b>") == "<b>x</b>");
    CHECK(chat_kept("a  b") == "a  b");
    // An emoji sequence joined by zero-width joiners and a variation selector stays whole.
    const std::string family = "\xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x91\xa9\xe2\x80\x8d\xf0\x9f\x91\xa7";
    CHECK(chat_kept(family) == family);
    CHECK(chat_kept("\xe2\x9d\xa4\xef\xb8\x8f") == "\xe2\x9d\xa4\xef\xb8\x8f");
}

TEST_CASE("a chat line counts characters, not bytes", "[chat][unit]") {
    CHECK(chat_kept(std::string(280, 'a')).size() == 280);
    CHECK(chat_refused(std::string(281, 'a')));
    std::string accents;
    for (int i = 0; i < 280; ++i) accents += "\xc3\xa9";
    CHECK(chat_kept(accents).size() == 560);
    CHECK(chat_refused(accents + "\xc3\xa9"));
    // Spaces around do not count.
    CHECK(chat_kept("   " + std::string(280, 'a') + "   ").size() == 280);
}

TEST_CASE("a chat line refuses empty, invisible, multi-line and broken text", "[chat][unit]") {
    CHECK(chat_refused(""));
    CHECK(chat_refused("     "));
    CHECK(chat_refused("\xe2\x80\x8b"));        // a zero-width space alone
    CHECK(chat_refused(" \xe2\x80\x8f  "));     // a right-to-left mark and spaces
    CHECK(chat_refused("two\nlines"));
    CHECK(chat_refused("tab\there"));
    CHECK(chat_refused("bell\x07"));
    CHECK(chat_refused("c1 \xc2\x85"));         // NEL, a C1 control
    CHECK(chat_refused("bad \xff utf-8"));
}
