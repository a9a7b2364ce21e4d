#include "engine/santorini/step.hpp"

#include "engine/santorini/game.hpp"

namespace santorini {

std::string to_text(const Step& st) {
    auto sq = [](Square s) { return square_name(s); };
    switch (st.kind) {
        case StepKind::Place: return "place " + sq(st.to) + (st.aux == 1 ? " female" : "");
        case StepKind::Move: return "move " + sq(st.from) + " " + sq(st.to);
        case StepKind::Build: return "build " + sq(st.from) + " " + sq(st.to) + (st.aux == 1 ? " first" : "");
        case StepKind::Dome: return "dome " + sq(st.from) + " " + sq(st.to) + (st.aux == 1 ? " first" : "");
        case StepKind::Force: return "force " + sq(st.from) + " " + sq(st.to);
        case StepKind::Aim: {
            static const char* names[] = {"N", "NE", "E", "SE", "S", "SW", "W", "NW"};
            return std::string("aim ") + (st.aux >= 0 && st.aux < 8 ? names[st.aux] : "?");
        }
        case StepKind::Select: return "select " + sq(st.from);
        case StepKind::Capture: return "capture " + sq(st.from) + " " + sq(st.to);
        case StepKind::Remove: return "remove " + sq(st.from) + " " + sq(st.to);
        case StepKind::Pass: return "pass";
        case StepKind::Undo: return "undo";
        case StepKind::EndTurn: return "end turn";
        case StepKind::Offer: return "offer " + std::string(power_info(st.power()).key);
        case StepKind::Choose: return "choose " + std::string(power_info(st.power()).key);
        case StepKind::StartPlayer: return std::string("start ") + static_cast<char>('A' + st.aux);
        case StepKind::Token: return "token " + sq(st.to) + (st.aux > 0 ? " " + std::to_string(st.aux) : "");
    }
    return "?";
}

namespace {
std::string normalize(std::string_view text) {
    std::string out;
    bool space = false;
    for (char c : text) {
        if (c == ' ' || c == '\t') {
            space = !out.empty();
            continue;
        }
        if (space) out += ' ';
        space = false;
        out += static_cast<char>(c >= 'a' && c <= 'z' && out.find(' ') != std::string::npos ? c - 'a' + 'A' : c);
    }
    return out;
}
}  // namespace

std::optional<Step> parse_step(const State& state, std::string_view text) {
    // Steps are few at any point, so the text is matched against the legal ones: the text
    // then never has to spell out what the position already says (who is displaced where).
    std::string wanted = normalize(text);
    if (wanted == "undo") return Step::undo();
    StepList legal;
    legal_steps(state, legal);
    for (const Step& st : legal) {
        std::string t = to_text(st);
        std::string up = normalize(t);
        if (up == wanted) return st;
    }
    return std::nullopt;
}

}  // namespace santorini
