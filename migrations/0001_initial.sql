-- The first schema: players, matches and their seats, every step of every match, ratings.
-- Applied by the migration runner (server/store/migrations.hpp), which owns schema_migrations.
-- Names are unqualified: the tables go into the first schema of the connection's search_path.
-- docs/storage.md explains every table.

-- A person who plays. Guests have only a display name; the secret token that lets them act is
-- kept only as its SHA-256 (hex), so a copy of the database cannot impersonate anyone.
CREATE TABLE players (
    id           text PRIMARY KEY,                  -- "p_..." (server/ids.hpp)
    display_name text NOT NULL CHECK (length(display_name) BETWEEN 1 AND 64),
    token_sha256 text NOT NULL UNIQUE CHECK (token_sha256 ~ '^[0-9a-f]{64}$'),
    created_at   timestamptz NOT NULL DEFAULT now()
);

-- One game between seated players. settings and result are the server's JSON; the seed is the
-- engine's 64-bit seed stored as the same bits in a signed bigint.
CREATE TABLE matches (
    id          text PRIMARY KEY,                    -- "m_..."
    game        text NOT NULL,                       -- "santorini", later "splendor"
    settings    jsonb NOT NULL,
    seed        bigint NOT NULL,
    status      text NOT NULL DEFAULT 'live' CHECK (status IN ('live', 'finished', 'aborted')),
    created_at  timestamptz NOT NULL DEFAULT now(),
    started_at  timestamptz,
    finished_at timestamptz,
    result      jsonb,                               -- set when the match ends
    owner_node  text,                                -- the server node that runs it (scale-out)
    state_hash  text,                                -- hash of the state after the last step
    CHECK ((status = 'live') = (finished_at IS NULL))
);

-- Who sits where. created_at repeats the match's, so a player's matches page by time through
-- one index without touching matches.
CREATE TABLE seats (
    match_id      text NOT NULL REFERENCES matches (id),
    seat          smallint NOT NULL CHECK (seat BETWEEN 0 AND 7),
    player_id     text NOT NULL REFERENCES players (id),
    power         text,                              -- god or hero key; NULL without powers
    team          smallint,                          -- NULL when nobody plays in teams
    rating_before double precision,                  -- set when a rated match finishes
    rating_after  double precision,
    created_at    timestamptz NOT NULL,
    PRIMARY KEY (match_id, seat),
    UNIQUE (match_id, player_id)
);

-- Every accepted step of every match, append-only: the code has no UPDATE or DELETE of it.
-- player_id is NULL for the server's own steps (a timeout). state_hash, when given, is the hash
-- of the state after this step, checked when the match is replayed at recovery.
CREATE TABLE steps (
    match_id   text NOT NULL REFERENCES matches (id),
    number     integer NOT NULL CHECK (number >= 1),
    player_id  text REFERENCES players (id),
    step       jsonb NOT NULL,
    at         timestamptz NOT NULL,
    state_hash text,
    PRIMARY KEY (match_id, number)
);

-- One Glicko-2 rating per player and pool ("santorini", "santorini-powers", later "splendor").
-- rating and deviation on the Glicko scale (1500 / 350), volatility as in Glickman's paper.
CREATE TABLE ratings (
    player_id     text NOT NULL REFERENCES players (id),
    pool          text NOT NULL,
    rating        double precision NOT NULL,
    deviation     double precision NOT NULL CHECK (deviation > 0),
    volatility    double precision NOT NULL CHECK (volatility > 0),
    games         integer NOT NULL DEFAULT 0 CHECK (games >= 0),
    last_rated_at timestamptz,
    PRIMARY KEY (player_id, pool)
);

-- Every rating change, with the match that caused it.
CREATE TABLE rating_history (
    id         bigserial PRIMARY KEY,
    player_id  text NOT NULL REFERENCES players (id),
    pool       text NOT NULL,
    match_id   text NOT NULL REFERENCES matches (id),
    rating     double precision NOT NULL,
    deviation  double precision NOT NULL,
    volatility double precision NOT NULL,
    at         timestamptz NOT NULL,
    UNIQUE (match_id, player_id)
);

-- A player's matches, newest first (keyset pagination on (created_at, match_id)).
CREATE INDEX seats_player_time ON seats (player_id, created_at DESC, match_id DESC);
-- Live matches (recovery at start, the lobby's list): only the few live rows are indexed.
CREATE INDEX matches_live ON matches (created_at) WHERE status = 'live';
-- Leaderboard per pool.
CREATE INDEX ratings_leaderboard ON ratings (pool, rating DESC, player_id);
-- A player's rating history in one pool, newest first.
CREATE INDEX rating_history_player ON rating_history (player_id, pool, at DESC, id DESC);
