-- Several nodes on one database (docs/scaling.md): each live match is owned by one node, which
-- holds a lease on it and renews it; the nodes table says which nodes are alive.

-- The owner node of a match is matches.owner_node (0001); its lease runs until lease_until.
-- A live match whose lease has run out (or that has no owner) may be claimed by any node.
ALTER TABLE matches ADD COLUMN lease_until timestamptz;

-- The takeover scan: live matches by lease end.
CREATE INDEX matches_live_lease ON matches (lease_until) WHERE status = 'live';

-- One row per running node, written by its heartbeat. A node whose heartbeat is older than the
-- lease is dead to the others; a node that stops gracefully deletes its row.
CREATE TABLE nodes (
    id           text PRIMARY KEY,                   -- Config::node_id
    url          text NOT NULL DEFAULT '',           -- how operators reach it (informational)
    started_at   timestamptz NOT NULL DEFAULT now(),
    heartbeat_at timestamptz NOT NULL DEFAULT now(),
    matches      integer NOT NULL DEFAULT 0,         -- live matches it holds in memory
    leader       boolean NOT NULL DEFAULT false      -- holds the pairing authority's lock
);
