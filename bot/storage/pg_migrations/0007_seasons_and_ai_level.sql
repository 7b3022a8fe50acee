-- 0007 (PostgreSQL, issue 19 point 4, issue 21 point 1): seasons of the standings and two server settings, as
-- SQLite's 0007 (read its comments). The week is to_char's ISO week ('IYYY-"W"IW'), in UTC.
CREATE TABLE season_standings (
    guild_id      BIGINT           NOT NULL,  -- 0 = all servers
    season        TEXT             NOT NULL,  -- '2026-W49', '2026-12' or '2026-Q4'
    mode          TEXT             NOT NULL,  -- '*' = all modes
    user_id       BIGINT           NOT NULL,
    display_name  TEXT             NOT NULL,
    last_match_id BIGINT           NOT NULL,
    wins          INTEGER          NOT NULL,
    played        INTEGER          NOT NULL,
    abandoned     INTEGER          NOT NULL,
    rounds_won    INTEGER          NOT NULL,
    points        BIGINT           NOT NULL,
    win_rate      DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, season, mode, user_id)
);
CREATE TABLE seasons (
    guild_id BIGINT  NOT NULL,  -- 0 = all servers
    period   TEXT    NOT NULL,  -- 'weekly', 'monthly' or 'quarterly'
    season   TEXT    NOT NULL,
    matches  INTEGER NOT NULL,
    PRIMARY KEY (guild_id, period, season)
);

ALTER TABLE guild_settings ADD COLUMN season_period TEXT;
ALTER TABLE guild_settings ADD COLUMN ai_level TEXT;

CREATE TEMPORARY TABLE season_facts ON COMMIT DROP AS
SELECT m.id AS match_id, m.guild_id, m.mode, p.user_id,
       CASE WHEN m.status = 'completed' AND p.placement = 1 THEN 1 ELSE 0 END AS won,
       CASE WHEN m.status = 'completed' THEN 1 ELSE 0 END AS completed,
       CASE WHEN m.status = 'abandoned' THEN 1 ELSE 0 END AS abandoned,
       p.rounds_won, p.points_scored,
       to_char(to_timestamp(m.ended_at) AT TIME ZONE 'UTC', 'IYYY-"W"IW') AS weekly,
       to_char(to_timestamp(m.ended_at) AT TIME ZONE 'UTC', 'YYYY-MM') AS monthly,
       to_char(to_timestamp(m.ended_at) AT TIME ZONE 'UTC', 'YYYY-"Q"Q') AS quarterly
FROM match_players AS p JOIN matches AS m ON m.id = p.match_id
WHERE p.user_id IS NOT NULL;

CREATE TEMPORARY TABLE season_scopes ON COMMIT DROP AS
SELECT * FROM (VALUES
    (1, 'weekly', 0), (1, 'monthly', 0), (1, 'quarterly', 0), (0, 'monthly', 0),
    (1, 'weekly', 1), (1, 'monthly', 1), (1, 'quarterly', 1), (0, 'monthly', 1)
) AS k (in_guild, period, all_modes);

-- Grouped per player and season, then named after the last match of each group (a join, not a rewrite of every row).
INSERT INTO season_standings
    (guild_id, season, mode, user_id, display_name, last_match_id, wins, played, abandoned, rounds_won, points,
     win_rate)
SELECT x.g, x.season, x.md, x.user_id, p.display_name, x.last_match_id, x.wins, x.played, x.abandoned, x.rounds_won,
       x.points, CASE WHEN x.played > 0 THEN x.wins::float8 / x.played ELSE 0.0 END
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
) AS x
GROUP BY g, period, season;
