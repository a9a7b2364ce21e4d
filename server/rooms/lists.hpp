#pragma once
// The lists every node shows (docs/protocol.md, "Server messages"): the public lobby list and
// the live match list, as published by the strands that own their data, read by the HTTP
// getters, and told to the connections that subscribed (lobbies.subscribe, matches.subscribe)
// as coalesced changes. The published lists are behind a lock (any thread reads them); the
// subscribers and their feeds belong to the lobby strand.

#include <boost/asio/io_context.hpp>
#include <boost/asio/strand.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "protocol/json/basic_json.hpp"
#include "server/app/guarded.hpp"
#include "server/net/participant.hpp"
#include "server/rooms/list_feed.hpp"

namespace server {

class Metrics;

class Lists {
  public:
    using Strand = boost::asio::strand<boost::asio::io_context::executor_type>;
    /// Runs an action on the lobby strand after a delay (the hub's cancellable timers).
    using After = std::function<void(std::chrono::milliseconds, std::function<void()>)>;

    /// Lists told to their subscribers at most once per `interval` (0: as soon as posted);
    /// `strand` (the lobby strand) and `metrics` outlive this.
    Lists(const Strand& strand, Metrics& metrics, std::chrono::milliseconds interval, After after);

    // ---- any thread ----
    /// The public lobby list as last published.
    nlohmann::json lobbies() const;
    /// The live match list (without private matches), rebuilt if it changed since last read.
    std::shared_ptr<const ListEntries> live();
    /// Every live entry by match id, private ones included (for a fleet's `sync`).
    std::vector<std::pair<std::string, nlohmann::json>> live_entries() const;
    /// Publishes the lobby list; false (nothing done) when it is the same as before. The
    /// caller then schedules the subscribers' news (schedule(), on the lobby strand).
    bool set_lobbies(nlohmann::json list);
    /// Sets (or with null removes) a match's live entry; a change posts one rebuild of the list
    /// to the lobby strand, however many changes come before it runs.
    void set_live_entry(const std::string& id, const nlohmann::json& entry);

    // ---- lobby strand ----
    /// The lists changed: the subscribers hear of it within the interval, once for all the
    /// changes made meanwhile.
    void schedule();
    /// `who` subscribes to the lobby list (told it now) or, with `on` false, unsubscribes.
    void watch_lobbies(const ParticipantPtr& who, bool on);
    /// `who` subscribes to the live list (told it now) or, with `on` false, unsubscribes.
    void watch_matches(const ParticipantPtr& who, bool on);
    /// Connection `id` is gone: it subscribes to nothing.
    void forget(std::uint64_t id);

  private:
    /// What the getters read, published by the strands that own the data.
    struct Published {
        nlohmann::json lobby_list = nlohmann::json::array();
        /// The same, as the feed reads it.
        std::shared_ptr<const ListEntries> lobby_entries = std::make_shared<const ListEntries>();
        /// A live match's entry, as its match last published it.
        struct Live {
            ListEntry entry;
            bool listed = true;  ///< public (private matches are never listed)
        };
        /// One entry per live match, in the order they started.
        std::map<std::uint64_t, Live> live;
        std::unordered_map<std::string, std::uint64_t> live_order;  ///< match id -> key in `live`
        std::uint64_t next_live_order = 0;
        /// `live` changed since live_list was built: it is rebuilt when read (GET
        /// /api/matches, a new subscriber) or by the publication posted for the subscribers,
        /// never per change: with a thousand live matches a rebuild copies a thousand entries.
        bool live_stale = false;
        /// A publication to the subscribers is posted to the lobby strand (coalesces bursts).
        bool live_scheduled = false;
        /// The list as last rebuilt (the entries' texts are shared, not copied).
        std::shared_ptr<const ListEntries> live_list = std::make_shared<const ListEntries>();

        /// Brings live_list up to date.
        void rebuild_live();
    };
    /// Who is subscribed, and what they were told: a snapshot on subscribing, then changes.
    struct Subscribers {
        std::map<std::uint64_t, ParticipantPtr> lobbies;
        std::map<std::uint64_t, ParticipantPtr> matches;
        ListFeed lobby_feed{"lobbies"};
        ListFeed match_feed{"matches"};
        bool due = false;  ///< a flush is scheduled
    };

    /// The live list changed: the subscribers hear of it with the next flush (lobby strand).
    void publish_live();
    /// Tells the subscribers what changed since they were last told (lobby strand).
    void flush();

    const Strand& strand_;
    Metrics& metrics_;
    const std::chrono::milliseconds interval_;
    const After after_;
    Guarded<Published> published_;
    StrandOwned<Subscribers, Strand> subscribers_;
};

}  // namespace server
