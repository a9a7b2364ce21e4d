-- The computer players (docs/bot.md, "In the server"): one fixed player per level, so that the
-- seats and steps of games against the computer reference players like any other game's.
-- They cannot sign in: their token_sha256 is no hash of any token anyone holds (a run of zeros
-- and the level, which SHA-256 is not known to produce). Never rated: a lobby with bots is
-- casual, so no ratings row is ever made for them and they never reach the leaderboard.
INSERT INTO players (id, display_name, token_sha256) VALUES
    ('c_1', 'Computer (level 1)', repeat('0', 63) || '1'),
    ('c_2', 'Computer (level 2)', repeat('0', 63) || '2'),
    ('c_3', 'Computer (level 3)', repeat('0', 63) || '3'),
    ('c_4', 'Computer (level 4)', repeat('0', 63) || '4'),
    ('c_5', 'Computer (level 5)', repeat('0', 63) || '5')
ON CONFLICT (id) DO NOTHING;
