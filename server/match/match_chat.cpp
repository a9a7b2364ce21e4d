// The chat of a match (docs/protocol.md, "Chat"): two channels, the players' and the
// spectators'. A seated player writes to the first, anyone else watching to the second; while
// the match is on the seats read the players' channel and the spectators theirs (the players
// never see the spectators' talk during their game), and from the end on everyone reads both.
// A line is stored before anyone is shown it, like a step; memory keeps the newest lines within
// the bounds of MatchOptions. On the match's strand, like the rest of Match (server/match/match.cpp).
#include <algorithm>
#include <cstdio>

#include <boost/asio/post.hpp>

#include "server/match/match.hpp"
#include "server/text/chat_text.hpp"
#include "server/time/epoch_ms.hpp"

namespace server {

using protocol::ErrorCode;

void Match::chat(ParticipantPtr who, std::string name, std::string text, protocol::Ref ref) {
    boost::asio::post(strand_, [self = shared_from_this(), who = std::move(who),
                                name = std::move(name), text = std::move(text),
                                ref = std::move(ref)] { self->do_chat(who, name, text, ref); });
}

void Match::do_chat(const ParticipantPtr& who, const std::string& name, const std::string& text,
                    const protocol::Ref& ref) {
    if (stopped_)
        return reply_error(who, ErrorCode::Unavailable, "the server is shutting down", ref);
    const int seat = seat_of(who->player_id());
    // Only a connection that has the match open writes to it: a spectator of a private match
    // has given its invite code then, and everyone reads the channel they write to.
    const Viewer& viewer = viewers_[viewer_index(seat)];
    if (viewer.connections.count(who->connection_id()) == 0)
        return reply_error(who, ErrorCode::NotAuthorized, "open the match before chatting in it",
                           ref);
    auto line = utf8::chat_line(text);
    if (auto* problem = std::get_if<utf8::ChatProblem>(&line))
        return reply_error(who, ErrorCode::InvalidField, "invalid field 'text': " + problem->message,
                           ref);
    if (!chat_buckets_.try_take(who->player_id(), options_.now()))
        return reply_error(who, ErrorCode::RateLimited,
                           "too many chat lines: wait a moment before the next", ref);
    StoredChatLine stored;
    stored.number = ++chat_numbers_;
    stored.spectators = seat < 0;
    stored.seat = seat;
    stored.player_id = who->player_id();
    stored.name = seat >= 0 ? options_.seats[static_cast<std::size_t>(seat)].name : name;
    stored.text = std::get<std::string>(std::move(line));
    stored.at_ms = epoch_ms(options_.wall_now());
    ChatRecord record{id(),         stored.number, stored.spectators ? "spectators" : "players",
                      who->player_id(), seat,     stored.name,
                      stored.text,  stored.at_ms};
    // Shown once stored: what a viewer was told is never lost (a failed store tells nobody).
    store_.chat(std::move(record), [weak = weak_from_this(), stored = std::move(stored), who,
                                    ref](bool ok) mutable {
        auto self = weak.lock();
        if (!self) return;
        boost::asio::post(self->strand_, [self, stored = std::move(stored), ok, who, ref]() mutable {
            self->on_chat_stored(std::move(stored), ok, who, ref);
        });
    });
}

void Match::on_chat_stored(StoredChatLine line, bool stored, const ParticipantPtr& who,
                           const protocol::Ref& ref) {
    if (!stored) {
        chat_buckets_.give_back(who->player_id());
        return reply_error(who, ErrorCode::Unavailable,
                           "the chat line could not be stored; nobody saw it; retry later", ref);
    }
    if (stopped_) return;
    keep_chat(line);
    // As for a step: the viewers' patch, then the sender's ack.
    broadcast();
    reply_ack(who, ref);
}

void Match::keep_chat(const StoredChatLine& line) {
    std::string text;
    protocol::JsonText out(text);
    out.begin_object()
        .key("n")
        .number(static_cast<std::int64_t>(line.number))
        .key("channel")
        .string(line.spectators ? "spectators" : "players")
        .key("seat");
    if (line.seat >= 0)
        out.number(line.seat);
    else
        out.null();
    out.key("player").string(line.player_id).key("name").string(line.name).key("text").string(line.text);
    out.key("at_ms").number(line.at_ms).end_object();
    chat_bytes_ += text.size();
    // By number (stores answer in order, so this is the end but for a restore's odd order).
    auto at = std::upper_bound(chat_.begin(), chat_.end(), line.number,
                               [](std::uint64_t n, const ChatLine& l) { return n < l.number; });
    chat_.insert(at, ChatLine{line.number, line.spectators, std::move(text)});
    chat_numbers_ = std::max(chat_numbers_, line.number);
    // The newest lines within the bounds: per channel, then in all.
    const auto in_channel = static_cast<std::size_t>(
        std::count_if(chat_.begin(), chat_.end(),
                      [&](const ChatLine& l) { return l.spectators == line.spectators; }));
    if (in_channel > options_.chat_lines) {
        auto oldest = std::find_if(chat_.begin(), chat_.end(), [&](const ChatLine& l) {
            return l.spectators == line.spectators;
        });
        chat_bytes_ -= oldest->json.size();
        chat_.erase(oldest);
    }
    while (chat_.size() > 1 && chat_bytes_ > options_.chat_bytes) {
        chat_bytes_ -= chat_.front().json.size();
        chat_.erase(chat_.begin());
    }
}

std::vector<std::uint64_t> Match::chat_seen(bool spectators) const {
    std::vector<std::uint64_t> seen;
    const bool everything = !active();
    for (const ChatLine& l : chat_)
        if (everything || l.spectators == spectators) seen.push_back(l.number);
    return seen;
}

void Match::write_chat_ops(const std::vector<std::uint64_t>& before,
                           const std::vector<std::uint64_t>& after,
                           protocol::PatchText& patch) const {
    if (before == after) return;
    auto line_json = [&](std::uint64_t number) -> const std::string& {
        auto it = std::lower_bound(chat_.begin(), chat_.end(), number,
                                   [](const ChatLine& l, std::uint64_t n) { return l.number < n; });
        return it->json;
    };
    // Lines only drop out at the front of a channel and join at the end: removes, then adds.
    // Anything else (both channels shown together from the end on) replaces the whole list.
    std::vector<std::uint64_t> kept;
    for (std::uint64_t n : before)
        if (std::binary_search(after.begin(), after.end(), n)) kept.push_back(n);
    const bool appended =
        kept.size() <= after.size() && std::equal(kept.begin(), kept.end(), after.begin());
    if (!appended) {
        auto& out = patch.replace("/chat").begin_array();
        for (std::uint64_t n : after) out.raw(line_json(n));
        out.end_array();
        return;
    }
    char path[32];
    for (std::size_t i = before.size(); i-- > 0;)
        if (!std::binary_search(after.begin(), after.end(), before[i])) {
            std::snprintf(path, sizeof path, "/chat/%zu", i);
            patch.remove(path);
        }
    for (std::size_t i = kept.size(); i < after.size(); ++i)
        patch.add("/chat/-").raw(line_json(after[i]));
}

void Match::write_chat(bool spectators, protocol::JsonText& out) const {
    const bool everything = !active();
    out.key("chat").begin_array();
    for (const ChatLine& l : chat_)
        if (everything || l.spectators == spectators) out.raw(l.json);
    out.end_array();
}

}  // namespace server
