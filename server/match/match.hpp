#pragma once
// A match: the authoritative game between seated players, an actor on its own strand. It owns
// the game (a protocol::Game: it knows no rules of its own), the clocks and every viewer's last
// typed view; everything reaches it by posting. Each state change bumps one match-wide version
// and sends every viewer (one per seat, one shared by all spectators) the RFC 6902 patch from
// its previous view, written as text from the typed views: what the match itself shows
// (status, presence, clock, result) is worked out once for all viewers, each step's history
// line is appended, and viewers who see the same thing share one message. The last messages
// are kept, bounded in count and bytes, so a reconnecting viewer can catch up.

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <array>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "protocol/game.hpp"
#include "protocol/json/basic_json.hpp"
#include "protocol/messages.hpp"
#include "server/time/lazy_timer.hpp"
#include "server/bots/bot_pool.hpp"
#include "server/match/clock.hpp"
#include "server/rooms/lobby.hpp"
#include "server/app/metrics.hpp"
#include "server/limits/keyed_buckets.hpp"
#include "server/net/participant.hpp"
#include "server/match/step_store.hpp"

namespace server {

/// What a finished match asks its owner to make once every seat accepted a rematch.
struct RematchRequest {
    std::string of;  ///< the finished match
    protocol::LobbySettings settings;
    std::vector<Member> seats;  ///< in the finished match's seat order
    int challenger = 0;         ///< the finished match's challenger seat
    std::string invite_sha256;  ///< a private match's invite hash ("" for public)
};
/// Why a rematch could not be made: the error its last accepter is answered.
struct RematchRefusal {
    protocol::ErrorCode code = protocol::ErrorCode::Unavailable;
    std::string message;
};
/// The rematch's id, or why it was not made.
using RematchAnswer = std::variant<std::string, RematchRefusal>;
/// Makes a rematch (the hub, server/app/hub_matches.cpp): calls `done` once, from any thread.
using RematchMaker =
    std::function<void(RematchRequest request, std::function<void(RematchAnswer)> done)>;

/// A chat line as stored (docs/protocol.md, "Chat"): what a restored match shows again.
struct StoredChatLine {
    std::uint64_t number = 0;  ///< 1, 2, ... within the match, both channels together
    bool spectators = false;   ///< the spectators' channel (else the players')
    int seat = -1;             ///< the writer's seat, -1 for a spectator
    std::string player_id;     ///< the writer
    std::string name;          ///< the writer's display name
    std::string text;
    std::int64_t at_ms = 0;
};

/// Everything a match is made from.
struct MatchOptions {
    std::string id;  ///< "m_..."
    protocol::LobbySettings settings;
    std::vector<Member> seats;         ///< seat i = lobby seat i
    std::uint64_t seed = 0;            ///< the engine's random seed (random draft, decks)
    int challenger = 0;                ///< the seat that drafts and names the start player
    std::size_t history = 64;          ///< patches kept per viewer for resuming, at most
    std::size_t history_bytes = 2048;  ///< and at most this many bytes of them per viewer (the
                                       ///< newest is always kept)
    /// A seat whose player has not had the match open for this long is abandoned: the match
    /// is aborted before every seat has made its first move, else the seat loses (0: never;
    /// docs/protocol.md, "Abandonment"; server/match/abandonment.hpp picks it from the settings).
    std::chrono::milliseconds abandon{0};
    /// restore: the stored result of a match the server ended without a record of it (an
    /// abort of a match never started, a failed recovery); null for none.
    nlohmann::json ended_as = nullptr;
    /// A private lobby's match: the SHA-256 (hex) of its invite code, which a spectator must
    /// give to watch it (docs/protocol.md, "Private matches"); "" for a public match.
    std::string invite_sha256 = {};
    BotPlay bots;  ///< how the computer seats (Member::bot_level) are played
    /// Makes the rematch once every seat accepted it; null: this match offers none.
    RematchMaker make_rematch;
    /// The spectator count alone goes out at most this often (Config::spectators_interval;
    /// 0: at once).
    std::chrono::milliseconds spectators_interval{1000};
    /// The chat (docs/protocol.md, "Chat"): the views keep at most this many lines per channel
    /// and this many bytes of lines in all (older lines drop out; the store keeps every line);
    /// each person may write `chat_burst` lines at once, then one per `chat_every`.
    std::size_t chat_lines = 50;
    std::size_t chat_bytes = 16 * 1024;
    double chat_burst = 5;
    std::chrono::milliseconds chat_every{1000};
    /// restore: the match's stored chat lines, oldest first (the views keep the newest).
    std::vector<StoredChatLine> chat = {};
    std::function<SteadyTime()> now = [] { return std::chrono::steady_clock::now(); };
    std::function<WallTime()> wall_now = [] { return std::chrono::system_clock::now(); };
};

/// A stored step to replay (recovery): what Match::record stored.
struct ReplayStep {
    std::uint32_t number = 0;
    std::string player_id;  ///< "" for the server's own steps (timeouts, abandonments)
    /// A step as protocol JSON, or {"kind":"resign"|"abort"|"timeout"|"abandon","seat":n}.
    std::string step_json;
    std::int64_t at_ms = 0;  ///< when it was stored, ms since the epoch
    std::string state_hash;  ///< the state's hash after it ("": not checked)
};

/// The rating pool of a match with these settings: "santorini", "santorini_powers" or
/// "splendor" (server/rating/rating.hpp names them).
std::string rating_pool(const protocol::LobbySettings& settings);

/// What a match tells its owner when its live-list entry changes: the entry, or null once the
/// match is over. Called on the match's strand; must not call back into it.
using MatchPublisher =
    std::function<void(const std::string& match_id, const nlohmann::json& live_entry)>;

class Match : public std::enable_shared_from_this<Match> {
  public:
    /// A match at its first decision point (version 1, clock running), or why the settings
    /// cannot make a game.
    static std::variant<std::shared_ptr<Match>, std::string> create(boost::asio::io_context& io,
                                                                    MatchOptions options,
                                                                    StepStore& store,
                                                                    Metrics& metrics,
                                                                    MatchPublisher publish);
    /// A match rebuilt from its stored steps (recovery after a restart): the engine replays
    /// every step from the options' seed, settings and challenger, and each stored state hash
    /// must match. The clock resumes as if the last step had been played just now, so the time
    /// the server was down is charged to nobody; the version restarts at the restart's wall time
    /// in ms, above any version issued before, so every reconnecting viewer gets a snapshot.
    /// `created_at_ms` is when the match was created. Returns why the replay failed (a step the
    /// engine refuses, a hash that differs) instead of a match.
    static std::variant<std::shared_ptr<Match>, std::string> restore(
        boost::asio::io_context& io, MatchOptions options, const std::vector<ReplayStep>& steps,
        std::int64_t created_at_ms, StepStore& store, Metrics& metrics, MatchPublisher publish);
    ~Match();
    Match(const Match&) = delete;
    Match& operator=(const Match&) = delete;

