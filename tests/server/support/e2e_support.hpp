#pragma once
// End-to-end helpers over real sockets: a WebSocket player that records its traffic, tracks
// every match it has opened (snapshot + RFC 6902 patches, versions checked to grow by exactly
// one per message), and a traffic log that is validated against protocol/schema/ by
// tests/protocol/validate_schemas.py.

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <thread>
#include <string>
#include <utility>
#include <vector>

#include <boost/beast/http/status.hpp>
#include <catch2/catch_test_macros.hpp>

#include "protocol/json/basic_json.hpp"
#include "server/app/config.hpp"
#include "tests/server/support/transport_fixture.hpp"
#include "tests/server/support/ws_client.hpp"

namespace e2e {

using json = nlohmann::json;
using namespace std::chrono_literals;

/// Server settings for end-to-end games: generous rate limits (a whole game is played quickly).
inline server::Config config() {
    server::Config c = test::transport_config();
    c.messages_per_second = 100000;
    c.message_burst = 100000;
    c.read_bytes_per_second = 64u << 20;  // a game played as fast as the machine allows
    c.spectators_interval = std::chrono::milliseconds(0);  // counts at once: tests count versions
    c.api_requests_per_second = 100000;  // a test fetches every view of a game at once
    c.api_burst = 100000;
    c.api_in_flight_per_client = 64;
    return c;
}

/// Every message seen on the wire, with its direction, in the validator's input format.
class Traffic {
public:
    void add(std::string_view direction, const json& message) {
        std::lock_guard lock(mutex_);
        lines_.push_back({{"direction", direction}, {"message", message}});
    }
    std::size_t size() const {
        std::lock_guard lock(mutex_);
        return lines_.size();
    }

    /// Writes the lines to a temporary file and runs the schema validator on them. Returns the
    /// validator's exit status; its output goes to `report`.
    int validate(std::string& report) const {
        const auto stamp = std::chrono::steady_clock::now().time_since_epoch().count();
        const auto dir = std::filesystem::temp_directory_path();
        const auto input = dir / ("e2e_traffic_" + std::to_string(stamp) + ".jsonl");
        const auto output = dir / ("e2e_report_" + std::to_string(stamp) + ".txt");
        {
            std::lock_guard lock(mutex_);
            std::ofstream out(input);
            for (const auto& line : lines_) out << line.dump() << '\n';
        }
        std::filesystem::path script =
            std::filesystem::path(__FILE__).parent_path().parent_path() / "protocol" / "validate_schemas.py";
        if (!std::filesystem::exists(script)) script = "tests/protocol/validate_schemas.py";
        const std::string command =
            "python3 '" + script.string() + "' '" + input.string() + "' > '" + output.string() + "' 2>&1";
        const int status = std::system(command.c_str());
        std::ifstream in(output);
        report.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
        std::filesystem::remove(input);
        std::filesystem::remove(output);
        return status;
    }

private:
    mutable std::mutex mutex_;
    std::vector<json> lines_;
};

/// Checks (as a test assertion) that the recorded traffic passes the schemas.
inline void check_traffic(const Traffic& traffic) {
    std::string report;
    const int status = traffic.validate(report);
    INFO("validator output:\n" << report);
    CHECK(traffic.size() > 0);
    CHECK(status == 0);
}

/// A guest created over HTTP: POST /api/guests {name}.
struct Guest {
    std::string id;
    std::string name;
    std::string token;
};

inline Guest http_guest(std::uint16_t port, const std::string& name) {
    const test::HttpResponse response =
        test::http_request(port, boost::beast::http::verb::post, "/api/guests", json{{"name", name}}.dump());
    if (response.result() != boost::beast::http::status::created)
        throw std::runtime_error("POST /api/guests: " + std::to_string(response.result_int()) + " " + response.body());
    const json body = json::parse(response.body());
    return {body.at("id").get<std::string>(), body.at("name").get<std::string>(), body.at("token").get<std::string>()};
}

/// What a client knows about one match it has opened.
struct MatchView {
    std::uint64_t version = 0;
    json view;
    int snapshots = 0;
    int patches = 0;
    std::vector<std::uint64_t> versions;  ///< every version received, in order
};

/// A WebSocket client that logs its traffic and keeps match views up to date.
class Player {
public:
    /// Connects; `receive_window` > 0 makes it a narrow connection (see test::WsClient).
    Player(std::uint16_t port, Traffic& traffic, std::string label, int receive_window = 0)
        : client_(std::make_unique<test::WsClient>(port, "/ws", 5s, receive_window)),
          traffic_(traffic),
          label_(std::move(label)) {}

