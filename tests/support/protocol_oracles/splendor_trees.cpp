// Splendor's cards, nobles and token counts as trees, read back from the text writers the
// server uses (protocol/splendor/json.hpp): for tests that build or compare documents.
// Test-only.

#include <string>

#include "protocol/json_text.hpp"
#include "protocol/splendor/json.hpp"
#include "tests/support/protocol_oracles/oracles.hpp"

namespace protocol {

using nlohmann::json;

namespace {

template <class Write>
json tree_of(Write write) {
    std::string text;
    JsonText out(text);
    write(out);
    return json::parse(text);
}

}  // namespace

json card_json(int id) {
    return tree_of([&](JsonText& out) { write_card(out, id); });
}

json noble_json(int id) {
    return tree_of([&](JsonText& out) { write_noble(out, id); });
}

json tokens_json(const splendor::Tokens& tokens) {
    return tree_of([&](JsonText& out) { write_tokens(out, tokens); });
}

json colours_json(const splendor::Colours& colours) {
    return tree_of([&](JsonText& out) { write_colours(out, colours); });
}

}  // namespace protocol