    const std::string& id() const { return options_.id; }
    /// The kind of game it hosts ("santorini"), as the store's `game` column names it.
    const std::string& kind() const { return kind_; }
    /// What the live list shows of the game (Santorini: {"powers": [...]}) and the hash of the
    /// state, as they are now. Only before the match is shared with other threads (the hub
    /// stores a new match with them).
    nlohmann::json live_fields_before_shared() const;
    std::string state_hash_before_shared() const;

    // Requests: each is posted to the match strand; replies go to `who` only.
    /// Starts sending `who` its viewer's updates (its seat's, else the spectators'): nothing
    /// if `since` is current, the missed patches if the history still has them, else a snapshot.
    /// A spectator of a private match must give its invite `code` (else not_authorized).
    void open(ParticipantPtr who, std::optional<std::uint64_t> since, protocol::Ref ref,
              std::string code = {});
    /// True when `player` (seated, or not: then with the invite `code`) may watch this match:
    /// always for a public match. Immutable data: any thread.
    bool may_watch(const std::string& player, std::string_view code) const;
    /// A private lobby's match (not in the live list; watched with its invite code).
    bool is_private() const { return !options_.invite_sha256.empty(); }
    /// Stops sending `who` updates.
    void close(ParticipantPtr who, protocol::Ref ref);
    /// The connection is gone (no reply).
    void remove(std::uint64_t connection_id);
    /// A step by the decider: stored durably, then applied and broadcast.
    void step(ParticipantPtr who, nlohmann::json step, protocol::Ref ref);
    /// The sender resigns (in play: loses or, with 3 players, is eliminated; in setup: aborts).
    void resign(ParticipantPtr who, protocol::Ref ref);
    /// Ends the match without a result; only before the first move.
    void abort(ParticipantPtr who, protocol::Ref ref);
    /// A present player ends the match now as the abandonment rule would at the away `seat`'s
    /// deadline (`abort`: the rule aborts it; else the seat loses), once the seat has been away
    /// for the claim time (docs/protocol.md, "Abandonment"); else not_claimable.
    void claim(ParticipantPtr who, int seat, bool abort, protocol::Ref ref);
    /// After the end: `accept` offers a rematch or accepts the one offered, and once every
    /// seat has, asks MatchOptions::make_rematch for it; false declines the offer
    /// (docs/protocol.md, "Rematch").
    void rematch(ParticipantPtr who, bool accept, protocol::Ref ref);
    /// A chat line from `who`, called `name`: to the players' channel from a seated player,
    /// else to the spectators'; stored first when there is a store, then shown to the views
    /// that read its channel (docs/protocol.md, "Chat"). The connection must have the match open.
    void chat(ParticipantPtr who, std::string name, std::string text, protocol::Ref ref);
    /// Calls `done` on the match's strand with the spectators' whole view and its version
    /// (the HTTP API's view of a live match); callers post back to their own executor.
    void spectator_view(std::function<void(nlohmann::json view, std::uint64_t version)> done);
    /// Re-reads the time source and settles a clock that ran out (the timer does this; tests
    /// with a fake time source call it after moving time on).
    void check_clock();
    /// Stops the timer and refuses further requests (server shutdown).
    void shutdown();
    /// Stops as shutdown() does, then closes every connection that has the match open with
    /// 1012 (Participant::restart): another node owns the match now (it took it over while this
    /// one could not renew the lease), and its clients reconnect, open it there and resume
    /// from their versions, as after a node's death (docs/scaling.md).
    void lost();
    /// Lets the computer seats play (their first decision, if one decides now): called once the
    /// hub holds the match, made or restored, so a bot never plays into a match nobody runs.
    void wake_bots();

