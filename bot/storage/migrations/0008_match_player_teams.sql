-- 0008 (issue 17 point 7, SPEC T): the team of each seat of a partner game, so that a player's history tells their
-- partner from their opponents. team = 1, 2, … (SPEC T1: team t is seats t - 1 and t - 1 + n/2); NULL for a match
-- played without teams. Written with the match's result from this version on (Store.finish_match).
ALTER TABLE match_players ADD COLUMN team INTEGER CHECK (team >= 1);

-- The backfill: partner games were only ever played with match records (0006), whose start entry (seq 0, the
-- adapter's JSON, bot/adapter/records.py) holds the match's options and player count. A match whose start says
-- teams = true in classic UNO or UNO FLIP, for 4, 6 or 8 players, its record and its rows agreeing on the count, gets
-- its seats' teams; every other match keeps NULL (shown as before). The LIKE skips the JSON of every other start.
-- (keyed by match: the UPDATE below looks each seat's match up in it)
CREATE TEMPORARY TABLE team_matches (match_id INTEGER PRIMARY KEY, players INTEGER NOT NULL);
INSERT INTO team_matches (match_id, players)
SELECT m.id, CAST(json_extract(r.entry, '$.start.players') AS INTEGER)
FROM matches AS m JOIN match_records AS r ON r.match_key = m.match_key AND r.seq = 0
WHERE m.mode IN ('classic', 'flip') AND r.entry LIKE '%"teams"%' AND json_valid(r.entry)
  AND json_extract(r.entry, '$.start.options.teams') = 1
  AND json_extract(r.entry, '$.start.players') IN (4, 6, 8)
  AND json_extract(r.entry, '$.start.players') = (SELECT count(*) FROM match_players AS q WHERE q.match_id = m.id);

UPDATE match_players
SET team = seat % ((SELECT t.players FROM team_matches AS t WHERE t.match_id = match_players.match_id) / 2) + 1
WHERE match_id IN (SELECT match_id FROM team_matches);

DROP TABLE team_matches;
