#include "server/match/match.hpp"

#include <algorithm>
#include <boost/asio/post.hpp>
#include <charconv>
#include <set>
#include <stdexcept>

#include "protocol/games.hpp"
#include "protocol/json_text.hpp"
#include "server/app/ids.hpp"
#include "server/bots/bot_players.hpp"
#include "server/rating/rate_match.hpp"
#include "server/store/token_hash.hpp"
#include "server/time/epoch_ms.hpp"

namespace server {

using nlohmann::json;
using protocol::ErrorCode;

namespace {

// A failed store is retried after this long (timeouts are the server's own records).
constexpr std::chrono::seconds store_retry{1};

json winners_json(const protocol::Game& game) {
    json out = json::array();
    for (int s = 0; s < game.seat_count(); ++s)
        if (game.winners() >> s & 1u) out.push_back(s);
    return out;
}

rating::Rating rating_of(const RatingValue& v) {
    if (!v.rated) return rating::initial_rating();
    return rating::Rating{v.rating, v.deviation, v.volatility, v.last_rated_at_ms, v.games};
}

RatingValue value_of(const rating::Rating& r) {
    return RatingValue{
        true, r.rating, r.deviation, r.volatility, static_cast<int>(r.games), r.last_rated_at};
}

// A record the server writes for an event: {"kind":"resign","seat":1}.
std::string event_record(std::string_view kind, int seat) {
    std::string out;
    protocol::JsonText(out)
        .begin_object()
        .key("kind")
        .string(kind)
        .key("seat")
        .number(seat)
        .end_object();
    return out;
}

}  // namespace

std::string rating_pool(const protocol::LobbySettings& settings) {
    if (settings.game == "splendor") return std::string(rating::pool_name(rating::Pool::Splendor));
    return std::string(rating::pool_name(
        settings.powers == "none" ? rating::Pool::Santorini : rating::Pool::SantoriniPowers));
}

std::variant<std::shared_ptr<Match>, std::string> Match::create(boost::asio::io_context& io,
                                                                MatchOptions options,
                                                                StepStore& store, Metrics& metrics,
                                                                MatchPublisher publish) {
    if (static_cast<int>(options.seats.size()) != options.settings.players)
        return "one player per seat is needed";
    auto game = protocol::start_game(options.settings, options.seed, options.challenger);
    if (auto* error = std::get_if<std::string>(&game)) return *error;
    std::shared_ptr<Match> match(new Match(
        io, std::move(options), std::get<std::unique_ptr<protocol::Game>>(std::move(game)), store,
        metrics, std::move(publish)));
    // Nobody else holds the match yet, so its first view is made here rather than on the strand.
    Match& m = *match;
    auto now = m.options_.now();
    m.clock_.switch_to(m.clock_seat(), true, now);
    m.first_view(now, m.options_.wall_now());
    return match;
}

std::variant<std::shared_ptr<Match>, std::string> Match::restore(
    boost::asio::io_context& io, MatchOptions options, const std::vector<ReplayStep>& steps,
    std::int64_t created_at_ms, StepStore& store, Metrics& metrics, MatchPublisher publish) {
    auto created = create(io, std::move(options), store, metrics, std::move(publish));
    if (auto* error = std::get_if<std::string>(&created)) return *error;
    auto match = std::get<std::shared_ptr<Match>>(std::move(created));
    Match& m = *match;
    m.timer_.cancel();
    m.abandon_timer_.cancel();
    // Replayed times are placed so that the last stored step happens now: the clocks charge
    // what was charged before the crash and nothing for the time the server was down.
    const SteadyTime now = m.options_.now();
    const std::int64_t reference = steps.empty() ? created_at_ms : steps.back().at_ms;
    auto when = [&](std::int64_t at_ms) {
        return now - std::chrono::milliseconds(std::max<std::int64_t>(0, reference - at_ms));
    };
    m.clock_ = Clock(TimeControl::from_settings(m.options_.settings), m.options_.settings.players);
    m.clock_.switch_to(m.clock_seat(), true, when(created_at_ms));
    for (const ReplayStep& stored : steps) {
        const std::string where = "step " + std::to_string(stored.number) + ": ";
        if (stored.number != m.records_ + 1) return where + "steps are not numbered 1, 2, ...";
        if (!m.active()) return where + "the match was already over";
        // A record is an event the server wrote ({"kind":"resign","seat":n}) or a step in the
        // game's own JSON, played by whoever decided then (server/match/replay.hpp reads them alike).
        const json record = json::parse(stored.step_json, nullptr, false);
        if (!record.is_object()) return where + "the record is not a JSON object";
        const std::string kind = record.value("kind", std::string());
        Action action;
        action.arrival = when(stored.at_ms);
        Outcome outcome;
        if (kind == "resign" || kind == "abort" || kind == "timeout" || kind == "abandon") {
            const auto seat = record.find("seat");
            if (seat == record.end() || !seat->is_number_integer() || seat->get<int>() < 0 ||
                seat->get<int>() >= m.game_->seat_count())
                return where + "an event without a valid seat";
            action.kind = kind == "resign"    ? Action::Kind::Resign
                          : kind == "abort"   ? Action::Kind::Abort
                          : kind == "abandon" ? Action::Kind::Abandon
                                              : Action::Kind::Timeout;
            action.seat = seat->get<int>();
            outcome = m.event_outcome(action);
        } else {
            action.seat = m.game_->decider();
            outcome.game = m.game_->clone();
            auto played = outcome.game->play(record);
            if (auto* refused = std::get_if<protocol::StepRefusal>(&played))
                return where + refused->why;
            outcome.lines = std::move(std::get<protocol::Played>(played).lines);
            m.settle(outcome, "win");
        }
        if (m.seat_of(stored.player_id) != action.seat && !stored.player_id.empty())
            return where + "played by " + stored.player_id + ", not by the seat that decides";
        const std::string hash = (outcome.game ? *outcome.game : *m.game_).state_hash();
        if (!stored.state_hash.empty() && stored.state_hash != hash)
            return where + "the state's hash is " + hash + ", stored " + stored.state_hash;
        ++m.records_;
        m.apply(action, std::move(outcome), action.arrival);
    }
    if (m.active() && !m.options_.ended_as.is_null()) {
        m.aborted_ = true;
        m.result_ = m.options_.ended_as;
        m.clock_.stop(now);
    }
    m.version_ = static_cast<std::uint64_t>(epoch_ms(m.options_.wall_now()));
    m.first_view(now, m.options_.wall_now());
    return match;
}

void Match::first_view(SteadyTime now, WallTime wall) {
    line_added_ = false;  // a restored match's history is in its snapshot, not in a patch
    for (auto& v : viewers_) v.view = game_->view(v.seat, !aborted_);
    note_away();
    shown_ = shown(now, wall);
    publish_entry();
    arm_timer();
    watch_away();
}

json Match::live_fields_before_shared() const {
    return game_->live_fields();
}

std::string Match::state_hash_before_shared() const {
    return game_->state_hash();
}

Match::Match(boost::asio::io_context& io, MatchOptions options,
             std::unique_ptr<protocol::Game> game, StepStore& store, Metrics& metrics,
             MatchPublisher publish)
    : options_(std::move(options)),
      store_(store),
      metrics_(metrics),
      publish_(std::move(publish)),
      strand_(boost::asio::make_strand(io)),
      timer_(strand_),
      spectators_timer_(strand_),
      game_(std::move(game)),
      kind_(game_->kind()),
      clock_(TimeControl::from_settings(options_.settings), options_.settings.players),
      abandon_timer_(strand_),
      bot_timer_(strand_),
      chat_buckets_(60'000.0 / static_cast<double>(std::max<std::int64_t>(1, options_.chat_every.count())),
                    options_.chat_burst, 1024) {
    viewers_.resize(static_cast<std::size_t>(options_.settings.players) + 1);
    for (int s = 0; s < options_.settings.players; ++s)
        viewers_[static_cast<std::size_t>(s)].seat = s;
    viewers_.back().seat = protocol::spectators;
    away_since_.resize(static_cast<std::size_t>(options_.settings.players));
    moved_.resize(static_cast<std::size_t>(options_.settings.players));
    make_bot_players();
    for (const StoredChatLine& line : options_.chat) keep_chat(line);
    options_.chat.clear();
}

Match::~Match() = default;

// ---- requests: posted to the strand ----

void Match::open(ParticipantPtr who, std::optional<std::uint64_t> since, protocol::Ref ref,
                 std::string code) {
    boost::asio::post(strand_, [self = shared_from_this(), who = std::move(who), since,
                                ref = std::move(ref), code = std::move(code)] {
        self->do_open(who, since, code, ref);
    });
}

bool Match::may_watch(const std::string& player, std::string_view code) const {
    if (!is_private() || seat_of(player) >= 0) return true;
    // Compared as hashes of the normalized code: the match keeps only the hash (so does its
    // stored row), and a code typed in lower case is the same code.
    const std::string normalized = normalize_invite_code(code);
    return !normalized.empty() && store::token_sha256(normalized) == options_.invite_sha256;
}

void Match::close(ParticipantPtr who, protocol::Ref ref) {
    boost::asio::post(strand_,
                      [self = shared_from_this(), who = std::move(who), ref = std::move(ref)] {
                          self->do_close(who->connection_id(), who, ref);
                      });
}

void Match::remove(std::uint64_t connection_id) {
    boost::asio::post(strand_, [self = shared_from_this(), connection_id] {
        self->do_close(connection_id, nullptr, {});
    });
}

void Match::step(ParticipantPtr who, nlohmann::json step, protocol::Ref ref) {
    auto arrival = options_.now();
    boost::asio::post(strand_,
                      [self = shared_from_this(), who = std::move(who), step = std::move(step),
                       ref = std::move(ref), arrival] { self->do_step(who, step, ref, arrival); });
}

void Match::resign(ParticipantPtr who, protocol::Ref ref) {
    boost::asio::post(strand_,
                      [self = shared_from_this(), who = std::move(who), ref = std::move(ref)] {
                          self->do_event(Action::Kind::Resign, who, ref);
                      });
}

void Match::abort(ParticipantPtr who, protocol::Ref ref) {
    boost::asio::post(strand_,
                      [self = shared_from_this(), who = std::move(who), ref = std::move(ref)] {
                          self->do_event(Action::Kind::Abort, who, ref);
                      });
}

void Match::spectator_view(std::function<void(json view, std::uint64_t version)> done) {
    boost::asio::post(strand_, [self = shared_from_this(), done = std::move(done)] {
        std::string text;
        protocol::JsonText out(text);
        self->write_view(self->viewers_.back(), out);
        done(json::parse(text), self->version_);
    });
}

void Match::check_clock() {
    boost::asio::post(strand_, [self = shared_from_this()] { self->on_timer(); });
}

void Match::shutdown() {
    boost::asio::post(strand_, [self = shared_from_this()] { self->stop(); });
}

void Match::lost() {
    boost::asio::post(strand_, [self = shared_from_this()] {
        self->stop();
        std::vector<ParticipantPtr> open;
        for (Viewer& v : self->viewers_) {
            for (auto& [connection, who] : v.connections) open.push_back(std::move(who));
            v.connections.clear();
        }
        for (const auto& who : open) who->restart();
    });
}

void Match::stop() {
    stopped_ = true;
    timer_.cancel();
    abandon_timer_.cancel();
    bot_timer_.cancel();
    spectators_timer_.cancel();
}

// ---- on the strand ----

void Match::do_open(const ParticipantPtr& who, std::optional<std::uint64_t> since,
                    const std::string& code, const protocol::Ref& ref) {
    if (stopped_)
        return reply_error(who, ErrorCode::Unavailable, "the server is shutting down", ref);
    if (!may_watch(who->player_id(), code))
        return reply_error(who, ErrorCode::NotAuthorized,
                           "this match is private: open it with its invite code", ref);
    Viewer& v = viewer_for(who->player_id());
    const auto connection = who->connection_id();
    Presence before = presence();
    v.connections[connection] = who;
    // The newcomer gets its catch-up below, so the presence patch skips it.
    presence_changed(before, connection);
    if (since && *since == version_) {
        // Up to date: nothing to send.
    } else if (since && *since < version_ && !v.ring.empty() && v.ring_first <= *since + 1) {
        resume(v, *since, who);
    } else {
        who->deliver(std::make_shared<const std::string>(snapshot(v)));
    }
    reply_ack(who, ref);
}

void Match::do_close(std::uint64_t connection_id, const ParticipantPtr& who,
                     const protocol::Ref& ref) {
    Presence before = presence();
    for (auto& v : viewers_) v.connections.erase(connection_id);
    lapse_rematch(before);
    presence_changed(before, std::nullopt);
    reply_ack(who, ref);
}

void Match::do_step(const ParticipantPtr& who, const json& step, const protocol::Ref& ref,
                    SteadyTime arrival) {
    if (stopped_)
        return reply_error(who, ErrorCode::Unavailable, "the server is shutting down", ref);
    if (!active()) return reply_error(who, ErrorCode::WrongPhase, "the match is over", ref);
    // A step that arrives after the decider's time ran out is too late, even if the timer has
    // not fired yet: settle the timeout first.
    if (!pending_ && clock_.expired(arrival)) on_timer();
    if (pending_)
        return reply_error(who, ErrorCode::Busy, "the previous action is still being recorded",
                           ref);
    const int seat = seat_of(who->player_id());
    if (seat < 0)
        return reply_error(who, ErrorCode::NotAuthorized, "only players of this match may play",
                           ref);
    if (seat != game_->decider())
        return reply_error(who, ErrorCode::NotYourTurn, "it is not your turn", ref);
    Outcome outcome;
    outcome.game = game_->clone();
    // The one judgement of the step: the game says malformed, illegal or played.
    auto played = outcome.game->play(step);
    if (auto* refused = std::get_if<protocol::StepRefusal>(&played)) {
        if (refused->kind == protocol::StepRefusal::Kind::Malformed)
            return reply_error(who, ErrorCode::InvalidField, "invalid field 'step': " + refused->why,
                               ref);
        return reply_error(who, ErrorCode::IllegalStep, refused->why, ref);
    }
    auto& p = std::get<protocol::Played>(played);
    outcome.lines = std::move(p.lines);
    settle(outcome, "win");
    Action action{Action::Kind::Step, seat, who, ref, arrival, std::chrono::steady_clock::now()};
    record(std::move(action), std::move(p.record), std::move(outcome), /*last=*/true);
}

void Match::do_event(Action::Kind kind, const ParticipantPtr& who, const protocol::Ref& ref) {
    if (stopped_)
        return reply_error(who, ErrorCode::Unavailable, "the server is shutting down", ref);
    if (!active()) return reply_error(who, ErrorCode::WrongPhase, "the match is over", ref);
    const int seat = seat_of(who->player_id());
    if (seat < 0)
        return reply_error(who, ErrorCode::NotAuthorized, "only players of this match may do that",
                           ref);
    if (!pending_ && clock_.expired(options_.now())) on_timer();  // a flag that fell comes first
    if (pending_)
        return reply_error(who, ErrorCode::Busy, "the previous action is still being recorded",
                           ref);
    if (game_->out(seat))
        return reply_error(who, ErrorCode::WrongPhase, "you are already out of the game", ref);
    if (kind == Action::Kind::Abort && game_->committed())
        return reply_error(who, ErrorCode::WrongPhase,
                           "the first move has been played: resign instead", ref);
    Action action{kind, seat, who, ref, options_.now(), std::chrono::steady_clock::now()};
    Outcome outcome = event_outcome(action);
    record(std::move(action), event_record(kind == Action::Kind::Abort ? "abort" : "resign", seat),
           std::move(outcome));
}

// ---- durability: nothing is applied or told before the store has it ----

void Match::record(Action action, std::string what, Outcome outcome, bool last) {
    StepRecord rec;
    rec.match_id = id();
    rec.number = records_ + 1;
    // An abandonment is the server's record even when a player claimed it sooner.
    rec.player_id = action.from && action.kind != Action::Kind::Abandon ? action.from->player_id()
                                                                        : std::string();
    rec.step_json = std::move(what);
    rec.at_ms = epoch_ms(options_.wall_now());
    rec.state_hash = (outcome.game ? *outcome.game : *game_).state_hash();
    rec.finish = finish_of(outcome);
    pending_.emplace(Pending{std::move(action), std::move(outcome)});
    appending_ = last;
    store_.append(std::move(rec), [self = shared_from_this()](bool stored) {
        // appending_ is read only on this strand, where record() writes it.
        if (self->strand_.running_in_this_thread() && self->appending_) {
            self->answered_ = stored;
            return;
        }
        // The store may answer on any thread, or later on this one.
        boost::asio::post(self->strand_, [self, stored] { self->on_recorded(stored); });
    });
    appending_ = false;
    // The memory store answers at once: without a strand turn of its own for the answer, a
    // step costs one hand-over between threads less (docs/benchmarks.md). Callers that go on
    // after record() (on_timer inside do_step, say) must see the action still pending, so only
    // a last call applies here.
    if (answered_) {
        const bool stored = *answered_;
        answered_.reset();
        on_recorded(stored);
    }
}

void Match::on_recorded(bool stored) {
    Pending pending = std::move(*pending_);
    pending_.reset();
    const Action& action = pending.action;
    if (!stored && action.from) {
        reply_error(action.from, ErrorCode::Unavailable,
                    "the action could not be stored; try again", action.ref);
        arm_timer();
        watch_away();
        if (is_bot(action.seat)) {
            // A computer's step that was not stored is decided again, after a pause like the
            // server's own records (the store may be down for a while).
            bot_timer_.expires_after(store_retry);
            bot_timer_.async_wait([weak = weak_from_this()](const boost::system::error_code& ec) {
                if (auto self = weak.lock(); self && !ec) self->bot_turn();
            });
        }
        return;
    }
    if (!stored) {
        // The server's own record (a timeout) failed: try again shortly rather than at once.
        if (stopped_) return;
        if (action.kind == Action::Kind::Abandon) return watch_away(store_retry);
        timer_.expires_after(store_retry);
        timer_.async_wait([weak = weak_from_this()](const boost::system::error_code& ec) {
            if (auto self = weak.lock(); self && !ec) self->on_timer();
        });
        return;
    }
    ++records_;
    apply(action, std::move(pending.outcome), options_.now());
    const bool in_patch = action.from && action.ref && action.from->ack_in_patch();
    if (!broadcast(std::nullopt, in_patch ? &action : nullptr)) reply_ack(action.from, action.ref);
    if (action.kind == Action::Kind::Step)
        metrics_.step_latency(
            std::chrono::duration<double>(std::chrono::steady_clock::now() - action.received)
                .count());
    arm_timer();
    watch_away();
    bot_turn();
}

Match::Outcome Match::event_outcome(const Action& action) const {
    Outcome o;
    if (action.kind == Action::Kind::Abort) {
        o.aborted = true;
        return o;
    }
    if (!game_->in_play() || (action.kind == Action::Kind::Abandon && !everyone_moved())) {
        // Before play there is no game to lose: the match ends without a result. Nor is
        // there before every seat has moved once, for a seat that never came to play.
        o.aborted = true;
        o.result = json{{"winners", json::array()}, {"reason", "aborted"}};
        return o;
    }
    o.game = game_->clone();
    o.game->concede(action.seat);
    settle(o, action.kind == Action::Kind::Resign    ? "resign"
              : action.kind == Action::Kind::Abandon ? "abandoned"
                                                     : "timeout");
    return o;
}

void Match::settle(Outcome& o, std::string_view reason) const {
    const bool step = reason == "win";
    for (int s = 0; s < o.game->seat_count(); ++s)
        if (o.game->out(s) && !game_->out(s)) {
            o.newly_out.push_back(s);
            if (step) reason = "no_turn";
        }
    if (o.game->over()) o.result = {{"winners", winners_json(*o.game)}, {"reason", reason}};
}

std::optional<MatchFinish> Match::finish_of(const Outcome& o) const {
    if (!o.ends()) return std::nullopt;
    MatchFinish finish;
    finish.status = o.aborted ? "aborted" : "finished";
    finish.result_json = o.result.dump();
    const protocol::Game& end = o.game ? *o.game : *game_;
    finish.state_hash = end.state_hash();
    // Aborted and casual matches are not rated (docs/ratings.md).
    if (o.aborted || !options_.settings.rated) return finish;
    // Finishing places (rate_match.hpp): the winners 1; then seats still in, by the game's own
    // ranking where it has one (Splendor: points, then fewest cards) or all 2; then the seats
    // that went out, the last one first. In a team game the losing team shares place 2.
    std::vector<int> out = out_order_;
    out.insert(out.end(), o.newly_out.begin(), o.newly_out.end());
    const std::vector<int> ranked = end.places();
    bool teams = false;
    for (int s = 0; s < end.seat_count(); ++s)
        if (end.side(s) != s) teams = true;
    std::vector<rating::Seat> seats;
    int after_in = 2;  // the first place of the seats that went out
    for (int s = 0; s < end.seat_count(); ++s)
        if (!(end.winners() >> s & 1u) && std::find(out.begin(), out.end(), s) == out.end())
            after_in = ranked.empty() ? after_in + 1
                                      : std::max(after_in, ranked[static_cast<std::size_t>(s)] + 1);
    for (int s = 0; s < end.seat_count(); ++s) {
        rating::Seat seat;
        seat.player = options_.seats[static_cast<std::size_t>(s)].id;
        seat.side = teams ? end.side(s) : s;
        auto it = std::find(out.begin(), out.end(), s);
        if (end.winners() >> s & 1u)
            seat.place = 1;
        else if (teams || it == out.end())
            seat.place = ranked.empty() ? 2 : ranked[static_cast<std::size_t>(s)];
        else
            seat.place = after_in + static_cast<int>(out.end() - it - 1);
        seats.push_back(std::move(seat));
    }
    // Seats that cannot be rated (one player in two seats, say) end the match unrated rather
    // than making its last step impossible to store.
    const auto trial =
        rating::rate_match(seats, rating::Ending::Finished, epoch_ms(options_.wall_now()));
    if (std::holds_alternative<std::string>(trial)) return finish;
    finish.pool = rating_pool(options_.settings);
    finish.rate = [seats](const std::vector<RatingValue>& before, std::int64_t now_ms) {
        std::vector<rating::Seat> rated = seats;
        if (before.size() != rated.size()) throw std::runtime_error("one rating per seat needed");
        for (std::size_t i = 0; i < rated.size(); ++i) rated[i].rating = rating_of(before[i]);
        auto after = rating::rate_match(rated, rating::Ending::Finished, now_ms);
        if (auto* why = std::get_if<std::string>(&after)) throw std::runtime_error(*why);
        std::vector<RatingValue> out;
        for (const auto& r : std::get<std::vector<rating::Rating>>(after))
            out.push_back(value_of(r));
        return out;
    };
    return finish;
}

void Match::apply(const Action& action, Outcome outcome, SteadyTime now) {
    const auto turns_before = game_->turns();
    if (action.kind == Action::Kind::Step && game_->in_play() && action.seat >= 0)
        moved_[static_cast<std::size_t>(action.seat)] = true;
    if (action.kind == Action::Kind::Step) {
        // One line per step: kept once when every viewer reads it alike.
        const auto& lines = outcome.lines;
        if (std::all_of(lines.begin(), lines.end(),
                        [&](const std::string& l) { return l == lines.front(); })) {
            history_.text += lines.front();
            history_.text += '\n';
            last_line_ = lines.front();
        } else {
            history_.text += '\n';
            history_.own.emplace(history_.lines, lines);
        }
        ++history_.lines;
        line_added_ = true;
        // The mover's time stops when its step arrived, not when the store answered.
        now = action.arrival;
    }
    out_order_.insert(out_order_.end(), outcome.newly_out.begin(), outcome.newly_out.end());
    if (outcome.game) game_ = std::move(outcome.game);
    if (outcome.aborted) {
        aborted_ = true;
        result_ = std::move(outcome.result);
        clock_.stop(now);
    } else if (game_->over()) {
        result_ = std::move(outcome.result);
        clock_.stop(now);
    } else {
        clock_.switch_to(clock_seat(), game_->turns() != turns_before, now);
    }
}

// ---- clocks ----

void Match::on_timer() {
    // While an action is being stored the state may be about to change; on_recorded re-arms.
    if (stopped_ || !active() || pending_) return;
    auto now = options_.now();
    if (!clock_.expired(now)) return arm_timer();
    const int seat = clock_.running();
    Action action{Action::Kind::Timeout, seat, nullptr, {}, now, std::chrono::steady_clock::now()};
    Outcome outcome = event_outcome(action);
    record(std::move(action), event_record("timeout", seat), std::move(outcome));
}

// ---- seats and replies ----

int Match::seat_of(const std::string& player_id) const {
    for (std::size_t s = 0; s < options_.seats.size(); ++s)
        if (options_.seats[s].id == player_id) return static_cast<int>(s);
    return -1;
}

std::string Match::status() const {
    return aborted_ ? "aborted" : std::string(game_->status());
}

void Match::reply_error(const ParticipantPtr& who, ErrorCode code, std::string_view message,
                        const protocol::Ref& ref) {
    metrics_.rejected(code);
    if (who)
        who->deliver(
            std::make_shared<const std::string>(protocol::error_message(code, message, ref)));
}

void Match::reply_ack(const ParticipantPtr& who, const protocol::Ref& ref) {
    if (who && ref) who->deliver(std::make_shared<const std::string>(protocol::ack_message(ref)));
}

}  // namespace server
