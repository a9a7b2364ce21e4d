// A match's views: what each viewer is shown (its typed view, the clock, presence, result),
// the broadcast of one change as shared patch messages, the resume history, the snapshot and
// the live-list entry. Runs on the match's strand, like the rest of Match (server/match/match.cpp).
#include <algorithm>
#include <array>
#include <charconv>
#include <cstdio>
#include <set>

#include <boost/asio/post.hpp>

#include "protocol/games.hpp"
#include "protocol/json_text.hpp"
#include "server/bots/bot_players.hpp"
#include "server/match/match.hpp"

namespace server {

using nlohmann::json;

Match::Shown Match::shown(SteadyTime now, WallTime wall) const {
    const Presence p = presence();
    auto text_of = [](const json& j) { return j.is_null() ? std::string("null") : j.dump(); };
    std::vector<std::string> away;
    away.reserve(static_cast<std::size_t>(options_.settings.players));
    for (int s = 0; s < options_.settings.players; ++s) away.push_back(text_of(away_json(s)));
    Shown next{status(),
               p.connected,
               p.spectators,
               clock_.text(now, wall),
               text_of(result_),
               std::move(away),
               text_of(rematch_json()),
               {}};
    next.chat = {chat_seen(false), chat_seen(true)};
    return next;
}

namespace {

constexpr std::string_view patch_type = "{\"type\":\"match.patch\",";

/// A viewer's shared patch message with `"ref":…` after its type, for the one connection whose
/// request caused it (its acknowledgement; the resume ring keeps the message without it).
std::shared_ptr<const std::string> with_ref(const std::string& message, const nlohmann::json& ref) {
    std::string text;
    const std::string ref_text = ref.dump();
    text.reserve(message.size() + ref_text.size() + 8);
    text.append(patch_type);
    text += "\"ref\":";
    text += ref_text;
    text += ',';
    text.append(message, patch_type.size());
    return std::make_shared<const std::string>(std::move(text));
}

}  // namespace

bool Match::broadcast(std::optional<std::uint64_t> skip_connection, const Action* acked) {
    ++version_;
    note_away();
    // What every viewer sees alike: its operations are written once and shared.
    Shown next = shown(options_.now(), options_.wall_now());
    std::string common_text;
    protocol::PatchText common(common_text);
    if (next.status != shown_.status) common.replace("/status").string(next.status);
    char path[48];
    for (std::size_t s = 0; s < next.connected.size(); ++s)
        if (next.connected[s] != shown_.connected[s]) {
            std::snprintf(path, sizeof path, "/seats/%zu/connected", s);
            common.replace(path).boolean(next.connected[s]);
        }
    for (std::size_t s = 0; s < next.away.size(); ++s)
        if (next.away[s] != shown_.away[s]) {
            std::snprintf(path, sizeof path, "/seats/%zu/away", s);
            common.replace(path).raw(next.away[s]);
        }
    if (next.spectators != shown_.spectators) common.replace("/spectators").number(next.spectators);
    if (next.clock != shown_.clock) common.replace("/clock").raw(next.clock);
    if (next.result != shown_.result) common.replace("/result").raw(next.result);
    // The rematch appears at the end and never goes again.
    if (next.rematch != shown_.rematch)
        (shown_.rematch == "null" ? common.add("/rematch") : common.replace("/rematch"))
            .raw(next.rematch);
    common.finish();
    // The chat: the seats' operations [0] and the spectators' [1], each shared by its viewers.
    std::array<std::string, 2> chat_text;
    std::array<int, 2> chat_ops{};
    for (std::size_t k = 0; k < 2; ++k) {
        protocol::PatchText ops(chat_text[k]);
        write_chat_ops(shown_.chat[k], next.chat[k], ops);
        ops.finish();
        chat_ops[k] = ops.size();
    }
    shown_ = std::move(next);

    std::string head(patch_type);
    head += "\"match\":";
    protocol::JsonText(head).string(id());
    head += ",\"version\":";
    {
        char digits[24];
        auto [end, ec] = std::to_chars(digits, digits + sizeof digits, version_);
        (void)ec;
        head.append(digits, end);
    }
    head += ",\"patch\":";

    // Spectators first: a seat that sees what they see (and saw it before) shares their message.
    bool acked_in_patch = false;
    auto deliver = [&](const Viewer& v, const std::shared_ptr<const std::string>& message) {
        for (const auto& [connection, who] : v.connections) {
            if (connection == skip_connection) continue;
            if (acked && who == acked->from && acked->ref) {
                who->deliver(with_ref(*message, *acked->ref));
                acked_in_patch = true;
            } else {
                who->deliver(message);
            }
        }
    };
    Viewer& watchers = viewers_.back();
    auto watchers_next = game_->view(watchers.seat, !aborted_);
    std::shared_ptr<const std::string> watchers_message;
    auto message_for = [&](const Viewer& v, const protocol::GameView& from,
                           const protocol::GameView& to) {
        // Written in a buffer this thread keeps, then copied once at its size: a text grown
        // by doubling cost about six reallocations and a shrink for the resume ring.
        thread_local std::string text;
        text.assign(head);
        protocol::PatchText patch(text);
        patch.append(protocol::PatchText::body(common_text), common.size());
        const std::size_t k = v.seat >= 0 ? 0 : 1;
        patch.append(protocol::PatchText::body(chat_text[k]), chat_ops[k]);
        if (line_added_) {
            const std::size_t line = history_.lines - 1;
            auto own = history_.own.find(line);
            if (own != history_.own.end())
                patch.add("/history/-").string(own->second[viewer_index(v.seat)]);
            else
                patch.add("/history/-").string(last_line_);
        }
        game_->write_patch(from, to, patch);
        patch.finish();
        text += '}';
        // Kept in the viewers' resume rings: a copy has no slack. A text that grew very large
        // (a long history's snapshot-sized patch) is not kept for the next message.
        auto message = std::make_shared<const std::string>(text);
        if (text.capacity() > 64 * 1024) std::string().swap(text);
        return message;
    };
    watchers_message = message_for(watchers, *watchers.view, *watchers_next);
    const bool line_private = line_added_ && history_.own.count(history_.lines - 1) > 0;
    // The message of a seat whose views `from` and `to` are: the spectators' where it sees what
    // they see, else its own.
    auto seat_message = [&](const Viewer& v, const protocol::GameView& from,
                            const protocol::GameView& to) {
        if (!line_private && chat_text[0] == chat_text[1] && game_->same(to, *watchers_next) &&
            game_->same(from, *watchers.view))
            return watchers_message;
        return message_for(v, from, to);
    };
    for (std::size_t i = 0; i + 1 < viewers_.size(); ++i) {
        Viewer& v = viewers_[i];
        auto next_view = game_->view(v.seat, !aborted_);
        const std::shared_ptr<const std::string> message = seat_message(v, *v.view, *next_view);
        const std::uint64_t decision = game_->decision(*next_view);
        // The resume history keeps the patch without legal steps (Kept): the live one where
        // the seat decided neither before nor now.
        if (decision == 0 && game_->decision(*v.view) == 0)
            keep(v, message, 0);
        else
            keep(v, seat_message(v, *game_->undecided(*v.view), *game_->undecided(*next_view)),
                 decision);
        v.view = std::move(next_view);
        deliver(v, message);
    }
    keep(watchers, watchers_message, 0);
    watchers.view = std::move(watchers_next);
    deliver(watchers, watchers_message);
    line_added_ = false;
    publish_entry();
    return acked_in_patch;
}

void Match::keep(Viewer& v, const std::shared_ptr<const std::string>& message,
                 std::uint64_t decision) {
    // Every viewer gets every version (an empty patch when nothing it sees changed), so a
    // reconnecting viewer's versions have no gaps; the ring keeps the newest within its bounds.
    if (v.ring.empty() || v.ring_first + v.ring.size() != version_) {
        v.ring.clear();  // not the next version (never so today): start again from this one
        v.ring_bytes = 0;
        v.ring_first = version_;
        v.decision_before = v.view ? game_->decision(*v.view) : 0;  // the view before this one
    }
    v.ring.push_back({message, decision});
    v.ring_bytes += message->size();
    std::size_t drop = 0;
    while (v.ring.size() - drop > 1 &&
           (v.ring.size() - drop > options_.history || v.ring_bytes > options_.history_bytes)) {
        v.ring_bytes -= v.ring[drop].message->size();
        v.decision_before = v.ring[drop].decision;
        ++drop;
    }
    v.ring.erase(v.ring.begin(), v.ring.begin() + static_cast<std::ptrdiff_t>(drop));
    v.ring_first += drop;
}

void Match::resume(const Viewer& v, std::uint64_t since, const ParticipantPtr& who) const {
    const std::size_t first = static_cast<std::size_t>(since + 1 - v.ring_first);
    const std::uint64_t had = first == 0 ? v.decision_before : v.ring[first - 1].decision;
    for (std::size_t i = first; i + 1 < v.ring.size(); ++i) who->deliver(v.ring[i].message);
    const std::string& last = *v.ring.back().message;
    if (had == v.ring.back().decision) return who->deliver(v.ring.back().message);
    // The kept patches leave the legal steps as they were at `since`: the last one brings them
    // up to date (its text ends with the patch array's `]` and the message's `}`).
    std::string ops_text;
    protocol::PatchText ops(ops_text);
    game_->write_decision_patch(had, *v.view, ops);
    ops.finish();
    if (ops.size() == 0) return who->deliver(v.ring.back().message);
    std::string text(last, 0, last.size() - 2);
    if (text.back() != '[') text += ',';
    text += protocol::PatchText::body(ops_text);
    text += "]}";
    who->deliver(std::make_shared<const std::string>(std::move(text)));
}

void Match::write_view(const Viewer& v, protocol::JsonText& out) const {
    out.begin_object();
    out.key("match").string(id());
    out.key("game").string(game_->kind());
    out.key("status").string(shown_.status);
    out.key("seats").begin_array();
    for (int s = 0; s < options_.settings.players; ++s) {
        const Member& m = options_.seats[static_cast<std::size_t>(s)];
        out.begin_object().key("seat").number(s);
        out.key("player").begin_object().key("id").string(m.id).key("name").string(m.name);
        write_bot_field(m.id, out);
        out.end_object();
        game_->write_seat(*v.view, s, out);
        out.key("connected").boolean(shown_.connected[static_cast<std::size_t>(s)]);
        out.key("away").raw(shown_.away[static_cast<std::size_t>(s)]);
        out.end_object();
    }
    out.end_array();
    out.key("you");
    if (v.seat >= 0)
        out.number(v.seat);
    else
        out.null();
    out.key("spectators").number(shown_.spectators);
    out.key("clock").raw(shown_.clock);
    out.key("result").raw(shown_.result);
    if (shown_.rematch != "null") out.key("rematch").raw(shown_.rematch);
    write_chat(v.seat < 0, out);
    out.key("history").begin_array();
    {
        const std::size_t index = viewer_index(v.seat);
        std::size_t line = 0, at = 0;
        auto own = history_.own.begin();
        while (line < history_.lines) {
            const std::size_t end = history_.text.find('\n', at);
            if (own != history_.own.end() && own->first == line) {
                out.string(own->second[index]);
                ++own;
            } else {
                out.string(std::string_view(history_.text).substr(at, end - at));
            }
            at = end + 1;
            ++line;
        }
    }
    out.end_array();
    out.key("state");
    game_->write_state(*v.view, out);
    out.end_object();
}

std::string Match::snapshot(const Viewer& v) const {
    std::string text = "{\"type\":\"match.snapshot\",\"match\":";
    protocol::JsonText out(text);
    out.string(id());
    text += ",\"version\":" + std::to_string(version_) + ",\"view\":";
    protocol::JsonText view(text);
    write_view(v, view);
    text += '}';
    return text;
}

void Match::publish_entry() {
    LiveKey key;
    key.active = active();
    if (key.active) {
        key.status = status();
        key.spectators = shown_.spectators;
        protocol::JsonText fields(key.fields);
        game_->write_live_fields(fields);
    }
    if (live_key_ && *live_key_ == key) return;
    json entry = nullptr;
    if (key.active) {
        json players = json::array();
        for (const Member& m : options_.seats) players.push_back(m.name);
        entry = json::parse(key.fields);
        entry["id"] = id();
        entry["game"] = std::string(game_->kind());
        entry["players"] = std::move(players);
        entry["status"] = key.status;
        entry["spectators"] = key.spectators;
        // The hub keeps the entry (it tracks live matches) but lists only public ones.
        if (is_private()) entry["private"] = true;
        json bots = json::array();
        for (std::size_t s = 0; s < options_.seats.size(); ++s)
            if (auto level = bot_level_of(options_.seats[s].id))
                bots.push_back({{"seat", s}, {"level", *level}});
        if (!bots.empty()) entry["bots"] = std::move(bots);
    }
    live_key_ = std::move(key);
    publish_(id(), entry);
}

void Match::presence_changed(const Presence& before, std::optional<std::uint64_t> skip_connection) {
    const Presence now = presence();
    if (now.connected != before.connected) {
        broadcast(skip_connection);
        return watch_away();  // who is away changed (the abandonment rule)
    }
    if (now.spectators == before.spectators) return;
    if (options_.spectators_interval.count() == 0) {
        broadcast(skip_connection);
        return;
    }
    // Spectators coming and going cost the players nothing noticeable: the count rides on the
    // next patch, or on one patch at most every spectators_interval when nothing else happens.
    if (spectators_due_) return;
    spectators_due_ = true;
    spectators_timer_.expires_after(options_.spectators_interval);
    spectators_timer_.async_wait([weak = weak_from_this()](const boost::system::error_code& ec) {
        auto self = weak.lock();
        if (!self || ec) return;
        self->spectators_due_ = false;
        if (!self->stopped_ && self->presence().spectators != self->shown_.spectators)
            self->broadcast();
    });
}

Match::Presence Match::presence() const {
    Presence p;
    for (int s = 0; s < options_.settings.players; ++s)
        // A computer seat is always there (its steps come from the match itself).
        p.connected.push_back(is_bot(s) ||
                              !viewers_[static_cast<std::size_t>(s)].connections.empty());
    // Spectators are people: several tabs of one player count once.
    std::set<std::string> watchers;
    for (const auto& [connection, who] : viewers_.back().connections)
        watchers.insert(who->player_id());
    p.spectators = static_cast<int>(watchers.size());
    return p;
}

Match::Viewer& Match::viewer_for(const std::string& player_id) {
    const int seat = seat_of(player_id);
    return seat >= 0 ? viewers_[static_cast<std::size_t>(seat)] : viewers_.back();
}

std::size_t Match::viewer_index(int viewer) const {
    return viewer >= 0 ? static_cast<std::size_t>(viewer) : viewers_.size() - 1;
}

}  // namespace server
