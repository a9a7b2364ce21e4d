#pragma once
// A list that clients subscribe to (the live matches, the public lobbies): a snapshot when a
// client subscribes, then only what changed, coalesced: at most one `<list>.changed` event per
// Config::list_interval however many changes came in between, serialized once and shared by
// every subscriber. A whole list per change per subscriber would cost O(changes × list size ×
// subscribers) bytes; this costs O(changed entries) per interval.
//
// Entries are JSON objects with a string "id", kept as their text: one text per entry, shared
// by the published list, its copies and what the feed last told, where JSON trees cost a
// kilobyte or more per entry and were copied once per holder (thousands of live matches).
// `changed` holds entries that are new or differ (the client puts each in place of the one
// with its id, or appends it), `removed` the ids that left. Applying a change twice is
// harmless, so a client that got a snapshot newer than the changes that follow it still ends
// up with the right list.
// Not thread-safe: the hub uses it on its lobby strand.

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "protocol/json/basic_json.hpp"

namespace server {

/// One entry of a list: its id and its JSON object as text (never empty), shared by every
/// holder of the entry.
struct ListEntry {
    std::string id;
    std::shared_ptr<const std::string> text;
};
/// A list as published, in order.
using ListEntries = std::vector<ListEntry>;

/// The entry of a JSON object with a string "id" ("" when it has none).
ListEntry list_entry(const nlohmann::json& entry);
/// The entries of a JSON array of such objects.
ListEntries list_entries(const nlohmann::json& list);
/// The list as a JSON array's text.
std::string list_text(const ListEntries& list);

/// One subscribable list and what its subscribers were last told.
class ListFeed {
public:
    /// `type` names the list: the snapshot event is `type` with the list under the key `type`
    /// ({"type":"matches","matches":[…]}), the change event `type`.changed.
    explicit ListFeed(std::string type);

    /// The list as it is now.
    void update(std::shared_ptr<const ListEntries> list);
    /// The snapshot event of the list as it is now (cached until the next update).
    std::shared_ptr<const std::string> snapshot();
    /// The change event since the last call (or since forget_changes), or null if nothing
    /// changed: {"type":"<type>.changed","changed":[entry…],"removed":[id…]}.
    std::shared_ptr<const std::string> take_changes();
    /// Nobody was subscribed: what changed meanwhile is nobody's news; the next change event
    /// starts from the list as it is now.
    void forget_changes();

private:
    std::string type_;
    std::shared_ptr<const ListEntries> current_ = std::make_shared<const ListEntries>();
    std::shared_ptr<const std::string> snapshot_;
    /// id -> entry as last announced (the text shared with the list it came from)
    std::map<std::string, std::shared_ptr<const std::string>> sent_;
};

}  // namespace server
