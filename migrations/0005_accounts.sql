-- Accounts (docs/api.md, "Accounts"): a guest claims its player id with a username and a
-- password, signs in on other devices (a session token per device) and signs out.

-- A player who claimed an account. The player's id, ratings and matches stay as they were: an
-- account is the guest's identity made reusable, not a new player.
CREATE TABLE accounts (
    player_id     text PRIMARY KEY REFERENCES players (id),
    username      text NOT NULL CHECK (char_length(username) BETWEEN 3 AND 24),
    -- The username as compared: case folded by the server (server/username.hpp), unique.
    username_key  text NOT NULL UNIQUE,
    -- libsodium's crypto_pwhash_str: Argon2id with its own salt and limits; never the password.
    password_hash text NOT NULL CHECK (password_hash LIKE '$argon2id$%'),
    created_at    timestamptz NOT NULL DEFAULT now(),
    password_at   timestamptz NOT NULL DEFAULT now()
);

-- One signed-in device of an account: the token's SHA-256 only, like players.token_sha256.
-- Sign-out deletes the row; a password change deletes every row but the caller's.
CREATE TABLE sessions (
    token_sha256 text PRIMARY KEY CHECK (token_sha256 ~ '^[0-9a-f]{64}$'),
    player_id    text NOT NULL REFERENCES players (id),
    created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sessions_player ON sessions (player_id);

-- The guest's own token can be signed out too (or revoked by a password change): then the
-- player has no token in this table, only sessions.
ALTER TABLE players ALTER COLUMN token_sha256 DROP NOT NULL;