    const std::string& label() const { return label_; }
    test::WsClient& raw() { return *client_; }

    /// hello with `token`; returns the welcome (REQUIREs that it is one).
    json hello(const std::string& token) {
        send({{"type", "hello"}, {"protocol", 1}, {"token", token}});
        auto reply = next();
        REQUIRE(reply);
        INFO(label_ << ": " << reply->dump());
        REQUIRE((*reply)["type"] == "welcome");
        player_id_ = (*reply)["player"]["id"].get<std::string>();
        return *reply;
    }
    const std::string& player_id() const { return player_id_; }

    /// Sends a valid message (recorded for schema validation).
    void send(const json& message) {
        traffic_.add("client", message);
        REQUIRE(client_->send_json(message));
    }
    /// Sends raw text that is deliberately not a valid message (not recorded).
    void send_raw(const std::string& text) { REQUIRE(client_->send(text)); }

    /// The next message (recorded, and applied to the match views), or nullopt on timeout.
    std::optional<json> next(std::chrono::milliseconds timeout = 5s) {
        auto text = client_->read(timeout);
        if (!text) return std::nullopt;
        json message = json::parse(*text, nullptr, false);
        if (message.is_discarded()) {
            FAIL_CHECK(label_ << " got non-JSON: " << *text);
            return message;
        }
        traffic_.add("server", message);
        received_.push_back(message);
        absorb(message);
        return message;
    }

    /// Reads until `done(message)` holds for one message; returns it (nullopt on timeout).
    std::optional<json> until(const std::function<bool(const json&)>& done, std::chrono::milliseconds timeout = 5s) {
        const auto deadline = std::chrono::steady_clock::now() + timeout;
        while (true) {
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
            if (left.count() <= 0) return std::nullopt;
            auto message = next(left);
            if (!message) return std::nullopt;
            if (done(*message)) return message;
        }
    }
    std::optional<json> until_type(const std::string& type, std::chrono::milliseconds timeout = 5s) {
        return until([&](const json& m) { return m.value("type", "") == type; }, timeout);
    }
    /// Reads until the ack (or an error) for `ref`.
    std::optional<json> until_reply(const json& ref, std::chrono::milliseconds timeout = 5s) {
        return until(
            [&](const json& m) {
                const std::string type = m.value("type", "");
                return (type == "ack" || type == "error") && m.contains("ref") && m["ref"] == ref;
            },
            timeout);
    }
    /// Reads until the view of `match` has reached at least `version`.
    bool until_version(const std::string& match, std::uint64_t version, std::chrono::milliseconds timeout = 5s) {
        if (version_of(match) >= version) return true;
        return until([&](const json&) { return version_of(match) >= version; }, timeout).has_value();
    }

    std::uint64_t version_of(const std::string& match) const {
        auto it = matches_.find(match);
        return it == matches_.end() ? 0 : it->second.version;
    }
    MatchView& match(const std::string& id) { return matches_[id]; }
    bool has_match(const std::string& id) const { return matches_.count(id) != 0; }
    void forget(const std::string& id) { matches_.erase(id); }

    /// Every message received so far.
    std::vector<json>& received() { return received_; }

    void close() { client_->close(); }

private:
    void absorb(const json& message) {
        const std::string type = message.value("type", "");
        if (type != "match.snapshot" && type != "match.patch") return;
        const std::string id = message.at("match").get<std::string>();
        const std::uint64_t version = message.at("version").get<std::uint64_t>();
        MatchView& m = matches_[id];
        if (type == "match.snapshot") {
            m.view = message.at("view");
            m.version = version;
            ++m.snapshots;
        } else {
            INFO(label_ << " patch for " << id << ": version " << version << " after " << m.version);
            CHECK(m.snapshots > 0);  // a patch only applies to a view the client has
            CHECK(version == m.version + 1);
            try {
                m.view = m.view.patch(message.at("patch"));
            } catch (const std::exception& e) {
                FAIL_CHECK(label_ << ": patch does not apply: " << e.what() << " patch=" << message.at("patch").dump());
            }
            m.version = version;
            ++m.patches;
        }
        m.versions.push_back(version);
    }

