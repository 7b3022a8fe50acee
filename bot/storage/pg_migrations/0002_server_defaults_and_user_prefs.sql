-- 0002 (PostgreSQL): as SQLite's 0002: what a busy server sets once (default target score, turn pings, a thread per
-- game, default rule options) and each user's own display choices (/uno prefs). NULL = not set: the default applies.
-- Values are checked when read (a bad value falls back to its default), so no CHECK constraints; flags are 0/1.

ALTER TABLE guild_settings ADD COLUMN default_target_score INTEGER;
ALTER TABLE guild_settings ADD COLUMN turn_pings INTEGER;
ALTER TABLE guild_settings ADD COLUMN game_threads INTEGER;
-- A JSON object of SPEC table O options, as Options.to_dict() gives them (only those that differ from SPEC's).
ALTER TABLE guild_settings ADD COLUMN default_options TEXT;

CREATE TABLE user_prefs (
    user_id     BIGINT PRIMARY KEY,
    text_only   INTEGER,
    large_cards INTEGER
);
