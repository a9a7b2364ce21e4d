#pragma once
// A list that clients subscribe to (the live matches, the public lobbies): a snapshot when a
// client subscribes, then only what changed, coalesced: at most one `<list>.changed` event per
// Config::list_interval however many changes came in between, serialized once and shared by
// every subscriber. A whole list per change per subscriber would cost O(changes × list size ×
// subscribers) bytes; this costs O(changed entries) per interval.
//
// Entries are JSON objects with a string "id"; `changed` holds entries that are new or
// differ (the client puts each in place of the one with its id, or appends it), `removed`
// the ids that left. Applying a change twice is harmless, so a client that got a snapshot
// newer than the changes that follow it still ends up with the right list.
// Not thread-safe: the hub uses it on its lobby strand.

#include <map>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

namespace server {

/// One subscribable list and what its subscribers were last told.
class ListFeed {
public:
    /// `type` names the list: the snapshot event is `type` with the list under the key `type`
    /// ({"type":"matches","matches":[…]}), the change event `type`.changed.
    explicit ListFeed(std::string type);

    /// The list as it is now (an array of objects with an "id").
    void update(const nlohmann::json& list);
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
    nlohmann::json current_ = nlohmann::json::array();
    std::shared_ptr<const std::string> snapshot_;
    std::map<std::string, std::string> sent_;  ///< id -> entry (serialized) as last announced
};

}  // namespace server
