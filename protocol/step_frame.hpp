#pragma once
// The one frame a match's players send over and over, `match.step`, read without building a
// JSON tree of the whole message: the tree parser (nlohmann) took about a seventh of the
// server's own instructions per step (docs/benchmarks.md, "A match.step frame read without a
// tree").
//
// It reads only the plain shape every client sends, and says "not mine" for anything else, so
// that the tree parser, which knows every error message, judges the rest: the fast reader can
// only agree with it or step aside (tests/protocol/step_frame_test.cpp compares the two on
// generated, mutated and hand-made frames).

#include <optional>
#include <string_view>

#include "protocol/messages.hpp"

namespace protocol {

/// The match.step message `text` is, when it has the plain shape: one JSON object (JSON
/// whitespace around tokens allowed) with the members "type" (exactly "match.step"), "match"
/// (1 to 64 characters), "step" (an object whose members are strings, integers, true, false or
/// null) and optionally "ref" (at most 64 characters, or an integer), each once, in any order;
/// every string printable ASCII without escapes, every integer at most 18 digits without a
/// fraction or exponent. Anything else, valid or not, gives nullopt: parse_client_message then
/// reads it through the tree, whose answer for a frame of the plain shape is the same message.
std::optional<ClientMessage> read_step_frame(std::string_view text);

}  // namespace protocol
