// Santorini values as protocol v1 JSON (docs/protocol.md, "The view" and "Steps"), and the
// lobby settings clients send. Steps coming in are never built from JSON: the input's key (its
// kind and values, as its canonical form would give them) is looked up among the legal steps'
// keys, so the engine's one generator stays the only authority on what may be played.

#include "protocol/santorini/json.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cctype>
#include <cstdint>
#include <optional>
#include <string_view>

#include "engine/santorini/power_catalog.hpp"
#include "engine/santorini/power_rules.hpp"
#include "engine/santorini/powers/card_tokens.hpp"
#include "engine/santorini/powers/chaos.hpp"
#include "engine/santorini/powers/hero.hpp"
#include "engine/santorini/powers/morpheus.hpp"
#include "engine/santorini/square.hpp"
#include "protocol/santorini/names.hpp"

namespace protocol {

using nlohmann::json;
using santorini::PowerId;
using santorini::Square;
using santorini::Step;
using santorini::StepKind;

namespace {

// The protocol names powers by their one-word key ("EuropaTalus"), never the display name.
json power_json(PowerId p) {
    if (p == PowerId::None) return nullptr;
    return std::string(santorini::power_info(p).key);
}

std::string_view kind_name(StepKind kind) {
    return kind_names[static_cast<std::size_t>(kind)];
}

// ---- reading a step: every kind's fields, their types, and which are required ----

enum class FieldType { Square, Power, Seat, Token, Flag, Direction };

struct FieldSpec {
    std::string_view name;
    FieldType type;
    bool required;
};

struct KindSpec {
    StepKind kind;
    std::vector<FieldSpec> fields;
};

const std::vector<KindSpec>& kind_specs() {
    static const std::vector<KindSpec> specs = {
        {StepKind::Place, {{"to", FieldType::Square, true}, {"female", FieldType::Flag, false}}},
        {StepKind::Move, {{"from", FieldType::Square, true}, {"to", FieldType::Square, true}}},
        {StepKind::Build,
         {{"from", FieldType::Square, true},
          {"to", FieldType::Square, true},
          {"before_move", FieldType::Flag, false}}},
        {StepKind::Dome,
         {{"from", FieldType::Square, true},
          {"to", FieldType::Square, true},
          {"before_move", FieldType::Flag, false}}},
        {StepKind::Force, {{"from", FieldType::Square, true}, {"to", FieldType::Square, true}}},
        {StepKind::Remove, {{"from", FieldType::Square, true}, {"to", FieldType::Square, true}}},
        {StepKind::Pass, {}},
        {StepKind::Offer, {{"power", FieldType::Power, true}}},
        {StepKind::Choose, {{"power", FieldType::Power, true}}},
        {StepKind::StartPlayer, {{"seat", FieldType::Seat, true}}},
        {StepKind::Token,
         {{"to", FieldType::Square, true},
          {"token", FieldType::Token, false},
          {"from", FieldType::Square, false}}},
        {StepKind::Aim, {{"direction", FieldType::Direction, true}}},
        {StepKind::Select, {{"worker", FieldType::Square, true}}},
        {StepKind::Capture, {{"from", FieldType::Square, true}, {"to", FieldType::Square, true}}},
        {StepKind::Undo, {}},
        {StepKind::EndTurn, {}},
    };
    return specs;
}

const KindSpec* find_kind(std::string_view kind) {
    const auto& specs = kind_specs();
    const auto spec = std::find_if(specs.begin(), specs.end(),
                                   [&](const KindSpec& k) { return kind_name(k.kind) == kind; });
    return spec == specs.end() ? nullptr : &*spec;
}

const FieldSpec* find_field(const KindSpec& spec, std::string_view name) {
    const auto field = std::find_if(spec.fields.begin(), spec.fields.end(),
                                    [&](const FieldSpec& f) { return f.name == name; });
    return field == spec.fields.end() ? nullptr : &*field;
}

// The largest number a Seat or Token field takes.
int max_number(FieldType type) {
    return type == FieldType::Seat ? santorini::max_seats - 1 : 127;
}

// What one field of a client's step holds, checked against its type, as a number: a square,
// a power's id, a seat or token number, a flag (0 or 1), a direction's index in
// direction_names. Nullopt when the value is not of the field's type. Both readings of a step
// go through here: its canonical form (canonical_field) and its key (key_of_input).
std::optional<int> field_value(const FieldSpec& spec, const json& value) {
    switch (spec.type) {
        case FieldType::Square:
            if (value.is_string())
                if (auto s = santorini::parse_square(value.get_ref<const std::string&>()))
                    return static_cast<int>(*s);
            return std::nullopt;
        case FieldType::Power:
            if (value.is_string())
                if (auto p = santorini::find_power(value.get_ref<const std::string&>()))
                    return static_cast<int>(*p);
            return std::nullopt;
        case FieldType::Seat:
        case FieldType::Token:
            if (value.is_number_integer() && value.get<std::int64_t>() >= 0 &&
                value.get<std::int64_t>() <= max_number(spec.type))
                return static_cast<int>(value.get<std::int64_t>());
            return std::nullopt;
        case FieldType::Flag:
            if (value.is_boolean()) return value.get<bool>() ? 1 : 0;
            return std::nullopt;
        case FieldType::Direction:
            if (value.is_string()) {
                std::string d = value.get<std::string>();
                std::transform(d.begin(), d.end(), d.begin(),
                               [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
                const auto at = std::find(direction_names.begin(), direction_names.end(), d);
                if (at != direction_names.end())
                    return static_cast<int>(at - direction_names.begin());
            }
            return std::nullopt;
    }
    return std::nullopt;
}

// One field of a client's step in canonical form, or an error text. Values are wrapped in
// json explicitly: a bare std::string would pick the error alternative of the variant.
std::variant<json, std::string> canonical_field(const FieldSpec& spec, const json& value) {
    const std::string name(spec.name);
    const std::optional<int> v = field_value(spec, value);
    switch (spec.type) {
        case FieldType::Square:
            if (v) return json(santorini::square_name(static_cast<Square>(*v)));
            return "field '" + name + "' must be a square A1..E5";
        case FieldType::Power:
            if (v) return power_json(static_cast<PowerId>(*v));
            return "field '" + name + "' must be a power name";
        case FieldType::Seat:
        case FieldType::Token:
            if (v) return json(std::int64_t{*v});
            return "field '" + name + "' must be an integer 0.." +
                   std::to_string(max_number(spec.type));
        case FieldType::Flag:
            if (v) return json(*v != 0);
            return "field '" + name + "' must be true or false";
        case FieldType::Direction:
            if (v) return json(std::string(direction_names[static_cast<std::size_t>(*v)]));
            return "field '" + name + "' must be one of N, NE, E, SE, S, SW, W, NW";
    }
    return "field '" + name + "' is not understood";
}

// A step's text from its canonical JSON, in the engine's notation (for "not legal now: ...").
std::string text_of(const json& j) {
    auto str = [&](const char* key) { return j.contains(key) ? j[key].dump() : std::string("?"); };
    auto plain = [&](const char* key) {
        std::string s = str(key);
        s.erase(std::remove(s.begin(), s.end(), '"'), s.end());
        return s;
    };
    const std::string kind = j["kind"].get<std::string>();
    if (kind == "pass" || kind == "undo") return kind;
    if (kind == "end_turn") return "end turn";
    if (kind == "place")
        return "place " + plain("to") + (j.value("female", false) ? " female" : "");
    if (kind == "offer" || kind == "choose") return kind + " " + plain("power");
    if (kind == "start_player") {
        const auto seat = j["seat"].get<std::int64_t>();
        return std::string("start ") + static_cast<char>('A' + seat);
    }
    if (kind == "token") {
        const auto token = j.value("token", std::int64_t{0});
        return "token " + plain("to") + (token > 0 ? " " + std::to_string(token) : "");
    }
    if (kind == "aim") return "aim " + plain("direction");
    if (kind == "select") return "select " + plain("worker");
    return kind + " " + plain("from") + " " + plain("to") +
           (j.value("before_move", false) ? " first" : "");
}

}  // namespace

json step_json(const santorini::State&, const Step& step) {
    // Workers are named by the squares they stand on, as in the step text: the worker index
    // is an engine detail a client should not have to track.
    json j;
    j["kind"] = kind_name(step.kind);
    auto sq = [](Square s) { return santorini::square_name(s); };
    switch (step.kind) {
        case StepKind::Place:
            j["to"] = sq(step.to);
            if (step.aux == 1) j["female"] = true;
            break;
        case StepKind::Build:
        case StepKind::Dome:
            j["from"] = sq(step.from);
            j["to"] = sq(step.to);
            if (step.aux == 1) j["before_move"] = true;
            break;
        case StepKind::Move:
        case StepKind::Force:
        case StepKind::Remove:
        case StepKind::Capture:
            j["from"] = sq(step.from);
            j["to"] = sq(step.to);
            break;
        case StepKind::Pass:
        case StepKind::Undo:
        case StepKind::EndTurn:
            break;
        case StepKind::Offer:
        case StepKind::Choose:
            j["power"] = power_json(step.power());
            break;
        case StepKind::StartPlayer:
            j["seat"] = step.aux;
            break;
        case StepKind::Token:
            j["to"] = sq(step.to);
            j["token"] = std::max<int>(0, step.aux);
            // Only tokens that move (a power's token already on the board) have a square to leave.
            if (step.from != santorini::no_square) j["from"] = sq(step.from);
            break;
        case StepKind::Aim:
            j["direction"] = direction_names[static_cast<std::size_t>(step.aux & 7)];
            break;
        case StepKind::Select:
            j["worker"] = sq(step.from);
            break;
    }
    return j;
}

std::variant<json, std::string> canonical_step(const json& input) {
    if (!input.is_object()) return std::string("a step must be a JSON object");
    auto kind_it = input.find("kind");
    if (kind_it == input.end()) return std::string("a step needs a 'kind'");
    if (!kind_it->is_string()) return std::string("field 'kind' must be a string");
    const std::string& kind = kind_it->get_ref<const std::string&>();
    const KindSpec* spec = find_kind(kind);
    if (spec == nullptr) return "unknown step kind '" + kind.substr(0, 32) + "'";

    json canonical;
    canonical["kind"] = kind;
    for (const auto& [key, value] : input.items()) {
        if (key == "kind") continue;
        const FieldSpec* field = find_field(*spec, key);
        if (field == nullptr) return "a " + kind + " step has no field '" + key.substr(0, 32) + "'";
        auto v = canonical_field(*field, value);
        if (auto* error = std::get_if<std::string>(&v)) return *error;
        canonical[key] = std::get<json>(std::move(v));
    }
    for (const auto& field : spec->fields) {
        const std::string name(field.name);
        if (field.required && !canonical.contains(name))
            return "a " + kind + " step needs '" + name + "'";
        // Canonical JSON leaves flags out when false and always writes the token number.
        if (field.type == FieldType::Flag && canonical.contains(name) &&
            !canonical[name].get<bool>())
            canonical.erase(name);
        if (field.type == FieldType::Token && !canonical.contains(name)) canonical[name] = 0;
    }
    return canonical;
}

namespace {

// What step_json writes of a step, as values: two steps' JSON documents are equal exactly when
// their keys are. Matching a client's step against the legal list compares keys, so no JSON is
// built per legal step.
struct StepKey {
    StepKind kind = StepKind::Pass;
    Square from = santorini::no_square;  ///< "from", or Select's "worker"
    Square to = santorini::no_square;
    int value = -1;     ///< "power" (its id), "seat", "token", "direction" (its index)
    bool flag = false;  ///< "female" or "before_move"
    friend bool operator==(const StepKey&, const StepKey&) = default;
};

// Mirrors step_json field by field.
StepKey key_of(const Step& step) {
    StepKey k;
    k.kind = step.kind;
    switch (step.kind) {
        case StepKind::Place:
            k.to = step.to;
            k.flag = step.aux == 1;
            break;
        case StepKind::Build:
        case StepKind::Dome:
            k.from = step.from;
            k.to = step.to;
            k.flag = step.aux == 1;
            break;
        case StepKind::Move:
        case StepKind::Force:
        case StepKind::Remove:
        case StepKind::Capture:
            k.from = step.from;
            k.to = step.to;
            break;
        case StepKind::Pass:
        case StepKind::Undo:
        case StepKind::EndTurn:
            break;
        case StepKind::Offer:
        case StepKind::Choose:
            k.value = static_cast<int>(step.power());
            break;
        case StepKind::StartPlayer:
            k.value = step.aux;
            break;
        case StepKind::Token:
            k.to = step.to;
            k.value = std::max<int>(0, step.aux);
            k.from = step.from;
            break;
        case StepKind::Aim:
            k.value = step.aux & 7;
            break;
        case StepKind::Select:
            k.from = step.from;
            break;
    }
    return k;
}

// The key of a step in canonical form (canonical_step's output: every field already valid).
StepKey key_of(const json& canonical) {
    StepKey k;
    const std::string& kind = canonical["kind"].get_ref<const std::string&>();
    for (std::size_t i = 0; i < kind_names.size(); ++i)
        if (kind_names[i] == kind) k.kind = static_cast<StepKind>(i);
    auto square = [&](const char* name) {
        auto it = canonical.find(name);
        if (it == canonical.end()) return santorini::no_square;
        return santorini::parse_square(it->get_ref<const std::string&>())
            .value_or(santorini::no_square);
    };
    k.from = k.kind == StepKind::Select ? square("worker") : square("from");
    k.to = square("to");
    k.flag = canonical.value("female", false) || canonical.value("before_move", false);
    if (auto it = canonical.find("power"); it != canonical.end())
        k.value = static_cast<int>(
            santorini::find_power(it->get_ref<const std::string&>()).value_or(PowerId::None));
    if (auto it = canonical.find("seat"); it != canonical.end()) k.value = it->get<int>();
    if (auto it = canonical.find("token"); it != canonical.end()) k.value = it->get<int>();
    if (auto it = canonical.find("direction"); it != canonical.end()) {
        const auto& d = it->get_ref<const std::string&>();
        for (std::size_t i = 0; i < direction_names.size(); ++i)
            if (direction_names[i] == d) k.value = static_cast<int>(i);
    }
    return k;
}

// The key of a client's step read straight from its JSON, field by field as canonical_step
// checks them, without building the canonical document (that document's map and strings were
// about a twelfth of the server's instructions per step: docs/benchmarks.md, "A step matched
// without its canonical document"). Nullopt wherever canonical_step would refuse the step:
// step_from_json then takes the canonical path, which words the refusal.
std::optional<StepKey> key_of_input(const json& input) {
    if (!input.is_object()) return std::nullopt;
    const auto kind_it = input.find("kind");
    if (kind_it == input.end() || !kind_it->is_string()) return std::nullopt;
    const KindSpec* spec = find_kind(kind_it->get_ref<const std::string&>());
    if (spec == nullptr) return std::nullopt;
    StepKey k;
    k.kind = spec->kind;
    std::size_t required = 0;
    bool has_token = false;
    for (auto it = input.begin(); it != input.end(); ++it) {
        if (it.key() == "kind") continue;
        const FieldSpec* field = find_field(*spec, it.key());
        if (field == nullptr) return std::nullopt;
        const std::optional<int> v = field_value(*field, it.value());
        if (!v) return std::nullopt;
        switch (field->type) {
            case FieldType::Square:
                // "from", or Select's "worker" (key_of's "from" too), or "to"
                (field->name == "to" ? k.to : k.from) = static_cast<Square>(*v);
                break;
            case FieldType::Power:
                // The canonical form has no name for None: leave such a step to that path.
                if (static_cast<PowerId>(*v) == PowerId::None) return std::nullopt;
                k.value = *v;
                break;
            case FieldType::Token:
                has_token = true;
                k.value = *v;
                break;
            case FieldType::Seat:
            case FieldType::Direction:
                k.value = *v;
                break;
            case FieldType::Flag:
                k.flag = k.flag || *v != 0;
                break;
        }
        if (field->required) ++required;
    }
    const auto required_fields = std::count_if(spec->fields.begin(), spec->fields.end(),
                                               [](const FieldSpec& f) { return f.required; });
    if (static_cast<std::ptrdiff_t>(required) != required_fields) return std::nullopt;
    // The canonical form always writes the token number.
    if (k.kind == StepKind::Token && !has_token) k.value = 0;
    return k;
}

}  // namespace

std::variant<Step, StepRefusal> step_from_json(const santorini::State& state,
                                               const santorini::StepList& legal,
                                               const json& input) {
    if (const auto key = key_of_input(input))
        for (const Step& s : legal)
            if (key_of(s) == *key) return s;
    // Malformed, or well formed and not legal: the canonical path says which, and why.
    return step_from_json_canonical(state, legal, input);
}

std::variant<Step, StepRefusal> step_from_json_canonical(const santorini::State&,
                                                         const santorini::StepList& legal,
                                                         const json& input) {
    auto canonical = canonical_step(input);
    if (auto* error = std::get_if<std::string>(&canonical))
        return StepRefusal::malformed(std::move(*error));
    const json& wanted = std::get<json>(canonical);
    const StepKey key = key_of(wanted);
    for (const Step& s : legal)
        if (key_of(s) == key) return s;
    return StepRefusal::illegal("not legal now: " + text_of(wanted));
}

}  // namespace protocol
