-- A player's preferences (docs/api.md, "Preferences"): kept by the server so that they follow
-- an account to every device it signs in on. A guest has them too (a guest is a player with a
-- token); a player without a row has the defaults: no language (the browser's), chat on, nobody
-- muted.
CREATE TABLE preferences (
    player_id  text PRIMARY KEY REFERENCES players (id),
    -- The client's language code; NULL: follow the browser. The list of languages is the
    -- server's (server/accounts/preferences.hpp), so a new language needs no migration.
    language   text CHECK (language ~ '^[a-z]{2,3}$'),
    -- The match chat hidden (docs/protocol.md, "Chat").
    chat_off   boolean NOT NULL DEFAULT false,
    -- The players whose chat lines this player does not see: at most 200 ids, each without a
    -- comma (the server checks the ids' characters), no duplicates (the server removes them).
    muted      text[] NOT NULL DEFAULT '{}' CHECK (cardinality(muted) <= 200),
    updated_at timestamptz NOT NULL DEFAULT now()
);