  private:
    /// Stops the timers and refuses further requests (on the strand).
    void stop();
    /// What a request asks to record: a step, or an event the server records for the game.
    struct Action {
        enum class Kind { Step, Resign, Abort, Timeout, Abandon } kind = Kind::Step;
        int seat = -1;
        ParticipantPtr from;  ///< null for the server's own actions (timeouts)
        protocol::Ref ref;
        SteadyTime arrival{};  ///< from the match's time source: what the clock charges
        std::chrono::steady_clock::time_point received{};  ///< real time, for the latency metric
    };
    /// What an action makes of the match, worked out before it is stored (the store needs the
    /// state's hash, and the result and ratings of a last step) and applied once it is.
    struct Outcome {
        std::unique_ptr<protocol::Game> game;  ///< the game after the action (null: unchanged)
        std::vector<std::string> lines;   ///< a step's history line per viewer (seats, spectators)
        nlohmann::json result = nullptr;  ///< set when the action ends the match
        bool aborted = false;             ///< the match ends without a game
        std::vector<int> newly_out;       ///< seats the action put out, in seat order
        bool ends() const { return aborted || (game && game->over()); }
    };
    /// A version as a viewer's resume history keeps it: the patch between the viewer's views
    /// without legal steps (Game::undecided), and which legal steps the viewer had after it.
    /// A seat deciding gets its legal steps in its live patches; kept without them, its
    /// messages are the spectators' wherever it sees what they see, so a match keeps one text
    /// per version rather than one per seat (the legal steps were most of a seat's bytes).
    struct Kept {
        std::shared_ptr<const std::string> message;
        std::uint64_t decision = 0;  ///< Game::decision of the viewer's view after it
    };
    /// A viewer: a seat or all spectators, with its last view, history and connections.
    struct Viewer {
        int seat = protocol::spectators;
        std::unique_ptr<protocol::GameView> view;  ///< as of the last message sent
        /// The newest versions, for resuming: ring[i] is version ring_first + i (every viewer
        /// gets every version). A vector, not a deque: libstdc++'s deque takes a 512-byte block
        /// however few it holds, for each of a match's viewers.
        std::vector<Kept> ring;
        std::uint64_t ring_first = 0;
        std::uint64_t decision_before = 0;  ///< Game::decision as of version ring_first - 1
        std::size_t ring_bytes = 0;
        std::map<std::uint64_t, ParticipantPtr> connections;
    };
    /// What every viewer sees alike, as of the last message: compared to the new one, it gives
    /// the operations all patches share.
    struct Shown {
        std::string status;
        std::vector<bool> connected;
        int spectators = 0;
        // The members below as their JSON text: compared and written every step, so kept as
        // text rather than trees (docs/benchmarks.md, "A step matched without its canonical
        // document").
        std::string clock;
        std::string result;
        std::vector<std::string> away;  ///< per seat: null, or since, claim and deadline
        std::string rematch;            ///< null while the match is on (rematch_json)
        /// The chat lines shown (their numbers): [0] to the seats, [1] to the spectators.
        std::array<std::vector<std::uint64_t>, 2> chat;
    };
    /// Who is watching, as the views show it.
    struct Presence {
        std::vector<bool> connected;
        int spectators = 0;
        bool operator==(const Presence&) const = default;
    };
    /// The step history: one line per step, the same for every viewer unless the game made
    /// lines of its own for some (a secret step).
    struct History {
        std::string text;  ///< the common lines, each ended by '\n'
        std::size_t lines = 0;
        std::map<std::size_t, std::vector<std::string>> own;  ///< line -> per-viewer texts
    };

