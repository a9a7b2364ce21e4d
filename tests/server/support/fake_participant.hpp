#pragma once
// A connection as rooms see it, for tests: records every message delivered to it and keeps, per
// match, the view that the snapshots and patches it received add up to, as a client would.

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "protocol/json/basic_json.hpp"
#include "server/net/participant.hpp"

namespace server::test {

/// What a client knows about one match from the messages it received.
struct TrackedView {
    nlohmann::json view;        ///< snapshot with every later patch applied
    std::uint64_t version = 0;  ///< version of `view`
    int snapshots = 0;
    int patches = 0;
    int errors = 0;  ///< patches out of order or failing to apply
};

class FakeParticipant final : public Participant {
  public:
    FakeParticipant(std::string player_id, std::uint64_t connection_id)
        : player_id_(std::move(player_id)), connection_id_(connection_id) {}

    void deliver(std::shared_ptr<const std::string> message) override {
        auto j = nlohmann::json::parse(*message);
        std::lock_guard lock(mutex_);
        const std::string type = j.value("type", "");
        if (type == "match.snapshot") {
            auto& t = views_[j.at("match").get<std::string>()];
            t.view = j.at("view");
            t.version = j.at("version").get<std::uint64_t>();
            ++t.snapshots;
        } else if (type == "match.patch") {
            auto& t = views_[j.at("match").get<std::string>()];
            const auto version = j.at("version").get<std::uint64_t>();
            // A patch applies only to the version right before it.
            if (t.version == 0 || version != t.version + 1) {
                ++t.errors;
            } else {
                try {
                    t.view = t.view.patch(j.at("patch"));
                    t.version = version;
                    ++t.patches;
                } catch (const nlohmann::json::exception&) {
                    ++t.errors;
                }
            }
        }
        messages_.push_back(std::move(j));
    }
    std::uint64_t connection_id() const override { return connection_id_; }
    const std::string& player_id() const override { return player_id_; }

    /// Every message received so far, oldest first.
    std::vector<nlohmann::json> messages() const {
        std::lock_guard lock(mutex_);
        return messages_;
    }
    /// The messages received since the last call (or since the start).
    std::vector<nlohmann::json> take() {
        std::lock_guard lock(mutex_);
        std::vector<nlohmann::json> out(messages_.begin() + static_cast<std::ptrdiff_t>(cursor_),
                                        messages_.end());
        cursor_ = messages_.size();
        return out;
    }
    /// The messages of one type received so far.
    std::vector<nlohmann::json> of_type(const std::string& type) const {
        std::lock_guard lock(mutex_);
        std::vector<nlohmann::json> out;
        for (const auto& m : messages_)
            if (m.value("type", "") == type) out.push_back(m);
        return out;
    }
    /// The last message of a type, or null.
    nlohmann::json last(const std::string& type) const {
        auto all = of_type(type);
        return all.empty() ? nlohmann::json(nullptr) : all.back();
    }
    /// What this client knows of `match` (empty view if nothing arrived).
    TrackedView view(const std::string& match) const {
        std::lock_guard lock(mutex_);
        auto it = views_.find(match);
        return it == views_.end() ? TrackedView{} : it->second;
    }
    void clear() {
        std::lock_guard lock(mutex_);
        messages_.clear();
        cursor_ = 0;
    }

    /// The io_context this connection says serves it (Participant::io_home); none by default.
    void set_io_home(boost::asio::io_context* home) { io_home_ = home; }
    boost::asio::io_context* io_home() const override { return io_home_; }

  private:
    std::string player_id_;
    std::uint64_t connection_id_;
    boost::asio::io_context* io_home_ = nullptr;
    mutable std::mutex mutex_;
    std::vector<nlohmann::json> messages_;
    std::size_t cursor_ = 0;
    std::map<std::string, TrackedView> views_;
};

}  // namespace server::test
