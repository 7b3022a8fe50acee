-- 0008 (PostgreSQL, issue 17 point 7, SPEC T): the team of each seat of a partner game, as SQLite's 0008 (read its
-- comments): team = 1, 2, … or NULL without teams, backfilled from the start entries of the match records.
ALTER TABLE match_players ADD COLUMN team INTEGER CHECK (team >= 1);

UPDATE match_players AS p
SET team = p.seat % (t.players / 2) + 1
FROM (
    SELECT m.id AS match_id, (s.start #>> '{players}')::integer AS players
    FROM matches AS m
    JOIN LATERAL (
        SELECT r.entry::jsonb -> 'start' AS start
        FROM match_records AS r
        WHERE r.match_key = m.match_key AND r.seq = 0 AND r.entry LIKE '%"teams"%'
    ) AS s ON true
    WHERE m.mode IN ('classic', 'flip') AND s.start #> '{options,teams}' = 'true'::jsonb
      AND jsonb_typeof(s.start -> 'players') = 'number'
) AS t
WHERE p.match_id = t.match_id AND t.players IN (4, 6, 8)
  AND t.players = (SELECT count(*) FROM match_players AS q WHERE q.match_id = t.match_id);
