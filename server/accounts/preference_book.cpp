#include "server/accounts/preference_book.hpp"

#include <algorithm>
#include <utility>

#include <boost/asio/post.hpp>

#include "server/accounts/token_holder.hpp"
#include "server/app/hub.hpp"
#include "server/log/log.hpp"
#include "server/store/preference_store.hpp"
#include "server/time/epoch_ms.hpp"

namespace server {
namespace {

using Kind = AccountError::Kind;

AccountError preference_store_failed(const store::StoreError& e, std::string_view what) {
    spdlog::warn("event=preference_store_failed op={} error=\"{}\"", what, e.message);
    return refusal(Kind::Unavailable, "temporarily unavailable; try again");
}

Preferences from_store(store::StoredPreferences stored) {
    return Preferences{std::move(stored.language), stored.chat_off, std::move(stored.muted)};
}

}  // namespace

PreferenceBook::PreferenceBook(std::string database_url, const Hub& hub, Limits limits)
    : hub_(hub),
      limits_(limits),
      store_(database_url.empty() ? nullptr
                                  : std::make_unique<store::PreferenceStore>(
                                        std::move(database_url), limits.threads)),
      pool_(store_ ? limits.threads : 1) {}

PreferenceBook::~PreferenceBook() {
    pool_.join();
}

void PreferenceBook::submit(Reply reply, std::function<PreferenceResult()> job) {
    if (!store_) return reply(job());  // memory only: nothing blocks
    if (pending_.fetch_add(1) >= limits_.max_pending) {
        pending_.fetch_sub(1);
        return reply(refusal(Kind::Busy, "too many preference requests; try again"));
    }
    boost::asio::post(pool_, [this, reply = std::move(reply), job = std::move(job)] {
        PreferenceResult result = job();
        pending_.fetch_sub(1);
        reply(std::move(result));
    });
}

void PreferenceBook::get(std::string token, Reply reply) {
    if (token.empty()) return reply(refusal(Kind::Unauthorized, "no token"));
    submit(std::move(reply), [this, token = std::move(token)] { return do_get(token); });
}

void PreferenceBook::put(std::string token, Preferences preferences, Reply reply) {
    if (token.empty()) return reply(refusal(Kind::Unauthorized, "no token"));
    submit(std::move(reply),
           [this, token = std::move(token), preferences = std::move(preferences)]() mutable {
               return do_put(token, std::move(preferences));
           });
}

PreferenceResult PreferenceBook::do_get(const std::string& token) {
    auto player = token_holder(hub_, token);
    if (auto* why = std::get_if<AccountError>(&player)) return *why;
    const std::string& id = std::get<Guest>(player).id;
    if (!store_)
        return memory_.with([&](Memory& m) {
            auto it = m.by_player.find(id);
            return it == m.by_player.end() ? Preferences{} : it->second.preferences;
        });
    auto stored = store_->of_player(id);
    if (!stored) return preference_store_failed(stored.error(), "of_player");
    return *stored ? from_store(std::move(**stored)) : Preferences{};
}

PreferenceResult PreferenceBook::do_put(const std::string& token, Preferences preferences) {
    auto player = token_holder(hub_, token);
    if (auto* why = std::get_if<AccountError>(&player)) return *why;
    const std::string& id = std::get<Guest>(player).id;
    if (!store_) {
        memory_.with([&](Memory& m) {
            if (!m.by_player.count(id) && m.by_player.size() >= limits_.memory_players &&
                !m.by_player.empty()) {
                // Full: the player written longest ago is forgotten (a scan, only when full).
                auto oldest = std::min_element(
                    m.by_player.begin(), m.by_player.end(), [](const auto& a, const auto& b) {
                        return a.second.written < b.second.written;
                    });
                m.by_player.erase(oldest);
            }
            m.by_player[id] = Remembered{preferences, ++m.writes};
        });
        return preferences;
    }
    auto put = store_->put(
        id, store::StoredPreferences{preferences.language, preferences.chat_off, preferences.muted},
        now_epoch_ms());
    if (!put) return preference_store_failed(put.error(), "put");
    return preferences;
}

}  // namespace server
