#include "server/rooms/list_feed.hpp"

#include <set>
#include <utility>

#include "protocol/messages.hpp"

namespace server {

using nlohmann::json;

namespace {

std::string id_of(const json& entry) {
    auto it = entry.find("id");
    return it != entry.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace

ListFeed::ListFeed(std::string type) : type_(std::move(type)) {}

void ListFeed::update(const json& list) {
    if (list == current_) return;
    current_ = list;
    snapshot_.reset();
}

std::shared_ptr<const std::string> ListFeed::snapshot() {
    if (!snapshot_) snapshot_ = std::make_shared<const std::string>(protocol::event_message(type_, {{type_, current_}}));
    return snapshot_;
}

std::shared_ptr<const std::string> ListFeed::take_changes() {
    json changed = json::array();
    json removed = json::array();
    std::map<std::string, std::string> now;
    for (const json& entry : current_) {
        std::string text = entry.dump();
        const std::string id = id_of(entry);
        auto before = sent_.find(id);
        if (before == sent_.end() || before->second != text) changed.push_back(entry);
        now.emplace(id, std::move(text));
    }
    for (const auto& [id, text] : sent_)
        if (!now.count(id)) removed.push_back(id);
    sent_ = std::move(now);
    if (changed.empty() && removed.empty()) return nullptr;
    return std::make_shared<const std::string>(
        protocol::event_message(type_ + ".changed", {{"changed", std::move(changed)}, {"removed", std::move(removed)}}));
}

void ListFeed::forget_changes() {
    sent_.clear();
    for (const json& entry : current_) sent_.emplace(id_of(entry), entry.dump());
}

}  // namespace server
