#pragma once
// Test oracles of the protocol: tree writers and a JSON diff that the server's text writers
// are proven against, and message builders from trees for tests. Built as the test-only
// library protocol_test_oracles (CMakeLists.txt), so libprotocol holds only what the server
// runs.

#include <cstdint>
#include <string>
#include <string_view>

#include "engine/santorini/state.hpp"
#include "engine/santorini/step.hpp"
#include "engine/splendor/gems.hpp"
#include "protocol/json/basic_json.hpp"

namespace protocol {

/// The RFC 6902 patch that turns `from` into `to`: the same operations as
/// nlohmann::json::diff, found in one walk of the two documents (json_diff.cpp).
nlohmann::json diff(const nlohmann::json& from, const nlohmann::json& to);

/// {"type":"match.snapshot","match":...,"version":...,"view":{...}}
std::string snapshot_message(std::string_view match, std::uint64_t version, const nlohmann::json& view);
/// {"type":"match.patch","match":...,"version":...,"patch":[...]} (RFC 6902)
std::string patch_message(std::string_view match, std::uint64_t version, const nlohmann::json& patch);

/// The `state` object of a Santorini match view, made from a state already projected for its
/// viewer (santorini::view_for). `legal`, if given, is the decider's list of legal steps and
/// is included as `legal` (only in the view of the seat that must decide).
nlohmann::json state_json(const santorini::State& view, const santorini::StepList* legal);
/// The match status a Santorini state is in: "draft", "placement", "playing" or "finished".
std::string status_name(const santorini::State& state);

/// Splendor's documents as trees: a card {"id":12,"level":1,...}, a noble, token counts (all
/// six), colour counts (all five).
nlohmann::json card_json(int id);
nlohmann::json noble_json(int id);
nlohmann::json tokens_json(const splendor::Tokens& tokens);
nlohmann::json colours_json(const splendor::Colours& colours);

}  // namespace protocol
