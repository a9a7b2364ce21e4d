#include "protocol/splendor/game.hpp"

#include <cassert>
#include <cstdio>

#include "engine/bot/splendor_bot.hpp"
#include "engine/splendor/game.hpp"
#include "engine/splendor/state_hash.hpp"
#include "engine/splendor/view.hpp"
#include "protocol/decision.hpp"
#include "protocol/splendor/json.hpp"
#include "protocol/splendor/view.hpp"

namespace protocol {

namespace {

/// A viewer's view: the state as the engine projects it for that viewer, the seat that
/// decides, and whether the viewer is that seat (then the view carries the legal steps of the
/// game's state of `epoch`).
struct SplendorView final : GameView {
    splendor::View seen;
    int decider = -1;
    bool decides = false;
    std::uint32_t epoch = 0;
};

const SplendorView& as_view(const GameView& view) {
    return static_cast<const SplendorView&>(view);
}

}  // namespace

SplendorGame::SplendorGame(const splendor::State& state) : state_(state) {
    changed();
}

std::unique_ptr<Game> SplendorGame::clone() const {
    return std::make_unique<SplendorGame>(*this);
}

int SplendorGame::decider() const {
    return splendor::decider(state_);
}

std::vector<int> SplendorGame::places() const {
    if (!over()) return {};
    const auto by_seat = splendor::places(state_);
    return std::vector<int>(by_seat.begin(), by_seat.begin() + state_.players);
}

std::string_view SplendorGame::status() const {
    return over() ? "finished" : "playing";
}

std::string SplendorGame::state_hash() const {
    return splendor::state_hash(state_);
}

void SplendorGame::changed() {
    legal_.clear();
    if (!over()) {
        splendor::legal_steps(state_, legal_);
        if (undo_.available()) legal_.push_back(splendor::Step{.kind = splendor::StepKind::Undo});
    }
    ++epoch_;
}

std::variant<Played, StepRefusal> SplendorGame::play(const nlohmann::json& step) {
    auto parsed = step_from_json(legal_, step);
    if (auto* refused = std::get_if<StepRefusal>(&parsed)) return std::move(*refused);
    const splendor::Step chosen = std::get<splendor::Step>(parsed);
    Played played;
    JsonText record(played.record);
    write_step(chosen, record);
    played.lines = step_lines(state_, chosen, decider());
    // Spectators read every record whole: none names a secret. A blind reserve's names only
    // the deck's level; the card it drew is in the state, which the views hide.
    played.by_spectators = Readable::Whole;
    if (chosen.kind == splendor::StepKind::Undo) {
        state_ = undo_.take_back();  // listed only when available
    } else {
        const splendor::State before = state_;
        splendor::apply_step(state_, chosen);
        undo_.played(before, !splendor::closes_undo(before, chosen, state_));
    }
    committed_ = true;
    changed();
    return played;
}

std::optional<std::string> SplendorGame::concede(int seat) {
    if (auto why = splendor::concede(state_, seat)) return why;
    // Whoever went out, the states remembered still have that seat in: none may come back.
    undo_.clear();
    changed();
    return std::nullopt;
}

std::unique_ptr<GameView> SplendorGame::view(int viewer, bool deciding) const {
    auto v = std::make_unique<SplendorView>();
    v->seen = splendor::view_for(state_, viewer == revealed ? splendor::revealed
                                         : viewer < 0       ? splendor::spectator
                                                            : viewer);
    v->decider = decider();
    v->decides = deciding && viewer >= 0 && viewer == v->decider;
    v->epoch = epoch_;
    return v;
}

bool SplendorGame::same(const GameView& a, const GameView& b) const {
    const auto& x = as_view(a);
    const auto& y = as_view(b);
    return x.decides == y.decides && (!x.decides || x.epoch == y.epoch) && x.decider == y.decider &&
           x.seen == y.seen;
}

void SplendorGame::write_state(const GameView& view, JsonText& out) const {
    const auto& v = as_view(view);
    assert(!v.decides || v.epoch == epoch_);
    protocol::write_state(v.seen, v.decider, v.decides ? &legal_ : nullptr, out);
}

void SplendorGame::write_seat(const GameView& view, int seat, JsonText& out) const {
    const auto& s = as_view(view).seen.seats[static_cast<std::size_t>(seat)];
    out.key("out").boolean(s.out).key("points").number(s.points);
}

void SplendorGame::write_patch(const GameView& from_view, const GameView& to_view,
                               PatchText& patch) const {
    const auto& from = as_view(from_view);
    const auto& to = as_view(to_view);
    assert(!to.decides || to.epoch == epoch_);
    char path[48];
    for (int s = 0; s < to.seen.players; ++s) {
        const auto& a = from.seen.seats[static_cast<std::size_t>(s)];
        const auto& b = to.seen.seats[static_cast<std::size_t>(s)];
        if (a.out != b.out) {
            std::snprintf(path, sizeof path, "/seats/%d/out", s);
            patch.replace(path).boolean(b.out);
        }
        if (a.points != b.points) {
            std::snprintf(path, sizeof path, "/seats/%d/points", s);
            patch.replace(path).number(b.points);
        }
    }
    // The legal list of an older epoch is gone; it differs from today's, which is never empty
    // for the seat that decides, so an empty list stands in for it.
    static const splendor::StepList gone;
    const splendor::StepList* from_legal =
        from.decides ? (from.epoch == epoch_ ? &legal_ : &gone) : nullptr;
    write_state_patch(from.seen, from.decider, from_legal, to.seen, to.decider,
                      to.decides ? &legal_ : nullptr, "/state", patch);
}

std::unique_ptr<GameView> SplendorGame::undecided(const GameView& view) const {
    return undecided_view(as_view(view));
}

std::uint64_t SplendorGame::decision(const GameView& view) const {
    return decision_of(as_view(view));
}

void SplendorGame::write_decision_patch(std::uint64_t decision, const GameView& to,
                                  PatchText& patch) const {
    // The document is `to`'s but for its legal steps: the patch from such a view to `to`.
    write_patch(with_decision(as_view(to), decision), to, patch);
}

void SplendorGame::write_live_fields(JsonText& out) const {
    out.begin_object().key("points").begin_array();
    for (int s = 0; s < state_.players; ++s) out.number(state_.seat(s).points);
    out.end_array().end_object();
}

namespace {

// The seat's view is taken when the match asks (on its strand); the search runs later, anywhere.
class SplendorThinking final : public BotThinking {
  public:
    SplendorThinking(splendor::View view, int seat, splendor::bot::Options options)
        : view_(view), seat_(seat), options_(options) {}
    nlohmann::json decide() override { return step_json(splendor::bot::choose_step(view_, seat_, options_)); }

  private:
    splendor::View view_;
    int seat_;
    splendor::bot::Options options_;
};

}  // namespace

std::unique_ptr<BotThinking> SplendorGame::think(int seat, int level, std::uint64_t seed,
                                                 std::chrono::milliseconds time_limit) const {
    assert(seat == decider());
    return std::make_unique<SplendorThinking>(splendor::view_for(state_, seat), seat,
                                              splendor::bot::Options{level, seed, time_limit});
}

}  // namespace protocol
