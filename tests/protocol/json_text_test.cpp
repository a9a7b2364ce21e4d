// JsonText and PatchText: the text they write parses back to the document meant.

#include "protocol/json/basic_json.hpp"
#include "protocol/json_text.hpp"

#include <catch2/catch_test_macros.hpp>

using nlohmann::json;

TEST_CASE("JsonText writes nested objects and arrays with commas only between items",
          "[json_text]") {
    std::string out;
    protocol::JsonText w(out);
    w.begin_object().key("a").number(-12).key("b").begin_array().boolean(true).null().string("x");
    w.begin_object().end_object().begin_array().end_array().end_array();
    w.key("c").raw("{\"k\":[1,2]}").key("d").begin_object().key("e").string("").end_object();
    w.end_object();
    CHECK(json::parse(out) == json{{"a", -12},
                                   {"b", {true, nullptr, "x", json::object(), json::array()}},
                                   {"c", {{"k", {1, 2}}}},
                                   {"d", {{"e", ""}}}});
}

TEST_CASE("JsonText escapes what RFC 8259 requires", "[json_text]") {
    const std::string nasty = std::string("q\"b\\n\n\r\t\b\f") + '\x01' + '\x1f' + "é";
    std::string out;
    protocol::JsonText(out).begin_array().string(nasty).end_array();
    CHECK(json::parse(out)[0].get<std::string>() == nasty);
    CHECK(out.find('\n') == std::string::npos);
}

TEST_CASE("JsonText writes every ASCII character alone, first, last and amid plain text", "[json_text]") {
    // Strings with nothing to escape are written whole, the others character by character:
    // both ways must give the same document.
    for (int c = 0; c < 128; ++c) {
        const std::string ch(1, static_cast<char>(c));
        for (const std::string& s : {ch, ch + "ab", "ab" + ch, "a" + ch + "b" + ch + "c", std::string()}) {
            std::string out;
            protocol::JsonText(out).begin_object().key(s).string(s).end_object();
            const json back = json::parse(out);
            REQUIRE(back.size() == 1);
            CHECK(back.begin().key() == s);
            CHECK(back.begin().value() == s);
        }
    }
}

TEST_CASE("PatchText writes RFC 6902 operations that apply", "[json_text]") {
    json doc = {{"a", 1}, {"list", {1, 2}}, {"gone", true}};
    std::string out;
    protocol::PatchText patch(out);
    patch.replace("/a").string("two");
    patch.add("/list/-").begin_object().key("n").number(3).end_object();
    patch.remove("/gone");
    patch.add("/new").begin_array().number(7).end_array();
    patch.finish();
    CHECK(patch.size() == 4);
    CHECK(doc.patch(json::parse(out)) ==
          json{{"a", "two"}, {"list", {1, 2, {{"n", 3}}}}, {"new", {7}}});

    std::string empty;
    protocol::PatchText none(empty);
    none.finish();
    CHECK(empty == "[]");
}

TEST_CASE("PatchText shares operations written once between patches", "[json_text]") {
    std::string shared;
    protocol::PatchText common(shared);
    common.replace("/a").number(2);
    common.replace("/b").number(3);
    common.finish();

    std::string out;
    protocol::PatchText mine(out);
    mine.append(protocol::PatchText::body(shared), common.size());
    mine.add("/c").boolean(true);
    mine.finish();
    CHECK(mine.size() == 3);
    json doc = {{"a", 1}, {"b", 1}};
    CHECK(doc.patch(json::parse(out)) == json{{"a", 2}, {"b", 3}, {"c", true}});

    std::string only;
    protocol::PatchText first(only);
    first.append(protocol::PatchText::body("[]"), 0);
    first.remove("/a");
    first.finish();
    CHECK(json::parse(only).size() == 1);
}

TEST_CASE("PatchText writes each operation's head as one text, as the members would be",
          "[json_text]") {
    // The heads are written whole (PatchText::op): the text must be exactly what writing the
    // members one by one gave, commas and nesting included.
    std::string out;
    protocol::PatchText patch(out);
    patch.replace("/a\"b").begin_object().key("x").number(1).key("y").begin_array().end_array()
        .end_object();
    patch.remove("/gone");
    patch.remove("/again");
    patch.add("/list/-").string("s");
    patch.finish();
    CHECK(out ==
          R"([{"op":"replace","path":"/a\"b","value":{"x":1,"y":[]}},)"
          R"({"op":"remove","path":"/gone"},{"op":"remove","path":"/again"},)"
          R"({"op":"add","path":"/list/-","value":"s"}])");
}
