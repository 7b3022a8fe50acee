-- 0007 (issue 19 point 4, issue 21 point 1): seasons of the standings, and two server settings.
--
-- season_standings: player_totals per season. Every match of a server counts in the week, the month and the quarter
-- it ended in (UTC; keys '2026-W49' ISO week, '2026-12', '2026-Q4'), whatever the server's period setting is (it
-- only chooses which its board shows); in the all-servers scope (guild_id 0) in its month only. As player_totals:
-- mode = a mode or '*' (all modes), humans only, updated in the transaction that records the match
-- (bot/storage/_seasons.py), recomputable from the match tables (Store.rebuild_aggregates). A season that has ended
-- is never written again: its rows are its archive. Backfilled below from the matches already recorded.
CREATE TABLE season_standings (
    guild_id      INTEGER NOT NULL,  -- 0 = all servers
    season        TEXT    NOT NULL,  -- '2026-W49', '2026-12' or '2026-Q4'
    mode          TEXT    NOT NULL,  -- '*' = all modes
    user_id       INTEGER NOT NULL,
    display_name  TEXT    NOT NULL,  -- from last_match_id
    last_match_id INTEGER NOT NULL,
    wins          INTEGER NOT NULL,
    played        INTEGER NOT NULL,
    abandoned     INTEGER NOT NULL,
    rounds_won    INTEGER NOT NULL,
    points        INTEGER NOT NULL,
    win_rate      REAL    NOT NULL,
    PRIMARY KEY (guild_id, season, mode, user_id)
) WITHOUT ROWID;

-- The seasons each scope has standings in, with how many matches (with a human seat) they count: the choices of
-- /uno leaderboard season:, newest first, without scanning the standings.
CREATE TABLE seasons (
    guild_id INTEGER NOT NULL,  -- 0 = all servers
    period   TEXT    NOT NULL,  -- 'weekly', 'monthly' or 'quarterly'
    season   TEXT    NOT NULL,
    matches  INTEGER NOT NULL,
    PRIMARY KEY (guild_id, period, season)
) WITHOUT ROWID;

-- The server's season period (NULL = monthly) and the level of the lobby's Add AI (NULL = normal); checked when read.
ALTER TABLE guild_settings ADD COLUMN season_period TEXT;
ALTER TABLE guild_settings ADD COLUMN ai_level TEXT;

-- The backfill: each human seat of each recorded match in its three seasons of its server and its month of all
-- servers, each in its mode and in '*'. A win is a first place in a completed match (the winner's seat; in a
-- partner game both partners, as player_totals counts them). The week is the ISO week of the match's Thursday (the
-- date 3 days before, then forward to a Thursday), numbered by that Thursday's year.
CREATE TEMPORARY TABLE season_facts AS
SELECT m.id AS match_id, m.guild_id, m.mode, p.user_id,
       CASE WHEN m.status = 'completed' AND p.placement = 1 THEN 1 ELSE 0 END AS won,
       CASE WHEN m.status = 'completed' THEN 1 ELSE 0 END AS completed,
       CASE WHEN m.status = 'abandoned' THEN 1 ELSE 0 END AS abandoned,
       p.rounds_won, p.points_scored,
       strftime('%Y', m.ended_at, 'unixepoch', '-3 days', 'weekday 4') || '-W'
           || printf('%02d', (CAST(strftime('%j', m.ended_at, 'unixepoch', '-3 days', 'weekday 4') AS INTEGER) + 6) / 7)
           AS weekly,
       strftime('%Y-%m', m.ended_at, 'unixepoch') AS monthly,
       strftime('%Y', m.ended_at, 'unixepoch') || '-Q'
           || ((CAST(strftime('%m', m.ended_at, 'unixepoch') AS INTEGER) + 2) / 3) AS quarterly
FROM match_players AS p JOIN matches AS m ON m.id = p.match_id
WHERE p.user_id IS NOT NULL;

CREATE TEMPORARY TABLE season_scopes (in_guild INTEGER, period TEXT, all_modes INTEGER);
INSERT INTO season_scopes VALUES
    (1, 'weekly', 0), (1, 'monthly', 0), (1, 'quarterly', 0), (0, 'monthly', 0),
    (1, 'weekly', 1), (1, 'monthly', 1), (1, 'quarterly', 1), (0, 'monthly', 1);

-- Grouped per player and season, then named after the last match of each group (a join, not a rewrite of every row).
INSERT INTO season_standings
    (guild_id, season, mode, user_id, display_name, last_match_id, wins, played, abandoned, rounds_won, points,
     win_rate)
SELECT x.g, x.season, x.md, x.user_id, p.display_name, x.last_match_id, x.wins, x.played, x.abandoned, x.rounds_won,
       x.points, CASE WHEN x.played > 0 THEN CAST(x.wins AS DOUBLE PRECISION) / x.played ELSE 0.0 END
FROM (
    SELECT g, season, md, user_id, max(match_id) AS last_match_id, sum(won) AS wins, sum(completed) AS played,
           sum(abandoned) AS abandoned, sum(rounds_won) AS rounds_won, sum(points_scored) AS points
    FROM (
        SELECT CASE WHEN k.in_guild = 1 THEN f.guild_id ELSE 0 END AS g,
               CASE k.period WHEN 'weekly' THEN f.weekly WHEN 'monthly' THEN f.monthly ELSE f.quarterly END AS season,
               CASE WHEN k.all_modes = 1 THEN '*' ELSE f.mode END AS md,
               f.*
        FROM season_facts AS f CROSS JOIN season_scopes AS k
    ) AS y
    GROUP BY g, season, md, user_id
) AS x
JOIN match_players AS p ON p.match_id = x.last_match_id AND p.user_id = x.user_id;

-- A season's board in RANK_ORDER: one range of this index per page (made after the backfill: one sort instead of an
-- insert per row).
CREATE INDEX season_standings_rank
    ON season_standings (guild_id, season, mode, wins DESC, win_rate DESC, played DESC, user_id);

INSERT INTO seasons (guild_id, period, season, matches)
SELECT g, period, season, count(DISTINCT match_id)
FROM (
    SELECT CASE WHEN k.in_guild = 1 THEN f.guild_id ELSE 0 END AS g, k.period,
           CASE k.period WHEN 'weekly' THEN f.weekly WHEN 'monthly' THEN f.monthly ELSE f.quarterly END AS season,
           f.match_id
    FROM season_facts AS f CROSS JOIN season_scopes AS k
    WHERE k.all_modes = 0
)
GROUP BY g, period, season;

DROP TABLE season_facts;
DROP TABLE season_scopes;
