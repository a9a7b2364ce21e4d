#include "server/match.hpp"

#include <algorithm>
#include <boost/asio/post.hpp>
#include <set>
#include <stdexcept>

#include "engine/santorini/game.hpp"
#include "engine/santorini/view.hpp"
#include "server/rating/rate_match.hpp"
#include "server/replay.hpp"
#include "server/state_hash.hpp"

namespace server {

using nlohmann::json;
using protocol::ErrorCode;

namespace {

// A failed store is retried after this long (timeouts are the server's own records).
constexpr std::chrono::seconds store_retry{1};

json winners_json(const santorini::State& state) {
    json out = json::array();
    for (int s = 0; s < state.seat_count; ++s)
        if (state.winners >> s & 1u) out.push_back(s);
    return out;
}

json power_json(santorini::PowerId p) {
    if (p == santorini::PowerId::None) return nullptr;
    return std::string(santorini::power_info(p).key);
}

std::int64_t epoch_ms(WallTime t) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count();
}

rating::Rating rating_of(const RatingValue& v) {
    if (!v.rated) return rating::initial_rating();
    return rating::Rating{v.rating, v.deviation, v.volatility, v.last_rated_at_ms, v.games};
}

RatingValue value_of(const rating::Rating& r) {
    return RatingValue{
        true, r.rating, r.deviation, r.volatility, static_cast<int>(r.games), r.last_rated_at};
}

}  // namespace

std::string rating_pool(const protocol::LobbySettings& settings) {
    return std::string(rating::pool_name(
        settings.powers == "none" ? rating::Pool::Santorini : rating::Pool::SantoriniPowers));
}

std::variant<std::shared_ptr<Match>, std::string> Match::create(boost::asio::io_context& io,
                                                                MatchOptions options,
                                                                StepStore& store, Metrics& metrics,
                                                                MatchPublisher publish) {
    if (static_cast<int>(options.seats.size()) != options.settings.players)
        return "one player per seat is needed";
    auto settings = protocol::engine_settings(options.settings, options.seed, options.challenger);
    if (auto* error = std::get_if<std::string>(&settings)) return *error;
    auto game = santorini::new_game(std::get<santorini::Settings>(settings));
    if (!game.ok()) return game.error().message;
    std::shared_ptr<Match> match(
        new Match(io, std::move(options), std::move(*game), store, metrics, std::move(publish)));
    // Nobody else holds the match yet, so its first view is made here rather than on the strand.
    Match& m = *match;
    auto now = m.options_.now();
    m.clock_.switch_to(santorini::decider(m.state_), true, now);
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
    // Replayed times are placed so that the last stored step happens now: the clocks charge
    // what was charged before the crash and nothing for the time the server was down.
    const SteadyTime now = m.options_.now();
    const std::int64_t reference = steps.empty() ? created_at_ms : steps.back().at_ms;
    auto when = [&](std::int64_t at_ms) {
        return now - std::chrono::milliseconds(std::max<std::int64_t>(0, reference - at_ms));
    };
    m.clock_ = Clock(TimeControl::from_settings(m.options_.settings), m.options_.settings.players);
    m.clock_.switch_to(santorini::decider(m.state_), true, when(created_at_ms));
    for (const ReplayStep& stored : steps) {
        const std::string where = "step " + std::to_string(stored.number) + ": ";
        if (stored.number != m.records_ + 1) return where + "steps are not numbered 1, 2, ...";
        if (!m.active()) return where + "the match was already over";
        // The same reading of a record as the HTTP API's replays (server/replay.hpp).
        auto read = read_action(m.state_, stored.step_json);
        if (auto* why = std::get_if<std::string>(&read)) return where + *why;
        const RecordedAction& recorded = std::get<RecordedAction>(read);
        Action action;
        action.arrival = when(stored.at_ms);
        switch (recorded.kind) {
            case RecordedAction::Kind::Step: action.kind = Action::Kind::Step; break;
            case RecordedAction::Kind::Resign: action.kind = Action::Kind::Resign; break;
            case RecordedAction::Kind::Abort: action.kind = Action::Kind::Abort; break;
            case RecordedAction::Kind::Timeout: action.kind = Action::Kind::Timeout; break;
        }
        action.seat = recorded.seat;
        action.step = recorded.step;
        if (m.seat_of(stored.player_id) != action.seat && !stored.player_id.empty())
            return where + "played by " + stored.player_id + ", not by the seat that decides";
        Outcome outcome = m.outcome_of(action);
        const std::string hash = state_hash(outcome.state);
        if (!stored.state_hash.empty() && stored.state_hash != hash)
            return where + "the state's hash is " + hash + ", stored " + stored.state_hash;
        ++m.records_;
        m.apply(action, std::move(outcome), action.arrival);
    }
    m.version_ = static_cast<std::uint64_t>(epoch_ms(m.options_.wall_now()));
    m.first_view(now, m.options_.wall_now());
    return match;
}

