#include "protocol/santorini/game.hpp"

#include <cassert>
#include <cstdio>

#include "engine/bot/santorini_bot.hpp"
#include "engine/santorini/game.hpp"
#include "engine/santorini/state_hash.hpp"
#include "engine/santorini/undo.hpp"
#include "engine/santorini/view.hpp"
#include "protocol/decision.hpp"
#include "protocol/santorini/json.hpp"
#include "protocol/santorini/names.hpp"
#include "protocol/santorini/view.hpp"

namespace protocol {

namespace {

/// A viewer's view: the state as the engine projects it for that viewer, and whether the
/// viewer decides (then the view carries the legal steps of the game's state of `epoch`).
struct SantoriniView final : GameView {
    /// Shared with the other views of the same projection (SantoriniGame::view): without
    /// hidden information every viewer of a match sees one state.
    std::shared_ptr<const santorini::State> seen;
    bool decides = false;
    std::uint32_t epoch = 0;
};

const SantoriniView& as_view(const GameView& view) {
    return static_cast<const SantoriniView&>(view);
}

}  // namespace

SantoriniGame::SantoriniGame(santorini::State state) : state_(state) {
    changed();
}

std::unique_ptr<Game> SantoriniGame::clone() const {
    return std::make_unique<SantoriniGame>(*this);
}

int SantoriniGame::decider() const {
    return santorini::decider(state_);
}

bool SantoriniGame::in_play() const {
    return santorini::in_play(state_);
}

std::string_view SantoriniGame::status() const {
    return status_key(state_.phase);
}

std::string SantoriniGame::state_hash() const {
    return santorini::state_hash(state_);
}

void SantoriniGame::changed() {
    legal_.clear();
    if (!state_.over()) {
        santorini::StepList legal;
        santorini::legal_steps(state_, legal);
        // Only the mover's own steps are remembered (play), so the decider is the one who
        // may take them back.
        if (undo_.available()) legal.push_back(santorini::Step::undo());
        legal_.assign(legal.begin(), legal.end());
    }
    legal_.shrink_to_fit();
    ++epoch_;
}

santorini::StepList SantoriniGame::legal_list() const {
    santorini::StepList list;
    for (const santorini::Step& step : legal_) list.push_back(step);
    return list;
}

std::variant<Played, StepRefusal> SantoriniGame::play(const nlohmann::json& step) {
    auto parsed = step_from_json(state_, legal_list(), step);
    if (auto* refused = std::get_if<StepRefusal>(&parsed)) return std::move(*refused);
    const santorini::Step chosen = std::get<santorini::Step>(parsed);
    const int actor = decider();
    Played played;
    JsonText record(played.record);
    write_step(state_, chosen, record);
    played.lines.reserve(static_cast<std::size_t>(state_.seat_count) + 1);
    if (chosen.kind == santorini::StepKind::Undo) {
        // Everyone reads that a step was taken back, nothing of what it was: the restored
        // views tell each viewer what it may know (a hidden move stays hidden).
        played.lines.assign(static_cast<std::size_t>(state_.seat_count) + 1, "undo");
        state_ = undo_.take_back();
        changed();
        return played;
    }
    for (int viewer = 0; viewer < state_.seat_count; ++viewer)
        played.lines.push_back(santorini::step_text_for(state_, chosen, actor, viewer));
    // The spectators' reading decides both their line and what a live replay shows them.
    const santorini::Reading by_spectators =
        santorini::reading_for(state_, chosen, actor, santorini::spectator);
    played.lines.push_back(santorini::step_text_as(chosen, by_spectators));
    switch (by_spectators) {
        case santorini::Reading::Whole: played.by_spectators = Readable::Whole; break;
        case santorini::Reading::Kind: played.by_spectators = Readable::Kind; break;
        case santorini::Reading::KindAndTarget: played.by_spectators = Readable::KindAndTarget; break;
    }
    if (chosen.kind == santorini::StepKind::Move) committed_ = true;
    const santorini::State before = state_;
    santorini::apply_step(state_, chosen);
    // Only the mover's steps in its own turn: an interrupting seat's (Gaea) closes the door.
    undo_.played(before, actor == before.turn.seat && !santorini::closes_undo(before, chosen, state_));
    changed();
    return played;
}

std::optional<std::string> SantoriniGame::concede(int seat) {
    if (auto why = santorini::concede(state_, seat)) return why;
    undo_.clear();  // the turn, or the game, is not the one the steps were played in
    changed();
    return std::nullopt;
}

std::unique_ptr<GameView> SantoriniGame::view(int viewer, bool deciding) const {
    auto v = std::make_unique<SantoriniView>();
    santorini::State seen = viewer == revealed ? santorini::revealed_view(state_)
                            : santorini::view_for(state_, viewer < 0 ? santorini::spectator : viewer);
    // A match keeps every viewer's last view: the same projection is kept once.
    if (!last_seen_ || !(*last_seen_ == seen)) last_seen_ = std::make_shared<const santorini::State>(seen);
    v->seen = last_seen_;
    v->decides = deciding && viewer >= 0 && viewer == decider();
    v->epoch = epoch_;
    return v;
}

bool SantoriniGame::same(const GameView& a, const GameView& b) const {
    const auto& x = as_view(a);
    const auto& y = as_view(b);
    return x.decides == y.decides && (!x.decides || x.epoch == y.epoch) &&
           (x.seen == y.seen || *x.seen == *y.seen);
}

void SantoriniGame::write_state(const GameView& view, JsonText& out) const {
    const auto& v = as_view(view);
    assert(!v.decides || v.epoch == epoch_);
    const santorini::StepList legal = v.decides ? legal_list() : santorini::StepList();
    protocol::write_state(*v.seen, v.decides ? &legal : nullptr, out);
}

void SantoriniGame::write_seat(const GameView& view, int seat, JsonText& out) const {
    const auto& s = as_view(view).seen->seat(seat);
    out.key("power");
    if (s.power == santorini::PowerId::None)
        out.null();
    else
        out.string(santorini::power_info(s.power).key);
    out.key("side").number(s.side).key("out").boolean(s.out);
}

void SantoriniGame::write_patch(const GameView& from_view, const GameView& to_view,
                                PatchText& patch) const {
    const auto& from = as_view(from_view);
    const auto& to = as_view(to_view);
    assert(!to.decides || to.epoch == epoch_);
    char path[48];
    for (int s = 0; s < to.seen->seat_count; ++s) {
        const auto& a = from.seen->seat(s);
        const auto& b = to.seen->seat(s);
        if (a.power != b.power) {
            std::snprintf(path, sizeof path, "/seats/%d/power", s);
            auto& value = patch.replace(path);
            if (b.power == santorini::PowerId::None)
                value.null();
            else
                value.string(santorini::power_info(b.power).key);
        }
        if (a.side != b.side) {
            std::snprintf(path, sizeof path, "/seats/%d/side", s);
            patch.replace(path).number(b.side);
        }
        if (a.out != b.out) {
            std::snprintf(path, sizeof path, "/seats/%d/out", s);
            patch.replace(path).boolean(b.out);
        }
    }
    // The legal list of an older epoch is gone; it differs from today's, which is never empty
    // for the seat that decides, so an empty list stands in for it.
    static const santorini::StepList gone;
    const santorini::StepList legal = from.decides || to.decides ? legal_list() : santorini::StepList();
    const santorini::StepList* from_legal =
        from.decides ? (from.epoch == epoch_ ? &legal : &gone) : nullptr;
    write_state_patch(*from.seen, from_legal, *to.seen, to.decides ? &legal : nullptr, "/state",
                      patch);
}

std::unique_ptr<GameView> SantoriniGame::undecided(const GameView& view) const {
    return undecided_view(as_view(view));
}

std::uint64_t SantoriniGame::decision(const GameView& view) const {
    return decision_of(as_view(view));
}

void SantoriniGame::write_decision_patch(std::uint64_t decision, const GameView& to,
                                  PatchText& patch) const {
    // The document is `to`'s but for its legal steps: the patch from such a view to `to`.
    write_patch(with_decision(as_view(to), decision), to, patch);
}

void SantoriniGame::write_live_fields(JsonText& out) const {
    // The spectators' view decides which powers are shown (the engine's hidden information).
    const santorini::State seen = santorini::view_for(state_, santorini::spectator);
    out.begin_object().key("powers").begin_array();
    for (int s = 0; s < seen.seat_count; ++s) {
        const santorini::PowerId power = seen.seat(s).power;
        if (power == santorini::PowerId::None)
            out.null();
        else
            out.string(santorini::power_info(power).key);
    }
    out.end_array().end_object();
}

namespace {

// The seat's view is taken when the match asks (on its strand); the search runs later, anywhere.
class SantoriniThinking final : public BotThinking {
  public:
    SantoriniThinking(santorini::State view, santorini::bot::Options options)
        : view_(view), options_(options) {}
    nlohmann::json decide() override {
        return step_json(view_, santorini::bot::choose_step(view_, options_));
    }

  private:
    santorini::State view_;
    santorini::bot::Options options_;
};

}  // namespace

std::unique_ptr<BotThinking> SantoriniGame::think(int seat, int level, std::uint64_t seed,
                                                  std::chrono::milliseconds time_limit) const {
    assert(seat == decider());
    return std::make_unique<SantoriniThinking>(santorini::view_for(state_, seat),
                                               santorini::bot::Options{level, seed, time_limit});
}

}  // namespace protocol