    Match(boost::asio::io_context& io, MatchOptions options, std::unique_ptr<protocol::Game> game,
          StepStore& store, Metrics& metrics, MatchPublisher publish);

    void do_open(const ParticipantPtr& who, std::optional<std::uint64_t> since, const std::string& code,
                 const protocol::Ref& ref);
    void do_close(std::uint64_t connection_id, const ParticipantPtr& who, const protocol::Ref& ref);
    void do_step(const ParticipantPtr& who, const nlohmann::json& step, const protocol::Ref& ref,
                 SteadyTime arrival);
    void do_event(Action::Kind kind, const ParticipantPtr& who, const protocol::Ref& ref);

    // The durability pipeline: record, wait for the store, then apply. `last`: the caller does
    // nothing after this call, so a store that answers before append returns (the memory
    // store) has the action applied here, in this strand turn, rather than in one of its own.
    void record(Action action, std::string what, Outcome outcome, bool last = false);
    void on_recorded(bool stored);
    Outcome event_outcome(const Action& action) const;
    void settle(Outcome& outcome, std::string_view reason) const;
    std::optional<MatchFinish> finish_of(const Outcome& outcome) const;
    void apply(const Action& action, Outcome outcome, SteadyTime now);
    void first_view(SteadyTime now, WallTime wall);
    void on_timer();
    void arm_timer();
    // Abandonment (match_abandonment.cpp): who is away since when, and the timer for the first
    // seat whose time runs out. Re-read after every presence change and every applied action.
    void watch_away(std::chrono::milliseconds at_least = {});
    void on_abandon_timer();
    /// Brings away_since_ up to date with who has the match open now.
    void note_away();
    /// What the views show of the seat's absence: null, or when it went away, from when a
    /// claim is allowed, when the rule ends the match and what it then does.
    nlohmann::json away_json(int seat) const;
    void do_claim(const ParticipantPtr& who, int seat, bool abort, const protocol::Ref& ref);
    /// Stores the abandonment of `seat` (by the timer, or claimed by `from`).
    void record_abandon(int seat, ParticipantPtr from, protocol::Ref ref, SteadyTime now);
    /// Whether every seat still in has played a step since setup ended (an abandonment before
    /// that aborts the match).
    bool everyone_moved() const;
    /// Whether abandoning a seat now aborts the match (rather than the seat losing).
    bool abandon_aborts() const { return !game_->in_play() || !everyone_moved(); }

