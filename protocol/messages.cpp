// Protocol v1 messages (docs/protocol.md). The parser is the only door into the server for
// client text: whatever arrives comes out as a message or an error value. nlohmann/json
// throws, so every exception stops here.

#include "protocol/messages.hpp"

#include <algorithm>
#include <array>
#include <functional>
#include <initializer_list>
#include <utility>

#include "protocol/lobby_settings.hpp"
#include "protocol/step_frame.hpp"

namespace protocol {

using nlohmann::json;

namespace {

constexpr std::size_t max_code_length = 32;  // invite codes
constexpr std::size_t max_token_length = 256;
// A chat text's bytes, before the server trims and counts its characters: room for 280
// four-byte characters and spaces around them.
constexpr std::size_t max_chat_bytes = 2048;

struct Failure {
    ErrorCode code;
    std::string message;
};
using Check = std::optional<Failure>;

Failure missing(std::string_view field) {
    return {ErrorCode::MissingField, "missing field '" + std::string(field) + "'"};
}
Failure invalid(std::string_view field, std::string_view why) {
    return {ErrorCode::InvalidField,
            "invalid field '" + std::string(field) + "': " + std::string(why)};
}

// A closed set of fields per type: an unknown field is refused, not ignored, so a typo in an
// optional field never silently changes what a request means.
Check only_fields(const json& obj, std::initializer_list<std::string_view> allowed) {
    for (const auto& item : obj.items()) {
        if (item.key() == "type" || item.key() == "ref") continue;
        if (std::find(allowed.begin(), allowed.end(), item.key()) == allowed.end())
            return invalid(item.key(), "unknown field");
    }
    return std::nullopt;
}

// A non-empty string of at most `max` characters.
Check string_field(const json& obj, std::string_view key, std::size_t max, std::string& out) {
    auto it = obj.find(key);
    if (it == obj.end()) return missing(key);
    if (!it->is_string() || it->get_ref<const std::string&>().empty() ||
        it->get_ref<const std::string&>().size() > max)
        return invalid(
            key, "must be a non-empty string of at most " + std::to_string(max) + " characters");
    out = it->get<std::string>();
    return std::nullopt;
}

// Messages that name just one match or lobby by id.
template <class T>
Check id_only(const json& obj, std::string_view key, std::string T::*member, T& out) {
    if (auto e = only_fields(obj, {key})) return e;
    return string_field(obj, key, max_id_length, out.*member);
}

// ---- one reader per type; each fills the body or says what is wrong ----

// Readers get the tree itself: one may take a part of it (the step) rather than copy it.
using Reader = std::function<std::variant<ClientBody, Failure>(json&)>;

// Callers evaluate the check into a variable first: as two arguments of one call, the body
// could be moved from before the check has filled it in.
template <class T>
std::variant<ClientBody, Failure> done(Check check, T body) {
    if (check) return *check;
    return ClientBody{std::move(body)};
}

std::variant<ClientBody, Failure> read_hello(const json& j) {
    Hello h;
    if (auto e = only_fields(j, {"protocol", "token", "ack_in_patch"})) return *e;
    auto it = j.find("protocol");
    if (it == j.end()) return missing("protocol");
    if (!it->is_number_integer()) return invalid("protocol", "must be an integer");
    if (it->get<std::int64_t>() != version)
        return Failure{
            ErrorCode::ProtocolVersion,
            "this server speaks protocol " + std::to_string(version) + ", not " + it->dump()};
    h.protocol = version;
    if (auto ack = j.find("ack_in_patch"); ack != j.end()) {
        if (!ack->is_boolean()) return invalid("ack_in_patch", "must be true or false");
        h.ack_in_patch = ack->get<bool>();
    }
    Check e = string_field(j, "token", max_token_length, h.token);
    return done(std::move(e), std::move(h));
}

std::variant<ClientBody, Failure> read_lobby_create(const json& j) {
    if (auto e = only_fields(j, {"settings"})) return *e;
    auto it = j.find("settings");
    if (it == j.end()) return missing("settings");
    auto settings = read_lobby_settings(*it);
    if (auto* e = std::get_if<SettingsError>(&settings))
        return Failure{e->missing ? ErrorCode::MissingField : ErrorCode::InvalidField, e->message};
    return ClientBody{LobbyCreate{std::get<LobbySettings>(std::move(settings))}};
}

std::variant<ClientBody, Failure> read_lobby_join(const json& j) {
    LobbyJoin join;
    if (auto e = only_fields(j, {"lobby", "code"})) return *e;
    const bool by_id = j.contains("lobby"), by_code = j.contains("code");
    if (by_id && by_code) return invalid("code", "give either 'lobby' or 'code', not both");
    Check e = by_code ? string_field(j, "code", max_code_length, join.code)
                      : string_field(j, "lobby", max_id_length, join.lobby);
    return done(std::move(e), std::move(join));
}

std::variant<ClientBody, Failure> read_lobby_kick(const json& j) {
    LobbyKick kick;
    if (auto e = only_fields(j, {"lobby", "player"})) return *e;
    if (auto e = string_field(j, "lobby", max_id_length, kick.lobby)) return *e;
    Check e = string_field(j, "player", max_id_length, kick.player);
    return done(std::move(e), std::move(kick));
}

std::variant<ClientBody, Failure> read_match_open(const json& j) {
    MatchOpen open;
    if (auto e = only_fields(j, {"match", "since", "code"})) return *e;
    if (auto e = string_field(j, "match", max_id_length, open.match)) return *e;
    if (j.contains("code"))
        if (auto e = string_field(j, "code", max_code_length, open.code)) return *e;
    if (auto it = j.find("since"); it != j.end()) {
        // Only non-negative integers parse as unsigned; -1 or 1.5 are refused.
        if (!it->is_number_unsigned()) return invalid("since", "must be a non-negative integer");
        open.since = it->get<std::uint64_t>();
    }
    return ClientBody{std::move(open)};
}

std::variant<ClientBody, Failure> read_match_step(json& j) {
    MatchStep step;
    if (auto e = only_fields(j, {"match", "step"})) return *e;
    if (auto e = string_field(j, "match", max_id_length, step.match)) return *e;
    auto it = j.find("step");
    if (it == j.end()) return missing("step");
    // Opaque here: whether it is a step of the match's game at all, and legal now, is one
    // judgement of that game's (Game::play).
    step.step = std::move(*it);  // moved out of the message's tree, not copied
    return ClientBody{std::move(step)};
}

// {"match": id, "seat": 0-3, "what": "win"|"abort"}: whether the seat is away and the claim
// allowed is the match's to say.
std::variant<ClientBody, Failure> read_match_claim(const json& j) {
    MatchClaim claim;
    if (auto e = only_fields(j, {"match", "seat", "what"})) return *e;
    if (auto e = string_field(j, "match", max_id_length, claim.match)) return *e;
    auto seat = j.find("seat");
    if (seat == j.end()) return missing("seat");
    if (!seat->is_number_integer() || seat->get<std::int64_t>() < 0 ||
        seat->get<std::int64_t>() > 3)
        return invalid("seat", "must be an integer from 0 to 3");
    claim.seat = static_cast<int>(seat->get<std::int64_t>());
    auto what = j.find("what");
    if (what == j.end()) return missing("what");
    if (*what == "win")
        claim.what = MatchClaim::What::Win;
    else if (*what == "abort")
        claim.what = MatchClaim::What::Abort;
    else
        return invalid("what", "must be \"win\" or \"abort\"");
    return ClientBody{std::move(claim)};
}

// {"match": id, "accept": true|false}: whether the match is over and the sender may answer is
// the match's to say.
std::variant<ClientBody, Failure> read_match_rematch(const json& j) {
    MatchRematch rematch;
    if (auto e = only_fields(j, {"match", "accept"})) return *e;
    if (auto e = string_field(j, "match", max_id_length, rematch.match)) return *e;
    auto accept = j.find("accept");
    if (accept == j.end()) return missing("accept");
    if (!accept->is_boolean()) return invalid("accept", "must be true or false");
    rematch.accept = accept->get<bool>();
    return ClientBody{std::move(rematch)};
}

// A chat message's {"<key>": id, "text": "..."}: a string of at most max_chat_bytes; whether it is
// a good chat line (trimmed, 1-280 characters, no control characters) is the server's to say
// (server/text/chat_text.hpp), so the rules live in one place.
Check chat_fields(const json& j, std::string_view key, std::string& id, std::string& text) {
    if (auto e = only_fields(j, {key, "text"})) return e;
    if (auto e = string_field(j, key, max_id_length, id)) return e;
    auto it = j.find("text");
    if (it == j.end()) return missing("text");
    if (!it->is_string() || it->get_ref<const std::string&>().size() > max_chat_bytes)
        return invalid("text", "must be a string of at most 280 characters");
    text = it->get<std::string>();
    return std::nullopt;
}

std::variant<ClientBody, Failure> read_match_chat(const json& j) {
    MatchChat chat;
    Check e = chat_fields(j, "match", chat.match, chat.text);
    return done(std::move(e), std::move(chat));
}

std::variant<ClientBody, Failure> read_lobby_chat(const json& j) {
    LobbyChat chat;
    Check e = chat_fields(j, "lobby", chat.lobby, chat.text);
    return done(std::move(e), std::move(chat));
}

// {"queue": name, "clock": {"kind": "realtime", "base_seconds": n, "increment_seconds": n}}:
// the same limits as a lobby's real-time clock; only real-time clocks are queued.
std::variant<ClientBody, Failure> read_queue_join(const json& j) {
    QueueJoin join;
    if (auto e = only_fields(j, {"queue", "clock"})) return *e;
    if (auto e = string_field(j, "queue", max_id_length, join.queue)) return *e;
    auto clock = j.find("clock");
    if (clock == j.end()) return missing("clock");
    if (!clock->is_object()) return invalid("clock", "must be an object");
    // The kind first: a turn-based clock is refused as such, not for its hours_per_move.
    auto kind = clock->find("kind");
    if (kind == clock->end()) return missing("clock.kind");
    if (*kind != "realtime") return invalid("clock.kind", "queues play \"realtime\" clocks only");
    for (const auto& item : clock->items())
        if (item.key() != "kind" && item.key() != "base_seconds" &&
            item.key() != "increment_seconds")
            return invalid("clock." + item.key(), "unknown field");
    auto seconds = [&](const char* key, int lo, int hi, int& out) -> Check {
        auto it = clock->find(key);
        const std::string field = std::string("clock.") + key;
        if (it == clock->end()) return missing(field);
        if (!it->is_number_integer() || it->get<std::int64_t>() < lo ||
            it->get<std::int64_t>() > hi)
            return invalid(field, "must be an integer from " + std::to_string(lo) + " to " +
                                      std::to_string(hi));
        out = static_cast<int>(it->get<std::int64_t>());
        return std::nullopt;
    };
    if (auto e = seconds("base_seconds", 10, 3 * 60 * 60, join.base_seconds)) return *e;
    Check e = seconds("increment_seconds", 0, 180, join.increment_seconds);
    return done(std::move(e), std::move(join));
}

template <class T>
Reader no_fields(T body) {
    return [body](const json& j) { return done(only_fields(j, {}), body); };
}

template <class T>
Reader by_id(std::string_view key, std::string T::*member) {
    return [key, member](const json& j) {
        T body;
        Check e = id_only(j, key, member, body);
        return done(std::move(e), std::move(body));
    };
}

const std::vector<std::pair<std::string_view, Reader>>& readers() {
    static const std::vector<std::pair<std::string_view, Reader>> table = {
        {"hello", read_hello},
        {"ping", no_fields(Ping{})},
        {"lobby.create", read_lobby_create},
        {"lobby.join", read_lobby_join},
        {"lobby.leave", by_id("lobby", &LobbyLeave::lobby)},
        {"lobby.kick", read_lobby_kick},
        {"lobby.start", by_id("lobby", &LobbyStart::lobby)},
        {"lobby.chat", read_lobby_chat},
        {"lobbies.subscribe", no_fields(LobbiesSubscribe{true})},
        {"lobbies.unsubscribe", no_fields(LobbiesSubscribe{false})},
        {"matches.subscribe", no_fields(MatchesSubscribe{true})},
        {"matches.unsubscribe", no_fields(MatchesSubscribe{false})},
        {"match.open", read_match_open},
        {"match.close", by_id("match", &MatchClose::match)},
        {"match.step", read_match_step},
        {"match.resign", by_id("match", &MatchResign::match)},
        {"match.abort", by_id("match", &MatchAbort::match)},
        {"match.claim", read_match_claim},
        {"match.rematch", read_match_rematch},
        {"match.chat", read_match_chat},
        {"queue.join", read_queue_join},
        {"queue.leave", no_fields(QueueLeave{})},
    };
    return table;
}

std::variant<ClientMessage, ProtocolError> parse_object(json& j) {
    if (!j.is_object())
        return ProtocolError{ErrorCode::MalformedJson, "a message must be a JSON object",
                             std::nullopt};
    Ref ref;
    if (auto it = j.find("ref"); it != j.end()) {
        const bool ok =
            (it->is_string() && it->get_ref<const std::string&>().size() <= max_ref_length) ||
            it->is_number_integer();
        if (!ok) {
            auto f = invalid("ref", "must be a string of at most 64 characters or an integer");
            return ProtocolError{f.code, f.message, std::nullopt};
        }
        ref = *it;
    }
    auto type = j.find("type");
    if (type == j.end()) return ProtocolError{ErrorCode::MissingField, "missing field 'type'", ref};
    if (!type->is_string())
        return ProtocolError{ErrorCode::InvalidField, "invalid field 'type': must be a string",
                             ref};
    const std::string& name = type->get_ref<const std::string&>();
    for (const auto& [type_name, read] : readers()) {
        if (type_name != name) continue;
        auto body = read(j);
        if (auto* f = std::get_if<Failure>(&body))
            return ProtocolError{f->code, std::move(f->message), ref};
        return ClientMessage{std::get<ClientBody>(std::move(body)), ref};
    }
    // Echo at most a bounded prefix of what the client sent.
    return ProtocolError{ErrorCode::UnknownType,
                         "unknown message type \"" + name.substr(0, 64) + "\"", ref};
}

json with_ref(json j, const Ref& ref) {
    if (ref) j["ref"] = *ref;
    return j;
}

}  // namespace

std::string_view code_name(ErrorCode code) {
    static constexpr std::array<std::string_view, 22> names{
        "malformed_json",   "unknown_type",      "missing_field",   "invalid_field",
        "protocol_version", "not_authenticated", "wrong_phase",     "not_your_turn",
        "illegal_step",     "unknown_lobby",     "unknown_match",   "not_authorized",
        "lobby_full",       "rate_limited",      "frame_too_large", "busy",
        "unavailable",      "already_in_game",   "already_queued",  "unknown_queue",
        "too_many_matches", "not_claimable"};
    static_assert(names.size() == static_cast<std::size_t>(last_error_code) + 1);
    const auto i = static_cast<std::size_t>(code);
    return i < names.size() ? names[i] : "unknown";
}

std::variant<ClientMessage, ProtocolError> parse_client_message(std::string_view text) {
    if (auto plain = read_step_frame(text)) return std::move(*plain);
    return parse_client_message_by_tree(text);
}

std::variant<ClientMessage, ProtocolError> parse_client_message_by_tree(std::string_view text) {
    try {
        json j = json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
        if (j.is_discarded())
            return ProtocolError{ErrorCode::MalformedJson, "not valid JSON", std::nullopt};
        return parse_object(j);
    } catch (const std::exception& e) {
        // Invalid UTF-8 or anything else the library throws on: still just bad input.
        return ProtocolError{ErrorCode::MalformedJson,
                             std::string("cannot read message: ") + e.what(), std::nullopt};
    }
}

std::string error_message(const ProtocolError& error) {
    return error_message(error.code, error.message, error.ref);
}

std::string error_message(ErrorCode code, std::string_view message, const Ref& ref) {
    json j = {{"type", "error"}, {"code", code_name(code)}, {"message", message}};
    // Client text may be quoted in the message; replacing invalid UTF-8 keeps dump() from throwing.
    return with_ref(std::move(j), ref).dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string ack_message(const Ref& ref) {
    // One per accepted step: written as text rather than through a tree.
    std::string out = "{\"type\":\"ack\"";
    if (ref) out += ",\"ref\":" + ref->dump(-1, ' ', false, json::error_handler_t::replace);
    out += '}';
    return out;
}

std::string welcome_message(std::string_view player_id, std::string_view name) {
    return json{
        {"type", "welcome"}, {"protocol", version}, {"player", {{"id", player_id}, {"name", name}}}}
        .dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string pong_message(const Ref& ref) {
    return with_ref({{"type", "pong"}}, ref).dump();
}

std::string event_message(std::string_view type, const json& fields) {
    json j = {{"type", type}};
    if (fields.is_object())
        for (const auto& item : fields.items())
            if (item.key() != "type") j[item.key()] = item.value();
    return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace protocol
