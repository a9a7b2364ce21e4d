// The abandonment rule of a match (docs/protocol.md, "Abandonment"): a seat whose player has
// not had the match open for MatchOptions::abandon is abandoned by the server. Before every
// seat still in has made its first move the match is aborted; after, the seat loses as by a
// resignation (with more players it goes out and the game goes on). A present player may claim
// that ending sooner, once the seat has been away for the claim time (match.claim); the views
// show each away seat's instants. The timer lives on the match strand with the rest of the
// match, so a restored match gets it back with its first view.
#include <algorithm>
#include <boost/asio/post.hpp>
#include <cstdio>

#include "protocol/json_text.hpp"
#include "server/match/abandonment.hpp"
#include "server/match/match.hpp"
#include "server/time/epoch_ms.hpp"

namespace server {

using protocol::ErrorCode;

bool Match::everyone_moved() const {
    for (int s = 0; s < game_->seat_count(); ++s)
        if (!game_->out(s) && !moved_[static_cast<std::size_t>(s)]) return false;
    return true;
}

void Match::note_away() {
    if (stopped_ || !active()) return;
    for (std::size_t s = 0; s < away_since_.size(); ++s) {
        // A computer seat is always there (it plays from the match itself).
        const bool away = viewers_[s].connections.empty() && !game_->out(static_cast<int>(s)) &&
                          !is_bot(static_cast<int>(s));
        if (!away)
            away_since_[s].reset();
        else if (!away_since_[s])
            away_since_[s] = Away{options_.now(), epoch_ms(options_.wall_now())};
    }
}

nlohmann::json Match::away_json(int seat) const {
    const auto& away = away_since_[static_cast<std::size_t>(seat)];
    // Fixed instants, so a view changes only when the seat leaves or returns (or when what the
    // rule would do changes), never with the passing time.
    if (!away || !active() || options_.abandon <= std::chrono::milliseconds::zero()) return nullptr;
    const std::int64_t since = away->since_ms;
    return {{"since_ms", since},
            {"claim_ms", since + claim_time(options_.abandon).count()},
            {"deadline_ms", since + options_.abandon.count()},
            {"claim", abandon_aborts() ? "abort" : "win"}};
}

void Match::watch_away(std::chrono::milliseconds at_least) {
    if (stopped_ || !active() || options_.abandon <= std::chrono::milliseconds::zero()) {
        abandon_timer_.cancel();
        return;
    }
    note_away();
    const SteadyTime now = options_.now();
    std::optional<SteadyTime> first;
    for (const auto& away : away_since_)
        if (away) {
            const SteadyTime due = away->since + options_.abandon;
            if (!first || due < *first) first = due;
        }
    if (!first) {
        abandon_timer_.cancel();
        return;
    }
    abandon_timer_.expires_after(std::max<SteadyTime::duration>(at_least, *first - now));
    abandon_timer_.async_wait([weak = weak_from_this()](const boost::system::error_code& ec) {
        if (auto self = weak.lock(); self && !ec) self->on_abandon_timer();
    });
}

void Match::on_abandon_timer() {
    // An action being stored re-reads who is away once it is applied.
    if (stopped_ || !active() || pending_) return;
    note_away();
    const SteadyTime now = options_.now();
    for (std::size_t s = 0; s < away_since_.size(); ++s)
        if (away_since_[s] && away_since_[s]->since + options_.abandon <= now)
            return record_abandon(static_cast<int>(s), nullptr, {}, now);
    watch_away();
}

void Match::record_abandon(int seat, ParticipantPtr from, protocol::Ref ref, SteadyTime now) {
    Action action{Action::Kind::Abandon, seat, std::move(from),
                  std::move(ref),        now,  std::chrono::steady_clock::now()};
    Outcome outcome = event_outcome(action);
    std::string text;
    protocol::JsonText(text)
        .begin_object()
        .key("kind")
        .string("abandon")
        .key("seat")
        .number(seat)
        .end_object();
    record(std::move(action), std::move(text), std::move(outcome));
}

void Match::claim(ParticipantPtr who, int seat, bool abort, protocol::Ref ref) {
    boost::asio::post(strand_, [self = shared_from_this(), who = std::move(who), seat, abort,
                                ref = std::move(ref)] { self->do_claim(who, seat, abort, ref); });
}

void Match::do_claim(const ParticipantPtr& who, int seat, bool abort, const protocol::Ref& ref) {
    if (stopped_)
        return reply_error(who, ErrorCode::Unavailable, "the server is shutting down", ref);
    if (!active()) return reply_error(who, ErrorCode::WrongPhase, "the match is over", ref);
    const int me = seat_of(who->player_id());
    if (me < 0)
        return reply_error(who, ErrorCode::NotAuthorized, "only players of this match may claim",
                           ref);
    const SteadyTime now = options_.now();
    if (!pending_ && clock_.expired(now)) on_timer();  // a flag that fell comes first
    if (pending_)
        return reply_error(who, ErrorCode::Busy, "the previous action is still being recorded",
                           ref);
    if (game_->out(me))
        return reply_error(who, ErrorCode::WrongPhase, "you are already out of the game", ref);
    if (seat >= game_->seat_count())
        return reply_error(who, ErrorCode::InvalidField, "invalid field 'seat': no such seat", ref);
    if (viewers_[static_cast<std::size_t>(me)].connections.empty())
        return reply_error(who, ErrorCode::NotClaimable,
                           "only a player who has the match open may claim", ref);
    note_away();
    const auto& away = away_since_[static_cast<std::size_t>(seat)];
    const std::string& name = options_.seats[static_cast<std::size_t>(seat)].name;
    if (!away || options_.abandon <= std::chrono::milliseconds::zero())
        return reply_error(who, ErrorCode::NotClaimable, name + " is not away", ref);
    const auto allowed = claim_time(options_.abandon);
    if (now < away->since + allowed) {
        char seconds[32];
        std::snprintf(seconds, sizeof seconds, "%.3g s",
                      static_cast<double>(allowed.count()) / 1000);
        return reply_error(
            who, ErrorCode::NotClaimable,
            name + " may still return: a claim is allowed " + seconds + " after leaving", ref);
    }
    if (abort != abandon_aborts())
        return reply_error(who, ErrorCode::NotClaimable,
                           abort ? "the game has begun: claim the win instead"
                                 : "the game has not begun: claim an abort instead",
                           ref);
    record_abandon(seat, who, ref, now);
}

}  // namespace server