    // Rematch (server/match/match_rematch.cpp): offered, answered and made after the end.
    void do_rematch(const ParticipantPtr& who, bool accept, const protocol::Ref& ref);
    void on_rematch_made(RematchAnswer answer);
    /// What the views show: null while the match is on (or offers no rematch), else who said
    /// yes, who declined or left, and the rematch once made.
    nlohmann::json rematch_json() const;
    /// A seat left (its last connection closed) while an offer stood: the offer lapses.
    void lapse_rematch(const Presence& before);

    // Chat (server/match/match_chat.cpp): two channels, players' and spectators', each line
    // stored before it is shown; while the match is on each viewer reads its own channel only.
    struct ChatLine {
        std::uint64_t number = 0;
        bool spectators = false;
        std::string json;  ///< the line as the views show it
    };
    void do_chat(const ParticipantPtr& who, const std::string& name, const std::string& text,
                 const protocol::Ref& ref);
    void on_chat_stored(StoredChatLine line, bool stored, const ParticipantPtr& who,
                        const protocol::Ref& ref);
    /// Keeps a line in memory, dropping the oldest beyond the bounds.
    void keep_chat(const StoredChatLine& line);
    /// The numbers of the lines a viewer reads (spectators: the spectators' view).
    std::vector<std::uint64_t> chat_seen(bool spectators) const;
    /// The patch operations that take /chat from `before` to `after` (line numbers).
    void write_chat_ops(const std::vector<std::uint64_t>& before,
                        const std::vector<std::uint64_t>& after, protocol::PatchText& patch) const;
    void write_chat(bool spectators, protocol::JsonText& out) const;

    // Computer seats (server/match/match_bots.cpp): think off the strand, play through do_step.
    void bot_turn();
    void on_bot_decision(std::uint32_t number, int seat, nlohmann::json step, bool failed,
                         double seconds);
    void play_bot_step(std::uint32_t number, int seat, nlohmann::json step);
    bool is_bot(int seat) const;
    void make_bot_players();
    std::optional<nlohmann::json> first_legal_step() const;

    // Views.
    /// `acked`: the action whose sender asked for its acknowledgement in the patch
    /// (Participant::ack_in_patch); true if that patch carried it (the sender views the match).
    bool broadcast(std::optional<std::uint64_t> skip_connection = std::nullopt,
                   const Action* acked = nullptr);
    Shown shown(SteadyTime now, WallTime wall) const;
    void write_view(const Viewer& viewer, protocol::JsonText& out) const;
    std::string snapshot(const Viewer& viewer) const;
    /// Keeps the message of a new version in the viewer's resume history, `decision` being
    /// Game::decision of its new view; called before the viewer's view moves on to that one.
    void keep(Viewer& viewer, const std::shared_ptr<const std::string>& message,
              std::uint64_t decision);
    /// What a viewer who saw version `since` (in its resume history) is sent to catch up: the
    /// kept patches after it, the last with the operations that bring its legal steps up to
    /// date.
    void resume(const Viewer& viewer, std::uint64_t since, const ParticipantPtr& who) const;
    void publish_entry();
    Presence presence() const;
    /// After a connection came or went: a seat's presence goes out at once, the spectator
    /// count at most every spectators_interval (skip: the newcomer, who gets a catch-up).
    void presence_changed(const Presence& before, std::optional<std::uint64_t> skip_connection);
    Viewer& viewer_for(const std::string& player_id);
    std::size_t viewer_index(int viewer) const;
    int seat_of(const std::string& player_id) const;
    bool active() const { return !aborted_ && !game_->over(); }
    /// The seat whose clock runs now: the decider, or -1 while the powers are drafted.
    int clock_seat() const;
    std::string status() const;

    void reply_error(const ParticipantPtr& who, protocol::ErrorCode code, std::string_view message,
                     const protocol::Ref& ref);
    void reply_ack(const ParticipantPtr& who, const protocol::Ref& ref);

