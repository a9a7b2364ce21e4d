#include "tests/fleet/fleet_client.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <stdexcept>
#include <thread>

namespace fleet {

namespace {
int next_ref = 0;

// FLEET_TRACE=1: every client's traffic on stderr with the wall-clock time, to line it up with
// the nodes' logs when a scenario fails.
const bool tracing = std::getenv("FLEET_TRACE") != nullptr;

void trace(const std::string& label, const std::string& what) {
    if (!tracing) return;
    const auto now = std::chrono::system_clock::now();
    const auto ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count();
    const std::time_t seconds = static_cast<std::time_t>(ms / 1000);
    std::tm tm{};
    ::gmtime_r(&seconds, &tm);
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%H:%M:%S", &tm);
    std::fprintf(stderr, "trace %s.%03d %s %s\n", stamp, static_cast<int>(ms % 1000), label.c_str(),
                 what.substr(0, 300).c_str());
}
}  // namespace

Client::Client(std::string label, const integration::Player& guest)
    : label_(std::move(label)), id_(guest.id), token_(guest.token) {}

void Client::connect(std::uint16_t port) {
    ws_.reset();
    port_ = port;
    ++connects_;
    trace(label_, "connect " + std::to_string(port));
    try {
        ws_ = std::make_unique<test::WsClient>(port, "/ws", 3s);
    } catch (const std::exception&) {
        throw integration::Lost{};
    }
    if (!ws_->send_json({{"type", "hello"}, {"protocol", 1}, {"token", token_}}))
        throw integration::Lost{};
    auto welcome = ws_->read_json(3s);
    if (!welcome || (*welcome)["type"] != "welcome") throw integration::Lost{};
    if ((*welcome)["player"]["id"] != id_)
        throw std::runtime_error(label_ + ": welcomed as someone else");
}

void Client::connect_retrying(std::uint16_t port, std::chrono::milliseconds within) {
    const auto deadline = std::chrono::steady_clock::now() + within;
    for (;;) {
        try {
            return connect(port);
        } catch (const integration::Lost&) {
            if (std::chrono::steady_clock::now() >= deadline) throw;
        }
        std::this_thread::sleep_for(100ms);
    }
}

bool Client::connected() const {
    return ws_ && !ws_->ended();
}

std::optional<std::uint16_t> Client::close_code() const {
    return ws_ ? ws_->close_code() : std::nullopt;
}

void Client::drop() {
    ws_.reset();
}

std::optional<json> Client::next(std::chrono::milliseconds timeout) {
    if (!connected()) return std::nullopt;
    auto text = ws_->read(timeout);
    if (!text) {
        if (ws_->ended())
            trace(label_, "ended, close code " + std::to_string(ws_->close_code().value_or(0)));
        else
            trace(label_, "nothing within " + std::to_string(timeout.count()) + " ms");
        return std::nullopt;
    }
    trace(label_, "<- " + *text);
    json message = json::parse(*text, nullptr, false);
    if (message.is_discarded()) throw std::runtime_error(label_ + " got non-JSON: " + *text);
    absorb(message);
    const std::string type = message.value("type", "");
    if (type != "match.snapshot" && type != "match.patch" && type != "ack" && type != "pong") {
        if (events_.size() >= 256) {
            events_.erase(events_.begin());
            ++events_dropped_;
        }
        events_.push_back(message);
    }
    return message;
}

std::optional<json> Client::take(const std::function<bool(const json&)>& done,
                                 std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    std::size_t checked = 0;
    while (true) {
        for (; checked < events_.size(); ++checked)
            if (done(events_[checked])) {
                json found = std::move(events_[checked]);
                events_.erase(events_.begin() + static_cast<std::ptrdiff_t>(checked));
                return found;
            }
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) return std::nullopt;
        // next() may drop the oldest event: the ones checked shift down with it.
        const std::size_t dropped = events_dropped_;
        if (!next(left)) return std::nullopt;
        checked -= std::min(checked, events_dropped_ - dropped);
    }
}

std::optional<json> Client::until(const std::function<bool(const json&)>& done,
                                  std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (true) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) return std::nullopt;
        auto message = next(left);
        if (!message) return std::nullopt;
        if (done(*message)) return message;
    }
}

json Client::request(json message, std::chrono::milliseconds timeout) {
    const int ref = ++next_ref;
    message["ref"] = ref;
    trace(label_, "-> " + message.dump());
    if (!connected() || !ws_->send_json(message)) throw integration::Lost{};
    auto reply = until(
        [&](const json& m) {
            const std::string type = m.value("type", "");
            return (type == "ack" || type == "error" || type == "pong") && m.contains("ref") &&
                   m["ref"] == ref;
        },
        timeout);
    if (!reply) {
        if (connected()) {
            ++unanswered_;
            trace(label_, "no answer to ref " + std::to_string(ref));
        }
        throw integration::Lost{};
    }
    return *reply;
}

json Client::open(const std::string& match, std::optional<std::uint64_t> since,
                  std::chrono::milliseconds timeout) {
    json message = {{"type", "match.open"}, {"match", match}};
    if (since) message["since"] = *since;
    // The answer (a snapshot, or the patches after `since`) comes before the ack: from here on
    // the patches apply again. A gap among them makes the view stale again.
    matches_[match].stale = false;
    const json reply = request(message, timeout);
    if (reply["type"] != "ack") matches_[match].stale = true;
    return reply;
}

bool Client::reopen_all(std::chrono::milliseconds timeout) {
    bool ok = true;
    std::vector<std::string> ids;
    for (const auto& [id, m] : matches_) ids.push_back(id);
    for (const std::string& id : ids) {
        const MatchView& m = matches_[id];
        const json reply = m.snapshots > 0 ? open(id, m.version, timeout) : open(id, {}, timeout);
        ok = ok && reply["type"] == "ack";
    }
    return ok;
}

bool Client::until_version(const std::string& match, std::uint64_t version,
                           std::chrono::milliseconds timeout) {
    if (version_of(match) >= version) return true;
    return until([&](const json&) { return version_of(match) >= version; }, timeout).has_value();
}

std::uint64_t Client::version_of(const std::string& id) const {
    auto it = matches_.find(id);
    return it == matches_.end() ? 0 : it->second.version;
}

void Client::absorb(const json& message) {
    const std::string type = message.value("type", "");
    if (type != "match.snapshot" && type != "match.patch") return;
    MatchView& m = matches_[message.at("match").get<std::string>()];
    const std::uint64_t version = message.at("version").get<std::uint64_t>();
    if (type == "match.snapshot") {
        m.view = message.at("view");
        m.version = version;
        m.stale = false;
        ++m.snapshots;
        return;
    }
    if (m.snapshots == 0 || m.stale) return;  // nothing to apply it to: a reopen follows
    if (version <= m.version) {
        ++m.duplicates;
        return;
    }
    if (version > m.version + 1) {
        ++m.gaps;
        m.stale = true;
        return;
    }
    try {
        m.view = m.view.patch(message.at("patch"));
        m.version = version;
        ++m.patches;
    } catch (const std::exception&) {
        ++m.bad_patches;
        m.stale = true;
    }
}

}  // namespace fleet
