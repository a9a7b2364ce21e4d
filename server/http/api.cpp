#include "server/http/api.hpp"

#include <algorithm>
#include <chrono>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <boost/asio/post.hpp>
#include <boost/beast/http/field.hpp>

#include "protocol/json/basic_json.hpp"
#include "server/limits/deadline.hpp"
#include "server/log/log.hpp"
#include "server/net/client_address.hpp"
#include "server/http/errors.hpp"
#include "server/app/ids.hpp"
#include "server/app/overloaded.hpp"
#include "server/match/match_json.hpp"
#include "server/rating/rating.hpp"
#include "server/match/replay.hpp"
#include "server/http/security_headers.hpp"
#include "server/store/repository.hpp"
#include "server/store/token_hash.hpp"
#include "server/time/epoch_ms.hpp"

namespace server {
namespace {

using json = nlohmann::json;
using Response = http::response<http::string_body>;

// A finished or aborted match never changes again: its header, replay and views may be kept.
constexpr std::string_view cache_finished = "public, max-age=86400";
constexpr std::string_view cache_live = "no-store";
// Newest matches on a player page.
constexpr int recent_matches = 10;
// Rating changes shown in a history (the newest ones).
constexpr int history_length = 500;
// Leaderboard lines read from the database at a time while skipping provisional players.
constexpr int leaderboard_batch = 500;

Response make(const ApiRequestInfo& info, http::status status, std::string body,
              std::string_view content_type, std::string_view cache) {
    Response response{status, info.version};
    response.set(http::field::server, "santorini-server");
    response.set(http::field::content_type, content_type);
    response.set(http::field::cache_control, cache);
    set_security_headers(response);
    response.keep_alive(info.keep_alive);
    response.body() = std::move(body);
    response.prepare_payload();
    if (info.head) {
        // Same headers as GET, no body: the Content-Length still tells the size.
        const std::size_t size = response.body().size();
        response.body().clear();
        response.content_length(size);
    }
    return response;
}

Response ok_json(const ApiRequestInfo& info, const json& body, std::string_view cache = cache_live) {
    return make(info, http::status::ok, body.dump(), "application/json", cache);
}

// A store failure as the client sees it.
Response store_failure(const ApiRequestInfo& info, const store::StoreError& error, std::string_view unknown) {
    switch (error.kind) {
        case store::StoreError::Kind::NotFound: return api_error(info, http::status::not_found, unknown);
        case store::StoreError::Kind::Unavailable:
            return api_error(info, http::status::service_unavailable,
                             "the database is unavailable; try again shortly");
        default:
            spdlog::error("event=api_store_error error=\"{}\"", error.message);
            return api_error(info, http::status::internal_server_error, "internal error");
    }
}

std::vector<std::string> records_of(const store::StoredMatch& match) {
    std::vector<std::string> out;
    out.reserve(match.steps.size());
    for (const auto& step : match.steps) out.push_back(step.step_json);
    return out;
}

// Every record of `match` replayed, or nullopt (logged) when the stored match cannot be.
std::optional<ReplayPosition> replay_all(const store::StoredMatch& match, std::size_t upto) {
    auto settings = read_stored_settings(match.settings_json);
    if (auto* why = std::get_if<std::string>(&settings)) {
        spdlog::warn("event=api_replay_failed match={} why=\"{}\"", match.id, *why);
        return std::nullopt;
    }
    auto replayed = replay(std::get<StoredSettings>(settings), match.seed, records_of(match), upto);
    if (auto* why = std::get_if<std::string>(&replayed)) {
        spdlog::warn("event=api_replay_failed match={} why=\"{}\"", match.id, *why);
        return std::nullopt;
    }
    return std::get<ReplayPosition>(std::move(replayed));
}

// A private match's answers are for its players and whoever has its code: never kept by a
// shared cache (the same URL with a player's token must not reach anyone else).
constexpr std::string_view cache_finished_private = "private, max-age=86400";

std::string invite_of(const store::StoredMatch& match) {
    auto settings = read_stored_settings(match.settings_json);
    if (auto* stored = std::get_if<StoredSettings>(&settings)) return stored->invite_sha256;
    return {};
}

std::string_view match_cache(const store::StoredMatch& match) {
    if (is_live(match)) return cache_live;
    return invite_of(match).empty() ? cache_finished : cache_finished_private;
}

// Whether this request may see what a private match's spectators see: its invite code in
// ?code=, or the token of one of its players. A public match: always.
bool may_watch(const store::StoredMatch& match, std::string_view code, const ApiRequestInfo& info,
               store::Repository& repo) {
    const std::string invite = invite_of(match);
    if (invite.empty()) return true;
    const std::string normalized = normalize_invite_code(code);
    if (!normalized.empty() && store::token_sha256(normalized) == invite) return true;
    if (info.token.empty()) return false;
    auto player = repo.player_by_token(info.token);
    if (!player) return false;
    return std::any_of(match.seats.begin(), match.seats.end(),
                       [&](const store::StoredSeat& seat) { return seat.player_id == player->id; });
}

Response private_match(const ApiRequestInfo& info) {
    return api_error(info, http::status::forbidden,
                     "this match is private: add ?code=<its invite code>, or send one of its "
                     "players' tokens as Authorization: Bearer <token>");
}

Response header(const MatchHeaderRequest& r, const ApiRequestInfo& info, store::Repository& repo) {
    auto match = repo.match(r.match);
    if (!match) return store_failure(info, match.error(), "unknown match");
    auto replayed = replay_all(*match, match->steps.size());
    // A header is anyone's (players' pages list it too), private match or not.
    return ok_json(info, match_header(*match, replayed ? replayed->game.get() : nullptr),
                   is_live(*match) ? cache_live : cache_finished);
}

Response replay_page(const MatchReplayRequest& r, const ApiRequestInfo& info, store::Repository& repo) {
    auto match = repo.match(r.match);
    if (!match) return store_failure(info, match.error(), "unknown match");
    if (!may_watch(*match, r.code, info, repo)) return private_match(info);
    auto replayed = replay_all(*match, match->steps.size());
    return ok_json(info, replay_json(*match, replayed ? &*replayed : nullptr), match_cache(*match));
}

Response view_after(const MatchViewRequest& r, const ApiRequestInfo& info, store::Repository& repo) {
    auto match = repo.match(r.match);
    if (!match) return store_failure(info, match.error(), "unknown match");
    if (!may_watch(*match, r.code, info, repo)) return private_match(info);
    if (r.after > match->steps.size())
        return api_error(info, http::status::bad_request,
                         "after is beyond the last step (" + std::to_string(match->steps.size()) + ")");
    auto replayed = replay_all(*match, r.after);
    if (!replayed)
        return api_error(info, http::status::internal_server_error, "this match cannot be replayed");
    return ok_json(info, {{"match", match->id}, {"after", r.after}, {"view", view_after_json(*match, *replayed)}},
                   match_cache(*match));
}

Response player_page(const PlayerRequest& r, const ApiRequestInfo& info, store::Repository& repo,
                     std::int64_t now_ms) {
    auto player = repo.player(r.player);
    if (!player) return store_failure(info, player.error(), "unknown player");
    auto ratings = repo.ratings(r.player);
    if (!ratings) return store_failure(info, ratings.error(), "unknown player");
    auto recent = repo.player_matches(r.player, std::nullopt, recent_matches);
    if (!recent) return store_failure(info, recent.error(), "unknown player");
    return ok_json(info, player_json(*player, *ratings, recent->matches, now_ms));
}

Response history(const RatingHistoryRequest& r, const ApiRequestInfo& info, store::Repository& repo) {
    auto player = repo.player(r.player);
    if (!player) return store_failure(info, player.error(), "unknown player");
    auto changes = repo.rating_history(r.player, r.pool, history_length);
    if (!changes) return store_failure(info, changes.error(), "unknown player");
    return ok_json(info, rating_history_json(r.player, r.pool, *changes));
}

Response matches_page(const PlayerMatchesRequest& r, const ApiRequestInfo& info, store::Repository& repo) {
    auto player = repo.player(r.player);
    if (!player) return store_failure(info, player.error(), "unknown player");
    std::optional<store::MatchCursor> after;
    if (r.after) after = store::MatchCursor{r.after->created_at_ms, r.after->match};
    auto page = repo.player_matches(r.player, after, r.limit);
    if (!page) return store_failure(info, page.error(), "unknown player");
    std::string body;
    for (const auto& m : page->matches) {
        body += match_header(m).dump();
        body += '\n';
    }
    Response response = make(info, http::status::ok, std::move(body), "application/x-ndjson", cache_live);
    if (page->next)
        response.set("X-Next-Cursor", cursor_text(PageCursor{page->next->created_at_ms, page->next->match_id}));
    return response;
}

Response leaderboard(const LeaderboardRequest& r, const ApiRequestInfo& info, store::Repository& repo,
                     std::int64_t now_ms) {
    // Only established players are ranked. A stored deviation above the threshold is
    // provisional for sure (the database leaves those out); one below it may have grown past
    // it since the last game, which only the rating arithmetic knows, so ranks are counted here.
    const double threshold = rating::Parameters{}.provisional_deviation;
    std::vector<store::LeaderboardEntry> lines;
    int rank = 0;
    for (int from = 0;; from += leaderboard_batch) {
        auto batch = repo.leaderboard(r.pool, leaderboard_batch, from, 1, threshold);
        if (!batch) return store_failure(info, batch.error(), "unknown pool");
        for (auto& entry : *batch) {
            if (!established(entry.value, now_ms)) continue;
            if (++rank <= r.offset) continue;
            entry.rank = rank;
            lines.push_back(std::move(entry));
            if (static_cast<int>(lines.size()) == r.limit) break;
        }
        if (static_cast<int>(lines.size()) == r.limit || static_cast<int>(batch->size()) < leaderboard_batch)
            break;
    }
    return ok_json(info, leaderboard_json(r.pool, lines, now_ms));
}

}  // namespace

namespace {

// 429 with Retry-After: the client's own limit, not the server's trouble.
Response too_many(const ApiRequestInfo& info, std::string_view message) {
    Response response = api_error(info, http::status::too_many_requests, message);
    response.set(http::field::retry_after, "1");
    return response;
}

}  // namespace

Response api_error(const ApiRequestInfo& info, http::status status, std::string_view message) {
    Response response = make(info, status, http_error_body(status, message).dump(), "application/json", cache_live);
    if (status == http::status::method_not_allowed) response.set(http::field::allow, "GET, HEAD");
    if (status == http::status::service_unavailable) response.set(http::field::retry_after, "5");
    return response;
}

Response answer_api(const ApiRequest& request, const ApiRequestInfo& info, store::Repository& repo,
                    std::int64_t now_ms) {
    return std::visit(Overloaded{
                          [&](const MatchHeaderRequest& r) { return header(r, info, repo); },
                          [&](const MatchReplayRequest& r) { return replay_page(r, info, repo); },
                          [&](const MatchViewRequest& r) { return view_after(r, info, repo); },
                          [&](const PlayerRequest& r) { return player_page(r, info, repo, now_ms); },
                          [&](const RatingHistoryRequest& r) { return history(r, info, repo); },
                          [&](const PlayerMatchesRequest& r) { return matches_page(r, info, repo); },
                          [&](const LeaderboardRequest& r) { return leaderboard(r, info, repo, now_ms); },
                      },
                      request);
}

HttpApi::HttpApi(store::Repository* repository, Metrics& metrics, std::size_t threads, ClientLimits limits)
    : repository_(repository),
      metrics_(metrics),
      rate_(limits.per_second * 60.0, limits.burst),
      share_(limits.in_flight),
      pool_(threads) {}

void HttpApi::set_deadline(boost::asio::io_context& io, std::chrono::milliseconds deadline) {
    io_ = &io;
    deadline_ = deadline;
}

HttpApi::~HttpApi() {
    pool_.join();
}

bool HttpApi::handle(const http::request<http::string_body>& request, Reply reply, std::string_view client) {
    if (!is_api_target(request.target())) return false;
    auto parsed = parse_api_request(request.method(), request.target());
    // Without a database a match header still comes from memory (handle_http: the live
    // spectator view), as it did before there was a database.
    if (!repository_ && std::holds_alternative<ApiRequest>(parsed) &&
        std::holds_alternative<MatchHeaderRequest>(std::get<ApiRequest>(parsed)))
        return false;
    metrics_.http_requests.fetch_add(1, std::memory_order_relaxed);
    ApiRequestInfo info{request.version(), request.keep_alive(), request.method() == http::verb::head, {}};
    if (const auto authorization = request[http::field::authorization]; authorization.starts_with("Bearer "))
        info.token = std::string(authorization.substr(7));
    // Each client's rate first: a client over it is told to slow down, and costs nothing more.
    const std::string key = connection_key(client);
    if (!rate_.allow(key)) {
        metrics_.rejected(protocol::ErrorCode::RateLimited);
        reply(too_many(info, "too many requests from your address; slow down"));
        return true;
    }
    if (auto* refusal = std::get_if<ApiRefusal>(&parsed)) {
        reply(api_error(info, refusal->status, refusal->message));
        return true;
    }
    if (!repository_) {
        reply(api_error(info, http::status::service_unavailable,
                        "this server keeps no stored games (it runs without a database)"));
        return true;
    }
    // Then its share of the pool: its own requests wait, the others' still get in.
    auto ticket = share_.try_take(key);
    if (!ticket) {
        metrics_.rejected(protocol::ErrorCode::RateLimited);
        reply(too_many(info, "too many of your requests in progress; wait for them"));
        return true;
    }
    if (pending_.fetch_add(1) >= max_pending) {
        pending_.fetch_sub(1);
        reply(api_error(info, http::status::service_unavailable, "too many requests in progress; try again"));
        return true;
    }
    if (io_) {
        // A hung database answers 503 at the deadline; the query's own answer is dropped.
        auto answer = first_answer<Response>(
            *io_, deadline_, [info, reply = std::move(reply)](std::optional<Response> response) {
                reply(response ? std::move(*response)
                               : api_error(info, http::status::service_unavailable,
                                           "the database did not answer in time; try again"));
            });
        reply = [answer = std::move(answer)](Response response) { answer(std::move(response)); };
    }
    boost::asio::post(pool_, [this, info, request = std::get<ApiRequest>(std::move(parsed)),
                              ticket = std::make_shared<ClientShare::Ticket>(std::move(*ticket)),
                              reply = std::move(reply)]() mutable {
        const std::int64_t now_ms = now_epoch_ms();
        Response response;
        try {
            response = answer_api(request, info, *repository_, now_ms);
        } catch (const std::exception& e) {
            // Stored data the JSON code cannot take (it should not happen): a 500, not a crash.
            spdlog::error("event=api_exception what=\"{}\"", e.what());
            response = api_error(info, http::status::internal_server_error, "internal error");
        }
        pending_.fetch_sub(1);
        ticket.reset();
        reply(std::move(response));
    });
    return true;
}

}  // namespace server
