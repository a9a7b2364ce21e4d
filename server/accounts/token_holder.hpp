#pragma once
// What the account requests (accounts.cpp) and the preference requests (preference_book.cpp)
// share: how a refusal is made and who holds a token.

#include <string>
#include <variant>

#include "server/accounts/accounts.hpp"
#include "server/app/hub.hpp"

namespace server {

/// A refusal of `kind` with the message a client reads (no retry time).
AccountError refusal(AccountError::Kind kind, std::string message);

/// The player holding `token`; else Unauthorized (an unknown token) or Unavailable (the
/// database could not say). Blocking: a lookup in the store when memory does not know the token,
/// so it runs on the requests' own pool, never on an io thread.
std::variant<Guest, AccountError> token_holder(const Hub& hub, const std::string& token);

}  // namespace server
