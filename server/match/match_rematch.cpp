// A rematch (docs/protocol.md, "Rematch"): after the end a seated player offers one, every
// other seat accepts (a computer seat at once) or one declines, and the offer lapses when a
// seat leaves. Once every seat said yes the match asks its owner (the hub) for a new match
// with the same settings; the views then name it, so every viewer can follow. On the match's
// strand, like the rest of Match (server/match/match.cpp).
#include <utility>

#include <boost/asio/post.hpp>

#include "server/match/match.hpp"

namespace server {

using nlohmann::json;
using protocol::ErrorCode;

void Match::rematch(ParticipantPtr who, bool accept, protocol::Ref ref) {
    boost::asio::post(strand_, [self = shared_from_this(), who = std::move(who), accept,
                                ref = std::move(ref)] { self->do_rematch(who, accept, ref); });
}

void Match::do_rematch(const ParticipantPtr& who, bool accept, const protocol::Ref& ref) {
    if (stopped_)
        return reply_error(who, ErrorCode::Unavailable, "the server is shutting down", ref);
    const int seat = seat_of(who->player_id());
    if (seat < 0)
        return reply_error(who, ErrorCode::NotAuthorized,
                           "only the players of this match may offer or answer a rematch", ref);
    if (active()) return reply_error(who, ErrorCode::WrongPhase, "the match is not over", ref);
    if (!options_.make_rematch)
        return reply_error(who, ErrorCode::WrongPhase, "this match offers no rematch", ref);
    if (!rematch_.next.empty())
        return reply_error(who, ErrorCode::WrongPhase, "the rematch has started already", ref);
    if (rematch_.asking)
        return reply_error(who, ErrorCode::Busy, "the rematch is being made", ref);
    if (!accept) {
        if (rematch_.yes == 0)
            return reply_error(who, ErrorCode::WrongPhase, "no rematch is offered", ref);
        rematch_.yes = 0;
        rematch_.no = seat;
        rematch_.left = false;
        reply_ack(who, ref);
        broadcast();
        return;
    }
    const std::uint32_t before = rematch_.yes;
    rematch_.yes |= 1u << seat;
    // A computer always wants another game.
    for (int s = 0; s < options_.settings.players; ++s)
        if (is_bot(s)) rematch_.yes |= 1u << s;
    rematch_.no = -1;
    rematch_.left = false;
    const std::uint32_t everyone = (1u << options_.settings.players) - 1;
    if (rematch_.yes != everyone) {
        reply_ack(who, ref);
        if (rematch_.yes != before) broadcast();
        return;
    }
    // The last yes is answered once the rematch is made (or refused).
    rematch_.asking = true;
    rematch_.asker = who;
    rematch_.asker_ref = ref;
    RematchRequest request{id(), options_.settings, options_.seats, options_.challenger,
                           options_.invite_sha256};
    options_.make_rematch(std::move(request), [weak = weak_from_this()](RematchAnswer answer) {
        auto self = weak.lock();
        if (!self) return;
        boost::asio::post(self->strand_, [self, answer = std::move(answer)]() mutable {
            self->on_rematch_made(std::move(answer));
        });
    });
    broadcast();
}

void Match::on_rematch_made(RematchAnswer answer) {
    rematch_.asking = false;
    const ParticipantPtr asker = std::exchange(rematch_.asker, nullptr);
    const protocol::Ref ref = std::exchange(rematch_.asker_ref, std::nullopt);
    if (auto* made = std::get_if<std::string>(&answer)) {
        rematch_.next = *made;
        reply_ack(asker, ref);
    } else {
        // Nothing was made: the offer is withdrawn, and anyone may offer again.
        rematch_.yes = 0;
        const auto& refusal = std::get<RematchRefusal>(answer);
        if (asker) reply_error(asker, refusal.code, refusal.message, ref);
    }
    if (!stopped_) broadcast();
}

json Match::rematch_json() const {
    if (active() || !options_.make_rematch) return nullptr;
    json yes = json::array();
    for (int s = 0; s < options_.settings.players; ++s)
        if (rematch_.yes >> s & 1u) yes.push_back(s);
    json no = nullptr;
    if (rematch_.no >= 0) no = {{"seat", rematch_.no}, {"left", rematch_.left}};
    return {{"yes", std::move(yes)},
            {"no", std::move(no)},
            {"match", rematch_.next.empty() ? json(nullptr) : json(rematch_.next)}};
}

void Match::lapse_rematch(const Presence& before) {
    if (rematch_.yes == 0 || rematch_.asking || !rematch_.next.empty() || active()) return;
    const Presence now = presence();
    for (std::size_t s = 0; s < now.connected.size(); ++s)
        if (before.connected[s] && !now.connected[s]) {
            rematch_.yes = 0;
            rematch_.no = static_cast<int>(s);
            rematch_.left = true;
            return;  // the presence change that follows broadcasts it
        }
}

}  // namespace server
