#include "server/match/replay.hpp"

#include "protocol/games.hpp"
#include "protocol/json/basic_json.hpp"

namespace server {

using nlohmann::json;

std::variant<StoredSettings, std::string> read_stored_settings(std::string_view settings_json) {
    const json settings = json::parse(settings_json, nullptr, false);
    if (!settings.is_object() || !settings.contains("lobby") ||
        !settings.value("challenger", json()).is_number_integer())
        return std::string("the stored settings are not {lobby, challenger}");
    auto parsed = protocol::lobby_settings_from_json(settings["lobby"]);
    if (auto* e = std::get_if<std::string>(&parsed)) return "the stored settings: " + *e;
    const json invite = settings.value("invite_sha256", json());
    return StoredSettings{std::get<protocol::LobbySettings>(std::move(parsed)),
                          settings["challenger"].get<int>(),
                          invite.is_string() ? invite.get<std::string>() : std::string()};
}

std::variant<ReplayPosition, std::string> replay(const StoredSettings& settings,
                                                 std::uint64_t seed,
                                                 const std::vector<std::string>& records,
                                                 std::size_t upto) {
    if (upto > records.size()) return std::string("fewer records than asked for");
    auto started = protocol::start_game(settings.lobby, seed, settings.challenger);
    if (auto* error = std::get_if<std::string>(&started)) return *error;
    ReplayPosition at;
    at.game = std::get<std::unique_ptr<protocol::Game>>(std::move(started));
    protocol::Game& game = *at.game;
    // Seats that played a step in play: an abandonment before all did aborts (Match's rule).
    std::vector<bool> moved(static_cast<std::size_t>(game.seat_count()));
    auto everyone_moved = [&] {
        for (int s = 0; s < game.seat_count(); ++s)
            if (!game.out(s) && !moved[static_cast<std::size_t>(s)]) return false;
        return true;
    };
    for (std::size_t i = 0; i < upto; ++i) {
        const std::string where = "step " + std::to_string(i + 1) + ": ";
        if (at.aborted || game.over()) return where + "the match was already over";
        const json record = json::parse(records[i], nullptr, false);
        if (!record.is_object()) return where + "not a JSON object";
        const json kind_field = record.value("kind", json());
        const std::string kind = kind_field.is_string() ? kind_field.get<std::string>() : "";
        protocol::Readable by_spectators = protocol::Readable::Whole;
        int seat = -1;
        if (kind == "resign" || kind == "abort" || kind == "timeout" || kind == "abandon") {
            const auto found = record.find("seat");
            if (found == record.end() || !found->is_number_integer()) return where + "no seat";
            seat = found->get<int>();
            if (seat < 0 || seat >= game.seat_count()) return where + "bad seat";
            if (kind == "abort" || !game.in_play() || (kind == "abandon" && !everyone_moved())) {
                // Before play there is no game to lose: the match ends without a result.
                at.aborted = true;
            } else {
                game.concede(seat);  // as Match::event_outcome: a refusal changes nothing
            }
        } else {
            seat = game.decider();
            if (game.in_play()) moved[static_cast<std::size_t>(seat)] = true;
            auto played = game.play(record);
            if (auto* refused = std::get_if<protocol::StepRefusal>(&played))
                return where + refused->why;
            auto& lines = std::get<protocol::Played>(played).lines;
            std::string& own = lines.at(static_cast<std::size_t>(seat));
            by_spectators = std::get<protocol::Played>(played).by_spectators;
            at.spectator_history.push_back(std::move(lines.back()));
            at.revealed_history.push_back(std::move(own));
        }
        at.by_spectators.push_back(by_spectators);
        at.seats.push_back(seat);
        at.records = i + 1;
    }
    return at;
}

}  // namespace server
