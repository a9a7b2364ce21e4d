#include "server/replay.hpp"

#include <nlohmann/json.hpp>

#include "engine/santorini/game.hpp"
#include "engine/santorini/view.hpp"

namespace server {

using nlohmann::json;

std::variant<StoredSettings, std::string> read_stored_settings(std::string_view settings_json) {
    const json settings = json::parse(settings_json, nullptr, false);
    if (!settings.is_object() || !settings.contains("lobby") ||
        !settings.value("challenger", json()).is_number_integer())
        return std::string("the stored settings are not {lobby, challenger}");
    auto parsed = protocol::lobby_settings_from_json(settings["lobby"]);
    if (auto* e = std::get_if<std::string>(&parsed)) return "the stored settings: " + *e;
    return StoredSettings{std::get<protocol::LobbySettings>(std::move(parsed)),
                          settings["challenger"].get<int>()};
}

std::variant<RecordedAction, std::string> read_action(const santorini::State& state,
                                                      std::string_view step_json) {
    const json what = json::parse(step_json, nullptr, false);
    if (!what.is_object()) return std::string("not a JSON object");
    RecordedAction action;
    const json kind_field = what.value("kind", json());
    const std::string kind = kind_field.is_string() ? kind_field.get<std::string>() : "";
    if (kind == "resign" || kind == "abort" || kind == "timeout") {
        action.kind = kind == "resign"  ? RecordedAction::Kind::Resign
                      : kind == "abort" ? RecordedAction::Kind::Abort
                                        : RecordedAction::Kind::Timeout;
        if (!what.contains("seat") || !what["seat"].is_number_integer())
            return std::string("no seat");
        action.seat = what["seat"].get<int>();
        if (action.seat < 0 || action.seat >= state.seat_count) return std::string("bad seat");
        return action;
    }
    santorini::StepList legal;
    santorini::legal_steps(state, legal);
    auto parsed = protocol::step_from_json(state, legal, what);
    if (auto* why = std::get_if<std::string>(&parsed)) return *why;
    action.seat = santorini::decider(state);
    action.step = std::get<santorini::Step>(parsed);
    return action;
}

bool apply_action(santorini::State& state, const RecordedAction& action) {
    switch (action.kind) {
        case RecordedAction::Kind::Step:
            santorini::apply_step(state, action.step);
            return false;
        case RecordedAction::Kind::Resign:
        case RecordedAction::Kind::Timeout:
            // Before play there is no game to lose: the match ends without a result.
            if (!santorini::in_play(state)) return true;
            santorini::concede(state, action.seat);
            return false;
        case RecordedAction::Kind::Abort:
            return true;
    }
    return false;
}

std::variant<ReplayPosition, std::string> replay(const StoredSettings& settings,
                                                 std::uint64_t seed,
                                                 const std::vector<std::string>& records,
                                                 std::size_t upto) {
    if (upto > records.size()) return std::string("fewer records than asked for");
    auto engine = protocol::engine_settings(settings.lobby, seed, settings.challenger);
    if (auto* error = std::get_if<std::string>(&engine)) return *error;
    auto game = santorini::new_game(std::get<santorini::Settings>(engine));
    if (!game.ok()) return game.error().message;
    ReplayPosition at{std::move(*game), false, 0, {}, {}, {}, {}};
    for (std::size_t i = 0; i < upto; ++i) {
        const std::string where = "step " + std::to_string(i + 1) + ": ";
        if (at.aborted || at.state.over()) return where + "the match was already over";
        auto read = read_action(at.state, records[i]);
        if (auto* why = std::get_if<std::string>(&read)) return where + *why;
        const RecordedAction& action = std::get<RecordedAction>(read);
        bool secret = false;
        if (action.kind == RecordedAction::Kind::Step) {
            std::string spectator =
                santorini::step_text_for(at.state, action.step, action.seat, santorini::spectator);
            std::string full =
                santorini::step_text_for(at.state, action.step, action.seat, action.seat);
            secret = spectator != full;
            at.spectator_history.push_back(std::move(spectator));
            at.revealed_history.push_back(std::move(full));
        }
        at.secret.push_back(secret);
        at.seats.push_back(action.seat);
        at.aborted = apply_action(at.state, action);
        at.records = i + 1;
    }
    return at;
}

}  // namespace server
