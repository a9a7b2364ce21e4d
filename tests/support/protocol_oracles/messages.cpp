// The match messages built from trees: what the server writes as text (server/match/
// match_views.cpp) read back as documents for tests that compare or replay them. Test-only.

#include "tests/support/protocol_oracles/oracles.hpp"

namespace protocol {

using nlohmann::json;

std::string snapshot_message(std::string_view match, std::uint64_t version_number,
                             const json& view) {
    return json{
        {"type", "match.snapshot"}, {"match", match}, {"version", version_number}, {"view", view}}
        .dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string patch_message(std::string_view match, std::uint64_t version_number, const json& patch) {
    return json{
        {"type", "match.patch"}, {"match", match}, {"version", version_number}, {"patch", patch}}
        .dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace protocol
