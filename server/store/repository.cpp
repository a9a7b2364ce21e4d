#include "server/store/repository.hpp"

#include <algorithm>
#include <iterator>
#include <limits>
#include <map>

#include "server/store/pg.hpp"
#include "server/store/token_hash.hpp"
#include "server/text/utf8.hpp"

namespace store {

using pg::text_or_empty;

using Kind = StoreError::Kind;

namespace {

const std::string match_columns =
    "id, game, settings::text, seed, status, " + pg::timestamp_to_ms("created_at") + ", " +
    pg::timestamp_to_ms("started_at") + ", " + pg::timestamp_to_ms("finished_at") +
    ", result::text, owner_node, state_hash";

std::int64_t ms_or_zero(const pqxx::field& f) {
    return f.is_null() ? 0 : f.as<std::int64_t>();
}

StoredMatch match_from(const pqxx::row& r) {
    StoredMatch m;
    m.id = r[0].as<std::string>();
    m.game = r[1].as<std::string>();
    m.settings_json = r[2].as<std::string>();
    m.seed = static_cast<std::uint64_t>(r[3].as<std::int64_t>());
    m.status = r[4].as<std::string>();
    m.created_at_ms = ms_or_zero(r[5]);
    m.started_at_ms = ms_or_zero(r[6]);
    m.finished_at_ms = ms_or_zero(r[7]);
    m.result_json = text_or_empty(r[8]);
    m.owner_node = text_or_empty(r[9]);
    m.state_hash = text_or_empty(r[10]);
    return m;
}

Player player_from(const pqxx::row& r) {
    return Player{r[0].as<std::string>(), r[1].as<std::string>(), r[2].as<std::int64_t>()};
}

RatingValue rating_from(const pqxx::row& r, int first) {
    RatingValue v;
    v.rated = true;
    v.rating = r[first].as<double>();
    v.deviation = r[first + 1].as<double>();
    v.volatility = r[first + 2].as<double>();
    v.games = r[first + 3].as<int>();
    v.last_rated_at_ms = ms_or_zero(r[first + 4]);
    return v;
}

const std::string rating_columns =
    "rating, deviation, volatility, games, " + pg::timestamp_to_ms("last_rated_at");

// Fills in the seats, and the steps when asked, of `matches` (in place, two queries).
void add_details(pqxx::transaction_base& t, std::vector<StoredMatch>& matches, bool with_steps) {
    if (matches.empty()) return;
    std::vector<const std::string*> ids;
    std::map<std::string, StoredMatch*> by_id;
    for (auto& m : matches) {
        ids.push_back(&m.id);
        by_id[m.id] = &m;
    }
    const std::string id_array = pg::text_array(ids, false);
    for (const auto& r : t.exec_params(
             "SELECT s.match_id, s.seat, s.player_id, p.display_name, s.power, s.team, "
             "s.rating_before, s.rating_after, h.deviation, "
             "(SELECT prev.deviation FROM rating_history prev WHERE prev.player_id = h.player_id "
             "AND prev.pool = h.pool AND (prev.at, prev.id) < (h.at, h.id) "
             "ORDER BY prev.at DESC, prev.id DESC LIMIT 1) "
             "FROM seats s JOIN players p ON p.id = s.player_id "
             "LEFT JOIN rating_history h ON h.match_id = s.match_id AND h.player_id = s.player_id "
             "WHERE s.match_id = ANY($1::text[]) ORDER BY s.match_id, s.seat",
             id_array)) {
        StoredSeat s;
        s.seat = r[1].as<int>();
        s.player_id = r[2].as<std::string>();
        s.display_name = r[3].as<std::string>();
        s.power = text_or_empty(r[4]);
        if (!r[5].is_null()) s.team = r[5].as<int>();
        if (!r[6].is_null()) s.rating_before = r[6].as<double>();
        if (!r[7].is_null()) s.rating_after = r[7].as<double>();
        if (!r[8].is_null()) s.deviation_after = r[8].as<double>();
        if (!r[9].is_null()) s.deviation_before = r[9].as<double>();
        by_id.at(r[0].as<std::string>())->seats.push_back(std::move(s));
    }
    if (!with_steps) {
        for (const auto& r : t.exec_params(
                 "SELECT match_id, count(*) FROM steps WHERE match_id = ANY($1::text[]) "
                 "GROUP BY match_id",
                 id_array))
            by_id.at(r[0].as<std::string>())->step_count = r[1].as<std::uint32_t>();
        return;
    }
    for (const auto& r : t.exec_params(
             "SELECT match_id, number, player_id, step::text, " + pg::timestamp_to_ms("at") +
                 ", state_hash FROM steps WHERE match_id = ANY($1::text[]) "
                 "ORDER BY match_id, number",
             id_array)) {
        StoredStep s;
        s.number = r[1].as<std::uint32_t>();
        s.player_id = text_or_empty(r[2]);
        s.step_json = r[3].as<std::string>();
        s.at_ms = r[4].as<std::int64_t>();
        s.state_hash = text_or_empty(r[5]);
        by_id.at(r[0].as<std::string>())->steps.push_back(std::move(s));
    }
    for (auto& m : matches) m.step_count = static_cast<std::uint32_t>(m.steps.size());
    for (const auto& r : t.exec_params(
             "SELECT match_id, number, channel, player_id, seat, name, text, " +
                 pg::timestamp_to_ms("at") +
                 " FROM match_chat WHERE match_id = ANY($1::text[]) ORDER BY match_id, number",
             id_array)) {
        server::ChatRecord c;
        c.match_id = r[0].as<std::string>();
        c.number = r[1].as<std::uint64_t>();
        c.channel = r[2].as<std::string>();
        c.player_id = r[3].as<std::string>();
        c.seat = r[4].is_null() ? -1 : r[4].as<int>();
        c.name = r[5].as<std::string>();
        c.text = r[6].as<std::string>();
        c.at_ms = r[7].as<std::int64_t>();
        by_id.at(c.match_id)->chat.push_back(std::move(c));
    }
}

StoreError invalid(std::string message) {
    return {Kind::Invalid, std::move(message)};
}

}  // namespace

struct Repository::Impl {
    // Connecting is bounded (a stopped server must not hold a caller for minutes); statements
    // are not: recovery reads every live match in one, and callers put their own deadline on
    // what they wait for (server/limits/deadline.hpp).
    Impl(std::string url, std::size_t size)
        : pool(pg::with_connect_timeout(url, std::chrono::seconds(2)), size) {}
    pg::ConnectionPool pool;

