#include "server/accounts/token_holder.hpp"

#include <utility>

namespace server {

AccountError refusal(AccountError::Kind kind, std::string message) {
    return AccountError{kind, std::move(message), 0};
}

std::variant<Guest, AccountError> token_holder(const Hub& hub, const std::string& token) {
    auto player = hub.identify(token);
    if (auto* why = std::get_if<IdentityError>(&player))
        return *why == IdentityError::Unavailable
                   ? refusal(AccountError::Kind::Unavailable, "temporarily unavailable; try again")
                   : refusal(AccountError::Kind::Unauthorized, "unknown token");
    return std::get<Guest>(std::move(player));
}

}  // namespace server
