#include "server/store/preference_store.hpp"

#include "server/store/pg.hpp"

namespace store {

using Kind = StoreError::Kind;

namespace {

// The muted ids travel as one comma-separated text (string_to_array / array_to_string): ids
// never hold a comma, and libpqxx 6 has no array parameters.
std::string joined(const std::vector<std::string>& ids) {
    std::string out;
    for (const std::string& id : ids) {
        if (!out.empty()) out += ',';
        out += id;
    }
    return out;
}

std::vector<std::string> split(const std::string& text) {
    std::vector<std::string> out;
    std::size_t start = 0;
    while (start < text.size()) {
        const std::size_t comma = text.find(',', start);
        const std::size_t end = comma == std::string::npos ? text.size() : comma;
        if (end > start) out.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return out;
}

}  // namespace

struct PreferenceStore::Impl {
    Impl(std::string url, std::size_t size) : pool(std::move(url), size) {}
    pg::ConnectionPool pool;
};

PreferenceStore::PreferenceStore(std::string url, std::size_t connections)
    : impl_(std::make_unique<Impl>(std::move(url), connections)) {}

PreferenceStore::~PreferenceStore() = default;

Result<std::optional<StoredPreferences>> PreferenceStore::of_player(std::string_view player_id) {
    const std::string id(player_id);
    using Answer = std::optional<StoredPreferences>;
    return pg::run<Answer>(impl_->pool, [&](pqxx::connection& c) -> Result<Answer> {
        pqxx::read_transaction t(c);
        auto r = t.exec_params(
            "SELECT language, chat_off, array_to_string(muted, ',') FROM preferences "
            "WHERE player_id = $1",
            id);
        if (r.empty()) return Answer{};
        StoredPreferences p;
        if (!r[0][0].is_null()) p.language = r[0][0].as<std::string>();
        p.chat_off = r[0][1].as<bool>();
        p.muted = split(r[0][2].as<std::string>());
        return Answer{std::move(p)};
    });
}

Result<Done> PreferenceStore::put(std::string_view player_id, const StoredPreferences& p,
                                  std::int64_t at_ms) {
    for (const std::string& id : p.muted)
        if (id.empty() || id.find(',') != std::string::npos)
            return StoreError{Kind::Invalid, "a muted id is empty or has a comma"};
    const std::string id(player_id), muted = joined(p.muted);
    return pg::run<Done>(impl_->pool, [&](pqxx::connection& c) -> Result<Done> {
        pqxx::work w(c);
        // A NULL parameter is the language left to the browser.
        const char* language = p.language ? p.language->c_str() : nullptr;
        w.exec_params0(
            "INSERT INTO preferences (player_id, language, chat_off, muted, updated_at) "
            "VALUES ($1, $2, $3, string_to_array($4, ','), " +
                pg::ms_to_timestamp("$5") +
                ") ON CONFLICT (player_id) DO UPDATE SET language = EXCLUDED.language, "
                "chat_off = EXCLUDED.chat_off, muted = EXCLUDED.muted, "
                "updated_at = EXCLUDED.updated_at",
            id, language, p.chat_off, muted, at_ms);
        w.commit();
        return Done{};
    });
}

}  // namespace store