    // Runs `f(connection)` on the pool (pg::run).
    template <class T, class F>
    Result<T> run(F&& f) {
        return pg::run<T>(pool, std::forward<F>(f));
    }
};

Repository::Repository(std::string url, std::size_t connections)
    : impl_(std::make_unique<Impl>(std::move(url), connections)) {}

Repository::~Repository() = default;

Result<Done> Repository::ping() {
    return impl_->run<Done>([&](pqxx::connection& c) -> Result<Done> {
        pqxx::nontransaction n(c);
        n.exec("SELECT 1");
        return Done{};
    });
}

Result<Player> Repository::create_guest(const NewPlayer& p) {
    if (p.id.empty()) return invalid("a player needs an id");
    // Characters as PostgreSQL's length() counts them in a UTF-8 database (code points), not
    // bytes: 24 emoji are 96 bytes and a fine name.
    const auto characters = utf8::code_points(p.display_name);
    if (characters < 1 || characters > 64) return invalid("a display name has 1 to 64 characters");
    if (p.token.empty()) return invalid("a player needs a token");
    return impl_->run<Player>([&](pqxx::connection& c) -> Result<Player> {
        pqxx::work w(c);
        auto r = w.exec_params1(
            "INSERT INTO players (id, display_name, token_sha256, created_at) VALUES ($1, $2, "
            "$3, " +
                pg::ms_to_timestamp("$4") + ") RETURNING id, display_name, " +
                pg::timestamp_to_ms("created_at"),
            p.id, p.display_name, token_sha256(p.token), p.created_at_ms);
        auto player = player_from(r);
        w.commit();
        return player;
    });
}

Result<Player> Repository::player_by_token(std::string_view token) {
    const std::string hash = token_sha256(token);
    return impl_->run<Player>([&](pqxx::connection& c) -> Result<Player> {
        pqxx::read_transaction t(c);
        // The guest's own token, or a session of its account (migrations/0005_accounts.sql).
        auto r = t.exec_params("SELECT id, display_name, " + pg::timestamp_to_ms("created_at") +
                                   " FROM players WHERE token_sha256 = $1 OR id = (SELECT "
                                   "player_id FROM sessions WHERE token_sha256 = $1)",
                               hash);
        if (r.empty()) return StoreError{Kind::NotFound, "no player has this token"};
        return player_from(r[0]);
    });
}

Result<Player> Repository::player(std::string_view id) {
    const std::string key(id);
    return impl_->run<Player>([&](pqxx::connection& c) -> Result<Player> {
        pqxx::read_transaction t(c);
        auto r = t.exec_params("SELECT id, display_name, " + pg::timestamp_to_ms("created_at") +
                                   " FROM players WHERE id = $1",
                               key);
        if (r.empty()) return StoreError{Kind::NotFound, "no player " + key};
        return player_from(r[0]);
    });
}

Result<Done> Repository::create_match(const NewMatch& m) {
    if (m.id.empty() || m.game.empty()) return invalid("a match needs an id and a game");
    if (m.seats.empty()) return invalid("a match needs seats");
    return impl_->run<Done>([&](pqxx::connection& c) -> Result<Done> {
        pqxx::work w(c);
        w.exec_params0(
            "INSERT INTO matches (id, game, settings, seed, status, created_at, started_at, "
            "owner_node, state_hash) VALUES ($1, $2, $3::jsonb, $4, 'live', " +
                pg::ms_to_timestamp("$5") + ", " + pg::ms_to_timestamp("$5") + ", $6, $7)",
            m.id, m.game, m.settings_json.empty() ? std::string("{}") : m.settings_json,
            static_cast<std::int64_t>(m.seed), m.created_at_ms, pg::nullable(m.owner_node),
            pg::nullable(m.state_hash));
        for (const auto& s : m.seats) {
            if (s.team)
                w.exec_params0(
                    "INSERT INTO seats (match_id, seat, player_id, power, team, created_at) "
                    "VALUES ($1, $2, $3, $4, $5, " +
                        pg::ms_to_timestamp("$6") + ")",
                    m.id, s.seat, s.player_id, pg::nullable(s.power), *s.team, m.created_at_ms);
            else
                w.exec_params0(
                    "INSERT INTO seats (match_id, seat, player_id, power, team, created_at) "
                    "VALUES ($1, $2, $3, $4, NULL, " +
                        pg::ms_to_timestamp("$5") + ")",
                    m.id, s.seat, s.player_id, pg::nullable(s.power), m.created_at_ms);
        }
        w.commit();
        return Done{};
    });
}

Result<Done> Repository::end_match(std::string_view match_id, std::string_view status,
                                   std::string_view result_json, std::int64_t at_ms) {
    if (status != "finished" && status != "aborted")
        return invalid("a match ends as finished or aborted");
    const std::string id(match_id), st(status),
        result(result_json.empty() ? std::string_view("null") : result_json);
    return impl_->run<Done>([&](pqxx::connection& c) -> Result<Done> {
        pqxx::work w(c);
        auto r =
            w.exec_params("UPDATE matches SET status = $2, result = $3::jsonb, finished_at = " +
                              pg::ms_to_timestamp("$4") + " WHERE id = $1 AND status = 'live'",
                          id, st, result, at_ms);
        if (r.affected_rows() == 0) return StoreError{Kind::NotFound, "no live match " + id};
        w.commit();
        return Done{};
    });
}

Result<std::vector<StoredMatch>> Repository::live_matches(std::string_view owner_node) {
    std::vector<StoredMatch> out;
    auto read = live_matches_paged(
        std::numeric_limits<std::size_t>::max(),
        [&](std::vector<StoredMatch>&& all) { out = std::move(all); }, owner_node);
    if (!read) return read.error();
    return out;
}

Result<std::size_t> Repository::live_matches_paged(
    std::size_t page, const std::function<void(std::vector<StoredMatch>&&)>& each,
    std::string_view owner_node) {
    if (page == 0) return invalid("a page holds at least one match");
    const std::string owner(owner_node);
    return impl_->run<std::size_t>([&](pqxx::connection& c) -> Result<std::size_t> {
        // One snapshot for every page: the headers first (light), then each page's seats and
        // steps, handed over before the next page is read.
        pqxx::transaction<pqxx::repeatable_read, pqxx::read_only> t(c);
        std::vector<StoredMatch> all;
        for (const auto& r :
             t.exec_params("SELECT " + match_columns +
                               " FROM matches WHERE status = 'live' AND ($1::text IS NULL OR "
                               "owner_node IS NULL OR owner_node = $1) ORDER BY created_at, id",
                           pg::nullable(owner)))
            all.push_back(match_from(r));
        for (std::size_t first = 0; first < all.size(); first += page) {
            const std::size_t last = first + std::min(all.size() - first, page);
            std::vector<StoredMatch> chunk(std::make_move_iterator(all.begin() + static_cast<std::ptrdiff_t>(first)),
                                           std::make_move_iterator(all.begin() + static_cast<std::ptrdiff_t>(last)));
            add_details(t, chunk, true);
            each(std::move(chunk));
        }
        return all.size();
    });
}

Result<std::vector<std::pair<std::string, std::string>>> Repository::live_seats() {
    using Seats = std::vector<std::pair<std::string, std::string>>;
    return impl_->run<Seats>([&](pqxx::connection& c) -> Result<Seats> {
        pqxx::read_transaction t(c);
        Seats out;
        for (const auto& r : t.exec("SELECT s.match_id, s.player_id FROM seats s JOIN matches m "
                                    "ON m.id = s.match_id WHERE m.status = 'live'"))
            out.emplace_back(r[0].as<std::string>(), r[1].as<std::string>());
        return out;
    });
}

Result<StoredMatch> Repository::match(std::string_view match_id) {
    const std::string id(match_id);
    return impl_->run<StoredMatch>([&](pqxx::connection& c) -> Result<StoredMatch> {
        pqxx::transaction<pqxx::repeatable_read, pqxx::read_only> t(c);
        auto r = t.exec_params("SELECT " + match_columns + " FROM matches WHERE id = $1", id);
        if (r.empty()) return StoreError{Kind::NotFound, "no match " + id};
        std::vector<StoredMatch> one{match_from(r[0])};
        add_details(t, one, true);
        return std::move(one[0]);
    });
}

Result<MatchPage> Repository::player_matches(std::string_view player_id,
                                             std::optional<MatchCursor> after, int limit) {
    if (limit < 1 || limit > 100) return invalid("a page has 1 to 100 matches");
    const std::string player(player_id);
    return impl_->run<MatchPage>([&](pqxx::connection& c) -> Result<MatchPage> {
        pqxx::transaction<pqxx::repeatable_read, pqxx::read_only> t(c);
        const std::string query =
            "SELECT " + match_columns +
            " FROM matches WHERE id IN (SELECT match_id FROM seats "
            "WHERE player_id = $1 AND ($2::bigint IS NULL OR (created_at, match_id) < (" +
            pg::ms_to_timestamp("$2") +
            ", $3)) ORDER BY created_at DESC, match_id DESC LIMIT $4) "
            "ORDER BY created_at DESC, id DESC";
        // One row more than the page tells whether another page follows.
        auto rows = after ? t.exec_params(query, player, after->created_at_ms, after->match_id,
                                          limit + 1)
                          : t.exec_params(query, player, nullptr, "", limit + 1);
        MatchPage page;
        for (const auto& r : rows) page.matches.push_back(match_from(r));
        const bool more = static_cast<int>(page.matches.size()) > limit;
        if (more) page.matches.pop_back();
        add_details(t, page.matches, false);
        if (more)
            page.next = MatchCursor{page.matches.back().created_at_ms, page.matches.back().id};
        return page;
    });
}

Result<std::vector<PoolRating>> Repository::ratings(std::string_view player_id) {
    const std::string player(player_id);
    return impl_->run<std::vector<PoolRating>>(
        [&](pqxx::connection& c) -> Result<std::vector<PoolRating>> {
            pqxx::read_transaction t(c);
            std::vector<PoolRating> out;
            for (const auto& r :
                 t.exec_params("SELECT pool, " + rating_columns +
                                   " FROM ratings WHERE player_id = $1 ORDER BY pool",
                               player))
                out.push_back(PoolRating{r[0].as<std::string>(), rating_from(r, 1)});
            return out;
        });
}

Result<std::vector<RatingChange>> Repository::rating_history(std::string_view player_id,
                                                             std::string_view pool, int limit,
                                                             std::int64_t before_id) {
    if (limit < 1 || limit > 500) return invalid("a page has 1 to 500 rating changes");
    const std::string player(player_id), p(pool);
    return impl_->run<std::vector<RatingChange>>(
        [&](pqxx::connection& c) -> Result<std::vector<RatingChange>> {
            pqxx::read_transaction t(c);
            std::vector<RatingChange> out;
            for (const auto& r :
                 t.exec_params("SELECT id, pool, match_id, rating, deviation, volatility, " +
                                   pg::timestamp_to_ms("at") +
                                   " FROM rating_history WHERE player_id = $1 AND pool = $2 "
                                   "AND ($3 = 0 OR id < $3) ORDER BY at DESC, id DESC LIMIT $4",
                               player, p, before_id, limit)) {
                RatingChange h;
                h.id = r[0].as<std::int64_t>();
                h.pool = r[1].as<std::string>();
                h.match_id = r[2].as<std::string>();
                h.rating = r[3].as<double>();
                h.deviation = r[4].as<double>();
                h.volatility = r[5].as<double>();
                h.at_ms = r[6].as<std::int64_t>();
                out.push_back(std::move(h));
            }
            return out;
        });
}

Result<std::vector<LeaderboardEntry>> Repository::leaderboard(std::string_view pool, int limit,
                                                              int offset, int min_games,
                                                              double max_deviation) {
    if (limit < 1 || limit > 500) return invalid("a leaderboard page has 1 to 500 lines");
    if (offset < 0 || min_games < 0) return invalid("offset and minimum games are not negative");
    const std::string p(pool);
    return impl_->run<std::vector<LeaderboardEntry>>(
        [&](pqxx::connection& c) -> Result<std::vector<LeaderboardEntry>> {
            pqxx::read_transaction t(c);
            std::vector<LeaderboardEntry> out;
            int rank = offset;
            for (const auto& r : t.exec_params(
                     "SELECT r.player_id, p.display_name, r.rating, r.deviation, r.volatility, "
                     "r.games, " +
                         pg::timestamp_to_ms("r.last_rated_at") +
                         " FROM ratings r JOIN players p ON p.id = r.player_id "
                         // Only accounts: a throwaway guest is no one to rank (docs/ratings.md).
                         "JOIN accounts a ON a.player_id = r.player_id "
                         "WHERE r.pool = $1 AND r.games >= $2 AND ($5 <= 0 OR r.deviation <= $5) "
                         "ORDER BY r.rating DESC, r.player_id LIMIT $3 OFFSET $4",
                     p, min_games, limit, offset, max_deviation)) {
                LeaderboardEntry e;
                e.rank = ++rank;
                e.player_id = r[0].as<std::string>();
                e.display_name = r[1].as<std::string>();
                e.value = rating_from(r, 2);
                out.push_back(std::move(e));
            }
            return out;
        });
}

}  // namespace store
