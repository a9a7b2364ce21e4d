-- The pairing authority's rooms (docs/scaling.md, "Lobbies and queues survive the leader"): the
-- open lobbies (members, settings, seats, invite codes, kicked players) and the rated queues'
-- waiting places, as one JSON document that the leader of a fleet replaces whenever they
-- change, and that a new leader reads when it takes over. One row per fleet (a fleet is the
-- nodes sharing one schema). Only the session holding the leader's advisory lock writes it, so
-- a leader that lost the lock cannot overwrite what its successor loaded. Lobby chats are not
-- kept. A single node (no fleet) never writes it.
CREATE TABLE leader_rooms (
    one       boolean PRIMARY KEY DEFAULT true CHECK (one),
    -- The node that wrote it (for the logs and for people reading the table).
    node      text NOT NULL,
    -- {"version":1,"lobbies":[...],"queue":[...]}: server/rooms/room_snapshot.hpp.
    rooms     jsonb NOT NULL,
    saved_at  timestamptz NOT NULL DEFAULT now()
);