    std::unique_ptr<test::WsClient> client_;
    Traffic& traffic_;
    std::string label_;
    std::string player_id_;
    std::vector<json> received_;
    std::map<std::string, MatchView> matches_;
};

/// A started two-player match: host and guest seated, both have said hello.
struct Started {
    std::string lobby;
    std::string match;
    std::string code;  ///< the private lobby's invite code: spectators need it to watch
};

/// A new guest named `name` (POST /api/guests) whose token `who` says hello with.
inline Guest sign_in(Player& who, std::uint16_t port, const std::string& name) {
    Guest guest = http_guest(port, name);
    who.hello(guest.token);
    return guest;
}

/// The invite codes of the private matches this process started (match id -> code): open_match
/// gives a match's code, as a client that was handed it would (players need none, spectators
/// do; docs/protocol.md, "Private matches").
struct InviteCodes {
    std::mutex mutex;
    std::map<std::string, std::string> by_match;

    void remember(const std::string& match, const std::string& code) {
        std::lock_guard lock(mutex);
        by_match[match] = code;
    }
    /// The code of `match`, or "" for a match not started here as a private one.
    std::string of(const std::string& match) {
        std::lock_guard lock(mutex);
        auto it = by_match.find(match);
        return it == by_match.end() ? std::string() : it->second;
    }
};
inline InviteCodes& invite_codes() {
    static InviteCodes codes;
    return codes;
}

/// host creates a lobby with `settings` (private unless they say "public": true), the guests join
/// by invite code in order (so guest i takes seat i + 1), host starts. Everyone reads until
/// lobby.closed (started) and the match id is returned.
inline Started start_lobby_match(Player& host, const std::vector<Player*>& guests, json settings) {
    if (!settings.contains("public")) settings["public"] = false;
    // A private lobby is casual unless it says (docs/protocol.md, `lobby.create`, `rated`);
    // these tests rate theirs.
    if (!settings.contains("rated")) settings["rated"] = true;
    host.send({{"type", "lobby.create"}, {"ref", "create"}, {"settings", settings}});
    std::optional<json> lobby = host.until_type("lobby");
    REQUIRE(lobby);
    const std::string lobby_id = (*lobby)["lobby"]["id"].get<std::string>();
    REQUIRE((*lobby)["lobby"].contains("code"));
    const std::string code = (*lobby)["lobby"]["code"].get<std::string>();
    auto ack = host.until_reply("create");
    REQUIRE(ack);
    REQUIRE((*ack)["type"] == "ack");

    for (Player* guest : guests) {
        guest->send({{"type", "lobby.join"}, {"ref", 2}, {"code", code}});
        ack = guest->until_reply(2);
        REQUIRE(ack);
        INFO(ack->dump());
        REQUIRE((*ack)["type"] == "ack");
    }
    // The host hears that the lobby is full.
    REQUIRE(host.until([](const json& m) { return m.value("type", "") == "lobby" && m["lobby"]["status"] == "full"; }));

    host.send({{"type", "lobby.start"}, {"ref", "start"}, {"lobby", lobby_id}});
    auto closed = host.until_type("lobby.closed");
    REQUIRE(closed);
    CHECK((*closed)["reason"] == "started");
    REQUIRE(closed->contains("match"));
    const std::string match = (*closed)["match"].get<std::string>();
    ack = host.until_reply("start");
    REQUIRE(ack);
    CHECK((*ack)["type"] == "ack");
    for (Player* guest : guests) {
        auto guest_closed = guest->until_type("lobby.closed");
        REQUIRE(guest_closed);
        CHECK((*guest_closed)["reason"] == "started");
        CHECK((*guest_closed)["match"] == match);
    }
    invite_codes().remember(match, code);
    return {lobby_id, match, code};
}

/// start_lobby_match with a private lobby.
inline Started start_private_match(Player& host, const std::vector<Player*>& guests, json settings) {
    settings["public"] = false;
    return start_lobby_match(host, guests, std::move(settings));
}

/// The two-player case of the above.
inline Started start_private_match(Player& host, Player& guest, json settings) {
    return start_private_match(host, std::vector<Player*>{&guest}, std::move(settings));
}

/// `who` opens `match` (optionally since a version) and reads to the ack; returns the messages
/// that arrived between the request and its ack.
inline std::vector<json> open_match(Player& who, const std::string& match, std::optional<std::uint64_t> since = {},
                                    const std::string& ref = "open") {
    json request = {{"type", "match.open"}, {"ref", ref}, {"match", match}};
    if (since) request["since"] = *since;
    if (const std::string code = invite_codes().of(match); !code.empty()) request["code"] = code;
    std::size_t before = who.received().size();
    who.send(request);
    auto ack = who.until_reply(ref);
    REQUIRE(ack);
    // Right after a restart the match may still be on its way back (recovery runs while the
    // server already accepts connections): the retryable `unavailable` is retried, as a client
    // does, for a bounded time (docs/protocol.md, "Errors").
    for (int retry = 0; (*ack)["type"] == "error" && ack->value("code", "") == "unavailable" && retry < 100;
         ++retry) {
        std::this_thread::sleep_for(100ms);
        before = who.received().size();
        who.send(request);
        ack = who.until_reply(ref);
        REQUIRE(ack);
    }
    INFO(who.label() << ": " << ack->dump());
    REQUIRE((*ack)["type"] == "ack");
    const auto& all = who.received();
    std::vector<json> about_match;
    // The `playing` event (the player's live matches, right after welcome) may arrive meanwhile:
    // it is the connection's, not this match's traffic.
    for (auto it = all.begin() + static_cast<std::ptrdiff_t>(before); it != all.end() - 1; ++it)
        if (it->value("type", "") != "playing") about_match.push_back(*it);
    return about_match;
}

/// Brings every client to the same (highest) version of `match`.
inline std::uint64_t sync(const std::vector<Player*>& players, const std::string& match) {
    std::uint64_t top = 0;
    for (Player* p : players) top = std::max(top, p->version_of(match));
    for (Player* p : players) {
        INFO(p->label() << " waiting for version " << top);
        REQUIRE(p->until_version(match, top));
        CHECK(p->version_of(match) == top);
    }
    return top;
}

/// The seat deciding now according to `view` (or -1).
inline int decider(const json& view) {
    const json& d = view["state"]["decider"];
    return d.is_number_integer() ? d.get<int>() : -1;
}

/// Picks the step to play from the deciding seat's view (whose `legal` is not empty).
using Chooser = std::function<json(const json& view)>;

/// The seated player (among `seats`, indexed by seat; null: not connected) whose view says it decides, plays the
/// step `choose` picks from its view (it must be in `legal`); every client in `all` then reads up to the new
/// version. Returns the step played.
inline json play_chosen(const std::vector<Player*>& seats, const std::vector<Player*>& all, const std::string& match,
                        int number, const Chooser& choose) {
    Player* first = nullptr;
    for (Player* p : seats)
        if (p && !first) first = p;
    REQUIRE(first != nullptr);
    const int seat = decider(first->match(match).view);
    REQUIRE(seat >= 0);
    REQUIRE(seat < static_cast<int>(seats.size()));
    REQUIRE(seats[static_cast<std::size_t>(seat)] != nullptr);
    Player& mover = *seats[static_cast<std::size_t>(seat)];
    const json& view = mover.match(match).view;
    INFO("step " << number << " by seat " << seat);
    REQUIRE(view["you"] == seat);
    REQUIRE(view["state"].contains("legal"));
    REQUIRE(view["state"]["legal"].is_array());
    REQUIRE_FALSE(view["state"]["legal"].empty());
    // Nobody else is shown legal steps.
    for (std::size_t s = 0; s < seats.size(); ++s) {
        if (static_cast<int>(s) == seat || !seats[s]) continue;
        const json& other = seats[s]->match(match).view["state"];
        CHECK((!other.contains("legal") || other["legal"].is_null() || other["legal"].empty()));
    }
    const json step = choose(view);
    INFO("chosen " << step.dump());
    REQUIRE(std::find(view["state"]["legal"].begin(), view["state"]["legal"].end(), step) != view["state"]["legal"].end());
    const std::uint64_t before = mover.version_of(match);
    mover.send({{"type", "match.step"}, {"ref", number}, {"match", match}, {"step", step}});
    auto reply = mover.until_reply(number);
    REQUIRE(reply);
    INFO("reply " << reply->dump() << " to step " << step.dump());
    REQUIRE((*reply)["type"] == "ack");
    CHECK(mover.version_of(match) == before + 1);
    for (Player* p : all) {
        INFO(p->label());
        REQUIRE(p->until_version(match, before + 1));
        CHECK(p->version_of(match) == before + 1);
    }
    return step;
}

/// play_chosen with the first legal step (a deterministic strategy).
inline json play_first_legal(const std::vector<Player*>& seats, const std::vector<Player*>& all, const std::string& match,
                             int number) {
    return play_chosen(seats, all, match, number, [](const json& view) { return view["state"]["legal"][0]; });
}

/// Reads for `quiet` and returns what arrived (it should usually be nothing).
inline std::vector<json> drain(Player& who, std::chrono::milliseconds quiet = 300ms) {
    std::vector<json> out;
    while (auto m = who.next(quiet)) out.push_back(*m);
    return out;
}

}  // namespace e2e