void Match::first_view(SteadyTime now, WallTime wall) {
    if (active())
        santorini::legal_steps(state_, legal_);
    else
        legal_.clear();
    for (auto& v : viewers_) v.view = view_json(v, now, wall);
    publish();
    arm_timer();
}

std::vector<std::string> Match::powers_before_shared() const {
    std::vector<std::string> out;
    for (int s = 0; s < state_.seat_count; ++s) {
        const auto p = state_.seat(s).power;
        out.push_back(p == santorini::PowerId::None ? std::string()
                                                    : std::string(santorini::power_info(p).key));
    }
    return out;
}

std::string Match::state_hash_before_shared() const {
    return state_hash(state_);
}

Match::Match(boost::asio::io_context& io, MatchOptions options, santorini::State state,
             StepStore& store, Metrics& metrics, MatchPublisher publish)
    : options_(std::move(options)),
      store_(store),
      metrics_(metrics),
      publish_(std::move(publish)),
      strand_(boost::asio::make_strand(io)),
      timer_(strand_),
      state_(state),
      clock_(TimeControl::from_settings(options_.settings), options_.settings.players) {
    for (int s = 0; s < options_.settings.players; ++s)
        viewers_.push_back(Viewer{s, {}, {}, {}, {}});
    viewers_.push_back(Viewer{santorini::spectator, {}, {}, {}, {}});
}

Match::~Match() = default;

// ---- requests: posted to the strand ----

