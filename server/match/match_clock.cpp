// A match's clocks as its views and timer use them: whose clock runs, and the timer that
// settles a clock that ran out (Match::on_timer, in server/match/match.cpp, records the
// timeout). On the match's strand, like the rest of Match.
#include <algorithm>

#include "server/match/match.hpp"

namespace server {

int Match::clock_seat() const {
    // The draft is untimed (docs/rulings.md, "No clock in the draft"): the first clock starts
    // when the draft ends, and no draft step earns an increment.
    return game_->status() == "draft" ? -1 : game_->decider();
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

}  // namespace server
