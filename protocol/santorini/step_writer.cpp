// Santorini steps as JSON text (protocol::write_step): the canonical document of a step, the
// same as protocol::step_json builds, written into a small buffer and appended once, since the
// server writes every legal step of every decider's view.

#include <algorithm>
#include <cassert>
#include <charconv>
#include <string_view>

#include "engine/santorini/state.hpp"
#include "engine/santorini/step.hpp"
#include "protocol/santorini/names.hpp"
#include "protocol/santorini/quoted.hpp"
#include "protocol/santorini/view.hpp"

namespace protocol {

using santorini::Square;
using santorini::State;
using santorini::Step;
using santorini::StepKind;
using santorini_text::quoted_power;
using santorini_text::quoted_square;

namespace {

// A step's text, written into a small buffer and appended once.
class StepBuffer {
  public:
    void put(std::string_view s) {
        assert(size_ + s.size() <= sizeof buf_);
        std::copy(s.begin(), s.end(), buf_ + size_);
        size_ += s.size();
    }
    void put_square(Square s) { put(quoted_square(s)); }
    void put_number(int n) {
        auto [end, ec] = std::to_chars(buf_ + size_, buf_ + sizeof buf_, n);
        (void)ec;
        size_ = static_cast<std::size_t>(end - buf_);
    }
    std::string_view text() const { return {buf_, size_}; }

  private:
    char buf_[128];
    std::size_t size_ = 0;
};

}  // namespace

void write_step(const State&, const Step& step, JsonText& out) {
    StepBuffer b;
    b.put("{\"kind\":\"");
    b.put(kind_names[static_cast<std::size_t>(step.kind)]);
    b.put("\"");
    auto from_to = [&] {
        b.put(",\"from\":");
        b.put_square(step.from);
        b.put(",\"to\":");
        b.put_square(step.to);
    };
    switch (step.kind) {
        case StepKind::Place:
            b.put(",\"to\":");
            b.put_square(step.to);
            if (step.aux == 1) b.put(",\"female\":true");
            break;
        case StepKind::Build:
        case StepKind::Dome:
            from_to();
            if (step.aux == 1) b.put(",\"before_move\":true");
            break;
        case StepKind::Move:
        case StepKind::Force:
        case StepKind::Remove:
        case StepKind::Capture:
            from_to();
            break;
        case StepKind::Pass:
        case StepKind::Undo:
        case StepKind::EndTurn:
            break;
        case StepKind::Offer:
        case StepKind::Choose:
            b.put(",\"power\":");
            b.put(quoted_power(step.power()));
            break;
        case StepKind::StartPlayer:
            b.put(",\"seat\":");
            b.put_number(step.aux);
            break;
        case StepKind::Token:
            b.put(",\"to\":");
            b.put_square(step.to);
            b.put(",\"token\":");
            b.put_number(std::max<int>(0, step.aux));
            if (step.from != santorini::no_square) {
                b.put(",\"from\":");
                b.put_square(step.from);
            }
            break;
        case StepKind::Aim:
            b.put(",\"direction\":\"");
            b.put(direction_names[static_cast<std::size_t>(step.aux & 7)]);
            b.put("\"");
            break;
        case StepKind::Select:
            b.put(",\"worker\":");
            b.put_square(step.from);
            break;
    }
    b.put("}");
    out.raw(b.text());
}

}  // namespace protocol
