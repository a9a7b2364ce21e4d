// The abandonment rule of a match (docs/protocol.md, "Abandonment"): a seat whose player has
// not had the match open for MatchOptions::abandon is abandoned by the server. Before every
// seat still in has made its first move the match is aborted; after, the seat loses as by a
// resignation (with more players it goes out and the game goes on). The timer lives on the
// match strand with the rest of the match, so a restored match gets it back with its first view.
#include <algorithm>

#include "protocol/json_text.hpp"
#include "server/match/match.hpp"

namespace server {

bool Match::everyone_moved() const {
    for (int s = 0; s < game_->seat_count(); ++s)
        if (!game_->out(s) && !moved_[static_cast<std::size_t>(s)]) return false;
    return true;
}

void Match::watch_away(std::chrono::milliseconds at_least) {
    if (stopped_ || !active() || options_.abandon <= std::chrono::milliseconds::zero()) {
        abandon_timer_.cancel();
        return;
    }
    const SteadyTime now = options_.now();
    std::optional<SteadyTime> first;
    for (std::size_t s = 0; s < away_since_.size(); ++s) {
        // A computer seat is always there (it plays from the match itself).
        const bool away = viewers_[s].connections.empty() && !game_->out(static_cast<int>(s)) &&
                          !is_bot(static_cast<int>(s));
        if (!away) {
            away_since_[s].reset();
            continue;
        }
        if (!away_since_[s]) away_since_[s] = now;
        const SteadyTime due = *away_since_[s] + options_.abandon;
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
    const SteadyTime now = options_.now();
    int seat = -1;
    for (std::size_t s = 0; s < away_since_.size(); ++s)
        if (away_since_[s] && *away_since_[s] + options_.abandon <= now &&
            viewers_[s].connections.empty() && !game_->out(static_cast<int>(s)) &&
            !is_bot(static_cast<int>(s))) {
            seat = static_cast<int>(s);
            break;
        }
    if (seat < 0) return watch_away();
    Action action{Action::Kind::Abandon, seat, nullptr, {}, now, std::chrono::steady_clock::now()};
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

}  // namespace server
