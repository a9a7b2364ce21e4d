#include "server/rooms/list_feed.hpp"

#include <utility>

#include "protocol/json_text.hpp"

namespace server {

using nlohmann::json;

ListEntry list_entry(const json& entry) {
    auto id = entry.find("id");
    return {id != entry.end() && id->is_string() ? id->get<std::string>() : std::string(),
            std::make_shared<const std::string>(
                entry.dump(-1, ' ', false, json::error_handler_t::replace))};
}

ListEntries list_entries(const json& list) {
    ListEntries entries;
    if (!list.is_array()) return entries;
    entries.reserve(list.size());
    for (const json& entry : list) entries.push_back(list_entry(entry));
    return entries;
}

namespace {

/// Appends `[text, text, …]`.
void write_texts(const ListEntries& list, std::string& out) {
    out += '[';
    for (std::size_t i = 0; i < list.size(); ++i) {
        if (i > 0) out += ',';
        out += *list[i].text;
    }
    out += ']';
}

/// `{"type":<type>,` ready for the event's own members.
std::string event_head(std::string_view type) {
    std::string text;
    protocol::JsonText out(text);
    out.begin_object().key("type").string(type);
    text += ',';
    return text;
}

}  // namespace

std::string list_text(const ListEntries& list) {
    std::string text;
    write_texts(list, text);
    return text;
}

ListFeed::ListFeed(std::string type) : type_(std::move(type)) {}

void ListFeed::update(std::shared_ptr<const ListEntries> list) {
    if (list == current_) return;
    current_ = std::move(list);
    snapshot_.reset();
}

std::shared_ptr<const std::string> ListFeed::snapshot() {
    if (!snapshot_) {
        std::string text = event_head(type_);
        protocol::JsonText(text).string(type_);
        text += ':';
        write_texts(*current_, text);
        text += '}';
        snapshot_ = std::make_shared<const std::string>(std::move(text));
    }
    return snapshot_;
}

std::shared_ptr<const std::string> ListFeed::take_changes() {
    ListEntries changed;
    std::map<std::string, std::shared_ptr<const std::string>> now;
    for (const ListEntry& entry : *current_) {
        auto before = sent_.find(entry.id);
        if (before == sent_.end() ||
            (before->second != entry.text && *before->second != *entry.text))
            changed.push_back(entry);
        now.emplace(entry.id, entry.text);
    }
    std::string removed;
    protocol::JsonText removed_ids(removed);
    removed_ids.begin_array();
    bool any_removed = false;
    for (const auto& [id, text] : sent_)
        if (!now.count(id)) {
            removed_ids.string(id);
            any_removed = true;
        }
    removed_ids.end_array();
    sent_ = std::move(now);
    if (changed.empty() && !any_removed) return nullptr;
    std::string text = event_head(type_ + ".changed");
    text += "\"changed\":";
    write_texts(changed, text);
    text += ",\"removed\":";
    text += removed;
    text += '}';
    return std::make_shared<const std::string>(std::move(text));
}

void ListFeed::forget_changes() {
    sent_.clear();
    for (const ListEntry& entry : *current_) sent_.emplace(entry.id, entry.text);
}

}  // namespace server