    MatchOptions options_;
    StepStore& store_;
    Metrics& metrics_;
    MatchPublisher publish_;
    using Strand = boost::asio::strand<boost::asio::io_context::executor_type>;
    Strand strand_;
    boost::asio::steady_timer timer_;
    LazyTimer<Strand> spectators_timer_;  ///< the coalesced spectator count (presence_changed)
    bool spectators_due_ = false;                 ///< spectators_timer_ is running

    std::unique_ptr<protocol::Game> game_;
    const std::string kind_;  ///< game_->kind(), readable from any thread
    Clock clock_;
    std::vector<Viewer> viewers_;  ///< one per seat, then the spectators
    Shown shown_;                  ///< what every viewer was last shown alike
    History history_;
    /// What the live list's entry is made of that can change: publish_entry builds and
    /// publishes the entry only when one of these did (names, privacy and computer seats are
    /// the match's own for life), not at every step, and the match keeps no copy of it.
    struct LiveKey {
        bool active = false;
        std::string status;
        int spectators = 0;
        std::string fields;  ///< game_->write_live_fields(), as text (no tree at every step)
        bool operator==(const LiveKey& o) const {
            return active == o.active && spectators == o.spectators && status == o.status && fields == o.fields;
        }
    };
    std::optional<LiveKey> live_key_;  ///< as last published (none before the first)
    bool line_added_ = false;    ///< the state change being broadcast added a history line
    std::string last_line_;      ///< the newest common history line
    std::uint64_t version_ = 1;
    std::uint32_t records_ = 0;  ///< actions stored so far
    nlohmann::json result_ = nullptr;
    bool aborted_ = false;
    /// The action waiting for the store and what it will make of the match: at most one at a
    /// time (another request meanwhile is answered busy), applied by on_recorded.
    struct Pending {
        Action action;
        Outcome outcome;
    };
    std::optional<Pending> pending_;
    /// Inside record(..., last = true)'s call to the store: an answer given there, on this
    /// strand, is kept in answered_ and applied when append returns (no strand turn of its own).
    bool appending_ = false;
    std::optional<bool> answered_;
    std::vector<int> out_order_;  ///< seats in the order they went out (finishing places)
    /// A seat nobody has had open since `since` (the timer's time) = `since_ms` (the views').
    struct Away {
        SteadyTime since;
        std::int64_t since_ms = 0;
    };
    std::vector<std::optional<Away>> away_since_;  ///< per seat
    std::vector<bool> moved_;  ///< per seat: played a step while the game was in play
    LazyTimer<Strand> abandon_timer_;
    bool stopped_ = false;
    bool bots_awake_ = false;  ///< wake_bots came: the computer seats may play
    /// The step number (records_) a computer decision is being made for, if any: a decision
    /// for another number is stale (the match moved on) and is dropped.
    std::optional<std::uint32_t> bot_asked_;
    SteadyTime bot_asked_at_{};                ///< when it was asked (the delay counts from it)
    LazyTimer<Strand> bot_timer_;      ///< the delay, and the retry when the pool is full
    std::vector<ParticipantPtr> bot_players_;  ///< by seat: who a computer seat's steps come from
    /// The rematch after the end: one offer at a time, answered by every seat.
    struct Rematch {
        std::uint32_t yes = 0;  ///< seats that offered or accepted (bit per seat)
        int no = -1;            ///< the seat that declined or left, if any
        bool left = false;      ///< `no` left the match rather than declining
        bool asking = false;    ///< every seat said yes: the owner is making it
        std::string next;       ///< the rematch's id, once made
        ParticipantPtr asker;   ///< who said the last yes (answered once it is made)
        protocol::Ref asker_ref;
    };
    Rematch rematch_;
    /// The newest lines of both channels, by number. A vector (a few lines at most): an empty
    /// libstdc++ deque already takes about 600 bytes, in every match, most of which never chat.
    std::vector<ChatLine> chat_;
    std::size_t chat_bytes_ = 0;       ///< the bytes of chat_'s lines
    std::uint64_t chat_numbers_ = 0;   ///< the last line number given
    KeyedTokenBuckets<> chat_buckets_; ///< per player: the chat rate
};

}  // namespace server
