#pragma once
// The API tests fetch the replays and views of the private matches they played: like any
// client that was given the invite code, they add it (docs/api.md, "Private matches").

#include <string>

#include "tests/server/support/e2e_support.hpp"

namespace api_test {

/// `target` with `code=<invite code>` added when it names the replay or a view of a private
/// match that e2e::start_private_match started; otherwise `target` unchanged.
inline std::string with_invite_code(const std::string& target) {
    const std::string prefix = "/api/matches/";
    if (target.rfind(prefix, 0) != 0) return target;
    const std::size_t end = target.find_first_of("/?", prefix.size());
    if (end == std::string::npos || target[end] != '/') return target;
    const std::string code = e2e::invite_codes().of(target.substr(prefix.size(), end - prefix.size()));
    if (code.empty()) return target;
    return target + (target.find('?') == std::string::npos ? "?code=" : "&code=") + code;
}

}  // namespace api_test
