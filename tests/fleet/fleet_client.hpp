#pragma once
// A player of the fleet tests: one WebSocket connection at a time (to a node or to HAProxy),
// the views of the matches it opened kept up to date from snapshots and patches, and the
// irregularities counted rather than hidden (gaps in versions, duplicates, patches that do not
// apply), so a test can require that there were none, or resync and go on after a failure.

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "protocol/json/basic_json.hpp"
#include "tests/integration/support.hpp"
#include "tests/server/support/ws_client.hpp"

namespace fleet {

using json = nlohmann::json;
using namespace std::chrono_literals;

/// What a client knows of one match it opened.
struct MatchView {
    std::uint64_t version = 0;
    json view;
    int snapshots = 0;
    int patches = 0;
    int gaps = 0;         ///< patches whose version skipped some
    int duplicates = 0;   ///< patches at or below the version held
    int bad_patches = 0;  ///< patches that did not apply
    bool stale = false;   ///< a gap or a bad patch: reopen with since before trusting the view
};

/// A guest and its (re)connections.
class Client {
  public:
    Client(std::string label, const integration::Player& guest);

    const std::string& label() const { return label_; }
    const std::string& id() const { return id_; }

    /// (Re)connects to 127.0.0.1:`port` and says hello with the token; throws integration::Lost
    /// if there is no connection or no welcome within 3 s.
    void connect(std::uint16_t port);
    /// connect(), tried again every 100 ms while it throws Lost, as a client does after a 1012:
    /// a node that just stopped may still take (and drop) a connection the load balancer sent
    /// it. Throws Lost if no attempt worked within `within`.
    void connect_retrying(std::uint16_t port, std::chrono::milliseconds within = 5s);
    /// True while the connection is up (not ended by either side).
    bool connected() const;
    /// The close code of the last connection, if it ended with one.
    std::optional<std::uint16_t> close_code() const;
    /// Drops the connection (client side, without waiting).
    void drop();
    /// Which port the current connection went to.
    std::uint16_t port() const { return port_; }

    /// The next message (absorbed into the match views), or nullopt on timeout or end.
    std::optional<json> next(std::chrono::milliseconds timeout);
    /// Reads until `done(message)`; nullopt on timeout or end.
    std::optional<json> until(const std::function<bool(const json&)>& done,
                              std::chrono::milliseconds timeout = 5s);
    /// The first message received so far or within `timeout` for which `done` holds, other
    /// than match snapshots and patches (events: lobby, queue, lobby.closed, ...), taken out of
    /// the kept events; nullopt on timeout or end. Only the last 256 events are kept.
    std::optional<json> take(const std::function<bool(const json&)>& done,
                             std::chrono::milliseconds timeout = 5s);
    /// Forgets the events kept so far: a later take() sees only what arrives after.
    void forget_events() { events_.clear(); }
    /// Sends `message` with a fresh ref and reads until its ack, error or pong, which it returns;
    /// throws integration::Lost if the connection ends or no reply comes within `timeout`.
    json request(json message, std::chrono::milliseconds timeout = 5s);

    /// match.open (since `since` if given); the reply (ack or error). Throws Lost like request.
    json open(const std::string& match, std::optional<std::uint64_t> since = {},
              std::chrono::milliseconds timeout = 5s);
    /// Reopens every match this client has open with since = its version (after a reconnect
    /// or a gap). False if one of them was answered with an error.
    bool reopen_all(std::chrono::milliseconds timeout = 5s);
    /// Reads until the view of `match` has reached `version`; false on timeout or end.
    bool until_version(const std::string& match, std::uint64_t version,
                       std::chrono::milliseconds timeout = 5s);

    MatchView& match(const std::string& id) { return matches_[id]; }
    std::uint64_t version_of(const std::string& id) const;
    const std::map<std::string, MatchView>& matches() const { return matches_; }
    int connects() const { return connects_; }
    /// Requests that got no answer in time on a connection that stayed up (a server that
    /// cannot answer closes the connection instead: docs/scaling.md, failure cases).
    int unanswered() const { return unanswered_; }

  private:
    void absorb(const json& message);

    std::string label_;
    std::string id_;
    std::string token_;
    std::unique_ptr<test::WsClient> ws_;
    std::uint16_t port_ = 0;
    int connects_ = 0;
    int unanswered_ = 0;
    std::map<std::string, MatchView> matches_;
    std::vector<json> events_;
    std::size_t events_dropped_ = 0;
};

}  // namespace fleet
