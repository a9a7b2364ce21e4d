// A match's computer seats (docs/bot.md, "In the server"). When a computer seat decides, the
// match captures that seat's view on its strand (Game::think copies it), the pool searches off
// every strand, and the step comes back to the strand, where it takes the path of any person's
// step: do_step matches it against the legal list, stores it, applies it and broadcasts it. A
// decision made for a position the match has left (an undo, a resign, a timeout, a step stored
// meanwhile) is dropped; a search that throws, or names a step that is not legal, is replaced by
// the first legal step, so a faulty bot can slow a game but never stop it or the server.

#include <atomic>
#include <boost/asio/post.hpp>
#include <exception>

#include "server/bots/bot_players.hpp"
#include "server/log/log.hpp"
#include "server/match/match.hpp"

namespace server {

using nlohmann::json;

namespace {

// When the pool's queue is full the turn is asked for again after this long.
constexpr std::chrono::milliseconds pool_full_retry{50};

// Who a computer seat's steps come from: replies to it (an ack, or an error that means a bot or
// server fault) are only logged.
class ComputerSeat final : public Participant {
  public:
    ComputerSeat(std::string match, std::string player)
        : match_(std::move(match)), player_(std::move(player)) {
        static std::atomic<std::uint64_t> next{std::uint64_t{1} << 62};
        id_ = next.fetch_add(1);
    }
    void deliver(std::shared_ptr<const std::string> message) override {
        spdlog::warn("event=bot_step_refused match={} player={} reply={}", match_, player_,
                     *message);
    }
    std::uint64_t connection_id() const override { return id_; }
    const std::string& player_id() const override { return player_; }

  private:
    std::string match_;
    std::string player_;
    std::uint64_t id_ = 0;
};

// SplitMix64's finalizer: the bot's seed for one decision, from the match's seed and the step
// number, so a game against the computer replays its choices (given no time cap cut a search).
std::uint64_t mix(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

}  // namespace

void Match::make_bot_players() {
    bot_players_.resize(options_.seats.size());
    for (std::size_t s = 0; s < options_.seats.size(); ++s)
        if (bot_level_of(options_.seats[s].id))
            bot_players_[s] = std::make_shared<ComputerSeat>(options_.id, options_.seats[s].id);
}

bool Match::is_bot(int seat) const {
    return seat >= 0 && static_cast<std::size_t>(seat) < options_.seats.size() &&
           bot_level_of(options_.seats[static_cast<std::size_t>(seat)].id).has_value();
}

void Match::wake_bots() {
    boost::asio::post(strand_, [self = shared_from_this()] {
        self->bots_awake_ = true;
        self->bot_turn();
    });
}

void Match::bot_turn() {
    if (!bots_awake_ || stopped_ || !active() || pending_ || !options_.bots.pool) return;
    const int seat = game_->decider();
    if (!is_bot(seat) || bot_asked_ == records_) return;
    const std::uint32_t number = records_;
    bot_asked_ = number;
    bot_asked_at_ = options_.now();
    const int level = *bot_level_of(options_.seats[static_cast<std::size_t>(seat)].id);
    std::unique_ptr<protocol::BotThinking> thinking;
    try {
        thinking = game_->think(seat, level, mix(options_.seed ^ mix(number)),
                                options_.bots.time_limit);
    } catch (const std::exception& e) {
        spdlog::error("event=bot_think_failed match={} seat={} error=\"{}\"", id(), seat, e.what());
    }
    if (!thinking) return on_bot_decision(number, seat, nullptr, true, 0);
    auto job = [weak = weak_from_this(), thinking = std::shared_ptr(std::move(thinking)), number,
                seat] {
        auto self = weak.lock();
        if (!self) return;  // the match is gone: nobody wants this decision
        const auto start = std::chrono::steady_clock::now();
        json step;
        bool failed = false;
        try {
            step = thinking->decide();
        } catch (const std::exception& e) {
            spdlog::error("event=bot_decide_failed match={} seat={} error=\"{}\"", self->id(), seat,
                          e.what());
            failed = true;
        } catch (...) {
            spdlog::error("event=bot_decide_failed match={} seat={} error=unknown", self->id(),
                          seat);
            failed = true;
        }
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        boost::asio::post(self->strand_, [self, number, seat, step = std::move(step), failed,
                                          seconds]() mutable {
            self->on_bot_decision(number, seat, std::move(step), failed, seconds);
        });
    };
    if (!options_.bots.pool->submit(std::move(job))) {
        // The pool is busy with other matches: this turn waits its turn, here, not on a thread.
        bot_asked_.reset();
        bot_timer_.expires_after(pool_full_retry);
        bot_timer_.async_wait([weak = weak_from_this()](const boost::system::error_code& ec) {
            if (auto self = weak.lock(); self && !ec) self->bot_turn();
        });
    }
}

void Match::on_bot_decision(std::uint32_t number, int seat, json step, bool failed,
                            double seconds) {
    if (bot_asked_ == number) bot_asked_.reset();
    if (stopped_ || !active() || number != records_ || game_->decider() != seat || pending_) {
        metrics_.bot_dropped();
        // A person's action being stored meanwhile: on_recorded asks again if it is still ours.
        return;
    }
    // The step must be legal here and now; if the search failed or named something else, the
    // first legal step keeps the game going.
    bool fallback = failed;
    if (!failed) {
        auto trial = game_->clone();
        auto played = trial->play(step);
        if (auto* refused = std::get_if<protocol::StepRefusal>(&played)) {
            spdlog::error("event=bot_step_illegal match={} seat={} step={} why=\"{}\"", id(), seat,
                          step.dump(), refused->why);
            fallback = true;
        }
    }
    if (fallback) {
        auto first = first_legal_step();
        if (!first) {
            spdlog::error("event=bot_no_legal_step match={} seat={}", id(), seat);
            return;  // the clock settles it
        }
        step = std::move(*first);
    }
    metrics_.bot_decision(seconds, fallback);
    const auto since_turn = options_.now() - bot_asked_at_;
    if (since_turn >= options_.bots.delay) return play_bot_step(number, seat, std::move(step));
    // A moment for people to see the move coming; the match may move on meanwhile.
    bot_asked_ = number;  // still this turn's decision: no second search while it waits
    bot_timer_.expires_after(options_.bots.delay - since_turn);
    bot_timer_.async_wait([weak = weak_from_this(), number, seat,
                           step = std::move(step)](const boost::system::error_code& ec) mutable {
        if (auto self = weak.lock(); self && !ec) {
            if (self->bot_asked_ == number) self->bot_asked_.reset();
            self->play_bot_step(number, seat, std::move(step));
        }
    });
}

void Match::play_bot_step(std::uint32_t number, int seat, json step) {
    if (stopped_ || !active() || number != records_ || game_->decider() != seat || pending_) {
        metrics_.bot_dropped();
        return bot_turn();
    }
    do_step(bot_players_[static_cast<std::size_t>(seat)], step, {}, options_.now());
}

std::optional<json> Match::first_legal_step() const {
    const int seat = game_->decider();
    if (seat < 0) return std::nullopt;
    auto view = game_->view(seat, true);
    std::string text;
    protocol::JsonText out(text);
    game_->write_state(*view, out);
    const json state = json::parse(text, nullptr, false);
    const auto legal = state.find("legal");
    if (legal == state.end() || !legal->is_array()) return std::nullopt;
    for (const json& s : *legal)
        if (s.value("kind", std::string()) != "undo") return s;  // never take back its own step
    return std::nullopt;
}

}  // namespace server
