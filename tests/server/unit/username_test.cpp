// Account usernames and passwords (server/accounts/username.hpp, server/accounts/password.hpp): what may be a
// username and the key it is compared by; the Argon2id hash, its verification and the password
// rules.

#include <catch2/catch_test_macros.hpp>
#include <string>

#include "server/accounts/password.hpp"
#include "server/accounts/username.hpp"

using server::read_username;
using server::Username;

namespace {

bool username_ok(const std::string& text) {
    return std::holds_alternative<Username>(read_username(text));
}

}  // namespace

TEST_CASE("usernames: 3-24 printable characters, compared without ASCII case", "[accounts]") {
    auto ann = read_username("Ann_the Builder");
    REQUIRE(std::holds_alternative<Username>(ann));
    CHECK(std::get<Username>(ann).shown == "Ann_the Builder");
    CHECK(std::get<Username>(ann).key == "ann_the builder");
    CHECK(std::get<Username>(read_username("ANN_THE BUILDER")).key == "ann_the builder");

    CHECK(username_ok("abc"));
    CHECK(username_ok(std::string(24, 'x')));
    CHECK_FALSE(username_ok("ab"));
    CHECK_FALSE(username_ok(std::string(25, 'x')));
    CHECK_FALSE(username_ok(""));
    // Characters, not bytes: 24 two-byte letters pass, 3 of them are long enough.
    std::string accents;
    for (int i = 0; i < 24; ++i) accents += "\xc3\xa9";  // é
    CHECK(username_ok(accents));
    CHECK(username_ok("\xc3\xa9\xc3\xa9\xc3\xa9"));
    CHECK(username_ok("\xce\x91\xce\xb8\xce\xb7\xce\xbd\xce\xac"));  // Αθηνά
    CHECK_FALSE(username_ok(accents + "x"));
}

TEST_CASE("usernames: no control, bidirectional, invisible or odd space characters", "[accounts]") {
    for (const char* bad : {
             "ann\tbob",              // control
             "ann\x7f",               // DEL
             "ann\xc2\x85",           // C1 (NEL)
             "ann\xe2\x80\xae" "bob", // U+202E right-to-left override
             "ann\xe2\x81\xa6",       // U+2066 isolate
             "ann\xe2\x80\x8f",       // U+200F right-to-left mark
             "ann\xe2\x80\x8b",       // U+200B zero width space
             "ann\xe2\x80\x8d",       // U+200D zero width joiner
             "ann\xef\xbb\xbf",       // U+FEFF
             "ann\xc2\xad",           // soft hyphen
             "ann\xc2\xa0" "bob",     // no-break space
             "ann\xe3\x80\x80" "bob", // ideographic space
             " ann", "ann ", "ann  bob",
             "ann\xff",               // not UTF-8
             "ann\xc0\xaf",           // overlong
             "ann\xed\xa0\x80",       // a surrogate
         }) {
        INFO(bad);
        CHECK_FALSE(username_ok(bad));
    }
    CHECK(username_ok("ann bob"));
}

TEST_CASE("passwords: Argon2id hashes that verify only the same password", "[accounts]") {
    CHECK(server::password_problem("seven77").has_value());
    CHECK_FALSE(server::password_problem("eight888").has_value());
    CHECK(server::password_problem(std::string(129, 'p')).has_value());
    CHECK(server::password_problem("tab\tinside").has_value());
    CHECK_FALSE(server::password_problem("sp\xc3\xa9" "cial chars!").has_value());

    const auto hash = server::hash_password("correct horse");
    REQUIRE(hash);
    CHECK(hash->rfind("$argon2id$", 0) == 0);
    CHECK(hash->find("correct horse") == std::string::npos);
    CHECK(server::verify_password(*hash, "correct horse"));
    CHECK_FALSE(server::verify_password(*hash, "correct horsE"));
    CHECK_FALSE(server::verify_password(*hash, ""));
    CHECK_FALSE(server::verify_password("not a hash", "correct horse"));
    // Salted: the same password hashes differently each time.
    CHECK(server::hash_password("correct horse") != hash);
}
