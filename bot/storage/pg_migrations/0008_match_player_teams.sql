-- 0008 (PostgreSQL, issue 17 point 7, SPEC T): the team of each seat of a partner game, as SQLite's 0008 (read its
-- comments): team = 1, 2, … or NULL without teams, backfilled from the start entries of the match records.
ALTER TABLE match_players ADD COLUMN team INTEGER CHECK (team >= 1);

-- A start entry that is not JSON (a damaged record) reads as no start, as SQLite's json_valid does: its match keeps
-- NULL and the upgrade goes on (a failed migration would stop the bot at its start). Created in the schema, as the
-- tables are (a temporary one needs the TEMP privilege, which a locked-down database may not grant), and dropped at
-- the end of this transaction.
CREATE FUNCTION uno_0008_start(entry text) RETURNS jsonb LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
    RETURN entry::jsonb -> 'start';
EXCEPTION WHEN data_exception THEN
    RETURN NULL;
END
$$;

-- players: 4, 6 or 8 by comparison, never by a cast (a start whose count is 4.5, "4" or 10^30 keeps NULL).
UPDATE match_players AS p
SET team = p.seat % (t.players / 2) + 1
FROM (
    SELECT m.id AS match_id,
           CASE s.start -> 'players' WHEN '4'::jsonb THEN 4 WHEN '6'::jsonb THEN 6 WHEN '8'::jsonb THEN 8 END AS players
    FROM matches AS m
    JOIN LATERAL (
        SELECT uno_0008_start(r.entry) AS start
        FROM match_records AS r
        WHERE r.match_key = m.match_key AND r.seq = 0 AND r.entry LIKE '%"teams"%'
    ) AS s ON true
    WHERE m.mode IN ('classic', 'flip') AND s.start #> '{options,teams}' = 'true'::jsonb
) AS t
WHERE p.match_id = t.match_id AND t.players IS NOT NULL
  AND t.players = (SELECT count(*) FROM match_players AS q WHERE q.match_id = t.match_id);

DROP FUNCTION uno_0008_start(text);
