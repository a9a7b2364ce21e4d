#pragma once
// Shared by the protocol tests: what a protocol::Game writes for a viewer, as text: the document
// a match holds ({"seats":[...],"state":{...}}) and the patch between two views.

#include <string>

#include "protocol/game.hpp"
#include "protocol/json_text.hpp"

namespace protocol_test {

/// {"seats":[members...],"state":{...}} of `view`, as a match view holds them.
inline std::string doc_text(const protocol::Game& game, const protocol::GameView& view) {
    std::string out;
    protocol::JsonText w(out);
    w.begin_object().key("seats").begin_array();
    for (int s = 0; s < game.seat_count(); ++s) {
        w.begin_object();
        game.write_seat(view, s, w);
        w.end_object();
    }
    w.end_array().key("state");
    game.write_state(view, w);
    w.end_object();
    return out;
}

/// The JSON Patch (an array) turning `from`'s document into `to`'s.
inline std::string patch_text(const protocol::Game& game, const protocol::GameView& from,
                              const protocol::GameView& to) {
    std::string out;
    protocol::PatchText patch(out);
    game.write_patch(from, to, patch);
    patch.finish();
    return out;
}

}  // namespace protocol_test
