// UTF-8 and the characters names refuse (server/text/utf8.hpp): decoding, the sequences that are
// not UTF-8, and every code point of the one invisible list walked through both name checks,
// usernames (server/accounts/username.hpp) and display names (server/accounts/player_name.hpp).

#include <catch2/catch_test_macros.hpp>
#include <cstdint>
#include <string>
#include <variant>

#include "server/accounts/player_name.hpp"
#include "server/accounts/username.hpp"
#include "server/text/utf8.hpp"

// Everything of this file in a namespace of its own: server_tests is a unity build
// (CMakeLists.txt), and other sources of its batch have helpers of the same names.
namespace utf8_test {

namespace {

// `cp` as UTF-8 (any value up to 0x1FFFFF, surrogates included: tests need invalid ones too).
std::string encode(char32_t cp) {
    std::string out;
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    }
    return out;
}

bool username_ok(const std::string& text) {
    return std::holds_alternative<server::Username>(server::read_username(text));
}

bool display_name_ok(const std::string& text) {
    return !server::name_problem(text).has_value();
}

}  // namespace

TEST_CASE("utf8: every code point decodes from its shortest form, and only there", "[utf8]") {
    for (char32_t cp = 0; cp <= 0x10FFFF; ++cp) {
        const std::string bytes = encode(cp);
        std::size_t at = 0;
        const auto decoded = utf8::next_code_point(bytes, at);
        if (cp >= 0xD800 && cp <= 0xDFFF) {
            REQUIRE_FALSE(decoded);  // surrogates are not UTF-8
            REQUIRE(at == 0);
            continue;
        }
        REQUIRE(decoded == cp);
        REQUIRE(at == bytes.size());
    }
}

TEST_CASE("utf8: what is not UTF-8", "[utf8]") {
    for (const char* bad : {
             "\x80",                  // a continuation byte alone
             "\xBF",
             "\xC3",                  // cut short: 2 bytes
             "\xE2\x82",              // cut short: 3 bytes
             "\xF0\x9F\x98",          // cut short: 4 bytes
             "\xC3" "a",              // a lead byte, then no continuation
             "\xE2\x28\xA1",          // a bad second byte
             "\xC0\xAF",              // overlong '/'
             "\xC1\xBF",              // overlong U+007F
             "\xE0\x80\xAF",          // overlong '/', 3 bytes
             "\xE0\x9F\xBF",          // overlong U+07FF
             "\xF0\x80\x80\xAF",      // overlong '/', 4 bytes
             "\xF0\x8F\xBF\xBF",      // overlong U+FFFF
             "\xED\xA0\x80",          // U+D800, a surrogate
             "\xED\xBF\xBF",          // U+DFFF
             "\xF4\x90\x80\x80",      // U+110000, past Unicode
             "\xF7\xBF\xBF\xBF",      // U+1FFFFF
             "\xF8\x88\x80\x80\x80",  // a 5-byte form
             "\xFE", "\xFF",
         }) {
        INFO(bad);
        CHECK_FALSE(utf8::valid(bad));
        CHECK_FALSE(utf8::valid(std::string("ok") + bad));
        CHECK_FALSE(username_ok(std::string("ann") + bad));
        CHECK_FALSE(display_name_ok(std::string("ann") + bad));
    }
    for (const char* good : {"", "a", "\xC2\x80", "\xDF\xBF", "\xE0\xA0\x80", "\xEF\xBF\xBF",
                             "\xF0\x90\x80\x80", "\xF4\x8F\xBF\xBF", "Zo\xC3\xAB \xF0\x9F\x98\x80"}) {
        INFO(good);
        CHECK(utf8::valid(good));
    }
    // The decoder stops where the bad byte is, leaving the position on the character it refused.
    const std::string text = "a\xC3\xA9\xC0\xAF";
    std::size_t at = 0;
    CHECK(utf8::next_code_point(text, at) == U'a');
    CHECK(utf8::next_code_point(text, at) == U'\u00E9');
    CHECK_FALSE(utf8::next_code_point(text, at));
    CHECK(at == 3);
}

TEST_CASE("utf8: controls are C0, DEL and C1", "[utf8]") {
    for (char32_t cp = 0; cp < 0x110000; ++cp)
        REQUIRE(utf8::is_control(cp) == (cp < 0x20 || (cp >= 0x7F && cp <= 0x9F)));
}

TEST_CASE("names: usernames and display names refuse every invisible character alike", "[utf8]") {
    std::size_t walked = 0;
    for (const auto& range : utf8::invisible_ranges()) {
        for (char32_t cp = range.first; cp <= range.last; ++cp) {
            INFO(range.what << ": U+" << std::hex << static_cast<std::uint32_t>(cp));
            REQUIRE(utf8::is_invisible(cp));
            const std::string ch = encode(cp);
            // Between letters, alone after letters and first: each check refuses it anywhere.
            REQUIRE_FALSE(username_ok("ann" + ch + "bob"));
            REQUIRE_FALSE(username_ok("ann" + ch));
            REQUIRE_FALSE(username_ok(ch + "ann"));
            REQUIRE_FALSE(display_name_ok("ann" + ch + "bob"));
            REQUIRE_FALSE(display_name_ok("ann" + ch));
            REQUIRE_FALSE(display_name_ok(ch));
            ++walked;
        }
    }
    // The drift this list ended: usernames refused these and display names took them.
    for (char32_t cp : {0x00ADu, 0x034Fu, 0x115Fu, 0x1160u, 0x17B4u, 0x17B5u, 0x3164u, 0xFFA0u})
        CHECK(utf8::is_invisible(cp));
    CHECK(walked > 6400 + 0x20000);  // the private use areas included

    // Their neighbours are letters, marks, punctuation or symbols that both checks take.
    for (char32_t cp : {0x00ACu, 0x00AEu, 0x034Eu, 0x0350u, 0x061Bu, 0x115Eu, 0x1161u, 0x17B3u,
                        0x17B6u, 0x180Du, 0x2027u, 0x2030u, 0x205Eu, 0x2070u, 0x3163u, 0x3165u,
                        0xF900u, 0xFDFFu, 0xFE10u, 0xFEFEu, 0xFF9Fu, 0xFFA1u, 0xFFEFu, 0xFFFCu,
                        0xE1000u, 0xEFFFDu}) {
        INFO("U+" << std::hex << static_cast<std::uint32_t>(cp));
        CHECK_FALSE(utf8::is_invisible(cp));
        CHECK(display_name_ok("ann" + encode(cp) + "bob"));
        CHECK(username_ok("ann" + encode(cp) + "bob"));
    }
}

TEST_CASE("utf8: characters are counted as code points, not bytes", "[utf8]") {
    CHECK(utf8::code_points("") == 0);
    CHECK(utf8::code_points("ann") == 3);
    CHECK(utf8::code_points("Zo\xC3\xAB") == 3);
    CHECK(utf8::code_points("\xE2\x82\xAC\xF0\x9F\x98\x80") == 2);  // U+20AC, U+1F600
    CHECK_FALSE(utf8::is_continuation(0x7F));
    CHECK(utf8::is_continuation(0x80));
    CHECK(utf8::is_continuation(0xBF));
    CHECK_FALSE(utf8::is_continuation(0xC0));
}

}  // namespace utf8_test
