// Splendor values as protocol v1 JSON (docs/protocol.md, "Splendor"). Steps coming in are
// never built from JSON alone: the input is put in canonical form, read as a step, and looked
// up in the engine's legal list, so the engine's one generator stays the only authority on
// what may be played.

#include "protocol/splendor/json.hpp"

#include <algorithm>
#include <array>
#include <cstddef>

#include "engine/splendor/cards.hpp"
#include "engine/splendor/view.hpp"

namespace protocol {

using nlohmann::json;
using splendor::Gem;
using splendor::Step;
using splendor::StepKind;

namespace {

// By StepKind. `undo` is the protocol's (protocol/turn_undo.hpp), listed by SplendorGame.
constexpr std::array<std::string_view, 8> kind_names{"take",  "reserve", "buy",  "return",
                                                     "noble", "pass",    "undo", "end_turn"};

std::string_view token_name(int kind) {
    return splendor::gem_name(static_cast<Gem>(kind));
}

// The 90 cards and 10 nobles as JSON text, written once: they are the bulk of every state.
const std::array<std::string, splendor::card_count>& card_texts() {
    static const auto texts = [] {
        std::array<std::string, splendor::card_count> t;
        for (int id = 0; id < splendor::card_count; ++id) {
            const splendor::Card& c = splendor::card(id);
            JsonText out(t[static_cast<std::size_t>(id)]);
            out.begin_object().key("id").number(id).key("level").number(c.level);
            out.key("bonus").string(token_name(c.bonus)).key("points").number(c.points);
            write_colours(out.key("cost"), c.cost);
            out.end_object();
        }
        return t;
    }();
    return texts;
}

const std::array<std::string, splendor::noble_count>& noble_texts() {
    static const auto texts = [] {
        std::array<std::string, splendor::noble_count> t;
        for (int id = 0; id < splendor::noble_count; ++id) {
            const splendor::Noble& n = splendor::noble(id);
            JsonText out(t[static_cast<std::size_t>(id)]);
            out.begin_object().key("id").number(id).key("points").number(n.points);
            write_colours(out.key("requires"), n.requirements);
            out.end_object();
        }
        return t;
    }();
    return texts;
}

// ---- reading a step ----

using Field = std::variant<json, std::string>;  // the canonical value, or why not

std::string must(std::string_view field, std::string_view what) {
    return "field '" + std::string(field) + "' must be " + std::string(what);
}

Field integer_field(std::string_view name, const json& value, int lo, int hi) {
    if (value.is_number_integer() && value.get<std::int64_t>() >= lo &&
        value.get<std::int64_t>() <= hi)
        return json(value.get<std::int64_t>());
    return must(name, "an integer " + std::to_string(lo) + ".." + std::to_string(hi));
}

// A token kind's name: a colour, or gold too when `gold`. -1 if it is none.
int token_kind(const json& value, bool gold) {
    if (!value.is_string()) return -1;
    const auto g = splendor::gem_from_name(value.get_ref<const std::string&>());
    if (!g || (*g == splendor::Gold && !gold)) return -1;
    return static_cast<int>(*g);
}

Field gems_field(const json& value) {
    const std::string why = must("gems",
                                 "a list of up to three different colours, or two of one colour "
                                 "(white, blue, green, red, black)");
    if (!value.is_array() || value.empty() || value.size() > 3) return why;
    std::array<int, splendor::gem_colours> count{};
    for (const auto& g : value) {
        const int k = token_kind(g, false);
        if (k < 0) return why;
        ++count[static_cast<std::size_t>(k)];
    }
    const int most = *std::max_element(count.begin(), count.end());
    if (most > 2 || (most == 2 && value.size() != 2)) return why;
    json out = json::array();
    for (int k = 0; k < splendor::gem_colours; ++k)
        for (int i = 0; i < count[static_cast<std::size_t>(k)]; ++i)
            out.push_back(std::string(token_name(k)));
    return out;
}

Field pay_field(const json& value) {
    if (!value.is_object())
        return must("pay",
                    "an object of the six token counts (white, blue, green, red, black, gold)");
    for (const auto& item : value.items())
        if (token_kind(json(item.key()), true) < 0)
            return "field 'pay' has no count '" + item.key().substr(0, 32) + "'";
    json out = json::object();
    for (int k = 0; k < splendor::token_kinds; ++k) {
        const std::string name(token_name(k));
        auto it = value.find(name);
        if (it == value.end()) return "field 'pay' needs '" + name + "'";
        auto count = integer_field("pay." + name, *it, 0, splendor::max_tokens);
        if (auto* why = std::get_if<std::string>(&count)) return *why;
        out[name] = std::get<json>(std::move(count));
    }
    return out;
}

struct FieldSpec {
    std::string_view name;
    bool required;
};

// The fields of each kind, by kind index. A reserve names a card or a level: one of the two.
const std::array<std::vector<FieldSpec>, 8>& kind_fields() {
    static const std::array<std::vector<FieldSpec>, 8> fields = {{
        {{"gems", true}},                     // take
        {{"card", false}, {"level", false}},  // reserve
        {{"card", true}, {"pay", true}},      // buy
        {{"gem", true}},                      // return
        {{"noble", true}},                    // noble
        {},                                   // pass
        {},                                   // undo
        {},                                   // end_turn
    }};
    return fields;
}

Field canonical_field(std::string_view name, const json& value) {
    if (name == "gems") return gems_field(value);
    if (name == "pay") return pay_field(value);
    if (name == "card") return integer_field(name, value, 0, splendor::card_count - 1);
    if (name == "level") return integer_field(name, value, 1, splendor::levels);
    if (name == "noble") return integer_field(name, value, 0, splendor::noble_count - 1);
    if (name == "gem") {
        const int k = token_kind(value, true);
        if (k < 0) return must(name, "a token: white, blue, green, red, black or gold");
        return json(std::string(token_name(k)));
    }
    return "field '" + std::string(name) + "' is not understood";
}

// The step a canonical JSON names (every field already valid).
Step step_of(const json& c) {
    Step s;
    const std::string& kind = c["kind"].get_ref<const std::string&>();
    for (std::size_t i = 0; i < kind_names.size(); ++i)
        if (kind_names[i] == kind) s.kind = static_cast<StepKind>(i);
    if (auto it = c.find("gems"); it != c.end())
        for (const auto& g : *it) ++s.gems[static_cast<std::size_t>(token_kind(g, false))];
    if (auto it = c.find("pay"); it != c.end())
        for (int k = 0; k < splendor::token_kinds; ++k)
            s.gems[static_cast<std::size_t>(k)] =
                static_cast<std::int8_t>((*it)[std::string(token_name(k))].get<int>());
    if (auto it = c.find("gem"); it != c.end())
        s.gems[static_cast<std::size_t>(token_kind(*it, true))] = 1;
    if (auto it = c.find("card"); it != c.end()) s.card = static_cast<std::int8_t>(it->get<int>());
    if (auto it = c.find("level"); it != c.end())
        s.level = static_cast<std::int8_t>(it->get<int>());
    if (auto it = c.find("noble"); it != c.end())
        s.noble = static_cast<std::int8_t>(it->get<int>());
    return s;
}

}  // namespace

std::string_view splendor_phase_name(splendor::Phase phase) {
    using splendor::Phase;
    switch (phase) {
        case Phase::Action:
            return "action";
        case Phase::Return:
            return "return";
        case Phase::Noble:
            return "noble";
        case Phase::Over:
            return "over";
        case Phase::Confirm:
            return "confirm";
    }
    return "over";
}

std::string_view splendor_kind_name(StepKind kind) {
    const auto i = static_cast<std::size_t>(kind);
    return i < kind_names.size() ? kind_names[i] : "pass";
}

void write_card(JsonText& out, int id) {
    out.raw(card_texts()[static_cast<std::size_t>(id)]);
}

void write_noble(JsonText& out, int id) {
    out.raw(noble_texts()[static_cast<std::size_t>(id)]);
}

void write_tokens(JsonText& out, const splendor::Tokens& tokens) {
    out.begin_object();
    for (int k = 0; k < splendor::token_kinds; ++k)
        out.key(token_name(k)).number(tokens[static_cast<std::size_t>(k)]);
    out.end_object();
}

void write_colours(JsonText& out, const splendor::Colours& colours) {
    out.begin_object();
    for (int k = 0; k < splendor::gem_colours; ++k)
        out.key(token_name(k)).number(colours[static_cast<std::size_t>(k)]);
    out.end_object();
}

void write_step(const Step& step, JsonText& out) {
    out.begin_object().key("kind").string(splendor_kind_name(step.kind));
    switch (step.kind) {
        case StepKind::Take:
            out.key("gems").begin_array();
            for (int k = 0; k < splendor::gem_colours; ++k)
                for (int i = 0; i < step.gems[static_cast<std::size_t>(k)]; ++i)
                    out.string(token_name(k));
            out.end_array();
            break;
        case StepKind::Reserve:
            if (step.card >= 0)
                out.key("card").number(step.card);
            else
                out.key("level").number(step.level);
            break;
        case StepKind::Buy:
            out.key("card").number(step.card);
            write_tokens(out.key("pay"), step.gems);
            break;
        case StepKind::Return:
            for (int k = 0; k < splendor::token_kinds; ++k)
                if (step.gems[static_cast<std::size_t>(k)] > 0) {
                    out.key("gem").string(token_name(k));
                    break;
                }
            break;
        case StepKind::Noble:
            out.key("noble").number(step.noble);
            break;
        case StepKind::Pass:
        case StepKind::Undo:
        case StepKind::EndTurn:
            break;
    }
    out.end_object();
}

json step_json(const Step& step) {
    std::string text;
    JsonText out(text);
    write_step(step, out);
    return json::parse(text);
}

std::variant<json, std::string> canonical_splendor_step(const json& input) {
    if (!input.is_object()) return std::string("a step must be a JSON object");
    auto kind_it = input.find("kind");
    if (kind_it == input.end()) return std::string("a step needs a 'kind'");
    if (!kind_it->is_string()) return std::string("field 'kind' must be a string");
    const std::string& kind = kind_it->get_ref<const std::string&>();
    const auto found = std::find(kind_names.begin(), kind_names.end(), kind);
    if (found == kind_names.end()) return "unknown step kind '" + kind.substr(0, 32) + "'";
    const auto& fields = kind_fields()[static_cast<std::size_t>(found - kind_names.begin())];

    json canonical;
    canonical["kind"] = kind;
    for (const auto& [key, value] : input.items()) {
        if (key == "kind") continue;
        auto field = std::find_if(fields.begin(), fields.end(),
                                  [&](const FieldSpec& f) { return f.name == key; });
        if (field == fields.end())
            return "a " + kind + " step has no field '" + key.substr(0, 32) + "'";
        auto v = canonical_field(field->name, value);
        if (auto* error = std::get_if<std::string>(&v)) return *error;
        canonical[key] = std::get<json>(std::move(v));
    }
    for (const auto& field : fields)
        if (field.required && !canonical.contains(field.name))
            return "a " + kind + " step needs '" + std::string(field.name) + "'";
    if (kind == "reserve" && canonical.contains("card") == canonical.contains("level"))
        return std::string("a reserve step names either a face-up 'card' or a deck's 'level'");
    return canonical;
}

std::variant<Step, StepRefusal> step_from_json(const splendor::StepList& legal, const json& input) {
    auto canonical = canonical_splendor_step(input);
    if (auto* error = std::get_if<std::string>(&canonical))
        return StepRefusal::malformed(std::move(*error));
    const Step wanted = step_of(std::get<json>(canonical));
    for (const Step& s : legal)
        if (s == wanted) return s;
    return StepRefusal::illegal("not legal now: " + splendor_step_words(wanted));
}

std::string splendor_step_words(const Step& step) {
    std::string out(splendor_kind_name(step.kind));
    switch (step.kind) {
        case StepKind::Take:
            for (int k = 0; k < splendor::gem_colours; ++k)
                for (int i = 0; i < step.gems[static_cast<std::size_t>(k)]; ++i)
                    out.append(" ").append(token_name(k));
            break;
        case StepKind::Reserve:
            if (step.card >= 0)
                out += " #" + std::to_string(step.card);
            else
                out += " from the level " + std::to_string(step.level) + " deck";
            break;
        case StepKind::Buy: {
            out += " #" + std::to_string(step.card);
            bool any = false;
            for (int k = 0; k < splendor::token_kinds; ++k)
                if (const int n = step.gems[static_cast<std::size_t>(k)]; n > 0) {
                    out.append(any ? " " : " for ").append(token_name(k));
                    out += " " + std::to_string(n);
                    any = true;
                }
            break;
        }
        case StepKind::Return:
            for (int k = 0; k < splendor::token_kinds; ++k)
                if (step.gems[static_cast<std::size_t>(k)] > 0)
                    out.append(" ").append(token_name(k));
            break;
        case StepKind::Noble:
            out += " #" + std::to_string(step.noble);
            break;
        case StepKind::Pass:
        case StepKind::Undo:
            break;
        case StepKind::EndTurn:
            return "end turn";
    }
    return out;
}

std::vector<std::string> step_lines(const splendor::State& before, const Step& step, int actor) {
    std::vector<std::string> lines;
    lines.reserve(static_cast<std::size_t>(before.players) + 1);
    for (int viewer = 0; viewer < before.players; ++viewer)
        lines.push_back(splendor::step_text_for(before, step, actor, viewer));
    lines.push_back(splendor::step_text_for(before, step, actor, splendor::spectator));
    return lines;
}

}  // namespace protocol
