-- The chat of a match (docs/protocol.md, "Chat"): every line, stored before anyone is shown
-- it. `number` counts the match's lines, both channels together (a line that could not be
-- stored leaves its number unused); `name` is the writer's display name when they wrote it, so
-- the replay shows the line as it was shown; `seat` is NULL for a spectator.
CREATE TABLE match_chat (
    match_id  text NOT NULL REFERENCES matches (id),
    number    bigint NOT NULL CHECK (number >= 1),
    channel   text NOT NULL CHECK (channel IN ('players', 'spectators')),
    player_id text NOT NULL REFERENCES players (id),
    seat      integer CHECK (seat BETWEEN 0 AND 3),
    name      text NOT NULL,
    text      text NOT NULL CHECK (char_length(text) BETWEEN 1 AND 280),
    at        timestamptz NOT NULL,
    PRIMARY KEY (match_id, number)
);
