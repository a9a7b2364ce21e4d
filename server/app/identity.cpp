#include "server/app/identity.hpp"

#include "server/app/ids.hpp"

namespace server {

Guest Identity::fresh(std::string_view name) const {
    Guest guest{random_id("p_"), std::string(name), secret_token()};
    state_.read([&](const State& s) {
        while (s.by_token.count(guest.token) || s.names.count(guest.id)) {
            guest.id = random_id("p_");
            guest.token = secret_token();
        }
    });
    return guest;
}

void Identity::add(const Guest& guest, bool rename) {
    state_.with([&](State& s) {
        s.by_token.emplace(guest.token, guest);
        if (rename)
            s.names[guest.id] = guest.name;
        else
            s.names.emplace(guest.id, guest.name);
    });
}

std::optional<Guest> Identity::find(const std::string& token) const {
    return state_.read([&](const State& s) -> std::optional<Guest> {
        auto it = s.by_token.find(token);
        if (it == s.by_token.end()) return std::nullopt;
        return it->second;
    });
}

void Identity::forget_token(std::string_view token) {
    state_.with([&](State& s) { s.by_token.erase(std::string(token)); });
}

void Identity::forget_tokens_of(std::string_view player_id, std::string_view keep) {
    state_.with([&](State& s) {
        std::erase_if(s.by_token, [&](const auto& entry) {
            return entry.second.id == player_id && entry.first != keep;
        });
    });
}

void Identity::forget_tokens_where(std::string_view player_id,
                                   const std::function<bool(std::string_view token)>& revoked) {
    state_.with([&](State& s) {
        std::erase_if(s.by_token, [&](const auto& entry) {
            return entry.second.id == player_id && revoked(entry.first);
        });
    });
}

Member Identity::member(const std::string& player_id) const {
    return state_.read([&](const State& s) {
        auto it = s.names.find(player_id);
        return Member{player_id, it == s.names.end() ? player_id : it->second};
    });
}

void Identity::set_name(const std::string& player_id, const std::string& name) {
    state_.with([&](State& s) { s.names[player_id] = name; });
}

void Identity::learn_name(const std::string& player_id, const std::string& name) {
    state_.with([&](State& s) { s.names.emplace(player_id, name); });
}

}  // namespace server