void Match::open(ParticipantPtr who, std::optional<std::uint64_t> since, protocol::Ref ref) {
    boost::asio::post(strand_, [self = shared_from_this(), who = std::move(who), since,
                                ref = std::move(ref)] { self->do_open(who, since, ref); });
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

void Match::check_clock() {
    boost::asio::post(strand_, [self = shared_from_this()] { self->on_timer(); });
}

void Match::shutdown() {
    boost::asio::post(strand_, [self = shared_from_this()] {
        self->stopped_ = true;
        self->timer_.cancel();
    });
}

// ---- on the strand ----

void Match::do_open(const ParticipantPtr& who, std::optional<std::uint64_t> since,
                    const protocol::Ref& ref) {
    if (stopped_)
        return reply_error(who, ErrorCode::Unavailable, "the server is shutting down", ref);
    Viewer& v = viewer_for(who->player_id());
    const auto connection = who->connection_id();
    Presence before = presence();
    v.connections[connection] = who;
    // The newcomer gets its catch-up below, so the presence patch skips it.
    if (presence() != before) broadcast(connection);
    if (since && *since == version_) {
        // Up to date: nothing to send.
    } else if (since && *since < version_ && !v.ring.empty() &&
               v.ring.front().first <= *since + 1) {
        for (const auto& [version, message] : v.ring)
            if (version > *since) who->deliver(message);
    } else {
        who->deliver(std::make_shared<const std::string>(
            protocol::snapshot_message(id(), version_, v.view)));
    }
    reply_ack(who, ref);
}

void Match::do_close(std::uint64_t connection_id, const ParticipantPtr& who,
                     const protocol::Ref& ref) {
    Presence before = presence();
    for (auto& v : viewers_) v.connections.erase(connection_id);
    if (presence() != before) broadcast();
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
    if (seat != santorini::decider(state_))
        return reply_error(who, ErrorCode::NotYourTurn, "it is not your turn", ref);
    auto parsed = protocol::step_from_json(state_, legal_, step);
    if (auto* why = std::get_if<std::string>(&parsed))
        return reply_error(who, ErrorCode::IllegalStep, *why, ref);
    const auto& chosen = std::get<santorini::Step>(parsed);
    Action action{
        Action::Kind::Step, seat, chosen, who, ref, arrival, std::chrono::steady_clock::now()};
    record(std::move(action), protocol::step_json(state_, chosen));
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
    if (state_.seat(seat).out)
        return reply_error(who, ErrorCode::WrongPhase, "you are already out of the game", ref);
    if (kind == Action::Kind::Abort && moved_)
        return reply_error(who, ErrorCode::WrongPhase,
                           "the first move has been played: resign instead", ref);
    json what = {{"kind", kind == Action::Kind::Abort ? "abort" : "resign"}, {"seat", seat}};
    record(Action{kind, seat, {}, who, ref, options_.now(), std::chrono::steady_clock::now()},
           std::move(what));
}

// ---- durability: nothing is applied or told before the store has it ----

void Match::record(Action action, json what) {
    pending_ = true;
    StepRecord rec;
    rec.match_id = id();
    rec.number = records_ + 1;
    rec.player_id = action.from ? action.from->player_id() : std::string();
    rec.step_json = what.dump();
    rec.at_ms = epoch_ms(options_.wall_now());
    Outcome outcome = outcome_of(action);
    rec.state_hash = state_hash(outcome.state);
    rec.finish = finish_of(outcome);
    pending_outcome_ = std::move(outcome);
    store_.append(std::move(rec), [self = shared_from_this(), action](bool stored) {
        // The store may answer on any thread.
        boost::asio::post(self->strand_,
                          [self, action, stored] { self->on_recorded(action, stored); });
    });
}

void Match::on_recorded(Action action, bool stored) {
    pending_ = false;
    std::optional<Outcome> outcome = std::move(pending_outcome_);
    pending_outcome_.reset();
    if (!stored && action.from) {
        reply_error(action.from, ErrorCode::Unavailable,
                    "the action could not be stored; try again", action.ref);
        return arm_timer();
    }
    if (!stored) {
        // The server's own record (a timeout) failed: try again shortly rather than at once.
        if (stopped_) return;
        timer_.expires_after(store_retry);
        timer_.async_wait([weak = weak_from_this()](const boost::system::error_code& ec) {
            if (auto self = weak.lock(); self && !ec) self->on_timer();
        });
        return;
    }
    ++records_;
    apply(action, std::move(*outcome), options_.now());
    broadcast();
    reply_ack(action.from, action.ref);
    if (action.kind == Action::Kind::Step)
        metrics_.step_latency(
            std::chrono::duration<double>(std::chrono::steady_clock::now() - action.received)
                .count());
    arm_timer();
}

Match::Outcome Match::outcome_of(const Action& action) const {
    Outcome o;
    o.state = state_;
    std::string reason;
    switch (action.kind) {
        case Action::Kind::Step:
            santorini::apply_step(o.state, action.step);
            reason = "win";
            break;
        case Action::Kind::Resign:
        case Action::Kind::Timeout:
            if (!santorini::in_play(state_)) {
                // Before play there is no game to lose: the match ends without a result.
                o.aborted = true;
                o.result = json{{"winners", json::array()}, {"reason", "aborted"}};
                return o;
            }
            santorini::concede(o.state, action.seat);
            reason = action.kind == Action::Kind::Resign ? "resign" : "timeout";
            break;
        case Action::Kind::Abort:
            o.aborted = true;
            return o;
    }
    for (int s = 0; s < o.state.seat_count; ++s)
        if (o.state.seat(s).out && !state_.seat(s).out) {
            o.newly_out.push_back(s);
            if (action.kind == Action::Kind::Step) reason = "no_turn";
        }
    if (o.state.over()) o.result = {{"winners", winners_json(o.state)}, {"reason", reason}};
    return o;
}

std::optional<MatchFinish> Match::finish_of(const Outcome& o) const {
    if (!o.ends()) return std::nullopt;
    MatchFinish finish;
    finish.status = o.aborted ? "aborted" : "finished";
    finish.result_json = o.result.dump();
    finish.state_hash = state_hash(o.state);
    if (o.aborted) return finish;  // aborted matches are not rated (docs/ratings.md)
    // Finishing places (rate_match.hpp): the winners 1; then seats still in; then the seats
    // that went out, the last one first. In a team game the losing team shares place 2.
    std::vector<int> out = out_order_;
    out.insert(out.end(), o.newly_out.begin(), o.newly_out.end());
    const bool teams = o.state.side_count < o.state.seat_count;
    std::vector<rating::Seat> seats;
    int still_in = 0;
    for (int s = 0; s < o.state.seat_count; ++s)
        if (!(o.state.winners >> s & 1u) && std::find(out.begin(), out.end(), s) == out.end())
            ++still_in;
    for (int s = 0; s < o.state.seat_count; ++s) {
        rating::Seat seat;
        seat.player = options_.seats[static_cast<std::size_t>(s)].id;
        seat.side = teams ? o.state.seat(s).side : s;
        auto it = std::find(out.begin(), out.end(), s);
        if (o.state.winners >> s & 1u)
            seat.place = 1;
        else if (teams || it == out.end())
            seat.place = 2;
        else
            seat.place = 2 + still_in + static_cast<int>(out.end() - it - 1);
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
    const auto turn_before = state_.turn.number;
    if (action.kind == Action::Kind::Step) {
        for (auto& v : viewers_)
            v.history.push_back(santorini::step_text_for(state_, action.step, action.seat, v.seat));
        if (action.step.kind == santorini::StepKind::Move) moved_ = true;
        // The mover's time stops when its step arrived, not when the store answered.
        now = action.arrival;
    }
    out_order_.insert(out_order_.end(), outcome.newly_out.begin(), outcome.newly_out.end());
    state_ = outcome.state;
    if (outcome.aborted) {
        aborted_ = true;
        result_ = std::move(outcome.result);
        clock_.stop(now);
    } else if (state_.over()) {
        result_ = std::move(outcome.result);
        clock_.stop(now);
    } else {
        clock_.switch_to(santorini::decider(state_), state_.turn.number != turn_before, now);
    }
}

// ---- clocks ----

void Match::on_timer() {
    // While an action is being stored the state may be about to change; on_recorded re-arms.
    if (stopped_ || !active() || pending_) return;
    auto now = options_.now();
    if (!clock_.expired(now)) return arm_timer();
    const int seat = clock_.running();
    record(
        Action{Action::Kind::Timeout, seat, {}, nullptr, {}, now, std::chrono::steady_clock::now()},
        json{{"kind", "timeout"}, {"seat", seat}});
}

void Match::arm_timer() {
    auto at = clock_.expiry();
    if (stopped_ || !active() || !at) {
        timer_.cancel();
        return;
    }
    timer_.expires_after(std::max(SteadyTime::duration::zero(), *at - options_.now()));
    timer_.async_wait([weak = weak_from_this()](const boost::system::error_code& ec) {
        if (auto self = weak.lock(); self && !ec) self->on_timer();
    });
}

// ---- views ----

void Match::broadcast(std::optional<std::uint64_t> skip_connection) {
    ++version_;
    const auto now = options_.now();
    const auto wall = options_.wall_now();
    if (active())
        santorini::legal_steps(state_, legal_);
    else
        legal_.clear();
    for (auto& v : viewers_) {
        json next = view_json(v, now, wall);
        // Every viewer gets every version, an empty patch when nothing it sees changed, so its
        // versions have no gaps.
        auto message = std::make_shared<const std::string>(
            protocol::patch_message(id(), version_, protocol::diff(v.view, next)));
        v.view = std::move(next);
        v.ring.emplace_back(version_, message);
        while (v.ring.size() > options_.history) v.ring.pop_front();
        for (const auto& [connection, who] : v.connections)
            if (connection != skip_connection) who->deliver(message);
    }
    publish();
}

json Match::view_json(const Viewer& viewer, SteadyTime now, WallTime wall) const {
    const int seat = viewer.seat;
    const santorini::State seen = santorini::view_for(state_, seat);
    const Presence p = presence();
    json seats = json::array();
    for (int s = 0; s < options_.settings.players; ++s) {
        const Member& m = options_.seats[static_cast<std::size_t>(s)];
        seats.push_back(
            {{"seat", s},
             {"player", {{"id", m.id}, {"name", m.name}}},
             {"power", power_json(seen.seat(s).power)},
             {"side", seen.seat(s).side},
             {"out", seen.seat(s).out},
             {"connected", static_cast<bool>(p.connected[static_cast<std::size_t>(s)])}});
    }
    const bool decides = active() && seat >= 0 && seat == santorini::decider(state_);
    return {{"match", id()},
            {"game", "santorini"},
            {"status", status()},
            {"seats", std::move(seats)},
            {"you", seat >= 0 ? json(seat) : json(nullptr)},
            {"spectators", p.spectators},
            {"clock", clock_.to_json(now, wall)},
            {"result", result_},
            {"history", viewer.history},
            {"state", protocol::state_json(seen, decides ? &legal_ : nullptr)}};
}

void Match::publish() {
    json entry = live_entry();
    if (published_ && *published_ == entry) return;
    published_ = entry;
    publish_(id(), entry);
}

void Match::spectator_view(std::function<void(json view, std::uint64_t version)> done) {
    boost::asio::post(strand_, [self = shared_from_this(), done = std::move(done)] {
        done(self->viewers_.back().view, self->version_);
    });
}

json Match::live_entry() const {
    if (!active()) return nullptr;
    json players = json::array();
    json powers = json::array();
    for (int s = 0; s < options_.settings.players; ++s) {
        players.push_back(options_.seats[static_cast<std::size_t>(s)].name);
        powers.push_back(power_json(state_.seat(s).power));
    }
    return {{"id", id()},
            {"players", std::move(players)},
            {"powers", std::move(powers)},
            {"status", status()},
            {"spectators", presence().spectators}};
}

Match::Presence Match::presence() const {
    Presence p;
    for (int s = 0; s < options_.settings.players; ++s)
        p.connected.push_back(!viewers_[static_cast<std::size_t>(s)].connections.empty());
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

int Match::seat_of(const std::string& player_id) const {
    for (std::size_t s = 0; s < options_.seats.size(); ++s)
        if (options_.seats[s].id == player_id) return static_cast<int>(s);
    return -1;
}

std::string Match::status() const {
    return aborted_ ? "aborted" : protocol::status_name(state_);
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
