-- The computer players (docs/bot.md, "In the server"): fixed players, so that the seats and
-- steps of games against the computer reference players like any other game's. Per level L:
-- c_L, and c_L_2, c_L_3 for a second and third computer at that level in one game (a player sits
-- once in a match).
-- They cannot sign in: their token_sha256 is no hash of any token anyone holds (a run of zeros
-- and the level, which SHA-256 is not known to produce). Never rated: a lobby with bots is
-- casual, so no ratings row is ever made for them and they never reach the leaderboard.
-- (the token hash: zeros, then the level and the number).
INSERT INTO players (id, display_name, token_sha256)
SELECT CASE WHEN n = 1 THEN 'c_' || level ELSE 'c_' || level || '_' || n END,
       CASE WHEN n = 1 THEN 'Computer' ELSE 'Computer ' || n END || ' (level ' || level || ')',
       repeat('0', 62) || level || n
FROM generate_series(1, 5) AS level, generate_series(1, 3) AS n
ON CONFLICT (id) DO NOTHING;
